"""The players strip under the board: colour and mark, name, score, figures left, tiles left.

A game with the Big Box's figures (large follower, builder, pig) or its goods tokens gives each
player many counts: its strip is the turn picture's table on two rows (:mod:`renderer.phone_rows`:
name and score, then a cell per figure, abbey and goods token, each icon beside its count), sized
to the picture's width so that it reads like the turn picture's when shrunk to a phone's width.
Other games keep one row per player, sized to the board's tiles.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer import palette as pal
from renderer.board import Measures
from renderer.figures import figure_icon
from renderer.options import RenderOptions
from renderer.phone import COLUMNS, WIDTH
from renderer.phone_rows import Seats, two_row_table

FIGURE_ORDER = ("follower", "mayor", "wagon", "barn", "man", "hut")
#: Figures that only the Big Box brings: with any of them (or goods), the strip is on two rows.
BIG_BOX_FIGURES = ("large_follower", "builder", "pig")
#: The narrowest strip on two rows (a small board is centred above it).
ROWS_MIN_WIDTH = 720
#: A cell of the strip on two rows is at most this wide (at the turn picture's scale), so a
#: game with few kinds keeps its cells together at the left.
MAX_CELL = 120


@dataclass(frozen=True, slots=True)
class PanelData:
    """What the strip shows; built from a game by :func:`renderer.render.panel_data`."""

    names: Sequence[str]
    scores: Sequence[int]
    #: What each player still has to place: figures, and the abbey (Abbey & Mayor).
    supply: Sequence[Mapping[str, int]]
    tiles_left: int
    current: int | None = None
    turn: int | None = None
    #: Hunters & Gatherers: bonus tiles left in their own stack.
    bonus_left: int | None = None
    #: Traders & Builders: each player's goods tokens (wine, grain, cloth -> count).
    goods: Sequence[Mapping[str, int]] | None = None


def on_two_rows(data: PanelData) -> bool:
    """Whether the strip is the two-row table: the game has the Big Box's figures or goods."""
    return data.goods is not None or any(k in s for s in data.supply for k in BIG_BOX_FIGURES)


def row_height(tile: int) -> int:
    return max(30, round(tile * 0.42))


def draw_panel(
    data: PanelData,
    width: int,
    tile: int,
    options: RenderOptions,
    measures: Measures | None = None,
) -> Image.Image:
    """One row per player (two with the Big Box), then a line with the tiles left (and the
    turn). ``measures`` (for the tests) receives what the two-row strip draws."""
    if on_two_rows(data):
        return draw_rows(data, width, options, measures or Measures([], [], []))
    h = row_height(tile)
    rows = len(data.names) + 1
    image = Image.new("RGB", (width, rows * h + h // 3), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = pal.font(round(h * 0.5))
    small = pal.font(round(h * 0.42))
    icon_tile = round(h / 0.36 * 0.8)
    draw.line((0, 1, width, 1), fill=pal.EMPTY_LINE, width=2)
    for player, name in enumerate(data.names):
        y0 = h // 3 + player * h
        cy = y0 + h // 2
        if player == data.current:
            draw.rounded_rectangle((4, y0 + 2, width - 4, y0 + h - 2), h // 4, fill=(255, 240, 190))
        icon = figure_icon(player, "follower", icon_tile)
        image.paste(icon, (8, cy - icon.height // 2), icon)
        x = 12 + icon.width
        shown = name if len(name) <= 18 else name[:17] + "…"
        draw.text((x, cy), shown, font=font, fill=pal.INK, anchor="lm")
        score = options.count("points", data.scores[player])
        score_x = max(x + draw.textlength(shown, font=font) + h * 0.6, width * 0.42)
        draw.text((score_x, cy), score, font=font, fill=pal.INK, anchor="lm")
        fx = score_x + draw.textlength("000 pts", font=font) + h * 0.4
        supply = data.supply[player] if player < len(data.supply) else {}
        for kind in FIGURE_ORDER:
            if kind not in supply:
                continue
            small_icon = figure_icon(player, kind, round(icon_tile * 0.8))
            image.paste(small_icon, (round(fx), cy - small_icon.height // 2), small_icon)
            fx += small_icon.width + 2
            label = f"x{supply[kind]}"
            draw.text((fx, cy), label, font=small, fill=pal.INK, anchor="lm")
            fx += draw.textlength(label, font=small) + h * 0.35
    y = h // 3 + len(data.names) * h + h // 2
    draw.text((12, y), footer(data, options), font=small, fill=pal.MUTED, anchor="lm")
    return image


def footer(data: PanelData, options: RenderOptions) -> str:
    """The strip's last line: the turn (while playing), the tiles left, the bonus tiles left."""
    text = options.text("tiles_left", n=data.tiles_left)
    if data.bonus_left is not None:
        text = f"{text}  ·  {options.text('bonus_left', n=data.bonus_left)}"
    if data.turn is not None:
        text = f"{options.text('turn', n=data.turn)}  ·  {text}"
    return text


def draw_rows(
    data: PanelData, width: int, options: RenderOptions, measures: Measures
) -> Image.Image:
    """The strip on two rows per player: the turn picture's table at ``width`` pixels wide."""
    # Sizes in steps of 1/20 (never larger than the width allows): a strip's figures and tokens
    # come from caches kept per size, which a size per picture width would fill without end.
    scale = math.floor(width / WIDTH * 20) / 20

    def px(n: float) -> int:
        return round(n * scale)

    pad = px(14)
    columns = [c for c in COLUMNS if any(c in s for s in data.supply)]
    seats = Seats(data.names, data.scores, data.current)
    table, y = two_row_table(
        seats,
        options,
        measures,
        columns,
        data.supply,
        data.goods,
        width=width,
        pad=pad,
        scale=scale,
        max_cell=px(MAX_CELL),
    )
    small = pal.font(px(26))
    image = Image.new("RGB", (width, y + px(26) + 2 * pad), pal.BACKGROUND)
    image.paste(table.crop((0, 0, width, min(table.height, y))), (0, 0))
    draw = ImageDraw.Draw(image)
    draw.line((0, 1, width, 1), fill=pal.EMPTY_LINE, width=2)
    draw.text((pad, y), footer(data, options), font=small, fill=pal.MUTED, anchor="lt")
    return image


def panel_width(data: PanelData, tile: int) -> int:
    """The width the strip needs to show everything without clipping."""
    if on_two_rows(data):
        return ROWS_MIN_WIDTH
    h = row_height(tile)
    longest = max((min(len(n), 18) for n in data.names), default=4)
    figures = max((len([k for k in FIGURE_ORDER if k in s]) for s in data.supply), default=1)
    return round(h * (1.6 + longest * 0.3 + 3.2 + figures * 2.0))
