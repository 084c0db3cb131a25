"""The Big Box's marks on tiles: inns beside their lake, cathedrals and the three trade goods.

Each is told apart by shape first and colour second, so it still reads on a phone and in black
and white: the inn is a half-timbered house with a steep roof and a pond, the cathedral a grey
cross-shaped church with a dome (the town's houses are small red roofs), and the goods are
round tokens: a purple grape bunch (wine), a golden sheaf (grain), a folded teal bolt (cloth).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer import legible
from renderer import palette as pal

Point = tuple[float, float]
GOODS = ("wine", "grain", "cloth")
#: Size of each mark relative to the tile side.
SIZES = {"inn": 0.24, "cathedral": 0.46, "wine": 0.34, "grain": 0.34, "cloth": 0.34}
_OUTLINE = pal.WALL_DARK


def inn_place(
    road: Sequence[Point], spot: Point, pixels: bytes, dist: Sequence[int], size: int
) -> Point:
    """Where an inn stands: on open field beside its road, away from the road's figure."""

    def score(p: int) -> float:
        y, x = divmod(p, size)
        point = ((x + 0.5) / size, (y + 0.5) / size)
        near_road = min(math.dist(point, q) for q in road)
        near_spot = math.dist(point, spot)
        room = min(float(dist[p]), 3 * size * 0.12) / (3 * size)
        return room * 3 - near_road - (1.0 if near_spot < 0.24 else 0.0)

    fields = [p for p in range(0, size * size, 2) if pixels[p] == 0]
    if not fields:
        return (spot[0] + 0.18 if spot[0] < 0.5 else spot[0] - 0.18, spot[1])
    best = max(fields, key=score)
    y, x = divmod(best, size)
    return ((x + 0.5) / size, (y + 0.5) / size)


def extent(name: str, centre: Point, size: float) -> tuple[float, float, float, float]:
    """The box mark ``name`` centred at ``centre`` (tile units) covers on a tile ``size`` wide
    (the inn with its roof and pond, the cathedral with its towers)."""
    x, y = centre[0] * size, centre[1] * size
    s = SIZES[name] * size
    if name == "inn":
        return (x - s * 0.62, y - s * 0.72, x + s * 1.05, y + s * 0.8)
    if name == "cathedral":
        h = s / 2
        return (x - h * 0.85, y - h * 1.1, x + h * 0.85, y + h * 1.15)
    return (x - s / 2, y - s / 2, x + s / 2, y + s / 2)


def draw(image: Image.Image, name: str, centre: Point, big: int) -> None:
    """Draw mark ``name`` centred at ``centre`` (tile units) on a tile image ``big`` wide."""
    x, y = centre[0] * big, centre[1] * big
    s = SIZES[name] * big
    canvas = ImageDraw.Draw(image)
    if name == "inn":
        inn(canvas, x, y, s)
    elif name == "cathedral":
        cathedral(canvas, x, y, s)
    else:
        token(canvas, name, x, y, s)


