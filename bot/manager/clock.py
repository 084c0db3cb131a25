"""The chess clock of live games: a bank of time per player, an increment per turn, agreed pauses.

A game with a chess clock (``clock_bank`` seconds per player, ``clock_increment`` seconds per
turn) keeps each seat's bank in its seat row, as it stands before the seat's next turn. A
person's turn starting at ``t`` gets one ``clock`` deadline, due at ``t + bank + increment``; when
the turn ends at ``now``, the seat's bank becomes what was left of that (never below zero), and
a timeout empties it, so the player's later turns have the increment only. Nothing runs in
memory: a bank changes only when a turn ends, in the transaction that saves the move, and the
turn in play is a stored deadline the scheduler fires (:mod:`bot.scheduler`) after a restart
as before it.

One player's absence pauses no chess clock (``away`` pauses play-by-post turns only). A player
going away asks the table instead: every person still playing must agree (the same agreement as
an abandon), and then the clock of every player stops (the deadline's ``paused_at`` and the
game's ``clock_paused_at``) until the asker's absence ends or someone says they are back. Moves
made meanwhile start the next turn paused.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from bot.errors import BadSettings, ClockRanOut, NoClock, NotAPlayer, PauseOver
from bot.live import LiveGame
from bot.manager.base import ManagerBase, require_active
from bot.storage import Deadline, GameRow, SeatRow

log = logging.getLogger(__name__)

#: The lobby's presets: name -> (bank, increment) in seconds; ``off`` is no chess clock.
PRESETS: dict[str, tuple[int, int]] = {
    "5+10": (5 * 60, 10),
    "10+20": (10 * 60, 20),
    "20+30": (20 * 60, 30),
}
#: The bounds of a custom clock: a bank of 1 to 180 minutes, an increment of 0 to 300 seconds.
MAX_BANK = 180 * 60
MAX_INCREMENT = 300


def check_clock(bank: int | None, increment: int) -> None:
    """Refuse a clock outside the bounds (a bank of None is no clock)."""
    if bank is None:
        return
    if not isinstance(bank, int) or not 60 <= bank <= MAX_BANK:
        raise BadSettings(reason=f"a chess clock's bank is 1 to {MAX_BANK // 60} minutes")
    if not isinstance(increment, int) or not 0 <= increment <= MAX_INCREMENT:
        raise BadSettings(reason=f"a chess clock's increment is 0 to {MAX_INCREMENT} seconds")


def with_clock(row: GameRow, clock: tuple[int, int]) -> GameRow:
    """The lobby with the chess clock ``(bank, increment)`` (a bank of 0: none). A game has a
    chess clock or a time per turn (play by post), never both."""
    bank, increment = clock
    if bank == 0:
        return dataclasses.replace(row, clock_bank=None, clock_increment=0)
    check_clock(bank, increment)
    return dataclasses.replace(row, clock_bank=bank, clock_increment=increment, turn_seconds=None)


def first_banks(row: GameRow) -> tuple[SeatRow, ...]:
    """The seats of a game starting, each with a full bank (unchanged without a clock)."""
    if row.clock_bank is None:
        return row.seats
    return tuple(dataclasses.replace(s, bank=float(row.clock_bank)) for s in row.seats)


@dataclass(frozen=True, slots=True)
class ChessClock:
    """A chess clock as players see it: each seat's bank now (the seat in turn: what is left of
    its bank and increment), when the turn in play runs out, whether an agreed pause holds."""

    game_id: int
    turn: int
    seat: int | None  # the seat whose clock runs (None: nobody's, e.g. a computer's turn)
    due_at: float | None
    banks: tuple[float | None, ...]
    increment: int
    paused: bool
    paused_until: float | None


@dataclass(frozen=True, slots=True)
class PauseVote:
    """Where a request to pause a game's clock stands; ``done``: the clock is paused."""

    done: bool
    votes: frozenset[int]
    needed: frozenset[int]
    row: GameRow
    until: float | None
    asker: int | None = None


def voters(row: GameRow) -> frozenset[int]:
    """Who must agree to a pause: the people still playing (computers agree)."""
    return frozenset(s.user_id for s in row.seats if s.status == "playing" and s.computer is None)


