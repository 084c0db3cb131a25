"""Moves through the manager: turn stamps, who may act, refusals without state change."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from conftest import ALICE, BOB, CAROL, play_random, started_game

from bot.errors import (
    GameNotFound,
    GameOver,
    IllegalAction,
    ManagerError,
    NotActive,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
)
from bot.manager import GameManager, Timeout
from bot.outcomes import TurnView
from engine import Action, Pass, PlaceFigure, PlaceTile, TilePlaced


async def state(manager: GameManager, game_id: int) -> tuple[Any, ...]:
    """Everything a refusal must leave unchanged: engine state, stored row and action log."""
    live = manager.cache.get(game_id)
    assert live is not None
    return (
        live.game.snapshot(),
        await manager.storage.get_game(game_id),
        await manager.storage.get_actions(game_id),
    )


async def test_a_tile_then_a_figure_make_one_turn(manager: GameManager) -> None:
    view = await started_game(manager)
    assert view.user_id == ALICE and view.turn == 0 and view.phase == "tile"
    assert sum(len(r) for r in view.cells().values()) == len(view.placements)
    result = await manager.play_turn(view.game_id, ALICE, view.placements[0], turn=0, phase="tile")
    assert isinstance(result.events[0], TilePlaced)
    after = result.view
    if after.phase == "figure":
        assert after.user_id == ALICE and after.turn == 0
        result = await manager.play_turn(view.game_id, ALICE, {"type": "pass"}, turn=0)
    assert result.view.user_id == BOB and result.view.turn == 1
    assert (await manager.game(view.game_id)).current_seat == 1
    assert len(await manager.storage.get_actions(view.game_id)) == len(
        manager.cache.get(view.game_id).game.actions  # type: ignore[union-attr]
    )


def some_figure_view(view: TurnView) -> bool:
    return view.phase == "figure"


async def invalid_submissions(manager: GameManager, view: TurnView) -> list[tuple[Any, ...]]:
    """(user, action, turn, phase, error, words) for every kind of refusal at a tile decision."""
    tile = view.placements[0]
    occupied = PlaceTile(0, 0, 0)
    far = PlaceTile(50, 50, 0)
    return [
        (BOB, tile, view.turn, "tile", NotYourTurn, "not your turn"),
        (CAROL, tile, view.turn, "tile", NotAPlayer, "not playing"),
        (ALICE, tile, view.turn + 1, "tile", StaleAction, "earlier step"),
        (ALICE, tile, view.turn - 1, "tile", StaleAction, "turn"),
        (ALICE, tile, view.turn, "figure", StaleAction, "already played (a double click?)"),
        (ALICE, occupied, view.turn, None, IllegalAction, "already holds a tile"),
        (ALICE, far, view.turn, None, IllegalAction, "does not touch"),
        (ALICE, Pass(), view.turn, None, IllegalAction, "place your tile first"),
        (ALICE, PlaceFigure("follower", 0, 0, "C"), view.turn, None, IllegalAction, "tile"),
        (ALICE, {"type": "place_tile", "x": 1}, view.turn, None, IllegalAction, "whole number"),
        (ALICE, {"type": "jump"}, view.turn, None, IllegalAction, "unknown action type"),
        (ALICE, {"type": "place_abbey", "x": 1, "y": 1}, view.turn, None, IllegalAction, "Abbey"),
        (ALICE, "nonsense", view.turn, None, IllegalAction, "JSON object"),
    ]


async def test_every_invalid_submission_is_refused_readably_and_changes_nothing(
    manager: GameManager,
) -> None:
    view = await started_game(manager)
    before = await state(manager, view.game_id)
    for user, action, turn, phase, error, words in await invalid_submissions(manager, view):
        with pytest.raises(error) as caught:
            await manager.play_turn(view.game_id, user, action, turn=turn, phase=phase)
        assert isinstance(caught.value, ManagerError) and isinstance(caught.value, ValueError)
        assert words in str(caught.value), (action, str(caught.value))
        assert caught.value.message("fr") != str(caught.value)
        assert await state(manager, view.game_id) == before


async def test_wrong_tile_rotation_is_explained(manager: GameManager) -> None:
    view = await started_game(manager, seed=5)
    cell, rotations = next(iter(view.cells().items()))
    wrong = [r for r in (0, 90, 180, 270) if r not in rotations]
    if not wrong:
        pytest.skip("this tile fits every way")
    before = await state(manager, view.game_id)
    with pytest.raises(IllegalAction, match="does not fit"):
        await manager.play_turn(view.game_id, ALICE, PlaceTile(*cell, wrong[0]), turn=0)
    assert await state(manager, view.game_id) == before


async def test_a_figure_step_refuses_wrong_spots_and_a_second_tile(manager: GameManager) -> None:
    rng = random.Random(3)
    view = await started_game(manager, seed=3)
    while view.phase != "figure":
        view = (await play_random(manager, view, rng)).view
    user = view.user_id
    assert user is not None
    before = await state(manager, view.game_id)
    figure = view.figures[0]
    refusals: list[tuple[Action, str]] = [
        (PlaceTile(40, 40, 0), "place a figure on the tile you just placed"),
        (PlaceFigure("follower", figure.x + 1, figure.y, figure.at), "goes on the tile you just"),
        (PlaceFigure("mayor", figure.x, figure.y, figure.at), "no mayor"),
    ]
    for action, words in refusals:
        with pytest.raises(IllegalAction, match=words):
            await manager.play_turn(view.game_id, user, action, turn=view.turn)
        assert await state(manager, view.game_id) == before


async def test_unknown_and_unstarted_games_are_refused(manager: GameManager) -> None:
    with pytest.raises(GameNotFound, match="#999"):
        await manager.play_turn(999, ALICE, Pass(), turn=0)
    # Numbers no database row can have (typed into an autocomplete) are not found either.
    for number in (2**63, -1, 0):
        with pytest.raises(GameNotFound):
            await manager.game(number)
    row = await manager.lobbies.create_lobby(ALICE, "Alice")
    with pytest.raises(NotActive):
        await manager.play_turn(row.id, ALICE, Pass(), turn=0)
    assert (await manager.decision(row.id)).phase == "over"


async def test_two_concurrent_submissions_exactly_one_wins(manager: GameManager) -> None:
    view = await started_game(manager)
    placements = view.placements
    # The same button clicked twice, and two different moves sent at once.
    for first, second in [(placements[0], placements[0]), (placements[0], placements[-1])]:
        results = await asyncio.gather(
            manager.play_turn(view.game_id, ALICE, first, turn=view.turn, phase="tile"),
            manager.play_turn(view.game_id, ALICE, second, turn=view.turn, phase="tile"),
            return_exceptions=True,
        )
        wins = [r for r in results if not isinstance(r, BaseException)]
        losses = [r for r in results if isinstance(r, BaseException)]
        assert len(wins) == 1 and len(losses) == 1
        assert isinstance(losses[0], StaleAction)
        assert len(await manager.storage.get_actions(view.game_id)) == 1
        await manager.undo(view.game_id, ALICE)


async def test_many_games_in_parallel_reach_their_end(manager: GameManager) -> None:
    async def run(seed: int) -> tuple[int, dict[str, Any]]:
        rng = random.Random(seed)
        view = await started_game(manager, seed=seed, users=(ALICE, BOB, CAROL))
        while not view.finished:
            view = (await play_random(manager, view, rng)).view
        return view.game_id, manager.cache.get(view.game_id).game.snapshot()  # type: ignore[union-attr]

    finished = await asyncio.gather(*(run(seed) for seed in range(12)))
    for game_id, snapshot in finished:
        row = await manager.game(game_id)
        assert row.status == "finished" and row.result is not None
        assert row.result["scores"] == snapshot["scores"]
        with pytest.raises(GameOver):
            await manager.play_turn(game_id, ALICE, Pass(), turn=row.turn)
        assert await manager.storage.deadlines(game_id) == []


async def test_force_turn_plays_for_a_late_player(manager: GameManager) -> None:
    view = await started_game(manager, turn_seconds=60)
    result = await manager.play_turn(view.game_id, Timeout(), turn=0)
    assert result.view.turn == 1 and result.view.user_id == BOB
    assert all(p.forced == "autoplay" for p in result.played)
    log = await manager.storage.get_actions(view.game_id)
    assert {row.forced for row in log} == {"autoplay"} and {row.user_id for row in log} == {None}
    with pytest.raises(StaleAction):
        await manager.play_turn(view.game_id, Timeout(), turn=0)
    assert {(d.kind, d.turn, d.user_id) for d in await manager.storage.deadlines(view.game_id)} == {
        ("turn", 1, BOB),
        ("reminder", 1, BOB),
    }
