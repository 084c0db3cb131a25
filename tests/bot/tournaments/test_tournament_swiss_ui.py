"""A whole Swiss tournament of 8 players in 3 rounds through Discord (simcord), play-by-post in
simulated time with the short forced draw: sign-up and check-in by button and command (the
buttons still answer after a restart), the refusals of a member who does not organise, each
round's threads and one announcement mentioning each player once, results edited into the
sign-up message, a drop-out, a turn timeout, a restart of the bot in the middle of a round, an
annulment after the next round was paired, the log, and the final standings and winner."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, close_bots, make_bot, said
from tournament_helpers import (
    admin_of,
    announcements,
    embed_text,
    finish,
    finish_by_commands,
    in_play,
    lobby_message,
    picture_sizes,
    players,
    settled,
    shorten,
    tables,
)

from bot.app import CarcassonneBot

HOUR = 3600.0
#: The scheduler's tick (simulated seconds): a turn's hour runs out within half an hour.
TICK = 1800.0
pytestmark = pytest.mark.simcord(settle_timeout=120)


def post_bot(database: Path) -> CarcassonneBot:
    return make_bot(database, tick_seconds=TICK)


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[CarcassonneBot]:
    yield post_bot(tmp_path / "games.sqlite3")
    await close_bots()


async def restart(env: simcord.Env, tmp_path: Path) -> CarcassonneBot:
    await env.restart_bot(post_bot(tmp_path / "games.sqlite3"))
    bot = env.bot
    assert isinstance(bot, CarcassonneBot)
    shorten(bot)
    await settled(env, bot)
    return bot


async def test_a_swiss_of_eight_in_three_rounds_by_post(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    table = Table(simcord_env, players=4)
    people = players(table, simcord_env, 8)
    alice, bob = people[0], people[1]
    zoe = admin_of(table, simcord_env)
    channel = table.channel
    shorten(table.bot)

    # Creating is for admins; a member is told so, privately.
    refused = await alice.slash(channel, "tournament create", name="Open")
    assert refused.ephemeral and any("manage the server" in t for t in said(refused))
    made = await zoe.slash(
        channel,
        "tournament create",
        name="Open",
        rounds=3,
        pace="post",
        turn_hours=1,
        round_hours=48,
        timeout="forfeit",
    )
    assert any("Tournament **Open** created" in t for t in said(made)), said(made)
    bot = table.bot
    tid = (await bot.manager.tournaments.find_tournament(table.guild.id, "Open")).id
    rules = embed_text(lobby_message(table, "Open"))
    assert "Swiss, 3 rounds" in rules and "play-by-post, 1 h per turn, 48 h per round" in rules

    # Sign-up: buttons for half, commands for the others; the message lists them.
    lobby = lobby_message(table, "Open")
    for person in people[:4]:
        done = await person.click(lobby, custom_id=f"tn:op:{tid}:signup")
        assert "You signed up for **Open**" in said(done)[0]
    again = await alice.click(lobby, custom_id=f"tn:op:{tid}:signup")
    assert again.ephemeral and "You are signed up for Open already" in said(again)[0]
    gone = await alice.slash(channel, "tournament withdraw")
    assert "You withdrew from **Open**" in said(gone)[0]
    assert "alice" not in embed_text(lobby_message(table, "Open"))
    # The buttons answer after a restart (their ids carry the tournament).
    bot = await restart(simcord_env, tmp_path)
    await alice.click(lobby, custom_id=f"tn:op:{tid}:signup")
    for person in people[4:]:
        await person.slash(channel, "tournament signup", tournament="Open")
    text = embed_text(lobby_message(table, "Open"))
    assert "8 players" in text and all(p.name in text for p in people)

    # Check-in: only the organiser (or an admin) opens it; players check in.
    refused = await bob.slash(channel, "tournament checkin", open=True)
    assert refused.ephemeral and any("tournament's organiser" in t for t in said(refused))
    opened = await zoe.slash(channel, "tournament checkin", open=True)
    assert any("Check-in for **Open** is open" in t for t in said(opened))
    lobby = lobby_message(table, "Open")
    for person in people[:7]:
        done = await person.click(lobby, custom_id=f"tn:op:{tid}:checkin")
        assert "You checked in for **Open**" in said(done)[0], said(done)
    await people[7].slash(channel, "tournament checkin")
    assert embed_text(lobby_message(table, "Open")).count("✓") == 8

    # Starting is the organiser's; a member is refused.
    refused = await bob.slash(channel, "tournament start")
    assert refused.ephemeral and any("tournament's organiser" in t for t in said(refused))
    await zoe.slash(channel, "tournament start")
    await settled(simcord_env, bot)
    ids = {p.id for p in people}

    async def announced(round_no: int) -> None:
        posted = announcements(table, f"**Open**: round {round_no} is paired.")
        assert len(posted) == 1, round_no
        playing = {p for g in await tables(bot, tid, round_no) for p in g.players}
        for user in ids:
            assert posted[0].content.count(f"<@{user}>") == (1 if user in playing else 0)
        assert picture_sizes(simcord_env, posted[0])

    await announced(1)
    first = await tables(bot, tid, 1)
    assert len(first) == 4 and all(len(g.players) == 2 for g in first)
    for game in first:
        assert game.game_id is not None
        assert (await bot.manager.game(game.game_id)).thread_id is not None

    # Round 1: three games through the manager, one turn by turn in its thread. The results
    # edit the sign-up message: no message of their own.
    before = len(channel.history())
    for game in first[:3]:
        assert game.game_id is not None
        await finish(simcord_env, bot, game.game_id)
    assert len(channel.history()) == before
    lines = embed_text(lobby_message(table, "Open"))
    assert lines.count(" #") >= 3 and "in play" in lines
    assert first[3].game_id is not None
    await finish_by_commands(table, people, first[3].game_id)
    await announced(2)

    # Round 2: one game ends, the bot restarts, one more is played by commands, bob drops out
    # (his game is resigned), and the last game's player in turn lets their hour run out.
    second = await tables(bot, tid, 2)
    bobs = next(g for g in second if bob.id in g.players)
    others = [g for g in second if g is not bobs]
    assert others[0].game_id is not None
    await finish(simcord_env, bot, others[0].game_id)
    # As if the bot had stopped before opening a game's thread: the restart opens it.
    assert others[1].game_id is not None
    await bot.manager.records.set_messages(others[1].game_id, thread_id=None, message_id=None)
    bot = await restart(simcord_env, tmp_path)
    reopened = (await bot.manager.game(others[1].game_id)).thread_id
    assert reopened is not None and reopened == channel.threads[-1].id
    await finish_by_commands(table, people, others[1].game_id)
    dropped = await bob.slash(channel, "tournament drop")
    assert any("left **Open**" in t for t in said(dropped)), said(dropped)
    await settled(simcord_env, bot)
    late = others[2]
    assert late.game_id is not None
    view = await bot.manager.decision(late.game_id)
    assert not view.finished
    for _ in range(4):
        await simcord_env.advance_time(HOUR)
        await settled(simcord_env, bot)
    decided = {g.table: g for g in await tables(bot, tid, 2)}
    assert decided[bobs.table].absent == (bob.id,)
    assert decided[late.table].decided and view.user_id in decided[late.table].absent
    await announced(3)

    # Round 3: seven players, one bye; bob is paired no more. The organiser annuls a round-1
    # game now that round 2 is over: logged, the pairing stands, the standings change.
    third = await tables(bot, tid, 3)
    assert bob.id not in {p for g in third for p in g.players}
    assert sorted(len(g.players) for g in third) == [1, 2, 2, 2]
    annulled_game = first[0].game_id
    refused = await alice.slash(channel, "tournament annul", game=annulled_game, reason="oops")
    assert refused.ephemeral and any("tournament's organiser" in t for t in said(refused))
    done = await zoe.slash(channel, "tournament annul", game=annulled_game, reason="wrong rule")
    assert any("annulled by" in t and "Reason: wrong rule" in t for t in said(done)), said(done)
    while games := await in_play(bot, tid):
        for game in games:
            assert game.game_id is not None
            await finish(simcord_env, bot, game.game_id)
    final = await bot.manager.tournaments.table(tid)
    assert final.tournament.state == "finished" and final.tournament.round == 3
    assert (await tables(bot, tid, 4)) == []
    winner = final.places[0]
    over = announcements(table, "**Open** is over.")
    assert len(over) == 1 and f"Winner: <@{winner}>" in over[0].content
    assert picture_sizes(simcord_env, over[0])
    assert f"Finished. Winner: <@{winner}>" in embed_text(lobby_message(table, "Open"))
    # Every game in its thread (one twice: the restart's), none for the bye.
    assert len(channel.threads) == 4 + 4 + 3 + 1

    # The standings, public; the log for the organiser only.
    shown = await alice.slash(channel, "tournament standings")
    assert not shown.ephemeral
    assert picture_sizes(simcord_env, shown.followups[-1] if shown.followups else shown.response)
    mine = await alice.slash(channel, "tournament standings", private=True)
    assert mine.ephemeral
    refused = await alice.slash(channel, "tournament log")
    assert refused.ephemeral and any("tournament's organiser" in t for t in said(refused))
    log = await zoe.slash(channel, "tournament log")
    assert log.ephemeral and log.response is not None
    entries = log.response.embeds[0].description or ""
    for action in ("created the tournament", "opened check-in", "started round 1"):
        assert action in entries, entries
    assert "annulled a result of round 1 #" in entries and "wrong rule" in entries
    assert "dropped a player in round 2" in entries


async def test_swiss_rounds_then_a_final_table(simcord_env: simcord.Env) -> None:
    """Four players, one Swiss round, then the top three at a final table: its announcement
    names the finalists once each, and the final's winner wins the tournament."""
    table = Table(simcord_env, players=4)
    people = table.players
    zoe = admin_of(table, simcord_env)
    bot = table.bot
    shorten(bot)
    await zoe.slash(
        table.channel, "tournament create", name="Final", format="swiss_final", rounds=1, advance=3
    )
    tid = (await bot.manager.tournaments.find_tournament(table.guild.id, "Final")).id
    for person in people:
        await person.slash(table.channel, "tournament signup")
    assert "Swiss, 1 round, then a final table of 3" in embed_text(lobby_message(table, "Final"))
    await zoe.slash(table.channel, "tournament start")
    await settled(simcord_env, bot)
    for game in await tables(bot, tid, 1):
        assert game.game_id is not None
        await finish(simcord_env, bot, game.game_id)
    (final,) = await tables(bot, tid, 2)
    assert len(final.players) == 3
    posted = announcements(table, "**Final**: the final table is set (round 2).")
    assert len(posted) == 1
    for person in people:
        expected = 1 if person.id in final.players else 0
        assert posted[0].content.count(f"<@{person.id}>") == expected, person.name
    assert picture_sizes(simcord_env, posted[0])
    assert final.game_id is not None
    await finish(simcord_env, bot, final.game_id)
    done = await bot.manager.tournaments.table(tid)
    (decided,) = await tables(bot, tid, 2)
    assert decided.ranks is not None
    winner = decided.players[decided.ranks.index(1)]
    assert done.tournament.state == "finished" and done.places[0] in decided.players
    over = announcements(table, "**Final** is over.")
    assert len(over) == 1 and f"Winner: <@{done.places[0]}>" in over[0].content
    assert decided.ranks.count(1) > 1 or done.places[0] == winner  # a sole winner wins it
    assert picture_sizes(simcord_env, over[0])
