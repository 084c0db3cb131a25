"""Helpers for the Abbey & Mayor tests: the reference tile table, board building, invariants.

The reference table below is a copy of the shared tile facts for the expansion (``tiles/
abbey-mayor.md``), kept here so that the tests compare the engine's TOML with an independent
source. Boards are built with a forced ``draw`` and explicit actions, like a rulebook picture.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine import (
    FeatureScored,
    Game,
    Pass,
    Phase,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Setup,
)
from engine.carcassonne.abbey_mayor import of as am_of
from engine.cli import random_action
from engine.core.events import Event

AM = ("abbey_mayor",)
NAMES = ("Blue", "Red", "Yellow", "Green", "Black", "Grey")
KINDS = ("follower", "mayor", "barn", "wagon")
INITIAL = {"follower": 7, "mayor": 1, "barn": 1, "wagon": 1}

REFERENCE_TABLE = """
| AM01 | 1 | CCCC | c1:city[0,1,2,3,4,5,6,7,8,9,10,11]+2p |  |
| AM02 | 1 | CCCC | c1:city[0,1,2,6,7,8]+1p c2:city[3,4,5,9,10,11] f1:field[inner]>c1,c2 f2:field[inner]>c1,c2 |  |
| AM03 | 1 | CCFC | c1:city[0,1,2]+1p c2:city[3,4,5,9,10,11] f1:field[inner]>c1,c2 f2:field[6,7,8]>c1,c2 |  |
| AM04 | 1 | CRRC | c1:city[0,1,2] c2:city[9,10,11] r1:road[4]·ends r2:road[7]·ends f1:field[3]>c1 f2:field[8]>c2 f3:field[5,6]>c1,c2 | c1-r1; c2-r2 |
| AM05 | 1 | RRRR | r1:road[1]·ends r2:road[10]·ends r3:road[7]·ends r4:road[4]·ends cloister[C] f1:field[0,11] f2:field[2,3] f3:field[5,6] f4:field[8,9] | cloister-r1; cloister-r2; cloister-r3; cloister-r4 |
| AM06 | 1 | CFFR | c1:city[0,1,2] r1:road[10]·ends f1:field[11]>c1 f2:field[3,4,5,6,7,8,9]>c1 | c1-r1 |
| AM07 | 1 | CRRF | c1:city[0,1,2] r1:road[4,7] f1:field[8,9,10,11]>c1 f2:field[3]>c1 f3:field[5,6] |  |
| AM08 | 1 | CFRR | c1:city[0,1,2] r1:road[7,10] f1:field[3,4,5,6]>c1 f2:field[11]>c1 f3:field[8,9] |  |
| AM09 | 1 | FFFC | c1:city[9,10,11]+1p f1:field[0,1,2]>c1 f2:field[3,4,5]>c1 f3:field[6,7,8]>c1 |  |
| AM10 | 1 | FFRF | r1:road[7]·ends f1:field[0,1,2,3,4,5,6,8,9,10,11] |  |
| AM11 | 1 | RRFR | r1:road[1,4,10] f1:field[0,11] f2:field[2,3] f3:field[5,6,7,8,9] |  |
| AM12 | 1 | RCRC | c1:city[3,4,5,9,10,11]+1p r1:road[1,7] f1:field[6,8]>c1 f2:field[0]>c1 f3:field[2]>c1 |  |
"""  # noqa: E501

_FEATURE = re.compile(
    r"(?:(?P<id>\w+):)?(?P<type>road|city|field|cloister)\[(?P<at>[^\]]*)\]"
    r"(?P<ends>·ends)?(?:\+(?P<pen>\d)p)?(?:\+(?P<goods>wine|grain|cloth))?"
    r"(?:>(?P<cities>[\w,]+))?"
)


@dataclass(frozen=True)
class RefFeature:
    id: str
    type: str
    positions: frozenset[int]
    inner: bool
    centre: bool
    pennants: int
    cities: frozenset[str]
    #: Traders & Builders: the trade-goods symbol of a city, or None.
    goods: str | None = None


@dataclass(frozen=True)
class RefTile:
    kind: str
    count: int
    edges: str
    features: tuple[RefFeature, ...]
    links: frozenset[frozenset[str]]


def _feature(text: str) -> RefFeature:
    m = _FEATURE.fullmatch(text)
    assert m is not None, text
    at = m["at"]
    special = at in ("C", "inner")
    return RefFeature(
        id=m["id"] or m["type"],
        type=m["type"],
        positions=frozenset() if special else frozenset(int(p) for p in at.split(",")),
        inner=at == "inner",
        centre=at == "C",
        pennants=int(m["pen"] or 0),
        cities=frozenset(m["cities"].split(",")) if m["cities"] else frozenset(),
        goods=m["goods"],
    )


def reference_tiles(table: str = REFERENCE_TABLE) -> dict[str, RefTile]:
    """The rows ``| kind | count | edges | features | wagon links |`` of a tile table."""
    tiles: dict[str, RefTile] = {}
    for line in table.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        kind, count, edges, features, links = cells
        pairs = frozenset(frozenset(p.split("-")) for p in links.split("; ") if p)
        tiles[kind] = RefTile(
            kind, int(count), edges, tuple(_feature(f) for f in features.split()), pairs
        )
    return tiles


REF = reference_tiles()


# -- building boards --------------------------------------------------------------------------


def new_game(draw: list[str] | str, players: int = 2, **options: Any) -> Game:
    """An Abbey & Mayor game with a forced draw (the first entry is the start tile)."""
    tiles = tuple(draw.split()) if isinstance(draw, str) else tuple(draw)
    return Game(Setup(players=NAMES[:players], seed=1, expansions=AM, options=options, draw=tiles))


def phase_of(game: Game) -> Phase:
    """The current phase (a call, so that type checkers don't keep a stale narrowing)."""
    return game.decision.phase


def put(
    game: Game, x: int, y: int, rotation: int, figure: str | None = None, at: Any = None
) -> list[Event]:
    """Place the drawn tile, then ``figure`` at ``at`` (or pass the figure step if any)."""
    assert phase_of(game) is Phase.TILE, f"expected a tile step, not {game.decision}"
    events = game.play(PlaceTile(x, y, rotation))
    if figure is not None:
        events += game.play(PlaceFigure(figure, x, y, at))
    elif phase_of(game) is Phase.FIGURE:
        events += game.play(Pass())
    return events


def put_abbey(game: Game, x: int, y: int, figure: str | None = None) -> list[Event]:
    """Play the deciding player's abbey into a hole, with ``figure`` on it or none."""
    events = game.play(PlaceAbbey(x, y))
    if figure is not None:
        events += game.play(PlaceFigure(figure, x, y, "C"))
    elif phase_of(game) is Phase.FIGURE:
        events += game.play(Pass())
    return events


def scores_of(events: list[Event], feature: str | None = None) -> list[FeatureScored]:
    return [
        e
        for e in events
        if isinstance(e, FeatureScored) and (feature is None or e.feature == feature)
    ]


def root(game: Game, x: int, y: int, at: int | str) -> int:
    """The feature (union-find root) named by ``at`` on the tile at (x, y)."""
    local = game.board.tiles[(x, y)].oriented.feature_at(at)
    assert local >= 0, f"no feature at {at!r} on ({x}, {y})"
    return game.board.root_of((x, y), local)


def figures_at(game: Game) -> set[tuple[int, str, tuple[int, int], str]]:
    return {(f.player, f.kind, f.pos, str(f.at)) for f in game.figures()}


# -- invariants over whole games --------------------------------------------------------------


def figure_totals(game: Game) -> list[Counter[str]]:
    """Per player: figures on the board + in supply + freed wagons awaiting their move."""
    totals = [Counter(supply) for supply in game.supply]
    for figure in game.figures():
        totals[figure.player][figure.kind] += 1
    for owner, _ in game.snapshot().get("freed_wagons", []):
        totals[owner]["wagon"] += 1
    return totals


def play_checked(game: Game, rng: random.Random, limit: int = 2000) -> None:
    """Play random legal actions to the end, checking the invariants after each one."""
    previous = list(game.scores)
    for _ in range(limit):
        if game.finished:
            return
        game.play(random_action(game, rng))
        for player, totals in enumerate(figure_totals(game)):
            assert dict(totals) == INITIAL, (player, dict(totals), game.record())
        assert all(a >= b for a, b in zip(game.scores, previous, strict=True)), game.record()
        assert sum(am_of(game).abbeys) + sum(
            1 for t in game.board.tiles.values() if t.oriented.kind == "ABBEY"
        ) == len(game.scores)
        previous = list(game.scores)
    raise AssertionError(f"game did not end within {limit} actions")
