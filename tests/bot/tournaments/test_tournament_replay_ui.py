"""The organiser's ``/tournament replay`` through Discord (simcord): a game still in play is
stopped and its table plays a new game, in a thread of its own that names its players once;
the refusals (a member who does not organise, another server, a game of an earlier round, a
tournament over, in French on a French server); and the line a game stopped by the round's
deadline gets in its thread."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import pytest_asyncio
import simcord
from conftest import play_random
from conftest_ui import Table, close_bots, make_bot, said
from tournament_helpers import admin_of, finish, in_play, settled, shorten, tables

from bot.app import CarcassonneBot

HOUR = 3600.0
#: The scheduler's tick (simulated seconds).
TICK = 1800.0
pytestmark = pytest.mark.simcord(settle_timeout=120)


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[CarcassonneBot]:
    yield make_bot(tmp_path / "games.sqlite3", tick_seconds=TICK)
    await close_bots()


def thread_texts(table: Table, thread_id: int | None) -> list[str]:
    thread = next(t for t in table.channel.threads if t.id == thread_id)
    return [m.content or "" for m in thread.history()]


async def test_the_organiser_replays_a_game_of_the_round_in_play(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=4)
    alice, bob, carol, dave = table.players
    zoe = admin_of(table, simcord_env)
    bot, channel = table.bot, table.channel
    shorten(bot)
    await zoe.slash(channel, "tournament create", name="Open", rounds=2)
    tid = (await bot.manager.tournaments.find_tournament(table.guild.id, "Open")).id
    for person in table.players:
        await person.slash(channel, "tournament signup")
    await zoe.slash(channel, "tournament start")
    await settled(simcord_env, bot)
    done, running = await tables(bot, tid, 1)
    assert done.game_id is not None and running.game_id is not None
    await finish(simcord_env, bot, done.game_id)

    # A member who does not organise, and another server's admin, are refused privately.
    refused = await alice.slash(channel, "tournament replay", game=running.game_id, reason="x")
    assert refused.ephemeral and any("tournament's organiser" in t for t in said(refused))
    away = simcord_env.create_guild()
    away_channel = away.create_text_channel("elsewhere")
    gina = away.add_member(
        simcord_env.create_user("gina"),
        roles=[away.create_role("admins", permissions=discord.Permissions(manage_guild=True))],
    )
    refused = await gina.slash(away_channel, "tournament replay", game=running.game_id, reason="x")
    assert refused.ephemeral
    assert any(f"There is no game #{running.game_id} here" in t for t in said(refused))
    assert (await bot.manager.game(running.game_id)).status == "active"

    # The organiser replays the game in play: stopped, its table plays a new game.
    threads_before = len(channel.threads)
    replayed = await zoe.slash(
        channel, "tournament replay", game=running.game_id, reason="wrong tiles"
    )
    await settled(simcord_env, bot)
    assert not replayed.ephemeral
    text = " ".join(said(replayed))
    assert f"Game #{running.game_id} (**Open**) replayed by" in text, text
    assert "Reason: wrong tiles" in text
    assert (await bot.manager.game(running.game_id)).status == "abandoned"
    again = next(g for g in await tables(bot, tid, 1) if g.game_no == 2)
    assert again.table == running.table and again.players == running.players
    assert again.game_id is not None and f"game #{again.game_id}" in text
    assert len(channel.threads) == threads_before + 1
    row = await bot.manager.game(again.game_id)
    welcome = [t for t in thread_texts(table, row.thread_id) if "plays again" in t]
    assert len(welcome) == 1, thread_texts(table, row.thread_id)
    listed = welcome[0].split("The order of play")[0]  # then the first turn's prompt
    for player in running.players:
        assert listed.count(f"<@{player}>") == 1
    twice = await zoe.slash(channel, "tournament replay", game=running.game_id, reason="again")
    assert twice.ephemeral and any("replayed already" in t for t in said(twice)), said(twice)
    log = await zoe.slash(channel, "tournament log")
    assert log.response is not None
    entries = log.response.embeds[0].description or ""
    assert f"had a game of round 1 replayed #{running.game_id}" in entries, entries

    # Once round 2 is paired, a game of round 1 is not replayed; nor any once it is over.
    await finish(simcord_env, bot, again.game_id)
    assert len(await tables(bot, tid, 2)) == 2
    past = await zoe.slash(channel, "tournament replay", game=done.game_id, reason="late")
    assert past.ephemeral
    assert any("only a game of the round in play (round 2)" in t for t in said(past)), said(past)
    await zoe.slash(channel, "carcassonne settings", language="fr")
    past = await zoe.slash(channel, "tournament replay", game=done.game_id, reason="tard")
    assert any("seule une partie de la ronde en cours" in t for t in said(past)), said(past)
    await zoe.slash(channel, "carcassonne settings", language="en")
    while games := await in_play(bot, tid):
        for game in games:
            assert game.game_id is not None
            await finish(simcord_env, bot, game.game_id)
    assert (await bot.manager.tournaments.tournament(tid)).state == "finished"
    last = (await tables(bot, tid, 2))[0]
    over = await zoe.slash(channel, "tournament replay", game=last.game_id, reason="late")
    assert over.ephemeral and any("is not being played now" in t for t in said(over)), said(over)
    assert {p.id for p in (alice, bob, carol, dave)} == {
        p for g in await tables(bot, tid, 2) for p in g.players
    }


async def test_a_game_stopped_by_the_round_deadline_says_so_in_its_thread(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=4)
    zoe = admin_of(table, simcord_env)
    bot, channel = table.bot, table.channel
    shorten(bot)
    await zoe.slash(
        channel, "tournament create", name="Post", rounds=2, pace="post",
        turn_hours=24, round_hours=24, timeout="forfeit",
    )  # fmt: skip
    tid = (await bot.manager.tournaments.find_tournament(table.guild.id, "Post")).id
    for person in table.players:
        await person.slash(channel, "tournament signup")
    await zoe.slash(channel, "tournament start")
    await settled(simcord_env, bot)
    done, late = await tables(bot, tid, 1)
    assert done.game_id is not None and late.game_id is not None
    await simcord_env.advance_time(HOUR)
    await finish(simcord_env, bot, done.game_id)
    # One turn of the late game: its turn clock restarts, the round's deadline comes first.
    view = await bot.manager.decision(late.game_id)
    first_turn = view.turn
    rng = random.Random(2)
    while view.turn == first_turn:
        view = (await play_random(bot.manager, view, rng)).view
    await settled(simcord_env, bot)
    waiting = view.user_id
    assert waiting is not None and not view.finished
    for _ in range(24):
        await simcord_env.advance_time(HOUR)
        await settled(simcord_env, bot)
    decided = next(g for g in await tables(bot, tid, 1) if g.game_id == late.game_id)
    assert decided.decided and decided.absent == (waiting,)
    row = await bot.manager.game(late.game_id)
    lines = [t for t in thread_texts(table, row.thread_id) if "deadline ended this game" in t]
    assert lines == [
        "The round's deadline ended this game: it is decided by the scores as they stood, "
        f"<@{waiting}> (whose turn it was) counting as absent."
    ]
    finished = await bot.manager.game(done.game_id)
    assert not any("deadline" in t for t in thread_texts(table, finished.thread_id))
    assert len(await tables(bot, tid, 2)) == 2
