"""Board pictures as Discord files, drawn by :mod:`renderer` in a worker thread.

Rendering takes tens of milliseconds, more on a big board: it never runs on the event loop
(the 3-second interaction deadline and every other game would wait). Every upload is checked
against a size budget well under Discord's 10 MiB limit; a board over it is drawn again with
smaller tiles rather than failing the turn.

Players draw in the colour they chose in the lobby (:func:`seat_styles`), with the mark that goes
with it, from the renderer's colour-blind-safe palette.

The placement step is drawn for a phone: a close-up of the square with the tile ghosted in the
chosen rotation and its figure spots numbered, above one small picture per rotation that fits
there, captioned exactly like the rotation buttons.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence

import discord
from PIL import Image, ImageDraw

from bot.render_pool import RenderPool
from bot.storage import GameRow
from engine import Game, PlaceAbbey, PlaceTile
from engine.core.board import PlacedTile
from engine.core.tiles import Oriented
from renderer import jobs
from renderer import palette as pal
from renderer.board import GhostSpot, badge, draw_board, spot_point
from renderer.encode import encode_png
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.phone import TileCard
from renderer.render import render_figure_spots, with_panel
from renderer.tileart import tile_image

log = logging.getLogger(__name__)

#: Discord refuses uploads over 10 MiB; stay far below so a turn message never fails.
BUDGET = 4 * 1024 * 1024
SMALLER = (64, 48)

#: Lobby colour name -> the renderer's style (colour and mark; see :mod:`renderer.palette`).
STYLES = {"red": 0, "blue": 1, "yellow": 2, "green": 3, "purple": 4, "black": 5}
#: Style -> a round emoji of that colour, for lobby lists and menus.
EMOJI = ("🟠", "🔵", "🟡", "🟢", "🩷", "⚫")
#: Games whose pictures follow the chosen colours (The Castle draws seat colours).
STYLED_GAMES = ("carcassonne", "hunters")

#: Games whose placement step shows the close-up (The Castle shows its whole board).
CLOSE_UP_GAMES = ("carcassonne", "hunters", "castle")
#: Close-up of the placement step: pixels per tile, and how much of the neighbours shows.
ZOOM_TILE = 200
ZOOM_MARGIN = 1.3
#: One picture per rotation under the close-up.
STRIP_TILE = 104
STRIP_MARGIN = 0.55

Pos = tuple[int, int]
Spots = Mapping[int | str, str]


def seat_styles(row: GameRow) -> tuple[int, ...]:
    """The style each seat draws in: its chosen colour's (first free style if unknown)."""
    if row.kind not in STYLED_GAMES:
        return ()
    styles: list[int] = []
    for seat in row.seats:
        style = STYLES.get(seat.colour)
        if style is None or style in styles:
            style = next(s for s in range(len(pal.PLAYER_COLOURS)) if s not in styles)
        styles.append(style)
    return tuple(styles)


def seat_style(row: GameRow, seat: int) -> int:
    styles = seat_styles(row)
    return styles[seat] if seat < len(styles) else seat


def colour_name(row: GameRow, seat: int) -> str:
    """The colour (English key of :data:`STYLES`) seat ``seat`` is drawn in."""
    style = seat_style(row, seat)
    return next((name for name, s in STYLES.items() if s == style), "black")


Render = Callable[[RenderOptions], Awaitable[tuple[bytes, tuple[str, ...]]]]


async def _sized(name: str, lang: str, render: Render) -> tuple[discord.File, tuple[str, ...]]:
    """A picture drawn by ``render``, again with smaller tiles while over Discord's budget;
    also the letters of the squares it leaves out."""
    png, hidden = await render(RenderOptions(lang=lang))
    for tile in SMALLER:
        if len(png) <= BUDGET:
            break
        log.warning("%s is %d bytes; drawing it again at %d px per tile", name, len(png), tile)
        options = RenderOptions(lang=lang, tile_size=tile, max_side=1200, min_tile=32)
        png, hidden = await render(options)
    return discord.File(io.BytesIO(png), filename=name), hidden


async def _draw(
    name: str, draw: Callable[[RenderOptions], bytes], lang: str, styles: Sequence[int] = ()
) -> discord.File:
    """A picture drawn by ``draw`` in a thread (those the render workers do not draw)."""

    def run(options: RenderOptions) -> tuple[bytes, tuple[str, ...]]:
        with pal.seat_styles(styles):
            return draw(options), ()

    return (await _sized(name, lang, lambda o: asyncio.to_thread(run, o)))[0]


#: The render worker processes of the bot (None: pictures are drawn in threads).
POOL: RenderPool | None = None


def use_pool(pool: RenderPool | None) -> None:
    """Draw the game pictures (board, turn, preview, spots, end) in ``pool``'s workers."""
    global POOL
    POOL = pool


async def _picture(name: str, game: Game, job: Job) -> tuple[discord.File, tuple[str, ...]]:
    """``job``'s picture of ``game``: by a render worker from the game's record, or in a
    thread from ``game`` itself when the bot has no workers (the same bytes either way)."""

    async def render(options: RenderOptions) -> tuple[bytes, tuple[str, ...]]:
        sized = dataclasses.replace(job, options=options)
        if POOL is not None:
            return await POOL.draw(sized)
        return await asyncio.to_thread(jobs.draw, game, sized)

    return await _sized(name, job.options.lang, render)


