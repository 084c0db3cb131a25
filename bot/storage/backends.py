"""Opening the storage a setting names: the one place that knows the storage implementations.

:mod:`bot.storage` is the interface; the implementations import it, never the other way round.
"""

from __future__ import annotations

from bot.storage import Storage


async def open_storage(location: str) -> Storage:
    """Open the storage named by ``location``: a file path or ``sqlite:///path`` for SQLite.

    The one place that picks a backend; a ``postgresql://`` URL would select asyncpg here.
    """
    if location.startswith(("postgres://", "postgresql://")):
        raise ValueError("PostgreSQL storage is not available yet: use a SQLite file path")
    from bot.storage.sqlite import SqliteStorage

    return await SqliteStorage.open(location.removeprefix("sqlite:///"))
