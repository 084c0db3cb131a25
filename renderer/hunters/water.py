"""Hunters & Gatherers water, laid out from the tile data: rivers, lakes, springs.

A river runs from the middle of its edge to the lake it flows into, to its spring, or across to
its other edge; a lake sits where its rivers meet, sized by its fish, with one fish drawn per
fish. Where a lake or spring goes is a :class:`Variant` (the layout search tries a few). Unit
coordinates: the tile is [0, 1] x [0, 1], y grows south, unrotated.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renderer.geometry import INWARD, Point, _add, _lerp, cubic, edge_mid

#: Resolution of the land map (the art smooths it when scaling up).
GRID = 48
RIVER_WIDTH = 0.11
SPRING_RADIUS = 0.055


@dataclass(frozen=True, slots=True)
class Feat:
    """A feature of the unrotated tile: local index, type, edge positions, lakes, extras."""

    local: int
    type: str
    positions: frozenset[int]
    lakes: tuple[int, ...]
    extra: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RiverShape:
    local: int
    path: tuple[Point, ...]
    #: Where the river rises, if it has a spring on this tile.
    spring: Point | None


@dataclass(frozen=True, slots=True)
class LakeShape:
    local: int
    centre: Point
    radius: float
    outline: tuple[Point, ...]
    fish: tuple[Point, ...]
    #: Where a hut stands on the lake (the fish are on the other side).
    spot: Point


def _cubic(a: Point, c1: Point, c2: Point, b: Point, steps: int = 24) -> list[Point]:
    """A cubic Bezier curve from a to b, a included."""
    return [a, *cubic(a, c1, c2, b, steps)]


def _wiggle(path: list[Point], amplitude: float) -> list[Point]:
    """Bend a path sideways like a stream, leaving both ends (and their direction) in place."""
    out = []
    n = len(path) - 1
    for i, (x, y) in enumerate(path):
        a = path[max(0, i - 1)]
        b = path[min(n, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        norm = math.hypot(dx, dy) or 1.0
        t = i / n
        off = amplitude * math.sin(2 * math.pi * t) * math.sin(math.pi * t)
        out.append((x - dy / norm * off, y + dx / norm * off))
    return out


def river_path(edges: Sequence[int], target: Point | None) -> list[Point]:
    """A river from the middle of its edge to ``target`` (a lake or spring), or across."""
    a = edge_mid(edges[0])
    ia = INWARD[edges[0]]
    if target is None:
        b = edge_mid(edges[1])
        ib = INWARD[edges[1]]
        if (edges[1] - edges[0]) % 2 == 0:  # opposite edges: a gentle S-bend
            return _wiggle(_cubic(a, _add(a, ia, 0.35), _add(b, ib, 0.35), b), 0.09)
        return _cubic(a, _add(a, ia, 0.3), _add(b, ib, 0.3), b)
    c1 = _add(a, ia, 0.3)
    return _cubic(a, c1, _lerp(target, c1, 0.35), target, 16)


def lake_outline(centre: Point, radius: float, rng: random.Random) -> tuple[Point, ...]:
    p1, p2 = rng.uniform(0, math.tau), rng.uniform(0, math.tau)
    points = []
    for i in range(40):
        a = math.tau * i / 40
        r = radius * (1 + 0.07 * math.sin(3 * a + p1) + 0.05 * math.sin(5 * a + p2))
        points.append((centre[0] + r * math.cos(a), centre[1] + r * 0.92 * math.sin(a)))
    return tuple(points)


def lake_side(centre: Point, inflow: Sequence[int]) -> Point:
    """The unit direction, from a lake's centre, away from the rivers flowing into it (the side
    where a hut stands; the fish swim on the other side)."""
    dx = dy = 0.0
    for edge in inflow:
        mx, my = edge_mid(edge)
        norm = math.hypot(mx - centre[0], my - centre[1]) or 1.0
        dx, dy = dx - (mx - centre[0]) / norm, dy - (my - centre[1]) / norm
    norm = math.hypot(dx, dy)
    if norm < 0.3:  # rivers from opposite sides: stand beside them
        mx, my = edge_mid(inflow[0]) if inflow else (0.5, 0.0)
        dx, dy = -(my - centre[1]), mx - centre[0]
        norm = math.hypot(dx, dy) or 1.0
    return (dx / norm, dy / norm)


def fish_points(centre: Point, radius: float, count: int, side: Point) -> tuple[Point, ...]:
    """Fish on the half of a lake opposite ``side``, in one row (two for many), so a hut on the
    lake leaves them in sight."""
    if count <= 0:
        return ()
    ux, uy = side
    px, py = -uy, ux  # along the row
    rows = [count] if count <= 3 else [count // 2, count - count // 2]
    points: list[Point] = []
    for r, n in enumerate(rows):
        back = radius * (0.32 if len(rows) == 1 else 0.1 + 0.42 * r)
        span = radius * 1.05
        for i in range(n):
            t = 0.0 if n == 1 else -span / 2 + span * i / (n - 1)
            points.append((centre[0] - ux * back + px * t, centre[1] - uy * back + py * t))
    return tuple(points)


@dataclass(frozen=True, slots=True)
class Variant:
    #: How far a lake fed by one river sits from its edge (share of the way to the centre).
    reach: float
    #: Lake radius factor.
    size: float
    #: Spring depth factor.
    spring: float
    #: How far a lake moves away from nearby forest.
    shift: float


VARIANTS = (
    Variant(0.78, 1.0, 1.0, 0.05),
    Variant(0.55, 1.0, 1.0, 0.08),
    Variant(0.95, 0.9, 1.3, 0.0),
    Variant(0.45, 0.85, 0.7, 0.1),
    Variant(0.78, 0.75, 1.3, 0.12),
    Variant(0.65, 1.15, 1.6, 0.0),
)


def _away_from_forest(
    centre: Point, radius: float, forest_map: Sequence[int] | None, shift: float
) -> Point:
    """Move a lake a little away from the forest pixels near it (so meadows pass between)."""
    if forest_map is None or not shift:
        return centre
    near = radius + 0.2
    dx = dy = 0.0
    for p, v in enumerate(forest_map):
        if not v:
            continue
        y, x = divmod(p, GRID)
        fx, fy = (x + 0.5) / GRID - centre[0], (y + 0.5) / GRID - centre[1]
        if fx * fx + fy * fy < near * near:
            dx, dy = dx - fx, dy - fy
    norm = math.hypot(dx, dy)
    if norm < 1e-9:
        return centre
    return (centre[0] + dx / norm * shift, centre[1] + dy / norm * shift)


def _lake_centre(inflow: Sequence[int], others: int, variant: Variant) -> Point:
    mids = [edge_mid(e) for e in inflow]
    cx = sum(p[0] for p in mids) / len(mids)
    cy = sum(p[1] for p in mids) / len(mids)
    centre = (0.5, 0.5)
    if len(inflow) == 1:
        return _lerp((cx, cy), centre, variant.reach * 0.8)
    if others:  # two lakes on one tile: keep each near its own rivers
        return _lerp((cx, cy), centre, 0.25)
    return _lerp((cx, cy), centre, 0.55 + 0.3 * (variant.reach - 0.78))


def _spring_depth(edge: int, forest_map: Sequence[int] | None, variant: Variant) -> float:
    """How far in a spring sits: at the trees if a forest lies ahead, else a little inside."""
    depth = 0.36 * variant.spring
    if forest_map is None:
        return min(depth, 0.6)
    a, inward = edge_mid(edge), INWARD[edge]
    for step in range(4, 40):
        t = step / 60
        x, y = _add(a, inward, t)
        gx, gy = min(GRID - 1, int(x * GRID)), min(GRID - 1, int(y * GRID))
        if forest_map[gy * GRID + gx]:
            return max(0.14, min(depth, t - 0.01))
    return min(depth, 0.6)


def lay_water(
    feats: Sequence[Feat],
    forest_map: Sequence[int] | None,
    variant: Variant,
    rng: random.Random,
) -> tuple[list[RiverShape], list[LakeShape]]:
    lakes_feats = [f for f in feats if f.type == "lake"]
    inflow: dict[int, list[int]] = {f.local: [] for f in lakes_feats}
    for f in feats:
        if f.type == "river":
            for lake in f.lakes:
                inflow.setdefault(lake, []).extend(p // 3 for p in f.positions)
    lakes: list[LakeShape] = []
    for f in lakes_feats:
        edges = sorted(set(inflow.get(f.local, []))) or [0]
        fish = int(f.extra.get("fish", 0))
        radius = (0.12 + 0.018 * min(fish, 4)) * variant.size
        centre = _lake_centre(edges, len(lakes_feats) - 1, variant)
        centre = _away_from_forest(centre, radius, forest_map, variant.shift)
        margin = radius + 0.07
        centre = (
            min(1 - margin, max(margin, centre[0])),
            min(1 - margin, max(margin, centre[1])),
        )
        side = lake_side(centre, edges)
        outline = lake_outline(centre, radius, rng)
        spot = (centre[0] + side[0] * radius * 0.36, centre[1] + side[1] * radius * 0.36)
        fishes = fish_points(centre, radius, fish, side)
        lakes.append(LakeShape(f.local, centre, radius, outline, fishes, spot))
    by_local = {lake.local: lake for lake in lakes}
    rivers: list[RiverShape] = []
    for f in feats:
        if f.type != "river":
            continue
        edges = sorted({p // 3 for p in f.positions})
        if f.lakes and f.lakes[0] in by_local:
            path = river_path(edges, by_local[f.lakes[0]].centre)
            rivers.append(RiverShape(f.local, tuple(path), None))
        elif len(edges) >= 2:
            rivers.append(RiverShape(f.local, tuple(river_path(edges, None)), None))
        else:
            depth = _spring_depth(edges[0], forest_map, variant)
            end = _add(edge_mid(edges[0]), INWARD[edges[0]], depth)
            straight = [_lerp(edge_mid(edges[0]), end, i / 12) for i in range(13)]
            rivers.append(RiverShape(f.local, tuple(_wiggle(straight, 0.025)), end))
    return rivers, lakes


def water_mask(rivers: Sequence[RiverShape], lakes: Sequence[LakeShape], size: int) -> Image.Image:
    image = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(image)
    width = max(2, round(RIVER_WIDTH * size))
    for river in rivers:
        draw.line(
            [(x * size, y * size) for x, y in river.path], fill=255, width=width, joint="curve"
        )
        if river.spring is not None:
            x, y = river.spring
            r = SPRING_RADIUS * size
            draw.ellipse((x * size - r, y * size - r, x * size + r, y * size + r), fill=255)
    for lake in lakes:
        draw.polygon([(x * size, y * size) for x, y in lake.outline], fill=255)
    return image
