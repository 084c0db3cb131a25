"""The game turn by turn (engine.core.timeline): turn ends and the scores over time.

The hand-built records of ``data/records`` have known scores (see test_records.py); the series
below are worked out from the same sketches, turn by turn, not taken from the engine.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from support import DATA

from engine import Game, Setup
from engine.cli import play_random
from engine.core.timeline import score_series, turn_ends

RECORDS = DATA / "records"


def record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text("utf-8"))
    return data


# name -> (scores after each turn, from the start; scores after the end-of-game scoring)
SERIES: dict[str, tuple[list[tuple[int, ...]], tuple[int, ...] | None]] = {
    # A's thief on W (turn 1), B closes the road with another W (turn 2): 3 for A; not over.
    "unfinished": ([(0, 0), (0, 0), (3, 0)], None),
    # B's knight closes D's 2-tile city on turn 2 (2 for B); A's open road D U U U: 4 at the end.
    "hand": ([(0, 0), (0, 0), (0, 2), (0, 2), (0, 2), (0, 2)], (4, 2)),
    # The monk's cloister is closed by its 8th neighbour, on turn 8: 9.
    "cloister": ([(0,), (0,), (0,), (0,), (0,), (0,), (0,), (0,), (9,)], (9,)),
    # Nothing scores during play; B's monk with one neighbour: 2 at the end.
    "discard": ([(0, 0), (0, 0), (0, 0)], (0, 2)),
    # The open city scores only at the end: 7 for Green.
    "green_black": ([(0, 0)] * 6, (7, 0)),
}


@pytest.mark.parametrize("name", sorted(SERIES))
def test_the_score_series_of_hand_built_records(name: str) -> None:
    by_turn, final = SERIES[name]
    series = score_series(record(name))
    assert list(series.by_turn) == by_turn
    assert series.final == final
    assert series.turns == len(by_turn) - 1


def test_turn_ends_say_who_placed_what_and_how_far_the_record_is_played() -> None:
    ends = [end for end, _game in turn_ends(record("unfinished"))]
    assert [(e.number, e.player, e.placed, e.actions) for e in ends] == [
        (0, None, None, 0),
        (1, 0, (1, 0), 2),
        (2, 1, (-1, 0), 4),
    ]
    assert score_series(record("unfinished")).of(0) == [0, 0, 3]
    assert score_series(record("hand")).of(0) == [0, 0, 0, 0, 0, 0, 4]


GAMES = [
    Setup(players=("A", "B"), seed=11),
    Setup(players=tuple("ABCDEF"), seed=12, expansions=("abbey_mayor",)),
    Setup(players=("A", "B", "C"), seed=13, game="hunters"),
    Setup(players=("A", "B"), seed=14, game="castle"),
]


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: f"{s.game}-{len(s.players)}")
def test_each_turn_end_is_the_game_replayed_to_that_action(setup: Setup) -> None:
    game = Game(setup)
    play_random(game, random.Random(setup.seed))
    full = game.record()
    ends = []
    for end, live in turn_ends(full):
        # The game given is the one replayed, read as the turn ends.
        assert end.actions == len(live.actions)
        if end.number % 9 == 0 or end.final is not None:
            replayed = Game.from_record({**full, "actions": full["actions"][: end.actions]})
            assert replayed.board.tiles.keys() == live.board.tiles.keys()
            assert end.final is not None or tuple(replayed.scores) == end.scores
        ends.append((end, None))
    last = ends[-1][0]
    assert last.actions == len(full["actions"])
    assert last.final == tuple(game.scores)
    # Every placed tile belongs to one turn, and the tiles placed are the board's.
    placed = {end.placed for end, _ in ends if end.placed is not None}
    assert placed <= set(game.board.tiles)
    series = score_series(full)
    assert series.final == tuple(game.scores)
    for player in range(game.players):
        points = series.of(player)
        assert points == sorted(points), "scores never go down"
