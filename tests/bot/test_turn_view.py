"""The turn view (:mod:`bot.turn_view`) of every family and expansion, held against the engine.

Random games of each setup are played to their end; at every decision the view is built from a
copy and checked against what the engine itself allows: the lettered squares and holes, the
rotations, the figure spots with the roles the engine gives them when they are played, the
wagon targets, the end-game abbey's holes, The Castle's wall tiles and their targets, the
tactical hand and the bonus tiles. No Discord is involved.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from bot.turn_view import (
    PAGE_PLACES,
    FigureChoice,
    TurnScreen,
    closing,
    figure_choices,
    is_open_land,
    label,
    reading_order,
    step_screen,
    turn_screen,
    wall_value,
)
from engine import (
    Game,
    MoveWagon,
    Pass,
    Phase,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Setup,
    UseWallTile,
)
from engine.carcassonne import traders_builders
from engine.cli import random_action
from engine.core.events import FigurePlaced
from engine.core.turn import distinct_orientations

ALL = ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")

#: (name, setup of a seed, its seeds): every family and expansion, the tactical hand included.


def setup_of(players: int, *expansions: str, **more: object) -> Callable[[int], Setup]:
    names = ("a", "b", "c", "d")[:players]
    return lambda seed: Setup(players=names, seed=seed, expansions=expansions, **more)  # type: ignore[arg-type]


SETUPS: list[tuple[str, Callable[[int], Setup], Sequence[int]]] = [
    ("base", setup_of(3), range(3)),
    ("abbey_mayor", setup_of(3, "abbey_mayor"), range(4)),
    ("inns_cathedrals", setup_of(2, "inns_cathedrals"), range(2)),
    ("traders_builders", setup_of(2, "traders_builders"), range(3)),
    ("river", setup_of(2, "river"), range(2)),
    ("big_box", setup_of(4, *ALL), (0, 4)),
    ("hand", setup_of(2, options={"hand": True}), range(2)),
    ("hand_big_box", setup_of(2, *ALL, options={"hand": True}), range(1)),
    ("hunters", setup_of(3, game="hunters"), range(4)),
    ("castle", setup_of(2, game="castle"), range(4)),
    # Seeds where random play meets wall tiles, with targets (10, 28) and without (20).
    ("castle_walls", setup_of(2, game="castle"), (10, 20, 28)),
]


def check_tile_phase(game: Game, screen: TurnScreen, seen: Counter[str]) -> None:
    placements = list(game.legal_placements())
    squares = {(p.x, p.y) for p in placements}
    holes = {(a.x, a.y) for a in game.legal(PlaceAbbey)}
    assert set(screen.squares) == squares
    assert set(screen.holes) == holes
    lettered = reading_order(squares | holes)
    assert dict(screen.labels) == {pos: label(i) for i, pos in enumerate(lettered)}
    assert list(screen.labels) == lettered and list(screen.squares) == reading_order(squares)
    if game.hand_mode:
        seen["hand"] += 1
        assert screen.hand == tuple(game.decision.hand) and screen.tile is None
        assert screen.card_tile is None
        for name in set(game.decision.hand):
            mine = [p for p in placements if p.tile == name]
            cells = screen.cells(name)
            assert sorted((pos, r) for pos, rs in cells.items() for r in rs) == sorted(
                ((p.x, p.y), p.rotation) for p in mine
            )
            check_offered(game, screen, name)
    else:
        tile = game.decision.tile
        assert tile is not None and screen.tile == tile and screen.card_tile == tile
        legal = sorted(((p.x, p.y), p.rotation) for p in placements)
        assert sorted((pos, r) for pos, rs in screen.squares.items() for r in rs) == legal
        check_offered(game, screen, None)
        looks = set(distinct_orientations(game.kinds[tile]))
        assert set(screen.card) == {r for _, r in legal if r in looks}
    if holes:
        seen["holes"] += 1
    bonus = screen.bonus
    plugin = game.plugins.get("traders_builders")
    builder = plugin is not None and traders_builders.of(game).bonus_turn
    gold = bool(getattr(game, "in_bonus", False))
    assert bonus == ("builder" if builder else "gold" if gold else None)
    if bonus is not None:
        seen[bonus] += 1


def check_offered(game: Game, screen: TurnScreen, tile: str | None) -> None:
    """Each look of the tile is offered once per square, and nothing that does not fit."""
    name = tile or game.decision.tile
    assert name is not None
    kind = game.kinds[name]
    for pos, rotations in screen.cells(tile).items():
        offered = screen.offered(pos, tile) or rotations
        assert set(offered) <= set(rotations)
        looks = {kind.oriented(r).edges for r in rotations}
        assert {kind.oriented(r).edges for r in offered} == looks
        entries = [e for e in screen.placements(tile) if e.pos == pos]
        assert [e.rotation for e in entries] == list(offered)
        assert all(e.label == screen.labels[pos] for e in entries)


def check_steps(game: Game, screen: TurnScreen, rng: random.Random, seen: Counter[str]) -> None:
    """A few placements tried: the step lists the engine's figures with the engine's roles."""
    firsts: list[PlaceTile | PlaceAbbey] = list(game.legal_placements())
    firsts += game.legal(PlaceAbbey)
    for first in rng.sample(firsts, min(3, len(firsts))):
        step = step_screen(game, screen, first)
        copy = game.fork()
        copy.play(first)
        check_places(copy, step.figures)
        assert all(1 <= len(page) <= PAGE_PLACES for page in step.pages) or not step.figures
        assert [p for page in step.pages for p in page] == list(step.places)
        if len(step.pages) > 1:  # the places on open land on a page of their own
            assert len(step.places) > PAGE_PLACES
            assert not any(is_open_land(p.feature) for p in step.pages[0])
        assert step.label == screen.labels[(first.x, first.y)]
        assert step.oriented is copy.board.tiles[(first.x, first.y)].oriented
        walls = isinstance(first, PlaceTile) and bool(copy.legal(UseWallTile))
        assert step.stays_open is walls
        assert (closing(step) is None) is walls
        if isinstance(first, PlaceTile):
            assert first.rotation in step.rotations or len(step.rotations) == 0
        for choice in step.figures:
            check_role(copy, choice.action, choice.role, choice.feature, seen)


def check_places(game: Game, figures: Sequence[FigureChoice]) -> None:
    """Every legal figure once; one number per place (spot), 1, 2, ... with open land last,
    and the choices in the order of their numbers."""
    assert sorted(map(repr, (f.action for f in figures))) == sorted(map(repr, game.legal_figures()))
    numbers = [int(f.number) for f in figures]
    assert numbers == sorted(numbers)
    by_spot = {f.action.at: f.number for f in figures}
    assert len(set(by_spot.values())) == len(by_spot)
    assert sorted(set(numbers)) == list(range(1, len(by_spot) + 1))
    opens = [is_open_land(f.feature) for f in sorted(figures, key=lambda f: int(f.number))]
    assert opens == sorted(opens)


def check_role(
    game: Game, action: PlaceFigure, role: str, feature: str | None, seen: Counter[str]
) -> None:
    """The role a choice shows is the one the engine announces once it is played."""
    copy = game.fork()
    events = copy.play(action)
    placed = [e for e in events if isinstance(e, FigurePlaced)]
    if placed:
        assert placed[0].role == role, (action, placed[0].role, role)
    tile = game.board.tiles[(action.x, action.y)].oriented
    local = tile.feature_at(action.at)
    assert feature == (tile.features[local].type if local >= 0 else None)
    seen[f"figure {action.figure}"] += 1
    seen[f"role {role}"] += 1


def check(game: Game, rng: random.Random, seen: Counter[str]) -> None:
    screen = turn_screen(game, 7)
    decision = game.decision
    assert screen.game_id == 7 and screen.turn == decision.turn
    assert screen.phase == ("over" if game.finished else decision.phase.value)
    if game.finished:
        return
    assert screen.seat == decision.player
    if decision.phase is Phase.TILE:
        check_tile_phase(game, screen, seen)
        check_steps(game, screen, rng, seen)
    else:
        assert not screen.squares and screen.card_tile is None
    if decision.phase is Phase.FIGURE:
        check_places(game, screen.figures)
        assert figure_choices(game) == screen.figures
    else:
        assert screen.figures == ()
    if decision.phase is Phase.WAGON:
        seen["wagon"] += 1
        moves = game.legal(MoveWagon)
        assert sorted(map(repr, (w.action for w in screen.wagons))) == sorted(map(repr, moves))
        assert [w.label for w in screen.wagons] == [label(i) for i in range(len(moves))]
        for target in screen.wagons:
            x, y, at = target.spot
            assert target.feature == game.figure_feature(PlaceFigure("wagon", x, y, at))
    else:
        assert screen.wagons == ()
    if decision.phase is Phase.ABBEY_END:
        seen["abbey_end"] += 1
        holes = reading_order((a.x, a.y) for a in game.legal(PlaceAbbey))
        assert list(screen.holes) == holes
        assert dict(screen.labels) == {pos: label(i) for i, pos in enumerate(holes)}
    walls = game.legal(UseWallTile)
    values = {wall_value(a) for a in walls if isinstance(a, UseWallTile)}
    assert {w.value for w in screen.walls} == values
    if walls:
        seen["walls"] += 1
        targets = {w.target for w in screen.walls if w.action.target is not None}
        assert targets == set(screen.wall_marks.values())
        # Lettered after the squares of the same picture: no letter names two things.
        first = len(screen.labels)
        ordered = sorted(targets, key=lambda t: (len(t), t))
        assert ordered == [label(first + i) for i in range(len(targets))]
        assert not targets & set(screen.labels.values())
        if targets:
            seen["wall targets"] += 1


@pytest.mark.parametrize(("name", "setup", "seeds"), SETUPS, ids=[s[0] for s in SETUPS])
def test_the_turn_view_is_what_the_engine_allows(
    name: str, setup: Callable[[int], Setup], seeds: Sequence[int]
) -> None:
    seen: Counter[str] = Counter()
    for seed in seeds:
        game = Game(setup(seed))
        rng, picker = random.Random(seed), random.Random(-seed)
        while not game.finished:
            check(game, picker, seen)
            game.play(random_action(game, rng))
        check(game, picker, seen)
    wanted = {
        "abbey_mayor": {"holes", "wagon", "figure mayor", "figure barn", "role monk"},
        "traders_builders": {"builder", "figure builder", "figure pig"},
        "big_box": {"holes", "wagon", "builder", "figure large_follower", "figure pig"},
        "hand": {"hand"},
        "hand_big_box": {"hand", "holes"},
        "hunters": {"gold", "role hunter", "role gatherer", "role fisher", "figure hut"},
        "castle": {"role messenger", "role knight", "role burgher"},
        "castle_walls": {"walls", "wall targets"},
        "base": {"role knight", "role thief", "role monk", "role farmer"},
    }.get(name, set())
    assert wanted <= set(seen), f"{name}: never met {wanted - set(seen)}"


def test_a_finished_game_offers_nothing() -> None:
    game = Game(Setup(players=("a", "b"), seed=3))
    rng = random.Random(3)
    while not game.finished:
        game.play(random_action(game, rng))
    screen = turn_screen(game)
    assert screen.finished and screen.phase == "over" and screen.seat is None
    assert not (screen.squares or screen.holes or screen.figures or screen.wagons or screen.walls)


def test_the_castle_keeps_a_turn_open_only_after_a_tile_with_wall_tiles_left() -> None:
    for seed in range(40):
        game = Game(Setup(players=("a", "b"), seed=seed, game="castle"))
        rng = random.Random(seed)
        while not game.finished:
            if game.phase is Phase.TILE and game.legal(UseWallTile):
                screen = turn_screen(game)
                for first in list(game.legal_placements())[:5]:
                    step = step_screen(game, screen, first)
                    copy = game.fork()
                    copy.play(first)
                    assert step.stays_open is bool(copy.legal(UseWallTile))
                    if step.stays_open:
                        figure_step = step_screen(copy, turn_screen(copy), None)
                        assert not figure_step.stays_open  # in the figure step a pass ends it
                        assert isinstance(closing(figure_step), Pass)
                        return
            game.play(random_action(game, rng))
    raise AssertionError("no castle turn stayed open in 40 games")
