"""``python -m bot migrate-db`` on a database of 1,000 finished and 100 unfinished games
(run: python -m benchmarks.migrate_db [--finished 1000] [--unfinished 100]).

The SQLite database is filled through the game manager's record import (random 2- to 4-player
games of every family, the unfinished ones stopped at a random turn), then copied to a fresh
PostgreSQL server on loopback and verified (every row, every game replayed on both sides).
Prints the rows copied, the games verified and the seconds taken.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from bot.manager import GameManager
from bot.migrate_db import migrate
from bot.storage.local_postgres import LocalPostgres
from engine import Game, Pass, Setup

KINDS = (("carcassonne", ()), ("carcassonne", ("abbey_mayor",)), ("hunters", ()), ("castle", ()))


def random_record(rng: random.Random, finished: bool) -> dict[str, object]:
    game_name, expansions = rng.choice(KINDS)
    players = 2 if game_name == "castle" else rng.randint(2, 4)
    game = Game(
        Setup(
            players=tuple(f"p{i}" for i in range(players)),
            seed=rng.getrandbits(31),
            game=game_name,
            expansions=expansions,
        )
    )
    stop = None if finished else rng.randrange(1, 60)
    while not game.finished and (stop is None or game.turn < stop):
        if game.phase.value == "tile":
            game.play(rng.choice(game.legal_placements()))
        else:
            choices = list(game.legal_figures())
            game.play(rng.choice(choices) if choices and rng.random() < 0.5 else Pass())
    record: dict[str, object] = game.record()
    return record


async def fill(path: Path, finished: int, unfinished: int) -> int:
    manager = await GameManager.open(str(path))
    rng = random.Random(1)
    try:
        for n in range(finished + unfinished):
            record = random_record(rng, n < finished)
            await manager.records.import_record(
                json.loads(json.dumps(record)), 1000 + n, channel_id=1
            )
        return finished + unfinished
    finally:
        await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--unfinished", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, LocalPostgres() as server:
        source = Path(folder) / "games.sqlite3"
        started = time.perf_counter()
        games = asyncio.run(fill(source, args.finished, args.unfinished))
        filled = time.perf_counter() - started
        started = time.perf_counter()
        with open(Path(folder) / "log.txt", "w") as out:
            report = asyncio.run(migrate(str(source), server.url, out=out))
        seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": games,
                "fill_s": round(filled, 1),
                "rows_copied": sum(report.rows.values()),
                "actions": report.rows["actions"],
                "games_verified": report.games_replayed,
                "differences": len(report.differences),
                "migrate_and_verify_s": round(seconds, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
