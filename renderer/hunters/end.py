"""The Hunters & Gatherers end image: the final board, the points per category and the gold.

Categories follow the rulebook's order of scoring: rivers (fishers), forests (gatherers), then
at the end huts (fish of their river system) and hunting (game in the meadows). Under the bars,
each player's gold: the bonus tiles their nugget forests earned them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

import catalogs
from renderer import families
from renderer import palette as pal
from renderer.board import draw_board
from renderer.endgame import chart_picture
from renderer.figures import mark
from renderer.hunters import icons
from renderer.options import RenderOptions

if TYPE_CHECKING:
    from engine import Game

CATEGORY_ORDER = ("river", "forest", "hut", "meadow")
CATEGORY_COLOURS: dict[str, pal.RGB] = {
    "river": (62, 140, 212),
    "forest": (40, 100, 48),
    "hut": (176, 112, 56),
    "meadow": (214, 168, 60),
}


def text(options: RenderOptions, key: str, **values: object) -> str:
    return catalogs.text("hunters_picture", key, options.lang, **values)


def bonus_tiles_by_player(game: Game) -> list[int]:
    """How many bonus tiles each player placed (each one came from a gold forest)."""
    placed_by: dict[tuple[int, int], int] = getattr(game, "placed_by", {})
    counts = [0] * game.players
    for pos, player in placed_by.items():
        tile = game.board.tiles.get(pos)
        if tile is None or player < 0:
            continue
        if game.kinds[tile.oriented.kind].extra.get("bonus"):
            counts[player] += 1
    return counts


def gold_strip(game: Game, width: int, row: int, options: RenderOptions) -> Image.Image:
    """One line per player: their mark, name and the bonus tiles they won, with stars."""
    counts = bonus_tiles_by_player(game)
    pad = row // 2
    image = Image.new("RGB", (width, row * game.players + pad), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = pal.font(round(row * 0.5))
    star = icons.icon("star", round(row * 0.85))
    names = game.setup.players
    name_w = max(draw.textlength(n[:14], font=font) for n in names) + row * 1.6
    for player, name in enumerate(names):
        cy = row * player + row // 2
        colour = pal.player_colour(player)
        r = row * 0.32
        cx = pad + r
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=pal.INK, width=2)
        mark(draw, pal.player_mark(player), (cx, cy), r * 0.55, pal.ink_on(colour))
        shown = name if len(name) <= 14 else name[:13] + "…"
        draw.text((cx + r + row * 0.25, cy), shown, font=font, fill=pal.INK, anchor="lm")
        x = pad + name_w
        n = counts[player]
        label = (
            catalogs.plural("hunters_picture", "gold", n, options.lang)
            if n
            else text(options, "no_gold")
        )
        draw.text((x, cy), label, font=font, fill=pal.INK if n else pal.MUTED, anchor="lm")
        x += draw.textlength(label, font=font) + row * 0.3
        for _ in range(min(n, 12)):
            image.paste(star, (round(x), round(cy - star.height / 2)), star)
            x += star.width * 0.85
    return image


def category_names(options: RenderOptions) -> dict[str, str]:
    """Chart legend names of the scoring categories of Hunters & Gatherers."""
    return {c: text(options, c) for c in CATEGORY_ORDER}


def game_end_picture(game: Game, options: RenderOptions) -> Image.Image:
    """The final board above the breakdown bars and each player's gold."""
    board, frame = draw_board(game.board.tiles, game.figures(), options, last=game.last_pos)
    width = max(board.width, 640)
    chart = chart_picture(
        game,
        width,
        frame.tile,
        options,
        labels=category_names(options),
        colours=CATEGORY_COLOURS,
        order=CATEGORY_ORDER,
    )
    strip = gold_strip(game, width, max(30, round(frame.tile * 0.36), width // 36), options)
    image = Image.new("RGB", (width, board.height + chart.height + strip.height), pal.BACKGROUND)
    image.paste(board, ((width - board.width) // 2, 0))
    image.paste(chart, (0, board.height))
    image.paste(strip, (0, board.height + chart.height))
    return image


families.register_pictures(
    "hunters",
    end=game_end_picture,
    categories=lambda options: (CATEGORY_ORDER, category_names(options)),
)
