"""The play-by-post scheduler: one periodic loop that turns stored deadlines into notices and moves.

Every ``interval`` seconds :meth:`Scheduler.tick` reads what is due from storage and acts on it:

1. vacations: deadlines of players whose absence ended resume (with the time they had left), and
   pending deadlines of players away are paused;
2. turn starts: each timed turn is announced once (:meth:`Notifier.turn_started`);
3. reminders: one per turn, at ``reminder_at`` of the turn's time (see
   :class:`bot.manager.base.ManagerBase`);
4. deadlines: the game's timeout policy is applied through
   :meth:`bot.manager.GameManager.play_turn` (by a :class:`~bot.manager.Timeout`) and announced
   (:meth:`Notifier.forced`);
5. digests: once a day per guild with a digest channel, the list of whose turn it is where;
6. retention: every ``retention_every`` seconds, the record of finished games past their
   server's ``keep_days`` is deleted (:meth:`bot.manager.privacy.PrivacyOps.delete_expired`);
7. tournaments: the games still in play when their play-by-post round's deadline comes are
   decided, and the next rounds paired
   (:meth:`bot.manager.tournaments.TournamentOps.run_deadlines`).

All state is in the database (the ``deadlines``, ``notices`` and ``digests`` tables), so a
restarted bot carries on where it stopped, and several bot processes can run a scheduler each on
one PostgreSQL database: every deadline is claimed by one of them (a compare-and-set, rows
another process holds are skipped). The clock is injectable, so tests drive days in milliseconds.

Turn starts and reminders are claimed *before* they are sent, in the transaction that marks their
deadline done (a timeout's announcement in the transaction of the forced move), and marked sent
only once sent (the ``notices`` outbox). Anything that fails in between (the process dies, the
database or the notifier raises) leaves the notice claimed: when the claim (``lease`` seconds)
runs out, a scheduler sends it again with ``again=True``, and the notifier first looks whether
it went out (Discord: the same text already in the channel), so a notice is never lost and
never shown twice. A failing game is logged and skipped (its deadline retried later); it never
stops the loop, nor the other games of its step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot import metrics
from bot.errors import Conflict, GameNotFound, GameOver, NotActive, StaleAction
from bot.manager.timing import DigestLine
from bot.manager.turns import Timeout
from bot.outcomes import MoveResult
from bot.storage import Deadline, GameRow, GuildSettings, NoticeKind, UserSettings
from bot.storage.sql import Storage

if TYPE_CHECKING:
    from bot.manager import GameManager

log = logging.getLogger(__name__)

DAY = 86400.0
#: A notice's kind and the end of the claim this process holds on it.
Held = tuple[NoticeKind, float]


@dataclass(frozen=True, slots=True)
class ForcedTurn:
    """A turn the bot ended because its time ran out: who was late, the policy, what happened."""

    policy: str
    turn: int
    seat: int
    user_id: int | None
    move: MoveResult
    #: False for an announcement sent late, after someone else played: the turn message of
    #: that later move shows the board, so only the timeout itself is told.
    last: bool = True


class Notifier(Protocol):
    """What the scheduler tells the players; the Discord layer implements it.

    Each method is called once for the same thing (turn, reminder, day), then again with
    ``again=True`` only if the first call may not have gone out: an exception raised by
    :meth:`turn_started`, :meth:`reminder` or :meth:`forced` is logged and the notice sent again
    once its claim runs out; the others are logged and not retried.
    """

    async def turn_started(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        """A timed turn began (``deadline.due_at`` ends it; ``paused_at`` set if away).

        ``again``: a process may have sent it before dying; send it only if it is not out."""

    async def reminder(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        """The one reminder of the turn, before ``deadline.due_at`` (``again``: as above)."""

    async def forced(self, game: GameRow, result: ForcedTurn, *, again: bool = False) -> None:
        """The bot ended a late player's turn; ``game`` is the row after it."""

    async def resumed(self, game: GameRow, user: UserSettings, deadline: Deadline) -> None:
        """The player in turn came back: their clock runs again until ``deadline.due_at``."""

    async def digest(self, guild: GuildSettings, lines: Sequence[DigestLine]) -> None:
        """The daily list of whose turn it is, for ``guild.digest_channel_id``."""

    async def clock_resumed(self, game: GameRow) -> None:
        """An agreed pause of the game's chess clock ended with the asker's absence."""


