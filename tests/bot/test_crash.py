"""A bot process killed with SIGKILL mid-stream leaves a database where every game replays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, close_bots, make_bot

from bot.app import CarcassonneBot
from bot.manager import GameManager
from bot.turn_view import turn_screen

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


# -- a bot killed in the middle of a player's turn ------------------------------------------------

KILLED_AFTER = [1, 2, 3]


@pytest.fixture
def killed_game(tmp_path: Path, kill_after: int) -> tuple[Path, int]:
    """A database left by a bot killed right after its ``kill_after``-th write of moves (the
    players alternate the menus and ``/carcassonne place``), and the game's number."""
    database = tmp_path / "games.sqlite3"
    path = os.pathsep.join([str(ROOT), str(ROOT / "tests" / "bot")])
    worker = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("crash_bot.py")), str(database),
         str(kill_after)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=300,
    )  # fmt: skip
    assert worker.returncode == -signal.SIGKILL, worker.stderr[-2000:]
    return database, int(worker.stdout.split()[0])


@pytest_asyncio.fixture
async def simcord_bot(killed_game: tuple[Path, int]) -> AsyncIterator[CarcassonneBot]:
    """The bot restarted on the killed bot's database."""
    yield make_bot(killed_game[0])
    await close_bots()


@pytest.mark.parametrize("kill_after", KILLED_AFTER)
async def test_a_bot_killed_mid_turn_restarts_on_a_whole_turn_and_place_offers_its_squares(
    simcord_env: simcord.Env, killed_game: tuple[Path, int], kill_after: int
) -> None:
    """A player's tile and figure are saved together: however the bot dies, the restarted
    bot's game waits for a tile, and the first ``place`` autocomplete offers its squares."""
    _, game_id = killed_game
    table = Table(simcord_env)  # the same server, channel and players as before the crash
    manager = table.bot.manager
    view = await manager.decision(game_id)
    assert view.turn == kill_after and view.phase == "tile", (view.turn, view.phase)
    player = table.actor(view.user_id)
    offered = await player.autocomplete(
        table.channel, "carcassonne place", "cell", "", game=game_id
    )
    game = await manager.engine_copy(game_id)
    assert [c["value"] for c in offered] == list(turn_screen(game).labels.values())[:25]
    assert offered, "the first autocomplete after the restart offers the squares"
