"""PostgreSQL under :class:`bot.storage.sql.SqlStorage`, chosen by a ``postgresql://`` URL
(``DATABASE_URL``): the storage for several bot processes on one database.

An asyncpg pool; each write is one transaction on a connection of its own (READ COMMITTED,
PostgreSQL's default durability kept: ``fsync`` and ``synchronous_commit`` on). Moves on one
game stay serialised across processes by the compare-and-set on the game's action count: a
second writer waits for the first's row lock, then finds the count changed and gets
:class:`bot.storage.WriteConflict`.

Migrations are the SQL files of ``migrations/postgresql/`` (twins of the SQLite ones, same
numbers), applied at start in order, each in one transaction with the version it brings, under
an advisory lock so that processes starting together migrate once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.errors import DatabaseTooNew
from bot.storage.db import POSTGRESQL, Db, Row
from bot.storage.migrate import MIGRATIONS, discover
from bot.storage.sql import SqlStorage

PG_MIGRATIONS = MIGRATIONS / "postgresql"
#: The advisory lock held while migrating (any fixed number; "carc" in ASCII).
MIGRATION_LOCK = 0x63617263
#: A connection of its own or one lent by the pool.
Connection = asyncpg.Connection | PoolConnectionProxy


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the bot's SQL has no ``?`` in text)."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _changed(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgDb:
    """:class:`bot.storage.db.Db` on one asyncpg connection."""

    dialect = POSTGRESQL

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return _changed(await self._conn.execute(numbered(sql), *args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self._conn.executemany(numbered(sql), rows)

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in await self._conn.fetch(numbered(sql), *args)]

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        row = await self._conn.fetchrow(numbered(sql), *args)
        return None if row is None else tuple(row)

    async def insert_id(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return await self._conn.fetchval(numbered(sql), *args)


async def migrate(conn: Connection, directory: Path = PG_MIGRATIONS) -> int:
    """Bring the database to the newest version of ``directory``; return that version."""
    migrations = discover(directory)
    latest = len(migrations)
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
        if current > latest:
            raise DatabaseTooNew(found=current, known=latest)
        for migration in migrations[current:]:
            async with conn.transaction():
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_version (version) VALUES ($1)", migration.version
                )
        return latest
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


class _PooledConnection(asyncpg.Connection):
    """A connection given back to the pool as it is. By default asyncpg sends a reset query
    (advisory locks, cursors, LISTEN, settings) on every release, one more round trip to the
    server per call; this storage leaves none of those behind (no SET or LISTEN, cursors only
    inside transactions, :func:`migrate` unlocks its own lock), and asyncpg still ends an open
    transaction."""

    def get_reset_query(self) -> str:
        return ""


class PostgresStorage(SqlStorage):
    """Open with :meth:`open` (migrates); close with :meth:`close`."""

    shared = True

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(
        cls, url: str, *, pool_size: int = 10, migrations: Path = PG_MIGRATIONS
    ) -> PostgresStorage:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=pool_size, connection_class=_PooledConnection
        )
        try:
            async with pool.acquire() as conn:
                await migrate(conn, migrations)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Db]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield PgDb(conn)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Db]:
        async with self._pool.acquire() as conn:
            yield PgDb(conn)
