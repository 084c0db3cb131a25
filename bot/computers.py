"""Computer players in the bot: their decisions run in worker processes, never on the event loop.

The manager asks :meth:`ComputerPlayers.turn` for the whole turn of a computer seat: a worker
rebuilds the game from its record and lets the player of :mod:`ai` at the seat's level decide
each step of the turn (tile, figure, a wagon, ...) from what that seat may see. Workers are
spawned (no fork of a process with threads) and warmed at start; a decision that takes longer
than ``timeout`` seconds, or a worker that fails, gives way to the quick fallback of the
caller (the manager then plays the turn itself, like a timeout's autoplay).

Decisions go through a bounded queue on the event loop: at most one per worker is in the pool
at a time, the others wait here in the order they came (see :meth:`ComputerPlayers.turn`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from bot import metrics

log = logging.getLogger(__name__)

#: Decisions that may wait for a worker, per worker, before the next one is refused (and played
#: by the caller's quick fallback): about 8 s of waiting at the expert level's second a decision.
WAITING_PER_WORKER = 8


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
    """A small pool of worker processes deciding computer players' turns, behind a queue.

    ``workers=0`` decides in one thread of this process instead (still off the event loop; for
    tests that are not about the workers, which then need no process start-up).

    At most one decision per worker (one in thread mode) is in the pool at a time; the others
    wait on the event loop, first come first served. So a decision's ``timeout`` counts from
    when a worker takes it, not while it waits behind others, and a worker busy past a timeout
    (a process's job cannot be stopped) holds its place until it is done: the next decision is
    not sent to a worker that is still deciding. At most ``max_waiting`` decisions wait (by
    default :data:`WAITING_PER_WORKER` per worker); the next one is refused at once with a
    warning and None, and its caller plays the turn itself, as after a timeout. A serious
    service sheds load rather than queue without bound: past that many, the last of them would
    wait longer than the players at that table wait for a person's quick move (the expert
    spends up to a second a decision), a queue without bound grows for as long as the machine
    is short of cores, and a refused decision still gives a legal turn at once. The waiting
    and deciding counts are :meth:`waiting` and :meth:`deciding`; with metrics on, each
    decision records how long it waited (``carcassonne_computer_wait_seconds``) and each
    refusal counts (``carcassonne_computer_refused_total``).
    """

    def __init__(
        self, workers: int = 1, timeout: float = 20.0, max_waiting: int | None = None
    ) -> None:
        self.workers = workers
        self.timeout = timeout
        #: Decisions in the pool at a time, at most.
        self.slots = max(1, workers)
        self.max_waiting = WAITING_PER_WORKER * self.slots if max_waiting is None else max_waiting
        self._pool: Executor | None = None
        #: Decisions holding a slot (sent to the pool, or about to be).
        self._deciding = 0
        #: Decisions waiting for a slot, oldest first: each is woken with the slot handed over.
        self._queue: deque[asyncio.Future[None]] = deque()

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

    def waiting(self) -> int:
        """Decisions waiting for a worker."""
        return sum(1 for turn in self._queue if not turn.done())

    def deciding(self) -> int:
        """Decisions a worker has (deciding, or a timed-out one it has not finished)."""
        return self._deciding

    async def turn(
        self, record: dict[str, Any], seat: int, level: str, seed: int
    ) -> list[dict[str, Any]] | None:
        """The actions of ``seat``'s turn, or None if the workers could not decide in time
        (or too many decisions wait already: see the class)."""
        asked = time.perf_counter()
        if not await self._slot(seat, level):
            return None
        if metrics.ON:
            metrics.computer_waited(level, time.perf_counter() - asked)
        loop = asyncio.get_running_loop()
        try:
            self.start()
            assert self._pool is not None
            job = self._pool.submit(play_turn, record, seat, level, seed)
        except Exception:
            self._release()
            log.exception("computer seat %s (%s) could not be sent to a worker", seat, level)
            return None
        job.add_done_callback(lambda _: self._release_from(loop))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(job), self.timeout)
        except TimeoutError:
            log.warning("computer seat %s (%s) took over %.0f s", seat, level, self.timeout)
        except Exception:
            log.exception("computer seat %s (%s) failed to decide", seat, level)
        return None

    async def _slot(self, seat: int, level: str) -> bool:
        """Take a slot in the pool: at once if one is free and no one waits, else in turn after
        those waiting. False if :attr:`max_waiting` decisions wait already."""
        if self._deciding < self.slots and not self.waiting():
            self._deciding += 1
            return True
        if self.waiting() >= self.max_waiting:
            if metrics.ON:
                metrics.COMPUTER_REFUSED.inc()
            log.warning(
                "computer seat %s (%s): %d decisions wait for %d worker(s) already; "
                "the turn is played by the quick fallback",
                seat,
                level,
                self.waiting(),
                self.slots,
            )
            return False
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed the slot as it was cancelled
                self._release()
            with contextlib.suppress(ValueError):
                self._queue.remove(turn)
            raise
        return True

    def _release(self) -> None:
        """A slot is free: the oldest decision waiting takes it, else it is free."""
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():  # not given up while waiting
                turn.set_result(None)
                return
        self._deciding -= 1

    def _release_from(self, loop: asyncio.AbstractEventLoop) -> None:
        """A worker finished a decision (in the pool's thread): free its slot on the loop."""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nothing waits
            loop.call_soon_threadsafe(self._release)

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
