"""Records with numbers out of range or nested too deeply are refused with a clear reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import GameError
from engine.setup import MAX_SEED, Setup

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
    assert out == {"error": "cannot read the record: it is nested too deeply", "action": None}
