"""The turn picture, made for a phone: the drawn tile, the board near the action, the scores.

Discord shows a picture about 400 pixels wide in a phone's chat, and opens it full size on a
tap. Every turn picture is therefore :data:`WIDTH` pixels wide whatever the board's size, and
everything a player must read is sized for that width shrunk to 400: square letters, score
digits (at least 11 px tall there) and figures (at least 10 px). A board wider than
:data:`WINDOW` squares (or taller than :data:`WINDOW_DOWN`) shows the part around the last tile
that holds the most lettered squares, and every lettered square outside it in a close-up under
it (:func:`insets_for`: a few far squares together, with half of each neighbour, under an arrow
pointing where they lie), so that every letter is in the picture, once; the whole board is one
command away (``/carcassonne board``).

From top to bottom: the drawn tile, large, with each rotation that fits somewhere captioned as
the menus name it ("90°"); the board; one row per player with the score and every figure count
labelled (followers, mayor, wagon, barn, abbey; men and huts), and the turn and tiles left. With
more than :data:`MAX_COLUMNS` columns (the Big Box with Abbey & Mayor), each player takes two rows
(:mod:`renderer.phone_rows`): name and score, then a cell per figure and goods token.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

import catalogs
from engine.carcassonne.traders_builders import goods
from renderer import emblems, families, marks
from renderer import palette as pal
from renderer.board import (
    Box,
    Frame,
    Measures,
    Pos,
    SpotKey,
    Window,
    apart,
    badge,
    badge_box,
    draw_board,
    glyph_height,
    spot_point,
    window_test,
    within,
)
from renderer.figures import figure_icon
from renderer.options import RenderOptions
from renderer.phone_rows import Seats, abbey_icon, shortened, two_row_table
from renderer.tileart import tile_image

if TYPE_CHECKING:
    from engine import Game
    from renderer.layers import Canvas

#: A figure spot on the board: square and spot (a record's ``at``).
SpotAt = tuple[int, int, SpotKey]

#: Width of every phone picture, in pixels (Discord shows it about 400 px wide on a phone).
WIDTH = 960
#: The most squares a board picture shows across and down before it shows a part only: tiles of
#: 73 px or more, where a square's letter (:data:`LETTER`) stays inside its square.
WINDOW = 13
#: The most squares it shows down (a phone's screen is taller than wide).
WINDOW_DOWN = 16
#: Font size (pixels at full size) of the square letters: capitals 28 px tall, 11.7 px at 400.
LETTER = 38
#: Close-ups of the lettered squares outside the part shown: pixels per square, the most
#: lettered squares one holds across and down (shown with half of each neighbour around), the
#: gap between close-ups and the height of the arrow above each.
INSET_TILE = 72
INSET_CORE = (4, 3)
INSET_GAP = 12
INSET_HEAD = 40
#: The largest tile a small board is drawn with.
MAX_TILE = 160
#: Square letters and figures, relative to their size on the whole-board picture.
LABEL_SCALE = 1.75
FIGURE_SCALE = 1.3
#: Font sizes (pixels at full size) of the names and scores, and of every other word: the
#: smallest text any phone picture draws (its capitals 11.5 px tall once shown 400 px wide).
TEXT = 40
SMALL = 38
#: The tile card: the drawn tile, and each rotation that fits.
CARD_TILE = 176
ROTATION_TILE = 120

#: Figure columns of the players' table, in order, when anyone has that figure.
COLUMNS = (
    "follower",
    "large_follower",
    "mayor",
    "wagon",
    "barn",
    "builder",
    "pig",
    "abbey",
    "man",
    "hut",
)
#: The goods column (Traders & Builders) is this many figure columns wide: three token counts.
GOODS_SPAN = 2.4
#: Past this many columns (goods counting :data:`GOODS_SPAN`), each player takes two rows.
MAX_COLUMNS = 8


def word(options: RenderOptions, key: str, **values: object) -> str:
    return catalogs.text("phone", key, options.lang, **values)


@dataclass(frozen=True, slots=True)
class TileCard:
    """The tile to show above the board: its kind, and the rotations offered (rotation ->
    caption, e.g. {0: "0°", 90: "90°"}); no rotations: it fits nowhere."""

    kind: str
    rotations: Mapping[int, str]
    title: str = ""


@dataclass(slots=True)
class PhonePicture:
    image: Image.Image
    measures: Measures
    #: The part of the board shown, or None for all of it.
    window: Window | None
    #: Letters of the lettered squares drawn nowhere in the picture (none: every lettered square
    #: outside the part shown has its close-up).
    hidden: tuple[str, ...]
    #: The close-ups of the lettered squares outside the part shown.
    insets: tuple[Inset, ...] = ()


# -- the part of the board ---------------------------------------------------------------------


def extent(game: Game, extra: Sequence[Pos]) -> Window:
    """The whole board: placed tiles and one ring of empty squares, and the ``extra`` squares."""
    cells = list(game.board.tiles) or [(0, 0)]
    xs = [x + d for x, _ in cells for d in (-1, 1)] + [x for x, _ in extra]
    ys = [y + d for _, y in cells for d in (-1, 1)] + [y for _, y in extra]
    return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def choose_window(
    whole: Window,
    candidates: Sequence[Pos],
    focus: Pos | None,
    size: int = WINDOW,
    down: int | None = None,
) -> Window | None:
    """The part of the board to show (None: all of it fits): at most ``size`` squares across
    and ``down`` (``size`` if None) down, holding the last tile and as many lettered squares as
    can be, then the most tiles."""
    x0, y0, cols, rows = whole
    down = size if down is None else down
    if cols <= size and rows <= down:
        return None
    wc, wr = min(cols, size), min(rows, down)
    best: tuple[float, int, int] | None = None
    for ox in range(x0, x0 + cols - wc + 1):
        for oy in range(y0, y0 + rows - wr + 1):
            inside = sum(1 for x, y in candidates if ox <= x < ox + wc and oy <= y < oy + wr)
            score = float(inside)
            if focus is not None and ox <= focus[0] < ox + wc and oy <= focus[1] < oy + wr:
                score += 1000  # the last tile shows in the part, the far squares in close-ups
                # Keep the last tile away from the edges when possible.
                score -= 0.01 * (abs(focus[0] - (ox + wc / 2)) + abs(focus[1] - (oy + wr / 2)))
            if best is None or score > best[0]:
                best = (score, ox, oy)
    assert best is not None
    return (best[1], best[2], wc, wr)


@dataclass(frozen=True, slots=True)
class Inset:
    """A close-up of far lettered squares: the squares it shows (those ``squares`` and one ring
    of neighbours), and the lettered squares it letters."""

    window: Window
    squares: tuple[Pos, ...]


def insets_for(far: Sequence[Pos], core: tuple[int, int] = INSET_CORE) -> tuple[Inset, ...]:
    """Close-ups covering every square of ``far``: each time the block of at most ``core``
    squares (columns, rows) holding the most squares not covered yet, shown with one ring of
    neighbours; in reading order of their first square."""
    left = set(far)
    cw, ch = core
    found: list[Inset] = []
    while left:
        best: tuple[tuple[int, int, int, int], frozenset[Pos]] | None = None
        for cx, cy in sorted(left, key=lambda p: (p[1], p[0])):
            for oy in range(cy - ch + 1, cy + 1):
                for ox in range(cx - cw + 1, cx + 1):
                    held = frozenset(
                        p for p in left if ox <= p[0] < ox + cw and oy <= p[1] < oy + ch
                    )
                    xs, ys = [p[0] for p in held], [p[1] for p in held]
                    area = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
                    key = (len(held), -area, -min(ys), -min(xs))
                    if best is None or key > best[0]:
                        best = (key, held)
        assert best is not None
        held = best[1]
        xs, ys = [p[0] for p in held], [p[1] for p in held]
        window = (min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 3, max(ys) - min(ys) + 3)
        found.append(Inset(window, tuple(sorted(held, key=lambda p: (p[1], p[0])))))
        left -= held
    return tuple(sorted(found, key=lambda i: (i.squares[0][1], i.squares[0][0])))


def letter_scale(tile: int) -> float:
    """The label scale at which square letters are :data:`LETTER` px (or larger) on ``tile``."""
    return max(LABEL_SCALE, (LETTER + 0.5) / (1.3 * 0.2 * tile))


# -- the picture -------------------------------------------------------------------------------


def turn_picture(
    game: Game,
    options: RenderOptions | None = None,
    *,
    candidates: Mapping[Pos, str] | None = None,
    card: TileCard | None = None,
    whole: bool = False,
    features: Mapping[tuple[int, int, int | str], str] | None = None,
    canvas: Canvas | None = None,
) -> PhonePicture:
    """The phone picture of the board now (see the module's text). ``whole`` draws every square
    however large the board (``/carcassonne board``); ``features`` letters features of a
    family's own picture (The Castle's wall-tile targets).

    On a ``canvas`` (:mod:`renderer.layers`: the game's squares as its last picture left them)
    the squares are brought up to date rather than drawn: the same picture, drawn faster.
    """
    options = options or RenderOptions()
    own = families.pictures(game.setup.game).phone
    if own is not None:
        extra = {"features": features} if features else {}
        return own(game, options, candidates=candidates, card=card, **extra)  # type: ignore[no-any-return]
    candidates = candidates or {}
    measures = Measures([], [], [])
    area = extent(game, list(candidates))
    window = (
        None if whole else choose_window(area, list(candidates), game.last_pos, WINDOW, WINDOW_DOWN)
    )
    shown = window or area
    tile = max(24, min(MAX_TILE, (WIDTH - 8) // shown[2]))
    inside = window_test(shown)
    far = [pos for pos in candidates if not inside(pos)]
    insets = insets_for(far)
    board = board_part(game, options, shown, tile, candidates, measures, whole=whole, canvas=canvas)
    parts: list[tuple[Image.Image, list[tuple[str, Pos, Box]]]] = []
    if card is not None:
        parts.append((card_picture(game, card, options, measures), []))
    parts.append(board)
    if insets:
        # The close-ups move with the far squares: drawn whole, not kept.
        parts.append(insets_part(game, options, shown, insets, candidates, measures))
    lettered = {pos for part in parts for _, pos, _ in part[1]}
    hidden = tuple(label for pos, label in candidates.items() if pos not in lettered)
    table = players_table(game, options, measures, part=window is not None, insets=bool(insets))
    parts.append((table, []))
    image, marks = stack_marked(parts)
    measures.marks[:] = marks
    return PhonePicture(image, measures, window, hidden, insets)


def board_options(
    options: RenderOptions, shown: Window, tile: int, label_scale: float = LABEL_SCALE
) -> RenderOptions:
    """How a phone picture draws the squares of ``shown``: ``tile`` pixels each, no
    coordinates, letters and figures enlarged for a phone."""
    cols, rows = shown[2], shown[3]
    return dataclasses.replace(
        options,
        tile_size=tile,
        min_tile=tile,
        max_side=tile * (max(cols, rows) + 2),
        coordinates=False,
        label_scale=label_scale,
        figure_scale=FIGURE_SCALE,
    )


def board_part(
    game: Game,
    options: RenderOptions,
    shown: Window,
    tile: int,
    candidates: Mapping[Pos, str],
    measures: Measures,
    *,
    whole: bool = False,
    spots: Mapping[SpotAt, str] | None = None,
    canvas: Canvas | None = None,
) -> tuple[Image.Image, list[tuple[str, Pos, Box]]]:
    """The squares of ``shown``, ``tile`` pixels each, with the lettered squares among them
    (or the lettered ``spots``: square and figure spot, each letter at its spot, none over
    another); also each letter drawn, its square and its box. On a ``canvas``, its squares
    of that size are brought up to date rather than drawn."""
    opts = board_options(options, shown, tile, LABEL_SCALE if whole else letter_scale(tile))
    own = Measures([], [], [])
    inside = window_test(shown)
    board, frame = draw_board(
        game.board.tiles,
        game.figures(),
        opts,
        last=game.last_pos,
        candidates={p: v for p, v in candidates.items() if inside(p)},
        window=shown,
        measures=own,
        dead=game.dead_squares() if options.dead_squares else (),
        squares=None if canvas is None else canvas.squares(tile),
    )
    if spots:
        spot_letters(board, frame, game, {k: v for k, v in spots.items() if inside(k[:2])}, own)
    measures.letters.extend(own.letters)
    measures.figures.extend(own.figures)
    return board, own.marks


def spot_letters(
    image: Image.Image,
    frame: Frame,
    game: Game,
    spots: Mapping[SpotAt, str],
    measures: Measures,
) -> None:
    """Each letter of ``spots`` at its figure spot, letters of one square pushed apart and kept
    on their square."""
    draw = ImageDraw.Draw(image)
    r = (LETTER + 0.5) / 1.3
    gap = 2 * r * 1.45  # badges apart on the diagonal too
    by_square: dict[Pos, list[tuple[SpotAt, str]]] = {}
    for key, text in spots.items():
        if key[:2] in game.board.tiles:
            by_square.setdefault((key[0], key[1]), []).append((key, text))
    for pos, lettered in by_square.items():
        oriented = game.board.tiles[pos].oriented
        box = frame.box(pos)
        points = [frame.point(pos, spot_point(oriented, key[2])) for key, _ in lettered]
        placed = within(apart(points, gap), box, r + 2)
        for _ in range(8):
            placed = within(apart([(round(x), round(y)) for x, y in placed], gap), box, r + 2)
        for (cx, cy), (_, text) in zip(placed, lettered, strict=True):
            size = badge(draw, (cx, cy), text, r, pal.LABEL_FILL, size=LETTER, pad=r * 0.25)
            measures.letters.append(size)
            measures.marks.append((text, pos, badge_box(draw, (cx, cy), text, r, LETTER, r * 0.25)))


def insets_part(
    game: Game,
    options: RenderOptions,
    shown: Window,
    insets: Sequence[Inset],
    candidates: Mapping[Pos, str],
    measures: Measures,
    *,
    tile: int = INSET_TILE,
    spots: Mapping[SpotAt, str] | None = None,
) -> tuple[Image.Image, list[tuple[str, Pos, Box]]]:
    """The close-ups of the far lettered squares (or squares of lettered ``spots``) in rows
    under the board, each under an arrow pointing where it lies from the part shown."""
    drawn = []
    for inset in insets:
        held = {pos: candidates[pos] for pos in inset.squares if pos in candidates}
        held_spots = {k: v for k, v in (spots or {}).items() if k[:2] in inset.squares}
        image, marks = board_part(
            game, options, inset.window, tile, held, measures, spots=held_spots
        )
        # Half of each neighbour shows: the edges the lettered squares must match.
        cut = 4 + tile // 2
        image = image.crop((cut, cut, image.width - cut, image.height - cut))
        # Only its own squares are lettered: a neighbour lettered elsewhere stays plain.
        kept = [
            (text, pos, (a - cut, b - cut, c - cut, d - cut))
            for text, pos, (a, b, c, d) in marks
            if pos in inset.squares
        ]
        drawn.append((inset, image, kept))
    gap, head = INSET_GAP, INSET_HEAD
    rows: list[list[int]] = [[]]
    width = gap
    for i, (_, image, _) in enumerate(drawn):
        if rows[-1] and width + image.width + gap > WIDTH:
            rows.append([])
            width = gap
        rows[-1].append(i)
        width += image.width + gap
    heights = [head + max(drawn[i][1].height for i in row) + gap for row in rows]
    out = Image.new("RGB", (WIDTH, gap + sum(heights)), pal.BACKGROUND)
    draw = ImageDraw.Draw(out)
    marks_out: list[tuple[str, Pos, Box]] = []
    y = gap
    centre = (shown[0] + shown[2] / 2, shown[1] + shown[3] / 2)
    for row, height in zip(rows, heights, strict=True):
        used = sum(drawn[i][1].width for i in row) + gap * (len(row) - 1)
        x = (WIDTH - used) // 2
        for i in row:
            inset, image, marks = drawn[i]
            out.paste(image, (x, y + head))
            draw.rectangle(
                (x - 2, y + head - 2, x + image.width + 1, y + head + image.height + 1),
                outline=pal.INK,
                width=3,
            )
            wx, wy, wc, wr = inset.window
            towards = (wx + wc / 2 - centre[0], wy + wr / 2 - centre[1])
            arrow(draw, (x + image.width / 2, y + head / 2), towards, head * 0.4)
            for text, pos, (a, b, c, d) in marks:
                marks_out.append((text, pos, (a + x, b + y + head, c + x, d + y + head)))
            x += image.width + gap
        y += height
    return out, marks_out


def arrow(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    towards: tuple[float, float],
    half: float,
) -> None:
    """An arrow of length ``2 * half`` at ``centre`` pointing ``towards`` (a direction)."""
    length = math.hypot(*towards) or 1.0
    ux, uy = towards[0] / length, towards[1] / length
    cx, cy = centre
    tail = (cx - ux * half, cy - uy * half)
    tip = (cx + ux * half, cy + uy * half)
    draw.line((tail, tip), fill=pal.INK, width=max(3, round(half / 4)))
    side = half * 0.6
    left = (tip[0] - ux * side - uy * side * 0.7, tip[1] - uy * side + ux * side * 0.7)
    right = (tip[0] - ux * side + uy * side * 0.7, tip[1] - uy * side - ux * side * 0.7)
    draw.polygon([tip, left, right], fill=pal.INK)


def stack_marked(
    parts: Sequence[tuple[Image.Image, list[tuple[str, Pos, Box]]]],
) -> tuple[Image.Image, list[tuple[str, Pos, Box]]]:
    """:func:`stack` of the parts, with the letters' boxes moved to where each part lands."""
    image = stack([p for p, _ in parts])
    marks: list[tuple[str, Pos, Box]] = []
    y = 0
    for part, part_marks in parts:
        x = (WIDTH - part.width) // 2
        marks.extend((t, pos, (a + x, b + y, c + x, d + y)) for t, pos, (a, b, c, d) in part_marks)
        y += part.height
    return image, marks


def stack(parts: Sequence[Image.Image]) -> Image.Image:
    """The parts one under the other, centred on a :data:`WIDTH`-wide picture."""
    height = sum(p.height for p in parts)
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    y = 0
    for part in parts:
        image.paste(part, ((WIDTH - part.width) // 2, y))
        y += part.height
    return image


def card_picture(
    game: Game, card: TileCard, options: RenderOptions, measures: Measures
) -> Image.Image:
    """The drawn tile large at the left, its fitting rotations captioned at the right."""
    pad = 16
    small = pal.font(SMALL)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    title = card.title or word(options, "to_place")
    left = pad * 3 + CARD_TILE
    # The words over the rotations start past the title when it is wider than the tile.
    words_x = max(left, round(pad + measure.textlength(title, font=small) + 2 * pad))
    nowhere = wrapped(measure, word(options, "fits_nowhere"), small, WIDTH - left - pad)
    top = pad + SMALL + 10
    height = top + max(CARD_TILE, len(nowhere) * (SMALL + 8)) + pad + 4
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    kind = game.kinds[card.kind]
    draw.text((pad, pad), title, font=small, fill=pal.INK, anchor="lt")
    image.paste(tile_image(kind.oriented(0), CARD_TILE), (pad, top))
    draw.rectangle(
        (pad - 2, top - 2, pad + CARD_TILE + 1, top + CARD_TILE + 1), outline=pal.INK, width=3
    )
    if not card.rotations:
        y = top + CARD_TILE // 2 - (len(nowhere) - 1) * (SMALL + 8) // 2
        for n, line in enumerate(nowhere):
            at = (left, y + n * (SMALL + 8))
            draw.text(at, line, font=small, fill=pal.INK, anchor="lm")
    else:
        draw.text((words_x, pad), word(options, "fits"), font=small, fill=pal.INK, anchor="lt")
        caption = pal.font(TEXT)
        step = ROTATION_TILE + 24
        for i, (rotation, text) in enumerate(card.rotations.items()):
            x = left + i * step
            image.paste(tile_image(kind.oriented(rotation), ROTATION_TILE), (x, top))
            draw.rectangle(
                (x - 1, top - 1, x + ROTATION_TILE, top + ROTATION_TILE), outline=pal.MUTED
            )
            cx = x + ROTATION_TILE / 2
            cy = top + ROTATION_TILE + (CARD_TILE - ROTATION_TILE) / 2 + 4
            draw.text((cx, cy), text, font=caption, fill=pal.INK, anchor="mm")
            measures.letters.append(glyph_height(text, caption))
    draw.line((0, height - 2, WIDTH, height - 2), fill=pal.EMPTY_LINE, width=2)
    return image


def wrapped(draw: ImageDraw.ImageDraw, text: str, font: Any, width: float) -> list[str]:
    """``text`` on as many lines as it needs to fit ``width`` pixels, broken at spaces."""
    lines: list[str] = []
    for word_ in text.split(" "):
        if lines and draw.textlength(f"{lines[-1]} {word_}", font=font) <= width:
            lines[-1] = f"{lines[-1]} {word_}"
        else:
            lines.append(word_)
    return lines or [""]


def figure_counts(game: Game, player: int) -> dict[str, int]:
    return {k: v for k, v in game.pieces(player).items() if k in COLUMNS}


def players_table(
    game: Game,
    options: RenderOptions,
    measures: Measures,
    *,
    part: bool = False,
    insets: bool = False,
) -> Image.Image:
    """One row per player (mark, name, score, a count per figure) under labelled columns; the
    player to move highlighted; then the turn and the tiles left."""
    counts = [figure_counts(game, p) for p in range(game.players)]
    columns = [c for c in COLUMNS if any(c in row for row in counts)]
    tokens = [goods(game, p) for p in range(game.players)]
    has_goods = any(tokens)
    current = None if game.finished else game.decision.player
    row_h = TEXT + 22
    pad = 14
    # Narrower columns when the expansions bring many figures (and goods), so names keep room.
    units = len(columns) + (GOODS_SPAN if has_goods else 0)
    if units > MAX_COLUMNS:
        return _with_footer(
            game,
            options,
            two_row_table(
                Seats(game.setup.players, game.scores, current),
                options,
                measures,
                columns,
                counts,
                tokens if has_goods else None,
                width=WIDTH,
                pad=pad,
            ),
            part=part,
            insets=insets,
        )
    col_w = min(112, int((WIDTH - 2 * pad - 360) / max(1, units)))
    goods_w = round(col_w * GOODS_SPAN) if has_goods else 0
    # The columns are told by their figures alone, drawn as the board draws them: no words
    # that would have to shrink to fit a column ("Bürgermeister").
    head_h = pad + 76
    height = (
        head_h + row_h * game.players + footer_height(game, options, part=part, insets=insets) + pad
    )
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    big = pal.font(TEXT)
    first = WIDTH - pad - col_w * len(columns) - goods_w
    score_x = first - 24  # right edge of the scores
    goods_x = WIDTH - pad - goods_w
    icon_y = pad + 34
    for i, kind in enumerate(columns):
        cx = first + i * col_w + col_w // 2
        if kind == "abbey":
            abbey_icon(draw, (cx, icon_y + 4), 22)
            marks.used("abbey")
        else:
            icon = figure_icon(5, kind, 128)
            marks.used(f"figure:{kind}")
            image.paste(icon, (cx - icon.width // 2, icon_y - icon.height // 2), icon)
    if has_goods:
        for k, kind in enumerate(emblems.GOODS):
            icon = emblems.goods_icon(kind, 44)
            marks.used(f"goods:{kind}")
            at = (round(goods_x + goods_w / 2 + (k - 1) * goods_w / 3) - 22, icon_y - 22)
            image.paste(icon, at, icon)
    draw.text(
        (score_x, icon_y), word(options, "score"), font=pal.font(SMALL), fill=pal.INK, anchor="rm"
    )
    for player in range(game.players):
        y0 = head_h + player * row_h
        cy = y0 + row_h // 2
        if player == current:
            draw.rounded_rectangle((4, y0 + 2, WIDTH - 4, y0 + row_h - 2), 14, fill=(255, 236, 170))
            marks.used("to_move")
        icon = figure_icon(player, "follower", 120)
        marks.used(f"seat:{player}")
        image.paste(icon, (pad, cy - icon.height // 2), icon)
        x = pad + icon.width + 10
        shown = shortened(draw, game.setup.players[player], big, score_x - 130 - x)
        draw.text((x, cy), shown, font=big, fill=pal.INK, anchor="lm")
        score = str(game.scores[player])
        draw.text((score_x, cy), score, font=big, fill=pal.INK, anchor="rm")
        measures.digits.append(glyph_height(score, big))
        for i, kind in enumerate(columns):
            if kind not in counts[player]:
                continue
            cx = first + i * col_w + col_w // 2
            value = str(counts[player][kind])
            draw.text((cx, cy), value, font=big, fill=pal.INK, anchor="mm")
        if has_goods:
            for k, kind in enumerate(emblems.GOODS):
                kx = round(goods_x + goods_w / 2 + (k - 1) * goods_w / 3)
                value = str(tokens[player].get(kind, 0))
                draw.text((kx, cy), value, font=big, fill=pal.INK, anchor="mm")
    _footer(game, options, draw, head_h + row_h * game.players + pad, part=part, insets=insets)
    return image


def _footer_lines(
    game: Game, options: RenderOptions, *, part: bool, insets: bool = False
) -> list[str]:
    """The footer's lines: the turn and the tiles left (and the bonus tiles), then, for a part
    of the board, that it is a part (and where the far lettered squares are), each wrapped to
    the picture's width."""
    if game.finished:
        footer = catalogs.plural(
            "phone", "footer_over", game.tiles_left, options.lang, left=game.tiles_left
        )
    else:
        left = game.tiles_left
        footer = catalogs.plural(
            "phone", "footer", left, options.lang, turn=game.turn + 1, left=left
        )
    bonus = getattr(game, "bonus_stack", None)
    if bonus is not None and not game.finished:
        footer += "  ·  " + options.text("bonus_left", n=len(bonus))
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    small = pal.font(SMALL)
    lines = wrapped(measure, footer, small, WIDTH - 28)
    if part:
        note = word(options, "part_insets" if insets else "part")
        lines += wrapped(measure, note, small, WIDTH - 28)
    return lines


def footer_height(game: Game, options: RenderOptions, *, part: bool, insets: bool = False) -> int:
    lines = _footer_lines(game, options, part=part, insets=insets)
    return len(lines) * (SMALL + 10) + 14


def _footer(
    game: Game,
    options: RenderOptions,
    draw: ImageDraw.ImageDraw,
    y: int,
    *,
    part: bool,
    insets: bool = False,
) -> None:
    """The turn and the tiles left (and, for a part of the board, that it is a part, and where
    the far lettered squares are)."""
    pad, small = 14, pal.font(SMALL)
    for n, line in enumerate(_footer_lines(game, options, part=part, insets=insets)):
        draw.text((pad, y + n * (SMALL + 10)), line, font=small, fill=pal.MUTED, anchor="lt")


def _with_footer(
    game: Game,
    options: RenderOptions,
    table: tuple[Image.Image, int],
    *,
    part: bool,
    insets: bool = False,
) -> Image.Image:
    """The two-row table with the footer under its players."""
    top, y = table
    height = y + footer_height(game, options, part=part, insets=insets)
    image = Image.new("RGB", (top.width, height), pal.BACKGROUND)
    image.paste(top.crop((0, 0, top.width, min(top.height, y))), (0, 0))
    _footer(game, options, ImageDraw.Draw(image), y, part=part, insets=insets)
    return image
