"""The game manager's foundation: locks, the live-game cache, loading by replay, rendering.

:class:`bot.manager.GameManager` extends it with the turns and hands it to its services
(:mod:`bot.manager.lobbies`, :mod:`.records`, :mod:`.timing`, :mod:`.leagues`...); see
:mod:`bot.manager` for the policies.

What a service may use of the core is public here (see :class:`ManagerBase`): the time and new
seeds (:attr:`~ManagerBase.clock`, :attr:`~ManagerBase.seeds`), the storage and the live-game
cache, a game's lock and its live game (:meth:`~ManagerBase.hold`), its row as stored
(:meth:`~ManagerBase.read_row`), the timers of a turn starting (:meth:`~ManagerBase.turn_timers`),
a durable write (:meth:`~ManagerBase.durable_write`) and, after one, the announcements
(:meth:`~ManagerBase.timers_changed`, :meth:`~ManagerBase.game_changed`). The rest (``_live``,
``_read``, the turns' own members) is the core's.

A change is told in the process that made it (:meth:`~ManagerBase.on_game_change`) and, on a
database shared by several bot processes (PostgreSQL), announced to all of them
(:meth:`~ManagerBase.on_remote_change`: a live board shows the moves made in any process).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Self, TypeVar

from bot.computers import ComputerPlayers
from bot.errors import (
    BadSettings,
    Conflict,
    CorruptGame,
    GameNotFound,
    GameOver,
    NotActive,
    Unsure,
    reason,
)
from bot.live import ENGINE_STATES, LIVE_GAMES, LiveCache, LiveGame, replay
from bot.outcomes import TurnView
from bot.storage import (
    TIMEOUT_POLICIES,
    ActionRow,
    Deadline,
    GameRow,
    SeatRow,
    WriteConflict,
)
from bot.storage.backends import open_storage
from bot.storage.db import Listening
from bot.storage.sql import Storage
from engine import Game

log = logging.getLogger(__name__)


#: Draws the board of a game as PNG bytes; called in a worker thread.
Renderer = Callable[[Game], bytes]
#: Told after a game changed (started, moved, undone, ended): the row as saved, and whether a
#: new turn began (see :meth:`ManagerBase.on_game_change`).
GameListener = Callable[[GameRow, bool], Awaitable[None]]
#: Told a game's id when any bot process on the database changed it (see
#: :meth:`ManagerBase.on_remote_change`).
RemoteListener = Callable[[int], None]
#: Told that changes may have been missed (see :meth:`ManagerBase.on_remote_change`).
ResyncListener = Callable[[], None]
#: Told once when a game is saved as finished: the game as it ended, its lock held (see
#: :meth:`ManagerBase.on_game_end`).
EndListener = Callable[[LiveGame], Awaitable[None]]
#: Reads of a game's row and actions before giving up on a game other processes keep moving.
READ_TRIES = 5
#: The reminder fires when this share of the turn's time has passed.
REMINDER_AT = 0.75
#: Seconds before the first read again of a write whose answer was lost (doubled each time).
RETRY_PAUSE = 0.05

T = TypeVar("T")


class ManagerBase:
    """State shared by every manager operation: storage, live games, locks, clock, seeds. The
    manager extends it with the turns and hands it to its services.

    The services use its public members only: :attr:`storage`, :attr:`cache`, :attr:`clock`
    (``core.clock()`` is now), :attr:`seeds` (``core.seeds()`` a new game seed), :meth:`lock`,
    :meth:`hold` (the lock and the live game), :meth:`game` and :meth:`read_row` (a game's row,
    cached or as stored), :meth:`turn_timers`, :meth:`durable_write`, and after a durable write
    :meth:`timers_changed` and :meth:`game_changed`. Tests fix the time and the seeds by
    setting :attr:`clock` and :attr:`seeds` (or by the constructor's ``clock`` and ``seeds``).
    """

    def __init__(
        self,
        storage: Storage,
        *,
        renderer: Renderer | None = None,
        cache_size: int = LIVE_GAMES,
        engine_states: int = ENGINE_STATES,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
        reminder_at: float = REMINDER_AT,
        computers: ComputerPlayers | None = None,
    ) -> None:
        if not 0 < reminder_at < 1:
            raise ValueError("reminder_at is a share of the turn's time, between 0 and 1")
        self.storage = storage
        self.reminder_at = reminder_at
        self.renderer = renderer
        #: Where computer players' turns are decided (worker processes).
        self.computers = computers or ComputerPlayers()
        self.cache = LiveCache(cache_size, engine_states)
        self._clock = clock
        #: Draws a new game's seed (``seeds()``); a test sets it to fix the stack.
        self.seeds = seeds
        #: Called (without arguments) whenever a game's stored timers change (see bot.alarm).
        self.timer_listeners: list[Callable[[], None]] = []
        # Weak: a lock lives while someone holds or waits for it, so idle games cost nothing.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listeners: list[GameListener] = []
        self._end_listeners: list[EndListener] = []
        self._remote_listeners: list[tuple[RemoteListener, ResyncListener | None]] = []
        self._listening: Listening | None = None
        self._starting_listening = asyncio.Lock()

    @classmethod
    async def open(cls, location: str, **options: Any) -> Self:
        """A manager on the database at ``location`` (see :mod:`bot.storage.backends`)."""
        return cls(await open_storage(location), **options)

    async def close(self) -> None:
        self.computers.close()
        if self._listening is not None:
            await self._listening.close()
            self._listening = None
        await self.storage.close()

    @property
    def clock(self) -> Callable[[], float]:
        """The manager's time source (Unix seconds): ``clock()`` is now. The scheduler shares
        it; a test sets it to fix the time."""
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._clock = clock

    async def settle(self) -> None:
        """Wait until the moves in progress have finished (each holds its game's lock)."""
        for lock in list(self._locks.values()):
            async with lock:
                pass

    def on_game_change(self, listener: GameListener) -> None:
        """Call ``listener(row, turn_started)`` after each saved change of a game: its start,
        a move (``turn_started`` when the move began a new turn), an undo, its end or abandon.
        Listeners run in the process that made the change; one that fails is logged."""
        self._listeners.append(listener)

    async def game_changed(self, row: GameRow, *, turn_started: bool = False) -> None:
        """Tell the listeners of :meth:`on_game_change` that ``row`` was saved. Called after a
        durable write: a listener that fails is logged, never the write's."""
        for listener in self._listeners:
            try:
                await listener(row, turn_started)
            except Exception:
                log.exception("a listener of game %s's changes failed", row.id)
        if self.storage.shared:  # the other processes' listeners (see on_remote_change)
            try:
                await self.storage.announce(row.id)
            except Exception:
                log.exception("game %s's change could not be announced to other processes", row.id)

    async def on_remote_change(
        self, changed: RemoteListener, resync: ResyncListener | None = None
    ) -> None:
        """Call ``changed(game_id)`` after each saved change of a game (as
        :meth:`on_game_change` tells) made by any bot process on a shared database
        (PostgreSQL), within a fraction of a second: this process's changes too, after its
        listeners of :meth:`on_game_change` (a listener of both de-duplicates). ``resync()``
        when changes may have been missed (the database's listening connection was lost, and
        is back): read again whatever is shown. On SQLite (one process per database) neither
        is ever called: :meth:`on_game_change` tells every change.

        Plain functions, called in the event loop: one with work to await starts a task of its
        own; one that fails is logged. The first subscription starts listening (one
        connection of the database for the manager), and when it returns every change stored
        after is heard; :meth:`close` stops it."""
        async with self._starting_listening:
            if self._listening is None:
                self._listening = await self.storage.listen(self._remote_change, self._resync)
        self._remote_listeners.append((changed, resync))

    def _remote_change(self, game_id: int) -> None:
        for changed, _ in self._remote_listeners:
            try:
                changed(game_id)
            except Exception:
                log.exception("a listener of game %s's changes in any process failed", game_id)

    def _resync(self) -> None:
        for _, resync in self._remote_listeners:
            if resync is None:
                continue
            try:
                resync()
            except Exception:
                log.exception("a listener of the changes missed failed")

    def on_game_end(self, listener: EndListener) -> None:
        """Call ``listener(live)`` once when a game is saved as finished (played to its end, or
        left by all but one player: resignations, forfeits, timeouts), with its lock held,
        after the stored timers' listeners and before those of :meth:`on_game_change`.
        Listeners run in the order they subscribed (the manager subscribes the league result,
        then the statistics); one that fails is logged, never the move's (what it owed is
        made good later by its service). An abandoned game has no result: it is only a change
        (status ``abandoned``)."""
        self._end_listeners.append(listener)

    async def _game_ended(self, live: LiveGame) -> None:
        """Tell the listeners of :meth:`on_game_end` that ``live`` finished (its last move is
        durable and live)."""
        for listener in self._end_listeners:
            try:
                await listener(live)
            except Exception:
                log.exception("a listener of game %s's end failed", live.row.id)

    async def durable_write(
        self,
        game_id: int,
        write: Awaitable[T],
        landed: Callable[[], Awaitable[bool]],
        found: T,
    ) -> T:
        """Await ``write`` (a write of game ``game_id``) and return its answer, or ``found``
        if the answer was lost but the write landed.

        An exception from a write may come after its commit (a connection dropped while the
        server answered): ``landed()`` then reads storage to tell. The write's own error is
        raised if it did not land, so that a player told "nothing was played" is told the
        truth; :class:`Unsure` if storage does not answer either, and a cancellation as it
        is, both after dropping the game from memory (read again at its next use).
        :class:`WriteConflict` (nothing written) is raised as it is.
        """
        try:
            return await write
        except WriteConflict:
            raise
        except Exception as error:
            failure = error
        except BaseException:
            self.cache.drop(game_id)
            raise
        try:
            stored = await self._ask(game_id, landed)
        except BaseException:
            self.cache.drop(game_id)
            raise
        if not stored:
            raise failure
        log.warning("game %s: a write's answer was lost, but the write is stored", game_id)
        return found

    async def _ask(self, game_id: int, read: Callable[[], Awaitable[T]]) -> T:
        """``read()`` of storage, tried again a few times (it follows a failure, often of the
        connection); :class:`Unsure` if it never answers."""
        for attempt in range(READ_TRIES):
            try:
                return await read()
            except Exception:
                log.warning("game %s: storage does not answer", game_id, exc_info=True)
                await asyncio.sleep(RETRY_PAUSE * 2**attempt)
        raise Unsure(game_id=game_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        found = self._locks.get(game_id)
        if found is None:
            found = self._locks[game_id] = asyncio.Lock()
        return found

    # -- loading ----------------------------------------------------------------------------

    async def read_row(self, game_id: int) -> GameRow:
        """The game's row as stored now (read from the database: :class:`GameNotFound`, also
        for a number no database row can have, such as one typed into an autocomplete)."""
        if not 0 < game_id < 2**63:
            raise GameNotFound(game_id=game_id)
        row = await self.storage.get_game(game_id)
        if row is None:
            raise GameNotFound(game_id=game_id)
        return row

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[LiveGame]:
        """``async with core.hold(game_id) as live``: the game's lock, held, and the game in
        play (current: read again if another process moved it). Moves wait meanwhile."""
        async with self.lock(game_id):
            yield await self._live(game_id)

    async def _live(self, game_id: int, stored: GameRow | None = None) -> LiveGame:
        """The game in play, from the cache when it is current. ``stored``: its row as just
        read from the database, if the caller has it (its action count then tells whether the
        cached copy is current, without asking the database again)."""
        live = self.cache.get(game_id)
        if live is not None:
            if not self.storage.shared:
                return live
            # Another bot process may have moved it: use the copy only if it is current.
            count = (
                stored.action_count
                if stored is not None
                else await self.storage.action_count(game_id)
            )
            if count == len(live.log):
                if stored is not None:
                    live.row = stored  # the same moves, and the row as it is now
                return live
            self.cache.drop(game_id)
        row, actions = await self._read(game_id)
        try:
            game = replay(row, actions)
        except ValueError as error:
            log.error("game %s does not replay: %s", game_id, error)
            raise CorruptGame(game_id=game_id, reason=reason(error)) from error
        live = LiveGame(row, game, actions)
        self.cache.put(live)
        return live

    async def _cached(self, game_id: int) -> tuple[LiveGame, bool]:
        """The game in play without asking the database whether the cached copy is current,
        and whether it is known to be (one process alone on its database, or just loaded).
        For a move: the write's compare-and-set finds out (see ``TurnsManager.play_turn``)."""
        live = self.cache.get(game_id)
        if live is not None:
            return live, not self.storage.shared
        return await self._live(game_id), True

    async def _read(self, game_id: int) -> tuple[GameRow, list[ActionRow]]:
        """The game's row and its actions as one state. On a shared database another process
        may store a move between the two reads; a row behind its actions (an older turn) would
        make the next move restart the turn's clock and its notices, so both are read again."""
        for _ in range(READ_TRIES):
            row = await self.read_row(game_id)
            if row.seed is None:
                raise NotActive(game_id=game_id, status=row.status)
            actions = await self.storage.get_actions(game_id)
            if row.action_count == len(actions) or not self.storage.shared:
                return row, actions
            log.info(
                "game %s moved while it was read (%d actions, row at %d): reading again",
                game_id,
                len(actions),
                row.action_count,
            )
        raise Conflict(game_id=game_id)

    async def resume(self) -> int:
        """Load the active games into the cache (as many as it holds); return how many."""
        ids = await self.storage.active_game_ids()
        for game_id in ids[-self.cache.size :]:
            async with self.lock(game_id):
                await self._live(game_id)
        return min(len(ids), self.cache.size)

    async def game(self, game_id: int) -> GameRow:
        """The stored row of a game (setup, seats, status, Discord ids)."""
        live = self.cache.get(game_id)
        if live is not None and not self.storage.shared:
            return live.row
        return await self.read_row(game_id)

    async def engine_copy(self, game_id: int) -> Game:
        """A private copy of the game's engine state (a fork: tens of microseconds, where
        rebuilding it from the record replays every action), for pictures and previews."""
        async with self.hold(game_id) as live:
            return live.game.fork()

    async def decision(self, game_id: int) -> TurnView:
        """The decision the game waits for, with every legal answer."""
        async with self.lock(game_id):
            row = await self.game(game_id)  # read from the database when it is shared
            if row.seed is None:
                return TurnView.of(row, None)
            live = await self._live(game_id, row)
            return TurnView.of(live.row, live.game)

    def _deadlines(self, row: GameRow, game: Game, now: float) -> list[Deadline]:
        """The timers of the turn now starting: the reminder, then the deadline itself (with a
        chess clock: the one deadline of the player's bank, see :mod:`bot.manager.clock`)."""
        if (row.turn_seconds is None and row.clock_bank is None) or game.finished:
            return []
        seat = row.seats[game.decision.player]
        if seat.computer is not None:  # a computer plays at once: no clock, no reminder
            return []
        if row.clock_bank is not None:
            return [clock_deadline(row, seat, game.turn, now)]
        if row.turn_seconds is None:
            return []
        user = seat.user_id
        due = now + row.turn_seconds
        return [
            Deadline(
                row.id, "reminder", game.turn, now + row.turn_seconds * self.reminder_at, user
            ),
            Deadline(row.id, "turn", game.turn, due, user),
        ]

    async def turn_timers(self, row: GameRow, game: Game, now: float) -> list[Deadline]:
        """:meth:`_deadlines`; a chess clock's paused from the start if the game's clock is
        paused by agreement (the only pause that stops it). Those of a player away are paused
        by the storage as it writes them (``pause_away=now``: no read before the write)."""
        timers = self._deadlines(row, game, now)
        paused = row.clock_bank is not None and timers
        if paused and await self.storage.clock_pause(row.id) is not None:
            timers = [dataclasses.replace(t, paused_at=now) for t in timers]
        return timers

    def timers_changed(self) -> None:
        """Tell the listeners that stored timers changed (a turn began, a pause, an undo).
        Called after a durable write: a listener that fails is logged, never the write's."""
        for listener in self.timer_listeners:
            try:
                listener()
            except Exception:
                log.exception("a listener of the stored timers failed")

    async def _render(self, game: Game) -> bytes:
        if self.renderer is None:
            raise RuntimeError("this manager was created without a renderer")
        return await asyncio.to_thread(self.renderer, game)

    async def render(self, game_id: int) -> bytes:
        """The board of a game as PNG, drawn in a worker thread (moves wait meanwhile)."""
        async with self.hold(game_id) as live:
            return await self._render(live.game)


def clock_deadline(row: GameRow, seat: SeatRow, turn: int, now: float) -> Deadline:
    """The chess-clock deadline of ``seat``'s turn starting at ``now``: its bank and the
    increment (see :mod:`bot.manager.clock`)."""
    assert row.clock_bank is not None
    bank = seat.bank if seat.bank is not None else float(row.clock_bank)
    return Deadline(row.id, "clock", turn, now + bank + row.clock_increment, seat.user_id)


def require_active(row: GameRow) -> None:
    if row.status == "finished":
        raise GameOver(game_id=row.id)
    if row.status != "active":
        raise NotActive(game_id=row.id, status=row.status)


def check_timing(turn_seconds: int | None, policy: str) -> None:
    if turn_seconds is not None and (not isinstance(turn_seconds, int) or turn_seconds <= 0):
        raise BadSettings(reason="the time per turn must be a positive number of seconds")
    if policy not in TIMEOUT_POLICIES:
        raise BadSettings(reason=f"the timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}")
