"""One bot process serving many play-by-post games, a picture after every move
(run: python -m benchmarks.load [--games 2000 5000] [--seconds 60] [--workers 2] [--churn N]).

``--games`` active games of every family and expansion (``benchmarks.encoding.VARIANTS``, no
computer seats), spread over every stage of a game (each starts a random number of moves in),
each getting one move every 30 seconds on average (open loop: moves come when due, whatever the
bot's speed). After each move the bot's picture is drawn by the render worker processes, as the
bot posts it: the turn picture of the next decision (drawn tile and rotations, lettered squares,
crossed-out dead squares), or the end picture when the move ended the game; a finished game is
replaced by a new one, so games come and go. Measured, as the bot does it (game manager on a
SQLite file, pictures through ``bot.render_pool``, the tile art cache loaded):

- a turn's latency: from the move's arrival to its picture ready (p50, p95), with the load
  average beside it;
- the event loop's lateness: a watchdog asks to wake every 10 ms and records how late it is
  (p99, max); a late loop is a bot that answers Discord late;
- the CPU a move costs, the bot's process and its workers together, and so the cores the load
  needs: a figure that holds on a busy machine, where the latencies do not; and how it splits:
  the bot's event loop (``loop``: the manager, the engine, the turn's screen and record), its
  other threads (``database``: SQLite's), and in the workers rebuilding the game from its record
  (``replay``), drawing and encoding (``renderer.jobs.SPENT``);
- what the workers keep between a game's pictures and how often a picture found it
  (``renderer.jobs.kept``);
- the bot's garbage collections (time per move, longest pause) and every process's memory, with
  the bytes a live game costs in the bot and in a worker.
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

from benchmarks.encoding import VARIANTS, bot_turn_job
from bot import collector
from bot.manager import GameManager
from bot.outcomes import TurnView
from bot.render_pool import RenderPool
from bot.storage.sqlite import open_sqlite
from engine import Action, Game, Pass
from renderer import artcache
from renderer.jobs import Job, kept
from renderer.options import RenderOptions

MOVE_EVERY = 30.0


def pick(view: TurnView, rng: random.Random) -> Action:
    if view.phase == "tile":
        return view.placements[rng.randrange(len(view.placements))]
    choice = rng.randrange(len(view.figures) + 1)
    return view.figures[choice] if choice < len(view.figures) else Pass()


def cpu_seconds(pids: frozenset[int]) -> tuple[float, float, float]:
    """CPU time used so far by this process, by its main thread (the event loop's: call from
    it), and by the render workers ``pids`` together (Linux's /proc; 0 elsewhere)."""
    own = os.times()
    workers = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        workers += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return own.user + own.system, time.thread_time(), workers


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


def share(found: int, missed: int) -> float | None:
    return round(found / (found + missed), 3) if found + missed else None


async def worker_figures(pool: RenderPool) -> list[dict[str, int]]:
    """:func:`renderer.jobs.kept` of every worker."""
    return list(await asyncio.gather(*(w.call(kept) for w in pool._workers if w is not None)))


def summed(figures: list[dict[str, int]], name: str) -> int:
    return sum(f.get(name, 0) for f in figures)


async def serve(
    folder: Path, games: int, seconds: float, workers: int, art: str, churn: int = 0
) -> dict[str, object]:
    manager = GameManager(await open_sqlite(folder / f"load-{games}.sqlite3"))
    pool = RenderPool(workers, art)
    rng = random.Random(games)
    made = 0

    async def advance(game_id: int, view: TurnView, moves: int | None) -> TurnView:
        """``game_id`` ``moves`` random actions on (None: to its end), from its ``view``."""
        while not view.finished and (moves is None or moves > 0):
            assert view.user_id is not None
            action = pick(view, rng)
            view = (await manager.play_turn(game_id, view.user_id, action, turn=view.turn)).view
            moves = None if moves is None else moves - 1
        return view

    async def new_game(moves: int) -> int | None:
        """A new game of the next variant, ``moves`` random actions in (None if they ended it)."""
        nonlocal made
        made += 1
        family, expansions = VARIANTS[made % len(VARIANTS)]
        row = await manager.lobbies.create_lobby(
            1, "A", channel_id=1, turn_seconds=86400, game=family, expansions=expansions
        )
        await manager.lobbies.join(row.id, 2, "B")
        view = await manager.lobbies.start(row.id, 1, seed=made)
        view = await advance(row.id, view, moves)
        return None if view.finished else row.id

    async def play_out(game_id: int) -> None:
        """Play ``game_id`` to its end (its end picture drawn) and start a new game in its
        place, at a random stage (its picture drawn)."""
        await advance(game_id, await manager.decision(game_id), None)
        await picture(await manager.engine_copy(game_id))
        while (new := await new_game(rng.randrange(0, 120))) is None:
            pass
        ids.append(new)
        await picture(await manager.engine_copy(new))

    async def picture(game: Game) -> None:
        """The picture the bot posts after a move of ``game``, drawn by a worker."""
        end = Job("end", game.record(), RenderOptions()) if game.finished else None
        await pool.draw(end or bot_turn_job(game))

    ids: list[int] = []
    try:
        await pool.warm()
        collector.settle()  # as the bot does after its start-up
        main_empty = rss_mb(os.getpid())
        while len(ids) < games:  # every stage of a game: 0 to 120 actions in
            game_id = await new_game(rng.randrange(0, 120))
            if game_id is not None:
                ids.append(game_id)
        gc.collect()
        main_full = rss_mb(os.getpid())
        workers_empty = [rss_mb(pid) for pid in sorted(pool.pids)]
        # Each game's picture as the bot last posted it, drawn in its worker: the workers keep
        # the games as in a bot that has been running for a while, not one that just started.
        for first in range(0, len(ids), 32):
            copies = [await manager.engine_copy(g) for g in ids[first : first + 32]]
            await asyncio.gather(*(picture(game) for game in copies))
        workers_full = [rss_mb(pid) for pid in sorted(pool.pids)]
        gc.collect()
        pauses: list[float] = []
        gc.callbacks.append(partial(timed_collection, pauses, {}))
        before = await worker_figures(pool)
        cpu_before = cpu_seconds(pool.pids)
        turns: list[float] = []
        late: list[float] = []
        replaced = 0
        stop = time.perf_counter() + seconds

        async def watchdog() -> None:
            while time.perf_counter() < stop:
                asked = time.perf_counter()
                await asyncio.sleep(0.010)
                late.append((time.perf_counter() - asked - 0.010) * 1000)

        async def player(game_id: int) -> None:
            nonlocal replaced
            local = random.Random(game_id)
            due = time.perf_counter() + local.uniform(0, MOVE_EVERY)
            while True:
                # A move due after the window ends the player at the window's end, not then.
                await asyncio.sleep(max(0.0, min(due, stop) - time.perf_counter()))
                if due >= stop:
                    return
                arrived = due
                view = await manager.decision(game_id)
                assert not view.finished and view.user_id is not None
                action = pick(view, local)
                played = await manager.play_turn(game_id, view.user_id, action, turn=view.turn)
                await picture(played.game or await manager.engine_copy(game_id))
                turns.append((time.perf_counter() - arrived) * 1000)
                if played.view.finished:  # a new game takes its place
                    replaced += 1
                    while (new := await new_game(0)) is None:
                        pass
                    game_id = new
                due += local.expovariate(1 / MOVE_EVERY)

        await asyncio.gather(watchdog(), *(player(g) for g in ids))
        cpu_after = cpu_seconds(pool.pids)
        after = await worker_figures(pool)
        load = os.getloadavg()
        moves = max(1, len(turns))
        process_ms, loop_ms, workers_ms = (
            (a - b) * 1000 / moves for a, b in zip(cpu_after, cpu_before, strict=True)
        )
        cpu_ms = process_ms + workers_ms
        gc.callbacks.clear()

        def spent(stage: str) -> float:
            return round(
                (summed(after, f"{stage}_us") - summed(before, f"{stage}_us")) / 1000 / moves, 2
            )

        def found(name: str) -> float | None:
            got = summed(after, f"{name}_found") - summed(before, f"{name}_found")
            lost = summed(after, f"{name}_missed") - summed(before, f"{name}_missed")
            return share(got, lost)

        workers_rss = [round(rss_mb(pid)) for pid in sorted(pool.pids)]
        main_rss = round(rss_mb(os.getpid()))
        scanned = len(gc.get_objects())  # what a full collection scans (not the frozen)
        awake = manager.cache.awake()
        gc_max = round(max(pauses, default=0.0), 1)
        # Games come and go: ``churn`` of the active games played to their end (their end
        # picture drawn) and each replaced by a new one at a random stage (its picture drawn).
        churned = []
        for first in range(0, churn, 16):
            batch = ids[first : min(first + 16, churn)]
            await asyncio.gather(*(play_out(g) for g in batch))
            churned.extend(batch)
        gc.collect()
        after_churn = [round(rss_mb(pid)) for pid in (os.getpid(), *sorted(pool.pids))]
        return {
            "active_games": games,
            "workers": workers,
            "moves": len(turns),
            "moves_per_s": round(len(turns) / seconds, 1),
            "games_replaced": replaced,
            "load_average_1min": round(load[0], 2),
            "turn_p50_ms": round(statistics.median(turns)) if turns else None,
            "turn_p95_ms": round(percentile(turns, 0.95)) if turns else None,
            "loop_late_p99_ms": round(percentile(late, 0.99), 1),
            "loop_late_max_ms": round(max(late), 1) if late else None,
            # CPU per move (the bot's process and its render workers): the cores this load
            # needs is moves per second x this, whatever else ran on the machine meanwhile.
            "cpu_ms_per_move": round(cpu_ms, 2),
            "main_cpu_ms_per_move": round(process_ms, 2),
            "workers_cpu_ms_per_move": round(workers_ms, 2),
            "split_ms_per_move": {
                "loop": round(loop_ms, 2),
                "database": round(process_ms - loop_ms, 2),
                "replay": spent("replay"),
                "drawing": spent("drawing"),
                "encoding": spent("encoding"),
            },
            "cores_needed": round(len(turns) / seconds * cpu_ms / 1000, 2),
            # How often a worker found the game's state and its squares kept from its last
            # picture, and what it keeps.
            "games_found": found("games"),
            "canvases_found": found("canvases"),
            "kept_games": [f["games"] for f in after],
            "kept_canvases": [f["canvases"] for f in after],
            "canvas_mb": [round(f["canvas_bytes"] / 2**20) for f in after],
            # The bot's garbage collections: their time per move and the longest pause.
            "gc_ms_per_move": round(sum(pauses) / moves, 2),
            "gc_pause_max_ms": gc_max,
            # The objects a full collection of the bot scans, and the games of its live-game
            # cache holding their engine state (bot.live.ENGINE_STATES; the others rest).
            "gc_objects": scanned,
            "engine_states": awake,
            "main_rss_mb": main_rss,
            "workers_rss_mb": workers_rss,
            "all_rss_mb": main_rss + sum(workers_rss),
            # What a live game costs: the bot's memory grown by the games, over their number;
            # a worker's grown by the first pictures, over the games it drew.
            "main_kb_per_game": round((main_full - main_empty) * 1024 / games),
            "worker_kb_per_game": round((sum(workers_full) - sum(workers_empty)) * 1024 / games),
            # After ``churn`` games played out and replaced: every process's memory, the bot's
            # first.
            "churned_games": len(churned),
            "rss_mb_after_churn": after_churn,
            "all_rss_mb_after_churn": sum(after_churn),
        }
    finally:
        pool.close()
        await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[2000, 5000])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--churn",
        type=int,
        default=0,
        help="after the window, play this many games to their end and replace each by a new one",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        art = str(Path(folder) / "art")
        artcache.warm(Path(art))
        for games in args.games:
            run = serve(Path(folder), games, args.seconds, args.workers, art, args.churn)
            report = asyncio.run(run)
            print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
