"""The lobby: open, join, leave, start; the game gets its own thread and a first turn. The
creator's options (rules, expansion, tactical hand, seat order) and each player's colour."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
import simcord
from conftest_ui import Table, assert_png, attachment_bytes, custom_ids, said, simcord_bot
from PIL import Image
from ui_scenes import button_id, menu, option_labels

from bot.ui import images
from bot.ui.lobby import lobby_seats
from renderer import palette as pal

__all__ = ["simcord_bot"]


async def test_a_lobby_fills_and_starts_in_its_own_thread(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    result = await alice.slash(table.channel, "carcassonne new")
    assert result.ephemeral
    lobby = table.channel.last_message
    assert lobby is not None and lobby.embeds
    game_id = int((lobby.embeds[0].title or "").split("#")[1])
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    await carol.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    left = await carol.click(lobby, custom_id=f"cc:lobby:{game_id}:leave")
    assert left.followups and left.followups[0].ephemeral
    lobby = table.channel.last_message
    assert lobby is not None
    players = lobby.embeds[0].fields[1].value or ""
    assert str(bob.id) in players and str(carol.id) not in players
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    turn = table.last()
    assert f"<@{alice.id}>" in turn.content
    assert custom_ids(turn, "cc:put:")
    assert_png(simcord_env, turn)


def players_field(lobby: Any) -> str:
    field = next(f for f in lobby.embeds[0].fields if (f.name or "").startswith("Players"))
    return field.value or ""


def has_colour(png: bytes, colour: tuple[int, int, int], pixels: int = 40) -> bool:
    """Whether at least ``pixels`` pixels are within a few steps of ``colour`` (PNGs are
    mapped to a shared palette, so colours move slightly)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    near = 0
    for count, found in image.getcolors(1 << 20) or []:
        assert isinstance(found, tuple)
        if sum(abs(int(a) - b) for a, b in zip(found, colour, strict=True)) <= 24:
            near += count
    return near >= pixels


async def test_the_creator_sets_options_and_seats_and_players_pick_their_colours(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_seats, "_shuffle", random.Random(1))  # alice, bob, carol -> b, c, a
    table = Table(simcord_env, players=4)
    alice, bob, carol, dave = table.players
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int((lobby.embeds[0].title or "").split("#")[1])
    for player in (bob, carol):
        await player.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    lobby = table.channel.last_message
    assert lobby is not None
    assert "🔵 blue" in players_field(lobby) and "🟢 green" in players_field(lobby)
    # Only the creator changes the options; the refusal says who can, and what else to do.
    refused = await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:options")
    assert refused.ephemeral and f"Only <@{alice.id}>" in said(refused)[0]
    assert "**Colour**" in said(refused)[0]
    options = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:options")
    panel = options.response
    assert panel is not None and panel.ephemeral
    await alice.select(panel, ["abbey_mayor"], custom_id=f"cc:lopt:{game_id}:expansions")
    await alice.select(panel, ["modern"], custom_id=f"cc:lopt:{game_id}:farmers")
    await alice.click(panel, custom_id=button_id(panel, "Tactical hand: off"))
    panel = options.response
    assert panel is not None and button_id(panel, "Tactical hand: on")
    lobby = table.channel.last_message
    assert lobby is not None
    setup = lobby.embeds[0].fields[0].value or ""
    assert "Abbey & Mayor" in setup and "Farmers: modern" in setup
    assert "Tactical hand (3 tiles)" in setup
    # Seat order: shuffle, then move carol to the first seat.
    await alice.click(panel, custom_id=button_id(panel, "Seat order…"))
    panel = options.response
    assert panel is not None and panel.content.startswith("Turn order: 1. alice")
    await alice.click(panel, custom_id=button_id(panel, "Shuffle"))
    panel = options.response
    assert panel is not None and panel.content.startswith(
        "Turn order: 1. bob · 2. carol · 3. alice"
    )
    await alice.select(panel, [str(carol.id)], custom_id=f"cc:lopt:{game_id}:seat_who")
    panel = options.response
    assert panel is not None
    moving = menu(panel, f"cc:lopt:{game_id}:seat_to:{carol.id}")
    assert next(o["label"] for o in moving["options"]) in ("Seat 1", "Seat 2")
    await alice.select(panel, ["0"], custom_id=moving["custom_id"])
    panel = options.response
    assert panel is not None and panel.content.startswith("Turn order: 1. carol")
    lobby = table.channel.last_message
    assert lobby is not None and players_field(lobby).startswith(f"1. <@{carol.id}>")
    # Colours: a taken one is refused with its holder's name; a free one is saved.
    outsider = await dave.click(lobby, custom_id=f"cc:lobby:{game_id}:colour")
    assert said(outsider) == [f"Join game #{game_id} first, then pick your colour."]
    picker = await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:colour")
    colours = picker.response
    assert colours is not None and colours.ephemeral
    labels = option_labels(colours, f"cc:lopt:{game_id}:colour")
    assert labels == ["🔵 blue", "🟠 orange", "🟢 green", "🟡 yellow", "⚫ black", "🩷 pink"]
    taken = await bob.select(colours, ["blue"], custom_id=f"cc:lopt:{game_id}:colour")
    assert said(taken) == ["🔵 blue is taken by alice: pick another colour."]
    chosen = await bob.select(colours, ["purple"], custom_id=f"cc:lopt:{game_id}:colour")
    assert chosen.acknowledged
    assert picker.response is not None and picker.response.content == "Your colour: 🩷 pink."
    lobby = table.channel.last_message
    assert lobby is not None and "🩷 pink" in players_field(lobby)
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    turn = table.last()
    assert f"<@{carol.id}>, your turn!" in turn.content
    row = await table.bot.manager.game(game_id)
    assert row.seats[0].user_id == carol.id
    assert row.expansions == ("abbey_mayor",) and row.options["hand"] is True
    # The board draws bob in purple and nobody in the red nobody chose.
    assert images.seat_styles(row)[row.seat_of(bob.id).seat] == images.STYLES["purple"]  # type: ignore[union-attr]
    png = attachment_bytes(simcord_env, turn.attachments[0])
    assert has_colour(png, pal.PLAYER_COLOURS[images.STYLES["purple"]])
    assert not has_colour(png, pal.PLAYER_COLOURS[images.STYLES["red"]])


