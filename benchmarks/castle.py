"""The Castle benchmark: random 2-player games per second (run: python -m benchmarks.castle).

Each game plays uniformly random legal moves (placements, subjects or pass, wall tiles 1-3 when
legal) to the end, final scoring included. Prints games per second, the median and p90 time per
game, the median time to replay a full record, and a few figures of the games themselves.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine import CastleGame, Game, Setup
from engine.cli import play_random


def random_game(seed: int) -> tuple[CastleGame, float]:
    started = time.perf_counter()
    game = Game(Setup(players=("Black", "White"), game="castle", seed=seed))
    assert isinstance(game, CastleGame)
    play_random(game, random.Random(seed))
    return game, (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for seed in range(5):  # warm the per-kind fit tables, as a running bot would have
        random_game(10_000 + seed)

    game_ms: list[float] = []
    scores: list[int] = []
    walls_taken = 0
    discarded = 0
    records = []
    started = time.perf_counter()
    for index in range(args.games):
        game, elapsed = random_game(args.seed + index)
        game_ms.append(elapsed)
        scores.extend(game.scores)
        walls_taken += sum(len(game.wall_hand(p)) + len(game.played[p]) for p in (0, 1))
        discarded += len(game.discarded)
        if index < 50:
            records.append(game.record())
    wall_clock = time.perf_counter() - started

    replay_ms = []
    for record in records:
        begun = time.perf_counter()
        Game.from_record(record)
        replay_ms.append((time.perf_counter() - begun) * 1000)

    figures = {
        "games": args.games,
        "games_per_second": round(args.games / wall_clock, 1),
        "median_ms_per_game": round(statistics.median(game_ms), 3),
        "p90_ms_per_game": round(statistics.quantiles(game_ms, n=10)[-1], 3),
        "median_ms_to_replay_full_record": round(statistics.median(replay_ms), 3),
        "mean_score": round(statistics.fmean(scores), 2),
        "mean_wall_tiles_taken_per_game": round(walls_taken / args.games, 2),
        "mean_tiles_discarded_per_game": round(discarded / args.games, 2),
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
