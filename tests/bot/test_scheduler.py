"""The play-by-post scheduler on real SQLite files, driven by a fake clock and a fake notifier."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from conftest import ALICE, BOB, CAROL, play_random, started_game
from scheduler_fakes import (
    DAY,
    HOUR,
    NOON,
    FakeClock,
    FakeNotifier,
    clock,
    manager,
    notifier,
    scheduler,
)

from bot.manager import GameManager
from bot.scheduler import Scheduler
from bot.storage import ActionRow, Progress
from engine.core.events import PlayerLeft, TurnSkipped

__all__ = ["clock", "manager", "notifier", "scheduler"]

GUILD = 55


async def hours(scheduler: Scheduler, clock: FakeClock, first: int, last: int) -> None:
    """Tick once an hour from hour ``first`` to hour ``last`` (after noon of day one)."""
    for hour in range(first, last + 1):
        clock.at(hour)
        await scheduler.tick()


async def play_turn(manager: GameManager, game_id: int, seed: int = 0) -> None:
    """The player in turn plays their whole turn (tile, then a figure or not)."""
    rng = random.Random(seed)
    view = await manager.decision(game_id)
    turn = view.turn
    while view.turn == turn and not view.finished:
        view = (await play_random(manager, view, rng)).view


async def test_a_game_across_days_gets_one_mention_per_turn_start_and_one_reminder(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    gid = view.game_id
    await hours(scheduler, clock, 0, 17)
    assert notifier.sent == [("start", gid, 0, ALICE, 0.0)]
    await hours(scheduler, clock, 18, 23)  # 75% of the day: the one reminder
    assert notifier.kinds("reminder") == [(gid, 0, ALICE, 18.0)]
    clock.at(23.5)
    await play_turn(manager, gid)  # Alice plays in time
    await hours(scheduler, clock, 24, 60)
    assert notifier.kinds("start") == [
        (gid, 0, ALICE, 0.0),
        (gid, 1, BOB, 24.0),
        (gid, 2, ALICE, 49.0),  # after the timeout below
    ]
    assert notifier.kinds("reminder") == [(gid, 0, ALICE, 18.0), (gid, 1, BOB, 42.0)]
    # Bob never plays: at 23.5 + 24 h the bot plays for him, then Alice's turn 2 starts.
    assert notifier.kinds("forced:autoplay") == [(gid, 1, BOB, 48.0)]
    what = [(w, t) for w, _, t, _, _ in notifier.sent]
    assert len(what) == len(set(what)), "a second notice for the same turn"
    # The new turn's deadline counts from the forced move, and the stamps in the
    # notices are the deadlines the Discord layer shows as relative timestamps.
    deadline = await manager.timing.turn_clock(gid)
    assert deadline is not None and deadline.due_at == NOON + 48 * HOUR + DAY
    assert notifier.deadlines[0].due_at == NOON + DAY


async def test_the_loop_runs_days_on_the_injected_clock(
    manager: GameManager, notifier: FakeNotifier, clock: FakeClock
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    loop = Scheduler(manager, notifier, sleep=clock.sleep, interval=15 * 60)
    await loop.run(ticks=4 * 24 * 3)  # three days, every quarter of an hour
    forced = notifier.kinds("forced:autoplay")
    assert [(t, u, h) for _, t, u, h in forced] == [(0, ALICE, 24.0), (1, BOB, 48.0)]
    assert [t for _, t, _, _ in notifier.kinds("reminder")] == [0, 1, 2]
    assert (await manager.decision(view.game_id)).turn == 2  # due at 72 h, not reached


@pytest.mark.parametrize("policy", ["autoplay", "skip", "forfeit"])
async def test_a_timeout_applies_the_game_policy(
    manager: GameManager,
    scheduler: Scheduler,
    notifier: FakeNotifier,
    clock: FakeClock,
    policy: str,
) -> None:
    view = await started_game(
        manager, turn_seconds=3600, timeout_policy=policy, users=(ALICE, BOB, CAROL)
    )
    gid, tile = view.game_id, view.tile
    await hours(scheduler, clock, 0, 1)
    (forced,) = notifier.forced_turns
    assert (forced.policy, forced.turn, forced.seat, forced.user_id) == (policy, 0, 0, ALICE)
    log = await manager.storage.get_actions(gid)
    assert {(r.forced, r.user_id) for r in log} == {(policy, None)}
    record = await manager.records.export_record(gid)
    assert all(a["forced"] == policy for a in record["actions"])
    game = manager.cache.get(gid).game  # type: ignore[union-attr]
    assert forced.move.view.user_id == BOB
    if policy == "autoplay":
        assert record["actions"][0]["type"] == "place_tile"
    elif policy == "skip":
        assert record["actions"] == [{"type": "skip", "forced": "skip"}]
        assert any(isinstance(e, TurnSkipped) for e in forced.move.events)
        assert game.stack[0] == tile  # under the stack: drawn last
    else:
        assert record["actions"] == [{"type": "forfeit", "player": 0, "forced": "forfeit"}]
        assert any(isinstance(e, PlayerLeft) for e in forced.move.events)
        assert (await manager.game(gid)).seats[0].status == "forfeited"
        await hours(scheduler, clock, 2, 3)  # Bob times out too: Carol is left alone and wins
        assert [t.user_id for t in notifier.forced_turns] == [ALICE, BOB]
        row = await manager.game(gid)
        assert row.result is not None and row.result["winners"] == [2]
        return
    # The next turn has its own clock.
    timers = await manager.storage.deadlines(gid)
    assert {d.turn for d in timers} == {(await manager.game(gid)).turn}


async def test_a_two_player_game_ends_when_one_forfeits(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    view = await started_game(manager, turn_seconds=3600, timeout_policy="forfeit")
    await hours(scheduler, clock, 0, 1)
    row = await manager.game(view.game_id)
    assert row.status == "finished" and row.result is not None
    assert row.result["reason"] == "forfeit" and row.result["winners"] == [1]
    assert await manager.storage.deadlines(view.game_id) == []
    await hours(scheduler, clock, 2, 5)
    assert len(notifier.forced_turns) == 1


async def test_a_restart_between_scheduling_and_firing_loses_nothing_and_repeats_nothing(
    database: str, clock: FakeClock
) -> None:
    first = await GameManager.open(database, clock=clock)
    heard = FakeNotifier(clock)
    view = await started_game(first, turn_seconds=int(DAY))
    await hours(Scheduler(first, heard), clock, 0, 18)  # turn start and reminder sent
    await first.close()

    second = await GameManager.open(database, clock=clock)  # the bot restarted
    await hours(Scheduler(second, heard), clock, 19, 24)
    assert [w for w, *_ in heard.sent] == ["start", "reminder", "forced:autoplay"]
    assert (await second.decision(view.game_id)).user_id == BOB
    await second.close()

    # Down for two days: the late turn is forced once on the first tick back, no reminder.
    third = await GameManager.open(database, clock=clock)
    clock.at(24 + 48)
    report = await Scheduler(third, heard).tick()
    assert report.forced == [(view.game_id, 1, "autoplay")] and report.reminded == []
    assert report.started == []  # that turn's start is old news
    await third.close()


async def test_vacation_pauses_the_clock_and_gives_back_the_time_left(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    gid = view.game_id
    await hours(scheduler, clock, 0, 6)
    await manager.timing.set_away(ALICE, NOON + 54 * HOUR)  # 6 h into her turn, away 2 days
    paused = await manager.timing.turn_clock(gid)
    assert paused is not None and paused.paused and paused.remaining == 18 * HOUR
    assert paused.away_until == NOON + 54 * HOUR  # what the others see
    await hours(scheduler, clock, 7, 53)
    assert [w for w, *_ in notifier.sent] == ["start"]  # no reminder, no timeout meanwhile
    await hours(scheduler, clock, 54, 54)
    assert notifier.kinds("resumed") == [(gid, 0, ALICE, 54.0)]
    back = await manager.timing.turn_clock(gid)
    assert back is not None and not back.paused and back.due_at == NOON + 72 * HOUR
    await hours(scheduler, clock, 55, 72)
    assert notifier.kinds("reminder") == [(gid, 0, ALICE, 66.0)]  # 18 h into her 24 h
    assert notifier.kinds("forced:autoplay") == [(gid, 0, ALICE, 72.0)]


async def test_a_turn_that_starts_while_away_waits_and_an_early_return_resumes_it(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    await manager.timing.set_away(BOB, NOON + 10 * DAY)
    await play_turn(manager, view.game_id)  # Alice plays at once: Bob's turn, Bob away
    waiting = await manager.timing.turn_clock(view.game_id)
    assert waiting is not None and waiting.paused and waiting.remaining == DAY
    await hours(scheduler, clock, 0, 30)
    assert notifier.kinds("forced:autoplay") == []
    clock.at(30.5)
    await manager.timing.set_away(BOB, None)  # back early
    running = await manager.timing.turn_clock(view.game_id)
    assert running is not None and running.due_at == NOON + 54.5 * HOUR


async def test_timers_written_while_their_player_is_away_are_paused_from_the_start(
    manager: GameManager, clock: FakeClock
) -> None:
    """The storage pauses a turn's timers as it writes them when the player is away (no read
    of their settings before): at the start of a game, after a move, after an undo."""
    await manager.timing.set_away(ALICE, NOON + 2 * DAY)
    view = await started_game(manager, turn_seconds=int(DAY))  # Alice's turn, Alice away
    gid = view.game_id

    async def paused() -> list[float | None]:
        timers = await manager.storage.deadlines(gid)
        assert [t.kind for t in timers] == ["reminder", "turn"]
        return [t.paused_at for t in timers]

    assert await paused() == [clock.now, clock.now]
    await manager.timing.set_away(ALICE, None)
    clock.at(1)
    await play_turn(manager, gid)  # Bob's turn, Bob here
    assert await paused() == [None, None]
    await manager.timing.set_away(ALICE, NOON + 2 * DAY)
    clock.at(2)
    undone = await manager.undo(gid, ALICE)  # her turn again, and she is away
    assert undone.undone and undone.view is not None and undone.view.user_id == ALICE
    assert await paused() == [clock.now, clock.now]


async def test_the_daily_digest_lists_whose_turn_it_is_once_a_day(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    await manager.records.update_guild_settings(GUILD, digest_channel_id=900)
    slow = await started_game(manager, turn_seconds=int(DAY), guild_id=GUILD)
    free = await started_game(manager, seed=2, users=(CAROL, BOB), guild_id=GUILD)
    await started_game(manager, seed=3, guild_id=GUILD + 1)  # another guild, no digest
    await manager.timing.set_away(ALICE, NOON + 3 * DAY)
    await hours(scheduler, clock, 0, 44)
    assert [h for _, _, _, h in notifier.kinds("digest")] == [0.0, 21.0]  # then 09:00 UTC
    lines = notifier.digests[0]
    assert [(line.game_id, line.user_id, line.player) for line in lines] == [
        (slow.game_id, ALICE, f"user{ALICE}"),
        (free.game_id, CAROL, f"user{CAROL}"),
    ]
    clock_line = lines[0].clock
    assert clock_line is not None and clock_line.paused
    assert clock_line.away_until == NOON + 3 * DAY
    assert lines[1].clock is None  # no time limit in that game
    await hours(scheduler, clock, 45, 45)
    assert len(notifier.digests) == 3


async def test_a_failing_game_never_stops_the_others(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    broken = await started_game(manager, turn_seconds=3600)
    silent = await started_game(manager, seed=2, turn_seconds=3600)
    fine = await started_game(manager, seed=3, turn_seconds=3600)
    # Game "broken" no longer replays (a bad action slipped into its log).
    bad = ActionRow(0, 0, 0, ALICE, {"type": "place_tile", "x": 50, "y": 50, "rotation": 0})
    await manager.storage.append_actions(
        broken.game_id, 0, [bad], Progress(0, 1, 0, "active", clock.now)
    )
    manager.cache.drop(broken.game_id)
    notifier.fail_games.add(silent.game_id)  # Discord refuses its messages
    clock.at(1)
    report = await scheduler.tick()
    assert ("timeout", broken.game_id) in report.failures
    assert ("forced", silent.game_id) in report.failures
    assert {g for g, _, _ in report.forced} == {silent.game_id, fine.game_id}
    assert notifier.kinds("forced:autoplay") == [(fine.game_id, 0, ALICE, 1.0)]
    # The broken game's deadline is retried later, not every tick.
    (timer,) = [d for d in await manager.storage.deadlines(broken.game_id) if d.kind == "turn"]
    assert timer.due_at == clock.now + scheduler.retry_after
    notifier.fail_games.clear()
    assert (await scheduler.tick()).failures == []


async def test_no_second_reminder_even_when_ticks_overlap(
    manager: GameManager, scheduler: Scheduler, notifier: FakeNotifier, clock: FakeClock
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    other = Scheduler(manager, notifier)  # a second loop on the same database
    clock.at(19)
    await scheduler.tick()
    await other.tick()
    await scheduler.tick()
    assert notifier.kinds("reminder") == [(view.game_id, 0, ALICE, 19.0)]
    assert notifier.kinds("start") == [(view.game_id, 0, ALICE, 19.0)]  # 5 h are left


async def test_stopping_lets_the_tick_in_progress_finish(
    manager: GameManager, notifier: FakeNotifier, clock: FakeClock
) -> None:
    entered, gate = asyncio.Event(), asyncio.Event()

    class Slow(FakeNotifier):
        async def turn_started(
            self, game: Any, user: Any, deadline: Any, *, again: bool = False
        ) -> None:
            entered.set()
            await gate.wait()  # Discord is slow to answer
            await super().turn_started(game, user, deadline)

    slow = Slow(clock)
    scheduler = Scheduler(manager, slow, sleep=clock.sleep)
    view = await started_game(manager, turn_seconds=int(DAY))
    task = scheduler.start()
    await asyncio.wait_for(entered.wait(), 5)
    stopping = asyncio.create_task(scheduler.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # stop waits for the notice in flight
    gate.set()
    await asyncio.wait_for(stopping, 5)
    assert task.done()
    assert slow.kinds("start") == [(view.game_id, 0, ALICE, 0.0)]
    # A tick never raises: with the database gone, each step fails alone and is logged.
    await manager.storage.close()
    report = await scheduler.tick_safely()
    assert report is not None and len(report.failures) == 7  # every step, the pauses too


class Dying(FakeNotifier):
    """A process that dies after claiming a reminder, before sending it (or after sending it,
    before recording it: ``sent_first``)."""

    sent_first = False

    async def reminder(self, game: Any, user: Any, deadline: Any, *, again: bool = False) -> None:
        if self.sent_first:
            await super().reminder(game, user, deadline)
        raise asyncio.CancelledError  # the process is gone: nothing after this runs


@pytest.mark.parametrize("sent_first", [False, True])
async def test_a_reminder_whose_sender_died_is_sent_by_the_next_scheduler_once(
    manager: GameManager, notifier: FakeNotifier, clock: FakeClock, sent_first: bool
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    dying = Dying(clock)
    dying.sent_first = sent_first
    await hours(Scheduler(manager, dying), clock, 0, 17)
    clock.at(18)
    with pytest.raises(asyncio.CancelledError):
        await Scheduler(manager, dying, lease=2 * HOUR).tick()
    assert dying.kinds("reminder") == ([(view.game_id, 0, ALICE, 18.0)] if sent_first else [])

    class Seen(FakeNotifier):
        """Discord's side: a notice sent again finds the one already out (see DiscordNotifier)."""

        async def reminder(
            self, game: Any, user: Any, deadline: Any, *, again: bool = False
        ) -> None:
            self.again = again
            if not (again and dying.kinds("reminder")):
                await super().reminder(game, user, deadline)

    other = Seen(clock)
    survivor = Scheduler(manager, other)
    await hours(survivor, clock, 18, 19)  # the claim still holds: nothing yet
    assert other.kinds("reminder") == []
    await hours(survivor, clock, 20, 23)
    expected = [] if sent_first else [(view.game_id, 0, ALICE, 20.0)]
    assert other.kinds("reminder") == expected and other.again
    assert len(dying.kinds("reminder") + other.kinds("reminder")) == 1, "exactly one reminder"


