"""What a database engine gives the storage: the one extension point of :mod:`bot.storage`.

The SQL is written once, in :class:`bot.storage.sql.Storage`, on two small interfaces:

- :class:`Engine`, the database: connections lent for one call (a write transaction, a read,
  a lone write), a batch of statements checked by its first, one storage call run (again, if
  the engine can tell nothing of it reached the database), notifications between the bot
  processes sharing the database (sent, and listened to: a :class:`Listening`), and closing;
- :class:`Db`, one of its connections: the five ways the SQL runs a statement.

A backend is a module with an ``Engine``, its ``Db`` and a function that connects, migrates
and returns ``Storage(engine)`` (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`).
Statements use ``?`` placeholders and SQL that SQLite and PostgreSQL both accept
(``ON CONFLICT``, ``RETURNING``); each engine's ``Db`` runs them its own way. The only
differences left are named by the engine's :class:`Dialect`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

Row = Sequence[Any]
#: One statement of a batched transaction: SQL, parameters, and whether it is an executemany.
Step = tuple[str, Any, bool]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between engines, as the storage sees it."""

    #: The functions giving the larger and the smaller of two values.
    greatest: str
    least: str
    #: After a ``SELECT`` that claims rows: skip the rows another transaction holds (PostgreSQL);
    #: SQLite has one writer at a time, so nothing to add.
    skip_locked: str = ""
    #: Data-modifying ``WITH`` parts and ``unnest`` of arrays (PostgreSQL): a move and a
    #: notice's claim run as one statement, one round trip to the server, where SQLite runs
    #: a transaction.
    one_statement: bool = False
    #: Whether other bot processes may write the same database (then a game kept in memory is
    #: checked against the stored one before use).
    shared: bool = False


SQLITE = Dialect(greatest="MAX", least="MIN")
POSTGRESQL = Dialect(
    greatest="GREATEST",
    least="LEAST",
    skip_locked=" FOR UPDATE SKIP LOCKED",
    one_statement=True,
    shared=True,
)


class Db(Protocol):
    """A connection inside a transaction (writes) or ready to read."""

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; return how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None: ...

    async def insert_id(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """Run an ``INSERT ... RETURNING id``; the new id, or None if nothing was inserted."""


class Engine(Protocol):
    """A database under the storage: its connections, each lent for one storage call."""

    dialect: Dialect

    def transaction(self) -> AbstractAsyncContextManager[Db]:
        """A connection inside a write transaction, committed at the end (rolled back on
        error)."""

    def read(self) -> AbstractAsyncContextManager[Db]:
        """A connection to read with."""

    def write(self) -> AbstractAsyncContextManager[Db]:
        """A connection for a write of one statement, committed on its own: a transaction on
        SQLite; PostgreSQL runs a lone statement as one without BEGIN and COMMIT (two round
        trips to the server fewer)."""

    async def batch(self, steps: Sequence[Step]) -> bool:
        """Run ``steps`` as one transaction whose first statement is a compare-and-set on one
        row: everything is written if it changed that row, nothing if not (False). SQLite
        sends the whole transaction to its database thread in one trip."""

    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        """One call of the storage (one transaction, or one read): ``await work()``, made
        again by an engine that can tell nothing of it reached the database (PostgreSQL: a
        pooled connection the server had closed)."""

    async def notify(self, channel: str, payload: str) -> None:
        """Tell ``payload`` to the listeners of ``channel`` (:meth:`listen`) in every process
        on the database (PostgreSQL: ``pg_notify``, one statement of its own). Nothing on a
        database of one process (SQLite): its own listeners are told by the manager."""

    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None]
    ) -> Listening:
        """Call ``heard(payload)`` (in the event loop) for each notification of ``channel``
        from any process, this one's included; listening until the answer is closed, or the
        engine. PostgreSQL listens on a connection of its own: when it drops, the engine
        connects again (waiting a little longer after each failure) and, listening again,
        calls ``lost()``: notifications may have been missed meanwhile. SQLite never calls
        either. ``heard`` and ``lost`` do not raise (the storage's own)."""

    async def close(self) -> None:
        """Close the connections, the listening ones too."""


class Listening(Protocol):
    """What :meth:`Engine.listen` answers: closing it stops the listening."""

    async def close(self) -> None: ...


async def run_steps(db: Db, steps: Sequence[Step]) -> None:
    for sql, params, many in steps:
        if many:
            await db.executemany(sql, params)
        else:
            await db.execute(sql, params)


async def run_checked(db: Db, steps: Sequence[Step]) -> bool:
    """:meth:`Engine.batch` on a connection inside a transaction: the steps after the first
    run only if the first changed exactly one row. The first names its row by its key, so when
    it changes none, nothing was written and committing writes nothing."""
    (sql, params, _), *rest = steps
    if await db.execute(sql, params) != 1:
        return False
    await run_steps(db, rest)
    return True


def upsert(key: str, columns: str) -> str:
    """The ``ON CONFLICT`` clause that replaces ``columns`` of the row with the same ``key``
    (both engines accept it)."""
    sets = ", ".join(f"{c} = excluded.{c}" for c in columns.split(", "))
    return f"ON CONFLICT ({key}) DO UPDATE SET {sets}"
