"""Random games with every combination of Abbey & Mayor, Inns & Cathedrals and The River (the
base game always), 1 to 6 players and every option of RULES.md section 1: they end, every tile is
placed or discarded, no figure is lost, scores never go down, and the record replays to the same
state; the command line plays and replays them.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from bigbox_helpers import ALL, NAMES, play_checked
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Setup
from engine.cli import main as cli_main
from engine.cli import replay_output
from engine.core.tiles import load_set

COMBINATIONS = [c for n in range(len(ALL) + 1) for c in combinations(ALL, n)]
OPTIONS = st.fixed_dictionaries(
    {
        "small_city": st.sampled_from(["classic", "modern"]),
        "farmers": st.sampled_from(["classic", "classic4", "modern"]),
        "incomplete": st.sampled_from(["standard", "half"]),
        "hand": st.booleans(),
    }
)
SPEC_FEATURES = {"road", "city", "cloister", "field", "barn", "goods"}


def total_tiles(expansions: tuple[str, ...]) -> int:
    sets = ("base", *expansions)
    return sum(k.count for s in sets for k in load_set(s) if not k.abbey)


def river_is_one_open_path(game: Game) -> bool:
    """Every placed river tile belongs to the spring's river, open at one end at most."""
    board = game.board
    river = board.root_of((0, 0), 0)
    placed = {
        pos
        for pos, tile in board.tiles.items()
        if any(f.type == "river" for f in tile.oriented.features)
    }
    return board.ftiles[river] == placed and board.open[river] <= 1


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 6),
    expansions=st.sampled_from(COMBINATIONS),
    options=OPTIONS,
)
def test_any_random_game_ends_keeps_its_figures_and_tiles_and_replays(
    seed: int, players: int, expansions: tuple[str, ...], options: dict[str, Any]
) -> None:
    setup = Setup(players=NAMES[:players], seed=seed, expansions=expansions, options=options)
    game = Game(setup)
    play_checked(game, random.Random(seed))
    assert game.finished and game.tiles_left == 0
    assert game.hands == [[] for _ in range(players)]
    placed = sum(1 for t in game.board.tiles.values() if t.oriented.kind != "ABBEY")
    assert placed + len(game.discarded) == total_tiles(expansions)
    if "river" in expansions:
        assert game.board.tiles[(0, 0)].oriented.kind == "R01"
        assert river_is_one_open_path(game)
    again = Game.from_record(json.loads(json.dumps(game.record())))
    assert again.snapshot() == game.snapshot()


@pytest.mark.parametrize("expansions", [c for c in COMBINATIONS if c])
def test_records_name_the_expansions_and_replay_on_the_command_line(
    expansions: tuple[str, ...],
) -> None:
    game = Game(Setup(players=NAMES[:4], seed=11, expansions=expansions))
    play_checked(game, random.Random(11))
    record = json.loads(json.dumps(game.record()))
    assert record["expansions"] == list(expansions)
    status, output = replay_output(record)
    assert status == 0 and output["finished"]
    assert output["scores"] == dict(zip(NAMES[:4], game.scores, strict=True))
    assert {e["feature"] for e in output["events"]} <= SPEC_FEATURES
    # The contract's five fields, and only a road's inn or a city's cathedral beside them.
    marks = {"road": {"inn"}, "city": {"cathedral"}} if "inns_cathedrals" in expansions else {}
    for event in output["events"]:
        extra = set(event) - {"type", "player", "feature", "points", "final"}
        assert len(event) == 5 + len(extra), event
        assert extra <= marks.get(event["feature"], set()), event
        assert all(event[mark] is True for mark in extra), event


def test_simulate_with_all_three_writes_a_record_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    args = ["simulate", "--games", "3", "--players", "6", "--record", str(path)]
    for name in ("inns_cathedrals", "river", "abbey_mayor"):
        args += ["--expansion", name]
    assert cli_main([*args, "--option", "incomplete=half", "--option", "hand=true"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["expansions"] == ["inns_cathedrals", "river", "abbey_mayor"]
    assert cli_main(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["finished"] and len(replayed["scores"]) == 6
