"""Players' data through Discord: ``/carcassonne privacy`` in the player's language,
``/carcassonne forget-me`` with its confirmation (only the member who asked is forgotten; their
running game announces the resignation under their former name), and ``settings keep_days``
for a server's admins only."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from conftest_ui import Table, client_language, custom_ids, said, simcord_bot

from bot.storage import FORGOTTEN_BASE

__all__ = ["simcord_bot"]


def answered(result: Any) -> str:
    return "\n".join(said(result))


def reply(result: Any) -> Any:
    """The message the bot answered an interaction with."""
    assert result.response is not None, "no answer"
    return result.response


async def test_privacy_tells_each_player_what_is_kept_in_their_language(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    alice, _bob = table.players
    carol = table.guild.add_member(simcord_env.create_user("carol"))
    await table.new()
    mine = await alice.slash(table.channel, "carcassonne privacy")
    text = answered(mine)
    assert mine.ephemeral
    assert "What this bot keeps about you" in text
    assert "Games you sat in: 1 (running or in a lobby: 1)" in text
    assert "keeps finished games for ever" in text and "/carcassonne forget-me" in text
    nothing = answered(await carol.slash(table.channel, "carcassonne privacy"))
    assert "Games you sat in: 0" in nothing and "settings (language, reminders, absence): none" in (
        nothing
    )
    client_language(monkeypatch, "fr")
    french = answered(await alice.slash(table.channel, "carcassonne privacy"))
    assert (
        "Ce que ce bot garde à votre sujet" in french
        and "Parties où vous avez pris place : 1" in (french)
    )
    client_language(monkeypatch, "de")
    german = answered(await alice.slash(table.channel, "carcassonne privacy"))
    assert "Was dieser Bot über dich speichert" in german and "für immer" in german


async def test_forget_me_asks_first_answers_only_the_asker_and_resigns_the_running_game(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await table.new()
    manager = table.bot.manager
    asked = await alice.slash(table.channel, "carcassonne forget-me")
    assert asked.ephemeral and "cannot be undone" in answered(asked)
    question = reply(asked)
    yes, no = custom_ids(question, "cc:forget:")
    assert yes == f"cc:forget:0:{alice.id}:yes"
    # Another member pressing a copy of the button is not forgotten, nor is its asker.
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Forget me", custom_id=yes))
    channel: Any = table.bot.get_channel(table.channel.id)
    await channel.send("copy", view=view)
    copy: Any = table.channel.last_message
    refused = await bob.click(copy, custom_id=yes)
    assert "answer the member who asked" in answered(refused) and refused.ephemeral
    assert (await manager.game(game_id)).status == "active"
    assert (await manager.privacy.personal_data(bob.id)).games == 1
    kept = await alice.click(question, custom_id=no)
    assert "Nothing was erased" in reply(kept).content
    assert (await manager.privacy.personal_data(alice.id)).games == 1

    asked = await alice.slash(table.channel, "carcassonne forget-me")
    yes, _ = custom_ids(reply(asked), "cc:forget:")
    done = await alice.click(reply(asked), custom_id=yes)
    final = reply(done).content
    assert "you are now “former player 1”" in final and "Running games resigned: 1" in final
    row = await manager.game(game_id)
    assert row.status == "finished"  # two players, one left: the other wins
    seat = next(s for s in row.seats if s.user_id == FORGOTTEN_BASE + 1)
    assert (seat.name, seat.status) == ("former player 1", "resigned")
    told = [m.content for m in table.thread().history() if "former player 1 resigned" in m.content]
    assert len(told) == 1 and f"<@{alice.id}>" not in told[0], told
    assert (await manager.privacy.personal_data(alice.id)).games == 0
    again = await alice.slash(table.channel, "carcassonne forget-me")
    yes, _ = custom_ids(reply(again), "cc:forget:")
    nothing = await alice.click(reply(again), custom_id=yes)
    assert "nothing to erase" in reply(nothing).content


async def test_keep_days_is_for_the_servers_admins_and_privacy_says_it(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, _bob = table.players
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    other = simcord_env.create_guild()
    elsewhere = other.create_text_channel("elsewhere")
    other_admins = other.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    stranger = other.add_member(simcord_env.create_user("gina"), roles=[other_admins])
    manager = table.bot.manager

    refused = await alice.slash(table.channel, "carcassonne settings", keep_days=1)
    assert refused.ephemeral and "can manage the server" in answered(refused), answered(refused)
    assert (await manager.records.guild_settings(table.guild.id)).keep_days is None
    saved = await admin.slash(table.channel, "carcassonne settings", keep_days=30)
    assert "finished games deleted after 30 days" in answered(saved)
    assert (await manager.records.guild_settings(table.guild.id)).keep_days == 30
    # An admin of another server sets their own server, never this one.
    await stranger.slash(elsewhere, "carcassonne settings", keep_days=2)
    assert (await manager.records.guild_settings(table.guild.id)).keep_days == 30
    assert (await manager.records.guild_settings(other.id)).keep_days == 2
    told = answered(await alice.slash(table.channel, "carcassonne privacy"))
    assert "deletes a finished game 30 days after it ends" in told
    await admin.slash(table.channel, "carcassonne settings", keep_days=0)
    assert (await manager.records.guild_settings(table.guild.id)).keep_days is None
