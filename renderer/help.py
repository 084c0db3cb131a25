"""The help's example turn: a turn picture as every turn draws it, with its legend under it.

The turn picture is drawn while :func:`renderer.marks.noting`, so the legend
(:func:`renderer.legend.legend_picture`) explains exactly the marks that picture shows: the
lettered squares, a crossed-out square, the last tile's frame, the player to move, each seat's
colour and mark, each kind of figure, goods tokens, and a family's own marks.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import Game
from renderer import marks
from renderer.board import Pos
from renderer.legend import Entry, legend_picture
from renderer.options import RenderOptions
from renderer.phone import PhonePicture, TileCard, stack, turn_picture


def help_picture(
    game: Game,
    options: RenderOptions,
    *,
    candidates: Mapping[Pos, str] | None = None,
    card: TileCard | None = None,
) -> tuple[PhonePicture, list[Entry]]:
    """The example turn of ``game`` with the legend of its marks under it, and the legend's
    entries (:class:`renderer.legend.MissingLegend` if a mark drawn has no words or sample)."""
    with marks.noting() as seen:
        turn = turn_picture(game, options, candidates=candidates, card=card)
    legend, entries = legend_picture(
        seen, game.setup.game, game.setup.players, options, turn.image.width
    )
    picture = PhonePicture(stack([turn.image, legend]), turn.measures, turn.window, turn.hidden)
    return picture, entries
