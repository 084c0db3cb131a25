"""Resuming on a new manager, undo policy, resign, abandon, a game's end told to its listeners,
records, listings, the cache bound."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from conftest import ALICE, BOB, CAROL, play_random, started_game

from bot.errors import (
    BadRecord,
    GameOver,
    NotActive,
    NotAPlayer,
    NotOwner,
    UndoGameOver,
    UndoNothing,
    UndoStale,
)
from bot.live import LiveGame
from bot.manager import GameManager
from bot.manager.leagues import LeagueOps
from bot.manager.stats import StatsOps
from engine import Game, Setup
from engine.core.events import PlayerLeft


async def test_a_new_manager_on_the_same_file_resumes_every_game_exactly(database: str) -> None:
    first = await GameManager.open(database)
    snapshots = {}
    for seed in range(8):
        rng = random.Random(seed)
        view = await started_game(first, seed=seed)
        for _ in range(rng.randrange(5, 60)):
            if view.finished:
                break
            view = (await play_random(first, view, rng)).view
        snapshots[view.game_id] = first.cache.get(view.game_id).game.snapshot()  # type: ignore[union-attr]
    await first.close()

    second = await GameManager.open(database)
    try:
        assert await second.resume() == len(snapshots)
        for game_id, snapshot in snapshots.items():
            assert second.cache.get(game_id).game.snapshot() == snapshot  # type: ignore[union-attr]
            view = await second.decision(game_id)
            await play_random(second, view, random.Random(game_id))
    finally:
        await second.close()


async def test_the_cache_is_bounded_and_evicted_games_reload(database: str) -> None:
    manager = await GameManager.open(database, cache_size=2)
    try:
        views = [await started_game(manager, seed=s) for s in range(4)]
        assert len(manager.cache) == 2 and views[0].game_id not in manager.cache
        moved = await play_random(manager, views[0], random.Random(1))
        assert views[0].game_id in manager.cache and moved.view.game_id == views[0].game_id
    finally:
        await manager.close()


async def test_games_beyond_the_engine_states_rest_packed_and_wake_the_same(
    database: str,
) -> None:
    # Of the games kept, only the most recently used hold their engine state; the others hold
    # their row and their log packed, and rebuild the state by a replay at their next use. Moves,
    # undos and records of resting games give what a manager that never rested them gives.
    variants = [
        ("carcassonne", ()),
        ("carcassonne", ("abbey_mayor", "traders_builders")),
        ("hunters", ()),
    ]
    resting = await GameManager.open(database, engine_states=2)
    views = []
    try:
        for seed in range(6):
            family, expansions = variants[seed % len(variants)]
            views.append(await started_game(resting, seed=seed, game=family, expansions=expansions))
        rng = random.Random(3)
        for step in range(150):
            index = rng.randrange(len(views))
            view = views[index]
            if view.finished:
                continue
            if step % 25 == 24 and view.turn > 0:
                asker = ALICE if view.user_id == BOB else BOB
                await resting.undo(view.game_id, asker)
                await resting.undo(view.game_id, view.user_id or ALICE)
                views[index] = await resting.decision(view.game_id)
                continue
            views[index] = (await play_random(resting, view, rng)).view
            assert resting.cache.awake() <= 2
        assert len(resting.cache) == 6
        records = {v.game_id: await resting.records.full_record(v.game_id) for v in views}
        states = {}
        for view in views:
            live = resting.cache.get(view.game_id)
            assert live is not None
            states[view.game_id] = (live.game.snapshot(), list(live.log))
        assert resting.cache.awake() <= 2
    finally:
        await resting.close()
    fresh = await GameManager.open(database)
    try:
        for view in views:
            assert await fresh.records.full_record(view.game_id) == records[view.game_id]
            live = await fresh._live(view.game_id)
            assert (live.game.snapshot(), live.log) == states[view.game_id]
    finally:
        await fresh.close()


def test_a_resting_game_packs_its_log_and_drops_its_state() -> None:
    from bot.live import LiveCache
    from bot.storage import ActionRow

    cache = LiveCache(3, states=1)
    state = Game(Setup(players=("A", "B"), seed=1))
    games = []
    for game_id in (1, 2, 3, 4):
        row = type("Row", (), {"id": game_id})()
        log = [ActionRow(0, 0, 0, 7, {"type": "tile", "x": 1, "y": [0, 1]}, None, 2.5)]
        games.append(LiveGame(row, state, log))
        cache.put(games[-1])
    assert len(cache) == 3 and 1 not in cache
    assert [g.resting for g in games[1:]] == [True, True, False]
    assert games[1]._game is None and isinstance(games[1]._packed, bytes)
    assert games[1].log == games[3].log and not games[1].resting
    assert cache.get(2) is games[1] and games[3].resting
    # A move under way when its game was rested adopts its change: the game is awake again and
    # counted so, and another rests.
    games[2].adopt(LiveGame(games[2].row, state, games[2].log))
    assert not games[2].resting and games[1].resting and cache.awake() == 1
    cache.drop(3)
    games[2].rest()
    games[2].game = state  # dropped: no longer its cache's
    assert cache.awake() == 0


async def test_a_player_takes_back_their_own_moves_until_the_next_player_acts(
    manager: GameManager,
) -> None:
    rng = random.Random(2)
    view = await started_game(manager, seed=2)
    start = manager.cache.get(view.game_id).game.snapshot()  # type: ignore[union-attr]
    with pytest.raises(UndoNothing):
        await manager.undo(view.game_id, ALICE)
    while view.user_id == ALICE:
        view = (await play_random(manager, view, rng)).view
    # Alice's whole turn comes back at once: tile and figure.
    result = await manager.undo(view.game_id, ALICE)
    assert result.undone and await manager.storage.get_actions(view.game_id) == []
    assert manager.cache.get(view.game_id).game.snapshot() == start  # type: ignore[union-attr]
    assert (await manager.game(view.game_id)).action_count == 0


async def test_an_older_move_needs_every_player(manager: GameManager) -> None:
    rng = random.Random(4)
    view = await started_game(manager, seed=4)
    while view.turn < 2:
        view = (await play_random(manager, view, rng)).view
    log = await manager.storage.get_actions(view.game_id)
    last = log[-1]
    asker = ALICE if last.user_id == BOB else BOB
    with pytest.raises(NotAPlayer):
        await manager.undo(view.game_id, CAROL)
    pending = await manager.undo(view.game_id, asker)
    assert not pending.undone and pending.votes == {asker} and pending.needed == {ALICE, BOB}
    assert await manager.storage.get_actions(view.game_id) == log
    again = await manager.undo(view.game_id, asker)  # a second click changes nothing
    assert not again.undone
    done = await manager.undo(view.game_id, last.user_id)  # type: ignore[arg-type]
    # The whole turn goes back: its tile and its figure (or pass).
    turn = [r for r in log if r.turn == last.turn]
    assert len(turn) == 2 and done.action_idx == turn[0].idx
    assert done.undone and await manager.storage.get_actions(view.game_id) == log[:-2]


async def test_one_refusal_drops_an_undo_request(manager: GameManager) -> None:
    rng = random.Random(4)
    view = await started_game(manager, seed=4, users=(ALICE, BOB, CAROL))
    while view.turn < 2:
        view = (await play_random(manager, view, rng)).view
    log = await manager.storage.get_actions(view.game_id)
    asked = await manager.undo(view.game_id, CAROL)
    assert not asked.undone and asked.votes == {CAROL}
    with pytest.raises(UndoStale):
        await manager.undo(view.game_id, ALICE, request=asked.action_idx + 1)
    refused = await manager.refuse_undo(view.game_id, ALICE, asked.action_idx)
    assert not refused.undone and refused.votes == frozenset()
    again = await manager.undo(view.game_id, CAROL, request=asked.action_idx)
    assert again.votes == {CAROL}, "the refused votes are gone: everyone must agree again"
    assert await manager.storage.get_actions(view.game_id) == log


async def test_resigning_in_a_two_player_game_ends_it(manager: GameManager) -> None:
    view = await started_game(manager)
    result = await manager.resign(view.game_id, BOB)
    row = result.view.game
    assert row.status == "finished" and row.result is not None
    assert row.result["reason"] == "resigned" and row.result["winners"] == [0]
    with pytest.raises(GameOver):
        await manager.play_turn(view.game_id, ALICE, view.placements[0], turn=0)
    with pytest.raises(UndoGameOver):
        await manager.undo(view.game_id, ALICE)


async def test_a_resigned_seat_leaves_through_the_engine_and_is_skipped(
    manager: GameManager,
) -> None:
    rng = random.Random(6)
    view = await started_game(manager, seed=6, users=(ALICE, BOB, CAROL))
    result = await manager.resign(view.game_id, BOB)
    assert [p.action for p in result.played] == [{"type": "forfeit", "player": 1}]
    assert any(isinstance(e, PlayerLeft) and e.player == 1 for e in result.events)
    for _ in range(12):
        assert view.user_id != BOB
        view = (await play_random(manager, view, rng)).view
    log = await manager.storage.get_actions(view.game_id)
    assert [(r.action["type"], r.forced, r.user_id) for r in log if r.seat == 1] == [
        ("forfeit", "resigned", BOB)
    ]
    assert [s.status for s in (await manager.game(view.game_id)).seats][1] == "resigned"
    assert manager.cache.get(view.game_id).game.out == [False, True, False]  # type: ignore[union-attr]
    record = await manager.records.full_record(view.game_id)
    assert [a for a in record["actions"] if a["type"] == "forfeit"] == [
        {"type": "forfeit", "player": 1, "forced": "resigned"}
    ]


async def test_undo_never_brings_back_a_player_who_left(manager: GameManager) -> None:
    rng = random.Random(3)
    view = await started_game(manager, seed=3, users=(ALICE, BOB, CAROL))
    view = (await play_random(manager, view, rng)).view  # Alice places her tile
    await manager.resign(view.game_id, CAROL)
    result = await manager.undo(view.game_id, ALICE)  # her own placement, right before
    assert result.undone
    log = await manager.storage.get_actions(view.game_id)
    assert [(r.action["type"], r.forced) for r in log] == [("forfeit", "resigned")]
    assert manager.cache.get(view.game_id).game.out == [False, False, True]  # type: ignore[union-attr]
    manager.cache.drop(view.game_id)
    assert (await manager.decision(view.game_id)).user_id == ALICE


async def test_a_game_end_is_told_once_to_each_listener_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[tuple[str, int, str]] = []

    def listener(name: str, fails: bool = False) -> Callable[..., Awaitable[None]]:
        async def told(*args: object) -> None:
            live = args[-1]
            assert isinstance(live, LiveGame)
            heard.append((name, live.row.id, live.row.status))
            if fails:
                raise RuntimeError("a listener that fails")

        return told

    # The manager subscribes the league result, then the statistics, when it is built.
    monkeypatch.setattr(LeagueOps, "game_ended", listener("league"))
    monkeypatch.setattr(StatsOps, "game_ended", listener("stats"))
    manager = await GameManager.open(str(tmp_path / "games.sqlite3"))
    try:
        manager.on_game_end(listener("broken", fails=True))
        manager.on_game_end(listener("dashboard"))
        view = await started_game(manager, users=(ALICE, BOB, CAROL))
        await manager.resign(view.game_id, CAROL)
        assert heard == []  # two players left: not an end
        with caplog.at_level(logging.ERROR, logger="bot.manager.base"):
            result = await manager.resign(view.game_id, BOB)  # a failing listener fails nothing
        assert result.view.game.status == "finished"
        game = view.game_id
        assert heard == [
            (name, game, "finished") for name in ("league", "stats", "broken", "dashboard")
        ]
        assert "a listener of game" in caplog.text
        other = await started_game(manager)
        await manager.abandon(other.game_id, ALICE)
        assert len(heard) == 4  # an abandoned game has no result: not an end
    finally:
        await manager.close()


async def test_abandon_is_for_the_creator_or_an_admin(manager: GameManager) -> None:
    view = await started_game(manager)
    with pytest.raises(NotOwner):
        await manager.abandon(view.game_id, BOB)
    row = await manager.abandon(view.game_id, BOB, admin=True)
    assert row.status == "abandoned"
    with pytest.raises(NotActive):
        await manager.play_turn(view.game_id, ALICE, view.placements[0], turn=0)
    assert await manager.records.games_in_channel(7) == []
    assert [g.id for g in await manager.records.games_in_channel(7, statuses=("abandoned",))] == [
        row.id
    ]


async def test_a_started_game_is_abandoned_when_every_player_agrees(manager: GameManager) -> None:
    view = await started_game(manager, users=(ALICE, BOB, CAROL))
    game_id = view.game_id
    with pytest.raises(NotOwner):  # only the creator opens a request
        await manager.vote_abandon(game_id, BOB)
    with pytest.raises(NotAPlayer):
        await manager.vote_abandon(game_id, 999)
    first = await manager.vote_abandon(game_id, ALICE)
    assert not first.done and first.votes == {ALICE} and first.needed == {ALICE, BOB, CAROL}
    assert not (await manager.vote_abandon(game_id, BOB)).done
    await manager.refuse_abandon(game_id, CAROL)  # one refusal drops the request
    with pytest.raises(NotOwner):
        await manager.vote_abandon(game_id, BOB)
    await manager.vote_abandon(game_id, ALICE)
    await manager.vote_abandon(game_id, BOB)
    last = await manager.vote_abandon(game_id, CAROL)
    assert last.done and last.row.status == "abandoned"
    assert (await manager.game(game_id)).status == "abandoned"
    with pytest.raises(NotActive):
        await manager.vote_abandon(game_id, ALICE)


async def test_export_then_import_gives_the_same_game(manager: GameManager) -> None:
    rng = random.Random(8)
    view = await started_game(manager, seed=8, options={"farmers": "modern"})
    for _ in range(25):
        view = (await play_random(manager, view, rng)).view
    record = await manager.records.full_record(view.game_id)
    assert Game.from_record(json.loads(json.dumps(record))).snapshot() == (
        manager.cache.get(view.game_id).game.snapshot()  # type: ignore[union-attr]
    )
    row = await manager.records.import_record(record, CAROL, users=[BOB, ALICE])
    assert row.status == "active" and [s.user_id for s in row.seats] == [BOB, ALICE]
    assert await manager.records.full_record(row.id) == record
    manager.cache.drop(row.id)
    assert await manager.records.full_record(row.id) == record


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda r: r.update(players="Alice"), "list of player names"),
        (lambda r: r.update(format=7), "unsupported record format"),
        (lambda r: r["actions"].append({"type": "place_tile", "x": 90, "y": 0, "rotation": 0}),
         "action 4:"),
        (lambda r: r.update(actions={}), "'actions' must be a list"),
    ],
)  # fmt: skip
async def test_bad_records_are_refused_with_the_reason(
    manager: GameManager, mutate: object, words: str
) -> None:
    rng = random.Random(1)
    view = await started_game(manager)
    while len(await manager.storage.get_actions(view.game_id)) < 4:
        view = (await play_random(manager, view, rng)).view
    record = await manager.records.full_record(view.game_id)
    del record["actions"][4:]
    mutate(record)  # type: ignore[operator]
    with pytest.raises(BadRecord, match=words):
        await manager.records.import_record(record, ALICE)
    assert len(await manager.records.games_of_user(ALICE)) == 1


async def test_listings_by_channel_user_and_whose_turn(manager: GameManager) -> None:
    one = await started_game(manager, seed=1)
    two = await started_game(manager, seed=2, users=(BOB, CAROL))
    lobby = await manager.lobbies.create_lobby(CAROL, "Carol", channel_id=8)
    await manager.records.set_messages(two.game_id, thread_id=99, message_id=5)
    assert {g.id for g in await manager.records.games_in_channel(7)} == {one.game_id, two.game_id}
    assert [g.id for g in await manager.records.games_in_channel(99)] == [two.game_id]
    assert {g.id for g in await manager.records.games_of_user(CAROL)} == {two.game_id, lobby.id}
    assert [g.id for g in await manager.records.games_awaiting(ALICE)] == [one.game_id]
    assert [g.id for g in await manager.records.games_awaiting(BOB)] == [two.game_id]
    assert await manager.records.games_awaiting(CAROL) == []


def test_a_dropped_engine_state_is_freed_at_once_unless_something_still_holds_it() -> None:
    # A game's expansions point back at it: dropped, its state would wait for a full garbage
    # collection (a long pause with thousands of games). A live game breaks those cycles when it
    # rests or adopts a change, but only if nothing else holds the state (a move under way, a
    # picture being drawn), which then goes on playing by the whole rules.
    import gc
    import sys

    from benchmarks.encoding import VARIANTS
    from bot import live as live_module
    from engine.cli import random_action

    row = type("Row", (), {"id": 1})()
    for family, expansions in VARIANTS:
        setup = Setup(players=("A", "B"), seed=2, game=family, expansions=expansions)
        game = Game(setup)
        own = sys.getrefcount(game.fork()) - 1
        for _ in range(40):  # what the release counts on: a game's own references never change
            if game.finished:
                break
            game.play(random_action(game, random.Random(len(game.actions))))
            assert sys.getrefcount(game) - 2 == own, (family, expansions)
        gc.collect()
        live = LiveGame(row, game)
        held = game
        del game
        live.rest()  # held elsewhere: untouched
        assert bool(held.plugins) == bool(expansions) and held.legal_placements()
        live.game = held
        draft = live.draft()
        del held
        live.adopt(draft)  # the old state is no one's now: freed at once
        del draft
        assert gc.collect() == 0, (family, expansions)
        live.rest()
        assert gc.collect() == 0, (family, expansions)
    assert live_module._OWN_REFERENCES
