"""Fault injection: a storage whose k-th call fails, before it runs or after it ran.

Tests and benchmarks use it to show that no failure leaves anything half-done: every await of a
storage call is a place where a dropped connection, a full disk or a killed server raises, and
a failure *after* a write's commit (the answer lost on its way back) is the hardest one, since
the caller cannot tell it from a write that never happened.

>>> faults = Faults(storage)                 # doctest: +SKIP
>>> faults.arm(3, "after")                   # the 3rd call from now runs, then raises
>>> await manager.play_turn(...)             # doctest: +SKIP
>>> faults.calls                             # every call since arm(), by method name

:class:`Faults` wraps every call of :class:`~bot.storage.sql.Storage` (each coroutine method
but ``close`` and ``listen``, found by inspection: :data:`~bot.storage.sql.CALLS`) on the
storage object itself, so whatever holds that object (a manager, a scheduler) goes through it,
and it counts each call: a test asserts how many calls an operation made, so a call the wrapper
did not see cannot go untested. A call is the unit because it is what the manager awaits: one
transaction, or one read. A failure inside a transaction rolls it back, which is what
``before`` gives; ``after`` is a transaction committed whose answer is lost.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from bot.storage.sql import CALLS, Storage

#: Where a call fails: before it runs (nothing done), or after it ran (done, answer lost).
Point = Literal["before", "after"]
POINTS: tuple[Point, ...] = ("before", "after")
#: The storage calls that can fail: every coroutine method of the storage but ``close`` and
#: ``listen``.
METHODS = CALLS


class InjectedFault(ConnectionError):
    """The failure :class:`Faults` injects, raised as a dropped connection would be."""


class Faults:
    """Counts the calls of ``storage`` and fails the one chosen by :meth:`arm`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: The methods called since :meth:`arm`, in order.
        self.calls: list[str] = []
        #: The call that failed since :meth:`arm` (its number and method), if any.
        self.fired: tuple[int, str] | None = None
        self._at: int | None = None
        self._point: Point = "before"
        self._counting = False
        for name in METHODS:
            setattr(storage, name, self._wrap(name, getattr(storage, name)))

    def arm(self, at: int | None = None, point: Point = "before") -> None:
        """Count calls from now on; with ``at``, the ``at``-th of them (from 1) fails at
        ``point``. Later calls run normally."""
        self.calls = []
        self.fired = None
        self._at, self._point = at, point
        self._counting = True

    def disarm(self) -> list[str]:
        """Stop counting and failing; the calls made since :meth:`arm`."""
        self._at, self._counting = None, False
        return list(self.calls)

    def _wrap(
        self, name: str, real: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(real)
        async def call(*args: Any, **kwargs: Any) -> Any:
            if not self._counting:
                return await real(*args, **kwargs)
            self.calls.append(name)
            if self._at != len(self.calls):
                return await real(*args, **kwargs)
            self.fired = (len(self.calls), name)
            if self._point == "after":
                await real(*args, **kwargs)
            raise InjectedFault(f"injected: call {len(self.calls)} ({name}), {self._point}")

        return call
