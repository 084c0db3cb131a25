"""Several bot processes on one PostgreSQL database, attacked while they play.

    python -m benchmarks.cluster [--processes 3] [--players 6] [--seconds 90] [--hot 150]
                                 [--focus 4] [--clock 6] [--post 6] [--idle 24] [--thinkers 2]
                                 [--kill-every 3] [--drop-every 0.1] [--seed 1]
    python -m benchmarks.cluster --fast [--processes 3] [--games 300] [--moves 10000]

A real PostgreSQL server (loopback, default durability) holds the games. Each worker process
runs the real game manager and play-by-post scheduler on it (:mod:`benchmarks.cluster_players`),
with ``--players`` players each, for ``--seconds``:

- hot games: every player of every process plays the first ``--focus`` unfinished ones, so
  moves on one game come from several processes at once (a game that ends gives way to the
  next of ``--hot``); they are plain, chess-clock or play-by-post games in turn (a minute a
  turn: the timers are written with every move);
- timed games, where players think for up to 4 s, so that the timeouts race them: chess-clock
  games (``--clock``, a bank of 5 s and 2 s a turn) and play-by-post games (``--post``, 3 s a
  turn, timeouts skip or autoplay); and ``--idle`` play-by-post games nobody plays, whose
  schedulers announce turn starts, send reminders and time the turns out over and over;
- every ``--kill-every`` seconds or so, a worker dies by SIGKILL: half of the time at once, half
  of the time with a move in flight (the driver's SIGUSR1 makes its next move arm the kill, a
  few milliseconds after it is sent, before its answer); it is started again, and its players
  send again the moves it never answered;
- every ``--drop-every`` seconds or so, the server drops a connection (``pg_terminate_backend``):
  any of the workers', or one holding a row lock on a game;
- a move that fails is sent again (up to 3 times, as a player clicks again).

Then the moves stop, the schedulers drain what is due, and :mod:`benchmarks.cluster_verify`
replays every stored game and holds it against every answer the players got and every notice
posted. The last line gives the counts that must be zero; the exit status is 1 if one is not.

``--fast`` is the throughput of the bot itself: no kills, no drops, each game played by one
player (a third of the games unplayed, timed out by the schedulers), as fast as it goes, until
``--moves`` moves are stored; it prints the workers' CPU time per stored move.
(``benchmarks.cluster_cpu`` compares it between two builds.)
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import dataclasses
import json
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.cluster_players import Plan, work
from benchmarks.cluster_verify import FAULTS, verify
from bot.manager import GameManager
from bot.storage.local_postgres import LocalPostgres
from bot.storage.postgres import open_postgres

#: Seconds per turn of the play-by-post games (their deadlines fire all the time).
POST_TURN = 3
#: The chess clock of the clock games: a bank, and seconds added each turn.
CLOCK = (5, 2)
#: Seconds per turn of the games played in ``--fast`` (a turn start notice each).
FAST_TURN = 3600
#: Seconds the schedulers get to finish what is due once the moves stop (claims last 2 s).
DRAIN = 6.0


# -- the games ----------------------------------------------------------------------------------


async def prepare(url: str, args: argparse.Namespace) -> dict[str, list[int]]:
    """The games, started: by kind, their ids."""
    manager = GameManager(await open_postgres(url))
    games: dict[str, list[int]] = {"hot": [], "clock": [], "post": [], "idle": [], "fast": []}
    numbers = iter(range(10**6))

    async def game(kind: str, **lobby: Any) -> None:
        n = next(numbers)
        row = await manager.lobbies.create_lobby(1000 + n, f"p{n}a", channel_id=1, **lobby)
        row = await manager.lobbies.join(row.id, 5000 + n, f"p{n}b")
        if row.clock_bank is not None:  # shorter than a lobby offers: timeouts every few turns
            bank, increment = CLOCK
            await manager.storage.save_game(
                dataclasses.replace(row, clock_bank=bank, clock_increment=increment)
            )
        await manager.lobbies.start(row.id, 1000 + n, seed=n)
        games[kind].append(row.id)

    try:
        if args.fast:
            for n in range(args.games):
                slow = n % 3 == 2  # played by nobody, timed out by the schedulers
                turn = POST_TURN if slow else FAST_TURN
                await game("idle" if slow else "fast", turn_seconds=turn, timeout_policy="skip")
            return games
        timings: list[dict[str, Any]] = [{}, {"clock": (60, 0)}, {"turn_seconds": 60}]
        for n in range(args.hot):  # plain, chess clock, play by post, in turn
            await game("hot", timeout_policy="skip", **timings[n % 3])
        for _ in range(args.clock):
            await game("clock", clock=(60, 0), timeout_policy="skip")
        for n in range(args.post):
            policy = "autoplay" if n % 3 == 0 else "skip"
            await game("post", turn_seconds=POST_TURN, timeout_policy=policy)
        for _ in range(args.idle):
            await game("idle", turn_seconds=POST_TURN, timeout_policy="skip")
    finally:
        await manager.close()
    return games


# -- the worker processes -----------------------------------------------------------------------


def worker_main(args: argparse.Namespace) -> None:
    folder = Path(args.folder)
    games = json.loads((folder / "games.json").read_text())
    plan = Plan(
        index=args.index,
        folder=folder,
        players=args.players,
        thinkers=0 if args.fast else args.thinkers,
        hot=games["hot"],
        timed=games["clock"] + games["post"],
        focus=args.focus,
        pace=0.0 if args.fast else args.pace,
        fast=args.fast,
        games=games["fast"][args.index :: args.processes],
    )
    asyncio.run(work(args.url, plan))


class Workers:
    """The worker processes, started again when they die."""

    def __init__(self, args: argparse.Namespace, url: str, folder: Path) -> None:
        self.command = [sys.executable, "-m", "benchmarks.cluster", "--worker", "--url", url]
        self.command += ["--folder", str(folder), "--processes", str(args.processes)]
        self.command += ["--players", str(args.players), "--focus", str(args.focus)]
        self.command += ["--thinkers", str(args.thinkers)]
        self.command += ["--pace", str(args.pace)] + (["--fast"] if args.fast else [])
        self.processes = [self._spawn(i) for i in range(args.processes)]
        self.deaths = 0
        self.folder = folder
        atexit.register(self.abort)  # the driver stopped early (SIGTERM, an error): them too

    def _spawn(self, index: int) -> subprocess.Popen[bytes]:
        # Errors shown: a silent death hid a process once.
        return subprocess.Popen([*self.command, "--index", str(index)])

    def revive(self) -> None:
        for index, process in enumerate(self.processes):
            if process.poll() is not None:
                self.deaths += 1
                self.processes[index] = self._spawn(index)

    def stop(self, timeout: float = 30.0) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def abort(self) -> None:
        """Stop the workers the driver leaves early (their moves stop, then they do)."""
        if all(process.poll() is not None for process in self.processes):
            return
        with contextlib.suppress(OSError):
            (self.folder / "rest").touch()
        self.stop(timeout=10.0)


# -- the attacks --------------------------------------------------------------------------------

#: A backend of one of the workers: any, or one holding a row lock on a game.
#: The driver's own connections say who they are: never dropped.
DRIVER = {"application_name": "cluster-driver"}
WORKERS = "a.datname = current_database() AND a.application_name <> 'cluster-driver'"
ANY_BACKEND = (
    f"SELECT a.pid FROM pg_stat_activity a WHERE {WORKERS} "
    "AND a.backend_type = 'client backend' ORDER BY random() LIMIT 1"
)
LOCKING_BACKEND = (
    f"SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE {WORKERS} "
    "AND l.relation = 'games'::regclass AND l.granted AND l.mode = 'RowExclusiveLock' "
    "ORDER BY random() LIMIT 1"
)


async def drop_connections(
    url: str, every: float, rng: random.Random, stop: asyncio.Event
) -> Counter[str]:
    """Every ``every`` seconds or so, the server drops a worker's connection."""
    dropped: Counter[str] = Counter()
    conn = await asyncpg.connect(url, server_settings=DRIVER)
    try:
        while not stop.is_set():
            await asyncio.sleep(every * rng.uniform(0.5, 1.5))
            locking = rng.random() < 0.5
            pid = None
            for _ in range(200 if locking else 1):  # a lock is held for milliseconds
                pid = await conn.fetchval(LOCKING_BACKEND if locking else ANY_BACKEND)
                if pid is not None:
                    break
            if pid is not None and await conn.fetchval("SELECT pg_terminate_backend($1)", pid):
                dropped["holding a row lock" if locking else "any"] += 1
    finally:
        await conn.close()
    return dropped


