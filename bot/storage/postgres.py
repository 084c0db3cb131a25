"""PostgreSQL under :class:`bot.storage.sql.Storage`, chosen by a ``postgresql://`` URL
(``DATABASE_URL``): the storage for several bot processes on one database. :func:`open_postgres`
opens it; its :class:`PostgresEngine` is a :class:`bot.storage.db.Engine`.

An asyncpg pool; each write is one transaction on a connection of its own (READ COMMITTED,
PostgreSQL's default durability kept: ``fsync`` and ``synchronous_commit`` on). Moves on one
game stay serialised across processes by the compare-and-set on the game's action count: a
second writer waits for the first's row lock, then finds the count changed and gets
:class:`bot.storage.WriteConflict`.

Migrations are the SQL files of ``migrations/postgresql/`` (twins of the SQLite ones, same
numbers), applied at start in order, each in one transaction with the version it brings, under
an advisory lock so that processes starting together migrate once.

Connections the server drops (a restart, ``pg_terminate_backend``, a network cut) are never
lent twice: a connection whose call failed other than by an SQL error of a sound session is
closed, and the pool opens another. asyncpg would otherwise lend a pooled connection the server
killed while it was idle: the server's unsolicited ``FATAL`` leaves asyncpg's protocol waiting
for the end of an operation that never began, until the socket's end is read, and a statement
sent meanwhile fails with ``InternalClientError: cannot switch to state 12; another operation
(2) is in progress`` before anything is sent; such a call, and one whose commit found its
connection closed, is made again on another connection (safe for a write too: nothing of it
committed).

Notifications between the processes (:meth:`PostgresEngine.notify`, ``pg_notify``) are heard
by a :class:`PgListening`: a connection of its own (not the pool's: LISTEN is a session's),
checked every :data:`PING_EVERY` seconds (a network cut closes no socket), connected again when
lost, waiting :data:`RECONNECT_FIRST` seconds, doubled after each failure up to
:data:`RECONNECT_MAX`; listening again, it says notifications may have been missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.errors import DatabaseTooNew
from bot.storage import WriteConflict
from bot.storage.db import POSTGRESQL, Db, Listening, Row, Step, run_checked
from bot.storage.migrate import MIGRATIONS, discover
from bot.storage.sql import Storage

log = logging.getLogger(__name__)
T = TypeVar("T")

PG_MIGRATIONS = MIGRATIONS / "postgresql"
#: The advisory lock held while migrating (any fixed number; "carc" in ASCII).
MIGRATION_LOCK = 0x63617263
#: A connection of its own or one lent by the pool.
Connection = asyncpg.Connection | PoolConnectionProxy
#: Seconds between two checks that a listening connection still answers, and how long a check
#: (or connecting one) may take before the connection counts as lost.
PING_EVERY = 15.0
PING_TIMEOUT = 5.0
#: Seconds before connecting again a listening connection lost: the first time, and at most
#: (doubled after each failure).
RECONNECT_FIRST = 0.05
RECONNECT_MAX = 2.0
#: The ``application_name`` of listening connections (how ``pg_stat_activity`` shows them).
LISTENING_NAME = "carcassonne listening"


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


#: SQLSTATE classes of errors after which a session is not sound: connection exception,
#: operator intervention (the server shutting the session down), system and internal errors.
UNSOUND = ("08", "57", "58", "XX")


def _sound(error: BaseException) -> bool:
    """Whether the connection a call failed on can serve again: the error is the server's
    answer to a statement (a constraint, a conflict) on a session that stays open."""
    if isinstance(error, WriteConflict):
        return True
    return isinstance(error, asyncpg.PostgresError) and error.sqlstate[:2] not in UNSOUND


def _never_sent(error: BaseException) -> bool:
    """Whether a call failed on a connection the server had closed, before asyncpg sent the
    statement (or the commit) at hand. Nothing then committed: each call is one transaction
    or one statement, and a transaction whose session died is rolled back. asyncpg says so
    only in words: the protocol refused to start (an unsolicited ``FATAL`` read, the end of the
    socket not yet), or the connection is known closed."""
    if isinstance(error, asyncpg.InternalClientError):
        return str(error).startswith("cannot switch to state")
    return isinstance(error, asyncpg.InterfaceError) and str(error).endswith("connection is closed")


class _PooledConnection(asyncpg.Connection):
    """A connection given back to the pool as it is. By default asyncpg sends a reset query
    (advisory locks, cursors, LISTEN, settings) on every release, one more round trip to the
    server per call; this storage leaves none of those behind (no SET or LISTEN, cursors only
    inside transactions, :func:`migrate` unlocks its own lock), and asyncpg still ends an open
    transaction."""

    def get_reset_query(self) -> str:
        return ""


class PostgresEngine:
    """:class:`bot.storage.db.Engine` on an asyncpg pool (open it with :func:`open_postgres`):
    each call on a connection of its own."""

    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url
        self._listening: set[PgListening] = set()

    async def close(self) -> None:
        for listening in list(self._listening):
            await listening.close()
        await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool, closed if a call on it fails other than by an SQL error
        of a sound session (see the module), so that the pool never lends it again."""
        async with self._pool.acquire() as conn:
            try:
                yield conn
            except BaseException as error:
                if not _sound(error):
                    # A connection asyncpg saw close is already out of the pool.
                    with contextlib.suppress(asyncpg.InterfaceError):
                        conn.terminate()
                raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Db]:
        async with self._connection() as conn, conn.transaction():
            yield PgDb(conn)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Db]:
        async with self._connection() as conn:
            yield PgDb(conn)

    write = read  # a lone statement is its own transaction

    async def batch(self, steps: Sequence[Step]) -> bool:
        async with self.transaction() as db:
            return await run_checked(db, steps)

    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        """``work`` made again while it fails before anything was sent (see the module), on
        another connection each time: at most once per connection the pool may hold (a
        restart of the server closes them all), and once more on a new one."""
        for _ in range(self._pool.get_max_size()):
            try:
                return await work()
            except (asyncpg.InternalClientError, asyncpg.InterfaceError) as error:
                if not _never_sent(error):
                    raise
                name = getattr(getattr(work, "func", work), "__name__", "a call")
                log.info("%s met a connection the server had closed: again", name)
        return await work()

    async def notify(self, channel: str, payload: str) -> None:
        async with self.write() as db:
            await db.execute("SELECT pg_notify(?, ?)", (channel, payload))

    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None]
    ) -> Listening:
        listening = PgListening(self._url, channel, heard, lost, self._listening.discard)
        await listening.start()
        self._listening.add(listening)
        return listening


