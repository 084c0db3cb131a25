"""Pictures on every core: a pool of render worker processes (see :mod:`renderer.jobs`).

Rendering in threads of the bot's process is capped by the GIL at about one core and its
garbage collections pause the event loop; a pool of processes sized to the machine draws
every picture the bot sends beside it instead. Workers start with the bot (``warm``) and load the
tile art cache, so the first picture in each is fast. ``workers=0`` draws in a thread of the
bot's process (tests, small machines).

A picture goes to the least busy worker, and among the least busy to the game's home worker:
each worker keeps the state of the games it drew and plays only the moves since
(:mod:`renderer.recent`), so when the bot is not busy a game's pictures all go to the same
process and none replays the whole record, while a busy bot never waits on one worker beside an
idle one (keeping a game at home until 2 more pictures waited there made the 2,000-game load's
p95 618 ms instead of 218 ms). A worker holds at most :data:`DEPTH` pictures at a time (one
drawing, the next ready); the others wait in the bot at the worker chosen, and a worker with
nothing left to draw takes the oldest picture waiting at another. Sent all at once, a burst
split by count left one worker idle for the last 10 to 20 % of it (pictures differ in cost, and
so do the machine's cores from moment to moment). A worker that dies is replaced, and the job
it held is drawn again once.

Each worker is one process on one socket: the bot's event loop writes a job and reads its picture
back itself (jobs are answered in the order sent), with no thread in between. A picture costs the
bot's process about 0.1 ms this way, against 0.8 ms through ``concurrent.futures``' process pool
and its two helper threads, and that process is the one every move waits on.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import socket
import struct
import zlib
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot import collector
from renderer.jobs import Job, ready, run

#: Each message on a worker's socket: its length, then the pickled call or answer.
HEADER = struct.Struct("!Q")

T = TypeVar("T")

#: Pictures sent to a worker and not answered yet, at most: one drawing and the next ready, so
#: that a worker never waits for the bot between two pictures.
DEPTH = 2


class WorkerDied(RuntimeError):
    """A render worker process ended (killed, out of memory) before it answered."""


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))


def start_worker(art_cache: str | None) -> None:
    """A worker's start: its tile art loaded, then its collector settled (see bot.collector)."""
    ready(art_cache)
    collector.settle()


def serve(sock: socket.socket, art_cache: str | None) -> None:
    """A worker process: answer each call read from ``sock``, in order, until the bot closes
    it. An answer is ``(True, value)`` or ``(False, exception)``."""
    start_worker(art_cache)
    trim = collector.Trim()
    with sock, sock.makefile("rwb") as stream:
        while head := stream.read(HEADER.size):
            if len(head) < HEADER.size:
                return
            function, args = pickle.loads(stream.read(HEADER.unpack(head)[0]))
            try:
                answer: tuple[bool, Any] = (True, function(*args))
                data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # the bot raises it where it asked
                try:
                    data = pickle.dumps((False, error), pickle.HIGHEST_PROTOCOL)
                except Exception:  # an exception that does not pickle: its text then
                    data = pickle.dumps((False, RuntimeError(repr(error))))
            stream.write(HEADER.pack(len(data)) + data)
            stream.flush()
            trim.due()  # after the answer: the bot does not wait for it


def home_of(record: Mapping[str, Any], workers: int) -> int | None:
    """The worker a game's pictures go to, from what names the game in its record (family,
    seed, seats), the same in every process; None for a job with no game (statistics)."""
    if not record:
        return None
    name = f"{record.get('game')}|{record.get('seed')}|{record.get('players')}"
    return zlib.crc32(name.encode()) % workers


class _Worker:
    """One worker process and the bot's end of its socket."""

    def __init__(self, art_cache: str | None) -> None:
        ours, theirs = socket.socketpair()
        context = multiprocessing.get_context("spawn")
        self.process = context.Process(
            target=serve, args=(theirs, art_cache), name="render", daemon=True
        )
        self.process.start()
        theirs.close()
        self.sock = ours
        #: The calls sent and not answered yet, oldest first.
        self.asked: deque[asyncio.Future[Any]] = deque()
        self._opened: asyncio.Task[tuple[asyncio.StreamReader, asyncio.StreamWriter]] | None
        self._opened = None
        self._reading: asyncio.Task[None] | None = None
        self.dead = False

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        if self.dead:
            raise WorkerDied("the render worker has stopped")
        loop = asyncio.get_running_loop()
        if self._opened is None:
            self._opened = loop.create_task(asyncio.open_unix_connection(sock=self.sock))
        reader, writer = await self._opened
        data = pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)
        answer: asyncio.Future[T] = loop.create_future()
        self.asked.append(answer)
        writer.write(HEADER.pack(len(data)) + data)
        # A reader runs only while answers are owed (an idle pool leaves no task behind).
        if self._reading is None or self._reading.done():
            self._reading = loop.create_task(self._read(reader))
        return await answer

    async def _read(self, reader: asyncio.StreamReader) -> None:
        """Hand over the answers owed, in order, then stop."""
        try:
            while self.asked:
                head = await reader.readexactly(HEADER.size)
                ok, value = pickle.loads(await reader.readexactly(HEADER.unpack(head)[0]))
                answer = self.asked.popleft()
                if answer.done():  # the caller gave up (cancelled): nothing to hand over
                    continue
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self._died()

    def _died(self) -> None:
        self.dead = True
        while self.asked:
            answer = self.asked.popleft()
            if not answer.done():
                answer.set_exception(WorkerDied("the render worker stopped before answering"))

    def close(self) -> None:
        self.dead = True
        if self._reading is not None:
            self._reading.cancel()
        if self._opened is not None and self._opened.done() and not self._opened.cancelled():
            with contextlib.suppress(Exception):
                self._opened.result()[1].close()
        self.sock.close()  # the worker reads the end of its socket and stops
        self.process.join(timeout=2)
        if self.process.is_alive():  # in the middle of a long picture: not waited for
            self.process.terminate()
        for answer in self.asked:
            answer.cancel()
        self.asked.clear()


