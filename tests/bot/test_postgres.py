"""PostgreSQL as the storage of several bot processes: a real server started by the test run
(see conftest), the same migrations as SQLite's, one move on a game accepted once whichever
process sends it, and clear messages when the server cannot be used."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from conftest import ALICE, BOB, Postgres, play_random, random_action, started_game

from bot.app import Settings
from bot.errors import (
    Conflict,
    DatabaseTooNew,
    DatabaseUnreachable,
    NotActive,
    StaleAction,
    StaleStep,
)
from bot.manager import GameManager
from bot.storage.backends import open_storage, shown
from bot.storage.db import Db
from bot.storage.local_postgres import free_port
from bot.storage.postgres import PostgresEngine, numbered, open_postgres


@pytest.fixture
def pg_url(postgres: Postgres) -> Iterator[str]:
    name = postgres.fresh()
    yield postgres.server.url_of(name)
    postgres.drop(name)


def test_placeholders_are_numbered_for_postgresql() -> None:
    assert numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == (
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    )


async def test_a_postgresql_url_opens_the_postgresql_storage(pg_url: str) -> None:
    storage = await open_storage(pg_url)
    try:
        assert isinstance(storage.engine, PostgresEngine)
    finally:
        await storage.close()


async def test_the_same_tables_and_columns_on_both_engines(pg_url: str, tmp_path: Path) -> None:
    """The PostgreSQL migrations are twins of SQLite's: same tables, same columns, in order."""
    storage = await open_storage(str(tmp_path / "games.sqlite3"))
    await storage.close()
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        lite = {t: [c[1] for c in db.execute(f"PRAGMA table_info({t})")] for t in tables}
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )
    finally:
        await conn.close()
    pg: dict[str, list[str]] = {}
    for row in rows:
        pg.setdefault(row["table_name"], []).append(row["column_name"])
    assert pg.pop("schema_version") == ["version"]
    assert pg == lite


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    storages = await asyncio.gather(*(open_postgres(pg_url) for _ in range(4)))
    for storage in storages:
        await storage.close()
    conn = await asyncpg.connect(pg_url)
    try:
        versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_version")]
    finally:
        await conn.close()
    assert versions == sorted(set(versions)) and versions[-1] == len(versions)


