"""Pictures on every core: a pool of render worker processes (see :mod:`renderer.jobs`).

Rendering in threads of the bot's process is capped by the GIL at about one core and its
garbage collections pause the event loop; a pool of processes sized to the machine draws
every picture the bot sends beside it instead. Workers start with the bot (``warm``) and load the
tile art cache, so the first picture in each is fast. ``workers=0`` draws in a thread of the
bot's process (tests, small machines).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from bot import collector
from renderer.jobs import Job, ready, run


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))


def start_worker(art_cache: str | None) -> None:
    """A worker's start: its tile art loaded, then its collector settled (see bot.collector)."""
    ready(art_cache)
    collector.settle()


class RenderPool:
    def __init__(self, workers: int, art_cache: str | None = None) -> None:
        self.workers = workers
        #: The workers' process ids, once :meth:`warm` has started them (for monitoring).
        self.pids: frozenset[int] = frozenset()
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            self._pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=start_worker,
                initargs=(art_cache,),
            )

    async def draw(self, job: Job) -> tuple[bytes, tuple[str, ...]]:
        """The PNG of ``job`` and the letters left outside it, drawn in a worker."""
        if self._pool is None:
            return await asyncio.to_thread(run, job)
        return await asyncio.get_running_loop().run_in_executor(self._pool, run, job)

    async def warm(self) -> None:
        """Start every worker now (a process takes about a second to start and load the art)."""
        if self._pool is None:
            return
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(
            *(loop.run_in_executor(self._pool, os.getpid) for _ in range(self.workers))
        )
        # One worker may answer for another still starting: the pool knows the processes it runs.
        running = getattr(self._pool, "_processes", None) or {}
        self.pids = frozenset(pids) | frozenset(running)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
