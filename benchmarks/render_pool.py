"""Renders per second with 1 and 2 render worker processes (run: python -m benchmarks.render_pool).

The jobs are the per-move pictures the bot posts (the phone turn picture with lettered squares)
of mid-game boards of every game family, sent all at once as a busy bot would. The tile art cache
is built and every tile picture the jobs need drawn once first, as on a machine where the bot has
run for a while; each pool is started and warmed (cache loaded, as in the bot), and the
throughput is measured over ``--jobs`` pictures, a first pass (tile pictures read from the
cache's folder) and a steady second pass, ``--rounds`` times with 1 and 2 workers in turn (the
median of the steady rounds is printed, with every round's figure). For reference, the same is
measured for a pure Python loop in 1 and 2 processes: the speed-up this machine gives two
processes that share nothing. The CPU a picture costs, in this process (the bot's, sending jobs
and reading pictures) and in the workers, is printed too: unlike the rates, it holds on a busy
machine. So is how busy the pool kept its workers (their CPU over the workers times the steady
pass's wall time): near 1 with 2 workers, a speed-up short of 2 comes from each picture costing
more CPU while two run at once (the machine's shared caches and other tenants), not from a
worker waiting.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.load import cpu_seconds
from bot.render_pool import RenderPool
from engine import Game, Pass, Setup
from renderer import artcache
from renderer.jobs import Job, run
from renderer.options import RenderOptions

KINDS = (("carcassonne", ()), ("carcassonne", ("abbey_mayor",)), ("hunters", ()), ("castle", ()))


def jobs(count: int) -> list[Job]:
    rng = random.Random(1)
    made = []
    for n in range(count):
        name, expansions = KINDS[n % len(KINDS)]
        players = ("a", "b") if name == "castle" else ("a", "b", "c")
        game = Game(Setup(players=players, seed=n, game=name, expansions=expansions))
        for _ in range(rng.randrange(20, 60)):
            if game.finished:
                break
            if game.phase.value == "tile":
                game.play(rng.choice(game.legal_placements()))
            else:
                game.play(Pass())
        spots = sorted({(p.x, p.y) for p in game.legal_placements()})[:20] if game.tile else []
        letters = {spot: chr(65 + i) for i, spot in enumerate(spots)}
        made.append(Job("turn", game.record(), RenderOptions(), (), letters))
    return made


async def measure(
    workers: int, work: list[Job], art: str
) -> tuple[float, float, float, float, float]:
    """Pictures per second of a new pool over ``work``: its first pass (tile pictures read
    from the art cache's folder into each worker's memory) and a second, steady pass; the
    steady pass's CPU per picture in milliseconds, of this process (sending the jobs, reading
    the pictures) and of the workers; and the workers' busy share in that pass (their CPU over
    ``workers`` times its wall time)."""
    pool = RenderPool(workers, art)
    try:
        await pool.warm()
        rates = []
        for _ in range(2):
            own, _, drawing = cpu_seconds(pool.pids)
            started = time.perf_counter()
            await asyncio.gather(*(pool.draw(job) for job in work))
            wall = time.perf_counter() - started
            rates.append(len(work) / wall)
        own_after, _, drawing_after = cpu_seconds(pool.pids)
        per = 1000 / len(work)
        busy = (drawing_after - drawing) / (workers * wall)
        return rates[0], rates[1], (own_after - own) * per, (drawing_after - drawing) * per, busy
    finally:
        pool.close()


def spin(count: int) -> int:
    """Pure Python work that shares nothing (the machine's own two-process reference)."""
    total = 0
    for n in range(count):
        total += n * n % 7
    return total


def reference(workers: int, pieces: int = 16, count: int = 2_000_000) -> float:
    """Pieces of :func:`spin` per second in ``workers`` processes."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        list(pool.map(spin, [1000] * workers))  # the processes started
        started = time.perf_counter()
        list(pool.map(spin, [count] * pieces))
        return pieces / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = jobs(args.jobs)
    firsts: list[tuple[float, float]] = []
    steady: list[tuple[float, float]] = []
    #: Per pool size, each steady pass's CPU per picture (bot, workers) and busy share.
    costs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as art:
        artcache.warm(Path(art))  # as the bot's workers start: the tile art cache loaded
        for job in work:  # every tile picture drawn once on this machine, as in a running bot
            run(job)
        for _ in range(args.rounds):
            one_first, one, *cost_one = asyncio.run(measure(1, work, art))
            two_first, two, *cost_two = asyncio.run(measure(2, work, art))
            firsts.append((one_first, two_first))
            steady.append((one, two))
            costs[1].append((cost_one[0], cost_one[1], cost_one[2]))
            costs[2].append((cost_two[0], cost_two[1], cost_two[2]))
    spins = [(reference(1), reference(2)) for _ in range(args.rounds)]
    every = costs[1] + costs[2]
    one = statistics.median(a for a, _ in steady)
    two = statistics.median(b for _, b in steady)
    print(
        json.dumps(
            {
                "pictures": len(work),
                "rounds": args.rounds,
                "renders_per_s_1_worker": round(one, 1),
                "renders_per_s_2_workers": round(two, 1),
                "speed_up": round(two / one, 2),
                "speed_up_each_round": [round(b / a, 2) for a, b in steady],
                "first_pass_renders_per_s": [[round(a, 1), round(b, 1)] for a, b in firsts],
                "first_pass_speed_up": [round(b / a, 2) for a, b in firsts],
                "machine_speed_up_pure_python": [round(b / a, 2) for a, b in spins],
                "cpu_ms_per_picture_bot": round(statistics.median(c[0] for c in every), 2),
                "cpu_ms_per_picture_workers": round(statistics.median(c[1] for c in every), 2),
                "cpu_ms_per_picture_1_worker_2_workers": [
                    round(statistics.median(c[1] for c in costs[n]), 2) for n in (1, 2)
                ],
                "workers_busy_share_1_worker_2_workers": [
                    round(statistics.median(c[2] for c in costs[n]), 3) for n in (1, 2)
                ],
            }
        )
    )


if __name__ == "__main__":
    main()
