"""The end-of-game image: the final board and a per-player score breakdown chart by category.

Drawn for a phone like the turn picture (:mod:`renderer.phone`): :data:`~renderer.phone.WIDTH`
pixels wide, the board at the turn picture's scale, the part around the last tile when the
board is larger than :data:`~renderer.phone.WINDOW` squares (a line under it says that
``/carcassonne board`` shows it all), every word at least :data:`~renderer.phone.SMALL` pixels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

import catalogs
from engine.core.timeline import score_series
from renderer import families, legible
from renderer import palette as pal
from renderer.board import draw_board
from renderer.encode import encode_png
from renderer.figures import mark
from renderer.options import RenderOptions
from renderer.phone import (
    MAX_TILE,
    SMALL,
    WIDTH,
    board_options,
    choose_window,
    extent,
    wrapped,
)
from renderer.scorechart import score_chart_picture

if TYPE_CHECKING:
    from engine import Game

CATEGORY_ORDER = ("city", "road", "cloister", "field", "barn")


def categories(game: Game, order: Sequence[str] = CATEGORY_ORDER) -> list[str]:
    """Categories that scored for anyone, in the usual order, unknown ones after."""
    seen = {c for b in game.breakdown for c, v in b.items() if v}
    return [c for c in order if c in seen] + sorted(seen - set(order))


Legend = list[list[tuple[str, str, float]]]


def legend_lines(
    named: Sequence[tuple[str, str]],
    width: int,
    bar_h: int,
    pad: int,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
) -> Legend:
    """The chart's legend entries (category, words, left x) on as many lines as fit ``width``."""
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines: Legend = [[]]
    x: float = pad
    for cat, label in named:
        entry_w = bar_h * 0.75 + measure.textlength(label, font=font)
        if lines[-1] and x + entry_w > width - pad:
            lines.append([])
            x = pad
        lines[-1].append((cat, label, x))
        x += entry_w + bar_h * 0.45
    return lines


def chart_picture(
    game: Game,
    width: int,
    tile: int,
    options: RenderOptions,
    *,
    labels: Mapping[str, str] | None = None,
    colours: Mapping[str, pal.RGB] | None = None,
    order: Sequence[str] = (),
) -> Image.Image:
    """Horizontal stacked bars, one per player, one segment per category, total at the end.

    ``labels``, ``colours`` and ``order`` give other games' categories their legend words, hues
    and order.
    """
    colours = {**pal.CATEGORY_COLOURS, **(colours or {})}
    names = game.setup.players
    cats = categories(game, order or CATEGORY_ORDER)
    # Readable at phone width: every word's capitals at least 11 px tall at 400 px wide.
    least = least_text(width)
    bar_h = max(34, round(tile * 0.42), width // 16, round(least * 1.6))
    font = pal.font(max(least, round(bar_h * 0.5)))
    small = pal.font(max(least, round(bar_h * 0.4)))
    pad = bar_h // 2
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    longest = max(measure.textlength(n if len(n) <= 14 else n[:13] + "…", font=font) for n in names)
    label_w = round(longest + bar_h * 1.2)
    total_w = round(measure.textlength("888", font=font) + bar_h * 0.5)
    plot_w = max(100, width - label_w - total_w - 2 * pad)
    # The legend, wrapped onto as many lines as the words need (German ones are long).
    named = [(cat, (labels or {}).get(cat) or options.text(cat)) for cat in cats]
    legend = legend_lines(named, width, bar_h, pad, small)
    legend_h = bar_h * len(legend)
    height = pad * 2 + bar_h + len(names) * (bar_h + pad) + legend_h + pad
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    best = max(game.scores) if game.scores else 0
    winners = [names[p] for p in game.leaders]
    title = options.text("winner" if len(winners) == 1 else "winners", names=", ".join(winners))
    draw.text(
        (pad, pad + bar_h / 2),
        f"{options.text('final')} · {title}",
        font=font,
        fill=pal.INK,
        anchor="lm",
    )
    top = max(1, best)
    y = pad + bar_h + pad // 2
    for player, name in enumerate(names):
        colour = pal.player_colour(player)
        r = bar_h * 0.32
        cx, cy = pad + r, y + bar_h / 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=pal.INK, width=2)
        mark(draw, pal.player_mark(player), (cx, cy), r * 0.55, pal.ink_on(colour))
        shown = name if len(name) <= 14 else name[:13] + "…"
        draw.text((pad + 2 * r + 6, cy), shown, font=font, fill=pal.INK, anchor="lm")
        x: float = pad + label_w
        for cat in cats:
            points = game.breakdown[player].get(cat, 0)
            if points <= 0:
                continue
            w = plot_w * points / top
            fill = colours.get(cat, pal.CATEGORY_FALLBACK)
            draw.rectangle((x, y, x + w, y + bar_h), fill=fill, outline=pal.WHITE, width=2)
            text = str(points)
            if draw.textlength(text, font=small) + 6 < w:
                draw.text((x + w / 2, cy), text, font=small, fill=pal.ink_on(fill), anchor="mm")
            x += w
        draw.text((x + 8, cy), str(game.scores[player]), font=font, fill=pal.INK, anchor="lm")
        y += bar_h + pad
    for line in legend:
        for cat, label, lx in line:
            fill = colours.get(cat, pal.CATEGORY_FALLBACK)
            draw.rectangle((lx, y, lx + bar_h * 0.6, y + bar_h * 0.6), fill=fill, outline=pal.INK)
            at = (lx + bar_h * 0.75, y + bar_h * 0.3)
            draw.text(at, label, font=small, fill=pal.INK, anchor="lm")
        y += bar_h
    return image


