"""``python -m bot.docs``: print the table of every command option and its rule (Markdown);
``python -m bot.docs security``: the authorisation policy's table.

``docs/commands.md`` and ``docs/SECURITY.md`` are their outputs; ``tests/bot/test_input_rules.py``
and ``tests/bot/test_policy.py`` fail when they differ.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from discord import app_commands

from bot.app import CarcassonneBot, Settings
from bot.manager import GameManager
from bot.policy import security_markdown
from bot.storage.backends import open_storage
from bot.ui import install
from bot.ui.limits import options_table


async def command_tree() -> app_commands.CommandTree[Any]:
    """The commands of a bot built like the real one (installed, nothing connected)."""
    bot = CarcassonneBot(
        Settings(token="", database=":memory:", log_level="WARNING", dev_guild=None)
    )
    storage = await open_storage(":memory:")
    try:
        bot._manager = GameManager(storage)
        await install(bot)
        return bot.tree
    finally:
        await storage.close()


async def commands_table() -> str:
    return options_table(await command_tree())


if __name__ == "__main__":
    if sys.argv[1:] == ["security"]:
        print(security_markdown(), end="")
    else:
        print(asyncio.run(commands_table()), end="")
