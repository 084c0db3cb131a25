"""What the game's thread shows of an act made on the live board (the Discord Activity).

The board's server (:mod:`bot.activity.server`) plays a move, an undo or a resignation through
the manager as the buttons and commands do, then hands it to :func:`announce` (``bot.app`` gives
it the bot), which posts exactly what the same act made in Discord posts, by the same functions:

- a move: the turn message of the next decision with its picture, the previous one's menus
  taken off (its buttons are refused as stale anyway: the turn stamp moved on), its id stored,
  a computer seat in turn set playing; or the end with the final table (:func:`post.announce`);
- an undo: the turn message again, saying it was taken back, or the request to the players who
  must agree, with Agree / Refuse (:func:`undo.told`);
- a resignation: the line saying who left, then the next decision or the end
  (:func:`post.resigned`).

The player who acted on the board reads the manager's answer there; nothing private is posted.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.i18n import shown_name
from bot.outcomes import MoveResult, UndoResult
from bot.storage import GameRow
from bot.ui.turn import post, undo
from bot.ui.turn.state import Snapshot

if TYPE_CHECKING:
    from bot.activity.acts import BoardAct
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)


def name_of(row: GameRow, user_id: int) -> str:
    """How the thread names the player who acted: their seat's name (the board knows no display
    name), as the bot shows any name."""
    seat = row.seat_of(user_id)
    return shown_name(seat.name) if seat is not None else "?"


async def announce(bot: CarcassonneBot, act: BoardAct) -> None:
    """Tell game ``act.game_id``'s thread of ``act``, as after the same act made with buttons or
    commands. A failure to post is logged, never raised: the act is played and stored already
    (the board shows it), only the thread's message is missing."""
    try:
        await tell(bot, act)
    except Exception:
        log.exception("game %s: the board's %s not announced", act.game_id, act.kind)


async def tell(bot: CarcassonneBot, act: BoardAct) -> None:
    result = act.result
    if act.kind == "move":
        if not isinstance(result, MoveResult):
            raise TypeError(f"a board move's result is a MoveResult, not {type(result).__name__}")
        await post.announce(bot, Snapshot.after(result), result.events)
        return
    row = await bot.manager.game(act.game_id)
    name = name_of(row, act.user_id)
    if act.kind == "undo":
        if not isinstance(result, UndoResult):
            raise TypeError(f"a board undo's result is an UndoResult, not {type(result).__name__}")
        await undo.told(bot, row, result, act.user_id, name)
    elif act.kind == "resign":
        if not isinstance(result, MoveResult):
            raise TypeError(f"a resignation's result is a MoveResult, not {type(result).__name__}")
        await post.resigned(bot, act.game_id, result, name)
    else:
        raise ValueError(f"no board act {act.kind!r}")
