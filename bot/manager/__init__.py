"""The async game manager: every Discord command about a game goes through it.

It owns the per-game locks, the live-game cache and the storage; it checks who may act and
whether a submission is stale, runs the engine, and saves each move in one transaction before
answering. Nothing here knows about Discord or about which database is behind :class:`Storage`.

Stale and duplicate submissions: every prompt carries the ``turn`` (and ``phase``) of the
decision it answers; :meth:`GameManager.apply` refuses any other stamp with :class:`StaleAction`.
Moves on one game are serialised by an asyncio lock, and the storage write checks the action
count it expects, so of two concurrent submissions exactly one wins, even across processes.

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

Timeouts (:meth:`GameManager.force_turn`, called by :mod:`bot.scheduler`) apply the game's
``timeout_policy``: ``autoplay`` (the medium computer plays the turn), ``skip`` (the turn is lost,
the tile goes under the stack) or ``forfeit``. Every action the bot plays is stored with its
``forced`` reason (``autoplay``, ``skip``, ``forfeit``, ``resigned``), and the exported record
carries it as an extra ``"forced"`` field on that action.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot import lobby
from bot.errors import (
    BadSettings,
    Conflict,
    CorruptGame,
    IllegalAction,
    NotActive,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
    StaleStep,
    UndoGameOver,
    UndoNothing,
    UndoStale,
    reason,
)
from bot.live import LiveGame, autoplay_action, replay
from bot.manager.base import ManagerBase, require_active
from bot.manager.clock import ChessClock, ClockOps, PauseVote
from bot.manager.leagues import ComputerNamer, LeagueOps, default_computer_name
from bot.manager.lobbies import LobbyOps
from bot.manager.records import RecordsOps
from bot.manager.stats import StatsOps, StatsReport
from bot.manager.timing import TimingOps
from bot.manager.watch import WatchOps
from bot.outcomes import AbandonVote, MoveResult, Played, TurnView, UndoResult
from bot.storage import (
    TIMEOUT_POLICIES,
    ActionRow,
    GameRow,
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
    from bot.leagues import Profile, Rating, Ratings
    from bot.manager.leagues import ChallengeAnswer, LeagueListener, Player, SeasonTable
    from bot.manager.timing import DigestLine, TurnClock
    from bot.storage import (
        GuildSettings,
        LeagueAudit,
        LeagueMember,
        LeaguePace,
        LeagueResult,
        LeagueRow,
        SeasonRow,
        Storage,
        UserSettings,
    )

log = logging.getLogger(__name__)

#: The level that plays a timed-out turn under the ``autoplay`` policy.
AUTOPLAY_LEVEL = "medium"


def _computer_seed(game_id: int, seat: int) -> int:
    """A computer player's own seed: the game and the seat, never the game's hidden seed."""
    return game_id * 8 + seat


class GameManager(ManagerBase):
    """The game manager: the shared state of :class:`ManagerBase` (storage, live games, locks,
    clock), the turns themselves (moves, timeouts, undo, resign, abandon: below), and the
    services it holds, each with one job: :attr:`lobbies`, :attr:`records` (records, listings,
    settings), :attr:`timing` (turn clocks, absences, digests), :attr:`leagues`, :attr:`stats`
    (players' statistics) and :attr:`watch` (followers, dashboards). Their public
    operations are also the manager's, so callers need one object."""

    def __init__(self, storage: Storage, **options: Any) -> None:
        super().__init__(storage, **options)
        self.lobbies = LobbyOps(self)
        self.records = RecordsOps(self)
        self.timing = TimingOps(self)
        self.leagues = LeagueOps(self, self.lobbies)
        self.stats = StatsOps(self)
        self.clocks = ClockOps(self)
        self.watch = WatchOps(self)

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
            # Players count turns from 1, as every message shows them.
            if turn != decision.turn:
                raise StaleAction(expected=turn + 1, turn=decision.turn + 1)
            if phase is not None and phase != decision.phase.value:
                raise StaleStep(turn=decision.turn + 1)
            seat = live.row.seats[decision.player]
            if seat.user_id != user_id:
                if live.row.seat_of(user_id) is None:
                    raise NotAPlayer(game_id=game_id)
                raise NotYourTurn(player=seat.name)
            now = self._clock()
            await self.clocks.require_time(live, now)
            done = [self._play(live, parsed, user_id, None, now, [])]
            return await self._finish_move(live, done, now, render=render)

    async def force_turn(
        self,
        game_id: int,
        *,
        turn: int,
        policy: str | None = None,
        render: bool = False,
        announce_by: float | None = None,
    ) -> MoveResult:
        """The bot ends the turn of a player whose time ran out, by ``policy``.

        ``policy`` defaults to the game's ``timeout_policy`` (see the module's policies). With
        ``skip``, a turn whose tile is already placed is completed without a figure instead.
        Refused with :class:`StaleAction` if the game is no longer at ``turn``. With
        ``announce_by``, the move is saved with its announcement owed (a ``timeout`` notice
        claimed until then; :meth:`forced_move` rebuilds it for another process).
        """
        chosen = policy or None
        if chosen is not None and chosen not in TIMEOUT_POLICIES:
            raise BadSettings(
                reason=f"the timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}"
            )
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            game = live.game
            if game.decision.turn != turn:
                raise StaleAction(expected=turn + 1, turn=game.decision.turn + 1)
            why = chosen or live.row.timeout_policy
            now = self._clock()
            done: list[Step] = []
            seats = None
            if why == "forfeit":
                seat = game.decision.player
                done.append(self._play(live, Forfeit(seat), None, why, now, done))
                seats = _with_status(live.row.seats, seat, "forfeited")
            elif why == "skip" and game.decision.phase is Phase.TILE:
                done.append(self._play(live, Skip(), None, why, now, done))
            elif why == "autoplay":  # the medium computer plays the turn for the player
                seat = game.decision.player
                chosen_actions = await self.computers.turn(
                    game.record(), seat, AUTOPLAY_LEVEL, _computer_seed(live.row.id, seat)
                )
                for data in chosen_actions or ():
                    if game.finished or game.decision.turn != turn:
                        break
                    action = action_from_json(data)
                    done.append(self._play(live, action, None, why, now, done))
            while not game.finished and game.decision.turn == turn:
                done.append(self._play(live, autoplay_action(game), None, why, now, done))
            notice = None if announce_by is None else Notice("timeout", turn, announce_by)
            return await self._finish_move(
                live,
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
        """The timeout that ended ``turn`` as :meth:`force_turn` returned it, rebuilt from the
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

    async def computer_turn(self, game_id: int, *, turn: int, render: bool = False) -> MoveResult:
        """A computer seat plays its decisions now (its turn, or a wagon it owns).

        Refused with :class:`StaleAction` if the game is no longer at ``turn``, and with
        :class:`NotYourTurn` if the seat deciding now is a person. The decision runs in the
        computer workers; if they cannot decide, the turn is played like a timeout's autoplay.
        """
        async with self.lock(game_id):
            live = await self._live(game_id)
            require_active(live.row)
            game = live.game
            decision = game.decision
            if decision.turn != turn:
                raise StaleAction(expected=turn + 1, turn=decision.turn + 1)
            seat = live.row.seats[decision.player]
            if seat.computer is None:
                raise NotYourTurn(player=seat.name)
            now = self._clock()
            chosen = await self.computers.turn(
                game.record(), decision.player, seat.computer, _computer_seed(game_id, seat.seat)
            )
            done: list[Step] = []
            for data in chosen or ():
                if game.finished or game.decision.player != decision.player:
                    break
                done.append(self._play(live, action_from_json(data), seat.user_id, None, now, done))
            while not done or (
                not game.finished
                and game.decision.turn == turn
                and game.decision.player == decision.player
            ):
                done.append(self._play(live, autoplay_action(game), seat.user_id, None, now, done))
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
        # A departure is the leaving seat's act, whoever's decision it interrupted.
        seat = action.player if isinstance(action, Forfeit) else decision.player
        row = ActionRow(
            len(live.log) + len(before), decision.turn, seat, user_id, data, forced, now
        )
        return Played(seat, data, tuple(events), forced), row

    def _forfeit_absent(self, live: LiveGame, done: list[Step], now: float) -> None:
        """Make every seat that left (resigned, forfeited) out of the game in the engine too.

        Needed after an undo took back a departure: the seat's status says it left, so it
        leaves again at the end of the kept record.
        """
        for seat in live.row.seats:
            if seat.status != "playing" and not live.game.out[seat.seat]:
                why = "resigned" if seat.status == "resigned" else "forfeit"
                done.append(self._play(live, Forfeit(seat.seat), None, why, now, done))

    async def _finish_move(
        self,
        live: LiveGame,
        done: list[Step],
        now: float,
        *,
        render: bool = False,
        seats: tuple[SeatRow, ...] | None = None,
        leaving: str = "resigned",
        notice: Notice | None = None,
        spent: bool = False,
    ) -> MoveResult:
        """Save the applied actions in one transaction, then describe the new position.

        ``leaving`` is the end reason if this move leaves fewer than two players. With a chess
        clock, a turn that ends writes its player's bank back (emptied if ``spent``: a timeout).
        """
        if seats is not None:
            live.row = dataclasses.replace(live.row, seats=seats)
        before = len(done)
        self._forfeit_absent(live, done, now)
        if len(done) > before and seats is None:
            seats = live.row.seats  # written again so the log and the seats agree
        game, row = live.game, live.row
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
            action_count=len(live.log) + len(done),
            current_seat=None if status == "finished" else game.decision.player,
            status=status,
            updated_at=now,
            result=result,
            ended_at=now if status == "finished" else None,
        )
        deadlines = None
        if game.turn != row.turn or status != "active":
            if row.clock_bank is not None:
                seats = await self.clocks.turn_ended(row, seats or row.seats, now, spent=spent)
                row = live.row = dataclasses.replace(row, seats=seats)
            deadlines = await self._timers(row, game, now) if status == "active" else []
        try:
            await self.storage.append_actions(
                row.id,
                len(live.log),
                [step[1] for step in done],
                progress,
                deadlines=deadlines,
                seats=seats,
                notice=notice,
            )
        except WriteConflict:
            self.cache.drop(row.id)
            raise Conflict(game_id=row.id) from None
        except BaseException:
            self.cache.drop(row.id)  # memory is ahead of the database: reload on next use
            raise
        live.log.extend(step[1] for step in done)
        if deadlines is not None:
            self._timers_changed()
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
        if status == "finished":  # a league game's result counts (see bot.manager.leagues)
            await self.leagues._league_game_ended(live)
            await self.stats._game_ended(live)
        await self._changed(live.row, turn_started=status == "active" and game.turn != row.turn)
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
            now = self._clock()
            seats = _with_status(live.row.seats, seat.seat, "resigned")
            done = [self._play(live, Forfeit(seat.seat), user_id, "resigned", now, [])]
            return await self._finish_move(live, done, now, render=render, seats=seats)

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
            await self._changed(row)
            return row

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
        row = live.row
        try:
            game = replay(row, live.log[:keep])
        except ValueError as error:
            raise CorruptGame(game_id=row.id, reason=reason(error)) from error
        now = self._clock()
        progress = Progress(game.turn, keep, game.decision.player, "active", now)
        await self.storage.truncate_actions(
            row.id, len(live.log), keep, progress, deadlines=await self._timers(row, game, now)
        )
        live.game, live.log = game, live.log[:keep]
        self._timers_changed()
        live.row = dataclasses.replace(
            row, turn=game.turn, action_count=keep, current_seat=game.decision.player,
            updated_at=now,
        )  # fmt: skip
        if any(s.status != "playing" and not game.out[s.seat] for s in row.seats):
            await self._finish_move(live, [], now)
        else:
            await self._changed(live.row)

    # -- lobbies (LobbyOps) -----------------------------------------------------

    async def create_lobby(
        self,
        owner_id: int,
        owner_name: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expansions: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        private: bool = False,
        max_players: int = 6,
        turn_seconds: int | None = None,
        timeout_policy: str | None = None,
        locale: str | None = None,
        purist: bool = False,
        clock: tuple[int, int] | None = None,
    ) -> GameRow:
        """See :meth:`LobbyOps.create_lobby`."""
        return await self.lobbies.create_lobby(
            owner_id,
            owner_name,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            expansions=expansions,
            options=options,
            private=private,
            max_players=max_players,
            turn_seconds=turn_seconds,
            timeout_policy=timeout_policy,
            locale=locale,
            purist=purist,
            clock=clock,
        )

    async def join(
        self, game_id: int, user_id: int, name: str, colour: str | None = None
    ) -> GameRow:
        """See :meth:`LobbyOps.join`."""
        return await self.lobbies.join(game_id, user_id, name, colour)

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        """See :meth:`LobbyOps.leave`."""
        return await self.lobbies.leave(game_id, user_id)

    async def add_computer(self, game_id: int, user_id: int, level: str, name: str) -> GameRow:
        """See :meth:`LobbyOps.add_computer`."""
        return await self.lobbies.add_computer(game_id, user_id, level, name)

    async def remove_computer(self, game_id: int, user_id: int, seat: int) -> GameRow:
        """See :meth:`LobbyOps.remove_computer`."""
        return await self.lobbies.remove_computer(game_id, user_id, seat)

    async def set_colour(self, game_id: int, user_id: int, colour: str) -> GameRow:
        """See :meth:`LobbyOps.set_colour`."""
        return await self.lobbies.set_colour(game_id, user_id, colour)

    async def configure(
        self,
        game_id: int,
        user_id: int,
        *,
        game: str | None = None,
        expansions: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seat_order: Sequence[int] | None = None,
        colours: Mapping[int, str] | None = None,
        max_players: int | None = None,
        private: bool | None = None,
        turn_seconds: int | None = None,
        timeout_policy: str | None = None,
        purist: bool | None = None,
        clock: tuple[int, int] | None = None,
    ) -> GameRow:
        """See :meth:`LobbyOps.configure`."""
        return await self.lobbies.configure(
            game_id,
            user_id,
            game=game,
            expansions=expansions,
            options=options,
            seat_order=seat_order,
            colours=colours,
            max_players=max_players,
            private=private,
            turn_seconds=turn_seconds,
            timeout_policy=timeout_policy,
            purist=purist,
            clock=clock,
        )

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> TurnView:
        """See :meth:`LobbyOps.start`."""
        return await self.lobbies.start(game_id, user_id, seed=seed)

    # -- leagues (LeagueOps) ----------------------------------------------------

    def on_league_change(self, listener: LeagueListener) -> None:
        """See :meth:`LeagueOps.on_league_change`."""
        return self.leagues.on_league_change(listener)

    async def league(self, league_id: int) -> LeagueRow:
        """See :meth:`LeagueOps.league`."""
        return await self.leagues.league(league_id)

    async def guild_leagues(self, guild_id: int) -> list[LeagueRow]:
        """See :meth:`LeagueOps.guild_leagues`."""
        return await self.leagues.guild_leagues(guild_id)

    async def find_league(
        self, guild_id: int, name: str | None = None, channel_id: int | None = None
    ) -> LeagueRow:
        """See :meth:`LeagueOps.find_league`."""
        return await self.leagues.find_league(guild_id, name, channel_id)

    async def create_league(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        admin: bool,
        game: str = "carcassonne",
        expansions: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        min_players: int = 2,
        max_players: int = 4,
        pace: LeaguePace = "live",
        turn_hours: int | None = None,
        timeout_policy: str = "skip",
        points: str | Sequence[int] | None = None,
        tiebreaks: Sequence[str] | None = None,
        starts: str | None = None,
        ends: str | None = None,
        computers: str | None = None,
    ) -> LeagueRow:
        """See :meth:`LeagueOps.create_league`."""
        return await self.leagues.create_league(
            guild_id,
            channel_id,
            user_id,
            name,
            admin=admin,
            game=game,
            expansions=expansions,
            options=options,
            min_players=min_players,
            max_players=max_players,
            pace=pace,
            turn_hours=turn_hours,
            timeout_policy=timeout_policy,
            points=points,
            tiebreaks=tiebreaks,
            starts=starts,
            ends=ends,
            computers=computers,
        )

    async def join_league(self, league_id: int, user_id: int, name: str) -> LeagueMember:
        """See :meth:`LeagueOps.join_league`."""
        return await self.leagues.join_league(league_id, user_id, name)

    async def leave_league(self, league_id: int, user_id: int) -> LeagueMember:
        """See :meth:`LeagueOps.leave_league`."""
        return await self.leagues.leave_league(league_id, user_id)

    async def league_members(self, league_id: int) -> list[LeagueMember]:
        """See :meth:`LeagueOps.league_members`."""
        return await self.leagues.league_members(league_id)

    async def schedule(
        self,
        league_id: int,
        by: int,
        *,
        admin: bool,
        players: Sequence[Player] | None = None,
        namer: ComputerNamer = default_computer_name,
    ) -> list[TurnView]:
        """See :meth:`LeagueOps.schedule`."""
        return await self.leagues.schedule(league_id, by, admin=admin, players=players, namer=namer)

    async def challenge(
        self,
        league_id: int,
        user_id: int,
        name: str,
        opponents: Sequence[Player],
        computers: int = 0,
        namer: ComputerNamer = default_computer_name,
    ) -> GameRow:
        """See :meth:`LeagueOps.challenge`."""
        return await self.leagues.challenge(league_id, user_id, name, opponents, computers, namer)

    async def answer_challenge(
        self, game_id: int, user_id: int, name: str, *, accept: bool
    ) -> ChallengeAnswer:
        """See :meth:`LeagueOps.answer_challenge`."""
        return await self.leagues.answer_challenge(game_id, user_id, name, accept=accept)

    async def league_ratings(self, league_id: int) -> tuple[Ratings, list[LeagueResult]]:
        """See :meth:`LeagueOps.league_ratings`."""
        return await self.leagues.league_ratings(league_id)

    async def season_table(self, league_id: int, season: int | None = None) -> SeasonTable:
        """See :meth:`LeagueOps.season_table`."""
        return await self.leagues.season_table(league_id, season)

    async def leaderboard(self, league_id: int) -> list[tuple[LeagueMember, Rating]]:
        """See :meth:`LeagueOps.leaderboard`."""
        return await self.leagues.leaderboard(league_id)

    async def league_profile(self, league_id: int, user_id: int, name: str = "") -> Profile:
        """See :meth:`LeagueOps.league_profile`."""
        return await self.leagues.league_profile(league_id, user_id, name)

    async def annul_result(
        self, game_id: int, user_id: int, why: str, *, admin: bool
    ) -> tuple[LeagueRow, LeagueResult]:
        """See :meth:`LeagueOps.annul_result`."""
        return await self.leagues.annul_result(game_id, user_id, why, admin=admin)

    async def close_season(
        self,
        league_id: int,
        user_id: int,
        why: str,
        *,
        admin: bool,
        next_ends: str | None = None,
    ) -> tuple[SeasonTable, LeagueRow]:
        """See :meth:`LeagueOps.close_season`."""
        return await self.leagues.close_season(
            league_id, user_id, why, admin=admin, next_ends=next_ends
        )

    async def league_log(
        self, league_id: int, user_id: int, *, admin: bool, limit: int = 20
    ) -> list[LeagueAudit]:
        """See :meth:`LeagueOps.league_log`."""
        return await self.leagues.league_log(league_id, user_id, admin=admin, limit=limit)

    def season_end_day(self, season: SeasonRow) -> str | None:
        """See :meth:`LeagueOps.season_end_day`."""
        return self.leagues.season_end_day(season)

    # -- records (RecordsOps) ---------------------------------------------------

    async def export_record(self, game_id: int) -> dict[str, Any]:
        """See :meth:`RecordsOps.export_record`."""
        return await self.records.export_record(game_id)

    async def import_record(
        self,
        record: Any,
        owner_id: int,
        *,
        users: Sequence[int] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> GameRow:
        """See :meth:`RecordsOps.import_record`."""
        return await self.records.import_record(
            record, owner_id, users=users, guild_id=guild_id, channel_id=channel_id
        )

    async def games_in_channel(
        self, channel_id: int, statuses: Sequence[Status] = ("lobby", "active")
    ) -> list[GameRow]:
        """See :meth:`RecordsOps.games_in_channel`."""
        return await self.records.games_in_channel(channel_id, statuses)

    async def games_of_user(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        statuses: Sequence[Status] = ("lobby", "active"),
    ) -> list[GameRow]:
        """See :meth:`RecordsOps.games_of_user`."""
        return await self.records.games_of_user(user_id, guild_id=guild_id, statuses=statuses)

    async def games_awaiting(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """See :meth:`RecordsOps.games_awaiting`."""
        return await self.records.games_awaiting(user_id, guild_id)

    async def set_messages(
        self, game_id: int, *, thread_id: int | None, message_id: int | None
    ) -> None:
        """See :meth:`RecordsOps.set_messages`."""
        return await self.records.set_messages(game_id, thread_id=thread_id, message_id=message_id)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """See :meth:`RecordsOps.guild_settings`."""
        return await self.records.guild_settings(guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """See :meth:`RecordsOps.update_guild_settings`."""
        return await self.records.update_guild_settings(guild_id, **changes)

    async def user_settings(self, user_id: int) -> UserSettings:
        """See :meth:`RecordsOps.user_settings`."""
        return await self.records.user_settings(user_id)

    async def update_user_settings(self, user_id: int, **changes: Any) -> UserSettings:
        """See :meth:`RecordsOps.update_user_settings`."""
        return await self.records.update_user_settings(user_id, **changes)

    # -- timing (TimingOps) -----------------------------------------------------

    async def set_away(self, user_id: int, until: float | None) -> UserSettings:
        """See :meth:`TimingOps.set_away`."""
        return await self.timing.set_away(user_id, until)

    async def turn_clock(self, game_id: int) -> TurnClock | None:
        """See :meth:`TimingOps.turn_clock`."""
        return await self.timing.turn_clock(game_id)

    async def digest_lines(self, guild_id: int) -> list[DigestLine]:
        """See :meth:`TimingOps.digest_lines`."""
        return await self.timing.digest_lines(guild_id)

    # -- chess clocks (ClockOps) ------------------------------------------------------------

    async def chess_clock(self, game_id: int) -> ChessClock | None:
        """See :meth:`ClockOps.chess_clock`."""
        return await self.clocks.chess_clock(game_id)

    async def vote_pause(self, game_id: int, user_id: int, until: float | None) -> PauseVote:
        """See :meth:`ClockOps.vote_pause`."""
        return await self.clocks.vote_pause(game_id, user_id, until)

    async def refuse_pause(self, game_id: int, user_id: int) -> GameRow:
        """See :meth:`ClockOps.refuse_pause`."""
        return await self.clocks.refuse_pause(game_id, user_id)

    async def resume_clock(self, game_id: int, user_id: int | None = None) -> GameRow | None:
        """See :meth:`ClockOps.resume_clock`."""
        return await self.clocks.resume_clock(game_id, user_id)

    # -- statistics (StatsOps) ------------------------------------------------------------------

    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        *,
        versus: int | None = None,
        league_id: int | None = None,
        season: int | None = None,
    ) -> StatsReport:
        """See :meth:`StatsOps.player_stats`."""
        return await self.stats.player_stats(
            guild_id, user_id, versus=versus, league_id=league_id, season=season
        )


Step = tuple[Played, ActionRow]
NOT_A_MOVE = "skipping a turn or leaving is not a move; to leave the game, use the resign command"
#: Forced reasons of the actions that make a player leave: final, never undone.
DEPARTURES = ("resigned", "forfeit")


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


def _with_status(seats: tuple[SeatRow, ...], seat: int, status: SeatStatus) -> tuple[SeatRow, ...]:
    return tuple(dataclasses.replace(s, status=status) if s.seat == seat else s for s in seats)


def _voters(seats: Sequence[SeatRow]) -> frozenset[int]:
    """Who must agree to an undo or an abandon: the people still playing (computers agree)."""
    return frozenset(s.user_id for s in seats if s.status == "playing" and s.computer is None)


def _alone(seats: Sequence[SeatRow], scores: Sequence[int], why: str) -> dict[str, Any] | None:
    """The result of a game that players left until fewer than two remain; else None."""
    playing = [s.seat for s in seats if s.status == "playing"]
    if len(playing) >= 2 or len(playing) == len(seats):
        return None
    return {"reason": why, "scores": list(scores), "winners": playing}


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