class PgListening:
    """LISTEN on ``channel`` on a connection of its own to ``url`` (see the module): each
    notification's payload to ``heard``; ``lost()`` once listening again after the connection
    was lost. Started by :meth:`start` (which raises if the first connection fails), stopped
    by :meth:`close` (then ``closed(self)``)."""

    def __init__(
        self,
        url: str,
        channel: str,
        heard: Callable[[str], None],
        lost: Callable[[], None],
        closed: Callable[[PgListening], None],
    ) -> None:
        self._url = url
        self._channel = channel
        self._heard = heard
        self._lost = lost
        self._closed = closed
        self._conn: asyncpg.Connection | None = None
        self._dropped = asyncio.Event()
        self._watching: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._connect()
        self._watching = asyncio.get_running_loop().create_task(self._watch())

    async def close(self) -> None:
        self._closed(self)
        if self._watching is not None:
            self._watching.cancel()
            await asyncio.gather(self._watching, return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.remove_termination_listener(self._terminated)
            try:
                await asyncio.wait_for(conn.close(), PING_TIMEOUT)
            except Exception:
                conn.terminate()

    async def _connect(self) -> None:
        """A new listening connection, as ``_conn``."""
        conn = await asyncpg.connect(
            self._url, timeout=PING_TIMEOUT, server_settings={"application_name": LISTENING_NAME}
        )
        self._dropped.clear()
        self._conn = conn
        try:
            conn.add_termination_listener(self._terminated)
            await conn.add_listener(self._channel, self._notified)
        except BaseException:
            self._conn = None
            conn.terminate()
            raise

    def _notified(self, conn: Connection, pid: int, channel: str, payload: object) -> None:
        self._heard(str(payload))

    def _terminated(self, conn: object) -> None:
        if conn is self._conn:
            self._dropped.set()

    async def _answers(self, conn: asyncpg.Connection) -> bool:
        try:
            await asyncio.wait_for(conn.fetchval("SELECT 1"), PING_TIMEOUT)
        except Exception:
            log.warning("the connection listening on %s does not answer", self._channel)
            return False
        return True

    async def _watch(self) -> None:
        """Until cancelled: wait for the connection to drop (or to stop answering), then
        connect again and say so."""
        while True:
            conn = self._conn
            assert conn is not None
            try:
                await asyncio.wait_for(self._dropped.wait(), PING_EVERY)
            except TimeoutError:
                if await self._answers(conn):
                    continue
            else:
                log.warning("the connection listening on %s was lost", self._channel)
            self._conn = None
            conn.terminate()
            await self._reconnect()
            log.info("listening on %s again: what was missed is read again", self._channel)
            self._lost()

    async def _reconnect(self) -> None:
        pause = RECONNECT_FIRST
        while True:
            await asyncio.sleep(pause)
            try:
                await self._connect()
                return
            except Exception as error:
                log.warning(
                    "listening on %s: cannot connect (%s), again in %.2f s",
                    self._channel,
                    error,
                    min(pause * 2, RECONNECT_MAX),
                )
            pause = min(pause * 2, RECONNECT_MAX)


async def open_postgres(
    url: str, *, pool_size: int = 10, migrations: Path = PG_MIGRATIONS
) -> Storage:
    """The storage on the PostgreSQL database at ``url``, migrated."""
    pool = await asyncpg.create_pool(
        url, min_size=1, max_size=pool_size, connection_class=_PooledConnection
    )
    try:
        async with pool.acquire() as conn:
            await migrate(conn, migrations)
    except BaseException:
        await pool.close()
        raise
    return Storage(PostgresEngine(pool, url))
