"""Computer seats take their turns as soon as they come, posted like anyone else's.

After every turn message (:func:`bot.ui.turn.post.announce`), :meth:`ComputerTurns.kick` looks at
the seat that decides next; if it is a computer, one task per game asks the manager to play it
(the decision runs in the computer workers), then announces the move with the board, which
kicks again for a computer that follows. After a restart, :meth:`ComputerTurns.resume` kicks
every active game, so a computer whose turn came just before the restart plays it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.errors import ManagerError
from bot.manager import COMPUTER
from bot.storage import GameRow
from bot.ui.turn import post
from bot.ui.turn.state import Snapshot

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)


def computer_to_play(row: GameRow) -> bool:
    """Whether the seat deciding now in an active game is a computer."""
    if row.status != "active" or row.current_seat is None:
        return False
    return row.seats[row.current_seat].computer is not None


class ComputerTurns:
    """One background task per game whose computer seats are playing."""

    def __init__(self, bot: CarcassonneBot, pace: float = 1.5) -> None:
        self.bot = bot
        self.pace = pace
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def kick(self, row: GameRow) -> None:
        """Start playing ``row``'s computer seats if one decides now (once per game)."""
        if not computer_to_play(row) or row.id in self._tasks:
            return
        task = asyncio.create_task(self._run(row.id), name=f"computer-turns-{row.id}")
        self._tasks[row.id] = task
        task.add_done_callback(lambda _: self._tasks.pop(row.id, None))

    async def resume(self) -> None:
        """Kick every active game (after a start): computers whose turn it is play it."""
        manager = self.bot.manager
        for game_id in await manager.storage.active_game_ids():
            with contextlib.suppress(ManagerError):
                self.kick(await manager.game(game_id))

    async def _run(self, game_id: int) -> None:
        manager = self.bot.manager
        try:
            row = await manager.game(game_id)
            while computer_to_play(row):
                if self.pace:
                    await asyncio.sleep(self.pace)
                result = await manager.play_turn(game_id, COMPUTER, turn=row.turn)
                snap = Snapshot.after(result)
                await post.announce(self.bot, snap, result.events, kick=False)
                row = snap.row
        except ManagerError as error:  # a player acted first (abandon, undo): nothing to do
            log.info("computer turns of game %s stopped: %s", game_id, error)
        except Exception:
            log.exception("computer turns of game %s failed", game_id)

    async def idle(self) -> None:
        """Wait until no computer is playing (for tests and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the running tasks (at shutdown; a move being saved finishes first)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
