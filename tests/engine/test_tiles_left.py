"""The tiles not placed yet and the dead squares (``Game.unplaced_tiles``, ``Game.dead_squares``):
hand-made positions, then invariants over random games of every family."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support import new_game, phase_of, play_turns

from engine import Game, Pass, Phase, PlaceAbbey, PlaceTile, Setup

FEW = settings(max_examples=25, deadline=None)


def test_start_then_a_cloister_leaves_the_city_and_road_sides_dead() -> None:
    # Start D: city north, road east-west, field south. Only a cloister (B) is left.
    game = new_game("DB")
    assert game.unplaced_tiles() == {"B": 1}
    assert game.dead_squares() == {(0, -1), (1, 0), (-1, 0)}
    assert {(x, y) for (x, y), _ in game.placements(game.kinds["B"])} == {(0, 1)}


def test_a_square_lives_while_one_tile_still_fits_it() -> None:
    # D then E (a city cap) then B: E fits north of the start; once placed, north is gone.
    game = new_game("DEB")
    assert game.unplaced_tiles() == {"E": 1, "B": 1}
    assert game.dead_squares() == {(1, 0), (-1, 0)}
    play_turns(game, [(0, -1, 180, None)])
    assert game.unplaced_tiles() == {"B": 1}
    assert (0, -1) not in game.dead_squares()
    assert {(1, 0), (-1, 0)} <= game.dead_squares()
    assert (0, -2) not in game.dead_squares()  # the cap's field: the cloister fits there


def test_the_drawn_tile_counts_until_it_is_placed() -> None:
    game = new_game("DEE")
    assert game.decision.tile == "E"
    assert game.unplaced_tiles() == {"E": 2}
    assert game.tiles_left == 1


def test_hands_count_but_not_whose_they_are() -> None:
    game = Game(Setup(players=("A", "B", "C"), seed=5, options={"hand": True}))
    pool = game.unplaced_tiles()
    assert sum(pool.values()) == game.tiles_left + 9
    for hand in game.hands:
        for name in hand:
            assert pool[name] >= 1


def test_nothing_is_dead_once_the_game_is_over() -> None:
    game = new_game("DB")
    game.play(PlaceTile(0, 1, 0))
    game.play(Pass())
    assert game.finished
    assert game.unplaced_tiles() == {}
    assert game.dead_squares() == frozenset()


def test_an_abbey_keeps_a_hole_alive_until_played() -> None:
    game = Game(Setup(players=("A", "B"), seed=1, expansions=("abbey_mayor",)))
    assert game.unplaced_tiles()["ABBEY"] == 2
    rng = random.Random(3)
    while not game.board.holes() and not game.finished:
        _random_move(game, rng, abbeys=False)
    if game.finished:  # no hole in this game: nothing to show
        return
    hole = game.board.holes()[0]
    assert hole not in game.dead_squares()
    game.plugins["abbey_mayor"].abbeys[:] = [0, 0]  # type: ignore[attr-defined]
    assert "ABBEY" not in game.unplaced_tiles()
    fits = any(game.board.fits(game.kinds[n], game.board.frontier[hole]) for n in game.drawn_pool())
    assert (hole in game.dead_squares()) is not fits


# -- invariants over random games -------------------------------------------------------------


def _random_move(game: Game, rng: random.Random, abbeys: bool = True) -> Any:
    if phase_of(game) is Phase.TILE:
        moves: list[Any] = list(game.legal_placements())
        if abbeys:
            moves += game.legal(PlaceAbbey)
        move = moves[rng.randrange(len(moves))]
    else:
        options: list[Any] = [*game.legal_figures()]
        if game.plugins and phase_of(game) is Phase.ABBEY_END:
            options += game.legal(PlaceAbbey)
        options.append(Pass())
        move = options[rng.randrange(len(options))]
    game.play(move)
    return move


def _held_elsewhere(game: Game) -> int:
    bonus = len(getattr(game, "bonus_stack", ()))
    abbeys = sum(
        n
        for p in game.plugins.values()
        for n, out in zip(getattr(p, "abbeys", ()), game.out, strict=False)
        if not out
    )
    return int(bonus + abbeys)


FAMILIES = st.sampled_from(
    [
        ("carcassonne", (), {}, 2),
        ("carcassonne", (), {"hand": True}, 3),
        ("carcassonne", ("abbey_mayor",), {}, 4),
        ("carcassonne", ("abbey_mayor",), {"hand": True}, 2),
        ("hunters", (), {}, 3),
        ("castle", (), {}, 2),
    ]
)


@FEW
@given(seed=st.integers(0, 2**32), family=FAMILIES)
def test_counts_add_up_and_dead_squares_never_get_a_tile(seed: int, family: Any) -> None:
    name, expansions, options, players = family
    game = Game(
        Setup(
            game=name,
            expansions=expansions,
            options=options,
            players=tuple(f"P{i}" for i in range(players)),
            seed=seed,
        )
    )
    rng = random.Random(seed)
    dead: frozenset[tuple[int, int]] = frozenset()
    while not game.finished:
        pool = game.unplaced_tiles()
        in_hands = sum(len(h) for h in game.hands)
        drawn = game.tile is not None
        assert sum(pool.values()) == game.tiles_left + in_hands + drawn + _held_elsewhere(game)
        assert all(count > 0 for count in pool.values())
        dead = game.dead_squares()
        assert dead <= set(game.board.frontier)
        if phase_of(game) is Phase.TILE:
            for kind in game.placeable_kinds():
                assert not any(pos in dead for pos, _ in game.placements(kind))
        move = _random_move(game, rng)
        if isinstance(move, PlaceTile):
            assert (move.x, move.y) not in dead
    assert game.dead_squares() == frozenset()


@FEW
@given(seed=st.integers(0, 2**32))
def test_a_dead_square_of_the_base_game_stays_dead(seed: int) -> None:
    game = Game(Setup(players=("A", "B"), seed=seed))
    rng = random.Random(seed)
    seen: set[tuple[int, int]] = set()
    while not game.finished:
        now = game.dead_squares()
        assert seen <= now
        seen |= now
        _random_move(game, rng)