class RenderPool:
    def __init__(self, workers: int, art_cache: str | None = None) -> None:
        self.workers = workers
        self.art_cache = art_cache
        #: The workers' process ids, once :meth:`warm` has started them (for monitoring).
        self.pids: frozenset[int] = frozenset()
        self._workers: list[_Worker | None] = [_Worker(art_cache) for _ in range(workers)]
        #: Pictures given to each worker and not drawn yet: sent, or waiting in the bot.
        self._waiting = [0] * workers
        #: Pictures sent to each worker (or about to be: a slot handed over) and not answered.
        self._sent = [0] * workers
        #: Per worker, the pictures waiting in the bot for a slot there, oldest first: each
        #: gets the index of the worker that has room for it.
        self._queued: list[deque[asyncio.Future[int]]] = [deque() for _ in range(workers)]

    def _choose(self, job: Job) -> int:
        least = min(range(self.workers), key=self._waiting.__getitem__)
        home = home_of(job.record, self.workers)
        if home is None or self._waiting[home] > self._waiting[least]:
            return least
        return home

    async def draw(self, job: Job) -> tuple[bytes, tuple[str, ...]]:
        """The PNG of ``job`` and the letters left outside it, drawn in a worker."""
        if self.workers <= 0:
            return await asyncio.to_thread(run, job)
        index = self._choose(job)
        self._waiting[index] += 1
        try:
            index = await self._slot(index)
            try:
                try:
                    return await self._on(index).call(run, job)
                except WorkerDied:
                    # The worker died (killed, out of memory): a new one draws the job once more.
                    return await self._on(index).call(run, job)
            finally:
                self._sent[index] -= 1
                self._hand_over(index)
        finally:
            self._waiting[index] -= 1

    async def _slot(self, index: int) -> int:
        """A slot on worker ``index`` if it has room, else on any worker with room, else on the
        first worker to have room for this picture: ``index`` when the pictures waiting there
        before it are sent, or one that ran out first. The slot is the caller's to free
        (``_sent``, ``_hand_over``)."""
        roomy = (
            index
            if self._sent[index] < DEPTH
            else min(range(self.workers), key=self._sent.__getitem__)
        )
        if self._sent[roomy] < DEPTH:
            self._sent[roomy] += 1
            return self._moved(index, roomy)
        turn: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queued[index].append(turn)
        try:
            given = await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # a slot handed over as it was cancelled
                self._sent[turn.result()] -= 1
                self._hand_over(turn.result())
            raise
        return self._moved(index, given)

    def _moved(self, index: int, to: int) -> int:
        """A picture given to worker ``index`` is drawn by worker ``to``: counted there."""
        self._waiting[index] -= 1
        self._waiting[to] += 1
        return to

    def _hand_over(self, index: int) -> None:
        """Worker ``index`` has room: the oldest picture waiting there gets it, else the oldest
        waiting at the worker with the most waiting."""
        while self._sent[index] < DEPTH:
            queue = self._queued[index] or max(self._queued, key=len)
            if not queue:
                return
            turn = queue.popleft()
            if turn.done():  # its caller gave up while waiting
                continue
            self._sent[index] += 1
            turn.set_result(index)

    def _on(self, index: int) -> _Worker:
        """Worker ``index``, started again if it died."""
        worker = self._workers[index]
        if worker is None:
            raise RuntimeError("the render pool is closed")
        if worker.dead:
            worker.close()
            worker = self._workers[index] = _Worker(self.art_cache)
            self._note_pids()
        return worker

    def queued(self) -> int:
        """Pictures waiting in the bot for a worker with room (each worker holds :data:`DEPTH`)."""
        return sum(len(queue) for queue in self._queued)

    def stopped(self) -> list[int]:
        """The workers whose process is not running (each is started again by its next
        picture): none, on a healthy pool."""
        return [
            index
            for index, worker in enumerate(self._workers)
            if worker is not None and (worker.dead or not worker.process.is_alive())
        ]

    def _note_pids(self) -> None:
        self.pids = frozenset(w.process.pid for w in self._workers if w and w.process.pid)

    async def warm(self) -> None:
        """Start every worker now (a process takes about a second to start and load the art)."""
        await asyncio.gather(*(self._on(index).call(os.getpid) for index in range(self.workers)))
        self._note_pids()

    def close(self) -> None:
        for index, worker in enumerate(self._workers):
            if worker is not None:
                worker.close()
                self._workers[index] = None