async def count_moves(conn: asyncpg.Connection) -> int:
    return int(await conn.fetchval("SELECT count(*) FROM actions WHERE forced IS NULL"))


async def run(args: argparse.Namespace, url: str, folder: Path) -> dict[str, Any]:
    games = await prepare(url, args)
    (folder / "games.json").write_text(json.dumps(games))
    print(f"{sum(map(len, games.values()))} games ready", flush=True)
    rng = random.Random(args.seed)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = Workers(args, url, folder)
    stop = asyncio.Event()
    dropping = None
    if not args.fast and args.drop_every > 0:
        dropping = asyncio.create_task(drop_connections(url, args.drop_every, rng, stop))
    conn = await asyncpg.connect(url, server_settings=DRIVER)
    started = time.perf_counter()
    kills = {"in flight": 0, "at once": 0}
    next_kill = started + args.kill_every
    moves = 0
    while True:
        await asyncio.sleep(0.2)
        now = time.perf_counter()
        moves = await count_moves(conn)
        if (moves >= args.moves) if args.fast else (now - started >= args.seconds):
            break
        workers.revive()
        if not args.fast and args.kill_every > 0 and now >= next_kill:
            victim = workers.processes[rng.randrange(args.processes)]
            if rng.random() < 0.5:
                victim.send_signal(signal.SIGUSR1)  # it dies with its next move in flight
                kills["in flight"] += 1
            else:
                victim.send_signal(signal.SIGKILL)
                kills["at once"] += 1
            next_kill = now + args.kill_every * rng.uniform(0.5, 1.5)
    elapsed = time.perf_counter() - started
    stop.set()
    dropped = await dropping if dropping is not None else {}
    # No more kills, drops or moves: the schedulers finish what is due, claims run out.
    (folder / "rest").touch()
    await asyncio.sleep(1.0)
    workers.revive()  # a worker doomed at the last moment
    await asyncio.sleep(DRAIN)
    drained_at = time.time() - POST_TURN - 1
    workers.stop()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime
    await conn.close()
    report = await verify(url, folder, drained_at)
    report.update(
        processes=args.processes,
        players_per_process=args.players,
        games={kind: len(ids) for kind, ids in games.items() if ids},
        kills=kills,
        deaths=workers.deaths,
        dropped_connections=dict(dropped),
        seconds=round(elapsed, 1),
        moves_per_second=round(moves / elapsed),
        cpu_ms_per_stored_move=round(1000 * seconds / max(1, report["stored_moves"]), 3),
    )
    return report


