"""Helpers for the Traders & Builders tests: the reference tile table, games with a forced draw.

The reference table is read from ``data/traders_builders_tiles.md`` (a copy of the shared tile
facts), never from the engine's TOML, so that the tests compare the engine with an independent
source. Boards are built with a forced ``draw`` and explicit actions, like a rulebook picture.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from am_helpers import NAMES

from engine import Game, Setup
from engine.carcassonne.traders_builders import of as tb_of

TB = ("traders_builders",)
BOTH = ("abbey_mayor", "traders_builders")
DATA = Path(__file__).parent / "data"

_FEATURE = re.compile(
    r"(?:(?P<id>\w+):)?(?P<type>road|city|field|cloister)\[(?P<at>[^\]]*)\]"
    r"(?P<ends>·ends)?(?:\+(?P<goods>wine|grain|cloth))?(?:>(?P<cities>[\w,]+))?"
)


@dataclass(frozen=True)
class RefFeature:
    id: str
    type: str
    positions: frozenset[int]
    inner: bool
    centre: bool
    goods: str | None
    cities: frozenset[str]


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
        goods=m["goods"],
        cities=frozenset(m["cities"].split(",")) if m["cities"] else frozenset(),
    )


def reference_tiles() -> dict[str, RefTile]:
    tiles: dict[str, RefTile] = {}
    for line in (DATA / "traders_builders_tiles.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not re.fullmatch(r"TB\d\d", cells[0]) or not cells[1].isdigit():
            continue
        kind, count, edges, features, links = cells
        pairs = frozenset(frozenset(p.split("-")) for p in links.split("; ") if p)
        tiles[kind] = RefTile(
            kind, int(count), edges, tuple(_feature(f) for f in features.split()), pairs
        )
    return tiles


REF = reference_tiles()


def new_game(draw: str, players: int = 2, expansions: tuple[str, ...] = TB, **options: Any) -> Game:
    """A game with a forced draw (the first entry is the start tile)."""
    return Game(
        Setup(
            players=NAMES[:players],
            seed=1,
            expansions=expansions,
            options=options,
            draw=tuple(draw.split()),
        )
    )


def goods_of(game: Game) -> list[dict[str, int]]:
    return [dict(g) for g in tb_of(game).goods]


def figure_totals(game: Game) -> list[Counter[str]]:
    """Per player: figures on the board + in supply + freed wagons awaiting their move."""
    totals = [Counter(supply) for supply in game.supply]
    for figure in game.figures():
        totals[figure.player][figure.kind] += 1
    for owner, _ in game.snapshot().get("freed_wagons", []):
        totals[owner]["wagon"] += 1
    return totals
