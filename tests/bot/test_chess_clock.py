"""The chess clock of live games, on both storage engines, with the scheduler on a fake clock:
banks and increments, a bank running out under each policy, pauses by agreement, restarts."""

from __future__ import annotations

import random

import pytest
from conftest import ALICE, BOB, CAROL, play_random, started_game
from scheduler_fakes import FakeClock, FakeNotifier, clock, manager, notifier, scheduler

from bot.errors import BadSettings, ClockRanOut, NoClock, NotAPlayer, PauseOver
from bot.manager import GameManager
from bot.scheduler import Scheduler

__all__ = ["clock", "manager", "notifier", "scheduler"]

TEN_TWENTY = (600, 20)


async def whole_turn(manager: GameManager, game_id: int, seed: int = 0) -> None:
    """The player in turn plays their whole turn (tile, then a figure or not)."""
    rng = random.Random(seed)
    view = await manager.decision(game_id)
    turn = view.turn
    while view.turn == turn and not view.finished:
        view = (await play_random(manager, view, rng)).view


async def banks(manager: GameManager, game_id: int) -> tuple[float | None, ...]:
    clock = await manager.clocks.chess_clock(game_id)
    assert clock is not None
    return clock.banks


async def test_a_turn_spends_the_bank_and_the_increment_and_keeps_what_is_left(
    manager: GameManager, clock: FakeClock
) -> None:
    view = await started_game(manager, clock=TEN_TWENTY)
    start = clock.now
    first = await manager.clocks.chess_clock(view.game_id)
    assert first is not None and first.seat == 0
    assert first.due_at == start + 620  # 10 min of bank, 20 s for this turn
    assert first.banks == (620.0, 600.0)
    clock.now += 100
    await whole_turn(manager, view.game_id)
    # alice kept 620 - 100 s; bob's turn began with his bank and the increment.
    seats = (await manager.game(view.game_id)).seats
    assert [s.bank for s in seats] == [520.0, 600.0]
    second = await manager.clocks.chess_clock(view.game_id)
    assert second is not None and second.seat == 1 and second.due_at == clock.now + 620
    clock.now += 5
    await whole_turn(manager, view.game_id)  # quick: bob's bank grows by what he did not use
    assert [s.bank for s in (await manager.game(view.game_id)).seats] == [520.0, 615.0]


async def test_a_clock_and_a_time_per_turn_exclude_each_other(manager: GameManager) -> None:
    with pytest.raises(BadSettings, match="not both"):
        await manager.lobbies.create_lobby(ALICE, "alice", turn_seconds=3600, clock=TEN_TWENTY)
    row = await manager.lobbies.create_lobby(ALICE, "alice", clock=TEN_TWENTY)
    assert (row.clock_bank, row.clock_increment, row.turn_seconds) == (600, 20, None)
    row = await manager.lobbies.configure(row.id, ALICE, turn_seconds=3600)
    assert (row.clock_bank, row.turn_seconds) == (None, 3600)
    row = await manager.lobbies.configure(row.id, ALICE, clock=(300, 10))
    assert (row.clock_bank, row.clock_increment, row.turn_seconds) == (300, 10, None)
    with pytest.raises(BadSettings, match="increment is 0 to 300"):
        await manager.lobbies.configure(row.id, ALICE, clock=(300, 3600))
    with pytest.raises(BadSettings, match="bank is 1 to 180 minutes"):
        await manager.lobbies.configure(row.id, ALICE, clock=(5, 10))
    row = await manager.lobbies.configure(row.id, ALICE, clock=(0, 0))
    assert row.clock_bank is None and (await manager.game(row.id)).clock_bank is None


@pytest.mark.parametrize("policy", ["autoplay", "skip", "forfeit"])
async def test_a_bank_running_out_applies_the_policy_and_leaves_the_increment_only(
    manager: GameManager,
    clock: FakeClock,
    scheduler: Scheduler,
    notifier: FakeNotifier,
    policy: str,
) -> None:
    users = (ALICE, BOB, CAROL)
    view = await started_game(manager, users=users, clock=TEN_TWENTY, timeout_policy=policy)
    clock.now += 619
    await scheduler.tick()
    assert not notifier.forced_turns  # one second left
    with pytest.raises(ClockRanOut):  # too late to move: the rule ends the turn
        clock.now += 2
        view = await manager.decision(view.game_id)
        await manager.play_turn(view.game_id, ALICE, view.placements[0], turn=0)
    report = await scheduler.tick()
    assert report.forced == [(view.game_id, 0, policy)]
    assert [f.policy for f in notifier.forced_turns] == [policy]
    row = await manager.game(view.game_id)
    assert row.seats[0].bank == 0.0 and row.turn == 1
    assert await manager.storage.expired_notices(clock.now + 10_000, 60) == []  # announced
    await scheduler.tick()
    assert len(notifier.forced_turns) == 1  # once
    if policy == "forfeit":
        assert row.seats[0].status == "forfeited"
        return
    await whole_turn(manager, view.game_id)  # bob
    await whole_turn(manager, view.game_id, seed=1)  # carol
    again = await manager.clocks.chess_clock(view.game_id)
    assert again is not None and again.seat == 0
    assert again.due_at == clock.now + 20  # alice has her increment only
    clock.now += 10
    await whole_turn(manager, view.game_id)
    assert (await manager.game(view.game_id)).seats[0].bank == 10.0


