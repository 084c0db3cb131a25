"""The live board's tap count (``benchmarks.board_taps``): a typical turn of every family in 3
taps or fewer, the square included, and none over 4, counted as the page enters each move."""

from __future__ import annotations

import statistics

import pytest

from benchmarks.board_taps import FAMILIES, Counts, play


@pytest.mark.parametrize(("family", "setup", "players"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_a_turn_on_the_board_takes_few_taps(
    family: str, setup: dict[str, object], players: int
) -> None:
    counts = Counts()
    play(dict(setup), players, 1, counts)
    assert len(counts.taps) > 20
    assert statistics.median(counts.taps) <= 3, family
    assert max(counts.taps) <= 4, (family, counts.worst)
    # Turning the tile by tapping it alone would cost more: the rotation buttons save it.
    assert max(counts.turning) >= max(counts.taps)
