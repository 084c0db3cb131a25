"""Records exported before positions existed still replay: one of each family and expansion.

``data/format1`` holds records written by the engine as it was before running games exported
positions (``python -m engine simulate``-style random games, a skip and a forfeit in ``base``, a
computer seat in ``big_box``, a game still running in ``base_running``), and ``expected.json``
what ``python -m engine replay`` printed for each then: the scores, whether the game had
finished, and every scoring event.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import DATA

from engine import Game
from engine.cli import replay_output
from engine.core.record import read_record

FORMAT1 = DATA / "format1"
EXPECTED: dict[str, dict[str, Any]] = json.loads((FORMAT1 / "expected.json").read_text("utf-8"))


def _path(name: str) -> Path:
    return FORMAT1 / f"{name}.json"


def test_every_family_and_expansion_has_a_record() -> None:
    records = {p.stem for p in FORMAT1.glob("*.json")} - {"expected"}
    assert records == set(EXPECTED)
    seen = set()
    for name in EXPECTED:
        record = read_record(_path(name).read_bytes())
        assert record["format"] == 1
        seen.add(record.get("game", "carcassonne"))
        seen.update(record.get("expansions", []))
        if record.get("options", {}).get("hand"):
            seen.add("hand")
    assert seen == {
        "carcassonne",
        "hunters",
        "castle",
        "abbey_mayor",
        "inns_cathedrals",
        "traders_builders",
        "river",
        "hand",
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_format1_record_replays_as_before(name: str) -> None:
    record = read_record(_path(name).read_bytes())
    status, output = replay_output(record)
    assert status == 0
    assert output == EXPECTED[name]
    game = Game.from_record(record)
    assert game.finished == EXPECTED[name]["finished"]
    assert game.record()["actions"] == [
        {k: v for k, v in action.items() if k != "forced"} for action in record["actions"]
    ]
