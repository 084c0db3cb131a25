"""Board pictures as Discord files, drawn by :mod:`renderer` in a worker thread.

Rendering takes tens of milliseconds, more on a big board: it never runs on the event loop
(the 3-second interaction deadline and every other game would wait). Every upload is checked
against a size budget well under Discord's 10 MiB limit; a board over it is drawn again with
smaller tiles rather than failing the turn.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Mapping

import discord

from engine import Game, PlaceAbbey, PlaceTile
from renderer.endgame import render_game_end
from renderer.options import RenderOptions
from renderer.render import render_board, render_figure_spots, render_preview

log = logging.getLogger(__name__)

#: Discord refuses uploads over 10 MiB; stay far below so a turn message never fails.
BUDGET = 4 * 1024 * 1024
SMALLER = (64, 48)

Pos = tuple[int, int]


async def _draw(name: str, draw: Callable[[RenderOptions], bytes], lang: str) -> discord.File:
    png = await asyncio.to_thread(draw, RenderOptions(lang=lang))
    for tile in SMALLER:
        if len(png) <= BUDGET:
            break
        log.warning("%s is %d bytes; drawing it again at %d px per tile", name, len(png), tile)
        options = RenderOptions(lang=lang, tile_size=tile, max_side=1200, min_tile=32)
        png = await asyncio.to_thread(draw, options)
    return discord.File(io.BytesIO(png), filename=name)


async def board_file(
    game: Game, lang: str, candidates: Mapping[Pos, str] | None = None
) -> discord.File:
    """The board after the last move, with lettered squares if ``candidates`` are given."""
    return await _draw(
        "board.png", lambda o: render_board(game, o, candidates=candidates or None), lang
    )


async def preview_file(
    game: Game, placement: PlaceTile | PlaceAbbey, spots: Mapping[int | str, str], lang: str
) -> discord.File:
    """The board with the tile ghosted where it would go and its figure spots numbered."""
    if isinstance(placement, PlaceAbbey):
        # The abbey is not the drawn tile: show it as placed on a private copy.
        from bot.ui.state import tried

        copy = await asyncio.to_thread(tried, game, placement)
        return await _draw("preview.png", lambda o: render_figure_spots(copy, spots, o), lang)
    return await _draw(
        "preview.png", lambda o: render_preview(game, placement, o, spot_labels=spots), lang
    )


async def spots_file(game: Game, spots: Mapping[int | str, str], lang: str) -> discord.File:
    """The board with the figure spots of the tile just placed numbered."""
    return await _draw("spots.png", lambda o: render_figure_spots(game, spots, o), lang)


async def end_file(game: Game, lang: str) -> discord.File:
    """The final board above the per-player score breakdown chart."""
    return await _draw("final.png", lambda o: render_game_end(game, o), lang)
