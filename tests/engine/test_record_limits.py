"""Records with numbers out of range or nested too deeply are refused with a clear reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import GameError
from engine.core.record import MAX_RECORD_BYTES, RecordError, read_record
from engine.core.setup import MAX_SEED, Setup

BASE = {"format": 1, "game": "carcassonne", "players": ["a", "b"], "actions": []}


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 10**400])
def test_a_seed_outside_64_bits_is_refused(seed: int) -> None:
    with pytest.raises(GameError, match="'seed' must be a whole number from 0 to"):
        Setup.from_json({**BASE, "seed": seed})


def test_the_largest_seed_is_accepted() -> None:
    assert Setup.from_json({**BASE, "seed": MAX_SEED}).seed == MAX_SEED


def test_replay_reports_a_record_nested_too_deeply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["replay", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "error": "cannot read the record: it is nested too deeply: more than 32 lists or "
        "objects inside each other at line 1, column 33",
        "action": None,
    }


@pytest.mark.parametrize(
    ("data", "code", "says"),
    [
        (b"", "empty", "it is empty"),
        (b"\xff\xfe", "not_text", "not text (UTF-8): byte 0"),
        (b"[1, 2]", "not_object", "a JSON list, a record is a JSON object"),
        (b'{"a":\n  [1,]}', "invalid", "invalid JSON at line 2, column 6"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "huge_number", "thousands of digits"),
        (b" " * (MAX_RECORD_BYTES + 1), "too_big", "it is too large"),
        (b'{"a": ' * 40 + b"1" + b"}" * 40, "too_deep", "line 1, column 193"),
        (b'{"actions": [' + b"[" * 31 + b"]" * 31 + b"]}", "too_deep", "more than 32"),
        (b'{"format": 2, "players": ["a"], "actions": []}', "position", "game still running"),
    ],
)
def test_bytes_that_cannot_be_a_record_are_refused_saying_where(
    data: bytes, code: str, says: str
) -> None:
    with pytest.raises(RecordError) as refused:
        read_record(data)
    assert refused.value.code == code
    assert says in str(refused.value)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"players": ["[" * 100, '{"' * 50, "\\[" * 40], "actions": []})
    assert read_record(text)["players"][0] == "[" * 100


def test_a_real_record_reads_back_as_it_was_written() -> None:
    record = {**BASE, "seed": 5, "actions": [{"type": "place_tile", "x": 0, "y": 1}]}
    assert read_record(json.dumps(record, indent=2).encode()) == record
