"""Helpers shared by the engine tests: the reference tile table, scenario building, brute force.

The reference tile table is read from ``data/base_tiles.md`` (a copy of the shared tile facts),
never from the engine's TOML, so that tests compare the engine against an independent source.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, Pass, Phase, PlaceFigure, PlaceTile, Setup

DATA = Path(__file__).parent / "data"
STEPS = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}  # N E S W, y grows south


@dataclass(frozen=True)
class RefFeature:
    id: str
    type: str
    positions: frozenset[int]
    pennants: int
    cities: tuple[str, ...]
    ends: bool


@dataclass(frozen=True)
class RefTile:
    kind: str
    count: int
    edges: str
    features: tuple[RefFeature, ...]


_FEATURE = re.compile(
    r"(?:(?P<id>\w+):)?(?P<type>road|city|field|cloister)\[(?P<at>[^\]]*)\]"
    r"(?P<ends>·ends)?(?:\+(?P<pen>\d)p)?(?:>(?P<cities>[\w,]+))?"
)


def _parse_feature(text: str) -> RefFeature:
    m = _FEATURE.fullmatch(text)
    assert m is not None, text
    at = m["at"]
    positions = frozenset() if at == "C" else frozenset(int(p) for p in at.split(","))
    return RefFeature(
        id=m["id"] or m["type"],
        type=m["type"],
        positions=positions,
        pennants=int(m["pen"] or 0),
        cities=tuple(m["cities"].split(",")) if m["cities"] else (),
        ends=bool(m["ends"]),
    )


def reference_tiles() -> dict[str, RefTile]:
    """The 24 base kinds as the shared tile table lists them."""
    tiles: dict[str, RefTile] = {}
    for line in (DATA / "base_tiles.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not re.fullmatch(r"[A-X]", cells[0]):
            continue
        kind, count, edges, features = cells[0], int(cells[1]), cells[2].replace(" ", ""), cells[3]
        feats = tuple(_parse_feature(f) for f in features.split())
        tiles[kind] = RefTile(kind, count, edges, feats)
    return tiles


REF = reference_tiles()


def rotated_edges(edges: str, rotation: int) -> str:
    """Edge letters N E S W after turning the tile ``rotation`` degrees clockwise."""
    turns = rotation // 90
    return "".join(edges[(e - turns) % 4] for e in range(4))


def rotated_positions(positions: frozenset[int], rotation: int) -> frozenset[int]:
    return frozenset((p + 3 * (rotation // 90)) % 12 for p in positions)


def ref_shape(kind: str, rotation: int) -> frozenset[tuple[str, frozenset[int], int]]:
    tile = REF[kind]
    return frozenset(
        (f.type, rotated_positions(f.positions, rotation), f.pennants) for f in tile.features
    )


def ref_distinct_rotations(kind: str) -> list[int]:
    """Rotations giving a different-looking tile (first of each look kept)."""
    seen: set[object] = set()
    keep = []
    for rotation in (0, 90, 180, 270):
        look = (rotated_edges(REF[kind].edges, rotation), ref_shape(kind, rotation))
        if look not in seen:
            seen.add(look)
            keep.append(rotation)
    return keep


def board_edges(game: Game) -> dict[tuple[int, int], str]:
    """Each placed tile's edge letters, computed from the reference table (not the engine's)."""
    return {
        pos: rotated_edges(REF[t.oriented.kind].edges, t.oriented.rotation)
        for pos, t in game.board.tiles.items()
    }


def brute_force_placements(game: Game, kind: str) -> set[tuple[int, int, int]]:
    """Every (x, y, rotation) where ``kind`` may lie: try every empty square next to a tile."""
    edges = board_edges(game)
    squares = {(x + dx, y + dy) for (x, y) in edges for dx, dy in STEPS.values()} - edges.keys()
    found = set()
    for x, y in squares:
        for rotation in ref_distinct_rotations(kind):
            mine = rotated_edges(REF[kind].edges, rotation)
            if all(
                (x + dx, y + dy) not in edges or edges[(x + dx, y + dy)][(e + 2) % 4] == mine[e]
                for e, (dx, dy) in STEPS.items()
            ):
                found.add((x, y, rotation))
    return found


def mismatched_edges(game: Game) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of neighbouring tiles whose shared edge letters differ."""
    edges = board_edges(game)
    bad = []
    for (x, y), mine in edges.items():
        for e in (1, 2):  # east and south: each shared edge once
            dx, dy = STEPS[e]
            other = edges.get((x + dx, y + dy))
            if other is not None and other[(e + 2) % 4] != mine[e]:
                bad.append(((x, y), (x + dx, y + dy)))
    return bad


