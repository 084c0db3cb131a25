"""Rendering goes through a worker thread; player messages exist in English and French."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import ALICE, BOB, started_game

from bot.errors import NotYourTurn
from bot.manager import GameManager, Timeout
from engine import Game


async def test_the_renderer_runs_outside_the_event_loop_thread(db_path: Path) -> None:
    calls: list[tuple[str, int]] = []

    def fake_renderer(game: Game) -> bytes:
        calls.append((threading.current_thread().name, len(game.board.tiles)))
        return b"\x89PNG fake"

    manager = await GameManager.open(str(db_path), renderer=fake_renderer)
    try:
        view = await started_game(manager)
        result = await manager.play_turn(
            view.game_id, ALICE, view.placements[0], turn=0, render=True
        )
        assert result.image == b"\x89PNG fake"
        assert await manager.render(view.game_id) == b"\x89PNG fake"
        main = threading.current_thread().name
        assert [n for n, _ in calls if n == main] == []
        assert [tiles for _, tiles in calls] == [2, 2]
    finally:
        await manager.close()


async def test_render_without_a_renderer_is_a_programming_error(manager: GameManager) -> None:
    view = await started_game(manager)
    with pytest.raises(RuntimeError, match="without a renderer"):
        await manager.render(view.game_id)


async def test_a_refusal_reads_in_the_players_language(manager: GameManager) -> None:
    view = await started_game(manager)
    with pytest.raises(NotYourTurn) as caught:
        await manager.play_turn(view.game_id, BOB, view.placements[0], turn=0)
    assert caught.value.message("en-GB") == "It is not your turn: user101 is playing."
    assert caught.value.message("fr") == "Ce n'est pas votre tour : c'est à user101 de jouer."
    assert caught.value.message("de") == "Du bist nicht dran: user101 ist am Zug."
    assert caught.value.message("pt-BR") == str(caught.value)


async def test_deadlines_fire_once_per_turn(manager: GameManager) -> None:
    now = [1000.0]
    manager.clock = lambda: now[0]
    view = await started_game(manager, turn_seconds=100)
    assert await manager.storage.due_deadlines(1074) == []
    due = await manager.storage.due_deadlines(1075)
    assert [(d.kind, d.turn) for d in due] == [("reminder", 0)]
    assert await manager.storage.complete_deadline(view.game_id, "reminder", 0, 1075)
    assert not await manager.storage.complete_deadline(view.game_id, "reminder", 0, 1076)
    now[0] = 1050.0
    await manager.play_turn(view.game_id, Timeout(), turn=0)
    assert not await manager.storage.complete_deadline(view.game_id, "turn", 0, 1100)
    assert [(d.kind, d.turn, d.due_at) for d in await manager.storage.due_deadlines(2000)] == [
        ("reminder", 1, 1125.0),
        ("turn", 1, 1150.0),
    ]
