"""Renderer: engine state in, PNG bytes out; every tile and figure drawn by code.

Pure functions, safe in a worker thread; tile art and figure icons are cached per
(kind, rotation, size). Typical use::

    png = await asyncio.to_thread(render_board, game, RenderOptions(lang="fr"))

The bot draws every picture as a :class:`renderer.jobs.Job` instead, in its render worker
processes (``bot.render_pool``).
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
from renderer import bigbox_figures as _bigbox_figures  # noqa: F401
from renderer.castle import pieces as _castle_pieces  # noqa: F401
from renderer.castle import render as _castle  # noqa: F401
from renderer.hunters import art as _hunters_art  # noqa: F401
from renderer.hunters import end as _hunters_end  # noqa: F401
from renderer.hunters import figures as _hunters_figures  # noqa: F401
