"""A bot process for the clean-shutdown test (``test_shutdown.py``), run as a child process.

It starts the real bot under simcord on the database given, plays one full turn and stops the
next one half-way (a square picked, the figure not yet chosen), installs the same signal
handling as ``python -m bot`` (:func:`bot.app.stop_on_signals`) and prints one JSON line
(``ready``). On SIGTERM the bot closes itself; the child then prints what is left running
(``closed``: threads besides the main one, whether the database was closed) and exits 0.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path

import simcord
from conftest_ui import SETTLE, Table, commit, make_bot, pick

from bot import logs
from bot.app import stop_on_signals


async def serve(database: Path) -> dict[str, object]:
    bot = make_bot(database)
    env = simcord.Env(bot, settle_timeout=SETTLE)
    await env.start()
    table = Table(env)
    game_id = await table.new()
    alice, bob = table.players
    await commit(alice, await pick(table, game_id, alice, table.last()))
    await pick(table, game_id, bob, table.last())  # bob's turn, half-way
    count = (await bot.manager.game(game_id)).action_count
    stop_on_signals(bot)
    print(json.dumps({"ready": game_id, "actions": count, "bob": bob.id}), flush=True)
    while not bot.is_closed() or not bot.database_closed:
        await asyncio.sleep(0.01)
    closed = bot._storage is None and bot.database_closed
    await env.shutdown()
    return {"database_closed": closed}


def main() -> int:
    logs.configure("INFO")  # as python -m bot does: to stdout
    report = asyncio.run(serve(Path(sys.argv[1])))
    report["threads"] = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    print(json.dumps({"closed": report}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
