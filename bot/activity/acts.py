"""What a board does that the game's thread must hear of: a move, an undo, a resignation.

The board's server (:mod:`bot.activity.server`) plays them through the manager, as the buttons
do, then hands each to the ``announce`` callable it was given (the Discord layer's: ``bot.app``
gives ``bot.ui.turn.board_acts.announce``), which tells the thread as it tells every act made
there: the next turn message with its picture, the undo asked or done, the seat left. The
server knows nothing of Discord.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["move", "undo", "resign"]


@dataclass(frozen=True, slots=True)
class BoardAct:
    """``user_id`` did ``kind`` on game ``game_id``'s board; ``result`` is what the manager
    answered (a ``MoveResult`` for a move; the undo's or the resignation's answer)."""

    kind: Kind
    game_id: int
    user_id: int
    result: Any


#: The Discord layer's way to tell a game's thread of an act made on its board.
Announce = Callable[[BoardAct], Awaitable[None]]
