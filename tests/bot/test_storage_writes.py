"""The storage's write path: one write per move (one statement on PostgreSQL), and
checkpoints beside the moves."""

from __future__ import annotations

import dataclasses
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import ALICE, BOB, started_game

from bot.manager import GameManager
from bot.storage import ActionRow, Deadline, Progress, WriteConflict
from bot.storage import sqlite as sqlite_storage
from engine import Action, Pass


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


async def test_a_move_writes_its_log_summary_and_timers_together(manager: GameManager) -> None:
    """A move's one write: the actions, the game's summary, the undo votes cleared, and the
    timers of the turn it starts replacing the old ones (same kind overwritten, other kinds
    gone); a stale one changes none of them."""
    storage = manager.storage
    view = await started_game(manager)
    gid = view.game_id
    old = [Deadline(gid, "reminder", 0, 50.0, ALICE), Deadline(gid, "turn", 0, 60.0, ALICE)]
    first = ActionRow(idx=0, turn=0, seat=0, user_id=ALICE, action={"type": "pass"}, created_at=2)
    progress = Progress(turn=0, action_count=1, current_seat=0, status="active", updated_at=2.0)
    await storage.append_actions(gid, 0, [first], progress, deadlines=old)
    assert await storage.deadlines(gid) == old
    assert await storage.add_undo_vote(gid, 0, ALICE, 3.0) == {ALICE}

    moves = [
        ActionRow(idx=1, turn=0, seat=0, user_id=ALICE, action={"type": "pass"}, created_at=4),
        ActionRow(idx=2, turn=1, seat=1, user_id=None, action={"a": [1, 2]}, forced="skip"),
    ]
    new = [Deadline(gid, "turn", 1, 90.0, BOB, paused_at=4.0, notified_at=4.5)]
    after = Progress(turn=1, action_count=3, current_seat=1, status="active", updated_at=4.0)
    stale = Progress(turn=7, action_count=9, current_seat=0, status="active", updated_at=5.0)
    with pytest.raises(WriteConflict):  # expects 0 actions, the game holds 1
        await storage.append_actions(gid, 0, moves, stale, deadlines=new)
    assert await storage.deadlines(gid) == old
    assert len(await storage.get_actions(gid)) == 1
    assert await storage.add_undo_vote(gid, 0, BOB, 5.0) == {ALICE, BOB}

    await storage.append_actions(gid, 1, moves, after, deadlines=new)
    assert await storage.get_actions(gid) == [first, *moves]
    assert await storage.deadlines(gid) == new
    assert await storage.add_undo_vote(gid, 2, BOB, 6.0) == {BOB}  # the old votes went
    row = await storage.get_game(gid)
    assert row is not None
    assert (row.turn, row.action_count, row.current_seat, row.status) == (1, 3, 1, "active")

    # A move within the turn leaves the timers as they are; an empty list removes them all.
    more = ActionRow(idx=3, turn=1, seat=1, user_id=BOB, action={"type": "pass"})
    await storage.append_actions(gid, 3, [more], dataclasses.replace(after, action_count=4))
    assert await storage.deadlines(gid) == new
    last = ActionRow(idx=4, turn=2, seat=0, user_id=ALICE, action={"type": "pass"})
    end = Progress(
        turn=2, action_count=5, current_seat=None, status="finished", updated_at=7.0,
        result={"reason": "end", "winners": [1]}, ended_at=7.0,
    )  # fmt: skip
    await storage.append_actions(gid, 4, [last], end, deadlines=[])
    assert await storage.deadlines(gid) == []
    assert len(await storage.get_actions(gid)) == 5
    row = await storage.get_game(gid)
    assert row is not None
    assert (row.status, row.current_seat, row.result, row.ended_at) == (
        "finished", None, end.result, 7.0,
    )  # fmt: skip

    # A game no longer in play takes no move, even with the right count.
    late = ActionRow(idx=5, turn=3, seat=1, user_id=BOB, action={"type": "pass"})
    with pytest.raises(WriteConflict):
        await storage.append_actions(gid, 5, [late], dataclasses.replace(end, action_count=6))
    assert len(await storage.get_actions(gid)) == 5


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
            view = (
                await manager.play_turn(view.game_id, view.user_id, action, turn=view.turn)
            ).view
        engine = manager.storage.engine
        assert isinstance(engine, sqlite_storage.SqliteEngine)
        assert engine._checkpointing is not None
        await engine._checkpointing
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
        async with engine._conn.execute("PRAGMA wal_autocheckpoint") as cursor:
            assert await cursor.fetchone() == (0,)
    finally:
        await manager.close()


async def test_a_storage_left_open_never_keeps_the_process_alive(tmp_path: Path) -> None:
    from bot.storage.sqlite import SqliteEngine, open_sqlite

    storage = await open_sqlite(tmp_path / "left-open.sqlite3")
    try:
        assert isinstance(storage.engine, SqliteEngine)
        assert storage.engine._conn._thread.daemon, "the database thread must not block the exit"
    finally:
        await storage.close()


async def test_a_notice_is_claimed_once_with_its_debt_in_the_same_write(
    manager: GameManager,
) -> None:
    """Claiming a turn's start or reminder marks its deadline and records the notice as owed
    (until the lease ends) in one write; a second claim, or one for another turn, gets False."""
    storage = manager.storage
    view = await started_game(manager)
    gid = view.game_id
    timers = [Deadline(gid, "reminder", 0, 50.0, ALICE), Deadline(gid, "turn", 0, 60.0, ALICE)]
    row = await storage.get_game(gid)
    assert row is not None
    await storage.save_game(row, deadlines=timers)
    assert not await storage.claim_notice(gid, "start", 1, 10.0, 5.0)  # not this turn's
    assert await storage.claim_notice(gid, "start", 0, 10.0, 5.0)
    assert not await storage.claim_notice(gid, "start", 0, 11.0, 5.0)  # claimed already
    assert await storage.claim_notice(gid, "reminder", 0, 12.0, 5.0)
    assert not await storage.claim_notice(gid, "reminder", 0, 12.0, 5.0)
    by_kind = {d.kind: d for d in await storage.deadlines(gid)}
    assert by_kind["turn"].notified_at == 10.0 and by_kind["turn"].done_at is None
    assert by_kind["reminder"].done_at == 12.0
    # Both owed until their lease ends, then handed to whoever looks for expired claims.
    assert await storage.expired_notices(14.0, 5.0) == []
    assert sorted(await storage.expired_notices(17.5, 5.0)) == [
        (gid, "reminder", 0),
        (gid, "start", 0),
    ]
    await storage.notice_sent(gid, "start", 0, 18.0)
    assert await storage.expired_notices(30.0, 5.0) == [(gid, "reminder", 0)]
