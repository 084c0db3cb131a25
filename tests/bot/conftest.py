"""Fixtures for the bot tests: a game manager on a real database (a SQLite file, and a real
PostgreSQL server on loopback that the test run starts itself), and random legal moves."""

from __future__ import annotations

import asyncio
import itertools
import random
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.manager import GameManager
from bot.outcomes import MoveResult, TurnView
from bot.storage.local_postgres import LocalPostgres, binaries
from bot.storage.postgres import open_postgres
from engine import Action, Pass

ALICE, BOB, CAROL = 101, 202, 303


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """simcord's environment waits ``conftest_ui.SETTLE`` seconds for the bot to settle, unless
    a test's own ``simcord`` marker says otherwise."""
    from conftest_ui import SETTLE

    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "simcord_env" in fixtures and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


class Postgres:
    """One server for the whole run; each test gets a database of its own, copied from a
    template that the real migrations built once."""

    TEMPLATE = "carcassonne_template"

    def __init__(self) -> None:
        self.server = LocalPostgres().start()
        self._names = itertools.count(1)
        self.sql(f"CREATE DATABASE {self.TEMPLATE}")
        asyncio.run(self._migrate(self.server.url_of(self.TEMPLATE)))

    @staticmethod
    async def _migrate(url: str) -> None:
        await (await open_postgres(url)).close()

    def sql(self, statement: str) -> None:
        subprocess.run(
            [str(binaries() / "psql"), "-q", "-v", "ON_ERROR_STOP=1", self.server.url],
            input=statement,
            text=True,
            check=True,
            capture_output=True,
        )

    def fresh(self) -> str:
        name = f"test_{next(self._names)}"
        self.sql(f"CREATE DATABASE {name} TEMPLATE {self.TEMPLATE}")
        return name

    def drop(self, name: str) -> None:
        self.sql(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    yield cluster
    cluster.server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test's games live: each test using it runs once per storage engine."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
        return
    cluster: Postgres = request.getfixturevalue("postgres")
    name = cluster.fresh()
    yield cluster.server.url_of(name)
    cluster.drop(name)


@pytest.fixture
async def manager(database: str) -> AsyncIterator[GameManager]:
    mgr = await GameManager.open(database)
    yield mgr
    await mgr.close()


async def started_game(
    mgr: GameManager, *, seed: int = 1, users: tuple[int, ...] = (ALICE, BOB), **lobby: object
) -> TurnView:
    """A started game with ``users`` seated in that order."""
    row = await mgr.lobbies.create_lobby(users[0], f"user{users[0]}", channel_id=7, **lobby)  # type: ignore[arg-type]
    for user in users[1:]:
        await mgr.lobbies.join(row.id, user, f"user{user}")
    return await mgr.lobbies.start(row.id, users[0], seed=seed)


def random_action(view: TurnView, rng: random.Random) -> Action:
    if view.phase == "tile":
        return view.placements[rng.randrange(len(view.placements))]
    pick = rng.randrange(len(view.figures) + 1)
    return view.figures[pick] if pick < len(view.figures) else Pass()


async def play_random(mgr: GameManager, view: TurnView, rng: random.Random) -> MoveResult:
    """Play one random legal action as the player whose turn it is."""
    assert view.user_id is not None
    action = random_action(view, rng)
    return await mgr.play_turn(view.game_id, view.user_id, action, turn=view.turn, phase=view.phase)
