"""Timeouts and departures: forced reasons in records, moves that players cannot make."""

from __future__ import annotations

import pytest
from conftest import ALICE, BOB, CAROL, started_game

from bot.errors import BadRecord, BadSettings, IllegalAction
from bot.manager import GameManager, Timeout
from engine import Forfeit, Game, Skip


@pytest.mark.parametrize(
    "action", [Skip(), Forfeit(1), {"type": "skip"}, {"type": "forfeit", "player": 1}]
)
async def test_players_cannot_skip_or_remove_someone_as_a_move(
    manager: GameManager, action: object
) -> None:
    view = await started_game(manager)
    with pytest.raises(IllegalAction, match="resign"):
        await manager.play_turn(view.game_id, ALICE, action, turn=0)  # type: ignore[arg-type]
    assert await manager.storage.get_actions(view.game_id) == []


async def test_forced_reasons_survive_export_and_import(manager: GameManager) -> None:
    view = await started_game(manager, users=(ALICE, BOB, CAROL), turn_seconds=60)
    await manager.play_turn(view.game_id, Timeout("skip"), turn=0)
    await manager.play_turn(view.game_id, Timeout(), turn=1)  # the game's policy: autoplay
    await manager.resign(view.game_id, CAROL)
    record = await manager.records.full_record(view.game_id)
    assert record["actions"][0]["forced"] == "skip"
    assert {a.get("forced") for a in record["actions"]} == {"skip", "autoplay", "resigned"}
    Game.from_record(record)  # the engine ignores the extra field
    row = await manager.records.import_record(record, ALICE, users=[ALICE, BOB, CAROL])
    assert [s.status for s in row.seats] == ["playing", "playing", "resigned"]
    assert await manager.records.full_record(row.id) == record
    record["actions"][0]["forced"] = "boredom"
    with pytest.raises(BadRecord, match="'forced' must be one of"):
        await manager.records.import_record(record, ALICE)


async def test_an_unknown_timeout_policy_is_refused(manager: GameManager) -> None:
    view = await started_game(manager, turn_seconds=60)
    with pytest.raises(BadSettings, match="autoplay, skip, forfeit"):
        await manager.play_turn(view.game_id, Timeout("coinflip"), turn=0)


async def test_an_absence_must_end_in_the_future_and_within_two_months(
    manager: GameManager,
) -> None:
    now = manager.clock()
    with pytest.raises(BadSettings, match="future"):
        await manager.timing.set_away(ALICE, now - 1)
    with pytest.raises(BadSettings, match="60 days"):
        await manager.timing.set_away(ALICE, now + 61 * 86400)
    assert (await manager.records.user_settings(ALICE)).away_until is None
