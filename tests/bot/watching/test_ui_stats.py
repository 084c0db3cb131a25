"""``/carcassonne stats`` and ``/league stats`` on Discord: the embed, the picture, refusals."""

from __future__ import annotations

import re

import simcord
from conftest_ui import Table, assert_png, said, shown, simcord_bot, step_of

from bot.storage import LeaguePlacing, LeagueResult


async def finished_game(table: Table) -> int:
    """A 3-player game that alice and bob leave: carol wins it."""
    game_id = await table.new()
    alice, bob = table.players[:2]
    await alice.slash(table.thread(), "carcassonne resign")
    await bob.slash(table.thread(), "carcassonne resign")
    assert (await table.bot.manager.decision(game_id)).finished
    return game_id


async def test_stats_show_games_wins_and_head_to_head_with_a_picture(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    before = await alice.slash(table.channel, "carcassonne stats")
    assert any("alice has no finished games here yet" in t for t in said(before)), said(before)
    await finished_game(table)

    answer = await carol.slash(table.channel, "carcassonne stats")
    message = step_of(answer)
    text = shown(message)
    assert "📊 Statistics of carol" in text
    assert "Played: 1 · won: 1 (100%)" in text, text
    assert "no turns with a turn clock yet" in text
    assert assert_png(simcord_env, message)

    versus = await alice.slash(table.channel, "carcassonne stats", player=bob, versus=carol)
    text = shown(step_of(versus))
    assert "📊 Statistics of bob" in text and "Played: 1 · won: 0 (0%)" in text, text
    assert re.search(r"Against carol: 1 game together · wins: 0 to 1", text), text

    robot = table.guild.add_member(simcord_env.create_user("robot", bot=True))
    refused = await alice.slash(table.channel, "carcassonne stats", player=robot)
    assert refused.ephemeral and any("Bots have no statistics" in t for t in said(refused))
    itself = await alice.slash(table.channel, "carcassonne stats", versus=alice)
    assert any("someone else" in t for t in said(itself))
    slowed = await alice.slash(table.channel, "carcassonne stats")  # the 5th in 30 s
    assert any(re.search(r"try again in \d+ s", t) for t in said(slowed)), said(slowed)


async def test_league_stats_count_the_seasons_games_only(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    manager = table.bot.manager
    league = await manager.leagues.create_league(
        table.guild.id, table.channel.id, alice.id, "Spring", admin=True
    )
    counted = await finished_game(table)
    await finished_game(table)  # a game outside the league
    placings = (LeaguePlacing(2, carol.id, "carol", 0, 1),)
    result = LeagueResult(counted, league.id, 1, 0.0, placings)
    await manager.storage.record_league_result(result)

    answer = await bob.slash(table.channel, "league stats", player=carol, league="Spring")
    text = shown(step_of(answer))
    assert "League **Spring**, season 1" in text and "Played: 1 · won: 1" in text, text
    server = await bob.slash(table.channel, "carcassonne stats", player=carol)
    assert "Played: 2 · won: 2" in shown(step_of(server))
    missing = await bob.slash(table.channel, "league stats", league="Spring", season=5)
    assert any("This league has no season 5." in t for t in said(missing)), said(missing)


__all__ = ["simcord_bot"]  # the fixture simcord_env needs
