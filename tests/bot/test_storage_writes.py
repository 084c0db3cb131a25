"""The storage's write path: one batched transaction per move, and checkpoints beside the moves."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import started_game

from bot.manager import GameManager
from bot.storage import ActionRow, Progress, WriteConflict
from bot.storage import sqlite as sqlite_storage
from engine import Action, Pass

ALICE = 101


async def test_a_stale_append_writes_nothing(manager: GameManager) -> None:
    view = await started_game(manager)
    before = await manager.storage.get_game(view.game_id)
    assert before is not None
    stale = Progress(turn=9, action_count=5, current_seat=1, status="active", updated_at=1.0)
    row = ActionRow(idx=0, turn=1, seat=0, user_id=ALICE, action={"type": "pass"})
    with pytest.raises(WriteConflict):
        await manager.storage.append_actions(view.game_id, 3, [row], stale)
    after = await manager.storage.get_game(view.game_id)
    assert after == before
    assert await manager.storage.get_actions(view.game_id) == []


async def test_the_log_is_checkpointed_into_the_database_file(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_storage, "CHECKPOINT_EVERY", 5)
    manager = await GameManager.open(str(db_path))
    try:
        view = await started_game(manager)
        rng = random.Random(3)
        for _ in range(12):
            action: Action
            if view.phase == "tile":
                action = view.placements[rng.randrange(len(view.placements))]
            else:
                action = Pass()
            assert view.user_id is not None
            view = (await manager.apply(view.game_id, view.user_id, action, turn=view.turn)).view
        storage = manager.storage
        assert isinstance(storage, sqlite_storage.SqliteStorage)
        assert storage._checkpointing is not None
        await storage._checkpointing
        # Automatic checkpoints are off: without the background one, the moves would all
        # still be in the -wal file and a copy of the database file alone would hold none.
        alone = tmp_path / "alone.sqlite3"
        shutil.copyfile(db_path, alone)
        copy = sqlite3.connect(alone)
        try:
            (moves,) = copy.execute("SELECT COUNT(*) FROM actions").fetchone()
        finally:
            copy.close()
        assert moves >= 5
        async with storage._db.execute("PRAGMA wal_autocheckpoint") as cursor:
            assert await cursor.fetchone() == (0,)
    finally:
        await manager.close()


async def test_a_storage_left_open_never_keeps_the_process_alive(tmp_path: Path) -> None:
    from bot.storage.sqlite import SqliteStorage

    storage = await SqliteStorage.open(tmp_path / "left-open.sqlite3")
    try:
        assert storage._db._thread.daemon, "the database thread must not block the exit"
    finally:
        await storage.close()
