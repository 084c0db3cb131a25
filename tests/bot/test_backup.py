"""``python -m bot backup``, ``restore`` and ``check``: a copy taken during a game is restored
and the game plays on; bad files get clear messages; ``check`` finds a game that no longer
replays, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ALICE, BOB, play_random, started_game

from bot.backup import BackupError, backup, check, facts, restore
from bot.manager import GameManager
from bot.storage.backends import open_storage

ROOT = Path(__file__).resolve().parents[2]


async def test_a_backup_taken_during_a_game_is_restored_and_the_game_plays_on(
    tmp_path: Path,
) -> None:
    database, copy = tmp_path / "games.sqlite3", tmp_path / "backup.sqlite3"
    mgr = await GameManager.open(str(database))
    rng = random.Random(4)
    view = await started_game(mgr, seed=9)
    for _ in range(6):
        view = (await play_random(mgr, view, rng)).view
    game_id = view.game_id

    async def keep_playing() -> int:
        nonlocal view
        played = 0
        for _ in range(20):
            view = (await play_random(mgr, view, rng)).view
            played += 1
            await asyncio.sleep(0)
        return played

    # The copy runs on its own thread while the bot goes on writing moves.
    found, played = await asyncio.gather(asyncio.to_thread(backup, database, copy), keep_playing())
    assert found.games == 1 and played == 20
    view = (await play_random(mgr, view, rng)).view  # at least one move after the copy
    after_backup = (await mgr.storage.get_game(game_id)).action_count  # type: ignore[union-attr]
    with pytest.raises(BackupError, match="Stop the bot first"):  # it still runs on it
        restore(copy, database)
    await mgr.close()

    saved = facts(copy, "the backup")
    with sqlite3.connect(copy) as db:  # one file: no write-ahead log left beside it
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        kept = db.execute("SELECT action_count FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        logged = db.execute("SELECT count(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
    assert kept == logged[0]  # consistent: the game's row and its log from the same moment
    assert 6 <= kept < after_backup

    # The database has moves the backup lacks: refused without --force, saying what is newer.
    with pytest.raises(BackupError) as refused:
        restore(copy, database)
    assert "newer than the backup" in str(refused.value)
    assert "--force" in str(refused.value)
    restore(copy, database, force=True)
    assert facts(database, "the database").last_change == saved.last_change

    mgr = await GameManager.open(str(database))
    try:
        row = await mgr.game(game_id)
        assert row.action_count == kept
        view = await mgr.decision(game_id)
        while view.phase != "over":  # plays on to the end from where the backup was taken
            view = (await play_random(mgr, view, rng)).view
        assert (await mgr.game(game_id)).status == "finished"
    finally:
        await mgr.close()
    report = await check(str(database))
    assert (report.checked, report.problems) == (1, [])


def test_bad_files_get_clear_messages(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with pytest.raises(BackupError, match="does not exist"):
        backup(database, tmp_path / "out.sqlite3")
    text = tmp_path / "notes.txt"
    text.write_text("these are not the games you are looking for\n" * 50)
    with pytest.raises(BackupError, match="is not a SQLite database"):
        restore(text, database)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE things (id INTEGER)")
    with pytest.raises(BackupError, match="not one of this bot"):
        restore(other, database)
    asyncio.run(_empty(database))
    newer = tmp_path / "newer.sqlite3"
    backup(database, newer)
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(BackupError, match="newer than this bot's") as caught:
        restore(newer, database)
    assert "schema version 99" in str(caught.value)
    with pytest.raises(BackupError, match="already exists"):
        backup(database, newer)
    assert not database.with_name("games.sqlite3-journal").exists()


async def _empty(path: Path) -> None:
    await (await open_storage(str(path))).close()


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        cwd=ROOT,
        timeout=120,
    )


def test_the_commands_say_what_they_did_and_why_not(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    env = {"CARCASSONNE_DB": str(database), "DATABASE_URL": ""}
    missing = _cli("backup", "--out", str(tmp_path / "b.sqlite3"), env=env)
    assert missing.returncode == 1
    assert "backup: the database" in missing.stderr and "does not exist" in missing.stderr
    asyncio.run(_empty(database))
    done = _cli("backup", "--out", str(tmp_path / "b.sqlite3"), env=env)
    assert done.returncode == 0, done.stderr
    assert "backed up" in done.stdout and "0 games" in done.stdout
    again = _cli("restore", str(tmp_path / "b.sqlite3"), env=env)
    assert again.returncode == 0, again.stderr
    assert "restored" in again.stdout
    checked = _cli("check", env=env)
    assert checked.returncode == 0 and "checked 0 games" in checked.stdout
    pg = _cli("backup", "--out", "x", env={"DATABASE_URL": "postgresql://u:secret@db/c"})
    assert pg.returncode == 1 and "pg_dump" in pg.stderr and "secret" not in pg.stderr


async def test_check_reports_a_game_that_does_not_replay(database: str) -> None:
    mgr = await GameManager.open(database)
    rng = random.Random(2)
    try:
        good = await started_game(mgr, seed=3)
        bad = await started_game(mgr, seed=4, users=(BOB, ALICE))
        for _ in range(4):
            good = (await play_random(mgr, good, rng)).view
            bad = (await play_random(mgr, bad, rng)).view
        async with mgr.storage.engine.transaction() as db:  # a move lost from the log
            await db.execute("DELETE FROM actions WHERE game_id = ? AND idx = 1", (bad.game_id,))
    finally:
        await mgr.close()
    report = await check(database)
    assert report.checked == 2
    assert len(report.problems) == 1 and report.problems[0].startswith(f"game #{bad.game_id} ")
