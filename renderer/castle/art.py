"""Procedural art of The Castle's tiles: grey towers, red-roofed houses, green courtyards with
market stalls, cobbled paths with wells, small squares and doors.

Drawn from :mod:`renderer.castle.layout` three times larger and scaled down; one image per (kind,
rotation, size) is cached for all threads. The tile is drawn unrotated and turned as a whole, so
light and roofs turn with it, as a real tile does.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.core.tiles import Oriented
from renderer import families, tilecache
from renderer import palette as pal
from renderer.castle.layout import (
    GRID,
    PATH_WIDTH,
    PLAZA_RADIUS,
    CastleLayout,
    castle_kinds,
    castle_layout,
    is_castle_tile,
)
from renderer.geometry import Point

SUPERSAMPLE = 3
RGB = pal.RGB

COURT: RGB = pal.FIELD
COURT_DARK: RGB = pal.FIELD_DARK
COURT_LIGHT: RGB = pal.FIELD_LIGHT
TOWER: RGB = (164, 164, 168)
TOWER_LIGHT: RGB = (198, 198, 200)
TOWER_DARK: RGB = (92, 92, 98)
ROOF: RGB = pal.ROOF
ROOF_LIGHT: RGB = (214, 112, 80)
ROOF_DARK: RGB = pal.ROOF_DARK
PATH: RGB = pal.CITY
PATH_SHADE: RGB = pal.CITY_SHADE
PATH_EDGE: RGB = pal.ROAD_EDGE
PLAZA: RGB = pal.STONE
AWNING: RGB = (206, 52, 44)
GOODS: RGB = pal.SHIELD_MARK
OUTLINE: RGB = pal.WALL_DARK
#: Fill colours of each feature type (the tile's ground before any decoration).
GROUND: dict[str, RGB] = {"courtyard": COURT, "tower": TOWER, "house": ROOF, "wall": TOWER}

_CACHE: dict[tuple[str, int, int], Image.Image] = {}
_LOCK = threading.Lock()


def castle_tile_image(oriented: Oriented, size: int) -> Image.Image:
    """The art of an oriented castle tile at ``size`` pixels (cached; do not modify it)."""
    key = (oriented.kind, oriented.rotation, size)
    found = _CACHE.get(key)
    if found is None:

        def draw() -> Image.Image:
            art = draw_castle_tile(oriented.kind, size)
            for _ in range(oriented.rotation // 90):
                art = art.transpose(Image.Transpose.ROTATE_270)
            return art

        art = tilecache.tile(("castle", *key), draw)
        with _LOCK:
            found = _CACHE.setdefault(key, art)
    return found


def draw_castle_tile(kind_name: str, size: int) -> Image.Image:
    """Draw a castle tile kind unrotated (no cache)."""
    kind = castle_kinds()[kind_name]
    chosen = castle_layout(kind.oriented(0))
    big = size * SUPERSAMPLE
    image = Image.new("RGB", (big, big), COURT)
    rng = random.Random(sum(ord(c) * 31**i for i, c in enumerate(kind_name)))
    masks = region_masks(chosen, big)
    for local, mask in masks.items():
        ftype = kind.features[local].type
        image.paste(GROUND.get(ftype, COURT), (0, 0), mask)
    for local, mask in masks.items():
        ftype = kind.features[local].type
        if ftype == "courtyard":
            _lawn(image, mask, big, rng)
        elif ftype == "house":
            roofs(image, mask, big, rng)
        elif ftype == "tower":
            _stone(image, mask, big, chosen.spots.get(local))
    draw = ImageDraw.Draw(image)
    _paths(image, chosen, big)
    for door, facing in chosen.doors:
        _door(draw, door, facing, big)
    for point in chosen.markets.values():
        market_stall(draw, (point[0] * big, point[1] * big), big * 0.24)
    draw.rectangle((0, 0, big - 1, big - 1), outline=(70, 84, 52), width=SUPERSAMPLE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def region_masks(chosen: CastleLayout, big: int) -> dict[int, Image.Image]:
    """A smooth mask (mode L, ``big`` pixels) per non-path feature of the tile."""
    grid = Image.frombytes("L", (GRID, GRID), chosen.regions)
    masks: dict[int, Image.Image] = {}
    blur = ImageFilter.GaussianBlur(big / GRID * 1.2)
    for value in sorted(set(chosen.regions)):
        if value == 0:
            continue
        binary = grid.point(lambda v, value=value: 255 if v == value else 0)
        smooth = binary.resize((big, big), Image.Resampling.BILINEAR).filter(blur)
        masks[value - 1] = smooth.point(lambda v: 255 if v >= 128 else 0)
    return masks


def _subtract(a: Image.Image, b: Image.Image) -> Image.Image:
    return ImageChops.subtract(a, b)


def erode(mask: Image.Image, radius: int) -> Image.Image:
    """A mask shrunk by ``radius`` pixels (a box blur stays white only where all of it is)."""
    return mask.filter(ImageFilter.BoxBlur(radius)).point(lambda v: 255 if v >= 254 else 0)


def edge_band(mask: Image.Image, width: int) -> Image.Image:
    """The part of a mask within ``width`` pixels of its inner edge (tile borders excluded)."""
    return _subtract(mask, erode(mask, width))


def _lawn(image: Image.Image, mask: Image.Image, big: int, rng: random.Random) -> None:
    """Grass tufts and a few bushes: a courtyard reads as a garden."""
    draw = ImageDraw.Draw(image)
    pixels = mask.load()
    assert pixels is not None
    s = big * 0.022
    for _ in range(22):
        x, y = rng.uniform(0.06, 0.94) * big, rng.uniform(0.06, 0.94) * big
        if not pixels[int(x), int(y)]:
            continue
        for dx in (-1, 0, 1):
            draw.line(
                (x + dx * s * 0.8, y, x + dx * s * 1.3, y - s * 1.6),
                fill=COURT_DARK,
                width=max(1, big // 110),
            )
    for _ in range(4):
        x, y = rng.uniform(0.1, 0.9) * big, rng.uniform(0.1, 0.9) * big
        r = big * rng.uniform(0.03, 0.045)
        corners = [(x + dx, y + dy) for dx in (-r, r) for dy in (-r, r)]
        if all(pixels[int(cx), int(cy)] for cx, cy in corners):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=COURT_DARK)
            draw.ellipse((x - r * 0.6, y - r * 0.7, x + r * 0.3, y + r * 0.1), fill=COURT_LIGHT)


def roofs(image: Image.Image, mask: Image.Image, big: int, rng: random.Random) -> None:
    """Rows of red gabled roofs (lit and shaded halves, a ridge), outlined where the house ends."""
    town = Image.new("RGB", image.size, OUTLINE)
    draw = ImageDraw.Draw(town)
    h = big * 0.3
    line = max(2, big // 100)
    for row in range(-1, 5):
        y0 = row * h + big * 0.04
        x0 = -rng.uniform(0, big * 0.2)
        while x0 < big:
            w = big * rng.choice((0.26, 0.32, 0.38))
            _roof(draw, (x0 + line, y0 + line, x0 + w - line, y0 + h - line), rng, big)
            x0 += w
    image.paste(town, (0, 0), mask)
    _outline(image, mask, big, OUTLINE)


def _roof(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], rng: random.Random, big: int
) -> None:
    """One gabled roof from above: a sunlit slope, a shaded slope, tile courses and a ridge."""
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    draw.rectangle((x0, y0, x1, mid), fill=ROOF_LIGHT)
    draw.rectangle((x0, mid, x1, y1), fill=ROOF)
    step = big * 0.035
    x = x0 + step
    while x < x1 - 2:
        draw.line((x, y0 + 2, x, mid - 2), fill=ROOF, width=max(1, big // 200))
        draw.line((x, mid + 2, x, y1 - 2), fill=ROOF_DARK, width=max(1, big // 200))
        x += step
    draw.line((x0, mid, x1, mid), fill=ROOF_DARK, width=max(3, big // 70))
    if rng.random() < 0.35:  # a chimney
        cx, cy = x0 + (x1 - x0) * rng.uniform(0.25, 0.75), y0 + (mid - y0) * 0.5
        c = big * 0.022
        draw.rectangle((cx - c, cy - c, cx + c, cy + c), fill=(110, 84, 76), outline=OUTLINE)


def _stone(image: Image.Image, mask: Image.Image, big: int, spot: Point | None) -> None:
    """Grey stone courses, battlements along the edge, and a round keep at the figure's spot."""
    stone = Image.new("RGB", image.size, TOWER)
    draw = ImageDraw.Draw(stone)
    course = big * 0.075
    line = max(1, big // 160)
    for row in range(int(big / course) + 1):
        y = row * course
        draw.line((0, y, big, y), fill=(140, 140, 146), width=line)
        shift = (row % 2) * course
        for col in range(-1, int(big / (2 * course)) + 2):
            x = col * 2 * course + shift
            draw.line((x, y, x, y + course), fill=(140, 140, 146), width=line)
    image.paste(stone, (0, 0), mask)
    merlon = max(4, round(big * 0.045))
    band = edge_band(mask, merlon)
    checker = Image.new("L", image.size, 0)
    cdraw = ImageDraw.Draw(checker)
    for gy in range(0, big, merlon):
        for gx in range(0, big, merlon):
            if (gx // merlon + gy // merlon) % 2 == 0:
                cdraw.rectangle((gx, gy, gx + merlon - 1, gy + merlon - 1), fill=255)
    image.paste(TOWER_LIGHT, (0, 0), ImageChops.multiply(band, checker))
    _outline(image, mask, big, TOWER_DARK)
    if spot is not None:
        x, y = spot[0] * big, spot[1] * big
        r = big * 0.12
        pixels = mask.load()
        assert pixels is not None
        inside = all(
            pixels[min(big - 1, max(0, int(x + dx))), min(big - 1, max(0, int(y + dy)))]
            for dx in (-r, 0, r)
            for dy in (-r, 0, r)
        )
        if inside:
            keep(ImageDraw.Draw(image), (x, y), r)


def keep(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """A round tower seen from above: battlements round a lighter platform."""
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=TOWER_LIGHT, outline=TOWER_DARK, width=3)
    inner = r * 0.68
    draw.ellipse(
        (x - inner, y - inner, x + inner, y + inner), fill=(180, 180, 184), outline=TOWER_DARK
    )
    for i in range(10):
        a = i * math.pi / 5
        mx, my = x + math.cos(a) * r * 0.84, y + math.sin(a) * r * 0.84
        m = r * 0.13
        draw.rectangle((mx - m, my - m, mx + m, my + m), fill=TOWER_DARK)


def _outline(image: Image.Image, mask: Image.Image, big: int, colour: RGB) -> None:
    width = max(3, round(big * 0.014))
    image.paste(colour, (0, 0), edge_band(mask, max(1, width // 2)))


def _px(points: Sequence[Point], big: int) -> list[tuple[float, float]]:
    return [(x * big, y * big) for x, y in points]


def _paths(image: Image.Image, chosen: CastleLayout, big: int) -> None:
    """Cobbled paths: an edge, a sandy fill with cobbles, then wells, squares and hubs."""
    draw = ImageDraw.Draw(image)
    outer = round((PATH_WIDTH + 0.03) * big)
    inner = round(PATH_WIDTH * big)
    shape = Image.new("L", image.size, 0)
    sdraw = ImageDraw.Draw(shape)
    for path in chosen.paths:
        for line in path.lines:
            points = _px(line, big)
            draw.line(points, fill=PATH_EDGE, width=outer, joint="curve")
            sdraw.line(points, fill=255, width=inner, joint="curve")
            for x, y in points[-1:]:
                r = outer / 2
                draw.ellipse((x - r, y - r, x + r, y + r), fill=PATH_EDGE)
                r = inner / 2
                sdraw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    for centre, radius in ((chosen.plaza, PLAZA_RADIUS), (chosen.hub, PATH_WIDTH * 0.75)):
        if centre is None:
            continue
        x, y = centre[0] * big, centre[1] * big
        r = radius * big
        e = (outer - inner) / 2
        draw.ellipse((x - r - e, y - r - e, x + r + e, y + r + e), fill=PATH_EDGE)
        sdraw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    image.paste(_cobbles(big), (0, 0), shape)
    if chosen.plaza is not None:
        x, y = chosen.plaza[0] * big, chosen.plaza[1] * big
        r = PLAZA_RADIUS * big * 0.78
        draw.ellipse((x - r, y - r, x + r, y + r), fill=PLAZA, outline=PATH_SHADE, width=3)
        r2 = r * 0.45
        draw.ellipse((x - r2, y - r2, x + r2, y + r2), outline=PATH_SHADE, width=3)
        r3 = r * 0.14
        draw.ellipse((x - r3, y - r3, x + r3, y + r3), fill=PATH_SHADE)
    for path in chosen.paths:
        if path.well is not None:
            well(draw, (path.well[0] * big, path.well[1] * big), big * 0.085)


_COBBLES: dict[int, Image.Image] = {}


def _cobbles(big: int) -> Image.Image:
    found = _COBBLES.get(big)
    if found is None:
        found = Image.new("RGB", (big, big), PATH)
        draw = ImageDraw.Draw(found)
        step = big / 16
        for row in range(17):
            for col in range(17):
                x = (col + (0.5 if row % 2 else 0)) * step
                y = row * step
                draw.rounded_rectangle(
                    (x + 2, y + 2, x + step - 2, y + step - 2), step * 0.3, fill=PATH_SHADE
                )
                draw.rounded_rectangle(
                    (x + 4, y + 4, x + step - 5, y + step - 5), step * 0.3, fill=PATH
                )
        _COBBLES[big] = found
    return found


def well(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """A well from above: a stone ring round blue water."""
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=pal.STONE, outline=OUTLINE, width=4)
    w = r * 0.55
    draw.ellipse((x - w, y - w, x + w, y + w), fill=pal.WATER, outline=OUTLINE, width=2)


def _door(draw: ImageDraw.ImageDraw, door: Point, facing: Point, big: int) -> None:
    """A dark arched door where a path reaches a building."""
    x, y = door[0] * big, door[1] * big
    fx, fy = facing  # the path arrives moving this way; the door is just beyond
    ax, ay = -fy, fx
    half = big * 0.055
    depth = big * 0.06
    points = [
        (x + ax * half, y + ay * half),
        (x + ax * half + fx * depth, y + ay * half + fy * depth),
        (x - ax * half + fx * depth, y - ay * half + fy * depth),
        (x - ax * half, y - ay * half),
    ]
    draw.polygon(points, fill=(58, 40, 30), outline=OUTLINE)


def market_stall(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A market stall from above: a striped red-and-white awning over a table of goods."""
    x, y = centre
    w, h = size / 2, size * 0.38
    draw.rectangle(
        (x - w + 4, y - h + 6, x + w + 4, y + h + 6), fill=(60, 90, 40)
    )  # shadow on the grass
    stripes = 5
    for i in range(stripes):
        x0 = x - w + i * 2 * w / stripes
        colour = AWNING if i % 2 == 0 else pal.WHITE
        draw.rectangle((x0, y - h, x0 + 2 * w / stripes, y + h), fill=colour)
    draw.rectangle((x - w, y - h, x + w, y + h), outline=OUTLINE, width=3)
    # Goods peeking out in front.
    g = size * 0.09
    for i in (-1, 0, 1):
        gx, gy = x + i * size * 0.22, y + h + g * 0.6
        draw.ellipse((gx - g, gy - g, gx + g, gy + g), fill=GOODS, outline=OUTLINE, width=2)


families.TILE_IMAGES.append((is_castle_tile, castle_tile_image))
families.TILE_SPOTS.append((is_castle_tile, lambda oriented: castle_layout(oriented).spots))