class ClockOps:
    """Chess clocks: banks at the end of a turn, the flag, pauses by agreement."""

    def __init__(self, core: ManagerBase) -> None:
        self.core = core

    async def _running(self, row: GameRow) -> Deadline | None:
        """The pending clock deadline of the turn in play, as stored."""
        for deadline in await self.core.storage.deadlines(row.id):
            if deadline.kind == "clock" and deadline.done_at is None and deadline.turn == row.turn:
                return deadline
        return None

    async def turn_ended(
        self, row: GameRow, seats: tuple[SeatRow, ...], now: float, *, spent: bool
    ) -> tuple[SeatRow, ...]:
        """The seats with the bank of the player whose turn just ended written back: what was
        left at ``now`` (frozen during a pause), or nothing after a timeout (``spent``)."""
        running = await self._running(row)
        if running is None:
            return seats  # a computer's turn, or no clock: no bank to keep
        left = 0.0 if spent else max(0.0, running.remaining(now))
        owner = next((s.seat for s in seats if s.user_id == running.user_id), None)
        return tuple(dataclasses.replace(s, bank=left) if s.seat == owner else s for s in seats)

    async def require_time(self, live: LiveGame, now: float) -> None:
        """Refuse a move once the turn's bank has run out: the timeout policy ends that turn."""
        if live.row.clock_bank is None:
            return
        running = await self._running(live.row)
        if running is not None and running.paused_at is None and running.due_at <= now:
            raise ClockRanOut()

    async def chess_clock(self, game_id: int) -> ChessClock | None:
        """The game's chess clock now; None if the game has none or is not in play."""
        row = await self.core.game(game_id)
        if row.clock_bank is None or row.status != "active":
            return None
        running = await self._running(row)
        now = self.core.clock()
        banks = [s.bank if s.bank is not None else float(row.clock_bank) for s in row.seats]
        seat = None
        if running is not None:
            seat = next((s.seat for s in row.seats if s.user_id == running.user_id), None)
            if seat is not None:
                banks[seat] = max(0.0, running.remaining(now))
        paused_at = await self.core.storage.clock_pause(game_id)
        return ChessClock(
            game_id=game_id,
            turn=row.turn,
            seat=seat,
            due_at=None if running is None else running.due_at,
            banks=tuple(banks),
            increment=row.clock_increment,
            paused=paused_at is not None,
            paused_until=row.clock_paused_until if paused_at is not None else None,
        )

    # -- pauses by agreement ----------------------------------------------------------------

    async def vote_pause(self, game_id: int, user_id: int, until: float | None) -> PauseVote:
        """A vote to pause the clock of a live game. A player going away asks (``until``: when
        their absence ends, which opens the request); every person still playing agrees; the
        last vote pauses the clock of every player. Refused with :class:`PauseOver` when no
        request is open (already paused, refused, or never asked)."""
        async with self.core.lock(game_id):
            row = await self.core.game(game_id)
            require_active(row)
            if row.clock_bank is None:
                raise NoClock(game_id=game_id)
            needed = voters(row)
            if user_id not in needed:
                raise NotAPlayer(game_id=game_id)
            if await self.core.storage.clock_pause(game_id) is not None:
                raise PauseOver()
            now = self.core.clock()
            votes = await self.core.storage.add_pause_vote(game_id, user_id, now, until)
            asked = {user: u for user, u in votes.items() if u is not None}
            if not asked:  # an answer without a request is not kept
                await self.core.storage.clear_pause_votes(game_id)
                raise PauseOver()
            asker = max(asked, key=lambda user: asked[user])
            end = asked[asker]
            done = needed <= set(votes)
            if done:

                async def landed() -> bool:
                    return await self.core.storage.clock_pause(game_id) == now

                write = self.core.storage.pause_clock(game_id, now, end)
                if await self.core.durable_write(game_id, write, landed, True):
                    row = self._paused(row, now, end)
                else:  # paused already (by another process): as stored
                    row = await self._reload(game_id)
                log.info("game %s: clock paused until %s by agreement", game_id, end)
                self.core.timers_changed()
            return PauseVote(done, frozenset(votes), needed, row, end, asker)

    async def refuse_pause(self, game_id: int, user_id: int) -> GameRow:
        """A player still in the game refuses the pause asked for: the request is dropped."""
        async with self.core.lock(game_id):
            row = await self.core.game(game_id)
            require_active(row)
            if user_id not in voters(row):
                raise NotAPlayer(game_id=game_id)
            votes = await self.core.storage.add_pause_vote(game_id, user_id, self.core.clock())
            await self.core.storage.clear_pause_votes(game_id)
            if not any(u is not None for u in votes.values()):
                raise PauseOver()
            return row

    async def resume_clock(self, game_id: int, user_id: int | None = None) -> GameRow | None:
        """End the game's agreed pause (a player is back, or, with no ``user_id``, the asker's
        absence ended); None if the clock was not paused."""
        async with self.core.lock(game_id):
            row = await self.core.read_row(game_id)  # as stored: the pause is not in a move
            if user_id is not None and row.seat_of(user_id) is None:
                raise NotAPlayer(game_id=game_id)
            now = self.core.clock()
            if user_id is None and row.clock_paused_until is not None:
                now = min(now, row.clock_paused_until)  # a late tick gives no time away
            was_paused = row.clock_paused_at is not None

            async def landed() -> bool:
                return was_paused and await self.core.storage.clock_pause(game_id) is None

            write = self.core.storage.resume_clock(game_id, now)
            if not await self.core.durable_write(game_id, write, landed, True):
                return None
            log.info("game %s: clock resumed (by %s)", game_id, user_id or "the scheduler")
            self.core.timers_changed()
            return self._paused(row, None, None)

    async def player_back(self, game_id: int, user_id: int) -> GameRow | None:
        """A player of an agreed pause is back: the pause requests still open end, and the
        clock runs again (see :meth:`resume_clock`)."""
        await self.core.storage.clear_pause_votes(game_id)
        return await self.resume_clock(game_id, user_id)

    def _paused(self, row: GameRow, at: float | None, until: float | None) -> GameRow:
        """``row`` with the agreed pause just stored (none: ``at`` None), also in the
        live-game cache: no read after the write, which could fail once it is durable."""
        live = self.core.cache.get(row.id)
        if live is not None:
            live.row = dataclasses.replace(live.row, clock_paused_at=at, clock_paused_until=until)
        return dataclasses.replace(row, clock_paused_at=at, clock_paused_until=until)

    async def _reload(self, game_id: int) -> GameRow:
        """The stored row after a pause changed, also in the live-game cache."""
        row = await self.core.read_row(game_id)
        return self._paused(row, row.clock_paused_at, row.clock_paused_until)
