"""Computer players in the manager: their turns decided in a real worker process, recorded as
the seat's own moves; a timed-out turn played by the medium computer."""

from __future__ import annotations

import pytest
from conftest import ALICE, BOB, started_game

from bot.computers import ComputerPlayers, play_turn
from bot.errors import NotAComputer, NotOwner, NotYourTurn
from bot.manager import AUTOPLAY_LEVEL, COMPUTER, GameManager, Timeout, _computer_seed
from engine import Game, Phase


async def test_a_computer_turn_is_decided_in_a_worker_and_saved_as_the_seats_move(
    manager: GameManager,
) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "alice", channel_id=7)
    row = await manager.lobbies.add_computer(row.id, ALICE, "hard", "Computer 1 (Hard)")
    computer = row.seats[1]
    assert computer.computer == "hard" and computer.user_id == -1
    view = await manager.lobbies.start(row.id, ALICE, seed=3)
    await manager.play_turn(row.id, ALICE, view.placements[0], turn=0)
    view = await manager.decision(row.id)
    if view.seat == 0:  # alice may place a figure: she passes
        from engine import Pass

        await manager.play_turn(row.id, ALICE, Pass(), turn=0)
        view = await manager.decision(row.id)
    assert view.seat == 1 and view.user_id == -1
    with pytest.raises(NotYourTurn):
        await manager.play_turn(row.id, ALICE, view.placements[0], turn=view.turn)
    record = await manager.records.full_record(row.id)
    expected = play_turn(record, 1, "hard", _computer_seed(row.id, 1))
    result = await manager.play_turn(row.id, COMPUTER, turn=view.turn)
    assert [p.action for p in result.played] == expected
    stored = await manager.storage.get_actions(row.id)
    mine = [a for a in stored if a.seat == 1]
    assert [a.action for a in mine] == expected
    assert all(a.user_id == -1 and a.forced is None for a in mine)
    assert (await manager.decision(row.id)).seat == 0
    with pytest.raises(NotYourTurn):  # a person's turn now
        await manager.play_turn(row.id, COMPUTER, turn=(await manager.decision(row.id)).turn)


async def test_a_timed_out_turn_is_played_by_the_medium_computer(manager: GameManager) -> None:
    view = await started_game(manager, users=(ALICE, BOB), turn_seconds=60)
    record = await manager.records.full_record(view.game_id)
    expected = play_turn(record, 0, AUTOPLAY_LEVEL, _computer_seed(view.game_id, 0))
    await manager.play_turn(view.game_id, Timeout(), turn=0)
    stored = await manager.storage.get_actions(view.game_id)
    assert [a.action for a in stored] == expected
    assert {a.forced for a in stored} == {"autoplay"}


async def test_only_the_creator_seats_computers_and_only_computers_are_removed(
    manager: GameManager,
) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "alice", channel_id=7)
    await manager.lobbies.join(row.id, BOB, "bob")
    with pytest.raises(NotOwner):
        await manager.lobbies.add_computer(row.id, BOB, "easy", "Computer 1 (Easy)")
    with pytest.raises(NotAComputer):
        await manager.lobbies.remove_computer(row.id, ALICE, 1)
    row = await manager.lobbies.add_computer(row.id, ALICE, "easy", "Computer 1 (Easy)")
    row = await manager.lobbies.add_computer(row.id, ALICE, "medium", "Computer 2 (Medium)")
    assert [s.user_id for s in row.seats] == [ALICE, BOB, -1, -2]
    row = await manager.lobbies.remove_computer(row.id, ALICE, 2)
    assert [s.computer for s in row.seats] == [None, None, "medium"]


async def test_a_worker_process_decides_a_whole_turn() -> None:
    computers = ComputerPlayers(workers=1)
    try:
        game = Game.from_record(
            {"players": ["A", "B"], "seed": 5, "options": {"hand": True}, "actions": []}
        )
        actions = await computers.turn(game.record(), 0, "medium", 1)
        assert actions
        for data in actions:
            from engine import action_from_json

            game.play(action_from_json(data))
        assert game.actor == 1 or game.phase is Phase.OVER
    finally:
        computers.close()


async def test_a_game_against_computers_is_abandoned_by_its_creator_alone(
    manager: GameManager,
) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "alice", channel_id=7)
    await manager.lobbies.add_computer(row.id, ALICE, "easy", "Computer 1 (Easy)")
    await manager.lobbies.start(row.id, ALICE, seed=2)
    vote = await manager.vote_abandon(row.id, ALICE)
    assert vote.done and vote.needed == {ALICE}
    assert vote.row.status == "abandoned"


