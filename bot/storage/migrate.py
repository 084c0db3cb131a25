"""Apply the SQL files of ``migrations/`` to a SQLite database, in order, at start-up.

The schema version is ``PRAGMA user_version``: file ``0003_x.sql`` brings it to 3. Each file
runs in one transaction together with the version bump, so a crash leaves the database at the
previous version, never half-migrated. A file may widen a CHECK by editing its table's definition
(``PRAGMA writable_schema``, as SQLite's documentation gives it); every file ends by bumping the
schema cookie, so that every connection reads the definitions again. A database newer than the
newest file is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.errors import DatabaseTooNew

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def discover(directory: Path = MIGRATIONS) -> list[Migration]:
    """The migration files, checked to be numbered 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = NAME.match(path.name)
        if not match:
            raise RuntimeError(f"migration file {path.name} must be named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text("utf-8")))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(
                f"migration {migration.name} should be numbered {expected:04d}: no gaps allowed"
            )
    return found


async def migrate(db: aiosqlite.Connection, directory: Path = MIGRATIONS) -> int:
    """Bring ``db`` (in autocommit mode) to the newest version; return that version."""
    migrations = discover(directory)
    latest = len(migrations)
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    current = int(row[0]) if row else 0
    if current > latest:
        raise DatabaseTooNew(found=current, known=latest)
    for migration in migrations[current:]:
        # executescript commits anything pending first, then runs the script as written: the
        # explicit BEGIN and the COMMIT below make file + version bump a single transaction.
        try:
            await db.executescript(f"BEGIN IMMEDIATE;\n{migration.sql}")
            # A file may edit a table's definition in sqlite_master (writable_schema: how a
            # CHECK is widened without rebuilding the table), which SQLite does not count as a
            # change of schema: one more than the cookie now makes every connection read the
            # definitions again, as any other schema change does.
            async with db.execute("PRAGMA schema_version") as cursor:
                cookie = await cursor.fetchone()
            for statement in (
                f"PRAGMA schema_version = {int(cookie[0]) + 1 if cookie else 1}",
                f"PRAGMA user_version = {migration.version}",
                "COMMIT",
            ):
                async with db.execute(statement) as cursor:
                    await cursor.fetchall()
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
    return latest