class DyingAnnouncer(FakeNotifier):
    """A process that dies while announcing a timeout it has saved (before posting it, or
    after posting it and before recording it: ``sent_first``)."""

    sent_first = False

    async def forced(self, game: Any, result: Any, *, again: bool = False) -> None:
        if self.sent_first:
            await super().forced(game, result)
        raise asyncio.CancelledError  # the process is gone: nothing after this runs


@pytest.mark.parametrize("played_since", [False, True])
@pytest.mark.parametrize("sent_first", [False, True])
async def test_a_timeout_whose_announcer_died_is_announced_by_the_next_scheduler_once(
    manager: GameManager, clock: FakeClock, sent_first: bool, played_since: bool
) -> None:
    view = await started_game(manager, turn_seconds=int(DAY))
    gid = view.game_id
    dying = DyingAnnouncer(clock)
    dying.sent_first = sent_first
    await hours(Scheduler(manager, dying), clock, 0, 23)
    clock.at(24)
    with pytest.raises(asyncio.CancelledError):
        await Scheduler(manager, dying, lease=2 * HOUR).tick()
    after = await manager.decision(gid)
    assert after.turn == 1, "the forced move was saved before the announcement"
    if played_since:
        clock.at(24.5)
        await play_turn(manager, gid)  # Bob plays before anyone announces Alice's timeout

    heard: list[tuple[bool, bool]] = []

    class Seen(FakeNotifier):
        """Discord's side: an announcement sent again finds the one already out."""

        async def forced(self, game: Any, result: Any, *, again: bool = False) -> None:
            heard.append((again, result.last))
            if not (again and dying.kinds("forced:autoplay")):
                await super().forced(game, result)

    other = Seen(clock)
    survivor = Scheduler(manager, other)
    await hours(survivor, clock, 25, 25)  # the claim holds until hour 26: nothing yet
    assert heard == []
    await hours(survivor, clock, 26, 30)
    assert heard == [(True, not played_since)], "asked once, as a retry"
    told = dying.kinds("forced:autoplay") + other.kinds("forced:autoplay")
    assert [(g, t, u) for g, t, u, _ in told] == [(gid, 0, ALICE)], "exactly one announcement"
    if not sent_first:
        (again,) = other.forced_turns
        assert again.policy == "autoplay" and again.seat == 0 and again.move.played
        assert all(p.forced == "autoplay" for p in again.move.played)
        assert again.move.view.turn == (2 if played_since else 1)
    await hours(survivor, clock, 31, 33)
    assert len(heard) == 1, "announced once, then marked sent"


