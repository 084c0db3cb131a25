"""The board picture: placed tiles cropped to one ring of empty squares, with figures and marks.

Only reads state: a tile dict as the engine keeps it (``{(x, y): PlacedTile}``), the figures, the
last placed square. Extras a turn image needs (a ghosted tile, candidate-square labels, labels on
the figure spots of a tile) are arguments, so the bot decides what the labels say.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.core.board import Figure, PlacedTile
from engine.core.tiles import Oriented
from renderer import families, marks
from renderer import palette as pal
from renderer.figures import figure_icon, role_of
from renderer.geometry import CORNER_SPOTS, Point, layout
from renderer.options import RenderOptions
from renderer.tileart import tile_image

Pos = tuple[int, int]
SpotKey = int | str
#: A part of the board: min x, min y, columns, rows.
Window = tuple[int, int, int, int]
#: A rectangle in a picture: left, top, right, bottom.
Box = tuple[int, int, int, int]
#: The picture of a frame's squares alone, from every tile and every dead square of the board
#: (see :mod:`renderer.layers`).
SquaresBase = Callable[["Frame", Mapping[Pos, PlacedTile], Sequence[Pos]], Image.Image]


@dataclass(slots=True)
class Measures:
    """What a phone reader must read in a picture, in pixels at full size (for the tests):
    glyph heights of square letters and score digits, heights of the figures drawn, for the
    players' table on two rows, each count cell's inked boxes (icon, number) in the table, and
    the boxes of the numbered figure-spot badges as drawn (in the board's pixels: no two may
    overlap, see :func:`overlaps`)."""

    letters: list[int]
    digits: list[int]
    figures: list[int]
    cells: list[tuple[Box, Box]] = field(default_factory=list)
    #: Each square letter drawn: the letter, its square and its badge's box in the picture.
    marks: list[tuple[str, Pos, Box]] = field(default_factory=list)
    badges: list[Box] = field(default_factory=list)


def overlaps(boxes: Sequence[Box]) -> list[tuple[int, int]]:
    """The pairs of boxes (by index) that share some area (touching edges do not count)."""
    found = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1]):
                found.append((i, j))
    return found


def glyph_height(text: str, font: object) -> int:
    """The inked height of ``text`` in ``font`` (Pillow's bounding box)."""
    box = font.getbbox(text)  # type: ignore[attr-defined]
    return int(box[3] - box[1])


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


def cross_out(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tile: int) -> None:
    """A dead square: a dark cross over its empty square, kept inside it."""
    x0, y0, x1, y1 = box
    inset = round(tile * 0.22)
    width = max(2, round(tile * 0.07))
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=pal.DEAD_SQUARE)
    for a, b in (
        ((x0 + inset, y0 + inset), (x1 - inset, y1 - inset)),
        ((x0 + inset, y1 - inset), (x1 - inset, y0 + inset)),
    ):
        draw.line((a, b), fill=pal.DEAD_MARK, width=width)


def grid(draw: ImageDraw.ImageDraw, left: int, top: int, cols: int, rows: int, tile: int) -> None:
    """Empty squares, ``cols`` by ``rows`` of ``tile`` pixels from (``left``, ``top``): each
    square's lines and the closing lines right of and under the last ones (the pixels of one
    outlined rectangle per square, drawn as a fill and a line per row and column)."""
    right, bottom = left + cols * tile, top + rows * tile
    draw.rectangle((left, top, right, bottom), fill=pal.EMPTY)
    for k in range(cols + 1):
        draw.line((left + k * tile, top, left + k * tile, bottom), fill=pal.EMPTY_LINE)
    for k in range(rows + 1):
        draw.line((left, top + k * tile, right, top + k * tile), fill=pal.EMPTY_LINE)