async def test_the_creator_combines_any_expansions_in_one_menu(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=1)
    (alice,) = table.players
    await alice.slash(
        table.channel, "carcassonne new", expansion="inns_cathedrals+traders_builders"
    )
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int((lobby.embeds[0].title or "").split("#")[1])
    setup = lobby.embeds[0].fields[0].value or ""
    assert setup.startswith("Inns & Cathedrals + Traders & Builders · ")
    panel = (await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:options")).response
    assert panel is not None
    expansions = menu(panel, f"cc:lopt:{game_id}:expansions")
    assert (expansions["min_values"], expansions["max_values"]) == (0, 4)
    assert option_labels(panel, f"cc:lopt:{game_id}:expansions") == [
        "Abbey & Mayor",
        "Inns & Cathedrals",
        "Traders & Builders",
        "The River",
    ]
    # Stored in the lobby's order whatever the order of the clicks.
    chosen = ["river", "traders_builders", "abbey_mayor", "inns_cathedrals"]
    await alice.select(panel, chosen, custom_id=f"cc:lopt:{game_id}:expansions")
    row = await table.bot.manager.game(game_id)
    assert row.expansions == ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")
    lobby = table.channel.last_message
    assert lobby is not None
    assert "Abbey & Mayor + Inns & Cathedrals + Traders & Builders + The River" in (
        lobby.embeds[0].fields[0].value or ""
    )
    # None chosen: no expansion.
    await alice.select(panel, [], custom_id=f"cc:lopt:{game_id}:expansions")
    assert (await table.bot.manager.game(game_id)).expansions == ()
    lobby = table.channel.last_message
    assert lobby is not None and "No expansion" in (lobby.embeds[0].fields[0].value or "")
    # The command's "all" is the four of them.
    await alice.slash(table.channel, "carcassonne new", expansion="all")
    lobby = table.channel.last_message
    assert lobby is not None
    other = int((lobby.embeds[0].title or "").split("#")[1])
    assert (await table.bot.manager.game(other)).expansions == (
        "abbey_mayor",
        "inns_cathedrals",
        "traders_builders",
        "river",
    )