async def test_a_database_newer_than_the_bot_is_refused(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("INSERT INTO schema_version (version) VALUES (999)")
    finally:
        await conn.close()
    with pytest.raises(DatabaseTooNew):
        await open_postgres(pg_url)


async def test_two_processes_on_one_game_each_move_is_accepted_once(pg_url: str) -> None:
    """Two managers (two bot processes) on one database, both sending the same move: the
    database accepts exactly one; the other is told to try again and nothing is duplicated."""
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    try:
        view = await started_game(first, users=(ALICE, BOB))
        rng = random.Random(4)
        for _ in range(30):
            view = await first.decision(view.game_id)
            other = await second.decision(view.game_id)
            assert (other.turn, other.phase) == (view.turn, view.phase)
            action = random_action(view, rng)
            assert view.user_id is not None
            step = {"turn": view.turn, "phase": view.phase}  # as the bot's buttons send it
            outcomes = await asyncio.gather(
                first.play_turn(view.game_id, view.user_id, action, **step),  # type: ignore[arg-type]
                second.play_turn(view.game_id, view.user_id, action, **step),  # type: ignore[arg-type]
                return_exceptions=True,
            )
            won = [o for o in outcomes if not isinstance(o, BaseException)]
            lost = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(won) == 1, outcomes
            # Refused by the database (both read the game before either wrote), or, on a busy
            # machine where one started after the other's move was stored, as already played.
            assert len(lost) == 1 and isinstance(lost[0], (Conflict, StaleAction)), lost
        stored = await first.storage.get_actions(view.game_id)
        assert [a.idx for a in stored] == list(range(len(stored)))
        assert len(stored) >= 30
        # Both processes read the same game afterwards, and play on.
        a, b = await first.decision(view.game_id), await second.decision(view.game_id)
        assert (a.turn, a.phase, a.scores) == (b.turn, b.phase, b.scores)
        await play_random(second, b, rng)
    finally:
        await first.close()
        await second.close()


async def test_an_unreachable_server_gets_a_clear_message() -> None:
    url = f"postgresql://bot:secret@127.0.0.1:{free_port()}/carcassonne"
    with pytest.raises(DatabaseUnreachable) as refused:
        await open_storage(url)
    text = refused.value.message("en")
    assert "127.0.0.1" in text and "secret" not in text and "DATABASE_URL" in text
    assert shown(url).startswith("postgresql://bot:***@127.0.0.1:")


def test_database_url_chooses_postgresql_and_a_bad_one_is_explained() -> None:
    base = {"DISCORD_TOKEN": "x"}
    assert Settings.from_env(base).database.endswith(".sqlite3")
    url = "postgresql://bot@db.example:5432/carcassonne"
    assert Settings.from_env({**base, "DATABASE_URL": url}).database == url
    with pytest.raises(SystemExit) as refused:
        Settings.from_env({**base, "DATABASE_URL": "mysql://root:pw@x/db"})
    assert "postgresql://" in str(refused.value) and "pw" not in str(refused.value)


async def test_a_process_sees_the_moves_another_process_stored(pg_url: str) -> None:
    """A game kept in memory is checked against the database: after another process moved
    it (a timeout its scheduler played, say), the next click plays on the stored game."""
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    try:
        view = await started_game(first, users=(ALICE, BOB))
        rng = random.Random(7)
        for _ in range(12):
            mover, other = (first, second) if rng.random() < 0.5 else (second, first)
            view = await mover.decision(view.game_id)
            view = (await play_random(mover, view, rng)).view
            seen = await other.decision(view.game_id)
            assert (seen.turn, seen.phase, seen.user_id) == (view.turn, view.phase, view.user_id)
            assert (await other.game(view.game_id)).action_count == (
                await mover.game(view.game_id)
            ).action_count
    finally:
        await first.close()
        await second.close()


async def test_a_move_on_a_copy_behind_the_database_is_judged_on_the_stored_game(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process plays a move on its cached game without asking the database first (one
    round trip less per move); when another process moved the game meanwhile, the write finds
    out and the move is judged on the game as stored: played if it answers the stored
    decision, refused as stale if not, and refused if the game was abandoned."""
    first = await GameManager.open(pg_url)
    second = await GameManager.open(pg_url)
    try:
        view = await started_game(first, users=(ALICE, BOB))
        game_id = view.game_id
        rng = random.Random(5)
        await second.decision(game_id)  # the second process caches the game
        asked = 0
        counting = second.storage.action_count

        async def action_count(game: int) -> int | None:
            nonlocal asked
            asked += 1
            return await counting(game)

        monkeypatch.setattr(second.storage, "action_count", action_count)
        # Current copy: played without asking the database whether it is current.
        view = (await play_random(second, view, rng)).view
        assert asked == 0
        # The first process plays twice: the second's copy is two moves behind.
        old = view
        for _ in range(2):
            view = (await play_random(first, await first.decision(game_id), rng)).view
        view = (await play_random(second, view, rng)).view  # the stored decision's answer
        stored = await first.storage.get_actions(game_id)
        assert [a.idx for a in stored] == list(range(4))
        with pytest.raises((StaleAction, StaleStep)):  # answers a decision long gone
            await play_random(second, old, rng)
        assert len(await first.storage.get_actions(game_id)) == 4
        # Behind by an abandon (no move stored): the move is refused, the game stays abandoned.
        await second.decision(game_id)
        await first.abandon(game_id, ALICE)
        with pytest.raises(NotActive):
            await play_random(second, view, rng)
        row = await first.storage.get_game(game_id)
        assert row is not None and row.status == "abandoned" and row.action_count == 4
    finally:
        await first.close()
        await second.close()


async def test_connections_the_server_dropped_are_never_lent_again(pg_url: str) -> None:
    """``pg_terminate_backend`` on the pool's idle connections before each move: asyncpg would
    lend each one once more and fail its next statement (``cannot switch to state 12``); the
    storage sends the move on another connection, and every move is stored."""
    storage = await open_postgres(pg_url, pool_size=3)
    manager = GameManager(storage)
    admin = await asyncpg.connect(pg_url)
    try:
        view = await started_game(manager)
        rng = random.Random(4)
        for _ in range(12):
            pids = await admin.fetchval(
                "SELECT array_agg(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            await admin.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid", pids)
            while await admin.fetchval(  # gone: their goodbye is on its way to the pool
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])", pids
            ):
                await asyncio.sleep(0.001)
            view = (await play_random(manager, view, rng)).view
        assert await storage.action_count(view.game_id) == 12
    finally:
        await admin.close()
        await manager.close()


async def test_a_transaction_cut_while_it_holds_the_game_row_is_told_as_stored(
    pg_url: str,
) -> None:
    """A move's transaction (a resignation: seats and log together) whose connection the server
    drops while it holds the game's row lock, before its commit: if asyncpg saw the drop before
    sending the commit, the storage runs the transaction again on another connection and the
    move is stored; if not, the move is refused and nothing is stored. Either way the answer is
    what was stored, memory is storage, and the next call runs on a sound connection."""
    storage = await open_postgres(pg_url, pool_size=2)
    manager = GameManager(storage)
    admin = await asyncpg.connect(pg_url)
    view = await started_game(manager, users=(ALICE, BOB, 303))
    engine = storage.engine
    real = engine.transaction
    cuts: list[int] = []

    @contextlib.asynccontextmanager
    async def cut() -> AsyncIterator[Db]:
        async with real() as db:
            yield db
            if not cuts:  # after the transaction's statements, before its commit
                cuts.append(
                    await admin.fetchval(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_locks "
                        "WHERE relation = 'games'::regclass AND mode = 'RowExclusiveLock' "
                        "AND pid <> pg_backend_pid()"
                    )
                )

    try:
        engine.transaction = cut  # type: ignore[method-assign]
        try:
            await manager.resign(view.game_id, 303)
            told = True
        except asyncpg.PostgresError:
            told = False
        engine.transaction = real  # type: ignore[method-assign]
        assert cuts == [1]
        stored = await storage.get_actions(view.game_id)
        assert [a.forced for a in stored] == (["resigned"] if told else [])
        live = manager.cache.get(view.game_id)
        assert live is None or live.log == stored
        if not told:
            await manager.resign(view.game_id, 303)
        assert [a.forced for a in await storage.get_actions(view.game_id)] == ["resigned"]
    finally:
        await admin.close()
        await manager.close()
