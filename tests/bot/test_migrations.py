"""Migrations: applied in order from empty, one transaction each, newer databases refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.errors import DatabaseTooNew
from bot.storage.migrate import MIGRATIONS, discover
from bot.storage.sqlite import SqliteEngine, open_sqlite

SNAPSHOT = Path(__file__).with_name("schema.sql")


def schema_of(path: Path) -> str:
    """Every table, index and trigger definition, in a stable order."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY type DESC, name"
        ).fetchall()
    return "".join(f"-- {kind} {name}\n{sql};\n\n" for kind, name, sql in rows)


async def test_migrating_an_empty_database_gives_the_checked_in_schema(db_path: Path) -> None:
    storage = await open_sqlite(db_path)
    await storage.close()
    # To accept a deliberate schema change: write schema_of(db) to tests/bot/schema.sql.
    assert schema_of(db_path) == SNAPSHOT.read_text("utf-8")
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(discover())
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_opening_twice_applies_nothing_more(db_path: Path) -> None:
    for _ in range(2):
        storage = await open_sqlite(db_path)
        await storage.close()
    assert schema_of(db_path) == SNAPSHOT.read_text("utf-8")


async def test_foreign_keys_are_enforced(db_path: Path) -> None:
    storage = await open_sqlite(db_path)
    try:
        assert isinstance(storage.engine, SqliteEngine)
        with pytest.raises(sqlite3.IntegrityError):
            await storage.engine._conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, colour, joined_at) "
                "VALUES (999, 0, 1, 'x', 'red', 0)"
            )
    finally:
        await storage.close()


async def test_a_database_newer_than_the_code_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(DatabaseTooNew) as caught:
        await open_sqlite(db_path)
    assert "newer than this bot" in str(caught.value)
    assert "plus récente" in caught.value.message("fr")


async def test_a_failing_migration_leaves_the_previous_version(
    tmp_path: Path, db_path: Path
) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_init.sql").write_text((MIGRATIONS / "0001_init.sql").read_text())
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE extra (id INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(sqlite3.OperationalError):
        await open_sqlite(db_path, migrations=folder)
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "extra" not in tables and "games" in tables


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0003_c.sql").write_text("")
    with pytest.raises(RuntimeError, match="should be numbered 0002"):
        discover(tmp_path)


async def test_the_expert_level_is_accepted_and_nothing_stored_is_lost(
    tmp_path: Path, db_path: Path
) -> None:
    """Migration 15 widens the levels' CHECKs in place: a league's members stay (rebuilding the
    leagues table would have deleted them through its cascades), the migrating connection
    itself accepts ``expert`` at once, and an unknown level is still refused."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in discover()[:14]:
        (folder / migration.name).write_text(migration.sql, "utf-8")
    storage = await open_sqlite(db_path, migrations=folder)
    await storage.close()
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(
            "INSERT INTO leagues (id, guild_id, name, organiser_id, channel_id, min_players, "
            "max_players, pace, points, tiebreaks, created_at, computers) "
            "VALUES (1, 5, 'Sunday', 7, 8, 2, 4, 'live', '[3, 1, 0]', '[\"wins\"]', 0, 'hard')"
        )
        db.execute("INSERT INTO league_members VALUES (1, 7, 'alice', 0, NULL)")
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("UPDATE leagues SET computers = 'expert'")
    storage = await open_sqlite(db_path)
    try:
        assert isinstance(storage.engine, SqliteEngine)
        conn = storage.engine._conn
        await conn.execute("UPDATE leagues SET computers = 'expert'")
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute("UPDATE leagues SET computers = 'master'")
        async with conn.execute("SELECT computers FROM leagues") as cursor:
            assert [tuple(r) for r in await cursor.fetchall()] == [("expert",)]
        async with conn.execute("SELECT user_id FROM league_members") as cursor:
            assert [tuple(r) for r in await cursor.fetchall()] == [(7,)]
        async with conn.execute("PRAGMA integrity_check") as cursor:
            assert [tuple(r) for r in await cursor.fetchall()] == [("ok",)]
    finally:
        await storage.close()
    assert schema_of(db_path) == SNAPSHOT.read_text("utf-8")


async def test_reviews_are_added_to_a_database_with_games_and_go_with_their_game(
    tmp_path: Path, db_path: Path
) -> None:
    """Migration 16 adds the review tables to a database that has games: a review and its
    seats' figures refer to a game, and both go when the game's row does."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in discover()[:15]:
        (folder / migration.name).write_text(migration.sql, "utf-8")
    storage = await open_sqlite(db_path, migrations=folder)
    await storage.close()
    with sqlite3.connect(db_path) as db:
        db.execute(
            "INSERT INTO games (id, owner_id, created_at, updated_at, status) "
            "VALUES (3, 7, 0, 0, 'finished')"
        )
    storage = await open_sqlite(db_path)
    try:
        assert isinstance(storage.engine, SqliteEngine)
        conn = storage.engine._conn
        await conn.execute("INSERT INTO reviews VALUES (3, 100, 40, '{\"format\": 1}', 0)")
        await conn.execute("INSERT INTO review_seats VALUES (3, 0, 12, 0.75, 1.5)")
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute("INSERT INTO review_seats VALUES (3, 1, 12, 1.5, 1.5)")
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute("INSERT INTO reviews VALUES (4, 100, 40, '{}', 0)")
        await conn.execute("DELETE FROM games WHERE id = 3")
        for table in ("reviews", "review_seats"):
            async with conn.execute(f"SELECT count(*) FROM {table}") as cursor:
                assert [tuple(r) for r in await cursor.fetchall()] == [(0,)]
    finally:
        await storage.close()
    assert schema_of(db_path) == SNAPSHOT.read_text("utf-8")


async def test_the_tournament_tables_check_their_values_and_go_with_their_tournament(
    db_path: Path,
) -> None:
    """Migration 17: a tournament's rules are checked by the database too, and deleting a
    tournament deletes its entrants, tables and log."""
    storage = await open_sqlite(db_path)
    await storage.close()
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        columns = "guild_id, channel_id, name, organiser_id, table_size, format, pace, created_at"
        db.execute(
            f"INSERT INTO tournaments ({columns}) VALUES (5, 6, 'Open', 7, 2, 'swiss', 'live', 0)"
        )
        for bad in ("6, 'swiss'", "2, 'ladder'"):
            with pytest.raises(sqlite3.IntegrityError):
                db.execute(
                    f"INSERT INTO tournaments ({columns}) VALUES (5, 6, 'Bad', 7, {bad}, 'live', 0)"
                )
        db.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) "
            "VALUES (1, 8, 'a', 0)"
        )
        db.execute(
            "INSERT INTO tournament_games (tournament_id, round, table_no, players) "
            "VALUES (1, 1, 1, '[8]')"
        )
        db.execute(
            "INSERT INTO tournament_audit (tournament_id, user_id, action, created_at) "
            "VALUES (1, 7, 'create', 0)"
        )
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("UPDATE tournaments SET state = 'paused'")
        db.execute("DELETE FROM tournaments")
        for table in ("tournament_entrants", "tournament_games", "tournament_audit"):
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0