async def board_file(
    game: Game,
    lang: str,
    candidates: Mapping[Pos, str] | None = None,
    *,
    styles: Sequence[int] = (),
) -> discord.File:
    """The board after the last move, with lettered squares if ``candidates`` are given."""
    job = Job("board", game.record(), RenderOptions(lang=lang), tuple(styles), candidates)
    return (await _picture("board.png", game, job))[0]


async def turn_file(
    game: Game,
    lang: str,
    candidates: Mapping[Pos, str] | None = None,
    *,
    card: TileCard | None = None,
    styles: Sequence[int] = (),
    whole: bool = False,
) -> tuple[discord.File, tuple[str, ...]]:
    """The turn picture made for phones (see :mod:`renderer.phone`): the drawn tile, the board
    near the action with its lettered squares, the players. Also returns the letters of the
    squares left outside the picture."""
    job = Job(
        "turn", game.record(), RenderOptions(lang=lang), tuple(styles), candidates, card, whole
    )
    return await _picture("turn.png", game, job)


async def preview_file(
    game: Game,
    placement: PlaceTile | PlaceAbbey,
    spots: Spots,
    lang: str,
    *,
    styles: Sequence[int] = (),
) -> discord.File:
    """The whole board with the tile ghosted where it would go and its figure spots numbered."""
    if isinstance(placement, PlaceAbbey):
        # The abbey is not the drawn tile: show it as placed on a private copy.
        from bot.ui.state import tried

        copy = await asyncio.to_thread(tried, game, placement)
        return await _draw(
            "preview.png", lambda o: render_figure_spots(copy, spots, o), lang, styles
        )
    extra = {"placement": placement, "spots": dict(spots)}
    job = Job("preview", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture("preview.png", game, job))[0]


async def spots_file(
    game: Game, spots: Spots, lang: str, *, styles: Sequence[int] = ()
) -> discord.File:
    """The board with the figure spots of the tile just placed numbered."""
    extra = {"spots": dict(spots)}
    job = Job("spots", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture("spots.png", game, job))[0]


async def end_file(game: Game, lang: str, *, styles: Sequence[int] = ()) -> discord.File:
    """The final board above the per-player score breakdown chart."""
    job = Job("end", game.record(), RenderOptions(lang=lang), tuple(styles))
    return (await _picture("final.png", game, job))[0]


# -- the placement step: close-up and rotations ------------------------------------------------


async def step_file(
    game: Game,
    placement: PlaceTile | PlaceAbbey | None,
    spots: Spots,
    lang: str,
    *,
    rotations: Mapping[int, str] | None = None,
    styles: Sequence[int] = (),
    ghosts: Sequence[GhostSpot] = (),
    player: int = 0,
) -> discord.File:
    """The placement step's picture.

    ``ghosts`` draws a see-through figure of ``player`` at each offered spot with its number
    (instead of bare ``spots`` numbers).

    ``placement`` None: the tile just placed (figure step only). ``rotations`` maps each rotation
    offered at the square to its button's caption; with more than one, a picture of each is
    drawn under the close-up, the chosen one framed.
    """
    if game.setup.game not in CLOSE_UP_GAMES:  # drawn its own way: the whole board
        if placement is None:
            return await spots_file(game, spots, lang, styles=styles)
        return await preview_file(game, placement, spots, lang, styles=styles)
    if isinstance(placement, PlaceAbbey):
        from bot.ui.state import tried

        game = await asyncio.to_thread(tried, game, placement)
        placement = None
    chosen = placement

    def draw(options: RenderOptions) -> bytes:
        return encode_png(
            step_picture(game, chosen, spots, rotations or {}, options, ghosts, player)
        )

    return await _draw("step.png", draw, lang, styles)


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
) -> Image.Image:
    """See :func:`step_file`; ``placement`` None shows the last placed tile."""
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
    )
    if placement is None or len(rotations) < 2:
        return zoom
    tile = round(STRIP_TILE * scale)
    gap = max(8, tile // 8)
    font = pal.font(max(14, round(tile * 0.3)))
    caption = round(tile * 0.5)
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


# -- wagons and the tactical hand ----------------------------------------------------------------


async def wagon_file(
    game: Game,
    targets: Mapping[tuple[int, int, int | str], str],
    lang: str,
    *,
    styles: Sequence[int] = (),
) -> discord.File:
    """The board with each place a freed wagon may go lettered on its very spot."""

    def draw(options: RenderOptions) -> bytes:
        board, frame = draw_board(game.board.tiles, game.figures(), options, last=game.last_pos)
        pen = ImageDraw.Draw(board)
        for (x, y, at), text in targets.items():
            placed = game.board.tiles.get((x, y))
            if placed is None:
                continue
            centre = frame.point((x, y), spot_point(placed.oriented, at))
            badge(pen, centre, text, max(11.0, frame.tile * 0.16), pal.LABEL_FILL)
        return encode_png(with_panel(board, game, frame.tile, options))

    return await _draw("wagon.png", draw, lang, styles)


async def hand_file(game: Game, hand: Sequence[str], lang: str) -> discord.File:
    """The tiles of a tactical hand side by side, each captioned with its name."""

    def draw(options: RenderOptions) -> bytes:
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
        return encode_png(image)

    return await _draw("hand.png", draw, lang)
