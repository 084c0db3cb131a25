"""The chess clocks' alarm: wakes the scheduler when the next bank runs out.

The scheduler ticks every ``SCHEDULER_SECONDS`` (30 s by default), which is plenty for turns of
hours and too coarse for a live game's bank of minutes. The alarm reads the soonest chess-clock
time from storage (:meth:`bot.storage.sql.Storage.next_clock_due`: a running clock's deadline, or
an agreed pause's end), sleeps until then, and runs :meth:`bot.scheduler.Scheduler.tick_clocks`.
Every change of the stored timers wakes it to read again (:meth:`Alarm.poke`, called by the
manager's listener); with no chess clock stored it stops until the next change. The time itself
is never kept here: after a restart the alarm starts from what is stored, and the regular ticks
still fire a clock the alarm missed (one started by another bot process on a shared database).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.scheduler import Scheduler

log = logging.getLogger(__name__)

#: A little after the time itself, so that the deadline is due when the tick reads it.
MARGIN = 0.25
#: The longest sleep between two looks at storage (another bot process may start a clock).
LONGEST = 300.0


class Alarm:
    """One background task that ticks the scheduler's clocks when they come due.

    It waits with a plain ``asyncio.sleep`` (which test clocks can simulate); :meth:`poke`
    interrupts that sleep by cancelling it, and the loop reads the stored timers again.
    """

    def __init__(self, scheduler: Scheduler, *, clock: Callable[[], float] | None = None) -> None:
        self.scheduler = scheduler
        self.clock = clock or scheduler.clock
        self._task: asyncio.Task[None] | None = None
        self._dirty = False  # the timers changed since the last read
        self._sleeping = False
        self._poked = False  # the sleep in progress was cancelled by a poke, not by stop()
        self._stopping = False
        self._enabled = False  # between start() and stop()

    def poke(self) -> None:
        """The stored timers changed: look again at when the next clock runs out (starting
        the alarm again if it had stopped for want of a clock)."""
        self._dirty = True
        if self._enabled and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self.run(), name="carcassonne-clock-alarm")
        elif self._task is not None and self._sleeping and not self._poked:
            self._poked = True
            self._task.cancel()

    def start(self) -> asyncio.Task[None]:
        self._enabled = True
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name="carcassonne-clock-alarm")
        return self._task

    async def stop(self) -> None:
        self._enabled = False
        task, self._task = self._task, None
        if task is not None:
            self._stopping = True
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run(self) -> None:
        while True:
            self._dirty = False
            try:
                due = await self.scheduler.storage.next_clock_due()
            except Exception:
                log.exception("the clock alarm could not read the next clock; retrying")
                due = self.clock() + LONGEST / 10
            if self._dirty:  # changed while it was read: read again
                continue
            if due is None:  # no chess clock: nothing to wait for until the next poke
                return
            wait = min(LONGEST, max(0.0, due - self.clock()) + MARGIN)
            self._sleeping = True
            try:
                await asyncio.sleep(wait)
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if not self._poked or self._stopping or current is None:
                    raise
                current.uncancel()  # a poke: read the timers again
                continue
            finally:
                self._sleeping = self._poked = False
            if due is not None and due <= self.clock():
                await self.scheduler.tick_clocks()
