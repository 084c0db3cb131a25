"""Procedural art for Hunters & Gatherers tiles: meadows, forests, rivers, lakes, springs.

The landscape is painted for the unrotated tile from :mod:`renderer.hunters.geometry` and then
turned, so a tile looks the same in every rotation; the icons (animals, gold, mushrooms, the
volcano, fire, shrine) are drawn afterwards, upright, at their turned places. Bonus tiles get a
gold frame and a star. Drawn three times larger and scaled down, like the base tiles.
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.core.tiles import Oriented, load_set
from renderer import families
from renderer.hunters import icons
from renderer.hunters.geometry import (
    GRID,
    RIVER_WIDTH,
    SPRING_RADIUS,
    HuntersLayout,
    base_layout,
    decorations,
    features_of,
    is_hunters_tile,
    marks,
    spots,
    tile_extra,
    turn_point,
)

RGB = tuple[int, int, int]
SUPERSAMPLE = 3

MEADOW: RGB = (150, 194, 92)
MEADOW_DARK: RGB = (118, 164, 70)
MEADOW_LIGHT: RGB = (182, 214, 122)
FLOWER: RGB = (250, 240, 170)
FOREST: RGB = (52, 112, 56)
FOREST_DARK: RGB = (24, 66, 34)
FOREST_LIGHT: RGB = (92, 156, 74)
TRUNK_SHADOW: RGB = (36, 84, 42)
HEDGE: RGB = (70, 124, 56)
WATER: RGB = (62, 140, 212)
WATER_DARK: RGB = (30, 86, 150)
WATER_LIGHT: RGB = (150, 204, 240)
SHORE: RGB = (222, 204, 150)
FISH: RGB = (248, 150, 48)
FISH_DARK: RGB = (120, 60, 20)
STONE: RGB = (168, 164, 154)
STONE_DARK: RGB = (92, 88, 82)
BONUS_FRAME: RGB = (236, 186, 40)
BONUS_DARK: RGB = (120, 78, 10)
EDGE_LINE: RGB = (84, 112, 56)

#: Colours every H&G image uses, for the PNG palette.
COLOURS: tuple[RGB, ...] = (
    MEADOW,
    MEADOW_DARK,
    MEADOW_LIGHT,
    FLOWER,
    FOREST,
    FOREST_DARK,
    FOREST_LIGHT,
    TRUNK_SHADOW,
    HEDGE,
    WATER,
    WATER_DARK,
    WATER_LIGHT,
    SHORE,
    FISH,
    FISH_DARK,
    STONE,
    STONE_DARK,
    BONUS_FRAME,
    BONUS_DARK,
    EDGE_LINE,
)


def is_bonus(oriented: Oriented) -> bool:
    return bool(tile_extra(oriented.kind).get("bonus"))


def draw_tile(oriented: Oriented, size: int) -> Image.Image:
    """The art of an oriented H&G tile at ``size`` pixels (no cache)."""
    big = size * SUPERSAMPLE
    chosen = base_layout(oriented)
    turns = oriented.rotation // 90
    image = landscape(oriented, chosen, big)
    for _ in range(turns):
        image = image.transpose(Image.Transpose.ROTATE_270)
    feats = features_of(oriented)
    placed = marks(oriented)
    volcano = bool(tile_extra(oriented.kind).get("volcano"))
    for feat in feats:
        points = placed.get(feat.local, ())
        names = decorations(feat, volcano)
        for name, (x, y) in zip(names, points, strict=False):
            art = icons.icon(name, round(icons.SIZES[name] * big))
            image.paste(art, (round(x * big - art.width / 2), round(y * big - art.height / 2)), art)
    draw = ImageDraw.Draw(image)
    if is_bonus(oriented):
        _bonus_frame(image, draw, big)
    draw.rectangle((0, 0, big - 1, big - 1), outline=EDGE_LINE, width=SUPERSAMPLE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


# -- the landscape (unrotated) -------------------------------------------------------------


def _mask(labels: bytes, values: set[int], big: int) -> Image.Image:
    """A smooth mask of the grid pixels holding ``values``, at ``big`` pixels."""
    small = Image.frombytes("L", (GRID, GRID), bytes(255 if v in values else 0 for v in labels))
    scaled = small.resize((big, big), Image.Resampling.BILINEAR)
    blurred = scaled.filter(ImageFilter.GaussianBlur(big / GRID * 1.2))
    return blurred.point(lambda v: 255 if v >= 128 else 0)


def _fill(image: Image.Image, mask: Image.Image, colour: RGB) -> None:
    image.paste(colour, (0, 0, image.width, image.height), mask)


def landscape(oriented: Oriented, chosen: HuntersLayout, big: int) -> Image.Image:
    """Meadow, hedges, forests, rivers, springs and lakes of the unrotated tile."""
    seed = sum(ord(c) * (i + 7) for i, c in enumerate(oriented.kind))
    rng = random.Random(seed)
    image = Image.new("RGB", (big, big), MEADOW)
    draw = ImageDraw.Draw(image)
    feats = features_of(oriented)
    _grass(draw, big, rng)
    meadows = {f.local + 1 for f in feats if f.type == "meadow"}
    _hedges(draw, chosen.labels, meadows, big)
    forests = [f.local + 1 for f in feats if f.type == "forest"]
    masks = {v: _mask(chosen.labels, {v}, big) for v in forests}
    for value in forests:
        mask = masks[value]
        others = [masks[o] for o in forests if o != value]
        if others:
            # Two forests side by side keep a strip of meadow between them.
            near = others[0]
            for other in others[1:]:
                near = ImageChops.lighter(near, other)
            near = _grow(near, big * 0.03)
            mask = ImageChops.subtract(mask, near)
        _forest(image, mask, big, random.Random(seed + value))
    _water(image, chosen, big)
    return image


def _grow(mask: Image.Image, by: float) -> Image.Image:
    """A mask grown by about ``by`` pixels (a blur and a low threshold: fast at any radius)."""
    return mask.filter(ImageFilter.BoxBlur(by)).point(lambda v: 255 if v > 6 else 0)


def _shrink(mask: Image.Image, by: float) -> Image.Image:
    """A mask shrunk by about ``by`` pixels."""
    return mask.filter(ImageFilter.BoxBlur(by)).point(lambda v: 255 if v > 249 else 0)


def _grass(draw: ImageDraw.ImageDraw, big: int, rng: random.Random) -> None:
    """Tufts and a few flowers: meadow at a glance, sparse so PNGs stay small."""
    width = max(1, big // 100)
    for _ in range(14):
        x, y = rng.uniform(0.06, 0.94) * big, rng.uniform(0.06, 0.94) * big
        s = big * 0.022
        for dx in (-1, 0, 1):
            draw.line(
                (x + dx * s * 0.7, y, x + dx * s * 1.2, y - s * 1.5), fill=MEADOW_DARK, width=width
            )
    for _ in range(5):
        x, y = rng.uniform(0.08, 0.92) * big, rng.uniform(0.08, 0.92) * big
        r = big * 0.012
        draw.ellipse((x - r, y - r, x + r, y + r), fill=FLOWER)


def _hedges(draw: ImageDraw.ImageDraw, labels: bytes, meadows: set[int], big: int) -> None:
    """A row of bushes where two different meadows meet (nothing else parts them)."""
    points: list[tuple[float, float]] = []
    for p, v in enumerate(labels):
        if v not in meadows:
            continue
        y, x = divmod(p, GRID)
        for q, ok, mid in (
            (p + 1, x < GRID - 1, ((x + 1) / GRID, (y + 0.5) / GRID)),
            (p + GRID, y < GRID - 1, ((x + 0.5) / GRID, (y + 1) / GRID)),
        ):
            if ok and labels[q] in meadows and labels[q] != v:
                points.append(mid)
    kept: list[tuple[float, float]] = []
    for point in points:
        if all(math.dist(point, k) > 0.045 for k in kept):
            kept.append(point)
    r = big * 0.028
    for hx, hy in kept:
        cx, cy = hx * big, hy * big
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=HEDGE, outline=FOREST_DARK, width=SUPERSAMPLE
        )
        draw.ellipse((cx - r * 0.5, cy - r * 0.6, cx, cy - r * 0.1), fill=FOREST_LIGHT)


def _forest(image: Image.Image, mask: Image.Image, big: int, rng: random.Random) -> None:
    """Dark woods packed with round tree crowns, with a dark rim."""
    woods = Image.new("RGB", image.size, FOREST)
    draw = ImageDraw.Draw(woods)
    step = big * 0.105
    r = big * 0.068
    rows = int(1 / 0.105) + 2
    for row in range(rows):
        for col in range(rows):
            x = (col + (0.5 if row % 2 else 0.0)) * step + rng.uniform(-0.2, 0.2) * step
            y = row * step * 0.92 + rng.uniform(-0.2, 0.2) * step
            if not 0 <= x < big or not 0 <= y < big:
                continue
            rr = r * rng.uniform(0.85, 1.12)
            draw.ellipse((x - rr, y - rr + r * 0.25, x + rr, y + rr + r * 0.25), fill=TRUNK_SHADOW)
            draw.ellipse(
                (x - rr, y - rr, x + rr, y + rr),
                fill=FOREST,
                outline=FOREST_DARK,
                width=SUPERSAMPLE,
            )
            draw.ellipse(
                (x - rr * 0.6, y - rr * 0.7, x + rr * 0.05, y - rr * 0.05), fill=FOREST_LIGHT
            )
    image.paste(woods, (0, 0), mask)
    rim = ImageChops.subtract(mask, _shrink(mask, big * 0.012))
    image.paste(FOREST_DARK, (0, 0, big, big), rim)


def _water(image: Image.Image, chosen: HuntersLayout, big: int) -> None:
    draw = ImageDraw.Draw(image)
    width = round(RIVER_WIDTH * big)
    for river in chosen.rivers:
        points = [(x * big, y * big) for x, y in river.path]
        draw.line(points, fill=WATER_DARK, width=width + round(big * 0.03), joint="curve")
    for river in chosen.rivers:
        points = [(x * big, y * big) for x, y in river.path]
        draw.line(points, fill=WATER, width=width, joint="curve")
        draw.line(points[2:-2], fill=WATER_LIGHT, width=max(1, big // 120), joint="curve")
        if river.spring is not None:
            _spring(draw, river.spring, big)
    for lake in chosen.lakes:
        _lake(draw, lake.outline, lake.fish, big)


def _spring(draw: ImageDraw.ImageDraw, point: tuple[float, float], big: int) -> None:
    """A small pool ringed with stones, where the river rises."""
    x, y = point[0] * big, point[1] * big
    r = SPRING_RADIUS * big
    draw.ellipse((x - r, y - r, x + r, y + r), fill=WATER, outline=WATER_DARK, width=SUPERSAMPLE)
    s = r * 0.36
    for i in range(8):
        a = i * math.tau / 8
        sx, sy = x + math.cos(a) * r * 1.08, y + math.sin(a) * r * 1.08
        draw.ellipse((sx - s, sy - s, sx + s, sy + s), fill=STONE, outline=STONE_DARK, width=2)
    draw.ellipse((x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3), fill=WATER_LIGHT)


def _lake(
    draw: ImageDraw.ImageDraw,
    outline: tuple[tuple[float, float], ...],
    fish: tuple[tuple[float, float], ...],
    big: int,
) -> None:
    """A lake with a sandy shore; each fish it holds is drawn, so they can be counted."""
    cx = sum(p[0] for p in outline) / len(outline)
    cy = sum(p[1] for p in outline) / len(outline)
    shore = [((x - cx) * 1.12 + cx) * big for x, _ in outline]
    shore_y = [((y - cy) * 1.12 + cy) * big for _, y in outline]
    draw.polygon(list(zip(shore, shore_y, strict=True)), fill=SHORE)
    points = [(x * big, y * big) for x, y in outline]
    draw.polygon(points, fill=WATER, outline=WATER_DARK, width=SUPERSAMPLE)
    inner = [((x - cx) * 0.55 + cx) * big for x, _ in outline]
    inner_y = [((y - cy) * 0.55 + cy - 0.01) * big for _, y in outline]
    draw.line(
        list(zip(inner, inner_y, strict=True))[4:14], fill=WATER_LIGHT, width=max(2, big // 80)
    )
    for x, y in fish:
        _fish(draw, x * big, y * big, big * 0.05)


def _fish(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    w = max(2, round(s * 0.12))
    draw.polygon(
        [(x - s * 0.7, y), (x - s * 1.25, y - s * 0.5), (x - s * 1.25, y + s * 0.5)],
        fill=FISH,
        outline=FISH_DARK,
        width=w,
    )
    draw.ellipse((x - s, y - s * 0.5, x + s, y + s * 0.5), fill=FISH, outline=FISH_DARK, width=w)
    e = s * 0.16
    draw.ellipse(
        (x + s * 0.45 - e, y - s * 0.12 - e, x + s * 0.45 + e, y - s * 0.12 + e), fill=FISH_DARK
    )


def _bonus_frame(image: Image.Image, draw: ImageDraw.ImageDraw, big: int) -> None:
    """Bonus tiles: a gold frame inside the edge and a gold star in the top-left corner."""
    w = round(big * 0.035)
    draw.rectangle((0, 0, big - 1, big - 1), outline=BONUS_DARK, width=w + SUPERSAMPLE * 2)
    draw.rectangle(
        (SUPERSAMPLE, SUPERSAMPLE, big - 1 - SUPERSAMPLE, big - 1 - SUPERSAMPLE),
        outline=BONUS_FRAME,
        width=w,
    )
    art = icons.icon("star", round(icons.SIZES["star"] * big))
    image.paste(art, (w, w), art)


def spot_on_turned(oriented: Oriented, point: tuple[float, float]) -> tuple[float, float]:
    return turn_point(point, oriented.rotation // 90)


def palette_sheet() -> Image.Image:
    """Every colour H&G images use, for the PNG palette: a few tiles holding every kind of
    landscape and icon, each figure of each seat on each ground, interface colours, greys."""
    from renderer import palette as pal
    from renderer.figures import figure_icon
    from renderer.hunters.end import CATEGORY_COLOURS
    from renderer.hunters.figures import SCALES

    size = 96
    samples = ("S", "L13", "L14", "L15", "L17", "L32", "B01", "B02", "B03", "B04", "B08", "B10")
    kinds = {k.name: k for k in load_set("hunters")}
    sheet = Image.new("RGB", (size * 10, size * 9), pal.BACKGROUND)
    for i, name in enumerate(samples):
        sheet.paste(draw_tile(kinds[name].oriented(0), size), ((i % 10) * size, (i // 10) * size))
    y = size * 2
    grounds = (MEADOW, FOREST, WATER, pal.EMPTY, pal.BACKGROUND)
    cell = 40
    i = 0
    for player in range(len(pal.PLAYER_COLOURS)):
        for role in SCALES:
            icon = figure_icon(player, role, size).resize((cell - 4, cell - 4))
            for ground in grounds:
                x, row = (i % 24) * cell, y + (i // 24) * cell
                sheet.paste(ground, (x, row, x + cell, row + cell))
                sheet.paste(icon, (x + 2, row + 2), icon)
                i += 1
    draw = ImageDraw.Draw(sheet)
    named = [v for v in vars(pal).values() if isinstance(v, tuple) and len(v) == 3]
    named += [*pal.PLAYER_COLOURS, *COLOURS, *CATEGORY_COLOURS.values(), icons.GOLD]
    y = size * 6
    for i, colour in enumerate(named):
        x, row = (i % 24) * cell, y + (i // 24) * cell
        draw.rectangle((x, row, x + cell - 1, row + cell - 1), fill=colour)
        for ground in (pal.BACKGROUND, pal.WHITE, pal.LABEL_FILL):
            draw.text((x + 2, row + 20), "Ag", font=pal.font(14), fill=ground, anchor="lm")
    for i in range(64):
        shade = i * 4
        draw.rectangle((i * 15, size * 8, i * 15 + 14, size * 9), fill=(shade, shade, shade))
    return sheet


families.TILE_ART.append(("hunters", is_hunters_tile, draw_tile))
families.TILE_SPOTS.append((is_hunters_tile, spots))
families.register_pictures("hunters", palette_sheet=palette_sheet)
