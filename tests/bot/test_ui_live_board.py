"""The live board's launch from Discord: Play on the board on a running game's turn message
(when the host serves the Activity), Discord's LAUNCH_ACTIVITY response to it, who may press
it, and the Entry Point command that the sync of the commands keeps or creates."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import (
    ENTRY_POINT,
    LAUNCH_ACTIVITY,
    Table,
    activities_enabled,
    commit,
    components,
    custom_ids,
    pick,
    said,
    simcord_bot,
)
from discord import app_commands

from bot.activity.settings import ActivitySettings
from bot.app import Settings
from bot.ui import ids, live_board

__all__ = ["simcord_bot"]  # the fixture simcord_env needs


def serve(table: Table, monkeypatch: pytest.MonkeyPatch, served: bool = True) -> None:
    """The host serves the live board (ACTIVITY_PORT and the application's id and secret)."""
    activity = ActivitySettings(0, "127.0.0.1", "42", "secret") if served else None
    settings = dataclasses.replace(table.bot.settings, activity=activity)
    monkeypatch.setattr(table.bot, "settings", settings)


def callbacks(env: simcord.Env, interaction: int) -> list[Any]:
    """The bodies the bot sent as its response to ``interaction``."""
    return [
        r.json
        for r in env.http_requests
        if r.method == "POST" and r.path.startswith(f"/interactions/{interaction}/")
    ]


def launch_button(message: Any) -> dict[str, Any]:
    found = [c for c in components(message) if c.get("custom_id", "").startswith("cc:live:")]
    assert len(found) == 1, custom_ids(message)
    return found[0]


async def copy_in_channel(table: Table, game_id: int) -> Any:
    """The button posted by the bot in the game's channel (a forwarded or forged copy: the bot
    answers it by its id alone)."""
    view = discord.ui.View(timeout=None)
    live_board.add_button(view, game_id, "en")
    channel = table.bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("copy", view=view)
    return table.channel.last_message


async def test_without_the_activity_the_turn_message_has_no_launch_button(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    await table.new()
    message = table.last()
    assert custom_ids(message, "cc:put:")  # a turn message
    assert not custom_ids(message, "cc:live:")


async def test_the_turn_message_offers_play_on_the_board(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env, locale="fr")
    serve(table, monkeypatch)
    game_id = await table.new()
    first = table.last()
    button = launch_button(first)
    assert button["custom_id"] == ids.LiveBoard(game_id).encode() == f"cc:live:{game_id}"
    assert button["label"] == "Jouer sur le plateau"
    assert custom_ids(first, "cc:put:")  # beside the turn's own menus, within Discord's rows
    assert len(first.components) <= 5
    # The next turn message carries it again; the previous one lost its components.
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    step = await pick(table, game_id, player, first)
    await commit(player, step)
    assert table.last().id != first.id
    assert launch_button(table.last())["custom_id"] == f"cc:live:{game_id}"
    retired = next(m for m in table.thread().history() if m.id == first.id)
    assert not custom_ids(retired)
    assert not simcord_env.errors


async def test_pressing_it_launches_the_activity(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A member who does not play a public game may open its board: the bot answers with
    Discord's LAUNCH_ACTIVITY response (type 12) and nothing else."""
    table = Table(simcord_env, players=3)
    serve(table, monkeypatch)
    await table.new()
    watcher = table.guild.add_member(simcord_env.create_user("erin"))
    with activities_enabled() as launched:
        result = await watcher.click(
            table.last(), custom_id=launch_button(table.last())["custom_id"]
        )
    assert result.acknowledged
    assert len(launched) == 1
    assert callbacks(simcord_env, launched[0]) == [{"type": LAUNCH_ACTIVITY}]
    assert said(result) == []
    assert not simcord_env.errors


async def test_a_private_game_opens_for_its_table_only(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    serve(table, monkeypatch)
    game_id = await table.new(private=True)
    dave = table.guild.add_member(simcord_env.create_user("dave"))
    message = await copy_in_channel(table, game_id)
    custom_id = f"cc:live:{game_id}"
    with activities_enabled() as launched:
        refused = await dave.click(message, custom_id=custom_id)
        assert launched == []
        assert refused.ephemeral
        assert any("is private" in text for text in said(refused)), said(refused)
        allowed = await table.players[1].click(message, custom_id=custom_id)
    assert allowed.acknowledged and len(launched) == 1
    assert said(allowed) == []


def synced_global(env: simcord.Env) -> list[dict[str, Any]]:
    """The last bulk overwrite of the global commands the bot sent."""
    puts = [
        r.json
        for r in env.http_requests
        if r.method == "PUT" and r.path.endswith("/commands") and "/guilds/" not in r.path
    ]
    assert puts, "no sync of the global commands"
    payload = puts[-1]
    assert isinstance(payload, list)
    return payload


def entry_points(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in commands if c.get("type") == ENTRY_POINT]


async def test_the_sync_creates_the_entry_point_command_when_the_board_is_served(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    serve(table, monkeypatch)
    with activities_enabled():
        synced = await table.bot.tree.sync()
    assert {c.name for c in synced} == {"carcassonne", "league", "tournament"}
    (sent,) = entry_points(synced_global(simcord_env))
    assert sent == {
        "name": "launch",
        "name_localizations": {"fr": "lancer", "de": "starten"},
        "description": "Open the live board of this channel's games",
        "description_localizations": {
            "fr": "Ouvrir le plateau en direct des parties de ce salon",
            "de": "Den Spielplan der Partien dieses Kanals live öffnen",
        },
        "type": 4,
        "handler": 2,
        "integration_types": [0],
        "contexts": [0],
    }
    (stored,) = entry_points(list(simcord_env.backend.commands[None].values()))
    assert stored["handler"] == 2
    # Synced again, it stays one command (updated in place, same id).
    with activities_enabled():
        await table.bot.tree.sync()
    (again,) = entry_points(list(simcord_env.backend.commands[None].values()))
    assert again["id"] == stored["id"]


async def test_without_the_board_the_sync_sends_no_entry_point_command(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    assert table.bot.settings.activity is None
    with activities_enabled():
        await table.bot.tree.sync()
    sent = synced_global(simcord_env)
    assert {c["name"] for c in sent} == {"carcassonne", "league", "tournament"}
    assert entry_points(sent) == []


async def test_the_sync_keeps_the_entry_point_command_discord_made(
    simcord_env: simcord.Env,
) -> None:
    """Activities enabled in the developer portal make a default Entry Point command; a bulk
    overwrite without it is refused (50240): the sync sends it back as it is, served or not."""
    table = Table(simcord_env)
    default = {
        "name": "launch",
        "description": "Launch an activity",
        "type": ENTRY_POINT,
        "handler": 2,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }
    with activities_enabled():
        existing = await table.bot.tree.sync()
        backend = simcord_env.backend
        made = ("id", "application_id")
        current = [
            {k: v for k, v in c.items() if k not in made} for c in backend.commands[None].values()
        ]
        backend.register_commands(None, [*current, default])
        # discord.py's own sync would remove it, which Discord refuses.
        with pytest.raises(discord.HTTPException) as refused:
            await app_commands.CommandTree.sync(table.bot.tree)
        assert refused.value.code == 50240
        synced = await table.bot.tree.sync()
    assert [c.name for c in synced] == [c.name for c in existing]
    (kept,) = entry_points(synced_global(simcord_env))
    assert kept == default
    assert not simcord_env.errors


def test_the_board_is_served_with_the_application_id_and_secret() -> None:
    base = {"DISCORD_TOKEN": "x"}
    assert Settings.from_env(base).activity is None
    served = {
        **base,
        "ACTIVITY_PORT": "8090",
        "DISCORD_CLIENT_ID": "1234567890",
        "DISCORD_CLIENT_SECRET": "s3cret",
    }
    assert Settings.from_env(served).activity is not None
    for missing, why in (
        ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_ID"),
        ("DISCORD_CLIENT_SECRET", "DISCORD_CLIENT_SECRET"),
    ):
        with pytest.raises(SystemExit, match=why):
            Settings.from_env({k: v for k, v in served.items() if k != missing})
    with pytest.raises(SystemExit, match="ACTIVITY_PORT"):
        Settings.from_env({**served, "ACTIVITY_PORT": "web"})
