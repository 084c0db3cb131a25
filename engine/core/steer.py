"""Watching, and choosing, the face-down tiles a game draws: the reading of a position.

A *position* (:mod:`engine.core.position`) holds what the table has seen of a running game and
no face-down tile. To rebuild it, the engine replays its actions in a game whose face-down tiles
nobody knows: a :class:`Steer` given to the game (``Game(setup, steer=...)``) is told before
each tile is taken from the stack and before each tactical hand is checked, and may choose then
what lies face down, as long as everything shown stays as it was shown. Writing a position uses
one too, to see the start tile and what the setup drew.

The turn machine calls a steer only when the game has one (none in every game played), so a game
pays one test of an attribute per draw for it. A fork never has one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from engine.core.events import Event
    from engine.core.game import Game


# A steer may be written outside the compiled engine (setup.py): a test's.
@mypyc_attr(allow_interpreted_subclasses=True)
class Steer:
    """What the turn machine tells about the main stack (``game.stack``, top last) and the
    hands; each method does nothing here."""

    def drawing(self, game: Game, into: int) -> None:
        """The top tile of ``game.stack`` (its last item) is about to be taken: into the hand of
        seat ``into`` (the tactical hand), or -1: to be laid or played now (with an empty board,
        it is the start tile)."""

    def drawing_bonus(self, game: Game) -> None:
        """The top tile of the bonus stack (Hunters & Gatherers) is about to be taken."""

    def returned(self, game: Game, bottom: bool) -> None:
        """A tile that everyone saw was just put back into ``game.stack``: under it (a skipped
        turn, ``bottom``) or on top (an abbey played instead, a player who left)."""

    def checking_hand(self, game: Game, player: int) -> None:
        """``player``'s hand is about to be checked for tiles that fit nowhere (discarded)."""

    def started(self, game: Game, events: list[Event]) -> None:
        """The game is set up; ``events`` are what the setup caused (its first turn)."""
