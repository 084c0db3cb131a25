"""A channel's dashboard through Discord in simulated time: one message edited in place, at most
once per 5-second window however many moves happen, rebuilt after a restart (found again, or
posted anew when it was deleted), as a player reads it."""

from __future__ import annotations

import itertools
import math
import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import Table, make_bot, said, shown, simcord_bot

from bot.ui.watching.dashboard import WINDOW

__all__ = ["simcord_bot"]
#: Two hundred moves render two hundred boards: room for a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=120)


def admin_of(table: Table) -> Any:
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("zoe"), roles=[admins])


def clock(env: simcord.Env) -> float:
    return env.now().timestamp()


def dashboard_message(table: Table) -> discord.Message:
    found = [
        m
        for m in table.channel.history()
        if m.embeds and (m.embeds[0].title or "").startswith("Running games")
    ]
    assert len(found) == 1, [m.embeds[0].title for m in table.channel.history() if m.embeds]
    return found[0]


def edits_of(env: simcord.Env, channel_id: int, message_id: int) -> int:
    path = f"/channels/{channel_id}/messages/{message_id}"
    return sum(1 for e in env.http_requests if e.method == "PATCH" and e.path == path)


async def place(table: Table, game_id: int) -> None:
    """The player in turn plays square A with a legal rotation, no figure (one move)."""
    manager = table.bot.manager
    view = await manager.decision(game_id)
    thread = next(t for t in table.channel.threads if t.id == view.game.thread_id)
    player = table.actor(view.user_id)
    offered = await player.autocomplete(thread, "carcassonne place", "rotation", "", cell="A")
    await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])
    assert (await manager.decision(game_id)).turn == view.turn + 1


def as_seen(text: str, env: simcord.Env) -> str:
    """A message as a Discord client shows it: mentions as names, countdowns as words."""
    backend = env.backend
    now = clock(env)

    def user(match: re.Match[str]) -> str:
        return "@" + backend.users[int(match[1])].name

    def channel(match: re.Match[str]) -> str:
        return "#" + (backend.channels[int(match[1])].name or "?")

    def countdown(match: re.Match[str]) -> str:
        seconds = int(match[1]) - now
        amount = abs(seconds)
        words = f"{amount / 3600:.0f} hours" if amount >= 3600 else f"{amount / 60:.0f} minutes"
        if amount < 60:
            words = f"{amount:.0f} seconds"
        return f"in {words}" if seconds > 0 else f"{words} ago"

    text = re.sub(r"<@(\d+)>", user, text)
    text = re.sub(r"<#(\d+)>", channel, text)
    text = re.sub(r"\[([^]]+)\]\([^)]+\)", r"\1", text)  # a link shows its text
    return re.sub(r"<t:(\d+):R>", countdown, text).replace("**", "")


#: Moves per game: two hundred in all, so that the games stop at different players.
MOVES = (15, 16, 17, 18, 19, 21, 22, 23, 24, 25)


async def test_a_dashboard_through_200_moves_in_10_games_edits_once_per_window(
    simcord_env: simcord.Env, capsys: pytest.CaptureFixture[str]
) -> None:
    table = Table(simcord_env, players=3)
    admin = admin_of(table)
    on = await admin.slash(table.channel, "carcassonne settings", dashboard=True)
    assert any(f"Dashboard on in <#{table.channel.id}>" in t for t in said(on)), said(on)
    board = dashboard_message(table)
    assert "No game running here" in shown(board)
    # Odd games are play-by-post (a day per turn), even ones live.
    games = [
        await (table.new(seed=n, turn_hours=24) if n % 2 else table.new(seed=n))
        for n in range(1, 11)
    ]
    for game_id in games[:3]:  # watched by zoe (and the first by yves)
        await admin.slash(table.channel, "carcassonne follow", game=game_id)
    yves = table.guild.add_member(simcord_env.create_user("yves"))
    await yves.slash(table.channel, "carcassonne follow", game=games[0])
    await simcord_env.advance_time(WINDOW)
    edited: list[float] = []
    dashboards = table.bot.dashboards
    show = dashboards.show

    async def spy(channel_id: int) -> None:
        edited.append(clock(simcord_env))
        await show(channel_id)

    dashboards.show = spy  # type: ignore[method-assign]
    before = edits_of(simcord_env, table.channel.id, board.id)
    rng = random.Random(19)
    moves: list[float] = []
    for turn in range(max(MOVES)):
        for game_id, count in zip(games, MOVES, strict=True):
            if turn < count:
                await place(table, game_id)
                moves.append(clock(simcord_env))
                # Often several moves at once (live games), sometimes a pause.
                await simcord_env.advance_time(rng.choice([0.001, 0.001, 0.5, 1.0, 2.0, 7.0]))
    await simcord_env.advance_time(2 * WINDOW)
    edits = edits_of(simcord_env, table.channel.id, board.id) - before
    assert len(moves) == 200
    # Windows are 5 s of the clock from the epoch; an edit ends each window that had a move.
    windows = len({math.floor(t / WINDOW) for t in moves})
    print(f"\n200 moves over {moves[-1] - moves[0]:.0f} s, in {windows} windows: {edits} edits")
    assert edits == len(edited), "each edit is one request to Discord"
    assert 0 < edits <= windows < len(moves)
    assert all(b - a >= WINDOW for a, b in itertools.pairwise(edited)), edited
    assert all(t % WINDOW == pytest.approx(0, abs=1e-3) for t in edited), edited
    assert dashboard_message(table).id == board.id, "edited in place, never posted again"
    final = shown(dashboard_message(table))
    assert final.startswith("Running games: 10\n")
    manager = table.bot.manager
    for index, game_id in enumerate(games):
        row = await manager.game(game_id)
        assert row.turn == MOVES[index]
        player = row.seats[row.current_seat or 0]
        link = f"https://discord.com/channels/{table.guild.id}/{row.thread_id}"
        (line,) = [x for x in final.splitlines() if x.startswith(f"**[#{game_id}]({link})** · ")]
        assert f"<@{player.user_id}> to play" in line
        if row.turn_seconds:
            clock_now = await manager.timing.turn_clock(game_id)
            assert clock_now is not None and f"ends <t:{int(clock_now.due_at)}:R>" in line
        else:
            started = await manager.watch.turn_started_at(game_id)
            assert f"turn began <t:{int(started or 0)}:R>" in line
        followers = {0: "👁 2 spectators", 1: "👁 1 spectator", 2: "👁 1 spectator"}
        assert ("👁" in line) == (index in followers), line
        assert line.endswith(followers.get(index, ":R>")), line
    with capsys.disabled():
        print("The dashboard as players see it:\n" + as_seen(final, simcord_env))


