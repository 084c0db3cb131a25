"""Invariants over random games (hypothesis): seeds, 1 to 6 players, every option value.

Each example plays a whole seeded game with random legal moves (random placement, random figure
or pass) and checks the invariants after every action.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support import followers_in_play, mismatched_edges, phase_of

from engine import Game, Pass, Phase, Setup
from engine.cli import main

OPTIONS = st.fixed_dictionaries(
    {
        "small_city": st.sampled_from(["classic", "modern"]),
        "farmers": st.sampled_from(["classic", "classic4", "modern"]),
        "incomplete": st.sampled_from(["standard", "half"]),
        "hand": st.booleans(),
    }
)
SEEDS = st.integers(0, 2**32)
PLAYERS = st.integers(1, 6)
FEW = settings(max_examples=40, deadline=None)


def random_action(game: Game, rng: random.Random) -> Any:
    if phase_of(game) is Phase.TILE:
        placements = game.legal_placements()
        return placements[rng.randrange(len(placements))]
    figures = game.legal_figures()
    pick = rng.randrange(len(figures) + 1)
    return figures[pick] if pick < len(figures) else Pass()


def play_out(seed: int, players: int, options: dict[str, Any], check: Any = None) -> Game:
    game = Game(Setup(players=tuple(f"P{i}" for i in range(players)), seed=seed, options=options))
    rng = random.Random(seed)
    while not game.finished:
        game.play(random_action(game, rng))
        if check is not None:
            check(game)
    return game


@FEW
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_every_shared_edge_matches(seed: int, players: int, options: dict[str, Any]) -> None:
    game = play_out(seed, players, options)
    assert mismatched_edges(game) == []


@FEW
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_each_player_always_has_seven_followers_on_the_board_or_in_supply(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    def check(game: Game) -> None:
        on_board = followers_in_play(game)
        for player in range(players):
            assert on_board[player] + game.supply[player]["follower"] == 7
            assert game.supply[player]["follower"] >= 0

    play_out(seed, players, options, check)


@FEW
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_scores_never_decrease(seed: int, players: int, options: dict[str, Any]) -> None:
    last = [0] * players

    def check(game: Game) -> None:
        assert all(now >= before for now, before in zip(game.scores, last, strict=True))
        assert game.scores == [sum(b.values()) for b in game.breakdown]
        last[:] = game.scores

    play_out(seed, players, options, check)


@FEW
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS, cut=st.floats(0, 1))
def test_replaying_the_record_rebuilds_an_identical_state(
    seed: int, players: int, options: dict[str, Any], cut: float
) -> None:
    game = play_out(seed, players, options)
    record = json.loads(json.dumps(game.record()))  # through JSON, as a file would
    assert Game.from_record(record).snapshot() == game.snapshot()
    # Part-way through too: the first actions of the record rebuild the game at that point.
    keep = int(len(record["actions"]) * cut)
    partial = Game.from_record({**record, "actions": record["actions"][:keep]})
    again = Game(game.setup)
    for action in game.actions[:keep]:
        again.play(action)
    assert partial.snapshot() == again.snapshot()


@FEW
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_the_game_always_ends_with_the_stack_empty(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    game = play_out(seed, players, options)
    assert game.finished
    assert game.tiles_left == 0
    assert game.hands == [[] for _ in range(players)]
    assert len(game.board.tiles) + len(game.discarded) == 72
    assert game.winners == tuple(
        p for p, score in enumerate(game.scores) if score == max(game.scores)
    )


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=PLAYERS, options=OPTIONS)
def test_simulate_never_raises(seed: int, players: int, options: dict[str, Any]) -> None:
    args = ["simulate", "--games", "1", "--players", str(players), "--seed", str(seed)]
    for name, value in options.items():
        args += ["--option", f"{name}={str(value).lower()}"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(args)
    assert status == 0
    summary = json.loads(out.getvalue())
    assert summary["games"] == 1
    assert summary["players"] == players


@FEW
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_the_counted_placements_are_the_listed_ones(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    # The board counts placements from lists kept beside ``by_key`` (key ids and square counts,
    # with empty slots where keys left) and finds the i-th placement from those counts; the
    # listing walks ``by_key`` itself.
    from engine.core.fits import KEYS

    def check(game: Game) -> None:
        board = game.board
        slots = [(KEYS[kid], size) for kid, size in zip(board._keys, board._sizes, strict=True)]
        live = [(key, len(cells)) for key, cells in board.by_key.items()]
        assert [slot for slot in slots if slot[1]] == live
        assert {key: slots[slot][0] for key, slot in board._slot.items()} == {
            key: key for key in board.by_key
        }
        if phase_of(game) is Phase.TILE:
            view = game.legal_placements()
            listed = list(view)
            assert len(view) == len(listed)
            assert [view[i] for i in range(len(listed))] == listed
            assert view[-1] == listed[-1]

    play_out(seed, players, options, check)
