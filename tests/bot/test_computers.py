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
