"""Clean shutdown: a bot process stopped by SIGTERM with a game mid-turn closes its database
and leaves no thread behind; the game then resumes where it was."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.manager import GameManager
from bot.storage.backends import open_storage

ROOT = Path(__file__).parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
async def test_sigterm_mid_turn_closes_everything_and_the_game_resumes(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests" / "bot")])}
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "bot" / "shutdown_child.py"), str(database)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None
        ready: dict[str, int] = {}
        for line in child.stdout:
            if line.startswith('{"ready"'):
                ready = json.loads(line)
                break
        assert ready, child.stderr.read() if child.stderr else "no ready line"
        sent = time.perf_counter()
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
        took = time.perf_counter() - sent
    finally:
        if child.poll() is None:
            child.kill()
    print(f"SIGTERM to exit: {took * 1000:.0f} ms")
    assert child.returncode == 0, err
    closed = json.loads(out.strip().splitlines()[-1])["closed"]
    assert closed == {"database_closed": True, "threads": []}, closed
    assert "SIGTERM received: closing" in out and "database closed" in out, out
    for text in (out, err):
        assert "Traceback" not in text and " ERROR " not in text, text
    assert not Path(f"{database}-wal").exists(), "the last connection checkpointed and closed"
    storage = await open_storage(str(database))
    try:
        manager = GameManager(storage)
        game_id = ready["ready"]
        assert (await manager.game(game_id)).action_count == ready["actions"]
        view = await manager.decision(game_id)
        assert view.user_id == ready["bob"] and view.phase == "tile"
        await manager.play_turn(game_id, view.user_id, view.placements[0], turn=view.turn)
        assert (await manager.game(game_id)).action_count == ready["actions"] + 1
    finally:
        await storage.close()
