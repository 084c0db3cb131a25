"""Opening the storage a setting names: the one place that knows the database engines.

:class:`bot.storage.sql.Storage` runs on any :class:`bot.storage.db.Engine`; the engines'
modules import it, never the other way round.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from bot.errors import DatabaseUnreachable
from bot.storage.sql import Storage


async def open_storage(location: str) -> Storage:
    """Open the storage named by ``location``: a ``postgresql://`` URL for PostgreSQL, else a
    file path or ``sqlite:///path`` for SQLite. The one place that picks a backend."""
    if location.startswith(("postgres://", "postgresql://")):
        import asyncpg

        from bot.storage.postgres import open_postgres

        refused = (
            TimeoutError,
            OSError,  # no server there, DNS, network
            asyncpg.PostgresConnectionError,
            asyncpg.InvalidAuthorizationSpecificationError,  # unknown role, wrong password
            asyncpg.InvalidCatalogNameError,  # no such database
        )
        try:
            return await open_postgres(location)
        except refused as error:
            raise DatabaseUnreachable(
                where=shown(location), reason=str(error) or type(error).__name__
            ) from error
    from bot.storage.sqlite import open_sqlite

    return await open_sqlite(location.removeprefix("sqlite:///"))


def shown(location: str) -> str:
    """``location`` fit for logs and messages: a URL's password is masked."""
    parts = urlsplit(location)
    if parts.password is None:
        return location
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