def make_frame(
    cells: Iterable[Pos],
    options: RenderOptions,
    extra: Iterable[Pos] = (),
    window: Window | None = None,
) -> Frame:
    """Fit the squares plus one ring of empty ones, shrinking tiles to respect ``max_side``.

    ``extra`` squares (candidates, a ghost) must show too, but get no ring of their own.
    ``window`` (min x, min y, columns, rows) shows exactly those squares instead.
    """
    if window is not None:
        wx, wy, wc, wr = window
        return Frame(wx, wy, wc, wr, options.tile_size, 4, 4)
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
    for accepts, family_spots in families.TILE_SPOTS:
        if accepts(oriented):
            return family_spots(oriented)
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
    window: Window | None = None,
    measures: Measures | None = None,
    ghosts: tuple[Pos, Sequence[GhostSpot], int] | None = None,
    dead: Iterable[Pos] = (),
    squares: SquaresBase | None = None,
) -> tuple[Image.Image, Frame]:
    """Draw the board; return the image and its frame (for tests and overlays).

    ``dead`` squares (empty, and no tile left can fill them) are crossed out.

    ``squares`` (see :mod:`renderer.layers`) gives the picture of the squares alone (the empty
    squares, the dead ones crossed out, the tiles: what only a tile placed changes) for the
    frame, from every tile and dead square of the board, instead of drawing them.

    ``window`` draws only that part of the board; ``measures`` collects what a phone reader
    must read (see :class:`Measures`). ``ghosts`` (square, spots, player) draws a see-through
    figure at each legal spot of that square, numbered (see :func:`draw_ghosts`).
    """
    cells = list(tiles) or [(0, 0)]
    frame = make_frame(
        cells, options, [*(candidates or {}), *([ghost[0]] if ghost else [])], window
    )
    every_tile = tiles
    if window is not None:
        inside = window_test(window)
        tiles = {p: t for p, t in tiles.items() if inside(p)}
        figures = [f for f in figures if inside(f.pos)]
        candidates = {p: v for p, v in (candidates or {}).items() if inside(p)}
    t = frame.tile
    every_dead = list(dead)
    shown_dead = [
        pos
        for pos in every_dead
        if 0 <= pos[0] - frame.min_x < frame.cols and 0 <= pos[1] - frame.min_y < frame.rows
    ]
    if squares is not None and not options.coordinates:
        image = squares(frame, every_tile, every_dead)
        draw = ImageDraw.Draw(image)
    else:
        image = Image.new("RGB", frame.size, pal.BACKGROUND)
        draw = ImageDraw.Draw(image)
        grid(draw, frame.left, frame.top, frame.cols, frame.rows, t)
        if options.coordinates:
            _coordinates(draw, frame)
        for pos in shown_dead:
            cross_out(draw, frame.box(pos), t)
        for pos, placed in tiles.items():
            x0, y0, _, _ = frame.box(pos)
            image.paste(tile_image(placed.oriented, t), (x0, y0))
    if shown_dead:
        marks.used("dead")
    if ghost is not None:
        _ghost(image, frame, *ghost)
    if last is not None and last in tiles:
        _highlight(draw, frame.box(last), t)
        marks.used("last")
    for figure in sorted(figures, key=lambda f: (f.pos[1], f.pos[0])):
        under = tiles.get(figure.pos)
        if under is None:
            continue
        role = role_of(figure, under.oriented)
        icon = figure_icon(figure.player, role, round(t * options.figure_scale))
        marks.used(f"figure:{role}", f"seat:{figure.player}")
        cx, cy = frame.point(figure.pos, figure_point(figure, under))
        image.paste(icon, (cx - icon.width // 2, cy - icon.height // 2), icon)
        if measures is not None:
            box = icon.getbbox()
            measures.figures.append(box[3] - box[1] if box else 0)
    for pos, label in (candidates or {}).items():
        x0, y0, x1, y1 = frame.box(pos)
        r = t * 0.2 * options.label_scale
        # Phone pictures keep two-letter labels as tall as one-letter ones, in a badge that
        # stays inside its square.
        phone = options.label_scale > 1
        fixed = round(r * 1.3) if phone else None
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        pad = r * 0.25 if phone else None
        size = badge(draw, centre, label, r, pal.LABEL_FILL, size=fixed, pad=pad)
        marks.used("letter")
        if measures is not None:
            measures.letters.append(size)
            measures.marks.append((label, pos, badge_box(draw, centre, label, r, fixed, pad)))
    if spot_labels is not None:
        pos, labels = spot_labels
        target = tiles.get(pos)
        oriented = target.oriented if target else (ghost[1] if ghost and ghost[0] == pos else None)
        if oriented is not None:
            r = max(9.0, t * 0.13)
            points = [frame.point(pos, spot_point(oriented, at)) for at in labels]
            for (bx, by), label in zip(apart(points, 1.9 * r), labels.values(), strict=True):
                badge(draw, (bx, by), label, r, (20, 20, 120))
                if measures is not None:
                    measures.badges.append(badge_box(draw, (bx, by), label, r))
    if ghosts is not None:
        pos, spots, player = ghosts
        target = tiles.get(pos)
        oriented = target.oriented if target else (ghost[1] if ghost and ghost[0] == pos else None)
        if oriented is not None:
            drawn = draw_ghosts(image, frame, pos, oriented, spots, player, options)
            if measures is not None:
                measures.badges.extend(drawn)
    return image, frame


@dataclass(frozen=True, slots=True)
class GhostSpot:
    """A place offered to the player: where (a record's ``at``), which figure stands there in
    the picture (follower, mayor, wagon, barn, man, hut...: the first the place offers) and the
    number the buttons give the place."""

    at: SpotKey
    figure: str
    label: str


def ghost_role(oriented: Oriented, spot: GhostSpot) -> str:
    """How the figure would be drawn on that spot (a follower on a field lies down...)."""
    local = (
        -1 if isinstance(spot.at, str) and spot.at in CORNER_SPOTS else oriented.feature_at(spot.at)
    )
    figure = Figure(0, spot.figure, (0, 0), local, spot.at)
    return role_of(figure, oriented)


def draw_ghosts(
    image: Image.Image,
    frame: Frame,
    pos: Pos,
    oriented: Oriented,
    spots: Sequence[GhostSpot],
    player: int,
    options: RenderOptions,
) -> list[Box]:
    """A see-through figure in the player's colour at every offered place, each with its
    number in a badge at its shoulder; crowded places are pushed apart so that no figure and
    no number hides another (the badges shrink, down to a floor, until none overlaps). Returns
    the badges' boxes as drawn."""
    t = frame.tile
    crowd = min(1.0, 2.6 / math.sqrt(max(1, len(spots))))  # many spots: smaller figures
    size = round(t * options.figure_scale * 0.85 * crowd)
    icons = [figure_icon(player, ghost_role(oriented, s), size) for s in spots]
    side = max((max(i.size) for i in icons), default=1)
    x0, y0, x1, y1 = frame.box(pos)
    points = [frame.point(pos, spot_point(oriented, s.at)) for s in spots]
    # Spots sharing a point (a fisher and a hut on one river) stand side by side, and every
    # figure stays on its tile.
    placed = within(apart(points, side * 1.05), (x0, y0, x1, y1), side / 2)
    for _ in range(6):
        placed = within(
            apart([(round(x), round(y)) for x, y in placed], side * 1.02),
            (x0, y0, x1, y1),
            side / 2,
        )
    for (cx, cy), icon in zip(placed, icons, strict=True):
        faded = icon.copy()
        faded.putalpha(faded.getchannel("A").point(lambda a: a * 3 // 4))
        image.paste(faded, (round(cx - icon.width / 2), round(cy - icon.height / 2)), faded)
    draw = ImageDraw.Draw(image)
    # Numbers readable on a phone: the close-up is about 3.3 tiles wide, so a radius of a
    # tenth of a tile keeps a digit 11 px tall once the picture is shown 400 px wide.
    start = max(11.0, t * 0.125 * (0.6 + 0.4 * crowd))
    floor = max(BADGE_FLOOR, t * 0.1)
    shoulders = [(round(cx + side * 0.4), round(cy - side * 0.4)) for cx, cy in placed]
    # Inside the tile first; on a crowded tile the badges may lean over its edge rather than
    # shrink below the floor.
    for lean in (1.0, 0.4, 0.0):
        r = start
        while True:
            badges = shoulders
            for _ in range(30):
                badges = [
                    (round(x), round(y))
                    for x, y in within(apart(badges, 2.1 * r), (x0, y0, x1, y1), r * lean)
                ]
            boxes = [badge_box(draw, b, s.label, r) for b, s in zip(badges, spots, strict=True)]
            if not overlaps(boxes) or r <= floor:
                break
            r = max(floor, r * 0.95)
        if not overlaps(boxes):
            break
    for (bx, by), spot in zip(badges, spots, strict=True):
        badge(draw, (bx, by), spot.label, r, (20, 20, 120))
    return boxes


#: The smallest radius a spot's badge shrinks to on a crowded tile (pixels).
BADGE_FLOOR = 9.0


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


def within(
    points: list[tuple[float, float]], box: tuple[int, int, int, int], margin: float
) -> list[tuple[float, float]]:
    """The points moved inside ``box`` shrunk by ``margin``."""
    x0, y0, x1, y1 = box
    return [
        (min(max(x, x0 + margin), x1 - margin), min(max(y, y0 + margin), y1 - margin))
        for x, y in points
    ]


def badge_box(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    r: float,
    size: int | None = None,
    pad: float | None = None,
) -> Box:
    """The box :func:`badge` fills (same arguments)."""
    x, y = centre
    font = pal.font(size or round(r * (1.3 if len(text) == 1 else 0.95)))
    box = draw.textbbox((0, 0), text, font=font)
    w = max(2 * r, box[2] - box[0] + (r if pad is None else pad))
    return (round(x - w / 2), round(y - r), round(x + w / 2), round(y + r))


def badge(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    r: float,
    fill: pal.RGB,
    *,
    size: int | None = None,
    pad: float | None = None,
) -> int:
    """A round label: dark disc, white rim, white text (readable on any tile).

    ``size`` fixes the font size (otherwise from the radius), ``pad`` the room beside a long
    text (otherwise the radius); returns the text's glyph height.
    """
    x, y = centre
    size = size or round(r * (1.3 if len(text) == 1 else 0.95))
    font = pal.font(size)
    box = draw.textbbox((0, 0), text, font=font)
    w = max(2 * r, box[2] - box[0] + (r if pad is None else pad))
    draw.rounded_rectangle(
        (x - w / 2, y - r, x + w / 2, y + r),
        r,
        fill=fill,
        outline=pal.WHITE,
        width=max(2, round(r / 6)),
    )
    draw.text((x, y), text, font=font, fill=pal.WHITE, anchor="mm")
    return glyph_height(text, font)


def window_test(window: Window) -> Callable[[Pos], bool]:
    wx, wy, wc, wr = window
    return lambda p: wx <= p[0] < wx + wc and wy <= p[1] < wy + wr


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
