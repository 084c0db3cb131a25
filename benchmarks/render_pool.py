"""Renders per second with 1 and 2 render worker processes (run: python -m benchmarks.render_pool).

The jobs are the per-move pictures the bot posts (the phone turn picture with lettered squares)
of mid-game boards of every game family, sent all at once as a busy bot would; each pool is
started and warmed first (tile art cache loaded, as in the bot), and the throughput is measured
over ``--jobs`` pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from bot.render_pool import RenderPool
from engine import Game, Pass, Setup
from renderer import artcache
from renderer.jobs import Job
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


async def measure(workers: int, work: list[Job], art: str) -> float:
    pool = RenderPool(workers, art)
    try:
        await pool.warm()
        await asyncio.gather(*(pool.draw(job) for job in work[: workers * 2]))  # art warmed
        started = time.perf_counter()
        await asyncio.gather(*(pool.draw(job) for job in work))
        return len(work) / (time.perf_counter() - started)
    finally:
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=120)
    args = parser.parse_args()
    work = jobs(args.jobs)
    with tempfile.TemporaryDirectory() as art:
        artcache.warm(Path(art))  # as the bot's workers start: the tile art cache loaded
        one = asyncio.run(measure(1, work, art))
        two = asyncio.run(measure(2, work, art))
    print(
        json.dumps(
            {
                "pictures": len(work),
                "renders_per_s_1_worker": round(one, 1),
                "renders_per_s_2_workers": round(two, 1),
                "speed_up": round(two / one, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
