"""Pictures on every core: a pool of render worker processes (see :mod:`renderer.jobs`).

Rendering in threads of the bot's process is capped by the GIL at about one core and its
garbage collections pause the event loop; a pool of processes sized to the machine draws
every picture the bot sends beside it instead. Workers start with the bot (``warm``) and load the
tile art cache, so the first picture in each is fast. ``workers=0`` draws in a thread of the
bot's process (tests, small machines).

Each game has a home worker: its pictures go to the same process, which keeps the game's state
from its last picture and plays only the moves since (:mod:`renderer.recent`), where another
worker would replay the whole record. A job leaves its home only when the home has
:data:`SLACK` more pictures waiting than the least busy worker, so a burst still spreads over
every core. A worker that dies is replaced, and the job it held is drawn again once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import zlib
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import collector
from renderer.jobs import Job, ready, run

#: Pictures a game's home worker may have waiting beyond the least busy worker's before the
#: game's next picture goes elsewhere (a replay of its record there, about 2 ms).
SLACK = 2


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))


def start_worker(art_cache: str | None) -> None:
    """A worker's start: its tile art loaded, then its collector settled (see bot.collector)."""
    ready(art_cache)
    collector.settle()


def home_of(record: Mapping[str, Any], workers: int) -> int | None:
    """The worker a game's pictures go to, from what names the game in its record (family,
    seed, seats), the same in every process; None for a job with no game (statistics)."""
    if not record:
        return None
    name = f"{record.get('game')}|{record.get('seed')}|{record.get('players')}"
    return zlib.crc32(name.encode()) % workers


class RenderPool:
    def __init__(self, workers: int, art_cache: str | None = None) -> None:
        self.workers = workers
        self.art_cache = art_cache
        #: The workers' process ids, once :meth:`warm` has started them (for monitoring).
        self.pids: frozenset[int] = frozenset()
        self._workers: list[ProcessPoolExecutor | None] = [None] * workers
        self._waiting = [0] * workers
        self._pids = [0] * workers
        self._closed = False
        for index in range(workers):
            self._start(index)

    def _start(self, index: int) -> ProcessPoolExecutor:
        worker = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
            initargs=(self.art_cache,),
        )
        self._workers[index] = worker
        return worker

    def _choose(self, job: Job) -> int:
        least = min(range(self.workers), key=self._waiting.__getitem__)
        home = home_of(job.record, self.workers)
        if home is None or self._waiting[home] > self._waiting[least] + SLACK:
            return least
        return home

    async def draw(self, job: Job) -> tuple[bytes, tuple[str, ...]]:
        """The PNG of ``job`` and the letters left outside it, drawn in a worker."""
        if self.workers <= 0:
            return await asyncio.to_thread(run, job)
        index = self._choose(job)
        self._waiting[index] += 1
        try:
            try:
                return await self._on(index, job)
            except BrokenProcessPool:
                # The worker died (killed, out of memory): a new one draws the job once more.
                await self._pid_of(index)
                return await self._on(index, job)
        finally:
            self._waiting[index] -= 1

    async def _on(self, index: int, job: Job) -> tuple[bytes, tuple[str, ...]]:
        worker = self._workers[index]
        if worker is None:
            raise RuntimeError("the render pool is closed")
        try:
            return await asyncio.get_running_loop().run_in_executor(worker, run, job)
        except BrokenProcessPool:
            if self._workers[index] is worker and not self._closed:  # not replaced yet
                worker.shutdown(wait=False, cancel_futures=True)
                self._start(index)
            raise

    async def _pid_of(self, index: int) -> None:
        """Start worker ``index`` now and note its process id."""
        worker = self._workers[index]
        if worker is not None:
            pid = await asyncio.get_running_loop().run_in_executor(worker, os.getpid)
            self._pids[index] = pid
            self.pids = frozenset(p for p in self._pids if p)

    async def warm(self) -> None:
        """Start every worker now (a process takes about a second to start and load the art)."""
        await asyncio.gather(*(self._pid_of(index) for index in range(self.workers)))

    def close(self) -> None:
        self._closed = True
        for index, worker in enumerate(self._workers):
            if worker is not None:
                worker.shutdown(wait=False, cancel_futures=True)
                self._workers[index] = None
