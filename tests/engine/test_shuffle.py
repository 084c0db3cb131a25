"""The stack's shuffle is the engine's own copy of ``random.Random(seed).shuffle``: every record
ever written depends on that order, so the two must agree for any seed and stack size."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.core.game import shuffle


@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=0, max_value=200))
def test_the_engines_shuffle_is_pythons(seed: int, size: int) -> None:
    pool = [f"T{n}" for n in range(size)]
    expected = list(pool)
    random.Random(seed).shuffle(expected)
    shuffle(pool, seed)
    assert pool == expected
