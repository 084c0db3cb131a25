"""The health checks on ``METRICS_PORT``: ``/healthz`` while the process answers, ``/readyz``
ready only while the database answers (and, SQLite, its file is still there), the shards are
connected and the workers run, each failing check named in the answer."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, close_bots
from test_metrics import get, monitored_bot

from bot.app import CarcassonneBot
from bot.computers import ComputerPlayers
from bot.render_pool import RenderPool
from bot.storage.local_postgres import LocalPostgres
from renderer.jobs import Job
from renderer.options import RenderOptions

pytestmark = pytest.mark.simcord(settle_timeout=120)

#: A player's statistics: a picture drawn from plain data alone.
STATS_EXTRA = {
    "name": "Zoé",
    "games": 7,
    "categories": (("city", 120), ("road", 9)),
    "kinds": ("carcassonne",),
    "style": 3,
}


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
    simcord_env: simcord.Env, server: LocalPostgres | Path, monkeypatch: pytest.MonkeyPatch
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
    # A shard's gateway connection closed (Discord is down, or the network): named too.
    with monkeypatch.context() as patched:
        patched.setattr(discord.ShardInfo, "is_closed", lambda self: True)
        status, _, text = await get(bot, "/readyz")
        assert status == 503 and checks(text)["discord"] == "shard 0 disconnected", text
        assert 'carcassonne_shard_connected{shard="0"} 0.0' in (await get(bot, "/metrics"))[2]
    assert (await get(bot, "/readyz"))[0] == 200
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


async def test_a_dead_render_worker_is_reported_until_its_next_picture() -> None:
    pool = RenderPool(1)
    try:
        await pool.warm()
        assert pool.stopped() == []
        (pid,) = pool.pids
        os.kill(pid, signal.SIGKILL)
        for _ in range(100):
            if pool.stopped():
                break
            await asyncio.sleep(0.05)
        assert pool.stopped() == [0]
        job = Job("stats", {}, RenderOptions(), extra=STATS_EXTRA)
        png, _ = await pool.draw(job)
        assert png.startswith(b"\x89PNG") and pool.stopped() == []
    finally:
        pool.close()


async def test_computer_workers_that_cannot_decide_are_reported() -> None:
    computers = ComputerPlayers(workers=1)
    assert await computers.answering() is None  # not started: the first turn starts them
    computers.start()
    try:
        assert await computers.answering() is None
        assert computers._pool is not None
        pid = await asyncio.get_running_loop().run_in_executor(computers._pool, os.getpid)
        os.kill(pid, signal.SIGKILL)
        why = None
        for _ in range(100):
            why = await computers.answering(timeout=2)
            if why is not None:
                break
            await asyncio.sleep(0.05)
        assert why is not None and why.startswith("the computer workers cannot decide: "), why
    finally:
        computers.close()