def inn(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A half-timbered inn with a steep dark roof, a hanging sign, and its pond to the side."""
    w = max(2, round(s / 14))
    pond = (x + s * 0.3, y + s * 0.35, x + s * 1.05, y + s * 0.8)
    draw.ellipse(pond, fill=pal.RIVER, outline=pal.RIVER_BANK, width=w)
    left, right, top, bottom = x - s * 0.5, x + s * 0.35, y - s * 0.1, y + s * 0.5
    draw.rectangle((left, top, right, bottom), fill=pal.INN_WALL, outline=_OUTLINE, width=w)
    draw.line((left, (top + bottom) / 2, right, (top + bottom) / 2), fill=_OUTLINE, width=w)
    draw.line((left, top, right, bottom), fill=_OUTLINE, width=w)
    door = x - s * 0.07
    draw.rectangle((door - s * 0.09, bottom - s * 0.28, door + s * 0.09, bottom), fill=_OUTLINE)
    roof = [(left - s * 0.12, top), ((left + right) / 2, y - s * 0.72), (right + s * 0.12, top)]
    draw.polygon(roof, fill=pal.INN_ROOF, outline=_OUTLINE, width=w)
    # The sign on its arm: the tankard-yellow board is what says "inn" rather than "house".
    arm = right + s * 0.02
    draw.line((right, top + s * 0.08, arm + s * 0.26, top + s * 0.08), fill=_OUTLINE, width=w)
    draw.rectangle(
        (arm + s * 0.08, top + s * 0.08, arm + s * 0.3, top + s * 0.32),
        fill=pal.SHIELD_MARK,
        outline=_OUTLINE,
        width=w,
    )


def cathedral(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A cathedral seen from above: a grey cross-shaped church with a long nave and a dome."""
    w = max(2, round(s / 30))
    h = s / 2
    nave = (x - h * 0.3, y - h * 0.95, x + h * 0.3, y + h * 0.95)
    transept = (x - h * 0.85, y - h * 0.5, x + h * 0.85, y - h * 0.05)
    apse = (x - h * 0.3, y - h * 1.1, x + h * 0.3, y - h * 0.6)
    for box in (nave, transept):
        grown = (box[0] - w * 2, box[1] - w * 2, box[2] + w * 2, box[3] + w * 2)
        draw.rectangle(grown, fill=pal.WHITE)
    draw.ellipse(
        (apse[0] - w * 2, apse[1] - w * 2, apse[2] + w * 2, apse[3] + w * 2), fill=pal.WHITE
    )
    draw.ellipse(apse, fill=pal.CATHEDRAL_DARK, outline=_OUTLINE, width=w)
    for box in (nave, transept):
        draw.rectangle(box, fill=pal.CATHEDRAL, outline=_OUTLINE, width=w)
        # The roof's ridge: half light, half shade.
        if box[2] - box[0] < box[3] - box[1]:
            draw.rectangle(
                ((box[0] + box[2]) / 2, box[1] + w, box[2] - w, box[3] - w), fill=pal.CATHEDRAL_DARK
            )
        else:
            draw.rectangle(
                (box[0] + w, (box[1] + box[3]) / 2, box[2] - w, box[3] - w), fill=pal.CATHEDRAL_DARK
            )
    # Two towers at the west front, then the dome over the crossing with a gold cross.
    for dx in (-1, 1):
        tx, ty, r = x + dx * h * 0.38, y + h * 0.95, h * 0.2
        draw.rectangle(
            (tx - r, ty - r, tx + r, ty + r), fill=pal.CATHEDRAL_DARK, outline=_OUTLINE, width=w
        )
    cy, r = y - h * 0.275, h * 0.32
    draw.ellipse((x - r, cy - r, x + r, cy + r), fill=pal.CATHEDRAL_DOME, outline=_OUTLINE, width=w)
    k, c = max(2, round(h * 0.07)), h * 0.2
    draw.rectangle((x - k, cy - c, x + k, cy + c), fill=pal.SHIELD_MARK)
    draw.rectangle(
        (x - c * 0.7, cy - c * 0.35 - k, x + c * 0.7, cy - c * 0.35 + k), fill=pal.SHIELD_MARK
    )


def token(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, s: float) -> None:
    """A trade-goods token: a cream disc with a dark rim and the good's own shape on it."""
    r = s / 2
    w = max(2, round(s / 16))
    draw.ellipse((x - r, y - r, x + r, y + r), fill=pal.TOKEN, outline=_OUTLINE, width=w)
    r *= 0.78
    if kind == "wine":
        _grapes(draw, x, y, r, w)
    elif kind == "grain":
        _sheaf(draw, x, y, r, w)
    else:
        _cloth(draw, x, y, r, w)


def _grapes(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, w: int) -> None:
    """A bunch of grapes: berries in rows of 3-2-1 under a green leaf."""
    b = r * 0.25
    draw.line((x, y - r * 0.55, x + r * 0.1, y - r * 0.95), fill=_OUTLINE, width=w * 2)
    draw.polygon(
        [(x + r * 0.05, y - r * 0.7), (x + r * 0.6, y - r * 0.95), (x + r * 0.45, y - r * 0.5)],
        fill=pal.GOODS_LEAF,
        outline=_OUTLINE,
    )
    rows = ((-0.5, 3), (-0.07, 2), (0.36, 1))
    for row, count in rows:
        for i in range(count):
            bx = x + (i - (count - 1) / 2) * b * 1.85
            by = y + row * r * 1.05 + b * 0.2
            draw.ellipse(
                (bx - b, by - b, bx + b, by + b),
                fill=pal.GOODS_WINE,
                outline=_OUTLINE,
                width=max(1, w // 2),
            )
    by = y + 0.72 * r
    draw.ellipse(
        (x - b * 0.8, by - b * 0.8, x + b * 0.8, by + b * 0.8),
        fill=pal.GOODS_WINE,
        outline=_OUTLINE,
        width=max(1, w // 2),
    )


def _sheaf(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, w: int) -> None:
    """A sheaf of grain: stalks fanned at both ends, tied in the middle, ears on top."""
    for k in (-0.55, -0.28, 0.0, 0.28, 0.55):
        top = (x + k * r * 1.1, y - r * 0.55)
        bottom = (x + k * r * 0.75, y + r * 0.95)
        draw.line(
            (top, (x + k * r * 0.15, y + r * 0.15), bottom), fill=pal.GOODS_GRAIN_DARK, width=w
        )
        ex, ey = top
        draw.ellipse(
            (ex - r * 0.13, ey - r * 0.4, ex + r * 0.13, ey + r * 0.08),
            fill=pal.GOODS_GRAIN,
            outline=_OUTLINE,
            width=max(1, w // 2),
        )
    band = r * 0.13
    draw.rectangle(
        (x - r * 0.3, y + r * 0.1 - band, x + r * 0.3, y + r * 0.1 + band),
        fill=pal.ROOF_DARK,
        outline=_OUTLINE,
        width=max(1, w // 2),
    )


def _cloth(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, w: int) -> None:
    """A bolt of cloth: a thick roll seen from the side, its loose end folded out below."""
    left, right, top, bottom = x - r * 0.85, x + r * 0.6, y - r * 0.7, y + r * 0.2
    draw.polygon(
        [
            (left, bottom - r * 0.1),
            (right, bottom - r * 0.1),
            (x + r * 0.9, y + r * 0.85),
            (x - r * 0.55, y + r * 0.85),
        ],
        fill=pal.GOODS_CLOTH_LIGHT,
        outline=_OUTLINE,
        width=w,
    )
    draw.rectangle((left, top, right, bottom), fill=pal.GOODS_CLOTH, outline=_OUTLINE, width=w)
    for k in (0.33, 0.66):
        stripe = top + (bottom - top) * k
        draw.line((left, stripe, right, stripe), fill=pal.GOODS_CLOTH_LIGHT, width=w)
    e = r * 0.3
    draw.ellipse(
        (right - e, top, right + e, bottom), fill=pal.GOODS_CLOTH_LIGHT, outline=_OUTLINE, width=w
    )
    mid = (top + bottom) / 2
    draw.ellipse((right - e * 0.35, mid - e * 0.4, right + e * 0.35, mid + e * 0.4), fill=_OUTLINE)


_ICONS: dict[tuple[str, int], Image.Image] = {}
_LOCK = threading.Lock()


def goods_icon(kind: str, size: int) -> Image.Image:
    """An RGBA goods token ``size`` pixels wide, for players' strips and end pictures (cached)."""
    key = (kind, size)
    found = _ICONS.get(key)
    if found is None:
        big = size * 3
        image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        token(ImageDraw.Draw(image), kind, big / 2, big / 2, big - 2)
        icon = image.resize((size, size), Image.Resampling.LANCZOS)
        with _LOCK:
            found = _ICONS.setdefault(key, icon)
    return legible.tag(found, "token", kind)