# -- scenarios ---------------------------------------------------------------------------------

Turn = tuple[int, int, int, int | str | None]
#: ``at`` for a turn with no figure step at all (no figure placement was legal).
SKIP = "skip"


def new_game(draw: str, players: tuple[str, ...] = ("A", "B"), **options: Any) -> Game:
    """A game whose stack is exactly ``draw`` (letters, the first is the start tile)."""
    return Game(Setup(players=players, seed=0, options=options, draw=tuple(draw)))


def play_turns(game: Game, turns: Sequence[Turn]) -> list[Any]:
    """Play (x, y, rotation, at) turns: place the tile, then a follower at ``at`` or pass."""
    assert all(isinstance(t, tuple) for t in turns)
    events: list[Any] = []
    for x, y, rotation, at in turns:
        tile = game.decision.tile if not game.options["hand"] else None
        assert phase_of(game) is Phase.TILE, f"expected a tile to place, not {tile}"
        events += game.play(PlaceTile(x, y, rotation))
        if at == SKIP:
            assert phase_of(game) is not Phase.FIGURE, "a figure step was not expected"
        elif at is not None:
            events += game.play(PlaceFigure("follower", x, y, at))
        else:
            events += game.play(Pass())
    return events


def phase_of(game: Game) -> Phase:
    """The current phase (a function, so type checkers don't keep a stale narrowing)."""
    return game.decision.phase


def scenario(draw: str, turns: Sequence[Turn], players: int = 2, **options: Any) -> Game:
    names = ("A", "B", "C", "D", "E", "F")[:players]
    game = new_game(draw, names, **options)
    play_turns(game, turns)
    return game


def record_of(draw: str, turns: Sequence[Turn], players: int = 2, **options: Any) -> dict[str, Any]:
    """The record JSON of a scenario, written by hand (not by the engine)."""
    actions: list[dict[str, Any]] = []
    for x, y, rotation, at in turns:
        actions.append({"type": "place_tile", "x": x, "y": y, "rotation": rotation})
        if at == SKIP:
            continue
        if at is not None:
            actions.append({"type": "place_figure", "figure": "follower", "x": x, "y": y, "at": at})
        else:
            actions.append({"type": "pass"})
    return {
        "format": 1,
        "game": "carcassonne",
        "expansions": [],
        "options": options,
        "players": list(("A", "B", "C", "D", "E", "F")[:players]),
        "seed": 0,
        "draw": list(draw),
        "actions": actions,
    }


# -- a fixed random policy -------------------------------------------------------------------


def policy_step(game: Game, rng: random.Random) -> None:
    """One action chosen by a seeded policy that does not depend on the engine's list order."""
    if game.decision.phase is Phase.TILE:
        choices = sorted(
            game.legal_placements(), key=lambda a: (a.tile or "", a.x, a.y, a.rotation)
        )
        game.play(rng.choice(choices))
    else:
        figures = sorted(game.legal_figures(), key=lambda a: (a.figure, str(a.at)))
        pick = rng.randrange(len(figures) + 1)
        game.play(figures[pick] if pick < len(figures) else Pass())


def followers_in_play(game: Game) -> list[int]:
    counts = [0] * game.players
    for figure in game.figures():
        counts[figure.player] += 1
    return counts
