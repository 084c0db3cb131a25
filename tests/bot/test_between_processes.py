"""Changes told between bot processes on one database: a move stored by one manager reaches the
listeners of another (``on_remote_change``) within a second over PostgreSQL's LISTEN/NOTIFY; a
listening connection the server drops is connected again and says changes may have been
missed; SQLite (one process per file) neither sends nor hears anything; and an announcement
that fails never fails the move."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from conftest import Postgres, play_random, started_game

from bot.manager import GameManager
from bot.storage import postgres as pg
from bot.storage.faults import POINTS, Faults
from bot.storage.postgres import LISTENING_NAME

#: The longest a change may take to reach another process.
SECOND = 1.0


@pytest.fixture
def pg_url(postgres: Postgres) -> Iterator[str]:
    name = postgres.fresh()
    yield postgres.server.url_of(name)
    postgres.drop(name)


class Heard:
    """What a manager's listener of remote changes was told, in order."""

    def __init__(self) -> None:
        self.changed: asyncio.Queue[int] = asyncio.Queue()
        self.resyncs: asyncio.Queue[None] = asyncio.Queue()

    async def subscribe(self, manager: GameManager) -> None:
        await manager.on_remote_change(
            self.changed.put_nowait, lambda: self.resyncs.put_nowait(None)
        )

    async def next_change(self, timeout: float = SECOND) -> int:
        return await asyncio.wait_for(self.changed.get(), timeout)

    def drain(self) -> list[int]:
        found = []
        while not self.changed.empty():
            found.append(self.changed.get_nowait())
        return found


async def listening_pids(admin: asyncpg.Connection) -> list[int]:
    rows = await admin.fetch(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
        "AND application_name = $1",
        LISTENING_NAME,
    )
    return [r["pid"] for r in rows]


async def test_a_move_in_one_process_reaches_the_other_within_a_second(pg_url: str) -> None:
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    heard_first, heard_second = Heard(), Heard()
    try:
        await heard_first.subscribe(first)
        await heard_second.subscribe(second)
        view = await started_game(first)
        # The start is a change too, heard by both (the process that made it as well).
        assert await heard_second.next_change() == view.game_id
        assert await heard_first.next_change() == view.game_id
        rng = random.Random(3)
        for _ in range(4):
            before = time.monotonic()
            view = (await play_random(first, view, rng)).view
            assert await heard_second.next_change() == view.game_id
            assert time.monotonic() - before < SECOND
            # Told once stored: the other process reads the move.
            assert await second.storage.action_count(view.game_id) == len(
                await first.storage.get_actions(view.game_id)
            )
            assert (await second.decision(view.game_id)).turn == view.turn
            assert await heard_first.next_change() == view.game_id
        # The other way round too, and nothing else was told.
        assert heard_first.drain() == heard_second.drain() == []
        view = await second.decision(view.game_id)
        await play_random(second, view, rng)
        assert await heard_first.next_change() == view.game_id
        assert heard_first.resyncs.empty() and heard_second.resyncs.empty()
    finally:
        await first.close()
        await second.close()


async def test_a_dropped_listening_connection_is_connected_again_and_says_so(
    postgres: Postgres, pg_url: str
) -> None:
    """The server ends the listening session (``pg_terminate_backend``) while it refuses new
    connections to the database: the listener tries again until it may, then says changes may
    have been missed, and hears the next move."""
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    heard = Heard()
    admin = await asyncpg.connect(pg_url)
    database = await admin.fetchval("SELECT current_database()")

    async def allow(connections: bool) -> None:  # said from another database
        statement = f"ALTER DATABASE {database} WITH ALLOW_CONNECTIONS {str(connections).lower()}"
        await asyncio.to_thread(postgres.sql, statement)

    try:
        await heard.subscribe(second)
        view = await started_game(first)
        assert await heard.next_change() == view.game_id
        (old,) = await listening_pids(admin)
        await allow(False)
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", old)
        await asyncio.sleep(0.5)  # several attempts refused meanwhile
        assert heard.resyncs.empty()
        assert await listening_pids(admin) == []
        await allow(True)
        await asyncio.wait_for(heard.resyncs.get(), 5.0)
        (new,) = await listening_pids(admin)
        assert new != old
        view = (await play_random(first, view, random.Random(5))).view
        assert await heard.next_change() == view.game_id
        assert heard.resyncs.empty()
    finally:
        await allow(True)
        await admin.close()
        await first.close()
        await second.close()


