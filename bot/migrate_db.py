"""``python -m bot migrate-db --to postgresql://...``: move a SQLite database to PostgreSQL.

Everything is copied (games, seats, action logs, deadlines, votes, settings, dashboards,
followers, leagues with their seasons, members, results and log, game reviews) in one
transaction on the target, then checked in that same transaction before it commits: every table
must hold the same rows on both sides, and every started game is replayed from its record on
both sides and must reach the same state. Any difference rolls the whole copy back and prints
what differs; the SQLite file is only read. The target must be empty (a database just created,
or one the bot has only migrated).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.errors import ManagerError
from bot.live import replay
from bot.storage.backends import shown
from bot.storage.db import Db
from bot.storage.postgres import PgDb, PostgresEngine, open_postgres
from bot.storage.sql import Storage
from bot.storage.sqlite import open_sqlite

#: Every table, parents before children (foreign keys), with the columns that order its rows.
TABLES: tuple[tuple[str, str], ...] = (
    ("guild_settings", "guild_id"),
    ("user_settings", "user_id"),
    ("digests", "guild_id"),
    ("games", "id"),
    ("seats", "game_id, seat"),
    ("actions", "game_id, idx"),
    ("deadlines", "game_id, kind"),
    ("undo_votes", "game_id, action_idx, user_id"),
    ("abandon_votes", "game_id, user_id"),
    ("pause_votes", "game_id, user_id"),
    ("dashboards", "channel_id"),
    ("followers", "game_id, user_id"),
    ("leagues", "id"),
    ("league_seasons", "league_id, season"),
    ("league_members", "league_id, user_id"),
    ("league_games", "game_id"),
    ("league_results", "id"),
    ("league_placings", "result_id, seat"),
    ("league_audit", "id"),
    ("tournaments", "id"),
    ("tournament_entrants", "tournament_id, user_id"),
    ("tournament_games", "tournament_id, round, table_no, game_no"),
    ("tournament_audit", "id"),
    ("forgotten", "number"),
    ("reviews", "game_id"),
    ("review_seats", "game_id, seat"),
)
#: Tables whose ids come from an identity column: its sequence goes on after the copied ids.
IDENTITIES = (
    ("games", "id"),
    ("leagues", "id"),
    ("league_results", "id"),
    ("league_audit", "id"),
    ("tournaments", "id"),
    ("tournament_audit", "id"),
    ("forgotten", "number"),
)


class MigrationFailed(Exception):
    """The copy differs from the source: the report says where; nothing was committed."""


@dataclass
class Report:
    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0
    differences: list[str] = field(default_factory=list)

    def differ(self, text: str) -> None:
        if len(self.differences) < 50:
            self.differences.append(text)


async def _columns(db: Db, table: str) -> list[tuple[str, str]]:
    rows = await db.fetchall(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    return [(str(r[0]), str(r[1])) for r in rows]


def _typed(value: Any, kind: str) -> Any:
    """A SQLite value as the PostgreSQL column's type wants it (SQLite does not enforce types)."""
    if value is None:
        return None
    if kind == "double precision":
        return float(value)
    if kind in ("bigint", "integer", "smallint"):
        return int(value)
    return str(value)


async def _rows(db: Db, table: str, order: str, columns: Sequence[tuple[str, str]]) -> list[Any]:
    names = ", ".join(name for name, _ in columns)
    found = await db.fetchall(f"SELECT {names} FROM {table} ORDER BY {order}")
    return [
        tuple(_typed(v, kind) for v, (_, kind) in zip(row, columns, strict=True)) for row in found
    ]


async def _state(storage: Storage, db: Db, game_id: int) -> str:
    """What replaying a game's record gives: its engine snapshot, or why it does not replay."""
    (row,) = await storage._games(db, "WHERE id = ?", (game_id,))
    if row.status == "lobby" or row.seed is None:
        return f"lobby with {len(row.seats)} seats"
    actions = await storage._actions(db, game_id)
    try:
        return repr(sorted(replay(row, actions).snapshot().items()))
    except (ValueError, KeyError) as error:
        return f"does not replay: {error}"