async def test_two_processes_ticking_together_send_each_notice_once(
    database: str, clock: FakeClock
) -> None:
    """Two bot processes, each with its scheduler, on one database: every turn start,
    reminder and timeout happens once in all."""
    first = await GameManager.open(database, clock=clock)
    second = await GameManager.open(database, clock=clock)
    heard = FakeNotifier(clock)
    try:
        games = [await started_game(first, seed=s, turn_seconds=int(DAY)) for s in range(4)]
        one, two = Scheduler(first, heard), Scheduler(second, heard)
        for hour in range(0, 80):
            clock.at(hour)
            await asyncio.gather(one.tick(), two.tick())
        what = [(w, g, t) for w, g, t, _, _ in heard.sent]
        assert len(what) == len(set(what)), "a notice sent twice"
        for view in games:
            mine = [(w, t) for w, g, t in what if g == view.game_id]
            assert ("reminder", 0) in mine and ("start", 1) in mine
            assert ("forced:autoplay", 0) in mine and ("forced:autoplay", 1) in mine
    finally:
        await first.close()
        await second.close()


async def test_a_game_read_while_another_process_moves_it_keeps_its_turn_clock(
    postgres: Any, clock: FakeClock
) -> None:
    """Two processes on one PostgreSQL database: the first reads a game's row, the second
    ends the turn, then the first reads the actions. The first must not take the older row
    with the newer actions: its next move (in the same turn) would restart the turn's clock and
    let its start be announced twice."""
    name = postgres.fresh()
    url = postgres.server.url_of(name)
    first = await GameManager.open(url, clock=clock)
    second = await GameManager.open(url, clock=clock)
    heard = FakeNotifier(clock)
    try:
        view = await started_game(second, turn_seconds=int(DAY))
        gid = view.game_id
        scheduler = Scheduler(second, heard)
        await hours(scheduler, clock, 0, 1)
        clock.at(2)
        reads = first.storage.get_actions
        raced: list[int] = []

        async def racing(game_id: int) -> Any:
            if not raced:  # the other process ends alice's turn between the two reads
                raced.append(game_id)
                await play_turn(second, game_id)
            return await reads(game_id)

        first.storage.get_actions = racing  # type: ignore[method-assign]
        mid = await first.decision(gid)  # read while the game moved: read again
        assert raced and mid.turn == 1 and mid.phase == "tile"
        await hours(scheduler, clock, 3, 4)  # bob's turn starts: announced once
        (bob,) = [d for d in await first.storage.deadlines(gid) if d.kind == "turn"]
        assert bob.turn == 1 and bob.notified_at is not None
        clock.at(5)
        await play_random(first, mid, random.Random(3))  # bob places his tile: still turn 1
        (after,) = [d for d in await first.storage.deadlines(gid) if d.kind == "turn"]
        assert after == bob, "the turn's clock and notice are untouched by a move inside it"
        await hours(scheduler, clock, 5, 8)
        assert [(w, t) for w, _, t, _, _ in heard.sent] == [("start", 0), ("start", 1)]
    finally:
        await first.close()
        await second.close()
        postgres.drop(name)