async def test_a_listening_connection_that_stops_answering_is_replaced(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cut that closes no socket: the server's session stops (``SIGSTOP``), the listener's
    check goes unanswered, and it listens on a new connection."""
    monkeypatch.setattr(pg, "PING_EVERY", 0.2)
    monkeypatch.setattr(pg, "PING_TIMEOUT", 0.5)
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    heard = Heard()
    admin = await asyncpg.connect(pg_url)
    old = 0
    try:
        await heard.subscribe(second)
        (old,) = await listening_pids(admin)
        os.kill(old, signal.SIGSTOP)
        await asyncio.wait_for(heard.resyncs.get(), 5.0)
        assert old in await listening_pids(admin)  # stopped, still there: replaced all the same
        view = await started_game(first)
        assert await heard.next_change() == view.game_id
    finally:
        if old:
            os.kill(old, signal.SIGCONT)
            await admin.execute("SELECT pg_terminate_backend($1)", old)
        await admin.close()
        await first.close()
        await second.close()


async def test_closing_the_manager_stops_its_listening(pg_url: str) -> None:
    manager = await GameManager.open(pg_url)
    admin = await asyncpg.connect(pg_url)
    try:
        await Heard().subscribe(manager)
        await Heard().subscribe(manager)  # one connection for all the manager's listeners
        assert len(await listening_pids(admin)) == 1
        await manager.close()
        for _ in range(100):
            if not await listening_pids(admin):
                break
            await asyncio.sleep(0.01)
        assert await listening_pids(admin) == []
    finally:
        await admin.close()


async def test_sqlite_announces_nothing_and_hears_nothing(tmp_path: Path) -> None:
    manager = await GameManager.open(str(tmp_path / "games.sqlite3"))
    heard = Heard()
    faults = Faults(manager.storage)
    try:
        await heard.subscribe(manager)
        view = await started_game(manager)
        faults.arm()
        view = (await play_random(manager, view, random.Random(2))).view
        assert "announce" not in faults.disarm()  # one process per file: nobody to tell
        await manager.storage.announce(view.game_id)  # harmless
        await asyncio.sleep(0.2)
        assert heard.drain() == [] and heard.resyncs.empty()
    finally:
        await manager.close()


async def test_an_announcement_that_fails_fails_no_move(pg_url: str) -> None:
    """The announcement follows the durable write: its failure (before the notification is
    sent, or after) is logged, and the move is stored and live all the same."""
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    faults = Faults(first.storage)
    try:
        view = await started_game(first)
        rng = random.Random(6)
        faults.arm()
        view = (await play_random(first, view, rng)).view
        calls = faults.disarm()
        assert calls.count("announce") == 1
        at = calls.index("announce") + 1
        for point in POINTS:
            faults.arm(at, point)
            result = await play_random(first, view, rng)
            faults.disarm()
            assert faults.fired == (at, "announce")
            view = result.view
            stored = await first.storage.get_actions(view.game_id)
            live = first.cache.get(view.game_id)
            assert live is not None and len(live.log) == len(stored)
            other = await second.decision(view.game_id)
            assert (other.turn, other.phase) == (view.turn, view.phase)
        # And the game goes on.
        view = (await play_random(first, view, rng)).view
        assert await second.storage.action_count(view.game_id) == len(
            await first.storage.get_actions(view.game_id)
        )
    finally:
        await first.close()
        await second.close()
