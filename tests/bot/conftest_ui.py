"""Helpers for the Discord-layer tests: a bot on a temporary database, players, clicks.

Imported by ``tests/bot/test_ui_*.py`` (not a conftest, so the manager's tests keep theirs).
Everything goes through simcord: real discord.py, a fake Discord, no network.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import CarcassonneBot, Settings

PNG = b"\x89PNG\r\n\x1a\n"
#: Discord refuses uploads over 10 MiB; we aim far lower.
UPLOAD_LIMIT = 10 * 1024 * 1024
TARGET = 2 * 1024 * 1024


def make_bot(database: Path) -> CarcassonneBot:
    return CarcassonneBot(
        Settings(token="test", database=str(database), log_level="INFO", dev_guild=None)
    )


@pytest.fixture
def simcord_bot(tmp_path: Path) -> CarcassonneBot:
    """The bot under test, on a fresh database (simcord's ``simcord_env`` fixture runs it)."""
    return make_bot(tmp_path / "games.sqlite3")


class Table:
    """A guild with a channel and players, and shortcuts to drive a game."""

    def __init__(self, env: simcord.Env, players: int = 2, *, locale: str | None = None) -> None:
        self.env = env
        self.guild = env.create_guild(preferred_locale=locale)
        self.channel = self.guild.create_text_channel("games")
        names = ["alice", "bob", "carol", "dave"][:players]
        self.players = [self.guild.add_member(env.create_user(n)) for n in names]

    @property
    def bot(self) -> CarcassonneBot:
        bot = self.env.bot
        assert isinstance(bot, CarcassonneBot)
        return bot

    async def new(self, *, seed: int = 7, **options: Any) -> int:
        """Alice opens a lobby, the others join, Alice starts with a fixed seed."""
        await self.players[0].slash(self.channel, "carcassonne new", **options)
        lobby = self.channel.last_message
        assert lobby is not None
        game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
        for player in self.players[1:]:
            await player.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
        manager = self.bot.manager
        manager._seeds = lambda: seed  # the seed fixes the draw order
        await self.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
        return game_id

    def thread(self) -> Any:
        threads = self.channel.threads
        assert threads, "the game has no thread"
        return threads[-1]

    def last(self) -> discord.Message:
        message = self.thread().last_message
        assert isinstance(message, discord.Message)
        return message

    def actor(self, user_id: int | None) -> Any:
        return next(p for p in self.players if p.id == user_id)


def components(message: Any) -> list[dict[str, Any]]:
    """Every component of a message (rows flattened)."""
    rows = message.components if isinstance(message.components, list) else []
    found: list[dict[str, Any]] = []
    for row in rows:
        data = row if isinstance(row, dict) else row.to_dict()
        found.extend(data.get("components", [data]))
    return found


def custom_ids(message: Any, prefix: str = "") -> list[str]:
    return [
        c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith(prefix)
    ]


def attachment_bytes(env: simcord.Env, attachment: discord.Attachment) -> bytes:
    data = env.backend.cdn.get(attachment.url)
    assert data is not None
    return data


def assert_png(env: simcord.Env, message: Any) -> bytes:
    assert message.attachments, "no image attached"
    data = attachment_bytes(env, message.attachments[0])
    assert data.startswith(PNG)
    assert len(data) < TARGET, f"board image of {len(data)} bytes"
    assert len(data) < UPLOAD_LIMIT
    return data


def step_of(result: Any) -> Any:
    """The ephemeral step message a click opened (a deferred reply edited, or a follow-up)."""
    message = result.followups[-1] if result.followups else result.response
    assert message is not None, "the click opened nothing"
    return message


def said(result: Any) -> list[str]:
    """Every text the bot answered an interaction with (reply and follow-ups)."""
    messages = ([result.response] if result.response else []) + list(result.followups)
    return [m.content for m in messages]
