"""Turns: a player's move, a timeout's forced turn, a computer's turn, and saving each move.

Stale and duplicate submissions: every prompt carries the ``turn`` (and ``phase``) of the
decision it answers; :meth:`TurnsManager.play_turn` refuses any other stamp with
:class:`StaleAction`.
Moves on one game are serialised by an asyncio lock, and the storage write checks the action
count it expects, so of two concurrent submissions exactly one wins, even across processes.

Timeouts (:meth:`TurnsManager.play_turn` by a :class:`Timeout`, from :mod:`bot.scheduler`) apply
the game's ``timeout_policy``: ``autoplay`` (the medium computer plays the turn), ``skip`` (the
turn is lost, the tile goes under the stack) or ``forfeit``. Every action the bot plays is stored
with its ``forced`` reason (``autoplay``, ``skip``, ``forfeit``, ``resigned``), and the exported
record carries it as an extra ``"forced"`` field on that action.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import logs, metrics
from bot.errors import (
    BadSettings,
    Conflict,
    CorruptGame,
    IllegalAction,
    ManagerError,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
    StaleStep,
    Unsure,
    reason,
)
from bot.live import LiveGame, autoplay_action, replay
from bot.manager.base import ManagerBase, require_active
from bot.outcomes import MoveResult, Played, TurnView
from bot.storage import (
    TIMEOUT_POLICIES,
    ActionRow,
    Notice,
    Progress,
    SeatRow,
    SeatStatus,
    Status,
    WriteConflict,
)
from engine import (
    Action,
    Forfeit,
    Game,
    GameError,
    MoveWagon,
    Pass,
    Phase,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Skip,
    UseWallTile,
    action_from_json,
)

if TYPE_CHECKING:
    from bot.manager.clock import ClockOps

log = logging.getLogger(__name__)

#: The level that plays a timed-out turn under the ``autoplay`` policy.
AUTOPLAY_LEVEL = "medium"
#: One action applied to the live game: what the players are told, and the row to store.
Step = tuple[Played, ActionRow]
NOT_A_MOVE = "skipping a turn or leaving is not a move; to leave the game, use the resign command"


@dataclass(frozen=True, slots=True)
class Move:
    """A player's whole decision: its actions in order (a tile or an abbey, then its figure; or
    one action: a figure, a wagon's move, a wall tile, a pass), and ``close``: the player
    chose no figure, so the figure step after the tile ends (with a pass) unless the turn stays
    open for a wall tile (The Castle)."""

    actions: tuple[Action, ...]
    close: bool = False


@dataclass(frozen=True, slots=True)
class Computer:
    """:meth:`TurnsManager.play_turn` by the computer seat in turn (its workers decide)."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """:meth:`TurnsManager.play_turn` by the bot for a player whose time ran out: ``policy``
    (None: the game's own), and ``announce_by``: the move is saved with its announcement
    owed until then (see :meth:`TurnsManager.forced_move`)."""

    policy: str | None = None
    announce_by: float | None = None


#: The computer seat in turn decides (:meth:`TurnsManager.play_turn`).
COMPUTER = Computer()


def _move_of(move: Move | Action | Mapping[str, Any] | None) -> Move:
    """A player's move as given, or one action (or its record JSON) as a move."""
    if isinstance(move, Move):
        return Move(tuple(_parse(a) for a in move.actions), move.close)
    if move is None:
        raise IllegalAction(reason="there is nothing to play: choose a move")
    return Move((_parse(move),))


def _computer_seed(game_id: int, seat: int) -> int:
    """A computer player's own seed: the game and the seat, never the game's hidden seed."""
    return game_id * 8 + seat


class TurnsManager(ManagerBase):
    """The moves of a game (see the module): what every turn goes through."""

    # The service a move asks (a chess clock's bank): the game manager's own.
    clocks: ClockOps

    async def current(self, game_id: int) -> tuple[TurnView, Game | None]:
        """The decision the game waits for and a private copy of its engine state (a fork,
        None before the game starts), read together: what a prompt needs to be drawn."""
        async with self.lock(game_id):
            row = await self.game(game_id)  # read from the database when it is shared
            if row.seed is None:
                return TurnView.of(row, None), None
            live = await self._live(game_id, row)
            return TurnView.of(live.row, live.game), live.game.fork()

    async def play_turn(
        self,
        game_id: int,
        by: int | Computer | Timeout,
        move: Move | Action | Mapping[str, Any] | None = None,
        *,
        turn: int,
        phase: str | None = None,
        render: bool = False,
        via: str = "button",
    ) -> MoveResult:
        """Play a whole decision of ``game_id``'s ``turn``, under one lock, in one write.

        ``by`` is who decides: a player's user id with their ``move`` (a :class:`Move`, or one
        engine action or its record JSON), :data:`COMPUTER` for the computer seat in turn (its
        workers choose), or a :class:`Timeout` for the player whose time ran out (see
        :meth:`_timeout`). ``turn`` (and ``phase`` if given) must match the decision at hand,
        else :class:`StaleAction`. Raises :class:`NotYourTurn`, :class:`IllegalAction`... (all
        :class:`ManagerError`) leaving the game unchanged. Saved before it returns; the result
        holds what was played, the next decision and a private copy of the game to draw it.
        ``via`` says how a player sent the move (``button``, ``place``: the typed command, or
        ``board``: the live board),
        for the move's metric (:mod:`bot.metrics`, where the kind is ``computer`` or ``timeout``
        for the others); the game is every log line's while it plays (:mod:`bot.logs`).
        """
        if via not in metrics.PLAYER_MOVE_KINDS:
            raise ValueError(f"a player's move comes by button, place or board, not {via!r}")
        kind = via
        if isinstance(by, Timeout | Computer):
            kind = "timeout" if isinstance(by, Timeout) else "computer"
        about = logs.GAME.set(game_id)
        try:
            if not metrics.ON:
                return await self._decide(game_id, by, move, turn, phase, render)
            start = time.perf_counter()
            played = await self._decide(game_id, by, move, turn, phase, render)
            metrics.move(kind, time.perf_counter() - start)
            return played
        finally:
            logs.GAME.reset(about)

    async def _decide(
        self,
        game_id: int,
        by: int | Computer | Timeout,
        move: Move | Action | Mapping[str, Any] | None,
        turn: int,
        phase: str | None,
        render: bool,
    ) -> MoveResult:
        """:meth:`play_turn` itself, by whoever decides."""
        if isinstance(by, Timeout):
            return await self._timeout(game_id, by, turn=turn, render=render)
        if isinstance(by, Computer):
            return await self._computer(game_id, turn=turn, render=render)
        chosen = _move_of(move)
        async with self.lock(game_id):
            # On a shared database the cached game may be behind another process's moves.
            # Rather than ask the database first (one more round trip on every move), play on
            # the cached copy: its write only succeeds if the stored game holds as many moves.
            # A conflict, or a refusal from a copy found behind, is played again on the game
            # as stored, so a player is refused only by the game as it is.
            live, current = await self._cached(game_id)
            try:
                return await self._move(live, chosen, by, turn, phase, render)
            except Conflict:
                if current:
                    raise
            except Unsure:
                raise  # the move may be stored: playing it again could play it twice
            except ManagerError:
                if current or await self.storage.action_count(game_id) == len(live.log):
                    raise
            self.cache.drop(game_id)
            live = await self._live(game_id)
            return await self._move(live, chosen, by, turn, phase, render)

    async def _move(
        self,
        live: LiveGame,
        move: Move,
        user_id: int,
        turn: int,
        phase: str | None,
        render: bool,
    ) -> MoveResult:
        """:meth:`play_turn` of a player on the game ``live``.

        The move's actions are played in order on a copy; the figure step that follows a tile
        (or an abbey) is played with it when the move names it, and ``move.close`` ends it with
        no figure unless the turn stays open (The Castle: a wall tile could still be played).
        All of it is saved in one transaction: a crash (a SIGKILL) never leaves a turn whose
        tile is down and whose figure step nobody was asked for.
        """
        require_active(live.row)
        decision = live.game.decision
        # Players count turns from 1, as every message shows them.
        if turn != decision.turn:
            raise StaleAction(expected=turn + 1, turn=decision.turn + 1)
        if phase is not None and phase != decision.phase.value:
            raise StaleStep(turn=decision.turn + 1)
        seat = live.row.seats[decision.player]
        if seat.user_id != user_id:
            if live.row.seat_of(user_id) is None:
                raise NotAPlayer(game_id=live.row.id)
            raise NotYourTurn(player=seat.name)
        now = self._clock()
        await self.clocks.require_time(live, now)
        draft = live.draft()
        game = draft.game
        done: list[Step] = []
        for action in move.actions:
            if done and not self._same_step(game, decision.player, turn):
                break  # the tile ended the turn (the figure step was skipped by the rules)
            done.append(self._play(draft, action, user_id, None, now, done))
        last = move.actions[-1] if move.actions else None
        if (
            move.close
            and self._same_step(game, decision.player, turn)
            and not (isinstance(last, PlaceTile) and game.legal(UseWallTile))
        ):
            done.append(self._play(draft, Pass(), user_id, None, now, done))
        if not done:
            raise IllegalAction(reason="there is nothing to play: choose a move")
        return await self._finish_move(live, draft, done, now, render=render)

    @staticmethod
    def _same_step(game: Game, player: int, turn: int) -> bool:
        """Whether ``game`` waits for ``player``'s figure in ``turn`` (the step after a tile)."""
        after = game.decision
        return (
            not game.finished
            and after.phase is Phase.FIGURE
            and after.turn == turn
            and after.player == player
        )

    async def _timeout(
        self, game_id: int, timeout: Timeout, *, turn: int, render: bool
    ) -> MoveResult:
        """The bot ends the turn of a player whose time ran out, by the timeout's policy.

        The policy defaults to the game's ``timeout_policy`` (see the module's policies). With
        ``skip``, a turn whose tile is already placed is completed without a figure instead.
        Refused with :class:`StaleAction` if the game is no longer at ``turn``. With
        ``announce_by``, the move is saved with its announcement owed (a ``timeout`` notice
        claimed until then; :meth:`forced_move` rebuilds it for another process).
        """
        chosen = timeout.policy or None
        if chosen is not None and chosen not in TIMEOUT_POLICIES:
            raise BadSettings(
                reason=f"the timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}"
            )
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            if live.game.decision.turn != turn:
                raise StaleAction(expected=turn + 1, turn=live.game.decision.turn + 1)
            why = chosen or live.row.timeout_policy
            now = self._clock()
            draft = live.draft()
            game = draft.game
            done: list[Step] = []
            seats = None
            if why == "forfeit":
                seat = game.decision.player
                done.append(self._play(draft, Forfeit(seat), None, why, now, done))
                seats = _with_status(live.row.seats, seat, "forfeited")
            elif why == "skip" and game.decision.phase is Phase.TILE:
                done.append(self._play(draft, Skip(), None, why, now, done))
            elif why == "autoplay":  # the medium computer plays the turn for the player
                seat = game.decision.player
                chosen_actions = await self.computers.turn(
                    game.record(), seat, AUTOPLAY_LEVEL, _computer_seed(live.row.id, seat)
                )
                for data in chosen_actions or ():
                    if game.finished or game.decision.turn != turn:
                        break
                    action = action_from_json(data)
                    done.append(self._play(draft, action, None, why, now, done))
            while not game.finished and game.decision.turn == turn:
                done.append(self._play(draft, autoplay_action(game), None, why, now, done))
            announce_by = timeout.announce_by
            notice = None if announce_by is None else Notice("timeout", turn, announce_by)
            return await self._finish_move(
                live,
                draft,
                done,
                now,
                render=render,
                seats=seats,
                leaving="forfeit",
                notice=notice,
                spent=True,
            )

    async def forced_move(
        self, game_id: int, turn: int
    ) -> tuple[str, int, MoveResult, bool] | None:
        """The timeout that ended ``turn`` as :meth:`play_turn` returned it, rebuilt from the
        stored log: the policy, the seat that was late, the move with its events, and whether
        it is still the game's last move (no one played since). None if no timeout ended
        that turn."""
        async with self.lock(game_id):
            live = await self._live(game_id)
            forced = [r for r in live.log if r.turn == turn and r.forced in TIMEOUT_POLICIES]
            if not forced:
                return None
            first = forced[0].idx
            rows = [r for r in live.log[first:] if r.created_at == forced[0].created_at]
            last = rows[-1].idx == len(live.log) - 1
            try:
                game = replay(live.row, live.log[:first])
                played = tuple(
                    Played(r.seat, r.action, tuple(game.play(action_from_json(r.action))), r.forced)
                    for r in rows
                )
            except (ValueError, GameError) as error:
                raise CorruptGame(game_id=game_id, reason=reason(error)) from error
            move = MoveResult(played, TurnView.of(live.row, live.game))
            return played[0].forced or "", rows[0].seat, move, last

    async def _computer(self, game_id: int, *, turn: int, render: bool) -> MoveResult:
        """A computer seat plays its decisions now (its turn, or a wagon it owns).

        Refused with :class:`StaleAction` if the game is no longer at ``turn``, and with
        :class:`NotYourTurn` if the seat deciding now is a person. The decision runs in the
        computer workers; if they cannot decide, the turn is played like a timeout's autoplay.
        """
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            decision = live.game.decision
            if decision.turn != turn:
                raise StaleAction(expected=turn + 1, turn=decision.turn + 1)
            seat = live.row.seats[decision.player]
            if seat.computer is None:
                raise NotYourTurn(player=seat.name)
            now = self._clock()
            chosen = await self.computers.turn(
                live.game.record(),
                decision.player,
                seat.computer,
                _computer_seed(game_id, seat.seat),
            )
            draft = live.draft()
            game = draft.game
            done: list[Step] = []
            for data in chosen or ():
                if game.finished or game.decision.player != decision.player:
                    break
                action = action_from_json(data)
                done.append(self._play(draft, action, seat.user_id, None, now, done))
            while not done or (
                not game.finished
                and game.decision.turn == turn
                and game.decision.player == decision.player
            ):
                action = autoplay_action(game)
                done.append(self._play(draft, action, seat.user_id, None, now, done))
            return await self._finish_move(live, draft, done, now, render=render)

    def _play(
        self,
        draft: LiveGame,
        action: Action,
        user_id: int | None,
        forced: str | None,
        now: float,
        before: Sequence[Step],
    ) -> Step:
        """Apply one action to ``draft`` (a copy of the live game: the caller saves the move,
        then makes the draft live; an exception drops the draft and nothing else)."""
        decision = draft.game.decision
        try:
            events = draft.game.play(action)
        except GameError as error:
            raise IllegalAction(reason=reason(error), cause=error) from None
        data = action.to_json()
        # A departure is the leaving seat's act, whoever's decision it interrupted.
        seat = action.player if isinstance(action, Forfeit) else decision.player
        row = ActionRow(
            len(draft.log) + len(before), decision.turn, seat, user_id, data, forced, now
        )
        return Played(seat, data, tuple(events), forced), row

    def _forfeit_absent(self, draft: LiveGame, done: list[Step], now: float) -> None:
        """Make every seat that left (resigned, forfeited) out of the game in the engine too.

        Needed after an undo took back a departure: the seat's status says it left, so it
        leaves again at the end of the kept record.
        """
        for seat in draft.row.seats:
            if seat.status != "playing" and not draft.game.out[seat.seat]:
                why = "resigned" if seat.status == "resigned" else "forfeit"
                done.append(self._play(draft, Forfeit(seat.seat), None, why, now, done))

    async def _finish_move(
        self,
        live: LiveGame,
        draft: LiveGame,
        done: list[Step],
        now: float,
        *,
        render: bool = False,
        seats: tuple[SeatRow, ...] | None = None,
        leaving: str = "resigned",
        notice: Notice | None = None,
        spent: bool = False,
        keep: int | None = None,
    ) -> MoveResult:
        """Save the actions applied to ``draft`` in one transaction, make it live, then
        describe the new position.

        ``leaving`` is the end reason if this move leaves fewer than two players. With a chess
        clock, a turn that ends writes its player's bank back (emptied if ``spent``: a timeout).
        With ``keep``, an undo: the stored log is cut to its first ``keep`` actions (``draft``
        replays them) before ``done`` is appended, and the turn's timers start again.

        Until the write is durable nothing but ``draft`` changes, so an exception on the way
        (a read of the clock, the write, a cancellation) leaves memory as stored. Once it is
        durable, nothing fails the move: what follows (a league result, statistics, the
        listeners, a picture) logs its failures, and is made good later.
        """
        if seats is not None:
            draft.row = dataclasses.replace(draft.row, seats=seats)
        before = len(done)
        self._forfeit_absent(draft, done, now)
        if len(done) > before and seats is None and keep is None:
            seats = draft.row.seats  # written again so the log and the seats agree
        game, row = draft.game, draft.row
        ended = _alone(row.seats, game.scores, leaving)
        status: Status = "active"
        result = ended
        if ended is not None:
            status = "finished"
        elif game.finished:
            status = "finished"
            result = {"reason": "end", "scores": game.scores, "winners": list(game.winners)}
        progress = Progress(
            turn=game.turn,
            action_count=len(draft.log) + len(done),
            current_seat=None if status == "finished" else game.decision.player,
            status=status,
            updated_at=now,
            result=result,
            ended_at=now if status == "finished" else None,
        )
        deadlines = None
        turn_started = status == "active" and game.turn != row.turn
        if keep is not None:  # an undo: the turn taken back starts again, with its timers
            deadlines = await self.turn_timers(row, game, now) if status == "active" else []
            turn_started = False
        elif game.turn != row.turn or status != "active":
            if row.clock_bank is not None:
                seats = await self.clocks.turn_ended(row, seats or row.seats, now, spent=spent)
                row = dataclasses.replace(row, seats=seats)
            deadlines = await self.turn_timers(row, game, now) if status == "active" else []
        rows = [step[1] for step in done]
        if keep is None:
            write = self.storage.append_actions(
                row.id,
                len(live.log),
                rows,
                progress,
                deadlines=deadlines,
                seats=seats,
                notice=notice,
                pause_away=now,
            )
        else:
            write = self.storage.truncate_actions(
                row.id,
                len(live.log),
                keep,
                progress,
                actions=rows,
                deadlines=deadlines,
                pause_away=now,
            )
        await self._durably(write, live, [*draft.log, *rows])
        draft.row = dataclasses.replace(
            row,
            turn=progress.turn,
            action_count=progress.action_count,
            current_seat=progress.current_seat,
            status=status,
            updated_at=now,
            result=result,
            ended_at=progress.ended_at,
        )
        live.adopt(draft, rows)
        # Durable and live: from here on, failures are logged, never the move's.
        if deadlines is not None:
            self.timers_changed()
        if status == "finished":  # its league result, its statistics (see on_game_end)
            await self._game_ended(live)
        await self.game_changed(live.row, turn_started=turn_started)
        image = await self._picture(live.game) if render else None
        played = tuple(step[0] for step in done)
        return MoveResult(played, TurnView.of(live.row, game), image, game.fork())

    async def _durably(
        self, write: Awaitable[None], live: LiveGame, becomes: Sequence[ActionRow]
    ) -> None:
        """Await ``write``, which makes ``live``'s stored log ``becomes`` (see
        :meth:`ManagerBase.durable_write`: a write whose answer was lost counts if the log
        landed)."""
        game_id = live.row.id

        async def landed() -> bool:
            return _landed(await self.storage.get_actions(game_id), live.log, becomes)

        try:
            await self.durable_write(game_id, write, landed, None)
        except WriteConflict:
            self.cache.drop(game_id)  # another process wrote first: read it again
            raise Conflict(game_id=game_id) from None

    async def _picture(self, game: Game) -> bytes | None:
        """The board after a durable move; a drawing that fails is logged, not the move's."""
        try:
            return await self._render(game)
        except Exception:
            log.exception("the picture after a move could not be drawn")
            return None


def _with_status(seats: tuple[SeatRow, ...], seat: int, status: SeatStatus) -> tuple[SeatRow, ...]:
    return tuple(dataclasses.replace(s, status=status) if s.seat == seat else s for s in seats)


def _alone(seats: Sequence[SeatRow], scores: Sequence[int], why: str) -> dict[str, Any] | None:
    """The result of a game that players left until fewer than two remain; else None."""
    playing = [s.seat for s in seats if s.status == "playing"]
    if len(playing) >= 2 or len(playing) == len(seats):
        return None
    return {"reason": why, "scores": list(scores), "winners": playing}


def _landed(
    stored: Sequence[ActionRow], was: Sequence[ActionRow], becomes: Sequence[ActionRow]
) -> bool:
    """Whether a write that turns the stored log ``was`` into ``becomes`` landed, ``stored``
    being the log as read now (perhaps with other processes' later moves after it). Only that
    write makes the log begin with ``becomes`` (each row holds its index, time, player and
    reason), and, for an undo that adds nothing (``becomes`` the start of ``was``), only that
    write makes it stop beginning with ``was``."""
    if list(stored[: len(becomes)]) != list(becomes):
        return False
    if list(was[: len(becomes)]) != list(becomes):
        return True
    return list(stored[: len(was)]) != list(was)


def _parse(action: object) -> Action:
    """An engine action as given, or one read from its record JSON (refusals explained)."""
    if isinstance(action, PlaceTile | PlaceFigure | PlaceAbbey | MoveWagon | UseWallTile | Pass):
        return action
    if isinstance(action, Skip | Forfeit):
        raise IllegalAction(reason=NOT_A_MOVE)
    try:
        parsed = action_from_json(dict(action) if isinstance(action, Mapping) else action)
    except GameError as error:
        raise IllegalAction(reason=reason(error), cause=error) from None
    if isinstance(parsed, Skip | Forfeit):
        raise IllegalAction(reason=NOT_A_MOVE)
    return parsed
