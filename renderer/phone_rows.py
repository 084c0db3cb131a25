"""The players' table of the phone picture on two rows per player, for games with many figures.

With every Big Box expansion and Abbey & Mayor together a player has up to eight kinds of figure
and three kinds of goods: eleven columns of bare digits under tiny headings, unreadable at 400
pixels wide. Here each player gets a line with the mark, the whole name and the score, and a
line of cells under it, each cell the figure (in the player's colour) or goods token beside its
count, so that no heading is needed and every cell is large enough to read on a phone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

import catalogs
from renderer import emblems, legible, marks
from renderer import palette as pal
from renderer.board import Measures, glyph_height
from renderer.figures import figure_icon
from renderer.options import RenderOptions

#: Heights (pixels at full size) of a player's name line and cells line.
NAME_ROW = 54
CELL_ROW = 56
#: Tile size handed to :func:`figure_icon` for a cell's figure (a follower about 34 px tall).
CELL_FIGURE = 100
GOODS_SIZE = 34
#: Where the name starts, past the player's mark (the cells use the whole width).
INDENT = 56


def abbey_icon(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int) -> None:
    """A small abbey: a grey square with a red roof and a cross (the abbey tile's look)."""
    x, y = centre
    draw.rectangle((x - r, y - r * 0.4, x + r, y + r), fill=pal.STONE, outline=pal.INK, width=2)
    draw.polygon(
        [(x - r - 3, y - r * 0.4), (x, y - r * 1.3), (x + r + 3, y - r * 0.4)],
        fill=pal.ROOF,
        outline=pal.INK,
    )
    draw.line((x, y - r * 0.1, x, y + r * 0.7), fill=pal.INK, width=3)
    draw.line((x - r * 0.35, y + r * 0.15, x + r * 0.35, y + r * 0.15), fill=pal.INK, width=3)
    legible.note(
        draw._image, "token", "abbey", (x - r - 3, y - r * 1.3, x + r + 3, y + r), pal.ROOF
    )


def shortened(draw: ImageDraw.ImageDraw, name: str, font: Any, room: float) -> str:
    """``name`` as it fits ``room`` pixels in ``font``, cut with "…" when too long."""
    shown = name
    while shown and draw.textlength(shown, font=font) > room:
        shown = shown[:-1]
    return shown if shown == name else shown[:-1] + "…"


@dataclass(frozen=True, slots=True)
class Seats:
    """Who sits at the table: names, scores, and the seat to move (None once the game is over)."""

    names: Sequence[str]
    scores: Sequence[int]
    current: int | None


def two_row_table(
    seats: Seats,
    options: RenderOptions,
    measures: Measures,
    columns: Sequence[str],
    counts: Sequence[Mapping[str, int]],
    tokens: Sequence[Mapping[str, int]] | None,
    *,
    width: int,
    pad: int,
    scale: float = 1.0,
    max_cell: int | None = None,
) -> tuple[Image.Image, int]:
    """The table's header and players (the caller adds the footer below ``y``): the image, and
    the ``y`` where the players end. ``scale`` sizes everything (1: the phone picture's 960
    pixels); ``max_cell`` caps a cell's width when few kinds share the row."""

    def px(n: float) -> int:
        return round(n * scale)

    big = pal.font(px(40))
    kinds = [*columns, *(emblems.GOODS if tokens is not None else ())]
    cell_w = (width - 2 * pad) // max(1, len(kinds))
    if max_cell is not None:
        cell_w = min(cell_w, max_cell)
    head_h = px(38) + 2 * pad
    name_row, block = px(NAME_ROW), px(NAME_ROW) + px(CELL_ROW)
    players = len(seats.names)
    height = head_h + block * players + 2 * pad
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    score_x = width - pad - px(10)
    title = catalogs.text("phone", "score", options.lang)
    draw.text((score_x, pad), title, font=pal.font(px(38)), fill=pal.INK, anchor="rt")
    for player in range(players):
        y0 = head_h + player * block
        if player == seats.current:
            box = (px(4), y0 + px(2), width - px(4), y0 + block - px(2))
            draw.rounded_rectangle(box, px(14), fill=(255, 236, 170))
            marks.used("to_move")
        elif player:
            draw.line((pad, y0, width - pad, y0), fill=pal.EMPTY_LINE, width=px(2))
        cy = y0 + name_row // 2 + px(2)
        mark = figure_icon(player, "follower", px(120))
        marks.used(f"seat:{player}")
        image.paste(mark, (pad, cy - mark.height // 2), mark)
        score = str(seats.scores[player])
        draw.text((score_x, cy), score, font=big, fill=pal.INK, anchor="rm")
        measures.digits.append(glyph_height(score, big))
        x = pad + px(INDENT)
        room = score_x - draw.textlength(score, font=big) - px(24) - x
        shown = shortened(draw, seats.names[player], big, room)
        draw.text((x, cy), shown, font=big, fill=pal.INK, anchor="lm")
        row_y = y0 + name_row + px(CELL_ROW) // 2 - px(2)
        for i, kind in enumerate(kinds):
            left = pad + i * cell_w
            if kind in emblems.GOODS:
                value = (tokens or [{}] * players)[player].get(kind, 0)
            elif kind in counts[player]:
                value = counts[player][kind]
            else:
                continue
            _cell(image, draw, (left, row_y), cell_w, (player, kind, value), measures, px)
    return image, head_h + block * players + pad


def _cell(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    cell_w: int,
    count: tuple[int, str, int],
    measures: Measures,
    px: Callable[[float], int],
) -> None:
    """One count (player, kind, value): a rounded box holding the figure or token at the left,
    the number at the right (an empty supply is greyed, so a glance finds what a player still
    has); ``px`` scales the phone picture's sizes."""
    player, kind, value = count
    left, cy = at
    half = px(CELL_ROW) // 2 - px(4)
    draw.rounded_rectangle(
        (left + px(3), cy - half, left + cell_w - px(3), cy + half), px(10), fill=(236, 230, 216)
    )
    # The icon hugs the box's left side and the number its right side, so neither covers
    # the other even for the widest figures (the pig, the wagon).
    if kind == "abbey":
        abbey_icon(draw, (left + px(24), cy + px(2)), px(14))
        marks.used("abbey")
        icon_box = (left + px(7), cy - px(15), left + px(41), cy + px(16))
    else:
        if kind in emblems.GOODS:
            icon = emblems.goods_icon(kind, px(GOODS_SIZE))
            marks.used(f"goods:{kind}")
        else:
            icon = figure_icon(player, kind, px(CELL_FIGURE))
            marks.used(f"figure:{kind}", f"seat:{player}")
        il, it, ir, ib = icon.getbbox() or (0, 0, icon.width, icon.height)
        x, y = left + px(8) - il, cy - (it + ib) // 2
        image.paste(icon, (x, y), icon)
        icon_box = (x + il, y + it, x + ir, y + ib)
    measures.figures.append(icon_box[3] - icon_box[1])
    text = str(value)
    colour = pal.INK if value else pal.MUTED
    big = pal.font(px(40))
    at = (left + cell_w - px(9), cy + px(1))
    draw.text(at, text, font=big, fill=colour, anchor="rm")
    measures.digits.append(glyph_height(text, big))
    nl, nt, nr, nb = draw.textbbox(at, text, font=big, anchor="rm")
    measures.cells.append((icon_box, (round(nl), round(nt), round(nr), round(nb))))
