"""The turn picture, made for a phone: the drawn tile, the board near the action, the scores.

Discord shows a picture about 400 pixels wide in a phone's chat, and opens it full size on a
tap. Every turn picture is therefore :data:`WIDTH` pixels wide whatever the board's size, and
everything a player must read is sized for that width shrunk to 400: square letters, score
digits (at least 11 px tall there) and figures (at least 10 px). A board wider or taller than
:data:`WINDOW` squares shows the part around the action (the last tile and most of the lettered
squares); the whole board is one command away (``/carcassonne board``).

From top to bottom: the drawn tile, large, with each rotation that fits somewhere captioned as
the menus name it ("90°"); the board; one row per player with the score and every figure count
labelled (followers, mayor, wagon, barn, abbey; men and huts), and the turn and tiles left. With
more than :data:`MAX_COLUMNS` columns (the Big Box with Abbey & Mayor), each player takes two rows
(:mod:`renderer.phone_rows`): name and score, then a cell per figure and goods token.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

import catalogs
from engine.carcassonne.traders_builders import goods
from renderer import emblems, families, marks
from renderer import palette as pal
from renderer.board import Measures, Pos, Window, draw_board, glyph_height
from renderer.figures import figure_icon
from renderer.options import RenderOptions
from renderer.phone_rows import Seats, abbey_icon, shortened, two_row_table
from renderer.tileart import tile_image

if TYPE_CHECKING:
    from engine import Game

#: Width of every phone picture, in pixels (Discord shows it about 400 px wide on a phone).
WIDTH = 960
#: The most squares a board picture shows across and down before it shows a part only.
WINDOW = 11
#: The largest tile a small board is drawn with.
MAX_TILE = 160
#: Square letters and figures, relative to their size on the whole-board picture.
LABEL_SCALE = 1.75
FIGURE_SCALE = 1.3
#: Font sizes (pixels at full size) of the names and scores, and of the column titles.
TEXT = 40
SMALL = 26
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
    #: Lettered squares outside the part shown.
    hidden: tuple[str, ...]


# -- the part of the board ---------------------------------------------------------------------


def extent(game: Game, extra: Sequence[Pos]) -> Window:
    """The whole board: placed tiles and one ring of empty squares, and the ``extra`` squares."""
    cells = list(game.board.tiles) or [(0, 0)]
    xs = [x + d for x, _ in cells for d in (-1, 1)] + [x for x, _ in extra]
    ys = [y + d for _, y in cells for d in (-1, 1)] + [y for _, y in extra]
    return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def choose_window(
    whole: Window, candidates: Sequence[Pos], focus: Pos | None, size: int = WINDOW
) -> Window | None:
    """The part of the board to show (None: all of it fits): at most ``size`` squares each way,
    holding the last tile and as many lettered squares as can be, then the most tiles."""
    x0, y0, cols, rows = whole
    if cols <= size and rows <= size:
        return None
    wc, wr = min(cols, size), min(rows, size)
    best: tuple[float, int, int] | None = None
    for ox in range(x0, x0 + cols - wc + 1):
        for oy in range(y0, y0 + rows - wr + 1):
            inside = sum(1 for x, y in candidates if ox <= x < ox + wc and oy <= y < oy + wr)
            score = float(inside)
            if focus is not None and ox <= focus[0] < ox + wc and oy <= focus[1] < oy + wr:
                score += 3
                # Keep the last tile away from the edges when possible.
                score -= 0.01 * (abs(focus[0] - (ox + wc / 2)) + abs(focus[1] - (oy + wr / 2)))
            if best is None or score > best[0]:
                best = (score, ox, oy)
    assert best is not None
    return (best[1], best[2], wc, wr)


# -- the picture -------------------------------------------------------------------------------


def turn_picture(
    game: Game,
    options: RenderOptions | None = None,
    *,
    candidates: Mapping[Pos, str] | None = None,
    card: TileCard | None = None,
    whole: bool = False,
    features: Mapping[tuple[int, int, int | str], str] | None = None,
) -> PhonePicture:
    """The phone picture of the board now (see the module's text). ``whole`` draws every square
    however large the board (``/carcassonne board``); ``features`` letters features of a
    family's own picture (The Castle's wall-tile targets)."""
    options = options or RenderOptions()
    own = families.pictures(game.setup.game).phone
    if own is not None:
        extra = {"features": features} if features else {}
        return own(game, options, candidates=candidates, card=card, **extra)  # type: ignore[no-any-return]
    candidates = candidates or {}
    measures = Measures([], [], [])
    area = extent(game, list(candidates))
    window = None if whole else choose_window(area, list(candidates), game.last_pos)
    shown = window or area
    cols, rows = shown[2], shown[3]
    tile = max(24, min(MAX_TILE, (WIDTH - 8) // cols))
    opts = dataclasses.replace(
        options,
        tile_size=tile,
        min_tile=tile,
        max_side=tile * (max(cols, rows) + 2),
        coordinates=False,
        label_scale=LABEL_SCALE,
        figure_scale=FIGURE_SCALE,
    )
    board, _ = draw_board(
        game.board.tiles,
        game.figures(),
        opts,
        last=game.last_pos,
        candidates=candidates,
        window=shown,
        measures=measures,
        dead=game.dead_squares() if options.dead_squares else (),
    )
    parts: list[Image.Image] = []
    if card is not None:
        parts.append(card_picture(game, card, options, measures))
    parts.append(board)
    hidden: tuple[str, ...] = ()
    if window is not None:
        wx, wy, wc, wr = window
        hidden = tuple(
            label
            for (x, y), label in candidates.items()
            if not (wx <= x < wx + wc and wy <= y < wy + wr)
        )
    parts.append(players_table(game, options, measures, part=window is not None))
    return PhonePicture(stack(parts), measures, window, hidden)


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
    height = CARD_TILE + 2 * pad + SMALL + 8
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    kind = game.kinds[card.kind]
    small = pal.font(SMALL)
    title = card.title or word(options, "to_place")
    draw.text((pad, pad), title, font=small, fill=pal.INK, anchor="lt")
    top = pad + SMALL + 8
    image.paste(tile_image(kind.oriented(0), CARD_TILE), (pad, top))
    draw.rectangle(
        (pad - 2, top - 2, pad + CARD_TILE + 1, top + CARD_TILE + 1), outline=pal.INK, width=3
    )
    left = pad * 3 + CARD_TILE
    if not card.rotations:
        draw.text(
            (left, top + CARD_TILE // 2),
            word(options, "fits_nowhere"),
            font=small,
            fill=pal.INK,
            anchor="lm",
        )
    else:
        draw.text((left, pad), word(options, "fits"), font=small, fill=pal.INK, anchor="lt")
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


def figure_counts(game: Game, player: int) -> dict[str, int]:
    return {k: v for k, v in game.pieces(player).items() if k in COLUMNS}


def column_titles(words: Sequence[str], width: int) -> tuple[list[list[str]], int]:
    """Each title on one line, or two split at a space, at the largest size (20 px down to 14)
    at which every line fits ``width``."""
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for size in range(20, 13, -1):
        font = pal.font(size)

        def fits(line: str, font: Any = font) -> bool:
            return measure.textlength(line, font=font) <= width

        titles = []
        for text in words:
            if fits(text):
                titles.append([text])
            elif " " in text and all(fits(part) for part in text.split(" ", 1)):
                titles.append(text.split(" ", 1))
            else:
                break
        else:
            return titles, size
    return [[text] for text in words], 14


def players_table(
    game: Game, options: RenderOptions, measures: Measures, *, part: bool = False
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
        )
    col_w = min(112, int((WIDTH - 2 * pad - 360) / max(1, units)))
    goods_w = round(col_w * GOODS_SPAN) if has_goods else 0
    # Column titles: one size for all, the largest at which each fits its column on at most two
    # lines ("Grande / abbaye"); a long single word ("Bürgermeister") makes it smaller.
    titles, size = column_titles([word(options, kind) for kind in columns], col_w - 6)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    if any(measure.textlength(line, font=pal.font(size)) > col_w - 2 for t in titles for line in t):
        # Too many columns for words (all the expansions at once): the icons say it alone.
        titles = [[] for _ in columns]
    two_lines = any(len(lines) > 1 for lines in titles)
    head_h = SMALL + 56 + (size + 2 if two_lines else 0)
    height = head_h + row_h * game.players + SMALL * 2 + 3 * pad + (SMALL + 8 if part else 0)
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    big = pal.font(TEXT)
    first = WIDTH - pad - col_w * len(columns) - goods_w
    score_x = first - 24  # right edge of the scores
    goods_x = WIDTH - pad - goods_w
    for i, kind in enumerate(columns):
        cx = first + i * col_w + col_w // 2
        if kind == "abbey":
            abbey_icon(draw, (cx, pad + 20), 18)
            marks.used("abbey")
        else:
            icon = figure_icon(5, kind, 96)
            marks.used(f"figure:{kind}")
            image.paste(icon, (cx - icon.width // 2, pad + 20 - icon.height // 2), icon)
        for n, line in enumerate(titles[i]):
            at = (cx, pad + 44 + n * (size + 2))
            draw.text(at, line, font=pal.font(size), fill=pal.INK, anchor="mt")
    if has_goods:
        gx = goods_x + goods_w // 2
        for k, kind in enumerate(emblems.GOODS):
            icon = emblems.goods_icon(kind, 30)
            marks.used(f"goods:{kind}")
            at = (round(gx + (k - 1) * goods_w / 3) - 15, pad + 5)
            image.paste(icon, at, icon)
        draw.text(
            (gx, pad + 44), word(options, "goods"), font=pal.font(size), fill=pal.INK, anchor="mt"
        )
    draw.text(
        (score_x, pad + 44), word(options, "score"), font=pal.font(20), fill=pal.INK, anchor="rt"
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
    _footer(game, options, draw, head_h + row_h * game.players + pad, part=part)
    return image


def _footer(
    game: Game, options: RenderOptions, draw: ImageDraw.ImageDraw, y: int, *, part: bool
) -> None:
    """The turn and the tiles left (and, for a part of the board, that it is a part)."""
    pad, small = 14, pal.font(SMALL)
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
    draw.text((pad, y), footer, font=small, fill=pal.MUTED, anchor="lt")
    if part:
        draw.text(
            (pad, y + SMALL + 8), word(options, "part"), font=small, fill=pal.MUTED, anchor="lt"
        )


def _with_footer(
    game: Game, options: RenderOptions, table: tuple[Image.Image, int], *, part: bool
) -> Image.Image:
    """The two-row table with the footer under its players."""
    top, y = table
    height = y + SMALL * 2 + 14 + (SMALL + 8 if part else 0)
    image = Image.new("RGB", (top.width, height), pal.BACKGROUND)
    image.paste(top.crop((0, 0, top.width, min(top.height, y))), (0, 0))
    _footer(game, options, ImageDraw.Draw(image), y, part=part)
    return image
