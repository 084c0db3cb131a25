"""Helpers for the tournament tests through Discord: more players, the short forced draw, games
played to the end quickly (through the manager, or with ``/carcassonne place`` in the game's
thread), and the messages and pictures the bot posted."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import discord
import simcord
from conftest import play_random
from conftest_ui import PNG, UPLOAD_LIMIT, Table, attachment_bytes

from bot.app import CarcassonneBot
from bot.manager import COMPUTER
from bot.outcomes import TurnView
from bot.storage import TournamentGame

#: Each game: the start tile and three tiles, the shortest draw the engine plays.
DRAW = ["D", "U", "V", "E"]
NAMES = ("alice", "bob", "carol", "dave", "erin", "finn", "gus", "hana")


def shorten(bot: CarcassonneBot) -> None:
    """Every game the bot's manager starts deals the short forced draw, with a fixed seed."""
    manager = bot.manager
    manager.seeds = lambda: 7
    start = manager.lobbies.start

    async def short_start(game_id: int, user_id: int, *, seed: int | None = None) -> TurnView:
        row = await manager.game(game_id)
        await manager.storage.save_game(dataclasses.replace(row, setup_extra={"draw": DRAW}))
        return await start(game_id, user_id, seed=seed)

    manager.lobbies.start = short_start  # type: ignore[method-assign]


def players(table: Table, env: simcord.Env, count: int) -> list[Any]:
    """``count`` members of the table's server (alice, bob... hana)."""
    found = list(table.players)
    for name in NAMES[len(found) : count]:
        found.append(table.guild.add_member(env.create_user(name)))
    return found[:count]


def admin_of(table: Table, env: simcord.Env, name: str = "zoe") -> Any:
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(env.create_user(name), roles=[role])


def lobby_message(table: Table, name: str) -> discord.Message:
    """The tournament's sign-up message (its embed is titled with the tournament)."""
    found = [
        m
        for m in table.channel.history()
        if m.embeds and m.embeds[0].title == f"Tournament {name}" and not m.interaction_metadata
    ]
    assert len(found) == 1, f"{len(found)} sign-up messages"
    return found[0]


def embed_text(message: discord.Message) -> str:
    embed = message.embeds[0]
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(parts)


def announcements(table: Table, text: str) -> list[discord.Message]:
    return [m for m in table.channel.history() if text in (m.content or "")]


def picture_sizes(env: simcord.Env, message: discord.Message) -> list[int]:
    """The sizes of a message's pictures, each a PNG under Discord's upload limit."""
    sizes = []
    for attachment in message.attachments:
        data = attachment_bytes(env, attachment)
        assert data.startswith(PNG), attachment.filename
        assert len(data) < UPLOAD_LIMIT, (attachment.filename, len(data))
        sizes.append(len(data))
    assert sizes, "no picture"
    return sizes


async def tables(bot: CarcassonneBot, tid: int, round_no: int) -> list[TournamentGame]:
    return [g for g in await bot.manager.storage.tournament_games(tid) if g.round == round_no]


async def in_play(bot: CarcassonneBot, tid: int) -> list[TournamentGame]:
    found = []
    for game in await bot.manager.storage.tournament_games(tid):
        if game.game_id is None or game.decided:
            continue
        if (await bot.manager.game(game.game_id)).status == "active":
            found.append(game)
    return found


async def finish(env: simcord.Env, bot: CarcassonneBot, game_id: int, seed: int = 1) -> None:
    """Play a game to its end through the manager (random legal moves), then let the bot
    settle (its listeners post what follows)."""
    manager = bot.manager
    rng = random.Random(seed * 1000 + game_id)
    view = await manager.decision(game_id)
    while not view.finished:
        if view.user_id is not None and view.user_id < 0:
            view = (await manager.play_turn(game_id, COMPUTER, turn=view.turn)).view
        else:
            view = (await play_random(manager, view, rng)).view
    await settled(env, bot)


async def settled(env: simcord.Env, bot: CarcassonneBot) -> None:
    """Wait for the bot: its tournament listeners (started by moves the test made through the
    manager, which simcord does not see) and everything they posted."""
    for _ in range(2):
        await bot.manager.tournaments.listened()
        await env.settle()


async def finish_by_commands(table: Table, people: list[Any], game_id: int) -> None:
    """Play every turn left with ``/carcassonne place`` in the game's thread."""
    manager = table.bot.manager
    row = await manager.game(game_id)
    thread = next(t for t in table.channel.threads if t.id == row.thread_id)
    for _ in range(50):
        view = await manager.decision(game_id)
        if view.finished:
            await settled(table.env, table.bot)
            return
        player = next(p for p in people if p.id == view.user_id)
        offered = await player.autocomplete(thread, "carcassonne place", "rotation", "", cell="A")
        await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])
        assert (await manager.decision(game_id)).turn > view.turn
    raise AssertionError("the game did not end")
