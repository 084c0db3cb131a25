"""Renderer: engine state in, PNG bytes out; every tile and figure drawn by code.

Pure functions, safe in a worker thread; tile art and figure icons are cached per
(kind, rotation, size). Typical use from the bot::

    png = await asyncio.to_thread(render_board, game, RenderOptions(lang="fr"))
"""

from renderer.endgame import render_game_end
from renderer.options import RenderOptions
from renderer.render import board_picture, render_board, render_figure_spots, render_preview
from renderer.turn import legal_rotations, render_rotations

__all__ = [
    "RenderOptions",
    "board_picture",
    "legal_rotations",
    "render_board",
    "render_figure_spots",
    "render_game_end",
    "render_preview",
    "render_rotations",
]

# The game families' own drawing registers itself in renderer.families on import; imported last,
# after the common modules they build on.
from renderer import castle_render, hunters_art, hunters_end, hunters_figures  # noqa: F401
