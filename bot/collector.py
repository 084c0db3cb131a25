"""Garbage collection for a process holding thousands of live games (the bot, a render worker).

With 2,000 games kept (about 400 tracked objects each) a full collection scans a million
objects, and CPython runs one whenever the objects promoted to its oldest generation since the
last grow by a quarter. At the default young threshold (700 allocations) a move's short-lived
objects (the copy of its game drawn meanwhile, the database rows) are often still alive at a
young collection and get promoted, so full collections came every few hundred moves: 1.4 ms of
the bot's CPU per move in ``benchmarks.load`` and pauses of a second. A young threshold of
50,000 lets them die young first; the objects of the start-up (modules, tile tables, catalogs)
are frozen out of every later collection.

A render worker's pictures come and go in C memory (Pillow's image buffers) that the C library
keeps for reuse once freed, so a worker grew by hundreds of megabytes over a run and never gave
them back: :class:`Trim` hands the free pages back to the system every few seconds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable

#: Allocations between two young collections (CPython's default: 700).
YOUNG = 50_000


def settle() -> None:
    """Freeze what the start-up built and collect young objects less often; call once, after
    the start-up's imports and caches."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


#: Seconds between two trims of a worker's C heap (:class:`Trim`).
TRIM_SECONDS = 2.0


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (macOS, musl)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        return libc.malloc_trim if libc is not None else None
    except (OSError, AttributeError):
        return None


class Trim:
    """Gives the C heap's free pages back to the system (glibc's ``malloc_trim``), at most
    every ``seconds``: call :meth:`due` after each piece of work. About a millisecond a trim;
    nothing where the C library cannot."""

    def __init__(self, seconds: float = TRIM_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self._clock = clock
        self._trim = _malloc_trim()
        self._last = clock()
        #: Trims done.
        self.done = 0

    def due(self) -> bool:
        """Trim if the last trim is ``seconds`` old; whether it trimmed."""
        now = self._clock()
        if self._trim is None or now - self._last < self.seconds:
            return False
        self._trim(0)
        self._last = now
        self.done += 1
        return True
