"""Learn the heuristic's weights from games: ``python -m ai.fit --games 400``.

Plays games between the current medium player and the greedy one (both seats), records at each
tile decision every player's :data:`ai.evaluate.COMPONENTS`, and fits by least squares (a
little ridge) the weights whose weighted difference (the player minus the best other) best
predicts the final score margin. Prints the weights as JSON, to paste into
:data:`ai.evaluate.DEFAULT_WEIGHTS`. The fit is deterministic for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from ai.evaluate import COMPONENTS, Heuristic
from ai.levels import make_player
from ai.players import OnePlyPlayer
from engine import Game, Phase, Setup

Sample = tuple[list[float], float]


def samples_of_game(seed: int, weights: dict[str, float]) -> list[Sample]:
    """One game (medium in seat ``seed % 2`` against greedy): the component differences of
    each position, with the final margin, for both seats."""
    heuristic = Heuristic(weights=weights)
    medium_seat = seed % 2
    players = [
        OnePlyPlayer("medium", heuristic.values, 1, seed)
        if seat == medium_seat
        else make_player("greedy", seed + 1)
        for seat in range(2)
    ]
    game = Game(Setup(players=("A", "B"), seed=seed, options={"farmers": "classic"}))
    positions: list[list[dict[str, float]]] = []
    while not game.finished:
        if game.phase is Phase.TILE:
            positions.append(heuristic.components(game))
        seat = game.actor
        game.play(players[seat].choose(game, seat))
    final = game.scores
    found: list[Sample] = []
    for parts in positions:
        for seat in range(2):
            other = 1 - seat
            diff = [parts[seat][name] - parts[other][name] for name in COMPONENTS]
            found.append((diff, float(final[seat] - final[other])))
    return found


def least_squares(samples: Sequence[Sample], ridge: float = 1.0) -> list[float]:
    """Weights minimising the squared error plus ``ridge`` times their squares."""
    size = len(COMPONENTS)
    matrix = [[0.0] * size for _ in range(size)]
    vector = [0.0] * size
    for row, target in samples:
        for i in range(size):
            vector[i] += row[i] * target
            for j in range(size):
                matrix[i][j] += row[i] * row[j]
    for i in range(size):
        matrix[i][i] += ridge
    return solve(matrix, vector)


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        if lead == 0:
            continue
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col] / lead
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][size] / rows[i][i] if rows[i][i] else 0.0 for i in range(size)]


def _job(args: tuple[int, dict[str, float]]) -> list[Sample]:
    return samples_of_game(*args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.fit", description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    weights = Heuristic().weights
    tasks = [(args.seed + i, weights) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        samples = [s for found in pool.map(_job, tasks, chunksize=4) for s in found]
    fitted = least_squares(samples)
    print(json.dumps({name: round(w, 3) for name, w in zip(COMPONENTS, fitted, strict=True)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