async def test_an_undo_takes_back_the_persons_turn_and_the_computers_after_it(
    manager: GameManager,
) -> None:
    from bot.errors import UndoNothing
    from engine import Pass

    row = await manager.lobbies.create_lobby(ALICE, "alice", channel_id=7)
    row = await manager.lobbies.add_computer(row.id, ALICE, "easy", "Computer 1 (Easy)")
    view = await manager.lobbies.start(row.id, ALICE, seed=3)
    if view.seat == 1:  # the computer begins: nothing of alice's to take back yet
        await manager.play_turn(row.id, COMPUTER, turn=view.turn)
        with pytest.raises(UndoNothing):
            await manager.undo(row.id, ALICE)
        view = await manager.decision(row.id)
    before = len(await manager.storage.get_actions(row.id))
    tile = view.tile
    await manager.play_turn(row.id, ALICE, view.placements[0], turn=view.turn)
    view = await manager.decision(row.id)
    if view.seat == 0:
        await manager.play_turn(row.id, ALICE, Pass(), turn=view.turn)
        view = await manager.decision(row.id)
    assert view.seat == 1
    await manager.play_turn(row.id, COMPUTER, turn=view.turn)
    assert (await manager.decision(row.id)).seat == 0
    result = await manager.undo(row.id, ALICE)
    assert result.undone and result.by == ALICE
    assert len(await manager.storage.get_actions(row.id)) == before
    back = await manager.decision(row.id)
    assert back.seat == 0 and back.tile == tile and back.phase == "tile"


#: A position the expert decides in about a tenth of a second (the opening of a 2-player game).
OPENING: dict[str, object] = {"players": ["A", "B"], "seed": 5, "actions": []}


def test_the_timeout_autoplay_keeps_the_medium_computer() -> None:
    assert AUTOPLAY_LEVEL == "medium"
    import ai
    from bot.lobby import COMPUTER_LEVELS

    assert COMPUTER_LEVELS == ai.LEVELS and COMPUTER_LEVELS[-1] == "expert"


async def test_queued_decisions_run_one_at_a_time_in_order_and_wait_outside_their_timeout() -> None:
    import asyncio
    import time

    computers = ComputerPlayers(workers=0, max_waiting=16)
    assert ComputerPlayers(workers=2).max_waiting == 16  # 8 a worker by default
    try:
        started = time.perf_counter()
        assert await computers.turn(OPENING, 0, "expert", 1)
        one = time.perf_counter() - started
        computers.timeout = 5 * one  # each decision fits, the last one's wait does not
        count = 10
        finished: list[int] = []
        asked = time.perf_counter()

        async def decide(index: int) -> list[dict[str, object]] | None:
            actions = await computers.turn(OPENING, 0, "expert", 1)
            finished.append(index)
            return actions

        tasks = [asyncio.create_task(decide(i)) for i in range(count)]
        await asyncio.sleep(0)
        assert computers.deciding() == 1 and computers.waiting() == count - 1
        most = 0
        while not all(t.done() for t in tasks):
            most = max(most, computers.deciding())
            await asyncio.sleep(0.005)
        took = time.perf_counter() - asked
        assert most == 1
        assert finished == list(range(count))
        assert all(t.result() for t in tasks)  # none timed out, though the last waited longer
        assert took > computers.timeout, (took, computers.timeout)
        assert computers.deciding() == 0 and computers.waiting() == 0
    finally:
        computers.close()


async def test_a_full_queue_refuses_at_once_and_a_cancelled_wait_gives_its_place(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import asyncio

    computers = ComputerPlayers(workers=0, max_waiting=2)
    try:
        first = asyncio.create_task(computers.turn(OPENING, 0, "expert", 1))
        waiting = [asyncio.create_task(computers.turn(OPENING, 0, "expert", 1)) for _ in "ab"]
        await asyncio.sleep(0)
        assert computers.waiting() == 2
        with caplog.at_level("WARNING", logger="bot.computers"):
            assert await computers.turn(OPENING, 0, "expert", 1) is None
        assert not first.done()  # refused at once, while the first still decides
        assert any("wait for 1 worker" in r.getMessage() for r in caplog.records)
        waiting[0].cancel()
        await asyncio.sleep(0)
        assert computers.waiting() == 1
        last = asyncio.create_task(computers.turn(OPENING, 0, "expert", 1))
        assert await first and await waiting[1] and await last
        assert waiting[0].cancelled()
        assert computers.deciding() == 0 and computers.waiting() == 0
    finally:
        computers.close()


async def test_a_timed_out_decision_keeps_its_worker_until_it_is_done() -> None:
    import asyncio

    computers = ComputerPlayers(workers=0, timeout=0.001)
    try:
        assert await computers.turn(OPENING, 0, "expert", 1) is None
        assert computers.deciding() == 1  # the worker still decides it
        computers.timeout = 20.0
        after = asyncio.create_task(computers.turn(OPENING, 0, "expert", 1))
        await asyncio.sleep(0)
        assert computers.waiting() == 1
        assert await after
        assert computers.deciding() == 0
    finally:
        computers.close()


async def test_a_worker_process_decides_queued_expert_turns() -> None:
    import asyncio

    computers = ComputerPlayers(workers=1)
    try:
        answers = await asyncio.gather(
            *(computers.turn(OPENING, 0, "expert", seed) for seed in (1, 2, 3))
        )
        assert all(answers) and computers.deciding() == 0
    finally:
        computers.close()
