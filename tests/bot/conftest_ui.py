"""Helpers for the Discord-layer tests: a bot on a temporary database, players, clicks.

Imported by ``test_ui_*.py`` in ``tests/bot/`` and its rooms (not a conftest, so the manager's
tests keep theirs).
Everything goes through simcord: real discord.py, a fake Discord, no network.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord

from benchmarks.turn_ux import components as components
from bot.activity.settings import ActivitySettings
from bot.app import CarcassonneBot, Settings

PNG = b"\x89PNG\r\n\x1a\n"
#: Discord refuses uploads over 10 MiB; we aim far lower.
UPLOAD_LIMIT = 10 * 1024 * 1024
TARGET = 2 * 1024 * 1024
#: The expert's positions per decision of a review in tests: small, so that reviews are quick.
REVIEW_BUDGET = 8


#: How long simcord waits for the bot to settle after an event before failing the test (its own
#: default is 5 s): only a hang detector, generous because CI shares a small machine between
#: parallel test workers, render worker processes and PostgreSQL.
SETTLE = 60.0

#: The bots made by the test in progress (restarts make new ones), closed at its end.
OPENED: list[CarcassonneBot] = []


def make_bot(
    database: Path,
    *,
    tick_seconds: float | None = None,
    computer_workers: int = 0,
    shard_count: int = 1,
    render_workers: int = 0,
    activity: ActivitySettings | None = None,
    review_workers: int = 0,
    review_budget: int = REVIEW_BUDGET,
) -> CarcassonneBot:
    """A bot on ``database``. Computer players decide in a thread and move without a pause
    (``computer_workers=1``: in a worker process, as in production)."""
    settings = Settings(
        token="test",
        database=str(database),
        log_level="INFO",
        dev_guild=None,
        computer_workers=computer_workers,
        computer_pace=0.0,
        shard_count=shard_count,
        render_workers=render_workers,
        activity=activity,
        review_workers=review_workers,
        review_budget=review_budget,
    )
    if tick_seconds is not None:
        settings = dataclasses.replace(settings, tick_seconds=tick_seconds)
    bot = CarcassonneBot(settings)
    OPENED.append(bot)
    return bot


async def close_bots() -> None:
    """Close the databases of every bot the test made. simcord detaches a bot without closing
    it; closing here, in the test's own event loop, leaves no database thread behind."""
    while OPENED:
        await OPENED.pop().close_database()


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[CarcassonneBot]:
    """The bot under test, on a fresh database (simcord's ``simcord_env`` fixture runs it)."""
    yield make_bot(tmp_path / "games.sqlite3")
    await close_bots()


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
        manager.seeds = lambda: seed  # the seed fixes the draw order
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


async def at_once(env: simcord.Env, *calls: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Run simcord operations (clicks, selects, commands) as if they came at the same instant:
    each is handed to the bot before the bot answers any (simcord waits for the bot once, after
    the last). Their results, in order."""

    async def later(**_: Any) -> None:
        return None

    results = []
    env._settle_internal = later  # type: ignore[method-assign]
    try:
        for call in calls[:-1]:
            results.append(await call())
    finally:
        del env._settle_internal
    results.append(await calls[-1]())
    return results


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


def shown(message: Any) -> str:
    """A message's text as a player reads it: its content, then every embed (title,
    description, fields as "name: value")."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(p for p in parts if p)


def step_of(result: Any) -> Any:
    """The ephemeral step message a click opened (a deferred reply edited, or a follow-up)."""
    message = result.followups[-1] if result.followups else result.response
    assert message is not None, "the click opened nothing"
    return message


def said(result: Any) -> list[str]:
    """Every text the bot answered an interaction with (reply and follow-ups)."""
    messages = ([result.response] if result.response else []) + list(result.followups)
    return [m.content for m in messages]


# -- the two interactions of a turn -----------------------------------------------------------


