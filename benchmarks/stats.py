"""What ``/carcassonne stats`` costs on a server with many finished games (run:
python -m benchmarks.stats [--games 1000] [--postgres | --database PATH_OR_URL]).

N finished games (base 2 and 4 players, Abbey & Mayor, Hunters & Gatherers, The Castle, random
legal moves) are imported into a fresh database in one server, one player in every game. Then:
replaying and summarising one game (what is done once when a game ends), the first query
(which summarises every game that has no summary yet: the backfill), and the next queries
(stored summaries only). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.manager import GameManager
from bot.stats import summarise
from bot.storage.local_postgres import running
from engine import Game, Setup
from engine.cli import random_action

GUILD = 1
PLAYERS = (101, 202, 303, 404)
SETUPS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("carcassonne", 2, ()),
    ("carcassonne", 4, ("abbey_mayor",)),
    ("hunters", 3, ()),
    ("castle", 2, ()),
)


def records(count: int) -> list[dict[str, Any]]:
    """``count`` distinct finished games, the families in turn."""
    found = []
    for i in range(count):
        kind, players, expansions = SETUPS[i % len(SETUPS)]
        names = tuple(f"p{n}" for n in range(players))
        game = Game(Setup(players=names, seed=i + 1, game=kind, expansions=expansions))
        rng = random.Random(i)
        while not game.finished:
            game.play(random_action(game, rng))
        found.append(game.record())
    return found


async def main(games: int, database: str | None, distinct: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        where = database or str(Path(folder) / "stats.sqlite3")
        mgr = await GameManager.open(where)
        try:
            made = records(min(distinct, games))
            for i in range(games):
                record = made[i % len(made)]
                users = PLAYERS[: len(record["players"])]
                await mgr.records.import_record(record, users[0], users=users, guild_id=GUILD)
            ids = await mgr.storage.games_without_stats(GUILD, PLAYERS[0])
            rows = [await mgr.storage.get_game(i) for i in ids[:40]]
            logs = [await mgr.storage.get_actions(i) for i in ids[:40]]
            per_game = []
            for row, log in zip(rows, logs, strict=True):
                assert row is not None
                start = time.perf_counter()
                summarise(row, log)
                per_game.append(time.perf_counter() - start)
            start = time.perf_counter()
            first = await mgr.stats.player_stats(GUILD, PLAYERS[0], versus=PLAYERS[1])
            backfill = time.perf_counter() - start
            later = []
            for _ in range(5):
                start = time.perf_counter()
                again = await mgr.stats.player_stats(GUILD, PLAYERS[0], versus=PLAYERS[1])
                later.append(time.perf_counter() - start)
            assert again.player == first.player and first.summarised == games
            return {
                "games": games,
                "engine": "postgresql" if where.startswith("postgres") else "sqlite",
                "summarise_ms_median": round(1000 * statistics.median(per_game), 2),
                "first_query_s (backfill of every game)": round(backfill, 2),
                "query_ms_median (stored summaries)": round(1000 * statistics.median(later), 1),
                "player_games": first.player.games,
            }
        finally:
            await mgr.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--distinct", type=int, default=40, help="distinct records to import")
    parser.add_argument("--database", default=None, help="a SQLite path or a PostgreSQL URL")
    parser.add_argument(
        "--postgres", action="store_true", help="on a PostgreSQL server started for the run"
    )
    args = parser.parse_args()
    if args.postgres:
        with running() as server:
            print(json.dumps(asyncio.run(main(args.games, server.url, args.distinct))))
    else:
        print(json.dumps(asyncio.run(main(args.games, args.database, args.distinct))))
