"""The health checks on ``METRICS_PORT``: ``/healthz`` while the process answers, ``/readyz``
ready only while the database answers (and, SQLite, its file is still there), the shards are
connected and the workers run, each failing check named in the answer."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, close_bots
from test_metrics import get, monitored_bot

from bot.app import CarcassonneBot
from bot.storage.local_postgres import LocalPostgres

pytestmark = pytest.mark.simcord(settle_timeout=120)


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LocalPostgres | Path]:
    """The database the test takes away: a SQLite file, or a PostgreSQL server of its own (the
    run's shared server stays up for the other tests)."""
    if request.param == "sqlite":
        yield tmp_path / "games.sqlite3"
        return
    with LocalPostgres() as own:
        yield own


@pytest_asyncio.fixture
async def simcord_bot(server: LocalPostgres | Path) -> AsyncIterator[CarcassonneBot]:
    where = str(server) if isinstance(server, Path) else server.url
    yield monitored_bot(where)
    await close_bots()


def checks(text: str) -> dict[str, str]:
    """``/readyz``'s answer as check name → ``ok`` or why it fails."""
    return dict(line.split(": ", 1) for line in text.splitlines())


async def test_readyz_says_the_database_is_gone(
    simcord_env: simcord.Env, server: LocalPostgres | Path
) -> None:
    table = Table(simcord_env)
    bot = table.bot
    game_id = await table.new()
    status, _, text = await get(bot, "/readyz")
    assert status == 200, text
    assert checks(text) == {
        "database": "ok",
        "discord": "ok",
        "render workers": "ok",
        "computer workers": "ok",
    }
    if isinstance(server, Path):
        moved = server.with_name("elsewhere.sqlite3")
        os.replace(server, moved)
        status, _, text = await get(bot, "/readyz")
        assert status == 503, text
        assert checks(text)["database"] == (
            f"the database file {server} is gone (moved or deleted) since the bot opened it"
        )
        assert text.startswith("database: "), "the failing check comes first"
        assert checks(text)["discord"] == "ok"
        os.replace(moved, server)
        assert (await get(bot, "/readyz"))[0] == 200
    else:
        server.stop()
        status, _, text = await get(bot, "/readyz")
        assert status == 503, text
        why = checks(text)["database"]
        assert why.startswith("no answer from the database (Connection"), why
    # The process still answers: it is alive, only not ready.
    assert (await get(bot, "/healthz"))[::2] == (200, "ok\n")
    assert (await get(bot, "/metrics"))[0] == 200
    assert game_id == 1
