"""The chess clock of live games through Discord in simulated time: the lobby's clock, the turn
message's countdown and times, a bank running out (each policy), the increment after it, a
restart in the middle of a clock, pauses by agreement, stale clicks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, close_bots, commit, custom_ids, make_bot, pick, said, shown

from bot.app import CarcassonneBot

#: The scheduler's regular tick: far longer than the clocks, so only the alarm can be on time.
TICK = 600.0
pytestmark = pytest.mark.simcord(settle_timeout=120)


def clock_bot(database: Path) -> CarcassonneBot:
    return make_bot(database, tick_seconds=TICK)


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[CarcassonneBot]:
    yield clock_bot(tmp_path / "games.sqlite3")
    await close_bots()


def now(env: simcord.Env) -> float:
    return env.now().timestamp()


async def seconds(env: simcord.Env, count: float) -> None:
    """Let ``count`` seconds of simulated time pass, a minute at a time."""
    while count > 0:
        step = min(count, 60.0)
        await env.advance_time(step)
        count -= step


async def play(table: Table, game_id: int) -> None:
    """The player in turn plays square A with a legal rotation, no figure."""
    manager = table.bot.manager
    view = await manager.decision(game_id)
    player = table.actor(view.user_id)
    thread = table.thread()
    offered = await player.autocomplete(thread, "carcassonne place", "rotation", "", cell="A")
    await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])
    assert (await manager.decision(game_id)).turn == view.turn + 1


def times(text: str) -> dict[str, int]:
    """The "Clocks:" line of a message: each player's time in seconds."""
    line = next(x for x in text.splitlines() if x.startswith("Clocks: "))
    found: dict[str, int] = {}
    for part in line.removeprefix("Clocks: ").split(" · "):
        name, _, shown = part.rpartition(" ")
        minutes, secs = shown.split(":")[-2:]
        found[name] = int(minutes) * 60 + int(secs)
    return found


def near(found: dict[str, int], wanted: dict[str, int]) -> bool:
    """The times shown, give or take the seconds a busy machine's pictures take."""
    return found.keys() == wanted.keys() and all(
        wanted[n] - 3 <= found[n] <= wanted[n] for n in wanted
    )


async def due_of(table: Table, game_id: int) -> int:
    clock = await table.bot.manager.clocks.chess_clock(game_id)
    assert clock is not None and clock.due_at is not None
    return int(clock.due_at)


