"""Engine benchmark: prints the figures of the engine issue (run: python -m benchmarks.engine).

- median ms per random 2-player base game (farmers, full final scoring), random legal moves;
- mean legal placements per turn;
- median us per legal-placement query mid-game (listing every placement of the current tile);
- median ms to replay a full game record;
- peak memory of one game (tracemalloc) and of the process (max RSS);
- median ms per random 2-player game with the Abbey & Mayor expansion (all figure kinds);
- median us to fork a game state mid-game (turn 35; what search does), base and Abbey & Mayor;
- median ms per random 4-player game with the Big Box expansions (Abbey & Mayor, Inns &
  Cathedrals, The River, Traders & Builders; the issue's target: at most 6 ms).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import time
import tracemalloc

from engine import COMPILED, Game, Pass, Phase, Setup
from engine.cli import play_random, random_action

#: The expansions of the 4-player case (Traders & Builders joins them once it is merged).
BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")


def random_game(
    seed: int,
    options: dict[str, object],
    expansions: tuple[str, ...] = (),
    players: int = 2,
    cpu_ms: list[float] | None = None,
) -> tuple[Game, float]:
    """A random game and its wall-clock ms; its CPU ms appended to ``cpu_ms`` if given (on a
    busy or virtual machine, CPU time leaves out the time the process waited for a core)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    names = ("A", "B", "C", "D", "E", "F")[:players]
    game = Game(Setup(players=names, seed=seed, options=options, expansions=expansions))
    play_random(game, random.Random(seed))
    if cpu_ms is not None:
        cpu_ms.append((time.process_time() - cpu_started) * 1000)
    return game, (time.perf_counter() - started) * 1000


def mid_game_queries(seed: int, repeats: int) -> tuple[list[float], list[int]]:
    """Time listing the legal placements at turn 35; also count placements every turn."""
    rng = random.Random(seed)
    game = Game(Setup(players=("A", "B"), seed=seed))
    timings: list[float] = []
    counts: list[int] = []
    while game.phase is not Phase.OVER:
        if game.phase is Phase.TILE:
            view = game.legal_placements()
            counts.append(len(view))
            if game.turn == 35:
                for _ in range(repeats):
                    started = time.perf_counter()
                    listed = list(game.legal_placements())
                    timings.append((time.perf_counter() - started) * 1e6)
                assert len(listed) == counts[-1]
            game.play(view[rng.randrange(len(view))])
        else:
            options = game.legal_figures()
            pick = rng.randrange(len(options) + 1)
            game.play(options[pick] if pick < len(options) else Pass())
    return timings, counts


def fork_timings(seed: int, expansions: tuple[str, ...], repeats: int) -> list[float]:
    """Time ``Game.fork`` at turn 35 of a random game."""
    rng = random.Random(seed)
    game = Game(Setup(players=("A", "B"), seed=seed, expansions=expansions))
    while game.turn < 35 and game.phase is not Phase.OVER:
        game.play(random_action(game, rng))
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        game.fork()
        timings.append((time.perf_counter() - started) * 1e6)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    options: dict[str, object] = {"farmers": "classic"}

    for seed in range(5):  # warm the per-kind fit tables, as a running bot would have
        random_game(10_000 + seed, options)

    game_ms: list[float] = []
    game_cpu_ms: list[float] = []
    records = []
    for index in range(args.games):
        game, elapsed = random_game(args.seed + index, options, cpu_ms=game_cpu_ms)
        game_ms.append(elapsed)
        if index < 50:
            records.append(game.record())

    query_us: list[float] = []
    per_turn: list[int] = []
    for index in range(50):
        timings, counts = mid_game_queries(args.seed + index, 20)
        query_us.extend(timings)
        per_turn.extend(counts)

    replay_ms = []
    for record in records:
        started = time.perf_counter()
        Game.from_record(record)
        replay_ms.append((time.perf_counter() - started) * 1000)

    abbey_mayor_ms = [
        random_game(args.seed + index, options, ("abbey_mayor",))[1] for index in range(args.games)
    ]

    for seed in range(5):  # warm the expansions' fit tables too
        random_game(20_000 + seed, options, BIG_BOX, players=4)
    big_box_cpu_ms: list[float] = []
    big_box_ms = [
        random_game(args.seed + index, options, BIG_BOX, players=4, cpu_ms=big_box_cpu_ms)[1]
        for index in range(args.games)
    ]

    fork_us = [t for index in range(30) for t in fork_timings(args.seed + index, (), 20)]
    fork_am_us = [
        t for index in range(30) for t in fork_timings(args.seed + index, ("abbey_mayor",), 20)
    ]

    tracemalloc.start()
    random_game(args.seed, options)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    figures = {
        # The engine compiled by mypyc (setup.py), or its Python sources (ENGINE_PURE=1).
        "engine_compiled": COMPILED,
        "games": args.games,
        "median_ms_per_game": round(statistics.median(game_ms), 3),
        "p90_ms_per_game": round(statistics.quantiles(game_ms, n=10)[-1], 3),
        "median_cpu_ms_per_game": round(statistics.median(game_cpu_ms), 3),
        "mean_legal_placements_per_turn": round(statistics.fmean(per_turn), 2),
        "median_us_per_placement_query_mid_game": round(statistics.median(query_us), 1),
        "median_ms_to_replay_full_record": round(statistics.median(replay_ms), 3),
        "peak_kib_one_game_tracemalloc": round(peak / 1024, 1),
        "abbey_mayor_median_ms_per_game": round(statistics.median(abbey_mayor_ms), 3),
        "big_box_4p_expansions": list(BIG_BOX),
        "big_box_4p_median_ms_per_game": round(statistics.median(big_box_ms), 3),
        "big_box_4p_p90_ms_per_game": round(statistics.quantiles(big_box_ms, n=10)[-1], 3),
        "big_box_4p_median_cpu_ms_per_game": round(statistics.median(big_box_cpu_ms), 3),
        "median_us_per_fork_mid_game": round(statistics.median(fork_us), 1),
        "abbey_mayor_median_us_per_fork_mid_game": round(statistics.median(fork_am_us), 1),
        "max_rss_mib_process": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
