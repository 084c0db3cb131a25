"""The few operations the SQL of :mod:`bot.storage.sql` needs from a database connection.

Statements are written once, with ``?`` placeholders and SQL that SQLite and PostgreSQL both
accept (``ON CONFLICT``, ``RETURNING``); each engine's adapter runs them its own way. The only
differences left are named by the adapter's :class:`Dialect`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Row = Sequence[Any]


@dataclass(frozen=True, slots=True)
class Dialect:
    #: The functions giving the larger and the smaller of two values.
    greatest: str
    least: str
    #: After a ``SELECT`` that claims rows: skip the rows another transaction holds (PostgreSQL);
    #: SQLite has one writer at a time, so nothing to add.
    skip_locked: str = ""


SQLITE = Dialect(greatest="MAX", least="MIN")
POSTGRESQL = Dialect(greatest="GREATEST", least="LEAST", skip_locked=" FOR UPDATE SKIP LOCKED")


class Db(Protocol):
    """A connection inside a transaction (writes) or ready to read."""

    dialect: Dialect

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; return how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None: ...

    async def insert_id(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """Run an ``INSERT ... RETURNING id``; the new id, or None if nothing was inserted."""


def upsert(key: str, columns: str) -> str:
    """The ``ON CONFLICT`` clause that replaces ``columns`` of the row with the same ``key``
    (both engines accept it)."""
    sets = ", ".join(f"{c} = excluded.{c}" for c in columns.split(", "))
    return f"ON CONFLICT ({key}) DO UPDATE SET {sets}"
