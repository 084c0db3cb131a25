"""No fault leaves anything half-done: each storage call of each state change fails in turn.

Every operation that changes a game (a move, a chess-clock move, a resignation, a computer's
turn, an undo alone, by vote or with a departure played again, an abandon, a timeout, a chess
clock running out, the move that ends a league game, a pause asked and one ending, a turn start
notice, a reminder, and notices sent again after their sender died) runs once to count the
storage calls it makes (the count is asserted: a call the fault injector did not see would
change it), then once per call and per point, the call failing before it runs or after it ran
(:mod:`bot.storage.faults`), on SQLite and on PostgreSQL. After each failure:

- the stored game replays, and the game in memory (if any) equals it;
- the answer matches what was stored: a success is stored, a failure stored nothing (a single
  failure never leaves the manager unsure: it reads storage again);
- the game goes on: the player's retry is taken (never "already played"), the next move is
  stored on top of it, and every notice owed goes out exactly once (sent again after its claim
  runs out, and never twice).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import ALICE, BOB, CAROL, Postgres
from scheduler_fakes import HOUR, FakeClock

from bot.computers import ComputerPlayers
from bot.errors import ManagerError
from bot.live import replay
from bot.manager import COMPUTER, GameManager, Timeout
from bot.outcomes import MoveResult, TurnView
from bot.scheduler import ForcedTurn, Scheduler
from bot.storage import ActionRow, Deadline, GameRow, GuildSettings, UserSettings
from bot.storage.faults import POINTS, Faults, InjectedFault, Point
from bot.storage.postgres import open_postgres
from bot.storage.sql import Storage
from bot.storage.sqlite import open_sqlite
from engine import Pass

GUILD = 77


# -- the scene: a manager, its scheduler and a notifier, on one database ------------------------


@dataclass
class Notices:
    """Every notice sent, as (kind, game, turn). A notice sent ``again`` is skipped if it went
    out, as the Discord notifier looks in the channel; sent twice otherwise, it is a duplicate."""

    sent: Counter[tuple[str, int, int]] = field(default_factory=Counter)
    duplicates: list[tuple[str, int, int]] = field(default_factory=list)

    def _send(self, kind: str, game: int, turn: int, again: bool = False) -> None:
        key = (kind, game, turn)
        if self.sent[key]:
            if not again:
                self.duplicates.append(key)
            return
        self.sent[key] += 1

    async def turn_started(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._send("start", game.id, deadline.turn, again)

    async def reminder(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._send("reminder", game.id, deadline.turn, again)

    async def forced(self, game: GameRow, result: ForcedTurn, *, again: bool = False) -> None:
        self._send("timeout", game.id, result.turn, again)

    async def resumed(self, game: GameRow, user: UserSettings, deadline: Deadline) -> None:
        self._send("resumed", game.id, deadline.turn)

    async def clock_resumed(self, game: GameRow) -> None:
        self._send("clock_resumed", game.id, game.turn)

    async def digest(self, guild: GuildSettings, lines: Sequence[Any]) -> None:
        self._send("digest", guild.guild_id, 0)


@dataclass
class Scene:
    engine: str
    manager: GameManager
    faults: Faults
    clock: FakeClock
    notices: Notices
    scheduler: Scheduler
    names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def storage(self) -> Storage:
        return self.manager.storage

    async def stored(self, game_id: int) -> tuple[GameRow, list[ActionRow]]:
        row = await self.storage.get_game(game_id)
        assert row is not None
        return row, await self.storage.get_actions(game_id)

    async def notice_rows(self) -> list[tuple[int, str, int, float | None]]:
        async with self.storage.engine.read() as db:
            rows = await db.fetchall("SELECT game_id, kind, turn, sent_at FROM notices")
        return [(int(r[0]), str(r[1]), int(r[2]), r[3]) for r in rows]


@pytest.fixture(scope="module")
def pg_database(postgres: Postgres) -> Iterator[str]:
    """One PostgreSQL database for the module (each operation ends its games), whose commits
    do not wait for the disk: a crash is not what this module tries."""
    name = postgres.fresh()
    postgres.sql(f"ALTER DATABASE {name} SET synchronous_commit = off")
    yield postgres.server.url_of(name)
    postgres.drop(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return str(request.getfixturevalue("pg_database"))


@pytest.fixture
async def scene(database: str) -> AsyncIterator[Scene]:
    clock = FakeClock()
    storage: Storage
    if database.startswith("postgresql"):
        storage = await open_postgres(database)
    else:
        storage = await open_sqlite(database, durable=False)
    manager = GameManager(storage, clock=clock, computers=ComputerPlayers(workers=0))
    notices = Notices()
    # Without the hourly retention step (tested on its own): it adds a call to some ticks only.
    scheduler = Scheduler(manager, notices, retention_every=None)
    engine = "postgresql" if database.startswith("postgresql") else "sqlite"
    yield Scene(engine, manager, Faults(manager.storage), clock, notices, scheduler)
    await manager.close()


# -- what every operation is checked against ----------------------------------------------------


@dataclass
class Case:
    """One game prepared for an operation, and what the operation must leave."""

    game_id: int
    user: int = ALICE
    before: list[ActionRow] = field(default_factory=list)
    turn: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Answer:
    value: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


async def attempt(run: Awaitable[Any]) -> Answer:
    try:
        return Answer(await run)
    except Exception as error:
        return Answer(error=error)


async def memory_is_storage(scene: Scene, game_id: int) -> None:
    """The stored game replays, and the live game (if kept) is the stored one."""
    row, actions = await scene.stored(game_id)
    live = scene.manager.cache.get(game_id)
    if row.seed is None:
        return
    game = replay(row, actions)  # raises if the record no longer plays
    if live is not None:
        assert live.row == row
        assert live.log == actions
        assert live.game.actions == game.actions
        assert live.game.scores == game.scores


def failure_told(answer: Answer) -> None:
    """A failure is the storage's own error (so the player reads "nothing was played"); one
    failure never leaves the manager unsure."""
    assert isinstance(answer.error, InjectedFault), answer.error


async def whole_turn(manager: GameManager, game_id: int) -> TurnView:
    """The player in turn plays their turn: the first placement, no figure."""
    view = await manager.decision(game_id)
    turn = view.turn
    while view.turn == turn and not view.finished:
        assert view.user_id is not None
        action = view.placements[0] if view.phase == "tile" else Pass()
        view = (await manager.play_turn(game_id, view.user_id, action, turn=view.turn)).view
    return view


async def lobby(scene: Scene, users: Sequence[int] = (ALICE, BOB), **options: Any) -> int:
    row = await scene.manager.lobbies.create_lobby(users[0], "owner", channel_id=5, **options)
    for user in users[1:]:
        await scene.manager.lobbies.join(row.id, user, f"user{user}")
    return row.id


async def started(scene: Scene, users: Sequence[int] = (ALICE, BOB), **options: Any) -> int:
    game_id = await lobby(scene, users, **options)
    await scene.manager.lobbies.start(game_id, users[0], seed=3)
    return game_id


# -- the operations -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    name: str
    #: The storage calls it makes, on SQLite and on PostgreSQL (asserted).
    calls: tuple[int, int]
    prepare: Callable[[Scene], Awaitable[Case]]
    run: Callable[[Scene, Case], Awaitable[Any]]
    #: Asserts that the answer matches storage (right after the failure).
    told: Callable[[Scene, Case, Answer], Awaitable[None]]
    #: The game goes on: retries, later moves, ticks; asserts what must hold in the end.
    goes_on: Callable[[Scene, Case, Answer], Awaitable[None]]


async def _move_prepare(scene: Scene, **options: Any) -> Case:
    game_id = await started(scene, **options)
    view = await scene.manager.decision(game_id)
    view = (await scene.manager.play_turn(game_id, ALICE, view.placements[0], turn=0)).view
    assert view.phase == "figure" and view.user_id == ALICE
    return Case(game_id, ALICE, (await scene.stored(game_id))[1], view.turn)


async def _move_run(scene: Scene, case: Case) -> MoveResult:
    return await scene.manager.play_turn(case.game_id, case.user, Pass(), turn=case.turn)


async def _appended_or_not(scene: Scene, case: Case, answer: Answer) -> None:
    _, actions = await scene.stored(case.game_id)
    if answer.ok:
        result: MoveResult = answer.value
        assert len(actions) == len(case.before) + len(result.played)
        assert actions[: len(case.before)] == case.before
        assert [a.action for a in actions[len(case.before) :]] == [p.action for p in result.played]
    else:
        failure_told(answer)
        assert actions == case.before


async def _move_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:  # the player tries again: taken, never "already played"
        await _move_run(scene, case)
    view = await whole_turn(scene.manager, case.game_id)  # the next player moves on top
    _, actions = await scene.stored(case.game_id)
    assert len(actions) == len(case.before) + 1 + 2 and view.turn == case.turn + 2


def _move(name: str, calls: tuple[int, int], **options: Any) -> Operation:
    async def prepare(scene: Scene) -> Case:
        return await _move_prepare(scene, **options)

    return Operation(name, calls, prepare, _move_run, _appended_or_not, _move_goes_on)


async def _resign_prepare(scene: Scene) -> Case:
    game_id = await started(scene, (ALICE, BOB, CAROL))
    await whole_turn(scene.manager, game_id)
    return Case(game_id, CAROL, (await scene.stored(game_id))[1])


async def _resign_run(scene: Scene, case: Case) -> MoveResult:
    return await scene.manager.resign(case.game_id, case.user)


async def _resign_told(scene: Scene, case: Case, answer: Answer) -> None:
    await _appended_or_not(scene, case, answer)
    row, _ = await scene.stored(case.game_id)
    assert (row.seats[2].status == "resigned") == answer.ok


async def _resign_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:
        await _resign_run(scene, case)
    await whole_turn(scene.manager, case.game_id)
    await whole_turn(scene.manager, case.game_id)
    row, actions = await scene.stored(case.game_id)
    assert row.seats[2].status == "resigned"
    assert [a.forced for a in actions].count("resigned") == 1


async def _computer_prepare(scene: Scene) -> Case:
    game_id = await lobby(scene, (ALICE,))
    await scene.manager.lobbies.add_computer(game_id, ALICE, "easy", "Robot")
    await scene.manager.lobbies.start(game_id, ALICE, seed=3)
    view = await whole_turn(scene.manager, game_id)
    assert view.game.seats[view.seat or 0].computer is not None
    return Case(game_id, ALICE, (await scene.stored(game_id))[1], view.turn)


async def _computer_run(scene: Scene, case: Case) -> MoveResult:
    return await scene.manager.play_turn(case.game_id, COMPUTER, turn=case.turn)


async def _computer_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:
        await _computer_run(scene, case)
    view = await whole_turn(scene.manager, case.game_id)
    assert view.turn == case.turn + 2


async def _undo_prepare(scene: Scene) -> Case:
    game_id = await started(scene)
    await whole_turn(scene.manager, game_id)
    return Case(game_id, ALICE, (await scene.stored(game_id))[1], extra={"start": 0})


async def _undo_run(scene: Scene, case: Case) -> Any:
    result = await scene.manager.undo(case.game_id, case.user, request=case.extra.get("request"))
    assert result.undone
    return result


async def _undone_or_not(scene: Scene, case: Case, answer: Answer) -> None:
    _, actions = await scene.stored(case.game_id)
    if answer.ok:
        kept = case.before[: case.extra["start"]]
        assert actions[: len(kept)] == kept
        again = case.extra.get("again", 0)  # departures played again after the kept actions
        assert len(actions) == len(kept) + again
        assert all(a.forced in ("resigned", "forfeit") for a in actions[len(kept) :])
    else:
        failure_told(answer)
        assert actions == case.before


async def _undo_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:
        await _undo_run(scene, case)
    view = await whole_turn(scene.manager, case.game_id)  # the turn taken back, played again
    _, actions = await scene.stored(case.game_id)
    start, again = case.extra["start"], case.extra.get("again", 0)
    assert len(actions) == start + again + 2 and view.turn >= 1


async def _vote_prepare(scene: Scene) -> Case:
    game_id = await started(scene)
    await whole_turn(scene.manager, game_id)
    view = await scene.manager.decision(game_id)
    await scene.manager.play_turn(game_id, BOB, view.placements[0], turn=view.turn)
    asked = await scene.manager.undo(game_id, ALICE)
    assert not asked.undone
    before = (await scene.stored(game_id))[1]
    start = asked.action_idx
    return Case(game_id, BOB, before, extra={"start": start, "request": start})


async def _departure_prepare(scene: Scene) -> Case:
    game_id = await started(scene, (ALICE, BOB, CAROL))
    await whole_turn(scene.manager, game_id)
    await scene.manager.resign(game_id, CAROL)
    before = (await scene.stored(game_id))[1]
    return Case(game_id, ALICE, before, extra={"start": 0, "again": 1})


async def _abandon_prepare(scene: Scene) -> Case:
    game_id = await started(scene)
    await whole_turn(scene.manager, game_id)
    return Case(game_id, ALICE, (await scene.stored(game_id))[1])


async def _abandon_run(scene: Scene, case: Case) -> GameRow:
    return await scene.manager.abandon(case.game_id, case.user)


async def _abandon_told(scene: Scene, case: Case, answer: Answer) -> None:
    row, actions = await scene.stored(case.game_id)
    assert actions == case.before
    if answer.ok:
        assert row.status == "abandoned" and answer.value == row
    else:
        failure_told(answer)
        assert row.status == "active"


async def _abandon_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:
        await _abandon_run(scene, case)
    row, _ = await scene.stored(case.game_id)
    assert row.status == "abandoned" and row.action_count == len(case.before)
    with pytest.raises(ManagerError):
        await _move_run(scene, case)


async def _pause_prepare(scene: Scene) -> Case:
    game_id = await started(scene, clock=(300, 10))
    asked = await scene.manager.clocks.vote_pause(game_id, ALICE, scene.clock.now + HOUR)
    assert not asked.done
    return Case(game_id, BOB, (await scene.stored(game_id))[1])


async def _pause_run(scene: Scene, case: Case) -> Any:
    vote = await scene.manager.clocks.vote_pause(case.game_id, case.user, None)
    assert vote.done and vote.row.clock_paused_at == scene.clock.now
    return vote


async def _pause_told(scene: Scene, case: Case, answer: Answer) -> None:
    row, _ = await scene.stored(case.game_id)
    if answer.ok:
        assert row.clock_paused_at == scene.clock.now
    else:
        failure_told(answer)
        assert row.clock_paused_at is None


async def _pause_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:
        await _pause_run(scene, case)
    (clock,) = [d for d in await scene.storage.deadlines(case.game_id) if d.kind == "clock"]
    assert clock.paused_at == scene.clock.now
    await scene.manager.clocks.resume_clock(case.game_id, BOB)
    await whole_turn(scene.manager, case.game_id)


async def _league_prepare(scene: Scene) -> Case:
    name = f"League {next(scene.names)}"
    league = await scene.manager.leagues.create_league(GUILD, 9, ALICE, name, admin=True)
    for user in (ALICE, BOB):
        await scene.manager.leagues.join_league(league.id, user, f"user{user}")
    (view,) = await scene.manager.leagues.schedule(
        league.id, ALICE, admin=True, players=[(ALICE, "a"), (BOB, "b")]
    )
    await whole_turn(scene.manager, view.game_id)
    case = Case(view.game_id, BOB, (await scene.stored(view.game_id))[1])
    case.extra["league"] = league.id
    return case


async def _league_told(scene: Scene, case: Case, answer: Answer) -> None:
    await _appended_or_not(scene, case, answer)  # a failure after the move is not the move's
    row, _ = await scene.stored(case.game_id)
    assert (row.status == "finished") == answer.ok


async def _league_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    if not answer.ok:
        await _resign_run(scene, case)
    league = case.extra["league"]
    table = await scene.manager.leagues.season_table(league)  # records a result a failure left out
    results = [r for r in await scene.storage.league_results(league) if r.game_id == case.game_id]
    assert len(results) == 1 and table.games == 1
    await scene.manager.stats.player_stats(GUILD, ALICE)  # stores statistics a failure left out
    assert await scene.storage.games_without_stats(GUILD, ALICE) == []


# The scheduler's jobs: the operation is one tick (or the clock's tick), at a time set by prepare.


async def _tick(scene: Scene, case: Case) -> Any:
    report = await scene.scheduler.tick()
    return report


async def _clock_tick(scene: Scene, case: Case) -> Any:
    return await scene.scheduler.tick_clocks()


async def _timed(scene: Scene, **options: Any) -> Case:
    game_id = await started(scene, **options)
    await scene.scheduler.tick()  # the first turn's start notice
    return Case(game_id, ALICE, (await scene.stored(game_id))[1])


async def _timeout_prepare(scene: Scene) -> Case:
    case = await _timed(scene, turn_seconds=3600, timeout_policy="skip")
    scene.clock.now += 3601
    return case


async def _clock_prepare(scene: Scene) -> Case:
    case = await _timed(scene, clock=(60, 0), timeout_policy="skip")
    scene.clock.now += 61
    return case


async def _start_prepare(scene: Scene) -> Case:
    game_id = await started(scene, turn_seconds=3600)
    return Case(game_id, ALICE, (await scene.stored(game_id))[1])


async def _reminder_prepare(scene: Scene) -> Case:
    case = await _timed(scene, turn_seconds=3600)
    scene.clock.now += 0.8 * 3600
    return case


async def _start_again_prepare(scene: Scene) -> Case:
    """A turn start claimed by a sender that died before sending it."""
    game_id = await started(scene, turn_seconds=3600)
    lease = scene.scheduler.lease
    assert await scene.storage.claim_notice(game_id, "start", 0, scene.clock.now, lease)
    scene.clock.now += lease + 1
    return Case(game_id, ALICE, (await scene.stored(game_id))[1])


async def _timeout_again_prepare(scene: Scene) -> Case:
    """A timeout stored with its announcement owed by a scheduler that died before sending it."""
    case = await _timed(scene, turn_seconds=3600, timeout_policy="skip")
    lease = scene.scheduler.lease
    scene.clock.now += 3601
    await scene.manager.play_turn(
        case.game_id, Timeout(announce_by=scene.clock.now + lease), turn=0
    )
    scene.clock.now += lease + 1
    case.before = (await scene.stored(case.game_id))[1]
    return case


async def _resume_prepare(scene: Scene) -> Case:
    game_id = await started(scene, clock=(300, 10))
    await scene.manager.clocks.vote_pause(game_id, ALICE, scene.clock.now + 60)
    assert (await scene.manager.clocks.vote_pause(game_id, BOB, None)).done
    scene.clock.now += 61
    return Case(game_id, ALICE, (await scene.stored(game_id))[1])


async def _tick_told(scene: Scene, case: Case, answer: Answer) -> None:
    """A tick never raises; what it announced was stored, and nothing twice."""
    assert answer.ok
    _, actions = await scene.stored(case.game_id)
    assert actions[: len(case.before)] == case.before
    timeouts = {a.turn for a in actions[len(case.before) :] if a.forced is not None}
    announced = {t for k, g, t in scene.notices.sent if k == "timeout" and g == case.game_id}
    assert announced <= timeouts | {a.turn for a in case.before if a.forced is not None}
    assert scene.notices.duplicates == []


async def _tick_goes_on(scene: Scene, case: Case, answer: Answer) -> None:
    """Ticks after the claims and the retry delay ran out: every notice owed goes out once,
    every timeout due is stored once and announced once."""
    for _ in range(2):
        scene.clock.now += scene.scheduler.retry_after + 1
        await scene.scheduler.tick()
    row, actions = await scene.stored(case.game_id)
    timeouts: dict[int, set[float]] = {}  # turn -> the times of its forced actions
    for a in actions:
        if a.forced is not None:
            timeouts.setdefault(a.turn, set()).add(a.created_at)
    assert all(len(times) == 1 for times in timeouts.values()), timeouts  # one write each
    announced = {t for k, g, t in scene.notices.sent if k == "timeout" and g == case.game_id}
    assert announced == set(timeouts)
    owed = [n for n in await scene.notice_rows() if n[0] == case.game_id]
    assert all(sent is not None for *_, sent in owed), owed
    assert scene.notices.duplicates == []
    for kind in case.extra.get("sent", ()):
        assert scene.notices.sent[(kind, case.game_id, 0)] == 1, kind
    assert row.clock_paused_until is None or row.clock_paused_until > scene.clock.now


def _scheduled(
    name: str,
    calls: tuple[int, int],
    prepare: Callable[[Scene], Awaitable[Case]],
    *sent: str,
    clock: bool = False,
) -> Operation:
    async def prepared(scene: Scene) -> Case:
        case = await prepare(scene)
        case.extra["sent"] = sent
        return case

    run = _clock_tick if clock else _tick
    return Operation(name, calls, prepared, run, _tick_told, _tick_goes_on)


OPERATIONS = [
    _move("move", (1, 2)),
    _move("move, play by post", (1, 2), turn_seconds=3600),
    _move("move, chess clock", (4, 5), clock=(300, 10)),
    Operation("resign", (1, 3), _resign_prepare, _resign_run, _resign_told, _resign_goes_on),
    Operation(
        "computer turn",
        (1, 3),
        _computer_prepare,
        _computer_run,
        _appended_or_not,
        _computer_goes_on,
    ),
    Operation("undo", (1, 3), _undo_prepare, _undo_run, _undone_or_not, _undo_goes_on),
    Operation("undo by vote", (1, 3), _vote_prepare, _undo_run, _undone_or_not, _undo_goes_on),
    Operation(
        "undo with a departure",
        (1, 3),
        _departure_prepare,
        _undo_run,
        _undone_or_not,
        _undo_goes_on,
    ),
    Operation("abandon", (1, 3), _abandon_prepare, _abandon_run, _abandon_told, _abandon_goes_on),
    Operation("pause agreed", (3, 4), _pause_prepare, _pause_run, _pause_told, _pause_goes_on),
    Operation("league result", (6, 8), _league_prepare, _resign_run, _league_told, _league_goes_on),
    _scheduled("timeout", (13, 16), _timeout_prepare, "timeout"),
    _scheduled("clock expiry", (8, 11), _clock_prepare, "timeout", clock=True),
    _scheduled("turn start notice", (13, 13), _start_prepare, "start"),
    _scheduled("reminder", (14, 14), _reminder_prepare, "reminder"),
    _scheduled("start notice sent again", (13, 13), _start_again_prepare, "start"),
    _scheduled("timeout announced again", (15, 16), _timeout_again_prepare, "timeout"),
    _scheduled("pause ends", (10, 10), _resume_prepare, "clock_resumed"),
]


async def _end(scene: Scene, case: Case) -> None:
    """Take the case's game out of later ticks."""
    await scene.storage.end_game(case.game_id, "abandoned", None, scene.clock.now)
    scene.manager.cache.drop(case.game_id)
    scene.clock.now += 86400


async def one_run(scene: Scene, op: Operation, at: int | None, point: Point) -> list[str]:
    case = await op.prepare(scene)
    scene.faults.arm(at, point)
    answer = await attempt(op.run(scene, case))
    calls = scene.faults.disarm()
    where = f"{op.name}: call {at} ({calls[at - 1] if at else '-'}) fails {point}"
    if at is not None:
        assert scene.faults.fired is not None, where
    try:
        await memory_is_storage(scene, case.game_id)
        await op.told(scene, case, answer)
        await op.goes_on(scene, case, answer)
        await memory_is_storage(scene, case.game_id)
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from error
    await _end(scene, case)
    return calls


@pytest.mark.parametrize("op", OPERATIONS, ids=[op.name for op in OPERATIONS])
async def test_a_failure_at_any_storage_call_leaves_nothing_half_done(
    scene: Scene, op: Operation
) -> None:
    calls = await one_run(scene, op, None, "before")
    assert len(calls) == op.calls[scene.engine == "postgresql"], calls
    for at in range(1, len(calls) + 1):
        for point in POINTS:
            assert (await one_run(scene, op, at, point))[:at] == calls[:at]
