"""Computer players in the bot: their decisions run in worker processes, never on the event loop.

The manager asks :meth:`ComputerPlayers.turn` for the whole turn of a computer seat: a worker
rebuilds the game from its record and lets the player of :mod:`ai` at the seat's level decide
each step of the turn (tile, figure, a wagon, ...) from what that seat may see. Workers are
spawned (no fork of a process with threads) and warmed at start; a decision that takes longer
than ``timeout`` seconds, or a worker that fails, gives way to the quick fallback of the
caller (the manager then plays the turn itself, like a timeout's autoplay).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)


def play_turn(record: dict[str, Any], seat: int, level: str, seed: int) -> list[dict[str, Any]]:
    """Every action of ``seat``'s decisions now (one turn), as record JSON (in a worker)."""
    from ai import make_player
    from engine import Game

    game = Game.from_record(record)
    player = make_player(level, seed)
    turn = game.turn
    actions: list[dict[str, Any]] = []
    while not game.finished and game.actor == seat and game.turn == turn:
        action = player.choose(game, seat)
        game.play(action)
        actions.append(action.to_json())
    return actions


def _warm() -> bool:
    import ai  # noqa: F401
    import engine  # noqa: F401

    return True


class ComputerPlayers:
    """A small pool of worker processes deciding computer players' turns.

    ``workers=0`` decides in one thread of this process instead (still off the event loop; for
    tests that are not about the workers, which then need no process start-up).
    """

    def __init__(self, workers: int = 1, timeout: float = 20.0) -> None:
        self.workers = workers
        self.timeout = timeout
        self._pool: Executor | None = None

    def start(self) -> None:
        """Spawn the workers and import the rules in them (the first decision is then quick)."""
        if self._pool is None and self.workers <= 0:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
            for _ in range(self.workers):
                pool.submit(_warm)
            self._pool = pool

    async def turn(
        self, record: dict[str, Any], seat: int, level: str, seed: int
    ) -> list[dict[str, Any]] | None:
        """The actions of ``seat``'s turn, or None if the workers could not decide in time."""
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, play_turn, record, seat, level, seed)
        try:
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            log.warning("computer seat %s (%s) took over %.0f s", seat, level, self.timeout)
        except Exception:
            log.exception("computer seat %s (%s) failed to decide", seat, level)
        return None

    async def answering(self, timeout: float = 5.0) -> str | None:
        """Why the workers cannot decide now, or None: they answered a call within ``timeout``
        seconds (or have not started yet: the first computer turn starts them)."""
        if self._pool is None:
            return None
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.run_in_executor(self._pool, _warm), timeout)
        except TimeoutError:
            return f"the computer workers did not answer within {timeout:g} s"
        except Exception as error:  # a broken pool (a worker killed), or shut down
            return f"the computer workers cannot decide: {error or type(error).__name__}"
        return None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
