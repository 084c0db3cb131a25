"""SQLite under :class:`bot.storage.sql.Storage` (the default storage: one file, no server):
:func:`open_sqlite`, whose :class:`SqliteEngine` is a :class:`bot.storage.db.Engine`.

One aiosqlite connection in autocommit mode; each call takes an asyncio lock so that the
transactions of concurrent coroutines never interleave on the shared connection, and writes run
inside ``BEGIN IMMEDIATE ... COMMIT``. WAL journal (readers never block the writer), foreign keys
on, ``synchronous=FULL`` by default so a committed action survives even a power cut; ``NORMAL``
(``durable=False``) still survives any crash of the process itself. One bot process per file:
notifications between processes are neither sent nor heard (the manager tells its own
listeners).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.db import SQLITE, Db, Listening, Row, Step
from bot.storage.migrate import MIGRATIONS, migrate
from bot.storage.sql import Storage

log = logging.getLogger(__name__)
T = TypeVar("T")


def _transaction(conn: sqlite3.Connection, steps: Sequence[Step]) -> bool:
    """Run ``steps`` as one transaction on the database thread; the first is a checked update.

    False (rolled back, nothing written) when the first statement changes not exactly one row.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        for index, (sql, params, many) in enumerate(steps):
            cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
            if index == 0 and cursor.rowcount != 1:
                conn.rollback()
                return False
            cursor.close()
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return True


#: Write transactions between two checkpoints of the write-ahead log.
CHECKPOINT_EVERY = 500


async def connect(path: str) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode whose worker thread never keeps the process
    alive: a storage left open (a crashed handler, a test that failed) must not stop the
    interpreter from exiting. Nothing is lost by it: every write is committed on that thread
    before the awaiting coroutine goes on, and SQLite's journal rolls back a torn transaction.
    """
    pending = aiosqlite.connect(path, isolation_level=None)
    pending._thread.daemon = True  # aiosqlite (pinned) starts this thread on the first await
    return await pending


class SqliteDb:
    """:class:`bot.storage.db.Db` on the engine's aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._db = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        async with self._db.execute(sql, args) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self._db.execute(sql, args) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self._db.execute(sql, args) as cursor:
            row = await cursor.fetchone()
        return None if row is None else tuple(row)

    async def insert_id(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, args)
        return None if row is None else row[0]


class SqliteEngine:
    """:class:`bot.storage.db.Engine` on one aiosqlite connection (open it with
    :func:`open_sqlite`).

    Checkpoints: SQLite would copy the write-ahead log into the database inside whichever commit
    crosses its threshold, stalling that move (and every move queued behind it) for up to
    hundreds of ms. For a database file, automatic checkpoints are off and a passive checkpoint
    runs every :data:`CHECKPOINT_EVERY` commits on a connection of its own, beside the moves.
    """

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: str | None = None) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._path = path
        self._commits = 0
        self._checkpointing: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        async with self._lock:
            await self._conn.close()  # the last connection to close checkpoints the log

    def _committed(self) -> None:
        self._commits += 1
        if self._path is None or self._commits < CHECKPOINT_EVERY:
            return
        if self._checkpointing is None or self._checkpointing.done():
            self._commits = 0
            self._checkpointing = asyncio.get_running_loop().create_task(
                self._checkpoint(self._path)
            )

    async def _checkpoint(self, path: str) -> None:
        """Copy the log into the database without blocking writers (``PASSIVE``)."""
        try:
            db = await connect(path)
            try:
                async with db.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
                    await cursor.fetchall()
            finally:
                await db.close()
        except Exception:  # the next checkpoint tries again; a failure loses nothing
            log.warning("checkpoint of %s failed", path, exc_info=True)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Db]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteDb(self._conn)
            except BaseException:
                await self._conn.rollback()
                raise
            await self._conn.commit()
            self._committed()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Db]:
        async with self._lock:
            yield SqliteDb(self._conn)

    write = transaction  # a lone statement is a transaction of its own

    async def batch(self, steps: Sequence[Step]) -> bool:
        # The hot path of every move: one trip to the database thread for the whole
        # transaction instead of one per statement.
        async with self._lock:
            # aiosqlite (pinned) runs a function on its database thread with ``_execute``.
            done: bool = await self._conn._execute(_transaction, self._conn._conn, steps)  # type: ignore[no-untyped-call]
            if done:
                self._committed()
        return done

    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        return await work()

    async def notify(self, channel: str, payload: str) -> None:
        """Nothing: one process per database file, whose listeners the manager tells."""

    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None]
    ) -> Listening:
        """Nothing to listen to (no other process writes the file): never calls back."""
        return _Unheard()


class _Unheard:
    """The listening of an SQLite engine: nothing is ever heard, nothing to stop."""

    async def close(self) -> None:
        pass


async def open_sqlite(
    path: str | Path, *, durable: bool = True, migrations: Path = MIGRATIONS
) -> Storage:
    """The storage on the SQLite database at ``path``, created if needed and migrated."""
    db = await connect(str(path))
    try:
        # Some PRAGMAs answer with a row: close each cursor, or SQLite sees a statement
        # still in progress and refuses the migration's COMMIT.
        for pragma in (
            "PRAGMA journal_mode = WAL",
            "PRAGMA foreign_keys = ON",
            f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}",
            "PRAGMA busy_timeout = 5000",
        ):
            async with db.execute(pragma) as cursor:
                await cursor.fetchall()
        await migrate(db, migrations)
        location = str(path)
        on_disk = location != ":memory:" and not location.startswith("file::memory:")
        if on_disk:
            async with db.execute("PRAGMA wal_autocheckpoint = 0") as cursor:
                await cursor.fetchall()
    except BaseException:
        await db.close()
        raise
    return Storage(SqliteEngine(db, location if on_disk else None))
