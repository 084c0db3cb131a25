"""Several bot processes on one PostgreSQL database, killed and restarted while they play.

    python -m benchmarks.cluster [--processes 3] [--games 300] [--moves 10000] [--seconds 30]
                                 [--kill-every 3]

A real PostgreSQL server (loopback, default durability) holds the games. Each worker process
runs the real game manager and play-by-post scheduler on it, and plays random moves in the
games of its shard (every process-count-th played game), standing in for the players of the
guilds its Discord shards serve, paced so that the moves take ``--seconds`` (``0``: as fast as
they go, for the throughput). A third of the games are never played by anyone: their turns
last 3 seconds, so their schedulers announce turn starts, send reminders and time the turns out
(policy ``skip``) over and over. Notices (turn starts, reminders, and the timeouts'
announcements) go to a recording notifier that creates one file per
notice, as Discord would post one message: a notice sent again after a crash (``again``) looks
for its file first, as the Discord notifier looks in the channel.

Meanwhile the driver kills a random worker with SIGKILL every few seconds and starts it again.
A move counts as acknowledged once the manager returned it (the worker then writes it to its
log, as the bot would reply to the player). At the end, with the killing and the moves stopped
and the schedulers given time to drain:

- lost moves: acknowledged moves missing from the database;
- duplicated moves: the same move stored twice, or a turn timed out twice;
- notices duplicated or missed: notice files created twice, notices claimed but never sent,
  and deadlines (reminders, turn ends) due before the drain that never fired.

Exits with status 1 if any of the three counts is not zero; the last line prints them.
The throughput is printed twice: ``moves_per_second`` over the whole run, the processes' start
included, and ``moves_per_second_steady`` from the moment a tenth of the moves are stored (every
process then up and playing) to the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg

from bot.errors import ManagerError
from bot.manager import GameManager
from bot.scheduler import ForcedTurn, Scheduler
from bot.storage import Deadline, GameRow, GuildSettings, UserSettings
from bot.storage.local_postgres import LocalPostgres
from bot.storage.postgres import PostgresStorage
from engine import Pass

#: Seconds per turn of the games nobody plays (their deadlines fire all the time).
SLOW_TURN = 3
#: Players moving at once in each process (many users at a time, as on a real bot).
PLAYERS = 8
#: Seconds per turn of the played games (a turn start notice each, no reminder in practice).
FAST_TURN = 3600


class RecordingNotifier:
    """One file per notice in a shared folder, created exclusively: a second creation of the
    same notice is a duplicate; a notice sent ``again`` is skipped if its file exists."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _send(self, name: str, again: bool) -> None:
        try:
            fd = os.open(self.folder / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if not again:
                with open(self.folder / f"duplicate-{name}-{os.getpid()}", "w"):
                    pass
            return
        os.close(fd)

    async def turn_started(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._send(f"start-{game.id}-{deadline.turn}", again)

    async def reminder(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._send(f"reminder-{game.id}-{deadline.turn}", again)

    async def forced(self, game: GameRow, result: ForcedTurn, *, again: bool = False) -> None:
        self._send(f"timeout-{game.id}-{result.turn}", again)

    async def resumed(self, game: GameRow, user: UserSettings, deadline: Deadline) -> None:
        pass

    async def clock_resumed(self, game: GameRow) -> None:
        pass

    async def digest(self, guild: GuildSettings, lines: Any) -> None:
        pass


# -- a worker process ---------------------------------------------------------------------------


async def work(
    url: str, index: int, processes: int, folder: Path, games: list[int], rate: float
) -> None:
    manager = GameManager(await PostgresStorage.open(url, pool_size=PLAYERS + 2))
    scheduler = Scheduler(
        manager, RecordingNotifier(folder / "notices"), interval=0.25, lease=2.0, batch=200
    )
    scheduler.start()
    # Dealt in turn: by id modulo 3, the unplayed games (every third) left one process none.
    mine = games[index::processes]
    rng = random.Random(os.getpid())
    acks = os.open(folder / f"acks-{index}.log", os.O_CREAT | os.O_APPEND | os.O_WRONLY)
    stopping = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
    pace = PLAYERS / rate if rate > 0 else 0.0

    async def player(number: int) -> None:
        """One of the players of this process's guilds: a move, then the next (paced)."""
        own = mine[number::PLAYERS]  # each game is played by one of them: no self-conflicts
        next_move = time.monotonic()
        resting = folder / "rest"  # the driver's sign that the moves are done: drain
        while not stopping.is_set() and not resting.exists():
            next_move = max(next_move + pace, time.monotonic() - 1.0)
            await asyncio.sleep(max(0.0, next_move - time.monotonic()))
            game_id = rng.choice(own)
            try:
                view = await manager.decision(game_id)
                if view.finished or view.user_id is None:
                    continue
                if view.phase == "tile":
                    action: Any = rng.choice(view.placements)
                else:
                    pick = rng.randrange(len(view.figures) + 1)
                    action = view.figures[pick] if pick < len(view.figures) else Pass()
                result = await manager.apply(game_id, view.user_id, action, turn=view.turn)
            except ManagerError:
                continue  # another process moved it first (a timeout): try another game
            first = result.played[0]
            line = json.dumps([game_id, view.turn, first.seat, first.action]) + "\n"
            os.write(acks, line.encode())  # acknowledged: as the bot replies to the player

    try:
        await asyncio.gather(*(player(n) for n in range(min(PLAYERS, len(mine)))))
        await stopping.wait()  # with no game to play, the scheduler still runs
    finally:
        await scheduler.stop()  # the tick in progress finishes: no notice left half-sent
        await manager.close()
        os.close(acks)


def worker_main(args: argparse.Namespace) -> None:
    games = json.loads(Path(args.folder, "games.json").read_text())
    rate = args.moves / args.seconds / args.processes if args.seconds > 0 else 0.0
    asyncio.run(work(args.url, args.index, args.processes, Path(args.folder), games, rate))


# -- the driver ---------------------------------------------------------------------------------


async def prepare(url: str, games: int) -> list[int]:
    manager = GameManager(await PostgresStorage.open(url))
    ids = []
    try:
        for n in range(games):
            slow = n % 3 == 2
            row = await manager.create_lobby(
                1000 + n,
                f"p{n}a",
                channel_id=1,
                turn_seconds=SLOW_TURN if slow else FAST_TURN,
                timeout_policy="skip",
            )
            await manager.join(row.id, 5000 + n, f"p{n}b")
            if not slow:
                ids.append(row.id)
            await manager.start(row.id, 1000 + n, seed=n)
    finally:
        await manager.close()
    return ids


async def count_moves(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM actions WHERE forced IS NULL"))
    finally:
        await conn.close()


async def verify(url: str, folder: Path, drained_at: float) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    try:
        stored = await conn.fetch("SELECT game_id, turn, seat, action, forced FROM actions")
        notices = await conn.fetch("SELECT game_id, kind, turn, sent_at FROM notices")
        overdue = await conn.fetchval(
            "SELECT count(*) FROM deadlines d JOIN games g ON g.id = d.game_id "
            "WHERE d.done_at IS NULL AND d.paused_at IS NULL AND d.due_at < $1 "
            "AND g.status = 'active' AND (d.kind = 'reminder' OR d.kind = 'turn')",
            drained_at,
        )
    finally:
        await conn.close()
    moves = Counter(
        (r["game_id"], r["turn"], r["seat"], json.dumps(json.loads(r["action"]), sort_keys=True))
        for r in stored
        if r["forced"] is None
    )
    timeouts = Counter((r["game_id"], r["turn"]) for r in stored if r["forced"] is not None)
    acked: Counter[tuple[int, int, int, str]] = Counter()
    by_process: dict[str, int] = {}
    for log in sorted(folder.glob("acks-*.log")):
        lines = log.read_text().splitlines()
        by_process[log.stem.removeprefix("acks-")] = len(lines)
        for line in lines:
            game_id, turn, seat, action = json.loads(line)
            acked[(game_id, turn, seat, json.dumps(action, sort_keys=True))] += 1
    lost = sum(1 for key in acked if key not in moves)
    duplicated = sum(n - 1 for n in moves.values() if n > 1)
    duplicated += sum(n - 1 for n in acked.values() if n > 1)
    duplicated += sum(n - 1 for n in timeouts.values() if n > 1)
    files = list((folder / "notices").iterdir())
    twice = sum(1 for f in files if f.name.startswith("duplicate-"))
    stuck = sum(1 for r in notices if r["sent_at"] is None)
    return {
        "acknowledged_moves": sum(acked.values()),
        "acknowledged_by_process": by_process,
        "stored_moves": sum(moves.values()),
        "notices": len(notices),
        "notices_posted": len(files) - twice,
        "timeouts": sum(timeouts.values()),
        "deadlines_fired": len(notices),
        "lost_moves": lost,
        "duplicated_moves": duplicated,
        "notices_duplicated_or_missed": twice + stuck + int(overdue),
        "notices_twice": sorted(f.name for f in files if f.name.startswith("duplicate-"))[:20],
        "notices_never_sent": sorted(
            f"{r['kind']}-{r['game_id']}-{r['turn']}" for r in notices if r["sent_at"] is None
        )[:20],
        "deadlines_never_fired": int(overdue),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=30.0, help="time to play the moves in")
    parser.add_argument(
        "--kill-every", type=float, default=3.0, help="seconds between kills (0: none)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args)
        return 0
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="carcassonne-cluster-"))
    (folder / "notices").mkdir()
    with LocalPostgres() as server:
        url = server.url
        started = time.perf_counter()
        games = asyncio.run(prepare(url, args.games))
        (folder / "games.json").write_text(json.dumps(games))
        print(f"{args.games} games ready in {time.perf_counter() - started:.1f} s", flush=True)

        def spawn(index: int) -> subprocess.Popen[bytes]:
            command = [sys.executable, "-m", "benchmarks.cluster", "--worker", "--url", url]
            command += ["--index", str(index), "--processes", str(args.processes)]
            command += ["--folder", str(folder), "--moves", str(args.moves)]
            command += ["--seconds", str(args.seconds)]
            return subprocess.Popen(command)  # errors shown: a silent death hid a process

        workers = [spawn(i) for i in range(args.processes)]
        kills = 0
        started = time.perf_counter()
        next_kill = started + args.kill_every
        moves = 0
        warm: tuple[float, int] | None = None  # when a tenth of the moves were stored
        while moves < args.moves:
            time.sleep(0.2)
            moves = asyncio.run(count_moves(url))
            if warm is None and moves >= args.moves // 10:
                warm = (time.perf_counter(), moves)
            if args.kill_every > 0 and time.perf_counter() >= next_kill:
                victim = rng.randrange(args.processes)
                workers[victim].send_signal(signal.SIGKILL)
                workers[victim].wait()
                workers[victim] = spawn(victim)
                kills += 1
                next_kill = time.perf_counter() + args.kill_every * rng.uniform(0.5, 1.5)
        ended = time.perf_counter()
        elapsed = ended - started
        # The rate once every process is up and playing (the whole run's counts their start).
        steady = (moves - warm[1]) / (ended - warm[0]) if warm and ended > warm[0] else 0.0
        # No more kills or moves: the schedulers finish what is due (claims expire after 2 s).
        (folder / "rest").touch()
        time.sleep(6)
        drained_at = time.time() - SLOW_TURN
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
        report = asyncio.run(verify(url, folder, drained_at))
    report.update(
        processes=args.processes,
        games=args.games,
        kills=kills,
        seconds=round(elapsed, 1),
        moves_per_second=round(moves / elapsed),
        moves_per_second_steady=round(steady),
    )
    print(json.dumps(report, indent=1))
    counts = (
        report["lost_moves"],
        report["duplicated_moves"],
        report["notices_duplicated_or_missed"],
    )
    print(
        f"lost moves {counts[0]}, duplicated moves {counts[1]}, "
        f"notices duplicated or missed {counts[2]}"
    )
    return 1 if any(counts) else 0


if __name__ == "__main__":
    sys.exit(main())
