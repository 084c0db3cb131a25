"""The board picture: placed tiles cropped to one ring of empty squares, with figures and marks.

Only reads state: a tile dict as the engine keeps it (``{(x, y): PlacedTile}``), the figures, the
last placed square. Extras a turn image needs (a ghosted tile, candidate-square labels, labels on
the figure spots of a tile) are arguments, so the bot decides what the labels say.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.board import Figure, PlacedTile
from engine.tiles import Oriented
from renderer import palette as pal
from renderer.figures import figure_icon, role_of
from renderer.geometry import CORNER_SPOTS, Point, layout
from renderer.hunters_geometry import is_hunters_tile
from renderer.hunters_geometry import spots as hunters_spots
from renderer.options import RenderOptions
from renderer.tileart import tile_image

Pos = tuple[int, int]
SpotKey = int | str


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the board's squares are in the picture."""

    min_x: int
    min_y: int
    cols: int
    rows: int
    tile: int
    left: int
    top: int
    #: Blank pixels right of and under the squares.
    pad: int = 4

    def box(self, pos: Pos) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) of a square."""
        x0 = self.left + (pos[0] - self.min_x) * self.tile
        y0 = self.top + (pos[1] - self.min_y) * self.tile
        return (x0, y0, x0 + self.tile, y0 + self.tile)

    def point(self, pos: Pos, unit: Point) -> tuple[int, int]:
        """Pixel of a point given in tile units on square ``pos``."""
        x0, y0, _, _ = self.box(pos)
        return (round(x0 + unit[0] * self.tile), round(y0 + unit[1] * self.tile))

    @property
    def size(self) -> tuple[int, int]:
        return (
            self.left + self.cols * self.tile + self.pad,
            self.top + self.rows * self.tile + self.pad,
        )


def make_frame(cells: Iterable[Pos], options: RenderOptions, extra: Iterable[Pos] = ()) -> Frame:
    """Fit the squares plus one ring of empty ones, shrinking tiles to respect ``max_side``.

    ``extra`` squares (candidates, a ghost) must show too, but get no ring of their own.
    """
    ring = [(x + dx, y + dy) for x, y in cells for dx, dy in ((-1, -1), (1, 1))]
    xs, ys = zip(*ring, *extra, strict=False)
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    tile = options.tile_size
    margin = round(tile * 0.3) if options.coordinates else 4
    longest = max(cols, rows)
    if margin + longest * tile > options.max_side:
        tile = max(options.min_tile, (options.max_side - margin) // longest)
        margin = round(tile * 0.3) if options.coordinates else 4
    return Frame(min_x, min_y, cols, rows, tile, margin, margin)


def spots_of(oriented: Oriented) -> Mapping[int, Point]:
    """Figure spot per local feature of a tile (Hunters & Gatherers tiles have their own)."""
    if is_hunters_tile(oriented):
        return hunters_spots(oriented)
    return layout(oriented).spots


def figure_point(figure: Figure, placed: PlacedTile) -> Point:
    """Where a figure stands on its tile, in tile units."""
    if isinstance(figure.at, str) and figure.at in CORNER_SPOTS:
        return CORNER_SPOTS[figure.at]
    return spots_of(placed.oriented).get(figure.local, (0.5, 0.5))


def spot_point(oriented: Oriented, at: SpotKey) -> Point:
    """The point of a figure spot named by a record's ``at`` (edge position, C, I1, corner)."""
    if isinstance(at, str) and at in CORNER_SPOTS:
        x, y = CORNER_SPOTS[at]
        # Inside the tile, so the label is not hidden by a neighbour.
        return (0.14 + 0.72 * x, 0.14 + 0.72 * y)
    local = oriented.feature_at(at)
    return spots_of(oriented).get(local, (0.5, 0.5))


