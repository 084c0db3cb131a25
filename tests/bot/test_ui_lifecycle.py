"""Games that outlive the bot process, private games, records in and out, French players."""

from __future__ import annotations

import json
from pathlib import Path

import discord
import pytest
import simcord
from conftest_ui import (
    Table,
    assert_png,
    attachment_bytes,
    client_language,
    commit,
    custom_ids,
    make_bot,
    pick,
    put_options,
    said,
    simcord_bot,
)
from discord import app_commands

from bot.storage import Status
from bot.ui.translator import Translator

__all__ = ["simcord_bot"]


def first_put(message: object) -> str:
    """The first placement of a turn that fits in more than one rotation."""
    options = put_options(message)
    return str(next((o["value"] for _, o in options if "°" in o["label"]), options[0][1]["value"]))


async def test_a_turn_half_chosen_before_a_restart_is_confirmed_after_it(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await table.new()
    prompt = table.last()
    step = await pick(table, game_id, alice, prompt, value=first_put(prompt))
    rotations = custom_ids(step, "cc:pl:")
    await simcord_env.restart_bot(make_bot(tmp_path / "games.sqlite3"))
    # The private step still works after the restart: turn the tile, then No figure.
    if rotations:
        await alice.click(step, custom_id=rotations[-1])
    await commit(alice, step)
    assert (await table.bot.manager.decision(game_id)).turn == 1
    assert "alice placed a tile (" in table.last().content


async def test_a_private_game_is_played_in_a_private_thread_with_its_players(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    await table.new(private=True)
    thread = table.bot.get_channel(table.thread().id)
    assert isinstance(thread, discord.Thread)
    assert thread.type is discord.ChannelType.private_thread
    assert put_options(table.last())


async def test_an_exported_record_imports_as_a_new_game_at_the_same_turn(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await table.new()
    for player in (alice, bob):
        offered = await player.autocomplete(
            table.thread(), "carcassonne place", "rotation", "", cell="A"
        )
        await player.slash(
            table.thread(), "carcassonne place", cell="A", rotation=offered[0]["value"]
        )
    # A running game exports its position: what the table has seen, not its future; it can
    # be looked at, not continued.
    exported = await alice.slash(table.thread(), "carcassonne export")
    assert exported.response is not None
    data = attachment_bytes(simcord_env, exported.response.attachments[0])
    position = json.loads(data)
    assert position["format"] == 2 and "seed" not in position and "draw" not in position
    every: tuple[Status, ...] = ("lobby", "active", "finished", "abandoned")
    games = len(await table.bot.manager.records.games_of_user(alice.id, statuses=every))
    refused = await alice.slash(table.channel, "carcassonne import", file=("game.json", data))
    assert refused.ephemeral and any("still running" in t for t in said(refused)), said(refused)
    assert len(await table.bot.manager.records.games_of_user(alice.id, statuses=every)) == games
    # Once the game is over (here abandoned), its record imports as a new game.
    await table.bot.manager.abandon(game_id, alice.id, admin=True)
    exported = await alice.slash(table.thread(), "carcassonne export")
    assert exported.response is not None
    data = attachment_bytes(simcord_env, exported.response.attachments[0])
    record = json.loads(data)
    assert record["format"] == 1 and len(record["actions"]) >= 2
    imported = await alice.slash(table.channel, "carcassonne import", file=("game.json", data))
    assert any("Imported as game" in t for t in said(imported)), said(imported)
    new_id = max(r.id for r in await table.bot.manager.records.games_of_user(alice.id))
    assert new_id != game_id
    view = await table.bot.manager.decision(new_id)
    assert view.turn == (await table.bot.manager.decision(game_id)).turn
    posted = table.channel.last_message
    assert posted is not None and custom_ids(posted, f"cc:put:{new_id}:")
    assert_png(simcord_env, posted)
    # A file that is not a record is refused with a reason, nothing created.
    bad = await alice.slash(table.channel, "carcassonne import", file=("x.json", b"{oops"))
    assert any("not a game record" in t for t in said(bad)), said(bad)


async def test_bad_place_input_is_explained(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    await table.new()
    wrong_cell = await alice.slash(table.thread(), "carcassonne place", cell="ZZ", rotation=0)
    assert any("There is no square ZZ this turn" in t for t in said(wrong_cell))
    wrong_player = await bob.slash(table.thread(), "carcassonne place", cell="A", rotation=0)
    assert any("alice" in t for t in said(wrong_player))
    wrong_figure = await alice.slash(
        table.thread(), "carcassonne place", cell="A", rotation=0, figure="99"
    )
    assert said(wrong_figure) and wrong_figure.ephemeral


async def test_a_french_server_plays_in_french(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    refused = await alice.slash(table.channel, "carcassonne settings", language="fr")
    assert any("manage the server" in t for t in said(refused))
    saved = await admin.slash(table.channel, "carcassonne settings", language="fr")
    assert any("Réglages du serveur" in t for t in said(saved)), said(saved)
    await table.new()
    lobby = next(m for m in table.channel.history() if m.embeds)
    assert "Partie commencée" in lobby.content  # the lobby, closed by the start, in French
    turn = table.last()
    assert "à vous de jouer" in turn.content
    assert "Tuile" in turn.content


async def test_commands_carry_french_and_german_names() -> None:
    translator = Translator()
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.other, data=None
    )
    name = await translator.translate(
        app_commands.locale_str("new"), discord.Locale.french, context
    )
    assert name == "nouvelle"
    german = await translator.translate(
        app_commands.locale_str("new"), discord.Locale.german, context
    )
    assert german == "neu"
    assert (
        await translator.translate(app_commands.locale_str("new"), discord.Locale.japanese, context)
        is None
    )


async def test_the_synced_commands_are_localised(simcord_env: simcord.Env) -> None:
    synced = [r for r in simcord_env.http_requests if r.method == "PUT" and "commands" in r.path]
    payload = json.dumps(synced[-1].json)
    assert '"fr": "nouvelle"' in payload and '"de": "neu"' in payload
    assert '"fr": "Jouer \\u00e0 Carcassonne sur ce serveur"' in payload or "Jouer" in payload


async def test_a_player_with_a_french_client_is_answered_in_french(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    bob = table.players[1]
    await table.new()
    client_language(monkeypatch, "fr")
    prompt = table.last()
    menu, option = put_options(prompt)[0]
    refused = await bob.select(prompt, [option["value"]], custom_id=menu)
    assert said(refused) == ["C'est à alice de jouer ; seul ce joueur peut utiliser ces boutons."]
    rules = await bob.slash(table.thread(), "carcassonne rules")
    assert any("Jouer ici" in t for t in said(rules))
