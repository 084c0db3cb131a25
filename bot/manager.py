"""The async game manager: every Discord command about a game goes through it.

It owns the per-game locks, the live-game cache and the storage; it checks who may act and
whether a submission is stale, runs the engine, and saves each move in one transaction before
answering. Nothing here knows about Discord or about which database is behind :class:`Storage`.

Stale and duplicate submissions: every prompt carries the ``turn`` (and ``phase``) of the
decision it answers; :meth:`GameManager.apply` refuses any other stamp with :class:`StaleAction`.
Moves on one game are serialised by an asyncio lock, and the storage write checks the action
count it expects, so of two concurrent submissions exactly one wins, even across processes.

Undo policy: a player may take back their own most recent action at once (repeatedly, so a whole
turn can be taken back) as long as nobody else has acted since; actions the bot played for a
resigned seat right after it are taken back with it. Any other action (someone else's, or once
the next player has acted) is taken back only when every player still playing has asked for it
(:class:`UndoResult` reports the votes). A finished game cannot be undone. Undoing replays the
record without the action: the stack is fixed by the seed, so the same tile comes back.

Resigning: the seat's remaining turns are played by the bot (tile placed, no figure); when fewer
than two players remain, the game ends and the remaining player wins.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot import lobby
from bot.errors import (
    Conflict,
    CorruptGame,
    IllegalAction,
    NotActive,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
    UndoGameOver,
    UndoNothing,
    reason,
)
from bot.live import LiveGame, autoplay_action, replay
from bot.lobby_ops import LobbyOps
from bot.manager_base import require_active
from bot.outcomes import MoveResult, Played, TurnView, UndoResult
from bot.records_ops import RecordsOps
from bot.storage import (
    ActionRow,
    GameRow,
    Progress,
    SeatRow,
    Status,
    WriteConflict,
)
from engine import (
    Action,
    GameError,
    MoveWagon,
    Pass,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    action_from_json,
)

log = logging.getLogger(__name__)


class GameManager(LobbyOps, RecordsOps):
    """Lobbies, moves, undo, resign, records and listings for every game of the bot."""

    # -- playing ----------------------------------------------------------------------------

    async def apply(
        self,
        game_id: int,
        user_id: int,
        action: Action | Mapping[str, Any],
        *,
        turn: int,
        phase: str | None = None,
        render: bool = False,
    ) -> MoveResult:
        """Play ``action`` (an engine action or its record JSON) for ``user_id``.

        ``turn`` (and ``phase`` if given) must match the decision at hand, else
        :class:`StaleAction`. Raises :class:`NotYourTurn`, :class:`IllegalAction`... (all
        :class:`ManagerError`) leaving the game unchanged. Saved before it returns.
        """
        parsed = _parse(action)
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            decision = live.game.decision
            if turn != decision.turn or (phase is not None and phase != decision.phase.value):
                raise StaleAction(expected=turn, turn=decision.turn)
            seat = live.row.seats[decision.player]
            if seat.user_id != user_id:
                if live.row.seat_of(user_id) is None:
                    raise NotAPlayer(game_id=game_id)
                raise NotYourTurn(player=seat.name)
            now = self._clock()
            done = [self._play(live, parsed, user_id, None, now, [])]
            return await self._finish_move(live, done, now, render=render)

    async def force_turn(
        self, game_id: int, *, turn: int, why: str = "autoplay", render: bool = False
    ) -> MoveResult:
        """The bot completes the current player's turn (timeouts): tile placed, no figure.

        Refused with :class:`StaleAction` if the game is no longer at ``turn``.
        """
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            if live.game.decision.turn != turn:
                raise StaleAction(expected=turn, turn=live.game.decision.turn)
            now = self._clock()
            done: list[Step] = []
            while not live.game.finished and live.game.decision.turn == turn:
                done.append(self._play(live, autoplay_action(live.game), None, why, now, done))
            return await self._finish_move(live, done, now, render=render)

    def _play(
        self,
        live: LiveGame,
        action: Action,
        user_id: int | None,
        forced: str | None,
        now: float,
        before: Sequence[Step],
    ) -> Step:
        """Apply one action to the live game (saved later by the caller)."""
        decision = live.game.decision
        try:
            events = live.game.play(action)
        except GameError as error:
            if before:  # earlier actions of this move are applied but unsaved: reload
                self.cache.drop(live.row.id)
            raise IllegalAction(reason=reason(error), cause=error) from None
        except BaseException:
            # An engine bug may have left the state half-changed: reload it from storage.
            self.cache.drop(live.row.id)
            raise
        data = action.to_json()
        row = ActionRow(
            len(live.log) + len(before), decision.turn, decision.player, user_id, data, forced, now
        )
        return Played(decision.player, data, tuple(events), forced), row

    def _play_absent(self, live: LiveGame, done: list[Step], now: float) -> None:
        """Play the turns of resigned seats until a playing seat has to decide."""
        game = live.game
        while not game.finished and live.row.seats[game.decision.player].status != "playing":
            done.append(self._play(live, autoplay_action(game), None, "resigned", now, done))

    async def _finish_move(
        self,
        live: LiveGame,
        done: list[Step],
        now: float,
        *,
        render: bool = False,
        seats: tuple[SeatRow, ...] | None = None,
        ended: dict[str, Any] | None = None,
    ) -> MoveResult:
        """Save the applied actions in one transaction, then describe the new position."""
        if seats is not None:
            live.row = dataclasses.replace(live.row, seats=seats)
        if ended is None:
            self._play_absent(live, done, now)
        game, row = live.game, live.row
        status: Status = "active"
        result = ended
        if ended is not None:
            status = "finished"
        elif game.finished:
            status = "finished"
            result = {"reason": "end", "scores": game.scores, "winners": list(game.winners)}
        progress = Progress(
            turn=game.turn,
            action_count=len(live.log) + len(done),
            current_seat=None if status == "finished" else game.decision.player,
            status=status,
            updated_at=now,
            result=result,
            ended_at=now if status == "finished" else None,
        )
        turn_changed = game.turn != row.turn or status != "active"
        deadlines = self._deadlines(row, game, now) if status == "active" else []
        try:
            await self.storage.append_actions(
                row.id,
                len(live.log),
                [step[1] for step in done],
                progress,
                deadlines=deadlines if turn_changed else None,
                seats=seats,
            )
        except WriteConflict:
            self.cache.drop(row.id)
            raise Conflict(game_id=row.id) from None
        except BaseException:
            self.cache.drop(row.id)  # memory is ahead of the database: reload on next use
            raise
        live.log.extend(step[1] for step in done)
        live.row = dataclasses.replace(
            row,
            turn=progress.turn,
            action_count=progress.action_count,
            current_seat=progress.current_seat,
            status=status,
            updated_at=now,
            result=result,
            ended_at=progress.ended_at,
        )
        image = await self._render(live.game) if render else None
        return MoveResult(tuple(step[0] for step in done), TurnView.of(live.row, game), image)

    # -- resign, abandon, undo --------------------------------------------------------------

    async def resign(self, game_id: int, user_id: int, *, render: bool = False) -> MoveResult:
        """``user_id`` leaves the game (see the module's policy)."""
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            seat = next(
                (s for s in live.row.seats if s.user_id == user_id and s.status == "playing"), None
            )
            if seat is None:
                raise NotAPlayer(game_id=game_id)
            seats = tuple(
                dataclasses.replace(s, status="resigned") if s.seat == seat.seat else s
                for s in live.row.seats
            )
            playing = [s.seat for s in seats if s.status == "playing"]
            ended = None
            if len(playing) < 2:
                scores = live.game.scores
                ended = {"reason": "resigned", "scores": scores, "winners": playing}
            now = self._clock()
            return await self._finish_move(live, [], now, render=render, seats=seats, ended=ended)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        """The creator (or an admin, as the Discord layer decides) stops a lobby or a game."""
        async with self.lock(game_id):
            row = await self.game(game_id)
            if not admin:
                lobby.require_owner(row, user_id)
            if row.status not in ("lobby", "active"):
                raise NotActive(game_id=game_id, status=row.status)
            now = self._clock()
            scores = self.cache.get(game_id)
            result: dict[str, Any] = {"reason": "abandoned", "by": user_id}
            if scores is not None:
                result["scores"] = scores.game.scores
            row = dataclasses.replace(
                row, status="abandoned", current_seat=None, result=result,
                updated_at=now, ended_at=now,
            )  # fmt: skip
            await self.storage.save_game(row)
            live = self.cache.get(game_id)
            if live is not None:
                live.row = row
            return row

    async def undo(self, game_id: int, user_id: int) -> UndoResult:
        """Take back the last action, or vote for it (see the module's policy)."""
        async with self.lock(game_id):
            live = await self._live(game_id)
            if live.row.status == "finished":
                raise UndoGameOver()
            require_active(live.row)
            if live.row.seat_of(user_id) is None:
                raise NotAPlayer(game_id=game_id)
            keep = len(live.log)
            while keep > 0 and live.log[keep - 1].forced == "resigned":
                keep -= 1
            if keep == 0:
                raise UndoNothing()
            target = live.log[keep - 1]
            needed = frozenset(s.user_id for s in live.row.seats if s.status == "playing")
            if not (target.user_id == user_id and target.forced is None):
                votes = frozenset(
                    await self.storage.add_undo_vote(game_id, keep - 1, user_id, self._clock())
                )
                if not needed <= votes:
                    return UndoResult(
                        False, keep - 1, votes, needed, TurnView.of(live.row, live.game)
                    )
            else:
                votes = frozenset({user_id})
            await self._take_back(live, keep - 1)
            return UndoResult(True, keep - 1, votes, needed, TurnView.of(live.row, live.game))

    async def _take_back(self, live: LiveGame, keep: int) -> None:
        row = live.row
        try:
            game = replay(row, live.log[:keep])
        except ValueError as error:
            raise CorruptGame(game_id=row.id, reason=reason(error)) from error
        now = self._clock()
        progress = Progress(game.turn, keep, game.decision.player, "active", now)
        await self.storage.truncate_actions(
            row.id, len(live.log), keep, progress, deadlines=self._deadlines(row, game, now)
        )
        live.game, live.log = game, live.log[:keep]
        live.row = dataclasses.replace(
            row, turn=game.turn, action_count=keep, current_seat=game.decision.player,
            updated_at=now,
        )  # fmt: skip
        if row.seats[game.decision.player].status != "playing":
            await self._finish_move(live, [], now)


Step = tuple[Played, ActionRow]


def _parse(action: object) -> Action:
    """An engine action as given, or one read from its record JSON (refusals explained)."""
    if isinstance(action, PlaceTile | PlaceFigure | PlaceAbbey | MoveWagon | Pass):
        return action
    try:
        return action_from_json(dict(action) if isinstance(action, Mapping) else action)
    except GameError as error:
        raise IllegalAction(reason=reason(error), cause=error) from None
