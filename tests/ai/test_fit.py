"""The weight fit: least squares recovers known weights; one game gives samples."""

from __future__ import annotations

import random

from ai.evaluate import COMPONENTS
from ai.fit import least_squares, samples_of_game, solve


def test_solve_a_small_system() -> None:
    assert [round(x, 9) for x in solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])] == [0.8, 1.4]


def test_least_squares_recovers_the_weights_of_noiseless_data() -> None:
    rng = random.Random(1)
    truth = [rng.uniform(-2, 5) for _ in COMPONENTS]
    samples = []
    for _ in range(400):
        row = [rng.uniform(-10, 10) for _ in COMPONENTS]
        samples.append((row, sum(w * x for w, x in zip(truth, row, strict=True))))
    fitted = least_squares(samples, ridge=0.0)
    assert all(abs(a - b) < 1e-6 for a, b in zip(fitted, truth, strict=True))


def test_a_game_gives_one_sample_per_tile_decision_and_seat() -> None:
    samples = samples_of_game(3, {name: 1.0 for name in COMPONENTS})
    assert len(samples) > 2 * 60
    margins = {target for _, target in samples}
    assert len(margins) <= 2 and {-m for m in margins} == margins  # one margin, both seats
