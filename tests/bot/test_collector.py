"""A render worker's C heap handed back to the system (bot.collector.Trim)."""

from __future__ import annotations

import os
import sys

import pytest

from bot import collector


def resident_mb() -> float:
    with open(f"/proc/{os.getpid()}/statm") as stats:
        return int(stats.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_a_trim_comes_at_most_every_few_seconds() -> None:
    now = [100.0]
    trim = collector.Trim(2.0, clock=lambda: now[0])
    trimmed = trim.due()
    now[0] += 1.9
    assert not trimmed and not trim.due() and trim.done == 0
    now[0] += 0.2
    expected = collector._malloc_trim() is not None
    assert trim.due() is expected and trim.done == int(expected)
    assert not trim.due()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim, Linux")
def test_a_trim_gives_back_the_pages_freed_below_the_heaps_top() -> None:
    # Blocks freed below one still held stay in the process (free() gives back only the heap's
    # top): what Pillow's image buffers did to a render worker. A trim gives them back.
    assert collector._malloc_trim() is not None
    blocks = [bytes(100_000) for _ in range(600)]  # about 60 MB, below the mmap threshold
    kept = blocks[-1]
    del blocks
    held = resident_mb()
    now = [0.0]
    trim = collector.Trim(1.0, clock=lambda: now[0])
    now[0] = 5.0
    assert trim.due()
    assert held - resident_mb() > 30, (held, resident_mb())
    assert len(kept) == 100_000
