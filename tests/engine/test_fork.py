"""``Game.fork``: an independent copy for search. Playing on a fork never changes the original,
and a fork plays on exactly like the original would (same state as replaying its record)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Phase, Setup
from engine.cli import random_action

SETUPS = [
    Setup(players=("A", "B"), options={"farmers": "classic"}),
    Setup(players=("A", "B", "C"), options={"hand": True, "farmers": "modern"}),
    Setup(players=("A", "B", "C", "D"), expansions=("abbey_mayor",)),
    Setup(players=("A", "B"), game="hunters"),
    Setup(players=("A", "B"), game="castle"),
]


def with_seed(setup: Setup, seed: int) -> Setup:
    data = setup.to_json()
    data["seed"] = seed
    return Setup.from_json(data)


def played(setup: Setup, seed: int, actions: int) -> tuple[Game, random.Random]:
    """A game of ``setup`` with ``seed`` after up to ``actions`` random actions, and the
    generator that chose them."""
    game = Game(with_seed(setup, seed))
    rng = random.Random(seed)
    for _ in range(actions):
        if game.phase is Phase.OVER:
            break
        game.play(random_action(game, rng))
    return game, rng


@settings(max_examples=40, deadline=None)
@given(
    which=st.integers(0, len(SETUPS) - 1),
    seed=st.integers(0, 10_000),
    fork_at=st.integers(0, 150),
)
def test_a_fork_is_independent_and_plays_on_like_the_original(
    which: int, seed: int, fork_at: int
) -> None:
    game, rng = played(SETUPS[which], seed, fork_at)
    before = game.snapshot()
    fork = game.fork()
    assert fork.snapshot() == before
    forked_rng = random.Random(seed + 1)
    while fork.phase is not Phase.OVER:
        fork.play(random_action(fork, forked_rng))
    assert game.snapshot() == before, "playing on the fork changed the original"
    assert Game.from_record(fork.record()).snapshot() == fork.snapshot()
    # The original still plays on by itself, to the end, like its own replay.
    while game.phase is not Phase.OVER:
        game.play(random_action(game, rng))
    assert Game.from_record(game.record()).snapshot() == game.snapshot()


BIG_BOX = Setup(
    players=("A", "B", "C", "D"),
    expansions=("abbey_mayor", "inns_cathedrals", "river", "traders_builders"),
    options={"farmers": "classic"},
)


@settings(max_examples=30, deadline=None)
@given(
    which=st.integers(0, len(SETUPS)),
    seed=st.integers(0, 10_000),
    at=st.integers(0, 150),
)
def test_projected_scores_in_place_are_those_of_a_fork(which: int, seed: int, at: int) -> None:
    # ``consume=True`` scores the game itself (a search's throwaway copy): the same scores.
    game, _ = played((*SETUPS, BIG_BOX)[which], seed, at)
    before = game.snapshot()
    projected = game.projected_scores()
    assert game.snapshot() == before, "projecting changed the game"
    assert game.fork().projected_scores(consume=True) == projected


@settings(max_examples=20, deadline=None)
@given(which=st.integers(0, len(SETUPS)), seed=st.integers(0, 10_000), at=st.integers(0, 120))
def test_a_fork_and_a_board_clone_copy_every_attribute(which: int, seed: int, at: int) -> None:
    # ``fork`` and ``Board.clone`` copy attribute by attribute: a new attribute must be copied.
    from engine.core.values import state_of

    game, _ = played((*SETUPS, BIG_BOX)[which], seed, at)
    fork = game.fork()
    assert set(state_of(fork)) == set(state_of(game))
    assert set(state_of(fork.board)) == set(state_of(game.board))
    for name, plugin in game.plugins.items():
        assert set(state_of(fork.plugins[name])) == set(state_of(plugin))
    assert fork.snapshot() == game.snapshot()


def test_a_spent_projection_leaves_no_reference_cycle_behind() -> None:
    # A search values thousands of copies: once scored they must be freed by reference
    # counting at once, not wait for the cyclic collector (a quarter of a decision's time).
    import gc

    for setup in (*SETUPS, BIG_BOX):
        game, _ = played(setup, 5, 40)
        expected = game.projected_scores()
        gc.collect()
        gc.disable()
        try:
            spent = game.fork()
            assert spent.projected_scores(consume=True) == expected
            del spent
            assert game.projected_scores() == expected
            left = gc.collect()
        finally:
            gc.enable()
        assert left == 0, setup
