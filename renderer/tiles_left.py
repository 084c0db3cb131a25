"""The tiles left: every tile kind not placed yet, with its count, for ``/carcassonne tiles``.

The stack, every hand and the tile drawn now count together (:meth:`engine.Game.unplaced_tiles`),
so the picture never tells who holds what. Made for a phone: at 400 pixels wide each tile is
about 60 pixels and its count (a multiplication sign and N) about 20 pixels tall. The title
gives the tiles to place in all and, of them, the tiles in the stack: the number the status and
the turn picture give (the stack, without the tile drawn now); then the dead squares (empty
squares no tile left can fill; :meth:`engine.Game.dead_squares`).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import Game
from renderer import palette as pal
from renderer.options import RenderOptions
from renderer.tileart import tile_image

#: Tiles per row, the tile's side and the room under it for its count, in pixels.
COLUMNS = 6
TILE = 120
CAPTION = 54
GAP = 16
TIMES = "\N{MULTIPLICATION SIGN}"


def shown_kinds(game: Game) -> list[str]:
    """The tile kinds not placed yet, in the order they come into play: The River's first
    (spring, river tiles, lake), then the tile sets' order."""
    pool = game.unplaced_tiles()
    return [name for name in game.kinds_in_play_order() if pool.get(name, 0) > 0]


def title_lines(game: Game, options: RenderOptions) -> list[str]:
    """The picture's title: the tiles to place (every tile the grid shows) and, of them, the
    tiles in the stack; then the dead squares when the game shows them."""
    unplaced = sum(game.unplaced_tiles().values())
    lines = [options.count("unplaced_tiles", unplaced), options.count("in_stack", game.tiles_left)]
    if options.dead_squares:
        lines.append(options.count("dead_squares", len(game.dead_squares())))
    return lines


def tiles_left_picture(game: Game, options: RenderOptions) -> Image.Image:
    """A grid of the tile kinds not placed yet (:func:`shown_kinds`), each above its count."""
    pool = game.unplaced_tiles()
    names = shown_kinds(game)
    cell_w, cell_h = TILE + GAP, TILE + CAPTION
    width = GAP + COLUMNS * cell_w
    title_font, count_font = pal.font(44), pal.font(42)
    lines = title_lines(game, options)
    top = GAP + 56 * len(lines) + GAP // 2
    rows = max(1, -(-len(names) // COLUMNS))
    image = Image.new("RGB", (width, top + rows * cell_h + GAP), pal.BACKGROUND)
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        pen.text((GAP, GAP + 56 * i), line, font=title_font, fill=pal.INK)
    for i, name in enumerate(names):
        x = GAP + (i % COLUMNS) * cell_w
        y = top + (i // COLUMNS) * cell_h
        image.paste(tile_image(game.kinds[name].oriented(0), TILE), (x, y))
        pen.rectangle((x - 1, y - 1, x + TILE, y + TILE), outline=pal.INK, width=2)
        centre = (x + TILE / 2, y + TILE + CAPTION / 2)
        pen.text(centre, f"{TIMES}{pool[name]}", font=count_font, fill=pal.INK, anchor="mm")
    return image