async def test_a_sender_slowed_past_its_claim_leaves_the_notice_to_the_process_that_took_it(
    manager: GameManager, clock: FakeClock
) -> None:
    """A busy process claims a reminder, then stalls past its claim: another process takes the
    notice over and sends it (looking first whether it went out); the slow one, resuming, sends
    nothing. Exactly one reminder."""
    view = await started_game(manager, turn_seconds=int(DAY))
    slow, quick = FakeNotifier(clock), FakeNotifier(clock)
    taker = Scheduler(manager, quick, lease=2 * HOUR)
    await hours(Scheduler(manager, slow, lease=2 * HOUR), clock, 0, 17)
    storage = manager.storage
    reads = storage.get_game
    stalled: list[float] = []

    async def stalling(game_id: int) -> Any:
        if not stalled:  # the slow process stalls here, before sending
            stalled.append(clock.now)
            clock.at(21)  # past its claim (hour 18 + 2 h): the other process takes over
            await taker.tick()
        return await reads(game_id)

    storage.get_game = stalling  # type: ignore[method-assign]
    clock.at(18)
    await Scheduler(manager, slow, lease=2 * HOUR).tick()
    storage.get_game = reads  # type: ignore[method-assign]
    assert stalled, "the slow process reached its send"
    assert slow.kinds("reminder") == []
    assert quick.kinds("reminder") == [(view.game_id, 0, ALICE, 21.0)]
    await hours(taker, clock, 22, 23)
    assert len(slow.kinds("reminder") + quick.kinds("reminder")) == 1
