"""The River's water on Carcassonne tiles: its course across a tile, its spring and its lake.

A river feature (edge letter ``W``) is never occupied; it only splits fields, so the layout
search draws it into the region map like a wide road and keeps the course whose fields split as
the data says. Roads cross it on bridges. The course bends round a cloister in the middle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.tiles import Oriented
from renderer import palette as pal

Point = tuple[float, float]
RIVER_WIDTH = 0.15
#: Where a river ending on its tile ends: the spring's pool, or the middle of the lake.
POOL_RADIUS = 0.1
LAKE_RADIUS = 0.3
_INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
_MIDS: tuple[Point, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


@dataclass(frozen=True, slots=True)
class RiverShape:
    """A river's course on one tile (unit coordinates) and how it ends: "", "spring" or "lake"."""

    local: int
    path: tuple[Point, ...]
    end: str = ""


def _cubic(a: Point, c1: Point, c2: Point, b: Point, steps: int = 24) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u**3 * a[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t**3 * b[0],
                u**3 * a[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t**3 * b[1],
            )
        )
    return out


def _plus(a: Point, b: Point, k: float) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _through(e1: int, e2: int, via: Point | None, pull: float) -> tuple[Point, ...]:
    a, b = _MIDS[e1], _MIDS[e2]
    if via is None:
        return tuple(_cubic(a, _plus(a, _INWARD[e1], pull), _plus(b, _INWARD[e2], pull), b))
    first = _cubic(a, _plus(a, _INWARD[e1], 0.25), _plus(via, _INWARD[e1], -0.22), via)
    second = _cubic(via, _plus(via, _INWARD[e1], 0.22), _plus(b, _INWARD[e2], 0.25), b)
    return (*first, *second[1:])


def river_variants(oriented: Oriented) -> list[list[RiverShape]]:
    """Per river feature, the courses to try, the likeliest-looking first."""
    options: list[list[RiverShape]] = []
    road_edges = {p // 3 for f in oriented.features if f.type == "road" for p in f.positions}
    for local, feat in enumerate(oriented.features):
        if feat.type != "river":
            continue
        edges = sorted({p // 3 for p in feat.positions})
        if len(edges) == 1:
            end = "lake" if feat.extra.get("lake") else "spring"
            a = _MIDS[edges[0]]
            stop = 0.5 if end == "lake" else 0.42
            tip = _plus(a, _INWARD[edges[0]], stop)
            path = _cubic(
                a, _plus(a, _INWARD[edges[0]], 0.15), _plus(tip, _INWARD[edges[0]], -0.1), tip
            )
            options.append([RiverShape(local, tuple(path), end)])
            continue
        e1, e2 = edges[0], edges[-1]
        shapes: list[RiverShape] = []
        if (e2 - e1) % 2 == 0 and oriented.centre >= 0:
            # Round the cloister, on the side without a road to it.
            sides = sorted(((e1 + 1) % 4, (e1 + 3) % 4), key=lambda e: e in road_edges)
            for side in sides:
                via = _plus((0.5, 0.5), _INWARD[side], -0.33)
                shapes.append(RiverShape(local, _through(e1, e2, via, 0.3)))
        for pull in (0.3, 0.18, 0.42):
            shapes.append(RiverShape(local, _through(e1, e2, None, pull)))
        options.append(shapes)
    return options


def _px(points: Sequence[Point], size: float) -> list[tuple[float, float]]:
    return [(x * size, y * size) for x, y in points]


def draw_region(draw: ImageDraw.ImageDraw, river: RiverShape, size: int, value: int) -> None:
    """The river in a region map (value ``value``): its course and its pool or lake."""
    width = max(2, round(RIVER_WIDTH * size))
    draw.line(_px(river.path, size), fill=value, width=width, joint="curve")
    if river.end:
        x, y = river.path[-1]
        r = (LAKE_RADIUS if river.end == "lake" else POOL_RADIUS) * size
        draw.ellipse((x * size - r, y * size - r, x * size + r, y * size + r), fill=value)


def draw_water(image: Image.Image, river: RiverShape, big: int) -> None:
    """Paint a river: sandy banks, blue water, a light ripple line; a pool at the spring and a
    lake with reeds at its end."""
    draw = ImageDraw.Draw(image)
    points = _px(river.path, big)
    bank = round((RIVER_WIDTH + 0.05) * big)
    water = round(RIVER_WIDTH * big)
    x, y = points[-1]
    radius = (LAKE_RADIUS if river.end == "lake" else POOL_RADIUS) * big
    draw.line(points, fill=pal.RIVER_BANK, width=bank, joint="curve")
    if river.end:
        r = radius + 0.025 * big
        draw.ellipse((x - r, y - r * 0.85, x + r, y + r * 0.85), fill=pal.RIVER_BANK)
    draw.line(points, fill=pal.RIVER, width=water, joint="curve")
    if river.end:
        draw.ellipse((x - radius, y - radius * 0.85, x + radius, y + radius * 0.85), fill=pal.RIVER)
    # A thin ripple down the middle so the band reads as running water, not a blue road.
    ripple = points[2:-2] if not river.end else points[2:-4]
    if len(ripple) > 1:
        draw.line(ripple, fill=pal.RIVER_LIGHT, width=max(2, big // 90), joint="curve")
    if river.end == "spring":
        # Stones round the source.
        for i in range(7):
            t = i / 7 * 2 * math.pi + 0.4
            sx, sy = x + math.cos(t) * radius * 1.05, y + math.sin(t) * radius * 0.9
            s = big * 0.022
            draw.ellipse((sx - s, sy - s, sx + s, sy + s), fill=pal.STONE, outline=pal.WALL_DARK)
    elif river.end == "lake":
        for k in (-0.5, 0.0, 0.45):
            wx = x + k * radius
            wy = y + (0.15 - abs(k) * 0.3) * radius
            w = radius * 0.18
            draw.arc(
                (wx - w, wy - w * 0.5, wx + w, wy + w * 0.5),
                200,
                340,
                fill=pal.RIVER_LIGHT,
                width=max(2, big // 100),
            )
        for k in (-0.75, 0.7):  # reeds on the shore
            rx, ry = x + k * radius, y + radius * 0.55
            for d in (-1, 0, 1):
                draw.line(
                    (rx + d * big * 0.012, ry, rx + d * big * 0.02, ry - big * 0.05),
                    fill=pal.FIELD_DARK,
                    width=max(2, big // 110),
                )


def bridges(
    draw: ImageDraw.ImageDraw,
    road: Sequence[Point],
    rivers: Sequence[RiverShape],
    big: int,
    half_width: float,
) -> None:
    """Parapets where a road crosses a river: two dark rails along the road over the water."""
    for river in rivers:
        near = [
            i
            for i, p in enumerate(road)
            if min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for q in river.path)
            < (RIVER_WIDTH * 0.75) ** 2
        ]
        if len(near) < 2:
            continue
        i, j = max(0, near[0] - 1), min(len(road) - 1, near[-1] + 1)
        (ax, ay), (bx, by) = road[i], road[j]
        dx, dy = bx - ax, by - ay
        norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
        nx, ny = -dy / norm * half_width, dx / norm * half_width
        for side in (1, -1):
            draw.line(
                (
                    (ax + side * nx) * big,
                    (ay + side * ny) * big,
                    (bx + side * nx) * big,
                    (by + side * ny) * big,
                ),
                fill=pal.WALL_DARK,
                width=max(3, big // 40),
            )