def put_options(message: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every square-and-rotation entry of a turn message's menus: (menu id, option)."""
    found: list[tuple[str, dict[str, Any]]] = []
    for c in components(message):
        if c.get("custom_id", "").startswith("cc:put:"):
            found.extend((c["custom_id"], o) for o in c["options"])
    return found


async def live_step(table: Table, game_id: int, player: Any) -> Any:
    """The player's one live placement step (the private message, as last edited)."""
    shown = table.bot.steps.get((game_id, player.id))
    assert shown is not None, "the player has no placement step"
    shown[0]._original_response = None  # discord.py caches it: read it as it is now
    return await shown[0].original_response()


async def pick(
    table: Table,
    game_id: int,
    player: Any,
    message: Any,
    *,
    value: str | None = None,
    index: int = 0,
) -> Any:
    """Interaction 1: a square and rotation picked in a turn message; returns the step."""
    options = put_options(message)
    assert options, "the turn message offers no placement"
    if value is None:
        menu_id, option = options[index]
        value = option["value"]
    else:
        menu_id = next(m for m, o in options if o["value"] == value)
    result = await player.select(message, [value], custom_id=menu_id)
    assert result.acknowledged
    return await live_step(table, game_id, player)


def spot_ids(step: Any) -> list[str]:
    """The step's figure-spot buttons (each plays the move), in number order."""
    return [i for i in custom_ids(step, "cc:ok:") if not i.endswith(":none")]


async def commit(player: Any, step: Any, spot: int | None = None) -> Any:
    """Interaction 2: a numbered spot (1-based) or No figure; this plays the move."""
    if spot is None:
        target = next(i for i in custom_ids(step, "cc:ok:") if i.endswith(":none"))
    else:
        target = spot_ids(step)[spot - 1]
    return await player.click(step, custom_id=target)


def client_language(monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """Every interaction comes from a Discord client set to ``locale``."""
    interactions = simcord.interactions
    original = interactions.base_payload

    def localised(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", localised)


# -- Discord with the application's Activities enabled ---------------------------------------

#: Callback type 12 (LAUNCH_ACTIVITY) and application command type 4 (PRIMARY_ENTRY_POINT).
LAUNCH_ACTIVITY = 12
ENTRY_POINT = 4


@contextlib.contextmanager
def activities_enabled() -> Iterator[list[int]]:
    """simcord as Discord is for an application with Activities enabled, which simcord 3.2.1
    does not know: it answers the LAUNCH_ACTIVITY response (callback type 12) of a component or
    command interaction, takes an Entry Point command's ``handler``, and refuses (error 50240) a
    bulk overwrite of the global commands that would remove the Entry Point command. Yields the
    ids of the interactions answered by launching the Activity."""
    from simcord.backend import errors
    from simcord.backend.errors import BackendError
    from simcord.backend.ops import commands as command_ops
    from simcord.http import router
    from simcord.http.routes import commands as command_routes
    from simcord.http.routes import interactions as interaction_routes

    launched: list[int] = []
    callback = interaction_routes.interaction_callback
    overwrite = command_routes.bulk_upsert_global_commands

    def launch(ctx: Any) -> Any:
        if ctx.body().get("type") != LAUNCH_ACTIVITY:
            return callback(ctx)
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise errors.unknown_interaction()
        if record.responded:
            raise errors.already_acknowledged()
        if record.type not in (2, 3):  # a command or a component
            raise errors.invalid_form_body("LAUNCH_ACTIVITY answers commands and components")
        record.responded = True
        launched.append(record.id)
        instance = f"i-{record.id}"
        return {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": instance,
                "response_message_id": None,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            },
            "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance}},
        }

    def keep_entry_point(ctx: Any) -> Any:
        existing = ctx.backend.commands.get(None, {}).values()
        sent = [c for c in ctx.json or [] if c.get("type") == ENTRY_POINT]
        if any(c.get("type") == ENTRY_POINT for c in existing) and not sent:
            raise BackendError(
                400,
                50240,
                "You cannot remove this app's Entry Point command in a bulk update operation. "
                "Please include the Entry Point command in your update request or delete it "
                "separately.",
            )
        return overwrite(ctx)

    replaced = {callback: launch, overwrite: keep_entry_point}
    routes = router._ROUTES
    saved = {method: list(entries) for method, entries in routes.items()}
    fields = command_ops.COMMAND_FIELDS
    for entries in routes.values():
        entries[:] = [(path, replaced.get(handler, handler)) for path, handler in entries]
    for module in (command_ops, command_routes):  # each reads its own name
        vars(module)["COMMAND_FIELDS"] = (*fields, "handler")
    try:
        yield launched
    finally:
        for method, entries in saved.items():
            routes[method][:] = entries
        for module in (command_ops, command_routes):
            vars(module)["COMMAND_FIELDS"] = fields
