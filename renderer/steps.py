"""Pictures of a turn's private steps: the placement close-up, the wagons, the tactical hand.

The placement step is drawn for a phone: a close-up of the square with the tile ghosted in the
chosen rotation and its figure spots numbered, above one small picture per rotation that fits
there, captioned exactly like the rotation buttons. A freed wagon's places are lettered on their
very spots, on the squares around them (far ones in close-ups); a tactical hand shows its tiles
side by side.

Plain functions of the game (never changed) and the options, run by :mod:`renderer.jobs` in a
render worker or a thread of the bot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine import Game, PlaceTile
from engine.core.board import PlacedTile
from engine.core.tiles import Oriented
from renderer import palette as pal
from renderer.board import GhostSpot, Measures, Pos, SpotKey, draw_board, window_test
from renderer.options import RenderOptions
from renderer.phone import (
    MAX_TILE,
    WIDTH,
    PhonePicture,
    board_part,
    choose_window,
    insets_for,
    insets_part,
    players_table,
    stack_marked,
)
from renderer.tileart import tile_image

#: Close-up of the placement step: pixels per tile, and how much of the neighbours shows.
ZOOM_TILE = 200
ZOOM_MARGIN = 1.1
#: One picture per rotation under the close-up.
STRIP_TILE = 104
STRIP_MARGIN = 0.55

#: The wagon's picture: the most squares it shows across and down, the fewest, and the
#: close-ups of far targets (pixels per square, the most target squares one holds each way).
WAGON_WINDOW = (7, 9)
WAGON_LEAST = (5, 4)
WAGON_INSET_TILE = 128
WAGON_CORE = (2, 2)

Spots = Mapping[SpotKey, str]
#: A place a freed wagon may go: square and spot (a record's ``at``).
WagonKey = tuple[int, int, SpotKey]


def _ghost(game: Game, placement: PlaceTile, rotation: int | None = None) -> Oriented:
    name = placement.tile or game.decision.tile
    assert name is not None, "a placement step always has a tile"
    return game.kinds[name].oriented(placement.rotation if rotation is None else rotation)


def step_picture(
    game: Game,
    placement: PlaceTile | None,
    spots: Spots,
    rotations: Mapping[int, str],
    options: RenderOptions,
    ghosts: Sequence[GhostSpot] = (),
    player: int = 0,
    measures: Measures | None = None,
) -> Image.Image:
    """The placement step: the close-up of ``placement``'s square with the tile ghosted and
    ``spots`` numbered (or a see-through figure of ``player`` at each of ``ghosts``), above one
    small picture per rotation of ``rotations`` (rotation -> its button's caption) when there is
    more than one, the chosen one framed. ``placement`` None shows the last placed tile.
    ``measures`` collects what the close-up draws (its spot badges' boxes among them)."""
    pos = (placement.x, placement.y) if placement else (game.last_pos or (0, 0))
    ghost = _ghost(game, placement) if placement else None
    scale = min(1.0, options.tile_size / 96)  # the budget fallback asks for smaller tiles
    zoom = close_up(
        game,
        pos,
        ghost,
        spots,
        round(ZOOM_TILE * scale),
        ZOOM_MARGIN,
        options,
        ghosts=(pos, ghosts, player) if ghosts else None,
        measures=measures,
    )
    if placement is None or len(rotations) < 2:
        return zoom
    tile = round(STRIP_TILE * scale)
    gap = max(8, tile // 8)
    # The rotations never make the picture wider than the close-up (a wider picture is shown
    # smaller on a phone, and its numbers with it).
    per = (zoom.width - gap) / len(rotations) - gap
    tile = min(tile, int(per / (1 + 2 * STRIP_MARGIN)))
    font = pal.font(max(30, round(tile * 0.3)))  # 11 px on a phone
    caption = max(44, round(tile * 0.5))
    panels = []
    for rotation, text in rotations.items():
        panel = close_up(
            game, pos, _ghost(game, placement, rotation), {}, tile, STRIP_MARGIN, options
        )
        panels.append((rotation, text, panel))
    pw, ph = panels[0][2].size
    strip_w = len(panels) * (pw + gap) + gap
    width = max(zoom.width + 2 * gap, strip_w)
    height = zoom.height + 2 * gap + ph + caption + 2 * gap
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    image.paste(zoom, ((width - zoom.width) // 2, gap))
    draw = ImageDraw.Draw(image)
    top = zoom.height + 2 * gap + gap // 2
    left = (width - strip_w) // 2 + gap
    for i, (rotation, text, panel) in enumerate(panels):
        x = left + i * (pw + gap)
        selected = rotation == placement.rotation
        if selected:
            draw.rounded_rectangle(
                (x - gap // 2, top - gap // 2, x + pw + gap // 2, top + ph + caption),
                gap // 2,
                fill=pal.HIGHLIGHT,
            )
        image.paste(panel, (x, top))
        draw.text(
            (x + pw / 2, top + ph + caption / 2),
            text,
            font=font,
            fill=pal.INK,
            anchor="mm",
        )
    return image


def close_up(
    game: Game,
    pos: Pos,
    ghost: Oriented | None,
    spots: Spots,
    tile: int,
    margin: float,
    options: RenderOptions,
    *,
    ghosts: tuple[Pos, Sequence[GhostSpot], int] | None = None,
    measures: Measures | None = None,
) -> Image.Image:
    """The square ``pos`` and ``margin`` tiles of its surroundings, ``tile`` pixels per tile."""
    x, y = pos
    near: dict[Pos, PlacedTile] = {
        p: t for p, t in game.board.tiles.items() if abs(p[0] - x) <= 2 and abs(p[1] - y) <= 2
    }
    figures = [f for f in game.figures() if f.pos in near]
    opts = dataclasses.replace(
        options, tile_size=tile, min_tile=tile, max_side=tile * 20, coordinates=False
    )
    board, frame = draw_board(
        near,
        figures,
        opts,
        last=None if ghost else pos,
        ghost=(pos, ghost) if ghost else None,
        spot_labels=(pos, spots) if spots and not ghosts else None,
        ghosts=ghosts,
        measures=measures,
    )
    x0, y0, x1, y1 = frame.box(pos)
    m = round(tile * margin)
    box = (x0 - m, y0 - m, x1 + m, y1 + m)
    size = (box[2] - box[0], box[3] - box[1])
    image = Image.new("RGB", size, pal.EMPTY)
    draw = ImageDraw.Draw(image)
    for k in range(-3, 4):  # the grid of empty squares beyond the drawn frame
        gx, gy = m + k * tile, m + k * tile
        draw.line((gx, 0, gx, size[1]), fill=pal.EMPTY_LINE, width=1)
        draw.line((0, gy, size[0], gy), fill=pal.EMPTY_LINE, width=1)
    grid = (  # the squares of the drawn board, without its outer margin
        frame.left,
        frame.top,
        frame.left + frame.cols * tile,
        frame.top + frame.rows * tile,
    )
    inner = (
        max(grid[0], box[0]),
        max(grid[1], box[1]),
        min(grid[2], box[2]),
        min(grid[3], box[3]),
    )
    image.paste(board.crop(inner), (inner[0] - box[0], inner[1] - box[1]))
    ImageDraw.Draw(image).rectangle((0, 0, size[0] - 1, size[1] - 1), outline=pal.MUTED, width=2)
    return image


def wagon_picture(
    game: Game, targets: Mapping[WagonKey, str], options: RenderOptions
) -> Image.Image:
    """The board around the places a freed wagon may go, each lettered on its very spot."""
    return wagon_phone(game, targets, options).image


def wagon_phone(
    game: Game, targets: Mapping[WagonKey, str], options: RenderOptions
) -> PhonePicture:
    """The wagon's picture made for a phone (:data:`renderer.phone.WIDTH` wide): the squares
    around the targets, large enough for a letter per spot with none over another (the far ones
    in close-ups), then the players."""
    measures = Measures([], [], [])
    squares = sorted({(x, y) for x, y, _ in targets if (x, y) in game.board.tiles})
    if not squares:
        squares = [game.last_pos or (0, 0)]
    xs, ys = [p[0] for p in squares], [p[1] for p in squares]
    cols, rows = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    grow_x, grow_y = max(0, WAGON_LEAST[0] - cols), max(0, WAGON_LEAST[1] - rows)
    whole = (
        min(xs) - 1 - grow_x // 2,
        min(ys) - 1 - grow_y // 2,
        cols + grow_x,
        rows + grow_y,
    )
    window = choose_window(whole, squares, None, WAGON_WINDOW[0], WAGON_WINDOW[1]) or whole
    tile = min(MAX_TILE, (WIDTH - 8) // window[2])
    inside = window_test(window)
    far = [p for p in squares if not inside(p)]
    parts = [board_part(game, options, window, tile, {}, measures, spots=targets)]
    insets = insets_for(far, WAGON_CORE)
    if insets:
        parts.append(
            insets_part(
                game, options, window, insets, {}, measures, tile=WAGON_INSET_TILE, spots=targets
            )
        )
    parts.append((players_table(game, options, measures), []))
    image, marks = stack_marked(parts)
    measures.marks[:] = marks
    drawn = {m[0] for m in marks}
    hidden = tuple(text for text in targets.values() if text not in drawn)
    return PhonePicture(image, measures, window, hidden, insets)


def hand_picture(game: Game, hand: Sequence[str], options: RenderOptions) -> Image.Image:
    """The tiles of a tactical hand side by side, each captioned with its number."""
    size = max(96, round(options.tile_size * 1.6))
    gap = size // 6
    font = pal.font(round(size * 0.2))
    caption = round(size * 0.32)
    width = gap + len(hand) * (size + gap)
    image = Image.new("RGB", (max(width, size), size + caption + 2 * gap), pal.BACKGROUND)
    pen = ImageDraw.Draw(image)
    for i, name in enumerate(hand):
        x = gap + i * (size + gap)
        image.paste(tile_image(game.kinds[name].oriented(0), size), (x, gap))
        pen.rectangle((x - 1, gap - 1, x + size, gap + size), outline=pal.INK, width=2)
        centre = (x + size / 2, gap + size + caption / 2)
        pen.text(centre, str(i + 1), font=font, fill=pal.INK, anchor="mm")
    return image
