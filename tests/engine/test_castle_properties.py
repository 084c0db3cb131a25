"""The Castle: invariants over random games (hypothesis), played with the CLI's random moves.

Random moves include wall tiles (1, 2, 3) whenever they are legal; some games are started with
wall tiles in hand so that every kind is exercised, and all of them end with the final scoring.
"""

from __future__ import annotations

import contextlib
import io
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CastleGame, Game, Setup, UseWallTile
from engine.castle.board import castle_geometry, paths_match
from engine.cli import main, random_action
from engine.core.tiles import EDGE_STEPS

SEEDS = st.integers(0, 2**32)
HANDS = st.lists(st.integers(1, 9), max_size=4)
FEW = settings(max_examples=40, deadline=None)


def play_out(seed: int, hand: list[int], check: object = None) -> CastleGame:
    game = Game(Setup(players=("Black", "White"), game="castle", seed=seed))
    assert isinstance(game, CastleGame)
    game.held[0] = [(wall, -1) for wall in hand]
    game.held[1] = [(wall, -1) for wall in reversed(hand)]
    rng = random.Random(seed)
    while not game.finished:
        game.play(random_action(game, rng))
        if callable(check):
            check(game)
    return game


@FEW
@given(seed=SEEDS, hand=HANDS)
def test_every_tile_lies_inside_the_castle_and_paths_continue(seed: int, hand: list[int]) -> None:
    game = play_out(seed, hand)
    interior = castle_geometry().interior
    starts = {s.cell for s in castle_geometry().starts}
    for pos, placed in game.board.tiles.items():
        assert pos in interior or pos in starts
        for side, (dx, dy) in enumerate(EDGE_STEPS):
            other = game.board.tiles.get((pos[0] + dx, pos[1] + dy))
            if other is not None:
                mine, theirs = placed.oriented.edges[side], other.oriented.edges[(side + 2) % 4]
                assert paths_match(mine, theirs)


@FEW
@given(seed=SEEDS, hand=HANDS)
def test_six_subjects_each_are_on_the_board_or_in_supply(seed: int, hand: list[int]) -> None:
    def check(game: CastleGame) -> None:
        on_board = [0, 0]
        for figure in game.figures():
            on_board[figure.player] += 1
        for player in (0, 1):
            assert on_board[player] + game.supply[player]["subject"] == 6
            assert game.supply[player]["palace"] == (game.palaces[player] is None)

    play_out(seed, hand, check)


@FEW
@given(seed=SEEDS, hand=HANDS)
def test_scores_never_decrease_and_add_up(seed: int, hand: list[int]) -> None:
    last = [0, 0]

    def check(game: CastleGame) -> None:
        assert all(now >= before for now, before in zip(game.scores, last, strict=True))
        assert game.scores == [sum(b.values()) for b in game.breakdown]
        last[:] = game.scores

    play_out(seed, hand, check)


@FEW
@given(seed=SEEDS, cut=st.floats(0, 1))
def test_replaying_the_record_rebuilds_an_identical_state(seed: int, cut: float) -> None:
    game = play_out(seed, [])
    record = json.loads(json.dumps(game.record()))
    assert record["game"] == "castle"
    assert Game.from_record(record).snapshot() == game.snapshot()
    keep = int(len(record["actions"]) * cut)
    partial = Game.from_record({**record, "actions": record["actions"][:keep]})
    again = Game(game.setup)
    for action in game.actions[:keep]:
        again.play(action)
    assert partial.snapshot() == again.snapshot()


@FEW
@given(seed=SEEDS, hand=HANDS)
def test_the_game_ends_with_the_stack_empty_and_16_squares_or_more_left(
    seed: int, hand: list[int]
) -> None:
    game = play_out(seed, hand)
    assert game.finished and game.tiles_left == 0
    assert len(game.board.tiles) - 7 + len(game.discarded) == 60
    assert 76 - (len(game.board.tiles) - 7) >= 16
    assert game.winners == tuple(p for p, s in enumerate(game.scores) if s == max(game.scores))


@FEW
@given(seed=SEEDS)
def test_wall_tiles_taken_are_each_played_at_most_once(seed: int) -> None:
    game = play_out(seed, [1, 2, 3])
    dealt = [w for w in game.towers.values() if w is not None]
    for player in (0, 1):
        assert len(game.played[player]) + len(game.wall_hand(player)) >= 3
    assert all(1 <= w <= 9 for w in dealt)
    used = [a for a in game.actions if isinstance(a, UseWallTile)]
    assert len(used) == sum(len(p) for p in game.played)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_simulate_never_raises(seed: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["simulate", "--game", "castle", "--games", "2", "--seed", str(seed)])
    assert status == 0
    summary = json.loads(out.getvalue())
    assert summary["game"] == "castle" and summary["players"] == 2