async def test_a_restart_keeps_every_bank_and_the_running_clock(
    database: str, clock: FakeClock, notifier: FakeNotifier
) -> None:
    first = await GameManager.open(database, clock=clock)
    view = await started_game(first, clock=TEN_TWENTY)
    clock.now += 200
    await whole_turn(first, view.game_id)
    clock.now += 50
    before = await first.clocks.chess_clock(view.game_id)
    await first.close()
    second = await GameManager.open(database, clock=clock)
    try:
        after = await second.clocks.chess_clock(view.game_id)
        assert after == before
        assert after is not None and after.banks == (420.0, 570.0)
        scheduler = Scheduler(second, notifier)
        clock.now += 569
        assert (await scheduler.tick()).forced == []
        clock.now += 2
        assert (await scheduler.tick()).forced == [(view.game_id, 1, "autoplay")]
        assert (await second.game(view.game_id)).seats[1].bank == 0.0
    finally:
        await second.close()


async def test_a_pause_needs_everyone_and_then_stops_every_clock(
    manager: GameManager, clock: FakeClock, scheduler: Scheduler, notifier: FakeNotifier
) -> None:
    view = await started_game(manager, users=(ALICE, BOB, CAROL), clock=TEN_TWENTY)
    gid = view.game_id
    with pytest.raises(PauseOver):  # nobody asked
        await manager.clocks.vote_pause(gid, BOB, None)
    until = clock.now + 86400
    vote = await manager.clocks.vote_pause(gid, BOB, until)
    assert not vote.done and vote.asker == BOB and vote.needed == {ALICE, BOB, CAROL}
    await manager.clocks.refuse_pause(gid, CAROL)
    with pytest.raises(PauseOver):  # the refusal dropped the request
        await manager.clocks.vote_pause(gid, ALICE, None)
    assert not (await manager.clocks.chess_clock(gid)).paused  # type: ignore[union-attr]
    await manager.clocks.vote_pause(gid, BOB, until)
    assert not (await manager.clocks.vote_pause(gid, ALICE, None)).done  # carol has not agreed
    clock.now += 100
    done = await manager.clocks.vote_pause(gid, CAROL, None)
    assert done.done and done.until == until
    with pytest.raises(NotAPlayer):
        await manager.clocks.vote_pause(gid, 999, until)
    clock.now += 3600  # an hour of pause costs nobody anything
    paused = await manager.clocks.chess_clock(gid)
    assert paused is not None and paused.paused and paused.banks == (520.0, 600.0, 600.0)
    assert (await scheduler.tick()).forced == []
    await whole_turn(manager, gid)  # a move during the pause: the next turn starts paused
    assert (await manager.game(gid)).seats[0].bank == 520.0
    clock.now += 7200
    assert (await manager.clocks.chess_clock(gid)).banks[1] == 620.0  # type: ignore[union-attr]
    resumed = await manager.clocks.resume_clock(gid, CAROL)
    assert resumed is not None and resumed.clock_paused_at is None
    running = await manager.clocks.chess_clock(gid)
    assert running is not None and running.due_at == clock.now + 620
    assert await manager.clocks.resume_clock(gid, CAROL) is None  # not paused any more


async def test_a_pause_ends_with_the_askers_absence_by_the_scheduler(
    manager: GameManager, clock: FakeClock, scheduler: Scheduler, notifier: FakeNotifier
) -> None:
    view = await started_game(manager, clock=TEN_TWENTY)
    until = clock.now + 3600
    await manager.clocks.vote_pause(view.game_id, ALICE, until)
    assert (await manager.clocks.vote_pause(view.game_id, BOB, None)).done
    assert await manager.storage.next_clock_due() == until
    clock.now = until + 30  # a late tick: the pause still ended at `until`
    report = await scheduler.tick()
    assert report.clocks_resumed == [view.game_id]
    assert [s[0] for s in notifier.sent] == ["clock_resumed"]
    running = await manager.clocks.chess_clock(view.game_id)
    assert running is not None and not running.paused
    assert running.due_at == until + 620
    assert await manager.storage.next_clock_due() == until + 620


async def test_an_absence_alone_never_pauses_a_chess_clock(
    manager: GameManager, clock: FakeClock, scheduler: Scheduler
) -> None:
    view = await started_game(manager, clock=TEN_TWENTY)
    await manager.timing.set_away(ALICE, clock.now + 86400)
    await scheduler.tick()
    clock.now += 621
    assert (await scheduler.tick()).forced == [(view.game_id, 0, "autoplay")]
    await manager.timing.set_away(ALICE, None)


async def test_a_game_without_a_clock_cannot_be_paused(manager: GameManager) -> None:
    view = await started_game(manager)
    with pytest.raises(NoClock):
        await manager.clocks.vote_pause(view.game_id, ALICE, 1e10)
    assert await manager.clocks.chess_clock(view.game_id) is None
