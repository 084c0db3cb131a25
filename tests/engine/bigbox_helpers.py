"""Helpers for the Inns & Cathedrals and River tests: reference tables, boards, invariants.

The reference tables are read from ``data/inns_cathedrals_tiles.md`` and ``data/river_tiles.md``
(copies of the shared tile facts), never from the engine's TOML. Boards are built with a forced
``draw`` (its first entry is the start tile) and explicit actions, like a rulebook picture.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import FeatureScored, Game, Pass, Phase, PlaceFigure, PlaceTile, Setup
from engine.cli import random_action
from engine.core.events import Event

DATA = Path(__file__).parent / "data"
NAMES = ("Blue", "Red", "Yellow", "Green", "Black", "Grey")
IC = ("inns_cathedrals",)
RIVER = ("river",)
ALL = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")

_FEATURE = re.compile(
    r"(?:(?P<id>\w+):)?(?P<type>road|city|field|cloister|river)\[(?P<at>[^\]]*)\]"
    r"(?P<marks>(?:\+\w+|·ends)*)(?:>(?P<linked>[\w,]+))?"
)


@dataclass(frozen=True)
class RefFeature:
    id: str
    type: str
    positions: frozenset[int]
    inner: bool
    centre: bool
    pennants: int
    marks: frozenset[str]
    linked: frozenset[str]


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
    marks = [mark for mark in re.findall(r"\+(\w+)", m["marks"])]
    pennants = sum(int(mark[:-1]) for mark in marks if re.fullmatch(r"\d+p", mark))
    linked = frozenset(m["linked"].split(",")) if m["linked"] else frozenset()
    return RefFeature(
        id=m["id"] or m["type"],
        type=m["type"],
        positions=frozenset() if at in ("C", "inner") else frozenset(map(int, at.split(","))),
        inner=at == "inner",
        centre=at == "C",
        pennants=pennants,
        marks=frozenset(m for m in marks if not m[0].isdigit()) | (linked & {"spring", "lake"}),
        linked=linked - {"spring", "lake"},
    )


def reference_tiles(file: str) -> dict[str, RefTile]:
    tiles: dict[str, RefTile] = {}
    for line in (DATA / file).read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[1].isdigit():
            continue
        kind, count, edges, features, links = cells
        pairs = frozenset(frozenset(p.split("-")) for p in links.split("; ") if p)
        feats = tuple(_feature(f) for f in features.split())
        tiles[kind] = RefTile(kind, int(count), edges.replace(" ", ""), feats, pairs)
    return tiles


# -- building boards --------------------------------------------------------------------------


def new_game(draw: str, expansions: tuple[str, ...] = IC, players: int = 2, **options: Any) -> Game:
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


def phase_of(game: Game) -> Phase:
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


def scores_of(events: list[Event], feature: str | None = None) -> list[FeatureScored]:
    return [
        e
        for e in events
        if isinstance(e, FeatureScored) and (feature is None or e.feature == feature)
    ]


def end_game(game: Game) -> list[Event]:
    """Pass every remaining decision until the game ends (the stack must be empty)."""
    events: list[Event] = []
    while phase_of(game) is not Phase.OVER:
        events += game.play(Pass())
    return events


# -- invariants over whole games --------------------------------------------------------------


def figure_totals(game: Game) -> list[Counter[str]]:
    """Per player: figures on the board + in supply + freed wagons awaiting their move."""
    totals = [Counter(supply) for supply in game.supply]
    for figure in game.figures():
        totals[figure.player][figure.kind] += 1
    for owner, _ in game.snapshot().get("freed_wagons", []):
        totals[owner]["wagon"] += 1
    return totals


def play_checked(game: Game, rng: random.Random, limit: int = 3000) -> None:
    """Play random legal actions to the end, checking after each one that no figure is lost
    and no score goes down."""
    initial = [dict(supply) for supply in game.supply]
    previous = list(game.scores)
    for _ in range(limit):
        if game.finished:
            return
        game.play(random_action(game, rng))
        for player, totals in enumerate(figure_totals(game)):
            assert dict(totals) == initial[player], (player, dict(totals), game.record())
        assert all(a >= b for a, b in zip(game.scores, previous, strict=True)), game.record()
        previous = list(game.scores)
    raise AssertionError(f"game did not end within {limit} actions")
