"""The game review's speed and what it tells of the levels (run: python -m benchmarks.review
[speed] [levels --games N] [--jobs 2] [--seed S]), one JSON line per part.

- ``speed``: the seconds to review a 72-tile 2-player base game (classic farmers; hard against
  medium, deal ``--seed``) at :data:`ai.review.REVIEW_BUDGET` with ``--jobs`` worker processes
  (the issue's target: 60 s or less with 2 jobs on this 2-core machine), wall time and the CPU
  seconds of the workers and of this process.
- ``levels``: ``--games`` 3-player base games of the expert, hard and medium levels, their
  seats turned one step each game (every level plays every game), each reviewed at four times
  the expert's play budget (:data:`ai.expert.BUDGETS`); per level, the accuracy (share of
  its decisions within a point of the best) and the points lost per turn, each as the mean over
  the games with a 95 % interval (1.96 standard errors of the per-game values), and the
  accuracy over all its decisions with its Wilson 95 % interval. The target: accuracy expert >
  hard > medium over 20 games (about an hour of CPU: 20 games of 70 decisions at 80,000
  positions, and the expert's own play).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ai import make_player
from ai.arena import wilson
from ai.expert import BUDGETS
from ai.review import ACCURATE_WITHIN, REVIEW_BUDGET, review
from engine import Game, Setup

CLASSIC = {"farmers": "classic"}
#: The levels compared, seated in this order in the first game.
LEVELS = ("expert", "hard", "medium")
#: The review budget of ``levels``: four times the expert's.
LEVELS_BUDGET = 4 * BUDGETS["carcassonne"]


def play(levels: tuple[str, ...], seed: int) -> dict[str, Any]:
    """The record of a base game (classic farmers) of ``levels``, seat by seat, deal ``seed``."""
    names = tuple(f"{level.title()} {seat + 1}" for seat, level in enumerate(levels))
    game = Game(Setup(players=names, seed=seed, options=CLASSIC))
    players = [make_player(level, seed=seed * 10 + s) for s, level in enumerate(levels)]
    while not game.finished:
        seat = game.actor
        game.play(players[seat].choose(game, seat))
    return game.record()


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def speed(seed: int, jobs: int) -> dict[str, Any]:
    record = play(("hard", "medium"), seed)
    (own, children), started = _cpu(), time.perf_counter()
    result = review(record, REVIEW_BUDGET, jobs=jobs)
    wall = time.perf_counter() - started
    own_after, children_after = _cpu()
    return {
        "part": "speed",
        "budget": REVIEW_BUDGET,
        "jobs": jobs,
        "decisions": len(result.moments),
        "wall_seconds": round(wall, 1),
        "cpu_seconds_workers": round(children_after - children, 1),
        "cpu_seconds_main": round(own_after - own, 1),
        "target": "wall <= 60 s with 2 jobs",
    }


def _seated(game: int) -> tuple[str, ...]:
    turn = game % len(LEVELS)
    return LEVELS[turn:] + LEVELS[:turn]


def _play_job(args: tuple[tuple[str, ...], int]) -> dict[str, Any]:
    return play(*args)


def levels(games: int, seed: int, jobs: int) -> dict[str, Any]:
    seatings = [_seated(g) for g in range(games)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        records = list(pool.map(_play_job, [(s, seed + g) for g, s in enumerate(seatings)]))
    per_game: dict[str, list[tuple[float, float]]] = {level: [] for level in LEVELS}
    decisions = dict.fromkeys(LEVELS, 0)
    accurate = dict.fromkeys(LEVELS, 0)
    started = time.perf_counter()
    for seating, record in zip(seatings, records, strict=True):
        result = review(record, LEVELS_BUDGET, jobs=jobs)
        for player in result.players:
            level = seating[player.seat]
            per_game[level].append((player.accuracy, player.lost_per_turn))
        for moment in result.moments:
            if moment.counted:
                level = seating[moment.seat]
                decisions[level] += 1
                accurate[level] += moment.loss <= ACCURATE_WITHIN
    rows = {}
    for level in LEVELS:
        accuracy = [a for a, _ in per_game[level]]
        lost = [b for _, b in per_game[level]]
        low, high = wilson(accurate[level], decisions[level])
        rows[level] = {
            "accuracy": _mean_interval(accuracy, 4),
            "lost_per_turn": _mean_interval(lost, 2),
            "decisions": decisions[level],
            "accuracy_all_decisions": round(accurate[level] / max(1, decisions[level]), 4),
            "accuracy_wilson_95": [round(low, 4), round(high, 4)],
        }
    return {
        "part": "levels",
        "games": games,
        "budget": LEVELS_BUDGET,
        "levels": rows,
        "review_wall_seconds": round(time.perf_counter() - started),
        "target": "accuracy expert > hard > medium over 20 games",
    }


def _mean_interval(values: list[float], digits: int) -> list[float]:
    """The mean of ``values`` and its 95 % interval (1.96 standard errors)."""
    mean = statistics.fmean(values)
    spread = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return [round(mean, digits), round(mean - spread, digits), round(mean + spread, digits)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("parts", nargs="*", choices=("speed", "levels"), default=["speed"])
    parser.add_argument("--games", type=int, default=20, help="games of the levels part")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for part in args.parts:
        if part == "speed":
            print(json.dumps(speed(args.seed, args.jobs)), flush=True)
        else:
            print(json.dumps(levels(args.games, args.seed, args.jobs)), flush=True)


if __name__ == "__main__":
    main()
