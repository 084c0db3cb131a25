"""Fakes for the scheduler tests: a clock to move by hand and a notifier that writes things down."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

import pytest

from bot.manager import GameManager
from bot.manager.timing import DigestLine
from bot.scheduler import ForcedTurn, Scheduler
from bot.storage import Deadline, GameRow, GuildSettings, UserSettings

HOUR = 3600.0
DAY = 24 * HOUR
#: Noon UTC on some day: digests (09:00 UTC by default) come at 21 h, 45 h, ... from here.
NOON = 20_000 * DAY + 12 * HOUR


class FakeClock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def at(self, hours: float) -> None:
        """Set the time to ``hours`` after noon of day one."""
        self.now = NOON + hours * HOUR

    async def sleep(self, seconds: float) -> None:
        """The loop's sleep: time passes at once."""
        self.now += seconds


@dataclass
class FakeNotifier:
    """Every notice as (what, game or guild id, turn, user id, hours since noon)."""

    clock: FakeClock
    sent: list[tuple[str, int, int, int | None, float]] = field(default_factory=list)
    forced_turns: list[ForcedTurn] = field(default_factory=list)
    digests: list[list[DigestLine]] = field(default_factory=list)
    deadlines: list[Deadline] = field(default_factory=list)
    fail_games: set[int] = field(default_factory=set)

    def _note(self, what: str, game: GameRow, turn: int, user: int | None) -> None:
        if game.id in self.fail_games:
            raise RuntimeError(f"Discord is down for game {game.id}")
        self.sent.append((what, game.id, turn, user, (self.clock.now - NOON) / HOUR))

    async def turn_started(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._note("start", game, deadline.turn, user.user_id)
        self.deadlines.append(deadline)

    async def clock_resumed(self, game: GameRow) -> None:
        self._note("clock_resumed", game, game.turn, None)

    async def reminder(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._note("reminder", game, deadline.turn, user.user_id)
        self.deadlines.append(deadline)

    async def forced(self, game: GameRow, result: ForcedTurn, *, again: bool = False) -> None:
        self._note(f"forced:{result.policy}", game, result.turn, result.user_id)
        self.forced_turns.append(result)

    async def resumed(self, game: GameRow, user: UserSettings, deadline: Deadline) -> None:
        self._note("resumed", game, deadline.turn, user.user_id)
        self.deadlines.append(deadline)

    async def digest(self, guild: GuildSettings, lines: Sequence[DigestLine]) -> None:
        self.sent.append(("digest", guild.guild_id, 0, None, (self.clock.now - NOON) / HOUR))
        self.digests.append(list(lines))

    def kinds(self, what: str) -> list[tuple[int, int, int | None, float]]:
        return [(g, t, u, h) for w, g, t, u, h in self.sent if w == what]


# -- the fixtures of the tests that drive the scheduler by this clock ----------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def manager(database: str, clock: FakeClock) -> AsyncIterator[GameManager]:
    mgr = await GameManager.open(database, clock=clock)
    yield mgr
    await mgr.close()


@pytest.fixture
def notifier(clock: FakeClock) -> FakeNotifier:
    return FakeNotifier(clock)


@pytest.fixture
def scheduler(manager: GameManager, notifier: FakeNotifier) -> Scheduler:
    return Scheduler(manager, notifier)