def least_text(width: int) -> int:
    """The smallest font a picture ``width`` pixels wide may use (see
    :func:`renderer.legible.least_font`)."""
    return legible.least_font(width)


def final_board(game: Game, options: RenderOptions) -> tuple[Image.Image, int]:
    """The final board as the turn picture draws it, :data:`WIDTH` pixels wide: the whole board
    when it fits :data:`~renderer.phone.WINDOW` squares, else the part around the last tile,
    with a line saying that ``/carcassonne board`` shows it all; and the tile size."""
    area = extent(game, [])
    window = choose_window(area, [], game.last_pos)
    shown = window or area
    tile = max(24, min(MAX_TILE, (WIDTH - 8) // shown[2]))
    opts = board_options(options, shown, tile)
    board, _ = draw_board(game.board.tiles, game.figures(), opts, last=game.last_pos, window=shown)
    if window is None:
        return board, tile
    small = pal.font(SMALL)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    note = wrapped(measure, catalogs.text("phone", "part", options.lang), small, WIDTH - 28)
    image = Image.new("RGB", (WIDTH, board.height + len(note) * (SMALL + 10) + 12), pal.BACKGROUND)
    image.paste(board, ((WIDTH - board.width) // 2, 0))
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(note):
        at = (14, board.height + 6 + n * (SMALL + 10))
        draw.text(at, line, font=small, fill=pal.MUTED, anchor="lt")
    return image, tile


def game_end_picture(game: Game, options: RenderOptions | None = None) -> Image.Image:
    """The final board (no strip) above the breakdown chart, then the score by turn."""
    options = options or RenderOptions()
    own = families.pictures(game.setup.game).end
    if own is not None:
        picture = own(game, options)
    else:
        board, tile = final_board(game, options)
        width = max(board.width, WIDTH)
        chart = chart_picture(game, width, tile, options)
        picture = Image.new("RGB", (width, board.height + chart.height), pal.BACKGROUND)
        picture.paste(board, ((width - board.width) // 2, 0))
        picture.paste(chart, (0, board.height))
    series = score_series(game.record())
    timeline = score_chart_picture(series, game.setup.players, picture.width, options)
    image = Image.new("RGB", (picture.width, picture.height + timeline.height), pal.BACKGROUND)
    image.paste(picture, (0, 0))
    image.paste(timeline, (0, picture.height))
    return image


def render_game_end(game: Game, options: RenderOptions | None = None) -> bytes:
    """PNG of :func:`game_end_picture`."""
    return encode_png(game_end_picture(game, options), family=game.setup.game)
