"""Several bot processes on one PostgreSQL database, killed with SIGKILL while they play
(``benchmarks/cluster.py`` at a small size): no move acknowledged to a player is lost, none is
stored twice, and every notice goes out once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_processes_killed_while_playing_lose_and_repeat_nothing() -> None:
    command = [sys.executable, "-m", "benchmarks.cluster", "--processes", "3", "--games", "30"]
    command += ["--moves", "600", "--seconds", "6", "--kill-every", "1.5", "--seed", "3"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "lost moves 0, duplicated moves 0, notices duplicated or missed 0"
    report = json.loads(done.stdout[done.stdout.index("{") : done.stdout.rindex("}") + 1])
    assert report["kills"] >= 2, "the run must kill processes while they play"
    assert report["acknowledged_moves"] >= 600 and report["deadlines_fired"] >= 50
    assert report["stored_moves"] >= report["acknowledged_moves"]
    played = report["acknowledged_by_process"]
    assert sorted(played) == ["0", "1", "2"] and min(played.values()) > 0, played
