"""Play-by-post through Discord in simulated time: days of play, reminders, timeouts, vacations,
the digest and ``mygames``, with the scheduler ticking on simcord's virtual clock."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord
from conftest_ui import Table, assert_png, close_bots, make_bot, said
from discord import app_commands

from bot.app import CarcassonneBot, Settings
from bot.live import ENGINE_STATES, LIVE_GAMES
from bot.ui.translator import Translator

HOUR = 3600.0
#: The scheduler's tick in these tests (seconds of simulated time): deadlines fire within half
#: an hour, and a simulated day costs 48 ticks.
TICK = 1800.0
#: Forced moves render boards: give each step of simulated time room on a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=120)


def pbp_bot(database: Path) -> CarcassonneBot:
    return make_bot(database, tick_seconds=TICK)


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[CarcassonneBot]:
    yield pbp_bot(tmp_path / "games.sqlite3")
    await close_bots()


async def later(env: simcord.Env, hours: float) -> None:
    """Let ``hours`` of simulated time pass (the scheduler ticks every ``TICK`` meanwhile)."""
    left = hours * HOUR
    while left > 0:
        step = min(left, 6 * HOUR)
        await env.advance_time(step)
        left -= step


def clock(env: simcord.Env) -> float:
    return env.now().timestamp()


def stored(env: simcord.Env, channel_id: int) -> list[Any]:
    """The backend's messages of a channel, oldest first (with who each one pinged)."""
    return sorted(env.backend.messages.get(channel_id, {}).values(), key=lambda m: m.id)


def pings(env: simcord.Env, channel_id: int, user_id: int) -> int:
    return sum(user_id in m.ping_user_ids for m in stored(env, channel_id))


def containing(env: simcord.Env, channel_id: int, text: str) -> list[Any]:
    return [m for m in stored(env, channel_id) if text in m.content]


def archived(env: simcord.Env, thread_id: int) -> bool:
    meta = env.backend.channels[thread_id].thread_metadata
    assert meta is not None
    return bool(meta.archived)


def archive_minutes(env: simcord.Env, thread_id: int) -> int:
    meta = env.backend.channels[thread_id].thread_metadata
    assert meta is not None
    return int(meta.auto_archive_duration)


def thread_of(table: Table, game_row: Any) -> Any:
    return next(t for t in table.channel.threads if t.id == game_row.thread_id)


async def play(table: Table, game_id: int) -> None:
    """The player in turn plays square A with a legal rotation, no figure."""
    manager = table.bot.manager
    view = await manager.decision(game_id)
    thread = thread_of(table, view.game)
    player = table.actor(view.user_id)
    offered = await player.autocomplete(thread, "carcassonne place", "rotation", "", cell="A")
    await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])
    assert (await manager.decision(game_id)).turn == view.turn + 1


def forced_actions(record: dict[str, Any]) -> list[str | None]:
    return [a.get("forced") for a in record["actions"]]