def draw_board(
    tiles: Mapping[Pos, PlacedTile],
    figures: Iterable[Figure],
    options: RenderOptions,
    *,
    last: Pos | None = None,
    candidates: Mapping[Pos, str] | None = None,
    ghost: tuple[Pos, Oriented] | None = None,
    spot_labels: tuple[Pos, Mapping[SpotKey, str]] | None = None,
) -> tuple[Image.Image, Frame]:
    """Draw the board; return the image and its frame (for tests and overlays)."""
    cells = list(tiles) or [(0, 0)]
    frame = make_frame(cells, options, [*(candidates or {}), *([ghost[0]] if ghost else [])])
    image = Image.new("RGB", frame.size, pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    t = frame.tile
    for gx in range(frame.cols):
        for gy in range(frame.rows):
            x0, y0, x1, y1 = frame.box((frame.min_x + gx, frame.min_y + gy))
            draw.rectangle((x0, y0, x1, y1), fill=pal.EMPTY, outline=pal.EMPTY_LINE)
    if options.coordinates:
        _coordinates(draw, frame)
    for pos, placed in tiles.items():
        x0, y0, _, _ = frame.box(pos)
        image.paste(tile_image(placed.oriented, t), (x0, y0))
    if ghost is not None:
        _ghost(image, frame, *ghost)
    if last is not None and last in tiles:
        _highlight(draw, frame.box(last), t)
    for figure in sorted(figures, key=lambda f: (f.pos[1], f.pos[0])):
        under = tiles.get(figure.pos)
        if under is None:
            continue
        icon = figure_icon(figure.player, role_of(figure, under.oriented), t)
        cx, cy = frame.point(figure.pos, figure_point(figure, under))
        image.paste(icon, (cx - icon.width // 2, cy - icon.height // 2), icon)
    for pos, label in (candidates or {}).items():
        x0, y0, x1, y1 = frame.box(pos)
        badge(draw, ((x0 + x1) / 2, (y0 + y1) / 2), label, t * 0.2, pal.LABEL_FILL)
    if spot_labels is not None:
        pos, labels = spot_labels
        target = tiles.get(pos)
        oriented = target.oriented if target else (ghost[1] if ghost and ghost[0] == pos else None)
        if oriented is not None:
            r = max(9.0, t * 0.13)
            points = [frame.point(pos, spot_point(oriented, at)) for at in labels]
            for (bx, by), label in zip(apart(points, 1.9 * r), labels.values(), strict=True):
                badge(draw, (bx, by), label, r, (20, 20, 120))
    return image, frame


def apart(points: list[tuple[int, int]], gap: float) -> list[tuple[float, float]]:
    """Nudge points closer than ``gap`` away from each other (crowded spots on a busy tile),
    so no number badge hides another; points already apart do not move."""
    out = [(float(x), float(y)) for x, y in points]
    for _ in range(30):
        moved = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                (ax, ay), (bx, by) = out[i], out[j]
                d = math.hypot(ax - bx, ay - by)
                if d >= gap:
                    continue
                ux, uy = ((ax - bx) / d, (ay - by) / d) if d > 1e-6 else (1.0, 0.0)
                push = (gap - d) / 2 + 0.5
                out[i] = (ax + ux * push, ay + uy * push)
                out[j] = (bx - ux * push, by - uy * push)
                moved = True
        if not moved:
            break
    return out


def badge(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, r: float, fill: pal.RGB
) -> None:
    """A round label: dark disc, white rim, white text (readable on any tile)."""
    x, y = centre
    size = round(r * (1.3 if len(text) == 1 else 0.95))
    font = pal.font(size)
    box = draw.textbbox((0, 0), text, font=font)
    w = max(2 * r, box[2] - box[0] + r)
    draw.rounded_rectangle(
        (x - w / 2, y - r, x + w / 2, y + r),
        r,
        fill=fill,
        outline=pal.WHITE,
        width=max(2, round(r / 6)),
    )
    draw.text((x, y), text, font=font, fill=pal.WHITE, anchor="mm")


def _coordinates(draw: ImageDraw.ImageDraw, frame: Frame) -> None:
    font = pal.font(max(9, round(frame.tile * 0.16)))
    for gx in range(frame.cols):
        x0, _, x1, _ = frame.box((frame.min_x + gx, frame.min_y))
        draw.text(
            ((x0 + x1) / 2, frame.top / 2),
            str(frame.min_x + gx),
            font=font,
            fill=pal.MUTED,
            anchor="mm",
        )
    for gy in range(frame.rows):
        _, y0, _, y1 = frame.box((frame.min_x, frame.min_y + gy))
        draw.text(
            (frame.left / 2, (y0 + y1) / 2),
            str(frame.min_y + gy),
            font=font,
            fill=pal.MUTED,
            anchor="mm",
        )


def _highlight(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tile: int) -> None:
    """A gold frame with dark edges round the last tile: visible on green, sand and grey."""
    w = max(3, tile // 22)
    x0, y0, x1, y1 = box
    draw.rectangle((x0 - 1, y0 - 1, x1, y1), outline=pal.INK, width=w + 2)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=pal.HIGHLIGHT, width=w)


def _ghost(image: Image.Image, frame: Frame, pos: Pos, oriented: Oriented) -> None:
    """The tile about to be placed, half see-through, in a dashed frame."""
    x0, y0, x1, y1 = frame.box(pos)
    art = tile_image(oriented, frame.tile)
    under = image.crop((x0, y0, x0 + frame.tile, y0 + frame.tile))
    image.paste(Image.blend(under, art, 0.62), (x0, y0))
    draw = ImageDraw.Draw(image)
    dash = max(4, frame.tile // 10)
    w = max(2, frame.tile // 30)
    for start in range(0, frame.tile, dash * 2):
        end = min(frame.tile, start + dash)
        draw.line((x0 + start, y0, x0 + end, y0), fill=pal.INK, width=w)
        draw.line((x0 + start, y1 - 1, x0 + end, y1 - 1), fill=pal.INK, width=w)
        draw.line((x0, y0 + start, x0, y0 + end), fill=pal.INK, width=w)
        draw.line((x1 - 1, y0 + start, x1 - 1, y0 + end), fill=pal.INK, width=w)
