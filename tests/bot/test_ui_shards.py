"""The bot as discord.py's sharded client: games in guilds on different shards of one process,
and the settings that split the shards between processes (``SHARD_COUNT``, ``SHARD_IDS``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, close_bots, make_bot

from bot.app import CarcassonneBot, Settings


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[CarcassonneBot]:
    yield make_bot(tmp_path / "games.sqlite3", shard_count=2)
    await close_bots()


async def test_games_in_guilds_of_a_two_shard_bot(simcord_env: simcord.Env) -> None:
    tables = [Table(simcord_env) for _ in range(4)]
    bot = tables[0].bot
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    for table in tables:
        guild = bot.get_guild(table.guild.id)
        assert guild is not None and guild.shard_id == (guild.id >> 22) % 2
    for table in tables:
        game_id = await table.new()
        view = await bot.manager.decision(game_id)
        assert view.turn == 0 and not view.finished
        assert table.thread().history(), "each game's thread got its first turn"


def test_shard_settings_are_read_and_checked() -> None:
    base = {"DISCORD_TOKEN": "x"}
    plain = Settings.from_env(base)
    assert (plain.shard_count, plain.shard_ids) == (None, None)
    split = Settings.from_env({**base, "SHARD_COUNT": "6", "SHARD_IDS": "0-1,4"})
    assert (split.shard_count, split.shard_ids) == (6, (0, 1, 4))
    for bad, expected in [
        ({"SHARD_IDS": "0,1"}, "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "from 1 to 4096"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a"}, "look like 0,1,2"),
    ]:
        with pytest.raises(SystemExit) as refused:
            Settings.from_env({**base, **bad})
        assert expected in str(refused.value)
