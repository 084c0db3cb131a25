"""The players strip under the board: colour and mark, name, score, figures left, tiles left."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer import palette as pal
from renderer.figures import figure_icon
from renderer.options import RenderOptions

FIGURE_ORDER = ("follower", "mayor", "wagon", "barn", "man", "hut")


@dataclass(frozen=True, slots=True)
class PanelData:
    """What the strip shows; built from a game by :func:`renderer.render.panel_data`."""

    names: Sequence[str]
    scores: Sequence[int]
    supply: Sequence[Mapping[str, int]]
    tiles_left: int
    current: int | None = None
    turn: int | None = None
    #: Hunters & Gatherers: bonus tiles left in their own stack.
    bonus_left: int | None = None


def row_height(tile: int) -> int:
    return max(30, round(tile * 0.42))


def draw_panel(data: PanelData, width: int, tile: int, options: RenderOptions) -> Image.Image:
    """One row per player, then a line with the tiles left (and the turn)."""
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
    footer = options.text("tiles_left", n=data.tiles_left)
    if data.bonus_left is not None:
        footer = f"{footer}  ·  {options.text('bonus_left', n=data.bonus_left)}"
    if data.turn is not None:
        footer = f"{options.text('turn', n=data.turn)}  ·  {footer}"
    draw.text((12, y), footer, font=small, fill=pal.MUTED, anchor="lm")
    return image


def panel_width(data: PanelData, tile: int) -> int:
    """The width the strip needs to show everything without clipping."""
    h = row_height(tile)
    longest = max((min(len(n), 18) for n in data.names), default=4)
    figures = max((len([k for k in FIGURE_ORDER if k in s]) for s in data.supply), default=1)
    return round(h * (1.6 + longest * 0.3 + 3.2 + figures * 2.0))