async def migrate(source: str, target: str, *, out: Any = sys.stdout) -> Report:
    """Copy the SQLite database at ``source`` into the PostgreSQL database ``target``."""
    report = Report()
    old = await open_sqlite(source)
    new = await open_postgres(target)
    try:
        assert isinstance(new.engine, PostgresEngine)
        pool = new.engine._pool  # the copy goes through asyncpg's COPY, on one transaction
        async with old.engine.read() as src, pool.acquire() as conn, conn.transaction():
            dst = PgDb(conn)
            for table in ("games", "leagues", "guild_settings", "user_settings"):
                found = await dst.fetchone(f"SELECT count(*) FROM {table}")
                if found and found[0]:
                    raise MigrationFailed(
                        f"the target already holds {found[0]} rows in {table}: migrate into an "
                        "empty database (create a new one, or drop and create it again)"
                    )
            copied: dict[str, list[Any]] = {}
            for table, order in TABLES:
                columns = await _columns(dst, table)
                rows = copied[table] = await _rows(src, table, order, columns)
                if rows:
                    await conn.copy_records_to_table(
                        table, records=rows, columns=[name for name, _ in columns]
                    )
                report.rows[table] = len(rows)
                print(f"copied {table}: {len(rows)} rows", file=out, flush=True)
            for table, key in IDENTITIES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{key}'), "
                    f"COALESCE((SELECT max({key}) FROM {table}), 0) + 1, false)"
                )
            await _verify(old, src, new, dst, copied, report)
            print(f"replayed {report.games_replayed} games on both sides", file=out, flush=True)
            if report.differences:
                raise MigrationFailed("\n".join(report.differences))
    finally:
        await old.close()
        await new.close()
    return report


async def _verify(
    old: Storage,
    src: Db,
    new: Storage,
    dst: Db,
    copied: dict[str, list[Any]],
    report: Report,
) -> None:
    """Every table read back from the target equals what was read from the source, and every
    game replays to the same state on both sides."""
    for table, order in TABLES:
        before = copied[table]
        after = await _rows(dst, table, order, await _columns(dst, table))
        if before != after:
            first = next(
                (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
                min(len(before), len(after)),
            )
            report.differ(
                f"{table}: {len(before)} rows in SQLite, {len(after)} in PostgreSQL; "
                f"first difference at row {first + 1}"
            )
    ids = [row[0] for row in await src.fetchall("SELECT id FROM games ORDER BY id")]
    for game_id in ids:
        mine, theirs = await _state(old, src, game_id), await _state(new, dst, game_id)
        if mine != theirs:
            report.differ(f"game #{game_id}: its replay differs ({mine[:80]} / {theirs[:80]})")
        report.games_replayed += 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot migrate-db", description=__doc__)
    parser.add_argument("--to", required=True, help="the PostgreSQL URL to copy into")
    parser.add_argument(
        "--from",
        dest="source",
        default=os.environ.get("CARCASSONNE_DB", "").strip() or "carcassonne.sqlite3",
        help="the SQLite file (default: CARCASSONNE_DB, else carcassonne.sqlite3)",
    )
    args = parser.parse_args(argv)
    if not args.to.startswith(("postgresql://", "postgres://")):
        parser.error(f"--to must be a postgresql:// URL, got {shown(args.to)!r}")
    if not os.path.exists(args.source):
        parser.error(f"no SQLite database at {args.source!r}: give its path with --from")
    started = time.perf_counter()
    try:
        report = asyncio.run(migrate(args.source, args.to))
    except MigrationFailed as failed:
        print(f"migration stopped, nothing was written to the target:\n{failed}", file=sys.stderr)
        return 1
    except ManagerError as error:
        print(error.message("en"), file=sys.stderr)
        return 1
    total = sum(report.rows.values())
    print(
        f"done in {time.perf_counter() - started:.1f} s: {total} rows, {report.games_replayed} "
        f"games verified; start the bot with DATABASE_URL={shown(args.to)}"
    )
    return 0