async def test_a_game_across_days_mentions_each_player_once_and_reminds_once_per_turn(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    opted = await alice.slash(table.channel, "carcassonne reminders", dm=True)
    assert any("I sent you a DM" in t for t in said(opted)), said(opted)
    assert "DM reminders are on" in alice.user.dm_channel.history()[-1].content
    start = clock(simcord_env)
    game_id = await table.new(turn_hours=24)
    thread = table.thread()
    first = table.last()
    assert f"<t:{int(start + 24 * HOUR)}:R>" in first.content  # the deadline, relative
    await later(simcord_env, 17.5)
    assert not containing(simcord_env, thread.id, "reminder")
    await later(simcord_env, 1)
    reminders = containing(simcord_env, thread.id, "reminder: your turn ends")
    assert len(reminders) == 1 and f"<@{alice.id}>" in reminders[0].content
    assert not reminders[0].ping_user_ids  # shown, not pinged: the turn message pinged
    dms = alice.user.dm_channel.history()
    assert f"game #{game_id} ends <t:{int(start + 24 * HOUR)}:R>" in dms[-1].content
    assert f"/{thread.id}/" in dms[-1].content  # a link to the turn message
    await later(simcord_env, 2)
    await play(table, game_id)  # alice plays at 20.5 h; bob never does
    played_at = clock(simcord_env)
    await later(simcord_env, 23)
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 2
    assert not containing(simcord_env, thread.id, "time ran out")
    await later(simcord_env, 1.5)  # bob's 24 h are over: the bot plays for him
    timeout = containing(simcord_env, thread.id, "bob's time ran out")
    assert len(timeout) == 1
    assert "the bot played their turn (as a medium computer)" in timeout[0].content
    assert "bob placed a tile (" in timeout[0].content  # narrated like any move
    assert alice.id in timeout[0].ping_user_ids  # and it is alice's turn message
    announced = next(m for m in thread.history() if m.id == timeout[0].id)
    assert_png(simcord_env, announced)
    await later(simcord_env, 24)  # alice's turn 2: one reminder, then a timeout
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 3
    # One ping per turn, by the turn message (the first also welcomes both players).
    pinged = [set(m.ping_user_ids) for m in stored(simcord_env, thread.id) if m.ping_user_ids]
    assert pinged == [{alice.id, bob.id}, {bob.id}, {alice.id}, {bob.id}]
    assert len(alice.user.dm_channel.history()) == 3  # the opt-in check and two reminders
    assert not bob.user.dm_channel.history()  # bob never opted in
    record = await table.bot.manager.records.export_record(game_id)
    assert forced_actions(record)[:2] == [None, None]  # alice's own move
    assert set(forced_actions(record)[2:]) == {"autoplay"}
    assert played_at + 24 * HOUR <= clock(simcord_env)


@pytest.mark.parametrize(
    ("policy", "told", "narrated"),
    [
        ("autoplay", "the bot played their turn (as a medium computer)", "alice placed a tile ("),
        ("skip", "alice's time ran out.", "the turn is skipped and its tile ("),
        ("forfeit", "they leave the game", "their figures stay but count for nothing"),
    ],
)
async def test_a_timeout_applies_the_game_policy_and_is_announced_and_recorded(
    simcord_env: simcord.Env, policy: str, told: str, narrated: str
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, _carol = table.players
    game_id = await table.new(turn_hours=1, timeout=policy)
    lobby = next(m for m in table.channel.history() if m.embeds)
    assert any("1 h per turn" in (f.value or "") for f in lobby.embeds[0].fields)
    thread = table.thread()
    await later(simcord_env, 1.25)
    message = table.last()
    assert told in message.content and narrated in message.content, message.content
    assert f"<@{bob.id}>, your turn!" in message.content
    assert_png(simcord_env, message)
    assert pings(simcord_env, thread.id, bob.id) == 2  # the welcome, then his turn
    view = await table.bot.manager.decision(game_id)
    assert view.turn == 1 and view.user_id == bob.id
    record = await table.bot.manager.records.export_record(game_id)
    assert forced_actions(record) and set(forced_actions(record)) == {policy}
    if policy == "forfeit":
        assert view.game.seats[0].status == "forfeited"
        assert not any(a["type"] == "place_tile" for a in record["actions"])
    status = await alice.slash(thread, "carcassonne status")
    assert any("This turn ends" in t for t in said(status)), said(status)


async def test_a_deadline_scheduled_before_a_restart_fires_after_it_in_an_archived_thread(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    table = Table(simcord_env)
    game_id = await table.new(turn_hours=2)
    thread = table.thread()
    assert archive_minutes(simcord_env, thread.id) == 10080  # the longest Discord offers
    await simcord_env.restart_bot(pbp_bot(tmp_path / "games.sqlite3"))
    # A week without a message: Discord archives the thread.
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    assert archived(simcord_env, thread.id)
    await later(simcord_env, 1.6)
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 1
    assert not archived(simcord_env, thread.id)
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await later(simcord_env, 0.5)
    assert len(containing(simcord_env, thread.id, "alice's time ran out")) == 1
    assert not archived(simcord_env, thread.id)
    assert (await table.bot.manager.decision(game_id)).turn == 1
    record = await table.bot.manager.records.export_record(game_id)
    assert "autoplay" in forced_actions(record)


async def test_a_vacation_pauses_the_clock_visibly_and_resumes_it(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await table.new(turn_hours=24)
    thread = table.thread()
    start = clock(simcord_env)
    away = await bob.slash(table.channel, "carcassonne away", days=2)
    until = int(start + 48 * HOUR)
    assert any(f"You are away until <t:{until}:f>" in t for t in said(away)), said(away)
    status = await alice.slash(thread, "carcassonne status")
    assert any(f"bob is away until <t:{until}:f>" in t for t in said(status)), said(status)
    await later(simcord_env, 1)
    await play(table, game_id)  # bob's turn begins while he is away
    turn = table.last()
    assert f"<@{bob.id}>, your turn!" in turn.content
    assert f"bob is away until <t:{until}:f>: the clock is paused with 24 h left" in turn.content
    await later(simcord_env, 46.5)  # 24 h and more pass: no reminder, no timeout
    assert not containing(simcord_env, thread.id, "reminder")
    assert not containing(simcord_env, thread.id, "time ran out")
    mine = await bob.slash(table.channel, "carcassonne mygames")
    assert any(f"away until <t:{until}:f>" in t for t in said(mine)), said(mine)
    await later(simcord_env, 1)  # the vacation ended at 48 h: bob is back, 24 h to play
    back = containing(simcord_env, thread.id, "bob is back")
    assert len(back) == 1 and f"<t:{until + 24 * 3600}:R>" in back[0].content
    assert not back[0].ping_user_ids
    clock_now = await table.bot.manager.timing.turn_clock(game_id)
    assert clock_now is not None and not clock_now.paused
    assert clock_now.due_at == pytest.approx(until + 24 * HOUR)
    await later(simcord_env, 18)
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 1
    await later(simcord_env, 6)
    assert len(containing(simcord_env, thread.id, "bob's time ran out")) == 1
    # Alice leaves during her own turn and comes back early: the table sees both.
    gone = await alice.slash(table.channel, "carcassonne away", days=3)
    assert said(gone) and gone.ephemeral
    assert len(containing(simcord_env, thread.id, "alice is away until")) == 1
    assert (clock_then := await table.bot.manager.timing.turn_clock(game_id)) and clock_then.paused
    await later(simcord_env, 5)
    back_now = await alice.slash(table.channel, "carcassonne away", days=0)
    assert any("Welcome back" in t for t in said(back_now)), said(back_now)
    assert len(containing(simcord_env, thread.id, "alice is back")) == 1
    again = await alice.slash(table.channel, "carcassonne away", days=0)
    assert any("You were not away" in t for t in said(again)), said(again)


async def test_server_defaults_and_a_daily_digest_of_whose_turn_it_is(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, _bob = table.players
    digest = table.guild.create_text_channel("digest")
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    refused = await alice.slash(table.channel, "carcassonne settings", turn_hours=12)
    assert any("manage the server" in t for t in said(refused))
    saved = await admin.slash(
        table.channel,
        "carcassonne settings",
        turn_hours=12,
        timeout="skip",
        digest_channel=digest,
    )
    text = " ".join(said(saved))
    assert "12 h per turn; when time runs out, the turn is skipped" in text, text
    assert f"daily digest in <#{digest.id}>" in text
    game_id = await table.new()
    row = await table.bot.manager.game(game_id)
    assert (row.turn_seconds, row.timeout_policy) == (12 * 3600, "skip")
    await later(simcord_env, 0.5)
    posted = stored(simcord_env, digest.id)
    assert len(posted) == 1
    assert "Whose turn is it?" in posted[0].content
    assert f"#{game_id} · <@{alice.id}> · <#{row.thread_id}> · ends <t:" in posted[0].content
    assert not posted[0].ping_user_ids
    await later(simcord_env, 24)  # one new day (digests go out at 09:00 UTC)
    assert len(stored(simcord_env, digest.id)) == 2
    await admin.slash(table.channel, "carcassonne settings", digest_off=True)
    await later(simcord_env, 24)
    assert len(stored(simcord_env, digest.id)) == 2
    skipped = await table.bot.manager.records.export_record(game_id)
    assert "skip" in forced_actions(skipped)  # the 12 h skip policy ran meanwhile


async def test_mygames_lists_the_games_waiting_for_you_with_links(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    timed = await table.new(turn_hours=24)
    untimed = await table.new()
    await play(table, untimed)  # bob's turn in the second game
    rows = {g: await table.bot.manager.game(g) for g in (timed, untimed)}
    mine = await alice.slash(table.channel, "carcassonne mygames")
    assert mine.ephemeral
    text = "\n".join(said(mine))
    assert "Your turn in 1 game:" in text
    assert f"#{timed} · turn 1 · <#{rows[timed].thread_id}>" in text
    assert f"/{rows[timed].thread_id}/{rows[timed].message_id})" in text  # the turn message
    assert "ends <t:" in text and f"#{untimed}" not in text
    theirs = "\n".join(said(await bob.slash(table.channel, "carcassonne mygames")))
    assert f"#{untimed} · turn 2" in theirs and "no time limit" in theirs
    zoe = table.guild.add_member(simcord_env.create_user("zoe"))
    nothing = await zoe.slash(table.channel, "carcassonne mygames")
    assert any("your turn in no game" in t for t in said(nothing))
    # From the parent channel, a game number says which game.
    status = await bob.slash(table.channel, "carcassonne status", game=timed)
    assert any(f"Game #{timed}" in t and "alice to play" in t for t in said(status))
    assert any("This turn ends" in t for t in said(status))
    ambiguous = await bob.slash(table.channel, "carcassonne status")
    assert any("Several games" in t for t in said(ambiguous)), said(ambiguous)


async def test_a_game_whose_thread_fails_does_not_stop_the_others(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    broken = await table.new(turn_hours=1)
    broken_thread = table.thread()
    healthy = await table.new(turn_hours=1)
    healthy_thread = table.thread()
    simcord_env.inject_error("POST", f"/channels/{broken_thread.id}/messages", times=None)
    await later(simcord_env, 1.25)
    assert containing(simcord_env, healthy_thread.id, "alice's time ran out")
    assert not containing(simcord_env, broken_thread.id, "time ran out")
    for game_id in (broken, healthy):  # both timeouts were played and recorded
        assert (await table.bot.manager.decision(game_id)).turn == 1
    await later(simcord_env, 1)  # the loop goes on: bob's turn times out in the healthy game
    assert containing(simcord_env, healthy_thread.id, "bob's time ran out")


async def test_dm_reminders_can_be_turned_off_and_refused_dms_are_explained(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    shown = await alice.slash(table.channel, "carcassonne reminders")
    assert any("DM reminders are off" in t for t in said(shown))
    dm_id = alice.user.dm_channel.id
    simcord_env.inject_error("POST", f"/channels/{dm_id}/messages", status=403, code=50007)
    refused = await alice.slash(table.channel, "carcassonne reminders", dm=True)
    assert any("cannot send you direct messages" in t for t in said(refused)), said(refused)
    assert not (await table.bot.manager.records.user_settings(alice.id)).dm_reminders
    await alice.slash(table.channel, "carcassonne reminders", dm=True)
    assert (await table.bot.manager.records.user_settings(alice.id)).dm_reminders
    off = await alice.slash(table.channel, "carcassonne reminders", dm=False)
    assert any("DM reminders are off" in t for t in said(off))
    assert not (await table.bot.manager.records.user_settings(alice.id)).dm_reminders


async def test_play_by_post_commands_have_french_names() -> None:
    translator = Translator()
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.other, data=None
    )
    names = {}
    for english in ("away", "mygames", "reminders", "turn_hours", "timeout", "digest_channel"):
        french = await translator.translate(
            app_commands.locale_str(english), discord.Locale.french, context
        )
        # Discord takes any lower-case letters in a localised name: temps_écoulé.
        assert french is not None and re.fullmatch(r"[\w-]{1,32}", french), french
        assert french == french.lower(), french
        names[english] = french
    assert names["away"] == "absent" and names["mygames"] == "mesparties"


def test_the_scheduler_interval_is_read_from_the_environment() -> None:
    base = {"DISCORD_TOKEN": "token"}
    assert Settings.from_env(base).tick_seconds == 30
    assert Settings.from_env({**base, "SCHEDULER_SECONDS": "5"}).tick_seconds == 5
    for bad in ("0", "soon", "nan", "86400"):
        with pytest.raises(SystemExit, match="SCHEDULER_SECONDS must be a number of seconds"):
            Settings.from_env({**base, "SCHEDULER_SECONDS": bad})


def test_the_live_games_and_engine_states_kept_are_read_from_the_environment() -> None:
    base = {"DISCORD_TOKEN": "token"}
    assert Settings.from_env(base).live_games == LIVE_GAMES
    assert Settings.from_env({**base, "LIVE_GAMES": "300"}).live_games == 300
    for bad in ("0", "many", "-5", "10000000"):
        with pytest.raises(SystemExit, match="LIVE_GAMES must be a number"):
            Settings.from_env({**base, "LIVE_GAMES": bad})
    assert Settings.from_env(base).engine_states == ENGINE_STATES
    assert Settings.from_env({**base, "ENGINE_STATES": "64"}).engine_states == 64
    for bad in ("0", "some", "10000000"):
        with pytest.raises(SystemExit, match="ENGINE_STATES must be a number"):
            Settings.from_env({**base, "ENGINE_STATES": bad})


async def test_a_reminder_sent_again_after_a_crash_is_not_shown_twice(
    simcord_env: simcord.Env,
) -> None:
    """A process that died between sending a reminder and recording it: the next scheduler sends
    it again (``again``), and the notifier finds it already in the thread and in the DMs."""
    from bot.ui.timing.notifier import DiscordNotifier

    table = Table(simcord_env)
    alice, _ = table.players
    await alice.slash(table.channel, "carcassonne reminders", dm=True)
    game_id = await table.new(turn_hours=24)
    thread = table.thread()
    await later(simcord_env, 18.5)  # the scheduler's reminder
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 1
    dms = len(alice.user.dm_channel.history())
    manager = table.bot.manager
    row = await manager.game(game_id)
    user = await manager.records.user_settings(alice.id)
    (turn,) = [d for d in await manager.storage.deadlines(game_id) if d.kind == "turn"]
    notifier = DiscordNotifier(table.bot)
    await notifier.reminder(row, user, turn, again=True)
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 1
    assert len(alice.user.dm_channel.history()) == dms
    await notifier.reminder(row, user, turn)  # not marked as a retry: it goes out
    assert len(containing(simcord_env, thread.id, "reminder: your turn ends")) == 2
    assert len(alice.user.dm_channel.history()) == dms + 1


async def test_a_timeout_announced_again_after_a_crash_is_not_shown_twice(
    simcord_env: simcord.Env,
) -> None:
    """A process that died around announcing a timeout it saved: the next scheduler announces
    it again (``again``); the notifier finds it in the thread, and when it is missing after a
    later move, tells the timeout in words only (that move's message shows the board)."""
    from bot.scheduler import ForcedTurn
    from bot.ui.timing.notifier import DiscordNotifier

    table = Table(simcord_env)
    game_id = await table.new(turn_hours=1, timeout="autoplay")
    thread = table.thread()
    await later(simcord_env, 1.25)
    told = "alice's time ran out"
    (announced,) = containing(simcord_env, thread.id, told)
    manager = table.bot.manager
    notifier = DiscordNotifier(table.bot)

    async def again() -> ForcedTurn:
        found = await manager.forced_move(game_id, 0)
        assert found is not None
        policy, seat, move, last = found
        forced = ForcedTurn(policy, 0, seat, table.players[0].id, move, last)
        await notifier.forced(move.view.game, forced, again=True)
        return forced

    assert (await again()).last
    assert len(containing(simcord_env, thread.id, told)) == 1, "found, not posted twice"
    await play(table, game_id)  # bob plays: his turn message shows the board
    assert not (await again()).last
    assert len(containing(simcord_env, thread.id, told)) == 1
    await table.bot.http.delete_message(thread.id, announced.id)  # lost with the crash
    turn_message = table.last()
    assert not (await again()).last
    (words,) = containing(simcord_env, thread.id, told)
    assert "alice placed a tile (" in words.content and not words.attachments
    assert not words.ping_user_ids and not words.components
    latest = next(m for m in thread.history() if m.id == turn_message.id)
    assert latest.components, "the turn message keeps its controls"