# -- the command --------------------------------------------------------------------------------


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=3, help="at most 10")
    parser.add_argument(
        "--players", type=int, help="players in each process (6; --fast: 8)", default=None
    )
    parser.add_argument("--seconds", type=float, default=90.0, help="time to play for")
    parser.add_argument(
        "--thinkers", type=int, default=2, help="players of the timed games in each process"
    )
    parser.add_argument("--hot", type=int, default=150, help="games everyone plays")
    parser.add_argument("--focus", type=int, default=4, help="hot games played at once")
    parser.add_argument("--clock", type=int, default=6, help="chess-clock games")
    parser.add_argument("--post", type=int, default=6, help="play-by-post games played")
    parser.add_argument("--idle", type=int, default=24, help="play-by-post games nobody plays")
    parser.add_argument("--pace", type=float, default=0.05, help="a player's mean pause, s")
    parser.add_argument("--kill-every", type=float, default=3.0, help="seconds (0: no kill)")
    parser.add_argument("--drop-every", type=float, default=0.1, help="seconds (0: no drop)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true", help="the throughput, unattacked")
    parser.add_argument("--games", type=int, default=300, help="--fast: games")
    parser.add_argument("--moves", type=int, default=10_000, help="--fast: moves to store")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 1 <= args.processes <= 10:
        parser.error("--processes: 1 to 10")
    if args.players is None:
        args.players = 8 if args.fast else 6
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    if args.worker:
        worker_main(args)
        return 0
    folder = Path(tempfile.mkdtemp(prefix="carcassonne-cluster-"))
    (folder / "notices").mkdir()
    # Stopped with SIGTERM: unwind, so that the server and the workers stop with the driver.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        with LocalPostgres() as server:
            report = asyncio.run(run(args, server.url, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # the players' logs and the notices
    print(json.dumps(report, indent=1))
    faults = {name: report[name] for name in FAULTS}
    print(", ".join(f"{name.replace('_', ' ')} {count}" for name, count in faults.items()))
    return 1 if any(faults.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
