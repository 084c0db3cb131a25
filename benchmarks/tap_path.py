"""The way one tap on a figure spot travels through the bot, counted.

Run: ``python -m benchmarks.tap_path``. A two-player game is opened and started in simcord (the
real discord.py against an in-process fake of Discord); the first player picks the first square
of the turn message, then taps the first figure spot of the step, and that tap is traced
(``sys.setprofile``, in the bot's thread and its worker threads, pictures drawn there included).
Prints the bot's modules the tap enters (and in how many moves between modules it goes back and
forth), the game manager's operations called from outside the manager (a coroutine counted
once, however often it resumes), and the storage operations, the move's writes among them.

It reads the code it runs, so it measures any build: run it in two checkouts to compare them.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import sys
import tempfile
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import FrameType
from typing import Any

import discord
import simcord

from benchmarks.turn_ux import components
from bot.app import CarcassonneBot, Settings

ROOT = Path(__file__).resolve().parents[1]
#: The storage calls that write a game's moves.
MOVE_WRITES = ("append_actions", "truncate_actions")


def module_of(frame: FrameType) -> str | None:
    """The project module a frame runs in (``bot.ui.turn.flow``), None outside the project."""
    try:
        path = Path(frame.f_code.co_filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if path.suffix != ".py" or path.parts[0] not in ("bot", "renderer", "engine", "ai"):
        return None
    return ".".join(path.with_suffix("").parts).removesuffix(".__init__")


class Tracer:
    """Modules entered, manager operations called from outside it, storage calls."""

    def __init__(self) -> None:
        self.modules: Counter[str] = Counter()
        self.manager: Counter[str] = Counter()
        self.storage: Counter[str] = Counter()
        self.crossings = 0
        self._frames: dict[int, FrameType] = {}
        #: Per thread, the bot module it ran last.
        self._last: dict[int, str] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        module = module_of(frame)
        if module is None:
            return
        if id(frame) in self._frames:  # a coroutine resuming: not a new call
            return
        self._frames[id(frame)] = frame
        self.modules[module] += 1
        if module.startswith("bot."):
            thread = threading.get_ident()
            if self._last.get(thread, module) != module:
                self.crossings += 1
            self._last[thread] = module
        caller = module_of(frame.f_back) if frame.f_back is not None else ""
        name = frame.f_code.co_name
        if name.startswith(("_", "<")):
            return
        if not frame.f_code.co_flags & inspect.CO_COROUTINE:
            return  # the manager's and storage's operations are coroutines
        for layer, counts in (("bot.manager", self.manager), ("bot.storage", self.storage)):
            if module.startswith(layer) and not (caller or "").startswith(layer):
                owner = module.removeprefix(layer).lstrip(".") or "manager"
                counts[name if layer == "bot.storage" else f"{owner}.{name}"] += 1


async def tap() -> Tracer:
    with tempfile.TemporaryDirectory() as folder:
        bot = CarcassonneBot(
            Settings(
                token="bench",
                database=str(Path(folder) / "tap.sqlite3"),
                log_level="WARNING",
                dev_guild=None,
                shard_count=1,
                render_workers=0,
                computer_workers=0,
            )
        )
        async with simcord.run(bot, check_errors=False, settle_timeout=120) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            people = [guild.add_member(env.create_user(f"p{i}")) for i in range(2)]
            await people[0].slash(channel, "carcassonne new")
            lobby = channel.last_message
            assert lobby is not None
            found = re.search(r"\d+", lobby.embeds[0].title or "")
            assert found is not None
            game_id = int(found[0])
            await people[1].click(lobby, custom_id=f"cc:lobby:{game_id}:join")
            manager: Any = bot.manager
            for name in ("seeds", "_seeds"):  # this build's way to fix the seed
                if hasattr(manager, name):
                    setattr(manager, name, lambda: 7)
            await people[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
            thread = channel.threads[-1]
            view = await bot.manager.decision(game_id)
            player = next(p for p in people if p.id == view.user_id)
            prompt = thread.last_message
            assert prompt is not None
            menu = next(
                c for c in components(prompt) if c.get("custom_id", "").startswith("cc:put:")
            )
            await player.select(prompt, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
            shown = bot.steps[(game_id, player.id)]
            shown[0]._original_response = None
            step = await shown[0].original_response()
            spots = [
                c["custom_id"]
                for c in components(step)
                if c.get("custom_id", "").startswith("cc:ok:")
                and not c["custom_id"].endswith(":none")
            ]
            tracer = Tracer()
            # Worker threads too (a fresh pool, so that its threads start traced).
            asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor())
            threading.setprofile(tracer)
            sys.setprofile(tracer)
            try:
                await player.click(step, custom_id=spots[0])
            finally:
                sys.setprofile(None)
                threading.setprofile(None)
            await bot.close_database()
            return tracer


def main() -> None:
    discord.utils.setup_logging(level=40)
    tracer = asyncio.run(tap())
    bot_modules = sorted(m for m in tracer.modules if m.startswith("bot."))
    print(f"bot modules entered: {len(bot_modules)}")
    for module in bot_modules:
        print(f"  {module}")
    others = Counter(m.split(".")[0] for m in tracer.modules if not m.startswith("bot."))
    print(f"other project modules entered: {dict(others)}")
    print(f"moves between bot modules: {tracer.crossings}")
    print(f"manager operations called from outside it: {sum(tracer.manager.values())}")
    for name, count in sorted(tracer.manager.items()):
        print(f"  {name}: {count}")
    writes = {name: tracer.storage[name] for name in MOVE_WRITES if tracer.storage[name]}
    print(f"storage calls: {sum(tracer.storage.values())}, move writes: {writes}")
    for name, count in sorted(tracer.storage.items()):
        print(f"  {name}: {count}")


if __name__ == "__main__":
    main()
