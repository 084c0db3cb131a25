"""Backups, check, forgetting a player and deleting old games on a database of finished games
(run: python -m benchmarks.privacy [--games N] [--players P]).

Plays ``--games`` two-player games to the end through the game manager on a SQLite file (random
legal moves, players drawn from ``--players`` people, so each has many games), then times, each
on its own: ``python -m bot backup`` while a game is being played (its moves' latency during
the copy is reported beside the copy's time), ``python -m bot check`` (every game replayed),
``forget`` of the player with the most games, and ``delete_expired`` with keep_days reached by
every game. Prints one line per figure.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.backup import backup, check
from bot.manager import GameManager
from engine import Action, Pass


async def play_out(mgr: GameManager, game_id: int, rng: random.Random, lap: list[float]) -> None:
    view = await mgr.decision(game_id)
    while not view.finished:
        action: Action = Pass()
        if view.phase == "tile":
            action = view.placements[rng.randrange(len(view.placements))]
        started = time.perf_counter()
        assert view.user_id is not None
        result = await mgr.play_turn(
            game_id, view.user_id, action, turn=view.turn, phase=view.phase
        )
        lap.append(time.perf_counter() - started)
        view = result.view


async def new_game(mgr: GameManager, rng: random.Random, people: list[int]) -> int:
    first, second = rng.sample(people, 2)
    row = await mgr.lobbies.create_lobby(first, f"p{first}", channel_id=1, guild_id=1)
    await mgr.lobbies.join(row.id, second, f"p{second}")
    return (await mgr.lobbies.start(row.id, first, seed=rng.randrange(1 << 30))).game_id


async def main(games: int, players: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="privacy-bench-"))
    database = folder / "games.sqlite3"
    rng = random.Random(1)
    people = [10**17 + i for i in range(players)]
    now = [time.time()]
    mgr = await GameManager.open(str(database), clock=lambda: now[0])
    laps: list[float] = []
    started = time.perf_counter()
    for _ in range(games):
        await play_out(mgr, await new_game(mgr, rng, people), rng, laps)
    print(f"played {games} games, {len(laps)} moves in {time.perf_counter() - started:.1f} s")
    print(f"database: {database.stat().st_size / 1e6:.1f} MB")

    # The backup on its own thread while a game goes on.
    running = await new_game(mgr, rng, people)
    during: list[float] = []
    began = time.perf_counter()
    copy = asyncio.create_task(asyncio.to_thread(backup, database, folder / "backup.sqlite3"))
    play = asyncio.create_task(play_out(mgr, running, rng, during))
    await copy
    took = time.perf_counter() - began
    moves_during = len(during)
    await play
    size = (folder / "backup.sqlite3").stat().st_size / 1e6
    beside = statistics.median(during[: max(moves_during, 1)]) * 1000
    print(
        f"backup: {took * 1000:.0f} ms for {size:.1f} MB, {moves_during} moves stored meanwhile; "
        f"move p50 {statistics.median(laps) * 1000:.2f} ms before, {beside:.2f} ms during the copy"
    )
    await mgr.close()
    began = time.perf_counter()
    report = await check(str(database))
    took = time.perf_counter() - began
    print(
        f"check: {report.checked} games replayed in {took:.2f} s "
        f"({took / max(report.checked, 1) * 1000:.1f} ms a game), {len(report.problems)} problems"
    )

    mgr = await GameManager.open(str(database), clock=lambda: now[0])
    try:
        counts = {p: (await mgr.privacy.personal_data(p)).games for p in people}
        busiest = max(counts, key=lambda p: counts[p])
        began = time.perf_counter()
        await mgr.privacy.forget(busiest)
        took = time.perf_counter() - began
        print(f"forget: a player of {counts[busiest]} games in {took * 1000:.0f} ms")
        await mgr.records.update_guild_settings(1, keep_days=1)
        now[0] += 2 * 86400
        began = time.perf_counter()
        deleted = await mgr.privacy.delete_expired()
        took = time.perf_counter() - began
        print(f"delete_expired: {len(deleted)} games in {took * 1000:.0f} ms")
    finally:
        await mgr.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.players))
