"""Play-by-post operations of the game manager: vacations, turn clocks, the guild digest.

A player going away pauses the deadlines of every game waiting for them (and of any turn that
comes to them while away); when they come back, each deadline resumes with the time that was left.
The clocks and the digest lines are plain values the Discord layer shows as they are, e.g. the
deadline as a relative timestamp (``<t:DUE:R>``) and "away until ..." beside a paused clock.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from bot.errors import BadSettings
from bot.manager.base import ManagerBase
from bot.storage import Deadline, UserSettings

log = logging.getLogger(__name__)

#: The longest vacation a player may declare at once, in seconds.
MAX_AWAY = 60 * 86400


@dataclass(frozen=True, slots=True)
class TurnClock:
    """Where the current turn of a timed game stands.

    ``due_at`` is when the turn ends if nobody pauses it again; while the player is away the
    clock is ``paused`` and ``remaining`` stays frozen; ``away_until`` says until when.
    """

    game_id: int
    turn: int
    user_id: int | None
    due_at: float
    remaining: float
    paused: bool
    away_until: float | None

    @classmethod
    def of(cls, deadline: Deadline, user: UserSettings | None, now: float) -> TurnClock:
        away = user.away_until if user is not None else None
        return cls(
            game_id=deadline.game_id,
            turn=deadline.turn,
            user_id=deadline.user_id,
            due_at=deadline.due_at,
            remaining=max(0.0, deadline.remaining(now)),
            paused=deadline.paused_at is not None,
            away_until=away if away is not None and away > now else None,
        )


@dataclass(frozen=True, slots=True)
class DigestLine:
    """One game of a guild's digest: whose turn it is, where, and until when."""

    game_id: int
    channel_id: int | None
    thread_id: int | None
    turn: int
    user_id: int
    player: str
    clock: TurnClock | None  # None for a game without a time limit


class TimingOps:
    """Play-by-post timing: turn clocks, absences, the daily digest."""

    def __init__(self, core: ManagerBase) -> None:
        self.core = core

    # -- vacations --------------------------------------------------------------------------

    async def set_away(self, user_id: int, until: float | None) -> UserSettings:
        """``user_id`` is away until ``until`` (Unix seconds), or back now if ``None``.

        Their deadlines pause at once and resume with the time that was left when they come
        back (early with ``None``, or when ``until`` passes, see :mod:`bot.scheduler`).
        """
        now = self.core.clock()
        if until is not None:
            if until <= now:
                raise BadSettings(reason="the end of your absence must be in the future")
            if until > now + MAX_AWAY:
                raise BadSettings(reason=f"an absence lasts at most {MAX_AWAY // 86400} days")
        current = await self.core.storage.user_settings(user_id)
        settings = dataclasses.replace(current, away_until=until)
        await self.core.storage.save_user_settings(settings, now)
        if until is None:
            resumed = await self.core.storage.resume_deadlines(now, user_id)
            log.info("user %s is back: %d deadlines resumed", user_id, len(resumed))
        else:
            paused = await self.core.storage.pause_deadlines(now, user_id)
            log.info("user %s is away until %s: %d deadlines paused", user_id, until, paused)
        return settings

    # -- clocks and the digest --------------------------------------------------------------

    async def turn_clock(self, game_id: int) -> TurnClock | None:
        """The clock of the game's current turn; ``None`` if the game has no time limit."""
        timers = [d for d in await self.core.storage.deadlines(game_id) if d.kind == "turn"]
        pending = [d for d in timers if d.done_at is None]
        if not pending:
            return None
        deadline = pending[0]
        user = None
        if deadline.user_id is not None:
            user = await self.core.storage.user_settings(deadline.user_id)
        return TurnClock.of(deadline, user, self.core.clock())

    async def digest_lines(self, guild_id: int) -> list[DigestLine]:
        """Every active public game of the guild with whose turn it is, the most pressing
        first (the digest is posted in a channel: private games are left out)."""
        lines: list[DigestLine] = []
        for row in await self.core.storage.list_games(guild_id=guild_id, statuses=("active",)):
            if row.private:
                continue
            seat = row.current_seat
            if seat is None or seat >= len(row.seats):
                continue
            clock = await self.turn_clock(row.id)
            held = row.seats[seat]
            lines.append(
                DigestLine(
                    row.id, row.channel_id, row.thread_id, row.turn, held.user_id, held.name, clock
                )
            )
        return sorted(lines, key=_urgency)


def _urgency(line: DigestLine) -> tuple[int, float, int]:
    """Running clocks first, soonest due first; then paused clocks; then untimed games."""
    if line.clock is None:
        return (2, 0.0, line.game_id)
    return (1 if line.clock.paused else 0, line.clock.remaining, line.game_id)
