"""Followers and dashboards in the manager and its storage (on both storage engines): who may
follow, a private game's players deciding, the counts, and the manager telling its listeners
about each change of a game."""

from __future__ import annotations

import random

import pytest
from conftest import ALICE, BOB, CAROL, play_random, started_game

from bot.errors import FollowGone, NotActive, NotAPlayer, NotFollowing, PlayerFollows
from bot.manager import GameManager
from bot.storage import GameRow

ZOE, YVES = 909, 808


async def test_anyone_follows_a_public_game_at_once_but_not_its_players(
    manager: GameManager,
) -> None:
    view = await started_game(manager)
    game_id = view.game_id
    row, status = await manager.watch.follow(game_id, ZOE)
    assert (row.id, status) == (game_id, "following")
    assert (await manager.watch.follow(game_id, ZOE))[1] == "already"
    with pytest.raises(PlayerFollows):
        await manager.watch.follow(game_id, BOB)
    await manager.watch.follow(game_id, YVES)
    assert await manager.watch.followers(game_id) == [YVES, ZOE]
    assert await manager.watch.follower_counts([game_id, 999]) == {game_id: 2}
    await manager.watch.unfollow(game_id, ZOE)
    assert await manager.watch.followers(game_id) == [YVES]
    with pytest.raises(NotFollowing):
        await manager.watch.unfollow(game_id, ZOE)


async def test_a_private_game_asks_its_players_and_the_first_yes_lets_in(
    manager: GameManager,
) -> None:
    view = await started_game(manager, users=(ALICE, BOB, CAROL), private=True)
    game_id = view.game_id
    assert (await manager.watch.follow(game_id, ZOE))[1] == "asked"
    assert (await manager.watch.follow(game_id, ZOE))[1] == "waiting"
    assert await manager.watch.follower_counts([game_id]) == {}  # a request is not a follower
    with pytest.raises(NotAPlayer):  # only the players decide
        await manager.watch.accept(game_id, ZOE, YVES)
    refusal = await manager.watch.refuse(game_id, ZOE, BOB)
    assert refusal.refused_by == (BOB,) and not refusal.closed
    await manager.watch.accept(game_id, ZOE, CAROL)
    assert await manager.watch.followers(game_id) == [ZOE]
    with pytest.raises(FollowGone):  # accepted: a late refusal changes nothing
        await manager.watch.refuse(game_id, ZOE, ALICE)
    assert await manager.watch.followers(game_id) == [ZOE]


async def test_a_request_every_player_refused_is_dropped(manager: GameManager) -> None:
    view = await started_game(manager, private=True)
    game_id = view.game_id
    await manager.watch.follow(game_id, ZOE)
    assert not (await manager.watch.refuse(game_id, ZOE, ALICE)).closed
    assert (await manager.watch.refuse(game_id, ZOE, ALICE)).refused_by == (ALICE,)  # twice
    last = await manager.watch.refuse(game_id, ZOE, BOB)
    assert last.closed and last.refused_by == (ALICE, BOB)
    assert await manager.watch.follow_row(game_id, ZOE) is None
    with pytest.raises(FollowGone):
        await manager.watch.accept(game_id, ZOE, ALICE)
    assert (await manager.watch.follow(game_id, ZOE))[1] == "asked"  # may ask again


async def test_only_running_games_are_followed(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "alice", channel_id=7)
    with pytest.raises(NotActive):
        await manager.watch.follow(row.id, ZOE)


async def test_dashboards_are_kept_per_channel_with_their_message(manager: GameManager) -> None:
    watch = manager.watch
    assert await watch.set_dashboard(70, 1, True)
    assert not await watch.set_dashboard(70, 1, True)
    await watch.set_dashboard(71, 2, True)
    assert [d.channel_id for d in await watch.dashboards()] == [70, 71]
    assert [d.channel_id for d in await watch.dashboards([2])] == [71]
    assert await watch.dashboards([]) == []
    await manager.storage.dashboard_posted(70, 5555)
    await manager.storage.dashboard_changed(70, 100.0)
    await manager.storage.dashboard_changed(70, 90.0)  # an older change never goes back
    (board,) = await watch.dashboards([1])
    assert (board.message_id, board.changed_at, board.shown_at) == (5555, 100.0, 0.0)
    await manager.storage.dashboard_shown(70, 100.0)
    assert (await watch.dashboards([1]))[0].shown_at == 100.0
    assert await watch.set_dashboard(70, 1, False)
    assert [d.channel_id for d in await watch.dashboards()] == [71]


async def test_the_heads_up_setting_is_stored_with_the_others(manager: GameManager) -> None:
    await manager.records.update_user_settings(ZOE, dm_reminders=True)
    saved = await manager.records.update_user_settings(ZOE, dm_heads_up=True)
    assert saved.dm_heads_up and saved.dm_reminders
    again = await manager.records.user_settings(ZOE)
    assert again.dm_heads_up and again.dm_reminders
    assert not (await manager.records.user_settings(YVES)).dm_heads_up


async def test_listeners_hear_each_start_move_undo_and_end(manager: GameManager) -> None:
    heard: list[tuple[int, int, bool, str]] = []

    async def listener(row: GameRow, turn_started: bool) -> None:
        heard.append((row.id, row.turn, turn_started, row.status))

    async def broken(row: GameRow, turn_started: bool) -> None:
        raise RuntimeError("a listener that fails changes nothing")

    manager.on_game_change(broken)
    manager.on_game_change(listener)
    view = await started_game(manager, users=(ALICE, BOB, CAROL))
    assert heard == [(view.game_id, 0, True, "active")]
    rng = random.Random(3)
    while (view := await manager.decision(view.game_id)).turn == 0:
        await play_random(manager, view, rng)
    # The tile alone is no new turn; the move that ends the turn is.
    assert heard[-1] == (view.game_id, 1, True, "active")
    assert all(not started for _, turn, started, _ in heard[1:-1])
    await manager.undo(view.game_id, ALICE)
    assert heard[-1] == (view.game_id, 0, False, "active")
    await manager.abandon(view.game_id, ALICE)
    assert heard[-1][3] == "abandoned"


async def test_a_dashboard_changed_elsewhere_is_listed_until_shown(manager: GameManager) -> None:
    await manager.watch.set_dashboard(70, 1, True)
    await manager.watch.set_dashboard(71, 1, True)
    assert await manager.storage.changed_dashboards() == []
    await manager.storage.dashboard_changed(71, 50.0)
    assert [d.channel_id for d in await manager.storage.changed_dashboards()] == [71]
    await manager.storage.dashboard_shown(71, 50.0)
    assert await manager.storage.changed_dashboards() == []


async def test_a_turn_starts_when_the_previous_turn_ends(manager: GameManager) -> None:
    times = iter(float(t) for t in range(1000, 2000, 10))
    manager.clock = lambda: next(times)
    view = await started_game(manager)
    row = await manager.game(view.game_id)
    assert (
        await manager.watch.turn_started_at(view.game_id) == row.started_at == 1030.0
    )  # created, joined, started
    rng = random.Random(5)
    while (now := await manager.decision(view.game_id)).turn < 2:
        await play_random(manager, now, rng)
    actions = await manager.storage.get_actions(view.game_id)
    ended = max(a.created_at for a in actions if a.turn == 1)
    assert [a.turn for a in actions].count(1) >= 1 and actions[-1].turn == 1
    assert await manager.watch.turn_started_at(view.game_id) == ended
