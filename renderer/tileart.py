"""Procedural tile art: one RGB image per (tile kind, rotation, size), drawn from its layout.

The art is drawn three times larger and scaled down, which smooths every edge; the result is kept
in a cache shared by all threads, so a board render only pastes finished tiles, and in the tile
art cache's folder (:func:`renderer.tilecache.tile`) for the other processes.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.core.tiles import Oriented
from renderer import emblems, families, legible, tilecache
from renderer import palette as pal
from renderer.geometry import (
    CENTRE_RADIUS,
    ROAD_WIDTH,
    CityShape,
    Layout,
    Point,
    _inside,
    layout,
)
from renderer.river import bridges, draw_water

SUPERSAMPLE = 3
WALL_WIDTH = 0.075

_CACHE: dict[tuple[str, str, int, int], Image.Image] = {}
_LOCK = threading.Lock()


def tile_image(oriented: Oriented, size: int) -> Image.Image:
    """The art of an oriented tile at ``size`` pixels (cached; do not modify the result)."""
    for accepts, family_image in families.TILE_IMAGES:
        if accepts(oriented):
            return family_image(oriented, size)
    # Tile sets may reuse kind names (the base game and Hunters & Gatherers both have an "S").
    family = next((name for name, accepts, _ in families.TILE_ART if accepts(oriented)), "")
    key = (family, oriented.kind, oriented.rotation, size)
    found = _CACHE.get(key)
    if found is None:
        art = tilecache.tile(key, lambda: draw_tile(oriented, size))
        with _LOCK:
            found = _CACHE.setdefault(key, art)
    if legible.active() is not None:
        marks = layout(oriented).emblems.values()
        legible.on_tile(
            found,
            [("token", name, emblems.extent(name, at, size), pal.INK) for name, at in marks],
        )
    return found


def draw_tile(oriented: Oriented, size: int) -> Image.Image:
    """Draw an oriented tile from scratch (no cache)."""
    for _, accepts, draw_family_tile in families.TILE_ART:
        if accepts(oriented):
            return draw_family_tile(oriented, size)
    big = size * SUPERSAMPLE
    chosen = layout(oriented)
    image = Image.new("RGB", (big, big), pal.FIELD)
    draw = ImageDraw.Draw(image)
    seed = sum(ord(c) for c in oriented.kind) * 7 + oriented.rotation
    _grass(draw, big, random.Random(seed), chosen)
    for river in chosen.rivers:
        draw_water(image, river, big)
    for road in chosen.roads:
        for path in road.paths:
            _road(draw, path, big)
            bridges(draw, path, chosen.rivers, big, ROAD_WIDTH / 2 + 0.02)
    for city in chosen.cities:
        _city(image, city, big, random.Random(seed + city.local))
    for gate in chosen.gates:
        _gate(draw, gate, big)
    _centre(draw, chosen, big)
    for points in chosen.pennants.values():
        for point in points:
            shield(draw, (point[0] * big, point[1] * big), 0.2 * big)
    for name, point in chosen.emblems.values():
        emblems.draw(image, name, point, big)
    # A faint frame keeps tiles apart on the board without hiding what crosses the edges.
    draw.rectangle((0, 0, big - 1, big - 1), outline=(88, 110, 60), width=SUPERSAMPLE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _px(points: Sequence[Point], big: int) -> list[tuple[float, float]]:
    return [(x * big, y * big) for x, y in points]


def _grass(draw: ImageDraw.ImageDraw, big: int, rng: random.Random, chosen: Layout) -> None:
    """A few tufts so fields read as meadow; sparse, so PNGs stay small."""
    for _ in range(9):
        x, y = rng.uniform(0.08, 0.92), rng.uniform(0.08, 0.92)
        if any(_inside((x, y), c.polygon) for c in chosen.cities):
            continue
        s = big * 0.025
        cx, cy = x * big, y * big
        for dx in (-1, 0, 1):
            draw.line(
                (cx + dx * s * 0.8, cy, cx + dx * s * 1.3, cy - s * 1.6),
                fill=pal.FIELD_DARK,
                width=max(1, big // 90),
            )


def _road(draw: ImageDraw.ImageDraw, path: Sequence[Point], big: int) -> None:
    points = _px(path, big)
    outer = round((ROAD_WIDTH + 0.035) * big)
    inner = round(ROAD_WIDTH * big)
    draw.line(points, fill=pal.ROAD_EDGE, width=outer, joint="curve")
    draw.line(points, fill=pal.ROAD, width=inner, joint="curve")
    ex, ey = points[-1]
    r = inner / 2
    draw.ellipse((ex - r, ey - r, ex + r, ey + r), fill=pal.ROAD)


def _city(image: Image.Image, city: CityShape, big: int, rng: random.Random) -> None:
    polygon = _px(city.polygon, big)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).polygon(polygon, fill=255)
    town = Image.new("RGB", image.size, pal.CITY)
    roofs = ImageDraw.Draw(town)
    # Rows of red roofs: the city reads as a town at a glance, even in black and white.
    step = big / 6.5
    for row in range(7):
        for col in range(7):
            if rng.random() < 0.35:
                continue
            x = (col + 0.5 + (0.5 if row % 2 else 0)) * step + rng.uniform(-3, 3)
            y = (row + 0.5) * step + rng.uniform(-3, 3)
            w, h = step * 0.32, step * 0.22
            roofs.rectangle((x - w, y - h, x + w, y + h), fill=pal.ROOF, outline=pal.ROOF_DARK)
            roofs.line((x - w, y, x + w, y), fill=pal.ROOF_DARK, width=max(1, big // 150))
    image.paste(town, (0, 0), mask)
    draw = ImageDraw.Draw(image)
    width = round(WALL_WIDTH * big)
    for wall in city.walls:
        points = _px(wall, big)
        draw.line(points, fill=pal.WALL_DARK, width=width + 2 * SUPERSAMPLE, joint="curve")
        draw.line(points, fill=pal.WALL, width=width, joint="curve")
        # Merlons along the wall: small dark blocks give it thickness and a castle look.
        for i in range(2, len(points) - 2, 3):
            x, y = points[i]
            r = width * 0.22
            draw.rectangle((x - r, y - r, x + r, y + r), fill=pal.WALL_DARK)


def _gate(draw: ImageDraw.ImageDraw, gate: Point, big: int) -> None:
    x, y = gate[0] * big, gate[1] * big
    r = big * 0.07
    draw.ellipse((x - r, y - r, x + r, y + r), fill=pal.WALL_DARK)
    r2 = r * 0.55
    draw.ellipse((x - r2, y - r2, x + r2, y + r2), fill=(40, 34, 30))


def shield(draw: ImageDraw.ImageDraw, centre: tuple[float, float], height: float) -> None:
    """A coat of arms (the pennant): a blue shield with a white rim and a gold cross."""
    x, y = centre
    w = height * 0.42
    h = height / 2
    outline = [(x - w, y - h), (x + w, y - h), (x + w, y), (x, y + h), (x - w, y)]
    draw.polygon(outline, fill=pal.WHITE, outline=pal.WALL_DARK)
    k = 0.78
    inner = [
        (x - w * k, y - h * k),
        (x + w * k, y - h * k),
        (x + w * k, y),
        (x, y + h * k),
        (x - w * k, y),
    ]
    draw.polygon(inner, fill=pal.SHIELD)
    t = max(1.0, height * 0.08)
    draw.rectangle((x - t, y - h * 0.62, x + t, y + h * 0.5), fill=pal.SHIELD_MARK)
    draw.rectangle(
        (x - w * 0.62, y - h * 0.3 - t, x + w * 0.62, y - h * 0.3 + t), fill=pal.SHIELD_MARK
    )


def _house(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.rectangle((x - r, y - r * 0.75, x + r, y + r * 0.75), fill=pal.ROOF, outline=pal.WALL_DARK)
    draw.line((x - r, y, x + r, y), fill=pal.ROOF_DARK, width=max(1, round(r / 5)))


def _centre(draw: ImageDraw.ImageDraw, chosen: Layout, big: int) -> None:
    c = big / 2
    kind = chosen.centre
    if kind == "cloister":
        _cloister(draw, c, big)
    elif kind == "abbey":
        _abbey(draw, c, big)
    elif kind == "village":
        r = CENTRE_RADIUS * big * 0.75
        draw.ellipse(
            (c - r, c - r, c + r, c + r),
            fill=pal.ROAD,
            outline=pal.ROAD_EDGE,
            width=SUPERSAMPLE * 2,
        )
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            point = (0.5 + dx * 0.19, 0.5 + dy * 0.19)
            if any(_inside(point, city.polygon) for city in chosen.cities):
                continue
            _house(draw, point[0] * big, point[1] * big, big * 0.06)
    elif kind == "well":
        r = big * 0.1
        draw.ellipse(
            (c - r, c - r, c + r, c + r),
            fill=pal.STONE,
            outline=pal.WALL_DARK,
            width=SUPERSAMPLE * 2,
        )
        r2 = r * 0.55
        draw.ellipse(
            (c - r2, c - r2, c + r2, c + r2),
            fill=pal.WATER,
            outline=pal.WALL_DARK,
            width=SUPERSAMPLE,
        )
    elif kind == "house":
        _house(draw, c, c, big * 0.11)


def _cloister(draw: ImageDraw.ImageDraw, c: float, big: int) -> None:
    """A chapel seen from above: a pitched roof, a bell tower and a cross, in a small yard."""
    r = big * 0.2
    draw.rounded_rectangle(
        (c - r, c - r, c + r, c + r),
        r * 0.3,
        fill=pal.STONE,
        outline=pal.WALL_DARK,
        width=SUPERSAMPLE,
    )
    w, h = big * 0.1, big * 0.15
    top = c - h + big * 0.03
    draw.rectangle((c - w, top, c, top + 2 * h), fill=pal.ROOF)
    draw.rectangle((c, top, c + w, top + 2 * h), fill=pal.ROOF_DARK)
    draw.rectangle((c - w, top, c + w, top + 2 * h), outline=pal.WALL_DARK, width=SUPERSAMPLE)
    t = big * 0.065
    ty = top - t * 0.6
    draw.rectangle(
        (c - t, ty - t, c + t, ty + t), fill=pal.WALL, outline=pal.WALL_DARK, width=SUPERSAMPLE
    )
    s = big * 0.045
    k = max(2, big // 70)
    draw.rectangle((c - k / 2, ty - s, c + k / 2, ty + s), fill=pal.WHITE)
    draw.rectangle(
        (c - s * 0.7, ty - s * 0.35 - k / 2, c + s * 0.7, ty - s * 0.35 + k / 2), fill=pal.WHITE
    )


def _abbey(draw: ImageDraw.ImageDraw, c: float, big: int) -> None:
    """An abbey: four wings round a green cloister garth, larger than a chapel."""
    r = big * 0.34
    draw.rounded_rectangle(
        (c - r, c - r, c + r, c + r),
        r * 0.15,
        fill=pal.STONE,
        outline=pal.WALL_DARK,
        width=SUPERSAMPLE,
    )
    wing = big * 0.1
    o = r - big * 0.04
    for box in (
        (c - o, c - o, c + o, c - o + wing),
        (c - o, c + o - wing, c + o, c + o),
        (c - o, c - o, c - o + wing, c + o),
        (c + o - wing, c - o, c + o, c + o),
    ):
        draw.rectangle(box, fill=(120, 80, 150), outline=pal.WALL_DARK, width=SUPERSAMPLE)
    g = o - wing
    draw.rectangle((c - g, c - g, c + g, c + g), fill=pal.FIELD_LIGHT)
    k = max(2, big // 60)
    draw.rectangle((c - k, c - g, c + k, c + g), fill=pal.STONE)
    draw.rectangle((c - g, c - k, c + g, c + k), fill=pal.STONE)
    s = big * 0.05
    draw.rectangle((c - s, c - s, c + s, c + s), fill=pal.WATER, outline=pal.WALL_DARK)
