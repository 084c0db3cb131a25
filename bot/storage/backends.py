"""Opening the storage a setting names: the one place that knows the storage implementations.

:mod:`bot.storage` is the interface; the implementations import it, never the other way round.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from bot.errors import DatabaseUnreachable
from bot.storage import Storage


async def open_storage(location: str) -> Storage:
    """Open the storage named by ``location``: a ``postgresql://`` URL for PostgreSQL, else a
    file path or ``sqlite:///path`` for SQLite. The one place that picks a backend."""
    if location.startswith(("postgres://", "postgresql://")):
        import asyncpg

        from bot.storage.postgres import PostgresStorage

        refused = (
            TimeoutError,
            OSError,  # no server there, DNS, network
            asyncpg.PostgresConnectionError,
            asyncpg.InvalidAuthorizationSpecificationError,  # unknown role, wrong password
            asyncpg.InvalidCatalogNameError,  # no such database
        )
        try:
            return await PostgresStorage.open(location)
        except refused as error:
            raise DatabaseUnreachable(
                where=shown(location), reason=str(error) or type(error).__name__
            ) from error
    from bot.storage.sqlite import SqliteStorage

    return await SqliteStorage.open(location.removeprefix("sqlite:///"))


def shown(location: str) -> str:
    """``location`` fit for logs and messages: a URL's password is masked."""
    parts = urlsplit(location)
    if parts.password is None:
        return location
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
