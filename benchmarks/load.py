"""One bot process serving many play-by-post games, a picture after every move
(run: python -m benchmarks.load [--games 750 2000] [--seconds 60] [--workers 2]).

``--games`` active games spread over every stage of a game (each starts a random number of
moves in), each getting one move every 30 seconds on average (open loop: moves come when due,
whatever the bot's speed), each move followed by the turn picture the bot posts, drawn by the
render worker processes (``RENDER_WORKERS``; tile art cache loaded). Measured, as the bot does
it (game manager on a SQLite file, pictures through ``bot.render_pool``):

- a turn's latency: from the move's arrival to its picture ready (p50, p95);
- the event loop's lateness: a watchdog asks to wake every 10 ms and records how late it is
  (p99, max); a late loop is a bot that answers Discord late;
- the CPU a move costs, the bot's process and its workers together, and so the cores the load
  needs: a figure that holds on a busy machine, where the latencies do not; and its two
  shares, the bot's process (``main``) and the render workers (``workers``);
- the bot's garbage collections (time per move, longest pause) and the processes' memory.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

from bot import collector
from bot.manager import GameManager
from bot.outcomes import TurnView
from bot.render_pool import RenderPool
from bot.storage.sqlite import open_sqlite
from engine import Action, Pass
from renderer import artcache
from renderer.jobs import Job, run
from renderer.options import RenderOptions

MOVE_EVERY = 30.0


def pick(view: TurnView, rng: random.Random) -> Action:
    if view.phase == "tile":
        return view.placements[rng.randrange(len(view.placements))]
    choice = rng.randrange(len(view.figures) + 1)
    return view.figures[choice] if choice < len(view.figures) else Pass()


def cpu_seconds(pids: frozenset[int]) -> tuple[float, float]:
    """CPU time used so far by this process, and by the render workers ``pids`` together
    (Linux's /proc; 0 elsewhere): the work a move costs, whatever else the machine runs."""
    own = os.times()
    workers = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        workers += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return own.user + own.system, workers


def timed_collection(pauses: list[float], started: dict[str, float], phase: str, _: object) -> None:
    """A ``gc.callbacks`` hook adding each garbage collection's length (ms) to ``pauses``."""
    if phase == "start":
        started["at"] = time.perf_counter()
    elif "at" in started:
        pauses.append((time.perf_counter() - started.pop("at")) * 1000)


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` (Linux's /proc; 0 elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def serve(
    folder: Path, games: int, seconds: float, workers: int, art: str
) -> dict[str, object]:
    manager = GameManager(await open_sqlite(folder / f"load-{games}.sqlite3"))
    pool = RenderPool(workers, art)
    rng = random.Random(games)
    try:
        await pool.warm()
        collector.settle()  # as the bot does after its start-up
        ids: list[int] = []
        n = 0
        while len(ids) < games:  # every stage of a game: 0 to 100 actions in
            n += 1
            row = await manager.lobbies.create_lobby(1, "A", channel_id=1, turn_seconds=86400)
            await manager.lobbies.join(row.id, 2, "B")
            view = await manager.lobbies.start(row.id, 1, seed=n)
            for _ in range(rng.randrange(0, 100)):
                if view.finished:
                    break
                assert view.user_id is not None
                action = pick(view, rng)
                view = (await manager.play_turn(row.id, view.user_id, action, turn=view.turn)).view
            if not view.finished:
                ids.append(row.id)
        # The picture of each game's last move, as the bot drew it, once in each worker: the
        # workers keep the games as in a bot that has been running for a while, not one that
        # just started.
        for game_id in ids:
            job = Job("turn", (await manager.engine_copy(game_id)).record(), RenderOptions())
            await asyncio.gather(*(w.call(run, job) for w in pool._workers if w is not None))
        gc.collect()
        pauses: list[float] = []
        gc.callbacks.append(partial(timed_collection, pauses, {}))
        cpu_before = cpu_seconds(pool.pids)
        turns: list[float] = []
        late: list[float] = []
        stop = time.perf_counter() + seconds

        async def watchdog() -> None:
            while time.perf_counter() < stop:
                asked = time.perf_counter()
                await asyncio.sleep(0.010)
                late.append((time.perf_counter() - asked - 0.010) * 1000)

        async def player(game_id: int) -> None:
            local = random.Random(game_id)
            due = time.perf_counter() + local.uniform(0, MOVE_EVERY)
            while True:
                # A move due after the window ends the player at the window's end, not then.
                await asyncio.sleep(max(0.0, min(due, stop) - time.perf_counter()))
                if due >= stop:
                    return
                arrived = due
                view = await manager.decision(game_id)
                if view.finished or view.user_id is None:
                    return
                await manager.play_turn(game_id, view.user_id, pick(view, local), turn=view.turn)
                game = await manager.engine_copy(game_id)
                await pool.draw(Job("turn", game.record(), RenderOptions()))
                turns.append((time.perf_counter() - arrived) * 1000)
                due += local.expovariate(1 / MOVE_EVERY)

        await asyncio.gather(watchdog(), *(player(g) for g in ids))
        cpu_after = cpu_seconds(pool.pids)
        main_ms, workers_ms = (
            (after - before) * 1000 / max(1, len(turns))
            for after, before in zip(cpu_after, cpu_before, strict=True)
        )
        cpu_ms = main_ms + workers_ms
        gc.callbacks.clear()
        return {
            "active_games": len(ids),
            "workers": workers,
            "moves": len(turns),
            "moves_per_s": round(len(turns) / seconds, 1),
            "turn_p50_ms": round(statistics.median(turns)) if turns else None,
            "turn_p95_ms": round(percentile(turns, 0.95)) if turns else None,
            "loop_late_p99_ms": round(percentile(late, 0.99), 1),
            "loop_late_max_ms": round(max(late), 1) if late else None,
            # CPU per move (the bot's process and its render workers): the cores this load
            # needs is moves per second x this, whatever else ran on the machine meanwhile.
            "cpu_ms_per_move": round(cpu_ms, 2),
            "main_cpu_ms_per_move": round(main_ms, 2),
            "workers_cpu_ms_per_move": round(workers_ms, 2),
            "cores_needed": round(len(turns) / seconds * cpu_ms / 1000, 2),
            # The bot's garbage collections: their time per move and the longest pause.
            "gc_ms_per_move": round(sum(pauses) / max(1, len(turns)), 2),
            "gc_pause_max_ms": round(max(pauses, default=0.0), 1),
            "main_rss_mb": round(rss_mb(os.getpid())),
            "workers_rss_mb": [round(rss_mb(pid)) for pid in sorted(pool.pids)],
        }
    finally:
        pool.close()
        await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[750, 2000])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        art = str(Path(folder) / "art")
        artcache.warm(Path(art))
        for games in args.games:
            report = asyncio.run(serve(Path(folder), games, args.seconds, args.workers, art))
            print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
