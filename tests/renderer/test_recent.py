"""A render worker's recent games: the state rebuilt from the kept one is the replay's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import Game, Pass, Phase, Setup
from renderer.jobs import Job, draw, run
from renderer.options import RenderOptions
from renderer.recent import RecentGames

SETUPS = [
    Setup(players=("A", "B"), seed=3),
    Setup(players=("A", "B", "C"), seed=3, expansions=("abbey_mayor",), options={"hand": True}),
    Setup(game="hunters", players=("A", "B"), seed=3),
    Setup(game="castle", players=("A", "B"), seed=3),
]


def _records(setup: Setup, moves: int, seed: int = 7) -> list[dict[str, Any]]:
    """The game's record after each of ``moves`` random actions (figures half the time)."""
    game = Game(setup)
    rng = random.Random(seed)
    records = [game.record()]
    for _ in range(moves):
        if game.finished:
            break
        if game.decision.phase is Phase.TILE:
            game.play(rng.choice(list(game.legal_placements())))
        else:
            figures = game.legal_figures()
            game.play(rng.choice(figures) if figures and rng.random() < 0.5 else Pass())
        records.append(game.record())
    return records


def _same_state(a: Game, b: Game) -> None:
    assert a.record() == b.record()
    assert a.decision == b.decision
    assert a.scores == b.scores
    assert a.projected_scores() == b.projected_scores()
    assert a.unplaced_tiles() == b.unplaced_tiles()
    assert sorted(a.board.tiles) == sorted(b.board.tiles)


@pytest.mark.parametrize("setup", SETUPS, ids=["base", "abbey_mayor_hand", "hunters", "castle"])
def test_a_game_drawn_move_after_move_reaches_the_replayed_state(setup: Setup) -> None:
    recent = RecentGames()
    records = _records(setup, 80)[::3]  # a picture every few actions
    for record in records:
        _same_state(recent.game(record), Game.from_record(record))
    assert len(recent) == 1
    # Only the first picture replayed its record whole.
    assert (recent.missed, recent.found) == (1, len(records) - 1)


def test_the_turn_picture_is_the_same_bytes_as_from_a_replay() -> None:
    records = _records(SETUPS[1], 40)
    for record in (records[20], records[21], records[40]):
        job = Job("turn", record, RenderOptions())
        assert run(job) == draw(Game.from_record(record), job)


def test_an_undone_move_or_another_game_with_the_same_setup_is_replayed_whole() -> None:
    recent = RecentGames()
    records = _records(SETUPS[0], 30)
    recent.game(records[30])
    _same_state(recent.game(records[12]), Game.from_record(records[12]))  # an undo
    other = _records(SETUPS[0], 30, seed=8)[30]  # same setup, other moves
    _same_state(recent.game(other), Game.from_record(other))
    _same_state(recent.game(records[30]), Game.from_record(records[30]))


def test_each_caller_gets_its_own_copy() -> None:
    recent = RecentGames()
    records = _records(SETUPS[0], 10)
    mine = recent.game(records[10])
    assert mine.decision.phase is Phase.TILE
    mine.play(mine.legal_placements()[0])
    _same_state(recent.game(records[10]), Game.from_record(records[10]))


def test_a_record_that_does_not_play_fails_as_its_replay_does() -> None:
    recent = RecentGames()
    records = _records(SETUPS[0], 10)
    recent.game(records[10])
    broken = {**records[10], "actions": [*records[10]["actions"], records[10]["actions"][0]]}
    with pytest.raises(ValueError) as replayed:
        Game.from_record(broken)
    with pytest.raises(ValueError) as kept:
        recent.game(broken)
    assert str(kept.value) == str(replayed.value)
    _same_state(recent.game(records[10]), Game.from_record(records[10]))


def test_the_least_recently_drawn_games_are_dropped_first() -> None:
    recent = RecentGames(size=2)
    first, second, third = (Setup(players=("A", "B"), seed=seed).to_json() for seed in (1, 2, 3))
    for record in (first, second, first, third):
        recent.game({**record, "actions": []})
    assert len(recent) == 2
    assert {json.loads(key)["seed"] for key in recent._kept} == {1, 3}