async def test_the_lobby_offers_the_clock_and_the_turn_message_shows_it(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(lobby.embeds[0].title.split("#")[1].split()[0])  # type: ignore[union-attr]
    refused = await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:clock")
    assert refused.ephemeral and any("who opened the game" in t for t in said(refused))
    opened = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:clock")
    menu = opened.response
    assert menu is not None and "bank of time" in menu.content
    await alice.select(menu, ["5+10"], custom_id=f"cc:lopt:{game_id}:clock")
    lobby = next(m for m in table.channel.history() if m.id == lobby.id)
    assert "Chess clock: 5 min + 10 s per turn" in shown(lobby), shown(lobby)
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    table.bot.manager.seeds = lambda: 7
    started = now(simcord_env)
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    first = table.last()
    text = first.content
    print("\n--- the first turn message, as alice and bob read it ---\n" + text)
    due = await due_of(table, game_id)
    assert f"⏱️ alice's clock runs out <t:{due}:R>." in text
    assert started + 307 <= due <= started + 313  # 5 min of bank, 10 s for this turn
    assert near(times(text), {"alice": 310, "bob": 300}), text
    await seconds(simcord_env, 40)
    await play(table, game_id)
    second = table.last().content
    print("--- after alice played in 40 s ---\n" + second)
    assert near(times(second), {"alice": 270, "bob": 310}), second
    assert f"⏱️ bob's clock runs out <t:{await due_of(table, game_id)}:R>." in second


@pytest.mark.parametrize(
    ("policy", "told"),
    [
        ("autoplay", "the bot played their turn (as a medium computer)"),
        ("skip", "alice's time ran out."),
        ("forfeit", "they leave the game"),
    ],
)
async def test_a_bank_running_out_applies_the_policy_on_time_and_once(
    simcord_env: simcord.Env, policy: str, told: str
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    game_id = await table.new(clock="10+20", timeout=policy)
    thread = table.thread()
    due = await due_of(table, game_id)
    assert 617 <= due - now(simcord_env) <= 620  # 10 min of bank, 20 s for this turn
    await seconds(simcord_env, 500)
    step = await pick(table, game_id, alice, table.last())  # alice picks a square, too late
    await seconds(simcord_env, due + 2 - now(simcord_env))
    timeouts = [m for m in thread.history() if "time ran out" in m.content]
    assert len(timeouts) == 1 and told in timeouts[0].content, timeouts
    # On time: the alarm, not the scheduler's 10-minute tick, ended the turn.
    assert due <= timeouts[0].created_at.timestamp() <= due + 1.5
    message = timeouts[0]
    print(f"\n--- {policy}: the timeout's turn message ---\n" + message.content)
    assert f"<@{bob.id}>, your turn!" in message.content
    shown_times = times(message.content)
    if policy == "forfeit":  # she left: no clock of hers
        assert near(shown_times, {"bob": 620, "carol": 600}), message.content
    else:
        assert near(shown_times, {"alice": 0, "bob": 620, "carol": 600}), message.content
    view = await table.bot.manager.decision(game_id)
    assert view.turn == 1 and view.user_id == bob.id
    # Her placement step is stale now: her click is refused, and nothing moves.
    stale = await commit(alice, step)
    assert any("out of date: the game has moved on" in t for t in said(stale)), said(stale)
    assert (await table.bot.manager.decision(game_id)).turn == 1
    await seconds(simcord_env, 1200)
    assert len([m for m in thread.history() if "alice's time ran out" in m.content]) == 1
    del carol


async def test_after_a_timeout_the_player_has_the_increment_only(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    await table.new(clock="5+10", timeout="skip")
    thread = table.thread()
    await seconds(simcord_env, 660)  # alice's 5 min + 10 s run out, then bob's
    ends = [m for m in thread.history() if "time ran out" in m.content][:3]
    assert [m.content.split("'s time")[0] for m in ends] == ["⏰ alice", "⏰ bob", "⏰ alice"]
    first, second, third = (m.created_at.timestamp() for m in ends)
    assert 307 <= second - first <= 311  # bob had his whole bank and the increment
    assert 7 <= third - second <= 11  # then alice had the increment only
    turn = ends[1].content  # the turn message of alice's turn after her timeout
    print("\n--- alice's turn after her timeout ---\n" + turn)
    assert near(times(turn), {"alice": 10, "bob": 0}), turn
    assert f"⏱️ alice's clock runs out <t:{int(second + 10)}:R>." in turn or (
        f"<t:{int(second + 9)}:R>" in turn
    )


async def test_a_restart_in_the_middle_of_a_clock_keeps_every_bank(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    table = Table(simcord_env)
    game_id = await table.new(clock="10+20")
    await seconds(simcord_env, 100)
    await play(table, game_id)  # alice keeps 520 s
    await seconds(simcord_env, 120)  # bob has spent 120 of his 620 s
    before = await table.bot.manager.clocks.chess_clock(game_id)
    await simcord_env.restart_bot(clock_bot(tmp_path / "games.sqlite3"))
    after = await table.bot.manager.clocks.chess_clock(game_id)
    assert after == before
    assert after is not None and after.banks == (520.0, 500.0)
    status = await table.players[0].slash(table.thread(), "carcassonne status")
    assert near(times(said(status)[0]), {"alice": 520, "bob": 500}), said(status)
    due = await due_of(table, game_id)
    await seconds(simcord_env, due + 2 - now(simcord_env))
    thread = table.thread()
    ends = [m for m in thread.history() if "bob's time ran out" in m.content]
    assert len(ends) == 1  # the restarted bot's alarm fired bob's clock, on time
    assert due <= ends[0].created_at.timestamp() <= due + 1.5


async def test_a_pause_needs_every_player_and_stops_every_clock(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    game_id = await table.new(clock="10+20")
    thread = table.thread()
    await seconds(simcord_env, 60)
    asked = await bob.slash(table.channel, "carcassonne away", days=1)
    assert asked.ephemeral
    request = table.last()
    print("\n--- the pause request ---\n" + request.content)
    assert f"<@{bob.id}> is away until" in request.content
    assert f"asks to pause the clocks of game #{game_id}" in request.content
    assert f"Waiting for: <@{alice.id}>, <@{carol.id}>" in request.content
    stored = simcord_env.backend.messages[thread.id][request.id]
    assert {alice.id, carol.id} <= set(stored.ping_user_ids)  # asked by name, pinged
    await alice.click(request, custom_id=f"cc:pause:{game_id}:yes")
    request = next(m for m in thread.history() if m.id == request.id)
    assert f"Waiting for: <@{carol.id}>" in request.content and custom_ids(request)
    # Not everyone agreed yet: the clock runs, and ends alice's turn on time.
    due = await due_of(table, game_id)
    await seconds(simcord_env, due + 2 - now(simcord_env))
    ends = [m for m in thread.history() if "alice's time ran out" in m.content]
    assert len(ends) == 1 and due <= ends[0].created_at.timestamp() <= due + 1.5
    await carol.click(request, custom_id=f"cc:pause:{game_id}:yes")
    request = next(m for m in thread.history() if m.id == request.id)
    print("--- everyone agreed ---\n" + request.content)
    assert "Everyone agreed" in request.content and not custom_ids(request)
    await seconds(simcord_env, 3600)  # an hour of pause: nobody's clock moves
    assert not [m for m in thread.history() if "bob's time ran out" in m.content]
    status = await carol.slash(thread, "carcassonne status")
    assert any("Clocks paused (everyone agreed)" in t for t in said(status)), said(status)
    back = await bob.slash(table.channel, "carcassonne away", days=0)
    assert back.ephemeral
    resumed = table.last().content
    print("--- bob is back ---\n" + resumed)
    due = await due_of(table, game_id)
    assert (
        resumed == f"▶️ The clocks of game #{game_id} run again: bob's clock runs out <t:{due}:R>."
    )
    assert due >= int(now(simcord_env) + 617)


async def test_a_refused_pause_leaves_the_clocks_running(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await table.new(clock="5+10")
    await alice.slash(table.channel, "carcassonne away", days=2)
    request = table.last()
    refused = await bob.click(request, custom_id=f"cc:pause:{game_id}:no")
    assert refused.acknowledged
    request = next(m for m in table.thread().history() if m.id == request.id)
    assert "bob refused the pause" in request.content and not custom_ids(request)
    outsider = table.guild.add_member(simcord_env.create_user("zoe"))
    await alice.slash(table.channel, "carcassonne away", days=2)
    again = table.last()
    stranger = await outsider.click(again, custom_id=f"cc:pause:{game_id}:yes")
    assert any("not playing" in t for t in said(stranger)), said(stranger)
    await alice.slash(table.channel, "carcassonne away", days=0)  # back: her request ends
    late = await bob.click(again, custom_id=f"cc:pause:{game_id}:yes")  # a stale click
    assert any("This pause request is over." in t for t in said(late)), said(late)
    due = await due_of(table, game_id)
    await seconds(simcord_env, due + 2 - now(simcord_env))
    thread = table.thread()
    assert len([m for m in thread.history() if "alice's time ran out" in m.content]) == 1
    assert not (await table.bot.manager.clocks.chess_clock(game_id)).paused  # type: ignore[union-attr]
