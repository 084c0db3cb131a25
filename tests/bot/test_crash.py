"""A bot process killed with SIGKILL mid-stream leaves a database where every game replays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.manager import GameManager

ROOT = Path(__file__).resolve().parents[2]


async def test_sigkill_in_a_stream_of_actions_loses_nothing_committed(db_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("crash_worker.py")), str(db_path), "6"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert worker.stdout is not None
    committed: dict[int, int] = {}
    for _ in range(300):  # let it commit a few hundred moves, then kill it mid-stream
        line = worker.stdout.readline()
        assert line, "the worker stopped early"
        game_id, count = map(int, line.split())
        committed[game_id] = count
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    assert worker.returncode == -signal.SIGKILL

    manager = await GameManager.open(str(db_path))
    try:
        assert await manager.resume() == 6
        for game_id, count in committed.items():
            row = await manager.game(game_id)
            log = await manager.storage.get_actions(game_id)
            live = manager.cache.get(game_id)
            assert live is not None
            # Every reported move is there (the worker may have committed more before dying).
            assert count <= row.action_count == len(log) == len(live.game.actions)
            assert row.turn == live.game.turn
    finally:
        await manager.close()
