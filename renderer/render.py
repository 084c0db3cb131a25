"""Public entry points: engine state in, PNG bytes out.

Every function here is pure (it reads the game, never changes it) and safe to call from a worker
thread, e.g. ``await asyncio.to_thread(render_board, game, options)``.

>>> from engine import Game, Setup
>>> png = render_board(Game(Setup(players=("Alice", "Bob"), seed=1)))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PIL import Image

from engine.carcassonne.traders_builders import goods
from renderer import families
from renderer import palette as pal
from renderer.board import Pos, SpotKey, draw_board
from renderer.encode import encode_png
from renderer.options import RenderOptions
from renderer.panel import PanelData, draw_panel, panel_width

if TYPE_CHECKING:
    from engine import Game, PlaceTile
    from engine.core.tiles import Oriented


def panel_data(game: Game) -> PanelData:
    over = game.finished
    tokens = [goods(game, p) for p in range(game.players)]
    return PanelData(
        names=game.setup.players,
        scores=list(game.scores),
        supply=[game.pieces(p) for p in range(game.players)],
        tiles_left=game.tiles_left,
        current=None if over else game.decision.player,
        turn=None if over else game.turn + 1,
        bonus_left=None if over else _bonus_left(game),
        goods=tokens if any(tokens) else None,
    )


def _bonus_left(game: Game) -> int | None:
    """Hunters & Gatherers: the bonus tiles still to win (None for other games)."""
    stack = getattr(game, "bonus_stack", None)
    return None if stack is None else len(stack)


def with_panel(board: Image.Image, game: Game, tile: int, options: RenderOptions) -> Image.Image:
    """Stack the players strip under a board image."""
    if not options.panel:
        return board
    data = panel_data(game)
    width = max(board.width, panel_width(data, tile))
    strip = draw_panel(data, width, tile, options)
    image = Image.new("RGB", (width, board.height + strip.height), pal.BACKGROUND)
    image.paste(board, ((width - board.width) // 2, 0))
    image.paste(strip, (0, board.height))
    return image


def ghost_and_spots(
    game: Game, preview: PlaceTile | None, spot_labels: Mapping[SpotKey, str] | None
) -> tuple[tuple[Pos, Oriented] | None, tuple[Pos, Mapping[SpotKey, str]] | None]:
    """The previewed tile (square, oriented kind) and where the spot labels go, if asked for.

    Spot labels go on the previewed square, else on the last placed tile.
    """
    ghost = None
    if preview is not None:
        name = preview.tile or game.decision.tile
        if name is None:
            raise ValueError("no tile to preview: pass a placement naming its tile")
        ghost = ((preview.x, preview.y), game.kinds[name].oriented(preview.rotation))
    spots = None
    if spot_labels is not None:
        target = ghost[0] if ghost else game.last_pos
        if target is not None:
            spots = (target, spot_labels)
    return ghost, spots


def board_picture(
    game: Game,
    options: RenderOptions | None = None,
    *,
    candidates: Mapping[Pos, str] | None = None,
    preview: PlaceTile | None = None,
    spot_labels: Mapping[SpotKey, str] | None = None,
) -> Image.Image:
    """The board with its players strip, as a Pillow image (see :func:`render_board`)."""
    options = options or RenderOptions()
    own = families.pictures(game.setup.game).board
    if own is not None:
        return own(game, options, candidates=candidates, preview=preview, spot_labels=spot_labels)
    ghost, spots = ghost_and_spots(game, preview, spot_labels)
    board, frame = draw_board(
        game.board.tiles,
        game.figures(),
        options,
        last=None if ghost else game.last_pos,
        candidates=candidates,
        ghost=ghost,
        spot_labels=spots,
        dead=game.dead_squares() if options.dead_squares else (),
    )
    return with_panel(board, game, frame.tile, options)


def render_board(
    game: Game,
    options: RenderOptions | None = None,
    *,
    candidates: Mapping[Pos, str] | None = None,
) -> bytes:
    """The board after the last move: last tile framed, figures, players strip.

    ``candidates`` maps empty squares to the short labels the bot offers ({(1, 0): "A", ...}).
    """
    return encode_png(board_picture(game, options, candidates=candidates), family=game.setup.game)


def render_preview(
    game: Game,
    placement: PlaceTile,
    options: RenderOptions | None = None,
    *,
    spot_labels: Mapping[SpotKey, str] | None = None,
) -> bytes:
    """The board with the tile ghosted where ``placement`` would put it.

    ``spot_labels`` (``at`` -> label, e.g. {4: "1", "C": "2"}) marks figure spots on the ghost.
    """
    return encode_png(
        board_picture(game, options, preview=placement, spot_labels=spot_labels),
        family=game.setup.game,
    )


def render_figure_spots(
    game: Game, labels: Mapping[SpotKey, str], options: RenderOptions | None = None
) -> bytes:
    """The board with the figure spots of the tile just placed marked with ``labels``.

    Keys are the records' ``at`` values (0-11, "C", "I1", "I2", "NW"...); pass the labels the bot
    offers for ``game.legal_figures()``.
    """
    return encode_png(board_picture(game, options, spot_labels=labels), family=game.setup.game)
