"""Game reviews on worker processes, never on the event loop: one tile decision per task.

A review values every tile decision of a finished game against the best the expert finds
(:mod:`ai.review`), about a second each at the review's budget: the pool sends each decision
(:func:`appraise`) to a worker as its own task, so that the workers share a review between
them and a review's progress is the count of decisions done. Workers are spawned (no fork of a
process with threads), their number is the setting ``REVIEW_WORKERS``; ``workers=0`` appraises
in one thread of this process instead (still off the event loop; for tests that are not about
the workers).

Reviews take their turn: one review is appraised at a time, its decisions spread over every
worker, and the others wait on the event loop in the order they came, so that one review's
decisions never queue behind another's and the first asked is the first posted (two reviews
at once would each take twice as long).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ai.review import Moment

log = logging.getLogger(__name__)


def count_decisions(record: dict[str, Any]) -> int:
    """How many tile decisions the record holds (in a worker: it replays the record)."""
    from ai.review import decisions

    return len(decisions(record))


def appraise(record: dict[str, Any], number: int, budget: int) -> Moment:
    """Decision ``number`` of the record, valued at ``budget`` (in a worker)."""
    from ai.review import appraise_at

    return appraise_at(record, number, budget)


def _warm() -> bool:
    import ai.review  # noqa: F401
    import engine  # noqa: F401

    return True


class ReviewWorkers:
    """A pool of worker processes appraising reviews' decisions, one decision per task."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: Executor | None = None
        #: One review at a time: the others wait their turn, first come first served.
        self._turns = asyncio.Lock()

    def start(self) -> None:
        """Spawn the workers (at the first review: a bot that reviews nothing starts none)."""
        if self._pool is not None:
            return
        if self.workers <= 0:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
            return
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        for _ in range(self.workers):
            pool.submit(_warm)
        self._pool = pool

    async def review(
        self,
        record: dict[str, Any],
        budget: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[Moment, ...]:
        """Every tile decision of ``record`` appraised at ``budget``, in the record's order;
        ``progress(done, total)`` is called on the event loop as decisions are done (first
        with 0 done once the decisions are counted)."""
        async with self._turns:
            self.start()
            assert self._pool is not None
            loop = asyncio.get_running_loop()
            total = await loop.run_in_executor(self._pool, count_decisions, record)
            done = 0
            if progress is not None:
                progress(done, total)
            jobs = [
                asyncio.wrap_future(self._pool.submit(appraise, record, number, budget))
                for number in range(total)
            ]

            def one_done(_: Any) -> None:
                nonlocal done
                done += 1
                if progress is not None:
                    progress(done, total)

            for job in jobs:
                job.add_done_callback(one_done)
            try:
                return tuple(await asyncio.gather(*jobs))
            except BaseException:
                for job in jobs:
                    job.cancel()
                raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
