"""Run by test_crash.py in a subprocess: a bot on Discord (simcord) whose two players play their
turns the ways players do (the turn message's menu and a spot button, then
``/carcassonne place``, in turn), killed by SIGKILL right after its ``kill_after``-th write of
moves to the database, as a crash can land at any point.

Prints ``<game id>`` once the game has started.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

import simcord
from conftest_ui import SETTLE, Table, commit, make_bot, pick, spot_ids


async def main(path: str, kill_after: int) -> None:
    bot = make_bot(Path(path))
    async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE) as env:
        table = Table(env)
        game_id = await table.new(seed=7)
        print(game_id, flush=True)
        storage = bot.manager.storage
        write = storage.append_actions
        writes = [0]

        async def append_then_die(*args: Any, **kwargs: Any) -> None:
            await write(*args, **kwargs)
            writes[0] += 1
            if writes[0] >= kill_after:
                os.kill(os.getpid(), signal.SIGKILL)

        storage.append_actions = append_then_die  # type: ignore[method-assign]
        for turn in range(100):
            view = await bot.manager.decision(game_id)
            player = table.actor(view.user_id)
            if turn % 2 == 0:  # the menu and a spot (or No figure) of the private step
                step = await pick(table, game_id, player, table.last())
                await commit(player, step, 1 if spot_ids(step) else None)
                continue
            thread = table.thread()
            cells = await player.autocomplete(thread, "carcassonne place", "cell", "")
            cell = cells[0]["value"]
            rotations = await player.autocomplete(
                thread, "carcassonne place", "rotation", "", cell=cell
            )
            options = {"cell": cell, "rotation": rotations[0]["value"]}
            figures = await player.autocomplete(
                thread, "carcassonne place", "figure", "", **options
            )
            await player.slash(thread, "carcassonne place", figure=figures[-1]["value"], **options)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
