"""Leaving and taking back: resign, abandon (alone or by a vote), undo (alone or by a vote).

Undo policy: an undo takes back the whole last turn (tile, figure, wagon moves), and with it the
computer players' turns after it (they would only play them again). A player may take back their
own last turn at once as long as no other person has acted since. Any other turn
(someone else's, or once the next player has acted) is taken back only when every player still
playing agrees (:class:`UndoResult` reports the votes); one refusal drops the request. A
finished game cannot be undone. Undoing replays the record without the turn: the stack is fixed
by the seed, so the same tile comes back.

Leaving: a player who resigns, or whose time runs out under the ``forfeit`` policy, leaves the
game through the engine's ``Forfeit``: their turns are skipped from then on and their figures stay
on the board but count and score nothing (points already scored stay on the score track, but a
player who left cannot win). Departures are final: undo never brings a player back (an undone
range that held a departure gets it again at its end). When fewer than two players remain, the
game ends and the remaining player wins.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot import lobby
from bot.errors import (
    CorruptGame,
    NotActive,
    NotAPlayer,
    UndoGameOver,
    UndoNothing,
    UndoStale,
    reason,
)
from bot.live import LiveGame, replay
from bot.manager.base import require_active
from bot.manager.turns import TurnsManager, _with_status
from bot.outcomes import AbandonVote, MoveResult, TurnView, UndoResult
from bot.storage import ActionRow, GameRow, SeatRow
from engine import Forfeit

#: Forced reasons of the actions that make a player leave: final, never undone.
DEPARTURES = ("resigned", "forfeit")


class LeavingManager(TurnsManager):
    """Resign, abandon and undo (see the module)."""

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
            now = self._clock()
            seats = _with_status(live.row.seats, seat.seat, "resigned")
            draft = live.draft()
            done = [self._play(draft, Forfeit(seat.seat), user_id, "resigned", now, [])]
            return await self._finish_move(live, draft, done, now, render=render, seats=seats)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        """The creator (or an admin, as the Discord layer decides) stops a lobby or a game."""
        async with self.lock(game_id):
            row = await self.game(game_id)
            if not admin:
                lobby.require_owner(row, user_id)
            if row.status not in ("lobby", "active"):
                raise NotActive(game_id=game_id, status=row.status)
            now = self._clock()
            result: dict[str, Any] = {"reason": "abandoned", "by": user_id}
            if row.status == "active":  # the scores as stored (another process may have moved)
                result["scores"] = list((await self._live(game_id, row)).game.scores)
            ended = dataclasses.replace(
                row, status="abandoned", current_seat=None, result=result,
                updated_at=now, ended_at=now,
            )  # fmt: skip

            async def landed() -> bool:
                stored = await self.storage.get_game(game_id)
                return stored is not None and stored.ended_at == now and stored.result == result

            write = self.storage.end_game(game_id, "abandoned", result, now)
            if not await self.durable_write(game_id, write, landed, True):
                self.cache.drop(game_id)  # another process ended it first
                raise NotActive(game_id=game_id, status=(await self.read_row(game_id)).status)
            live = self.cache.get(game_id)
            if live is not None:
                live.row = ended
            self.timers_changed()
            await self.game_changed(ended)
            return ended

    async def vote_abandon(self, game_id: int, user_id: int) -> AbandonVote:
        """A vote to abandon a started game: its creator asks (their vote opens the request),
        then every player still playing agrees. The last vote abandons it."""
        async with self.lock(game_id):
            row = await self.game(game_id)
            require_active(row)
            needed = _voters(row.seats)
            if user_id not in needed:
                raise NotAPlayer(game_id=game_id)
            votes = await self.storage.add_abandon_vote(game_id, user_id, self._clock())
            if row.owner_id not in votes:
                # Only the creator opens a request; a vote without one is not kept.
                await self.storage.clear_abandon_votes(game_id)
                lobby.require_owner(row, user_id)
            done = needed <= votes
        if done:
            row = await self.abandon(game_id, row.owner_id, admin=True)
        return AbandonVote(done, frozenset(votes), needed, row)

    async def refuse_abandon(self, game_id: int, user_id: int) -> GameRow:
        """A player still in the game refuses to abandon it: the request is dropped."""
        async with self.lock(game_id):
            row = await self.game(game_id)
            require_active(row)
            if row.seat_of(user_id) is None:
                raise NotAPlayer(game_id=game_id)
            await self.storage.clear_abandon_votes(game_id)
            return row

    async def undo(self, game_id: int, user_id: int, *, request: int | None = None) -> UndoResult:
        """Take back the last turn, or vote for it (see the module's policy).

        ``request`` is the first action of the turn a vote was asked for (from an Agree button):
        a vote for a turn that is no longer the last one is refused as stale.
        """
        async with self.lock(game_id):
            live = await self._live(game_id)
            start, end, needed = self._undo_target(live, user_id, request)
            by = live.log[start].user_id
            if not all(
                (r.user_id == user_id or _by_computer(r)) and r.forced is None
                for r in live.log[start:end]
            ):
                votes = frozenset(
                    await self.storage.add_undo_vote(game_id, start, user_id, self._clock())
                )
                if not needed <= votes:
                    view = TurnView.of(live.row, live.game)
                    return UndoResult(False, start, votes, needed, view, by=by)
            else:
                votes = frozenset({user_id})
            await self._take_back(live, start)
            return UndoResult(True, start, votes, needed, TurnView.of(live.row, live.game), by=by)

    async def refuse_undo(self, game_id: int, user_id: int, request: int) -> UndoResult:
        """A player still in the game refuses the undo asked for: the votes are dropped."""
        async with self.lock(game_id):
            live = await self._live(game_id)
            start, _, needed = self._undo_target(live, user_id, request)
            await self.storage.clear_undo_votes(game_id)
            by = live.log[start].user_id
            view = TurnView.of(live.row, live.game)
            return UndoResult(False, start, frozenset(), needed, view, by=by)

    def _undo_target(
        self, live: LiveGame, user_id: int, request: int | None
    ) -> tuple[int, int, frozenset[int]]:
        """The last turn's actions ``[start, end)`` and who must agree to take them back."""
        if live.row.status == "finished":
            raise UndoGameOver()
        require_active(live.row)
        seat = live.row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(game_id=live.row.id)
        start, end = last_turn(live.log)
        # Computers' turns go back with the person's turn before them (else they replay it).
        if end == 0:
            raise UndoNothing()
        while _by_computer(live.log[start]):
            start, before = last_turn(live.log[:start])
            if before == 0:
                raise UndoNothing()
        if request is not None and request != start:
            raise UndoStale()
        needed = _voters(live.row.seats)
        if request is not None and user_id not in needed:
            raise NotAPlayer(game_id=live.row.id)
        return start, end, needed

    async def _take_back(self, live: LiveGame, keep: int) -> None:
        """Cut the log to its first ``keep`` actions; departures taken back with them are
        played again at the end, in the same write (see the module)."""
        try:
            game = replay(live.row, live.log[:keep])
        except ValueError as error:
            raise CorruptGame(game_id=live.row.id, reason=reason(error)) from error
        draft = LiveGame(live.row, game, live.log[:keep])
        await self._finish_move(live, draft, [], self._clock(), keep=keep)


def last_turn(log: Sequence[ActionRow]) -> tuple[int, int]:
    """The actions ``[start, end)`` of the last turn played (departures after it left out);
    ``(0, 0)`` when nothing was played."""
    end = len(log)
    while end > 0 and log[end - 1].forced in DEPARTURES:
        end -= 1
    if end == 0:
        return 0, 0
    start = end - 1
    turn = log[start].turn
    while start > 0 and log[start - 1].turn == turn and log[start - 1].forced not in DEPARTURES:
        start -= 1
    return start, end


def _by_computer(action: ActionRow) -> bool:
    """Whether a computer seat played ``action`` (their user ids are negative)."""
    return action.user_id is not None and action.user_id < 0


def _voters(seats: Sequence[SeatRow]) -> frozenset[int]:
    """Who must agree to an undo or an abandon: the people still playing (computers agree)."""
    return frozenset(s.user_id for s in seats if s.status == "playing" and s.computer is None)
