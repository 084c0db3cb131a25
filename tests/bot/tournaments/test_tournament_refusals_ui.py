"""What a tournament refuses, and to whom, through Discord: a member who does not organise it,
and a member and an admin of another server, who see nothing of it (names, suggestions,
buttons, games); the refusals in French on a French server."""

from __future__ import annotations

from typing import Any

import discord
import simcord
from conftest_ui import Table, said, simcord_bot
from tournament_helpers import admin_of, settled, shorten

from bot.ui import ids
from bot.ui.tournaments.tournament_commands import TournamentButton

__all__ = ["simcord_bot"]


async def test_another_servers_people_see_nothing_of_a_tournament(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    zoe = admin_of(table, simcord_env)
    shorten(table.bot)
    away = simcord_env.create_guild()
    away_channel = away.create_text_channel("elsewhere")
    frank = away.add_member(simcord_env.create_user("frank"))
    manage = discord.Permissions(manage_guild=True)
    gina = away.add_member(
        simcord_env.create_user("gina"),
        roles=[away.create_role("admins", permissions=manage)],
    )
    await zoe.slash(table.channel, "tournament create", name="Open")
    await zoe.slash(table.channel, "tournament create", name="Spring cup", format="knockout")
    await gina.slash(away_channel, "tournament create", name="Away cup")
    offered = await alice.autocomplete(table.channel, "tournament signup", "tournament", "")
    assert {o["value"] for o in offered} == {"Open", "Spring cup"}
    typed = await alice.autocomplete(table.channel, "tournament signup", "tournament", "spr")
    assert [o["value"] for o in typed] == ["Spring cup"]
    for outsider in (frank, gina):
        offered = await outsider.autocomplete(away_channel, "tournament signup", "tournament", "")
        assert [o["value"] for o in offered] == ["Away cup"], outsider.name
        for command, options in (
            ("tournament signup", {}),
            ("tournament standings", {}),
            ("tournament log", {}),
            ("tournament start", {}),
            ("tournament cancel", {"reason": "mine"}),
        ):
            refused = await outsider.slash(away_channel, command, tournament="Open", **options)
            assert refused.ephemeral, (command, said(refused))
            assert any("There is no tournament called 'Open'" in t for t in said(refused)), said(
                refused
            )
    found = await table.bot.manager.tournaments.find_tournament(table.guild.id, "Open")
    # A copy of the sign-up button posted in the other server answers as if none existed.
    copy = discord.ui.View(timeout=None)
    copy.add_item(
        TournamentButton(
            ids.TournamentOp(found.id, "signup"), "Sign up", discord.ButtonStyle.primary
        )
    )
    target = table.bot.get_channel(away_channel.id)
    assert isinstance(target, discord.TextChannel)
    await target.send("copy", view=copy)
    forged = away_channel.last_message
    assert forged is not None
    for outsider in (frank, gina):
        clicked = await outsider.click(forged, custom_id=f"tn:op:{found.id}:signup")
        assert clicked.ephemeral
        assert any("There is no tournament called" in t for t in said(clicked)), said(clicked)
    assert await table.bot.manager.tournaments.entrants(found.id) == []

    # The games of a running tournament are another server's game numbers to them.
    for person in (alice, bob):
        await person.slash(table.channel, "tournament signup", tournament="Open")
    await zoe.slash(table.channel, "tournament start", tournament="Open")
    await settled(simcord_env, table.bot)
    (game,) = await table.bot.manager.storage.tournament_games(found.id)
    assert game.game_id is not None
    for command in ("tournament annul", "tournament replay"):
        refused = await gina.slash(away_channel, command, game=game.game_id, reason="x")
        assert refused.ephemeral, command
        assert any(f"There is no game #{game.game_id} here" in t for t in said(refused)), said(
            refused
        )
    # A member of the server who does not organise is refused what organisers do.
    organising: tuple[tuple[str, dict[str, Any]], ...] = (
        ("tournament annul", {"game": game.game_id, "reason": "I lost"}),
        ("tournament replay", {"game": game.game_id, "reason": "I lost"}),
        ("tournament cancel", {"reason": "bored", "tournament": "Open"}),
        ("tournament drop", {"player": bob, "reason": "rude", "tournament": "Open"}),
        ("tournament log", {"tournament": "Open"}),
    )
    for command, options in organising:
        refused = await alice.slash(table.channel, command, **options)
        assert refused.ephemeral, command
        text = "Only the tournament's organiser or members who can manage the server"
        assert any(text in t for t in said(refused)), (command, said(refused))
    assert (await table.bot.manager.tournaments.tournament(found.id)).state == "running"
    assert (await table.bot.manager.game(game.game_id)).status == "active", "not replayed"
    assert all(e.playing for e in await table.bot.manager.tournaments.entrants(found.id))


async def test_a_french_server_is_refused_in_french(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    zoe = admin_of(table, simcord_env)
    await zoe.slash(table.channel, "carcassonne settings", language="fr")
    refused = await alice.slash(table.channel, "tournament create", name="Hiver")
    assert any("gérer le serveur" in t for t in said(refused)), said(refused)
    made = await zoe.slash(table.channel, "tournament create", name="Hiver", rounds=2)
    assert any("Tournoi **Hiver** créé" in t for t in said(made)), said(made)
    assert any("/tournoi inscription" in t for t in said(made)), said(made)
    lobby = lobby_message_fr(table, "Hiver")
    assert "Suisse, 2 rondes" in str(lobby.embeds[0].fields)
    assert [c.label for c in lobby.components[0].children] == ["S'inscrire", "Se désinscrire"]  # type: ignore[union-attr]
    await bob.slash(table.channel, "tournament signup")
    again = await bob.slash(table.channel, "tournament signup")
    assert any("déjà faite" in t for t in said(again)), said(again)
    refused = await alice.slash(table.channel, "tournament start")
    assert any("l'organisateur du tournoi" in t for t in said(refused)), said(refused)
    few = await zoe.slash(table.channel, "tournament start")
    assert any("au moins deux joueurs" in t for t in said(few)), said(few)


def lobby_message_fr(table: Table, name: str) -> discord.Message:
    found = [
        m
        for m in table.channel.history()
        if m.embeds and m.embeds[0].title == f"Tournoi {name}" and not m.interaction_metadata
    ]
    assert len(found) == 1
    return found[0]


async def test_a_leagues_organiser_creates_its_tournament_and_nobody_else_does(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=2)
    olga, dave = table.players
    manager = table.bot.manager
    league = await manager.leagues.create_league(
        table.guild.id, table.channel.id, olga.id, "Spring", admin=True
    )
    refused = await olga.slash(table.channel, "tournament create", name="Solo")
    assert refused.ephemeral and any("manage the server" in t for t in said(refused))
    refused = await dave.slash(table.channel, "tournament create", name="Cup", league="Spring")
    assert refused.ephemeral and any("league's organiser" in t for t in said(refused))
    made = await olga.slash(table.channel, "tournament create", name="Cup", league="Spring")
    assert any("Tournament **Cup** created" in t for t in said(made)), said(made)
    found = await manager.tournaments.find_tournament(table.guild.id, "Cup")
    assert found.league_id == league.id and found.organiser_id == olga.id
    # Its organiser organises it: check-in is hers to open, not a member's.
    refused = await dave.slash(table.channel, "tournament checkin", open=True)
    assert refused.ephemeral and any("tournament's organiser" in t for t in said(refused))
    opened = await olga.slash(table.channel, "tournament checkin", open=True)
    assert any("Check-in for **Cup** is open" in t for t in said(opened)), said(opened)