@dataclass
class TickReport:
    """What one tick did (for logs and tests)."""

    now: float
    started: list[tuple[int, int]] = field(default_factory=list)
    reminded: list[tuple[int, int]] = field(default_factory=list)
    forced: list[tuple[int, int, str]] = field(default_factory=list)
    resumed: list[tuple[int, int]] = field(default_factory=list)
    paused: int = 0
    digests: list[int] = field(default_factory=list)
    clocks_resumed: list[int] = field(default_factory=list)
    #: Finished games whose record was deleted (a server's ``keep_days``).
    deleted: list[int] = field(default_factory=list)
    #: Tournament games stopped and decided at their round's deadline.
    round_deadlines: list[int] = field(default_factory=list)
    failures: list[tuple[str, int]] = field(default_factory=list)


class Scheduler:
    """Deadlines, reminders, timeouts, vacations and digests of every game.

    >>> scheduler = Scheduler(manager, notifier)   # doctest: +SKIP
    >>> scheduler.start()                          # or call tick_safely() from any periodic loop

    The bot drives :meth:`tick_safely` from a ``discord.ext.tasks`` loop (see :mod:`bot.app`), whose
    clock and sleep follow simulated time in tests; :meth:`run` is the same loop with an
    injectable ``sleep``. :meth:`quiet` waits for a tick in progress, so a shutdown never cuts
    one in the middle.
    """

    def __init__(
        self,
        manager: GameManager,
        notifier: Notifier,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        interval: float = 30.0,
        digest_at: float = 9 * 3600,
        retry_after: float = 300.0,
        batch: int = 100,
        lease: float = 120.0,
        retention_every: float | None = 3600.0,
    ) -> None:
        """``digest_at``: seconds after midnight UTC when the daily digests go out;
        ``retry_after``: how long a deadline that failed waits before the next attempt;
        ``lease``: how long a claimed notice waits for its sender before another sends it;
        ``retention_every``: how often old finished games are deleted (None: never, here)."""
        self.manager = manager
        self.notifier = notifier
        self.clock = clock or manager.clock
        self._sleep = sleep
        self.interval = interval
        self.digest_at = digest_at
        self.retry_after = retry_after
        self.batch = batch
        self.lease = lease
        self.retention_every = retention_every
        self._retention_at: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._ticking = asyncio.Lock()

    @property
    def storage(self) -> Storage:
        return self.manager.storage

    # -- the loop ---------------------------------------------------------------------------

    async def run(self, ticks: int | None = None) -> None:
        """Tick every ``interval`` seconds, forever (or ``ticks`` times)."""
        count = 0
        while ticks is None or count < ticks:
            await self.tick_safely()
            count += 1
            await self._sleep(self.interval)

    async def tick_safely(self) -> TickReport | None:
        """One :meth:`tick` that never raises (a failure is logged and retried next time)."""
        async with self._ticking:
            try:
                return await self.tick()
            except Exception:
                log.exception("scheduler tick failed; trying again next time")
                return None

    @contextlib.asynccontextmanager
    async def quiet(self) -> AsyncIterator[None]:
        """Hold off ticks (waiting for the one in progress) for the duration of the block."""
        async with self._ticking:
            yield

    def start(self) -> asyncio.Task[None]:
        """Run the loop in the background (once); :meth:`stop` ends it."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="carcassonne-scheduler")
        return self._task

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            async with self._ticking:  # let a tick in progress finish first
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def tick(self) -> TickReport:
        """Do everything due now; each step and each game fails alone."""
        report = TickReport(self.clock())
        steps = (
            self._vacations,
            self._pauses,
            self._unsent,
            self._turn_starts,
            self._deadlines,
            self._digests,
            self._retention,
            self._tournaments,
        )
        return await self._run(report, steps)

    async def tick_clocks(self) -> TickReport | None:
        """The steps chess clocks need (pauses ending, deadlines due), when one runs out between
        two ticks (see :mod:`bot.alarm`); never raises."""
        async with self._ticking:
            try:
                report = TickReport(self.clock())
                return await self._run(report, (self._pauses, self._unsent, self._deadlines))
            except Exception:
                log.exception("scheduler clock tick failed; trying again next time")
                return None

    async def _run(
        self, report: TickReport, steps: Sequence[Callable[[TickReport], Awaitable[None]]]
    ) -> TickReport:
        for step in steps:
            try:
                await step(report)
            except Exception:
                log.exception("scheduler step %s failed", step.__name__)
                report.failures.append((step.__name__, 0))
        return report

    # -- the steps --------------------------------------------------------------------------

    async def _vacations(self, report: TickReport) -> None:
        now = report.now
        for deadline in await self.storage.resume_deadlines(now):
            if deadline.kind != "turn":
                continue
            report.resumed.append((deadline.game_id, deadline.turn))
            await self._notify(report, deadline, self.notifier.resumed)
        report.paused = await self.storage.pause_deadlines(now)

    async def _pauses(self, report: TickReport) -> None:
        """Chess clocks paused by agreement whose asker's absence ended run again."""
        for game_id in await self.storage.pauses_ending(report.now):
            try:
                row = await self.manager.clocks.resume_clock(game_id)
                if row is None:
                    continue
                report.clocks_resumed.append(game_id)
                await self.notifier.clock_resumed(row)
            except Exception:
                log.exception("resuming the clock of game %s failed", game_id)
                report.failures.append(("clock_resumed", game_id))

    async def _unsent(self, report: TickReport) -> None:
        """Notices claimed but not marked sent (their sender died, or failed): sent again if
        not out already. The listing claims them again for this process."""
        now = report.now
        for game_id, kind, turn in await self.storage.expired_notices(now, self.lease):
            held: tuple[NoticeKind, float] = (kind, now + self.lease)
            if metrics.ON:
                metrics.NOTICES_RETRIED.labels(kind).inc()
            try:
                if kind == "timeout":
                    sent = await self._announce_again(report, game_id, turn)
                else:
                    sent = await self._send_again(report, game_id, kind, turn, held)
                if sent:
                    await self.storage.notice_sent(game_id, kind, turn, now)
            except Exception:
                log.exception("notice %s of game %s turn %s failed again", kind, game_id, turn)
                report.failures.append((kind, game_id))

    async def _send_again(
        self, report: TickReport, game_id: int, kind: NoticeKind, turn: int, held: Held
    ) -> bool:
        """A turn start or reminder sent again (see :meth:`_unsent`); whether it is done."""
        row = await self._turn_row(game_id, turn)
        if row is None or (row.paused_at is None and row.due_at <= report.now):
            return True  # the turn is over, or late: its timeout says it all
        if kind == "start":
            report.started.append((game_id, turn))
            return await self._notify(report, row, self.notifier.turn_started, True, held)
        report.reminded.append((game_id, turn))
        return await self._notify(report, row, self.notifier.reminder, True, held)

    async def _turn_starts(self, report: TickReport) -> None:
        now = report.now
        for deadline in await self.storage.unnotified_turns(self.batch):
            key = key_of(deadline, "start")
            try:
                if not await self.storage.claim_notice(*key, now, self.lease):
                    continue
                sent = True  # already late: the timeout's announcement says it all
                if deadline.paused_at is not None or deadline.due_at > now:
                    report.started.append((deadline.game_id, deadline.turn))
                    held: Held = ("start", now + self.lease)
                    send = self.notifier.turn_started
                    sent = await self._notify(report, deadline, send, False, held)
                if sent:
                    await self.storage.notice_sent(*key, now)
            except Exception:
                log.exception("the start of game %s turn %s failed", *key[::2])
                report.failures.append(("turn_started", deadline.game_id))

    async def _deadlines(self, report: TickReport) -> None:
        due = await self.storage.due_deadlines(report.now, self.batch)
        ending = {(d.game_id, d.turn) for d in due if d.kind == "turn"}
        for deadline in due:
            if metrics.ON:  # how late this tick (or the chess clocks' alarm) is on it
                metrics.SCHEDULER_LAG.observe(max(0.0, report.now - deadline.due_at))
            try:
                await self._fire(report, deadline, ending)
            except Exception:
                log.exception("deadline %s of game %s failed", deadline.kind, deadline.game_id)
                report.failures.append((deadline.kind, deadline.game_id))

    async def _fire(
        self, report: TickReport, deadline: Deadline, ending: set[tuple[int, int]]
    ) -> None:
        """One deadline due: a reminder, or the end of a turn's time or of a chess clock's."""
        now = report.now
        key = (deadline.game_id, deadline.turn)
        if deadline.kind == "reminder":
            reminder = key_of(deadline, "reminder")
            if not await self.storage.claim_notice(*reminder, now, self.lease):
                return
            sent = True
            if key not in ending:  # no reminder for a turn ending right now
                turn = await self._turn_row(*key)
                if turn is not None:
                    report.reminded.append(key)
                    held: Held = ("reminder", now + self.lease)
                    sent = await self._notify(report, turn, self.notifier.reminder, False, held)
            if sent:
                await self.storage.notice_sent(*reminder, now)
        elif deadline.kind in ("turn", "clock"):  # a turn's time, or a chess clock's bank
            await self._time_out(report, deadline)
        else:
            log.warning("unknown deadline kind %r of game %s", deadline.kind, key[0])
            await self.storage.complete_deadline(*_id(deadline), now)

    async def _time_out(self, report: TickReport, deadline: Deadline) -> None:
        game_id, turn = deadline.game_id, deadline.turn
        try:
            before = await self.manager.game(game_id)
            move = await self.manager.play_turn(
                game_id, Timeout(announce_by=report.now + self.lease), turn=turn
            )
        except (StaleAction, GameOver, NotActive, GameNotFound) as gone:
            # The turn was played or the game ended meanwhile: nothing to force any more.
            log.info("deadline of game %s turn %s is stale: %s", game_id, turn, gone)
            await self.storage.complete_deadline(game_id, deadline.kind, turn, report.now)
            return
        except Conflict:
            # Another bot process moved the game first (this one's copy was behind and is
            # dropped): the next tick looks again, with the game as stored.
            log.info("timeout of game %s turn %s met another process's move", game_id, turn)
            return
        except Exception:
            # Not stored (or unknown: a stored timeout owes its announcement, sent by
            # _unsent once its claim runs out).
            log.exception("timeout of game %s turn %s failed; retrying later", game_id, turn)
            report.failures.append(("timeout", game_id))
            await self.storage.postpone_deadline(
                game_id, deadline.kind, turn, report.now + self.retry_after
            )
            return
        policy = move.played[0].forced if move.played else None
        forced = ForcedTurn(
            policy or before.timeout_policy,
            turn,
            before.current_seat if before.current_seat is not None else -1,
            deadline.user_id,
            move,
        )
        report.forced.append((game_id, turn, forced.policy))
        try:
            # Stored: from here on a failure leaves the announcement owed, sent again later.
            if await self._hold(game_id, turn, "timeout", report.now + self.lease):
                await self.notifier.forced(move.view.game, forced)
                _sent("timeout")
                await self.storage.notice_sent(game_id, "timeout", turn, report.now)
        except Exception:
            log.exception("announcing the timeout of game %s turn %s failed", game_id, turn)
            report.failures.append(("forced", game_id))

    async def _announce_again(self, report: TickReport, game_id: int, turn: int) -> bool:
        """Announce a timeout whose announcement is owed (its process died, or failed),
        unless it went out; whether it is done."""
        found = await self.manager.forced_move(game_id, turn)
        if found is None:
            return True  # no timeout ended that turn: nothing to announce
        policy, seat, move, last = found
        row = move.view.game
        user = row.seats[seat].user_id if 0 <= seat < len(row.seats) else None
        forced = ForcedTurn(policy, turn, seat, user, move, last)
        report.forced.append((game_id, turn, policy))
        if not await self._hold(game_id, turn, "timeout", report.now + self.lease):
            return False
        await self.notifier.forced(row, forced, again=True)
        _sent("timeout")
        return True

    async def _digests(self, report: TickReport) -> None:
        for guild, last in await self.storage.digest_guilds():
            if last is not None and self._day(last) >= self._day(report.now):
                continue
            try:
                lines = await self.manager.timing.digest_lines(guild.guild_id)
                if not await self.storage.claim_digest(guild.guild_id, last, report.now):
                    continue
                if lines:
                    report.digests.append(guild.guild_id)
                    await self.notifier.digest(guild, lines)
            except Exception:
                log.exception("the digest of guild %s failed", guild.guild_id)
                report.failures.append(("digest", guild.guild_id))

    # -- helpers ----------------------------------------------------------------------------

    async def _retention(self, report: TickReport) -> None:
        """Delete the finished games their servers keep no longer, once per ``retention_every``
        (any process may: a game's record is deleted once, in one transaction)."""
        if self.retention_every is None:
            return
        if self._retention_at is not None and report.now < self._retention_at:
            return
        self._retention_at = report.now + self.retention_every
        report.deleted += await self.manager.privacy.delete_expired()

    async def _tournaments(self, report: TickReport) -> None:
        """Decide the tournament games whose round's deadline has come (one process at a time
        per tournament; a table is decided once, a round paired once)."""
        report.round_deadlines += await self.manager.tournaments.run_deadlines()

    def _day(self, when: float) -> int:
        """The digest day of a time: days change at ``digest_at`` UTC."""
        return math.floor((when - self.digest_at) / DAY)

    async def _turn_row(self, game_id: int, turn: int) -> Deadline | None:
        """The pending ``turn`` deadline of ``turn`` in the game, if it still runs."""
        for row in await self.storage.deadlines(game_id):
            if row.kind == "turn" and row.turn == turn and row.done_at is None:
                return row
        return None

    async def _hold(self, game_id: int, turn: int, kind: NoticeKind, held: float) -> bool:
        """Renew this process's claim on a notice just before sending it. A process slowed
        past its claim (a busy machine, a long pause) finds it taken over and sends nothing:
        the process that took it over sends it, after looking whether it went out."""
        until = self.clock() + self.lease
        renewed = await self.storage.renew_notice(game_id, kind, turn, held, until)
        if not renewed:
            log.info(
                "notice %s of game %s turn %s: claim taken over, not sent here",
                kind, game_id, turn,
            )  # fmt: skip
        return renewed

    async def _notify(
        self,
        report: TickReport,
        deadline: Deadline,
        send: Callable[..., Awaitable[None]],
        again: bool = False,
        held: Held | None = None,
    ) -> bool:
        """Send one notice about ``deadline``'s game if it still waits for that turn, and if
        this process still holds its claim (``held``: the notice's kind and the claim's end
        as this process set it). Whether it is done: sent, or no longer to send. Not done
        (False) when the claim was taken over, or anything failed (logged): the notice stays
        owed and is sent again once its claim runs out."""
        try:
            # As stored, not as cached: another bot process may have moved the game.
            game = await self.storage.get_game(deadline.game_id)
            if game is None or game.status != "active" or game.turn != deadline.turn:
                return True
            user = await self.storage.user_settings(game.current_user or deadline.user_id or 0)
            if held is not None and not await self._hold(deadline.game_id, deadline.turn, *held):
                return False
            if again:
                await send(game, user, deadline, again=True)
            else:
                await send(game, user, deadline)
            _sent(held[0] if held is not None else send.__name__)
            return True
        except Exception:
            log.exception("a notice for game %s turn %s failed", deadline.game_id, deadline.turn)
            report.failures.append((send.__name__, deadline.game_id))
            return False


def _sent(kind: str) -> None:
    """A notice of ``kind`` handed to the notifier (or, sent again, found out already)."""
    if metrics.ON:
        metrics.NOTICES_SENT.labels(kind).inc()


def _id(deadline: Deadline) -> tuple[int, str, int]:
    return deadline.game_id, deadline.kind, deadline.turn


def key_of(deadline: Deadline, kind: NoticeKind) -> tuple[int, NoticeKind, int]:
    """The key of a notice about ``deadline``'s turn (the ``notices`` table's)."""
    return deadline.game_id, kind, deadline.turn
