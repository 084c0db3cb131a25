"""Garbage collection for a process holding thousands of live games (the bot, a render worker).

With 2,000 games kept (about 400 tracked objects each) a full collection scans a million
objects, and CPython runs one whenever the objects promoted to its oldest generation since the
last grow by a quarter. At the default young threshold (700 allocations) a move's short-lived
objects (the copy of its game drawn meanwhile, the database rows) are often still alive at a
young collection and get promoted, so full collections came every few hundred moves: 1.4 ms of
the bot's CPU per move in ``benchmarks.load`` and pauses of a second. A young threshold of
50,000 lets them die young first; the objects of the start-up (modules, tile tables, catalogs)
are frozen out of every later collection.
"""

from __future__ import annotations

import gc

#: Allocations between two young collections (CPython's default: 700).
YOUNG = 50_000


def settle() -> None:
    """Freeze what the start-up built and collect young objects less often; call once, after
    the start-up's imports and caches."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