async def test_a_restart_finds_the_dashboard_again_or_posts_it_anew(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    table = Table(simcord_env)
    admin = admin_of(table)
    await admin.slash(table.channel, "carcassonne settings", dashboard=True)
    board = dashboard_message(table)
    game_id = await table.new(turn_hours=24)
    await simcord_env.advance_time(WINDOW)
    assert f"**[#{game_id}](" in shown(dashboard_message(table))
    await simcord_env.restart_bot(make_bot(tmp_path / "games.sqlite3"))
    await place(table, game_id)  # a move while it restarts: the first tick shows it
    await simcord_env.advance_time(WINDOW)
    again = dashboard_message(table)
    assert again.id == board.id
    row = await table.bot.manager.game(game_id)
    clock_now = await table.bot.manager.timing.turn_clock(game_id)
    assert clock_now is not None
    line = f"<@{row.seats[1].user_id}> to play · ends <t:{int(clock_now.due_at)}:R>"
    assert line in shown(again), shown(again)
    await table.bot.http.delete_message(table.channel.id, board.id)
    await simcord_env.restart_bot(make_bot(tmp_path / "games.sqlite3"))
    await simcord_env.advance_time(WINDOW)
    posted = dashboard_message(table)
    assert posted.id != board.id and f"**[#{game_id}](" in shown(posted)
    dashboards = await table.bot.manager.watch.dashboards()
    assert [d.message_id for d in dashboards] == [posted.id]
    off = await admin.slash(table.channel, "carcassonne settings", dashboard=False)
    assert any("Dashboard off" in t for t in said(off))
    assert not [m for m in table.channel.history() if m.id == posted.id]
    assert await table.bot.manager.watch.dashboards() == []


async def test_only_admins_turn_a_dashboard_on_and_only_in_a_channel(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    refused = await alice.slash(table.channel, "carcassonne settings", dashboard=True)
    assert any("manage the server" in t for t in said(refused)), said(refused)
    admin = admin_of(table)
    await table.new()
    in_thread = await admin.slash(table.thread(), "carcassonne settings", dashboard=True)
    assert any("not in a thread" in t for t in said(in_thread)), said(in_thread)
    assert await table.bot.manager.watch.dashboards() == []


async def test_a_game_under_a_chess_clock_shows_when_the_clock_runs_out(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    admin = admin_of(table)
    await admin.slash(table.channel, "carcassonne settings", dashboard=True)
    game_id = await table.new(clock="10+20")
    await simcord_env.advance_time(WINDOW)
    chess = await table.bot.manager.clocks.chess_clock(game_id)
    assert chess is not None and chess.due_at is not None
    row = await table.bot.manager.game(game_id)
    line = f"<@{row.seats[0].user_id}> to play · clock runs out <t:{int(chess.due_at)}:R>"
    assert line in shown(dashboard_message(table)), shown(dashboard_message(table))
    await place(table, game_id)
    await simcord_env.advance_time(WINDOW)
    chess = await table.bot.manager.clocks.chess_clock(game_id)
    assert chess is not None and chess.due_at is not None
    line = f"<@{row.seats[1].user_id}> to play · clock runs out <t:{int(chess.due_at)}:R>"
    assert line in shown(dashboard_message(table)), shown(dashboard_message(table))
