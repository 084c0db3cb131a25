"""Fixtures for the bot tests: a game manager on a real SQLite file, and random legal moves."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.manager import GameManager
from bot.outcomes import MoveResult, TurnView
from engine import Action, Pass

ALICE, BOB, CAROL = 101, 202, 303


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
async def manager(db_path: Path) -> AsyncIterator[GameManager]:
    mgr = await GameManager.open(str(db_path))
    yield mgr
    await mgr.close()


async def started_game(
    mgr: GameManager, *, seed: int = 1, users: tuple[int, ...] = (ALICE, BOB), **lobby: object
) -> TurnView:
    """A started game with ``users`` seated in that order."""
    row = await mgr.create_lobby(users[0], f"user{users[0]}", channel_id=7, **lobby)  # type: ignore[arg-type]
    for user in users[1:]:
        await mgr.join(row.id, user, f"user{user}")
    return await mgr.start(row.id, users[0], seed=seed)


def random_action(view: TurnView, rng: random.Random) -> Action:
    if view.phase == "tile":
        return view.placements[rng.randrange(len(view.placements))]
    pick = rng.randrange(len(view.figures) + 1)
    return view.figures[pick] if pick < len(view.figures) else Pass()


async def play_random(mgr: GameManager, view: TurnView, rng: random.Random) -> MoveResult:
    """Play one random legal action as the player whose turn it is."""
    assert view.user_id is not None
    action = random_action(view, rng)
    return await mgr.apply(view.game_id, view.user_id, action, turn=view.turn, phase=view.phase)
