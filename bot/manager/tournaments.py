"""Tournament operations of the game manager: sign-up, check-in, rounds, results, drop-outs.

A tournament fixes a game and its rules (expansions, options, as a league does; a tournament of
a league takes the league's), a table size (2 to 5), a format (:mod:`bot.tournaments`: Swiss
rounds, a knockout bracket, or Swiss rounds then a final table), a pace (``live``: the server's
usual timing; ``post``: play-by-post, a time per turn and per round) and whether computer
players fill short tables. Its life: ``signup`` (players sign up and withdraw), optionally
``checkin`` (players confirm; those who did not are left out at the start), ``running``, then
``finished`` (or ``cancelled``).

**Rounds.** Starting pairs round 1 (:func:`bot.tournaments.pair_swiss` or
:func:`bot.tournaments.knockout`) and creates each table's game with the tournament's setup,
started at once (seats in a random order), recorded with its round and table. When a
tournament game finishes, its table is decided (:meth:`TournamentOps.game_ended`, a listener of
the manager's ``on_game_end``); when the round's last table is decided, the next round is paired
and created — for a knockout, a best-of match's next game, or the next round once every match
is decided — and the tournament finishes when nothing is left to play. The pairing of a round is
stored with the round (one conditional write: two processes ending the last games at once pair
it once), so a restart in the middle of a round resumes it: the next round is paired when the
last game ends, whichever process plays it. :meth:`TournamentOps.tick` (for the scheduler) makes
good what a stop left undone: games finished but not recorded, tables without their game.

**Results.** A table's ranks come from the game as league placings do (winners, then players
who stayed, then score; computers ranked out). A tournament of a league links each game to the
league: the league records its result as any league game's, so it counts for the ratings (a
forfeit has no game and changes nobody's rating). Seeding uses the league's rating when the
tournament starts (1000, a newcomer's, without a league).

**Drop-outs** (the player, or the organiser): past results stay; a game in play is resigned and
its table counts the player as absent (behind everyone, no points); they are paired no more, and
a knockout match of theirs still to play is forfeited (a result with ``absent``, no game).
**Deadlines** (play-by-post): at the round's deadline each unfinished game is stopped and
decided by the scores as they stand; under the ``forfeit`` policy the player whose turn it was
counts as absent (:meth:`TournamentOps.run_deadlines`, called by :meth:`TournamentOps.tick`).
A game abandoned by a player is decided the same way, the player who abandoned it absent.

**Annulling** (the organiser, logged with a reason): the table counts for nothing from then on,
its pairing stands (a round paired after it is not paired again; the standings change). In a
knockout an annulled game of a match still in play is replaced by another game of the match;
once the bracket's next round is paired, its games can no longer be annulled.

**Replaying** (the organiser, logged with a reason: :meth:`TournamentOps.replay_game`): a table
of the round in play is played again. Its game, finished or still in play (then stopped), counts
for nothing (annulled, as above), and a new game of the same players at the same table and
round is created and started at once (the table's next ``game_no``); the round goes on when it
is decided. Not for a game of an earlier round (its results paired the rounds since), a game
annulled or replayed already (replay the table's latest game), a table with a player gone, nor
once the tournament is over.

Who may do what, from two facts the Discord layer passes: ``admin`` (the member can manage the
server) and the tournament's organiser. Creating one needs ``admin`` or organising the league
it belongs to; opening check-in, starting, annulling, replaying, cancelling, dropping someone
else and reading the log need the organiser or ``admin``. ``forget-me`` during a tournament
makes the player "former player N" in its entrants, tables and log as everywhere (their games
in play are resigned first, so their tables count them as they left); the standings add up the
same, and a former player is paired no more (their knockout matches are forfeited), as after a
drop-out.

``keep_days`` deletes a finished game's record only, and a tournament needs nothing of it once
its table is decided: the table's ranks, scores and absentees are stored with the table, so the
standings, pairings, brackets and replays never read a game's record. A finished game whose
table is not decided yet (a stop before its end was recorded) is kept until it is: deciding it
reads its moves (see ``EXPIRED`` in :mod:`bot.storage.sql_privacy`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from bot import leagues, lobby, tournaments
from bot.errors import BadLevel, BadSetup, ManagerError, reason
from bot.i18n import shown_name
from bot.leagues import LeagueNotFound, OnlyAdmins, OnlyOrganisers
from bot.live import LiveGame
from bot.lobby import COMPUTER_LEVELS
from bot.manager.base import ManagerBase
from bot.manager.leagues import (
    MAX_TURN_HOURS,
    POST_TURN_HOURS,
    ComputerNamer,
    LeagueOps,
    default_computer_name,
)
from bot.manager.lobbies import LobbyOps
from bot.outcomes import TurnView
from bot.storage import (
    TIMEOUT_POLICIES,
    GameRow,
    LeagueGame,
    LeaguePace,
    TournamentAudit,
    TournamentEntrant,
    TournamentFormat,
    TournamentGame,
    TournamentRow,
    forgotten_number,
)
from bot.tournaments import (
    AlreadyDropped,
    AlreadyEntered,
    BadAdvance,
    BadBestOf,
    BadRoundHours,
    BadRounds,
    BadTableSize,
    BadTournamentName,
    Bracket,
    CheckinClosed,
    Entrant,
    NotEntered,
    NoTournament,
    NoTournamentResult,
    NotReplayable,
    NotRunning,
    NotTournamentGame,
    PastRound,
    Result,
    SeveralTournaments,
    SignupClosed,
    Standing,
    TooFewEntrants,
    TournamentNameTaken,
    TournamentNotFound,
)
from engine import Game, GameError, Setup

if TYPE_CHECKING:
    from bot.manager import GameManager

log = logging.getLogger(__name__)

#: Default time per round of a play-by-post tournament, and the most.
POST_ROUND_HOURS = 7 * 24
MAX_ROUND_HOURS = 8 * 7 * 24
#: Seeding without a league: a newcomer's rating.
NO_RATING = leagues.RATING_BASE


@dataclass(frozen=True, slots=True)
class TournamentChange:
    """Something that changes what a tournament's messages show.

    ``kind``: ``created``, ``signup``, ``withdrawn``, ``checkin`` (check-in opened),
    ``checked_in``, ``round`` (a round paired: ``games`` are its started games), ``games`` (a
    best-of match's next games), ``result`` (a table decided), ``deadline`` (``game_id``
    stopped at the round's deadline; ``user_id``: the player whose turn it was, counted absent
    under the ``forfeit`` policy), ``dropped``, ``annulled``, ``replayed`` (``game_id``
    annulled, ``games``: the new game of its table), ``finished``, ``cancelled``.
    """

    tournament_id: int
    kind: str
    round: int = 0
    user_id: int | None = None
    game_id: int | None = None
    games: tuple[int, ...] = ()


TournamentListener = Callable[[TournamentChange], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """Where a tournament stands: its entrants, every table so far, the Swiss standings (the
    Swiss rounds' results), the bracket of a knockout, and the final places once finished."""

    tournament: TournamentRow
    entrants: list[TournamentEntrant]
    games: list[TournamentGame]
    standings: list[Standing]
    bracket: Bracket | None
    places: list[int]


def result_of(table: TournamentGame) -> Result:
    """The pure module's result of a decided table (:mod:`bot.tournaments`)."""
    return Result(
        round=table.round,
        table=table.table,
        players=table.players,
        ranks=table.ranks or (),
        scores=table.scores,
        absent=frozenset(table.absent),
        annulled=table.annulled_at is not None,
    )


def in_play(entrant: TournamentEntrant) -> bool:
    """Whether the entrant is still paired: not dropped out, and not forgotten."""
    return entrant.playing and forgotten_number(entrant.user_id) is None


def check_name(name: str) -> str:
    try:
        return leagues.check_name(name)
    except (leagues.BadLeagueName, leagues.BadLeagueChars):
        raise BadTournamentName(length=leagues.NAME_LENGTH) from None


class TournamentOps:
    """Tournaments: creation, sign-up, check-in, rounds and their games, results, drop-outs,
    deadlines, annulments, standings and brackets (see the module)."""

    def __init__(self, core: ManagerBase, lobbies: LobbyOps, league_ops: LeagueOps) -> None:
        self.core = core
        self.lobbies = lobbies
        self.league_ops = league_ops
        self._advancing: dict[int, asyncio.Lock] = {}
        self._listeners: tuple[TournamentListener, ...] = ()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Names the computer seats of tournament games.
        self.namer: ComputerNamer = default_computer_name

    def on_tournament_change(self, listener: TournamentListener) -> None:
        """Call ``listener`` (in a task of its own) after every change of a tournament."""
        self._listeners = (*self._listeners, listener)

    def _notify(self, change: TournamentChange) -> None:
        for listener in self._listeners:
            task = asyncio.create_task(_run_listener(listener, change))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def listened(self) -> None:
        """Wait until every listener call in progress has returned (and those they caused)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- finding tournaments ------------------------------------------------------------------

    async def tournament(self, tournament_id: int) -> TournamentRow:
        found = await self.core.storage.get_tournament(tournament_id)
        if found is None:
            raise TournamentNotFound(name=str(tournament_id))
        return found

    async def guild_tournaments(self, guild_id: int) -> list[TournamentRow]:
        return await self.core.storage.guild_tournaments(guild_id)

    async def find_tournament(
        self, guild_id: int, name: str | None = None, channel_id: int | None = None
    ) -> TournamentRow:
        """The tournament called ``name`` (the newest of that name); without a name, the one
        that fits: the open tournament of this channel, else the server's only open one, else
        its only one."""
        every = await self.core.storage.guild_tournaments(guild_id)
        if name:
            wanted = " ".join(name.split()).casefold()
            for found in reversed(every):
                if found.name.casefold() == wanted or str(found.id) == wanted:
                    return found
            raise TournamentNotFound(name=name)
        if not every:
            raise NoTournament()
        open_ = [t for t in every if t.open]
        for pool in ([t for t in open_ if t.channel_id == channel_id], open_, every):
            if len(pool) == 1:
                return pool[0]
        names = ", ".join(t.name for t in (open_ or every)[:10])
        raise SeveralTournaments(names=names)

    async def _organising(self, tournament: TournamentRow, user_id: int, admin: bool) -> None:
        if not (admin or user_id == tournament.organiser_id):
            raise OnlyOrganisers()

    # -- creating -----------------------------------------------------------------------------

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        admin: bool,
        format: TournamentFormat = "swiss",
        table_size: int = 2,
        rounds: int | None = None,
        best_of: int = 1,
        advance: int | None = None,
        league_id: int | None = None,
        game: str | None = None,
        expansions: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        pace: LeaguePace = "live",
        turn_hours: int | None = None,
        round_hours: int | None = None,
        timeout_policy: str = "skip",
        computers: str | None = None,
    ) -> TournamentRow:
        """A new tournament open for sign-up, organised by ``user_id``: an ``admin``, or the
        organiser of the league ``league_id`` (whose game and rules it then plays; ``game``,
        ``expansions`` and ``options`` are for a tournament without a league).

        ``rounds``: the Swiss rounds (default: enough for a single winner, at least 3);
        ``best_of``: games per knockout match at 2-player tables; ``advance``: players going on
        from each knockout table of 3 to 5 (default 1), or the final table's size after the
        Swiss rounds (default: the table size); ``computers``: the level of the computer
        players that fill short tables (none if ``None``)."""
        league = None
        if league_id is not None:
            league = await self.core.storage.get_league(league_id)
            if league is None or league.guild_id != guild_id:
                raise LeagueNotFound(name=str(league_id))
            if not (admin or user_id == league.organiser_id):
                raise OnlyOrganisers()
        elif not admin:
            raise OnlyAdmins()
        clean = check_name(name)
        taken = await self.guild_tournaments(guild_id)
        if any(t.open and t.name.casefold() == clean.casefold() for t in taken):
            raise TournamentNameTaken(name=clean)
        if format not in tournaments.FORMATS:
            raise BadSetup(reason=f"the format is one of {', '.join(tournaments.FORMATS)}")
        if not tournaments.MIN_TABLE <= table_size <= tournaments.MAX_TABLE:
            raise BadTableSize()
        if best_of not in tournaments.BEST_OF or (best_of > 1 and table_size > 2):
            raise BadBestOf()
        if best_of > 1 and format != "knockout":
            raise BadBestOf()
        if format == "knockout":
            rounds = None
            going = 1 if advance is None else advance
            if table_size > 2 and not 1 <= going <= table_size - 1:
                raise BadAdvance(most=table_size - 1)
            if table_size == 2:
                going = 1
        else:
            if rounds is None:
                rounds = 3
            if not 1 <= rounds <= tournaments.MAX_ROUNDS:
                raise BadRounds(most=tournaments.MAX_ROUNDS)
            going = table_size if advance is None else advance
            if format == "swiss_final" and not (
                tournaments.MIN_TABLE <= going <= tournaments.MAX_TABLE
            ):
                raise BadTableSize()
            if format == "swiss":
                going = 1
        kind = league.kind if league else (game or "carcassonne")
        chosen_expansions = tuple(league.expansions if league else (expansions or ()))
        chosen = dict(league.options if league else (options or {}))
        # Tables may be smaller than the size (a count that does not divide, a knockout's
        # later rounds), and the final table has its own size.
        largest = max(table_size, going) if format == "swiss_final" else table_size
        for size in range(tournaments.MIN_TABLE, largest + 1):
            try:
                Setup(
                    players=tuple(f"p{i}" for i in range(size)),
                    game=kind,
                    expansions=chosen_expansions,
                    options=chosen,
                )
            except GameError as error:
                raise BadSetup(reason=reason(error)) from None
        turn_seconds = round_seconds = None
        if pace == "post":
            hours = POST_TURN_HOURS if turn_hours is None else turn_hours
            if not 1 <= hours <= MAX_TURN_HOURS:
                raise leagues.BadTurnHours()
            turn_seconds = hours * 3600
            per_round = POST_ROUND_HOURS if round_hours is None else round_hours
            if not hours <= per_round <= MAX_ROUND_HOURS:
                raise BadRoundHours(most=MAX_ROUND_HOURS)
            round_seconds = per_round * 3600
        elif pace != "live":
            raise BadSetup(reason="the pace is live or post")
        if computers is not None and computers not in COMPUTER_LEVELS:
            raise BadLevel(level=computers, choices=", ".join(COMPUTER_LEVELS))
        if timeout_policy not in TIMEOUT_POLICIES:
            raise BadSetup(
                reason=f"the timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}"
            )
        now = self.core.clock()
        row = TournamentRow(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            name=clean,
            organiser_id=user_id,
            format=format,
            table_size=table_size,
            league_id=league_id,
            kind=kind,
            expansions=chosen_expansions,
            options=chosen,
            rounds=rounds,
            best_of=best_of,
            advance=going,
            pace=pace,
            turn_seconds=turn_seconds,
            round_seconds=round_seconds,
            timeout_policy=cast("Any", timeout_policy),
            computers=computers,
            created_at=now,
        )
        audit = TournamentAudit(0, user_id, "create", now, reason=clean)
        tid = await self.core.storage.create_tournament(row, audit)
        log.info("tournament %s %r created in guild %s by %s", tid, clean, guild_id, user_id)
        self._notify(TournamentChange(tid, "created"))
        return await self.tournament(tid)

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        """The sign-up (lobby) message of the tournament, as the Discord layer posted it."""
        await self.core.storage.set_tournament_message(tournament_id, message_id)

    # -- sign-up and check-in -----------------------------------------------------------------

    async def entrants(self, tournament_id: int) -> list[TournamentEntrant]:
        return await self.core.storage.tournament_entrants(tournament_id)

    async def games_of(self, tournament_id: int) -> list[TournamentGame]:
        """Every table of every round so far: its players, its game, its result."""
        return await self.core.storage.tournament_games(tournament_id)

    async def running_tournaments(self) -> list[TournamentRow]:
        return await self.core.storage.running_tournaments()

    async def game_table(self, game_id: int) -> TournamentGame | None:
        """The tournament table a game is played at (None: no tournament's game)."""
        return await self.core.storage.tournament_game(game_id)

    async def _entrant(self, tournament: TournamentRow, user_id: int) -> TournamentEntrant:
        for entrant in await self.entrants(tournament.id):
            if entrant.user_id == user_id:
                return entrant
        raise NotEntered(player=f"<@{user_id}>", tournament=tournament.name)

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> TournamentEntrant:
        """``user_id`` signs up (while signing up or checking in: a late sign-up is checked
        in at once)."""
        found = await self.tournament(tournament_id)
        if found.state not in ("signup", "checkin"):
            raise SignupClosed(tournament=found.name)
        if any(e.user_id == user_id for e in await self.entrants(tournament_id)):
            raise AlreadyEntered(tournament=found.name)
        entrant = TournamentEntrant(
            tournament_id,
            user_id,
            shown_name(name),
            self.core.clock(),
            checked_in=found.state == "checkin",
        )
        await self.core.storage.save_entrant(entrant)
        self._notify(TournamentChange(tournament_id, "signup", user_id=user_id))
        return entrant

    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        """``user_id`` withdraws before the first round (once it is paired: :meth:`drop_out`)."""
        found = await self.tournament(tournament_id)
        if found.state not in ("signup", "checkin"):
            raise SignupClosed(tournament=found.name)
        if not await self.core.storage.remove_entrant(tournament_id, user_id):
            raise NotEntered(player=f"<@{user_id}>", tournament=found.name)
        self._notify(TournamentChange(tournament_id, "withdrawn", user_id=user_id))

    async def open_checkin(self, tournament_id: int, by: int, *, admin: bool) -> TournamentRow:
        """The organiser opens check-in: the players signed up confirm they are there; who has
        not when the tournament starts is left out."""
        found = await self.tournament(tournament_id)
        await self._organising(found, by, admin)
        audit = TournamentAudit(tournament_id, by, "checkin", self.core.clock())
        if not await self.core.storage.set_tournament_state(
            tournament_id, "checkin", ("signup",), audit
        ):
            raise SignupClosed(tournament=found.name)
        self._notify(TournamentChange(tournament_id, "checkin"))
        return await self.tournament(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentEntrant:
        found = await self.tournament(tournament_id)
        if found.state != "checkin":
            raise CheckinClosed(tournament=found.name)
        entrant = dataclasses.replace(await self._entrant(found, user_id), checked_in=True)
        await self.core.storage.save_entrant(entrant)
        self._notify(TournamentChange(tournament_id, "checked_in", user_id=user_id))
        return entrant

    # -- starting -----------------------------------------------------------------------------

    async def start_tournament(self, tournament_id: int, by: int, *, admin: bool) -> list[TurnView]:
        """The organiser starts the tournament: the seeding ratings are fixed, players who did
        not check in are left out, and round 1 is paired and its games started (returned)."""
        found = await self.tournament(tournament_id)
        await self._organising(found, by, admin)
        if found.state not in ("signup", "checkin"):
            raise SignupClosed(tournament=found.name)
        every = await self.entrants(tournament_id)
        ratings = None
        if found.league_id is not None:
            ratings, _ = await self.league_ops.league_ratings(found.league_id)
        now = self.core.clock()
        fixed: list[TournamentEntrant] = []
        for entrant in every:
            rating = ratings.of(entrant.user_id).display if ratings else NO_RATING
            out = found.state == "checkin" and not entrant.checked_in
            fixed.append(
                dataclasses.replace(entrant, rating=rating, dropped_round=0 if out else None)
            )
        if sum(e.playing for e in fixed) < tournaments.MIN_TABLE:
            raise TooFewEntrants(tournament=found.name)
        audit = TournamentAudit(tournament_id, by, "start", now, round=1)
        async with self._lock(tournament_id):
            tables = self._pair(found, fixed, [])
            if tables is None:  # pragma: no cover - two players always make a round
                raise TooFewEntrants(tournament=found.name)
            deadline = now + found.round_seconds if found.round_seconds else None
            if not await self.core.storage.start_round(
                tournament_id, 0, deadline, tables, audit=audit, entrants=fixed
            ):
                raise SignupClosed(tournament=found.name)
            log.info("tournament %s started by %s", tournament_id, by)
            started = await self._create_games(await self.tournament(tournament_id))
            await self._settle_forfeits(await self.tournament(tournament_id))
        self._notify(
            TournamentChange(tournament_id, "round", 1, games=tuple(v.game_id for v in started))
        )
        return started

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._advancing.setdefault(tournament_id, asyncio.Lock())

    def _pair(
        self,
        tournament: TournamentRow,
        entrants: Sequence[TournamentEntrant],
        games: Sequence[TournamentGame],
    ) -> list[TournamentGame] | None:
        """The tables of the next round (after ``tournament.round``), None if nothing is left
        to play; for a knockout, the next round's matches (their first game)."""
        round_no = tournament.round + 1
        results = [result_of(g) for g in games if g.decided]
        playing = [Entrant(e.user_id, e.rating) for e in entrants if in_play(e)]
        tid = tournament.id
        if tournament.format == "knockout":
            bracket = self._bracket(tournament, entrants, games)
            if bracket.finished or len(bracket.rounds) < round_no:
                return None
            return [
                TournamentGame(tid, round_no, m.table, m.players) for m in bracket.open_matches()
            ]
        swiss_rounds = tournament.rounds or 0
        if len(playing) < tournaments.MIN_TABLE:
            return None
        if round_no <= swiss_rounds:
            tables = tournaments.pair_swiss(playing, results, tournament.table_size)
            now = self.core.clock()
            return [
                TournamentGame(tid, round_no, t + 1, table)
                if len(table) > 1
                else TournamentGame(tid, round_no, t + 1, table, ranks=(1,), decided_at=now)
                for t, table in enumerate(tables)
            ]
        if tournament.format == "swiss_final" and round_no == swiss_rounds + 1:
            swiss = [r for r in results if r.round <= swiss_rounds]
            alive = {e.key for e in playing}
            order = [s.key for s in tournaments.standings(playing, swiss) if s.key in alive]
            top = tuple(order[: tournament.advance])
            return [TournamentGame(tid, round_no, 1, top)]
        return None

    def _bracket(
        self,
        tournament: TournamentRow,
        entrants: Sequence[TournamentEntrant],
        games: Sequence[TournamentGame],
    ) -> Bracket:
        seeded = [Entrant(e.user_id, e.rating) for e in entrants if e.dropped_round != 0]
        return tournaments.knockout(
            seeded,
            [result_of(g) for g in games if g.decided],
            size=tournament.table_size,
            best_of=tournament.best_of,
            advance=tournament.advance,
            dropped=[e.user_id for e in entrants if not in_play(e)],
        )

    # -- the games of a round -----------------------------------------------------------------

    async def _create_games(self, tournament: TournamentRow) -> list[TurnView]:
        """Create and start the game of each table of the current round that has none yet
        (and is no bye, and has nobody dropped out: those are forfeits)."""
        entrants = {e.user_id: e for e in await self.entrants(tournament.id)}
        started: list[TurnView] = []
        for table in await self.core.storage.tournament_games(tournament.id):
            if table.round != tournament.round or table.decided or table.game_id is not None:
                continue
            if len(table.players) < 2 or any(not in_play(entrants[p]) for p in table.players):
                continue
            view = await self._open_game(tournament, table, entrants)
            if view is not None:
                started.append(view)
        return started

    async def _open_game(
        self,
        tournament: TournamentRow,
        table: TournamentGame,
        entrants: Mapping[int, TournamentEntrant],
    ) -> TurnView | None:
        players = [(p, entrants[p].name) for p in table.players]
        computers = 0
        if tournament.computers is not None:
            computers = max(0, tournament.table_size - len(players))
        first = players[0]
        row = await self.lobbies.create_lobby(
            first[0],
            first[1],
            guild_id=tournament.guild_id,
            channel_id=tournament.channel_id,
            game=tournament.kind,
            expansions=tournament.expansions,
            options=tournament.options,
            max_players=len(players) + computers,
            turn_seconds=tournament.turn_seconds,
            timeout_policy=tournament.timeout_policy if tournament.pace == "post" else None,
        )
        manager = cast("GameManager", self.core)
        if not await self.core.storage.link_tournament_game(table, row.id):
            await manager.abandon(row.id, first[0], admin=True)  # another process made it
            return None
        if tournament.league_id is not None:
            league = await self.core.storage.get_league(tournament.league_id)
            if league is not None:
                link = LeagueGame(
                    row.id,
                    league.id,
                    league.season.season,
                    tournament.organiser_id,
                    self.core.clock(),
                )
                await self.core.storage.link_league_game(link)
        for user, name in players[1:]:
            row = await self.lobbies.join(row.id, user, name)
        level = tournament.computers
        for _ in range(computers):
            assert level is not None
            name = lobby.computer_name(row, lambda n: self.namer(n, level))
            row = await self.lobbies.add_computer(row.id, first[0], level, name)
        order = [s.user_id for s in row.seats]
        random.Random(self.core.seeds()).shuffle(order)
        await self.lobbies.configure(row.id, first[0], seat_order=order)
        view = await self.lobbies.start(row.id, first[0])
        log.info(
            "tournament %s: round %s table %s game %s is game %s",
            tournament.id,
            table.round,
            table.table,
            table.game_no,
            row.id,
        )
        return view

    async def _settle_forfeits(self, tournament: TournamentRow) -> None:
        """Decide the current round's tables that a dropped player makes forfeits (a
        knockout's matches with a player gone; a Swiss table is never paired with one)."""
        entrants = {e.user_id: e for e in await self.entrants(tournament.id)}
        now = self.core.clock()
        for table in await self.core.storage.tournament_games(tournament.id):
            if table.round != tournament.round or table.decided or table.game_id is not None:
                continue
            gone = tuple(p for p in table.players if not in_play(entrants[p]))
            if not gone:
                continue
            decided = dataclasses.replace(
                table,
                ranks=tuple(len(table.players) if p in gone else 1 for p in table.players),
                scores=tuple(0 for _ in table.players),
                absent=gone,
                decided_at=now,
            )
            await self.core.storage.decide_tournament_game(decided)

    # -- results ------------------------------------------------------------------------------

    async def game_ended(self, live: LiveGame) -> None:
        """Decide the table of a tournament game saved as finished (a listener of the
        manager's ``on_game_end``, the game's lock held), then pair the next round or the next
        game if this was the last one. A failure is logged: :meth:`tick` makes it good."""
        try:
            table = await self.core.storage.tournament_game(live.row.id)
            if table is None:
                return
            decided = await self._decide(table, live.row, live.game)
            if decided:
                self._notify(
                    TournamentChange(
                        table.tournament_id, "result", table.round, game_id=live.row.id
                    )
                )
            await self.advance(table.tournament_id, busy=live.row.id)
        except Exception:
            log.exception("tournament result of game %s not recorded", live.row.id)

    async def _decide(self, table: TournamentGame, row: GameRow, game: Game) -> bool:
        winners = (row.result or {}).get("winners", list(game.winners))
        placings = leagues.placings_of(row.seats, game.scores, winners, game.breakdown)
        by_user = {p.user_id: p for p in placings}
        if any(p not in by_user for p in table.players):
            log.warning("tournament game %s lacks a player of its table", row.id)
            return False
        forfeited = {s.user_id for s in row.seats if s.status == "forfeited"}
        absent = tuple(p for p in table.players if p in forfeited or p in table.absent)
        decided = dataclasses.replace(
            table,
            ranks=tuple(by_user[p].rank for p in table.players),
            scores=tuple(by_user[p].score for p in table.players),
            absent=absent,
            decided_at=row.ended_at if row.ended_at is not None else self.core.clock(),
        )
        return await self.core.storage.decide_tournament_game(decided)

    async def _decide_stopped(self, table: TournamentGame, row: GameRow, absent: set[int]) -> bool:
        """Decide a table whose game stopped before its end, on the scores as they stood."""
        scores = list((row.result or {}).get("scores", ()))
        if len(scores) != len(row.seats):
            scores = [0] * len(row.seats)
        seat_of = {s.user_id: s.seat for s in row.seats}
        mine = [int(scores[seat_of[p]]) if p in seat_of else 0 for p in table.players]
        gone = absent | set(table.absent) | {s.user_id for s in row.seats if s.status != "playing"}
        left = [p in gone for p in table.players]
        decided = dataclasses.replace(
            table,
            ranks=tuple(leagues.ranks_of(mine, (), left)),
            scores=tuple(mine),
            absent=tuple(p for p in table.players if p in gone),
            decided_at=row.ended_at if row.ended_at is not None else self.core.clock(),
        )
        return await self.core.storage.decide_tournament_game(decided)

    async def _catch_up(self, tournament: TournamentRow, busy: int | None) -> None:
        """Decide the tables whose game ended without being recorded (a stop of the bot, a
        game abandoned), except ``busy``'s (its lock is held by the caller)."""
        for table in await self.core.storage.tournament_games(tournament.id):
            if table.decided or table.game_id is None or table.game_id == busy:
                continue
            if self.core.lock(table.game_id).locked():
                continue  # a move in progress: its own end listener decides it
            row = await self.core.storage.get_game(table.game_id)
            if row is None:
                continue
            if row.status == "finished":
                async with self.core.hold(table.game_id) as live:
                    await self._decide(table, live.row, live.game)
            elif row.status == "abandoned":
                by = (row.result or {}).get("by")
                absent = {by} if by in table.players and by != tournament.organiser_id else set()
                await self._decide_stopped(table, row, absent)

    async def advance(self, tournament_id: int, *, busy: int | None = None) -> list[TurnView]:
        """Bring the tournament up to date: record what is unrecorded, create the games
        missing, and once every table of the round is decided, pair the next round (or a
        knockout match's next game), or finish. Returns the games started. ``busy``: a game
        whose lock the caller holds."""
        started: list[TurnView] = []
        async with self._lock(tournament_id):
            while True:
                found = await self.tournament(tournament_id)
                if found.state != "running":
                    return started
                await self._catch_up(found, busy)
                await self._settle_forfeits(found)
                made = await self._create_games(found)
                if made:  # a best-of match's next game, or the games a stop left uncreated
                    started += made
                    self._notify(
                        TournamentChange(
                            tournament_id,
                            "games",
                            found.round,
                            games=tuple(v.game_id for v in made),
                        )
                    )
                games = await self.core.storage.tournament_games(tournament_id)
                entrants = await self.entrants(tournament_id)
                if found.format == "knockout":
                    more = self._next_games(found, entrants, games)
                    if more:  # a match goes on at once, whatever the others do
                        await self.core.storage.add_tournament_games(more)
                        continue
                if any(not g.decided for g in games if g.round == found.round):
                    return started
                tables = self._pair(found, entrants, games)
                if not tables:
                    await self._finish(found)
                    return started
                now = self.core.clock()
                deadline = now + found.round_seconds if found.round_seconds else None
                round_no = found.round + 1
                if not await self.core.storage.start_round(
                    tournament_id, found.round, deadline, tables
                ):
                    continue  # another process paired it
                log.info("tournament %s: round %s paired", tournament_id, round_no)
                fresh = await self._create_games(await self.tournament(tournament_id))
                started += fresh
                self._notify(
                    TournamentChange(
                        tournament_id, "round", round_no, games=tuple(v.game_id for v in fresh)
                    )
                )
                # Around again: a round of forfeits only is decided at once, and so on.

    def _next_games(
        self,
        tournament: TournamentRow,
        entrants: Sequence[TournamentEntrant],
        games: Sequence[TournamentGame],
    ) -> list[TournamentGame]:
        """The next game of each knockout match of the current round still undecided and
        without a game in play."""
        bracket = self._bracket(tournament, entrants, games)
        if len(bracket.rounds) != tournament.round:
            return []
        more = []
        for match in bracket.open_matches():
            played = [g for g in games if (g.round, g.table) == (match.round, match.table)]
            if any(not g.decided for g in played):
                continue
            number = 1 + max((g.game_no for g in played), default=0)
            more.append(
                TournamentGame(tournament.id, match.round, match.table, match.players, number)
            )
        return more

    async def _finish(self, tournament: TournamentRow) -> None:
        now = self.core.clock()
        if await self.core.storage.set_tournament_state(
            tournament.id, "finished", ("running",), ended_at=now
        ):
            log.info("tournament %s finished", tournament.id)
            self._notify(TournamentChange(tournament.id, "finished", tournament.round))

    # -- drop-outs, deadlines, corrections ----------------------------------------------------

    async def drop_out(
        self, tournament_id: int, user_id: int, by: int, *, admin: bool, why: str = ""
    ) -> TournamentEntrant:
        """``user_id`` leaves the tournament (themselves, or the organiser drops them, with a
        reason): before the first round it is a withdrawal; later, their game in play is
        resigned (they are absent at its table) and their matches still to play are forfeited.
        Their past results stay."""
        found = await self.tournament(tournament_id)
        if by != user_id:
            await self._organising(found, by, admin)
        if found.state in ("signup", "checkin"):
            entrant = await self._entrant(found, user_id)
            await self.withdraw(tournament_id, user_id)
            return entrant
        if found.state != "running":
            raise NotRunning(tournament=found.name)
        entrant = await self._entrant(found, user_id)
        if not entrant.playing:
            raise AlreadyDropped(player=f"<@{user_id}>", tournament=found.name)
        gone = dataclasses.replace(entrant, dropped_round=found.round)
        text = leagues.check_reason(why) if by != user_id else why.strip() and shown_name(why, 300)
        audit = TournamentAudit(
            tournament_id, by, "drop", self.core.clock(), reason=text, round=found.round
        )
        await self.core.storage.save_entrant(gone, audit)
        log.info("tournament %s: %s dropped out (by %s)", tournament_id, user_id, by)
        manager = cast("GameManager", self.core)
        for table in await self.core.storage.tournament_games(tournament_id):
            if table.decided or user_id not in table.players or table.game_id is None:
                continue
            await self.core.storage.mark_absent(table, (*table.absent, user_id))
            row = await self.core.game(table.game_id)
            seat = row.seat_of(user_id)
            if row.status == "active" and seat is not None and seat.status == "playing":
                await manager.resign(table.game_id, user_id)
        self._notify(TournamentChange(tournament_id, "dropped", found.round, user_id=user_id))
        await self.advance(tournament_id)
        return gone

    async def run_deadlines(self) -> list[int]:
        """Decide the unfinished games of every round whose deadline has come (play-by-post;
        see the module), then pair the next rounds. For the scheduler; returns the games
        stopped."""
        stopped: list[int] = []
        for found in await self.core.storage.running_tournaments(due_by=self.core.clock()):
            stopped += await self._stop_round(found)
            await self.advance(found.id)
        return stopped

    async def _stop_round(self, found: TournamentRow) -> list[int]:
        """Stop the round's games still in play. Not under the tournament's lock: a game's
        end listener, holding the game's lock, waits for that one (a move in progress is left
        to end, and the next tick stops the game if it is still in play). The late player is
        marked absent before the game stops, so whoever decides the table counts them so."""
        stopped: list[int] = []
        manager = cast("GameManager", self.core)
        for table in await self.core.storage.tournament_games(found.id):
            if table.round != found.round or table.decided or table.game_id is None:
                continue
            if self.core.lock(table.game_id).locked():
                continue
            row = await self.core.game(table.game_id)
            if row.status != "active":
                continue
            current = row.current_user
            late = None
            if found.timeout_policy == "forfeit" and current in table.players:
                late = current
                await self.core.storage.mark_absent(table, (*table.absent, current))
            try:
                ended = await manager.abandon(table.game_id, found.organiser_id, admin=True)
            except ManagerError as error:  # it ended meanwhile: its own result counts
                log.info("tournament game %s not stopped: %s", table.game_id, error.key)
                await self.core.storage.mark_absent(table, table.absent)
                continue
            marked = await self.core.storage.tournament_game(table.game_id)
            await self._decide_stopped(marked or table, ended, set())
            stopped.append(row.id)
            self._notify(
                TournamentChange(found.id, "deadline", found.round, user_id=late, game_id=row.id)
            )
            log.info("tournament %s: game %s decided at the deadline", found.id, row.id)
        return stopped

    async def tick(self) -> None:
        """What the scheduler calls now and then: deadlines due, and every running tournament
        brought up to date (:meth:`advance`)."""
        await self.run_deadlines()
        for found in await self.core.storage.running_tournaments():
            try:
                await self.advance(found.id)
            except Exception:
                log.exception("tournament %s not brought up to date", found.id)

    async def annul_game(
        self,
        game_id: int,
        by: int,
        why: str,
        *,
        admin: bool,
        guild_id: int | None = None,
    ) -> TournamentGame:
        """The organiser annuls the decided table of a tournament game, with a reason (logged):
        it counts for nothing, its pairing stands (see the module)."""
        text = leagues.check_reason(why)
        table = await self.core.storage.tournament_game(game_id)
        if table is None:
            raise NotTournamentGame(game_id=game_id)
        found = await self.tournament(table.tournament_id)
        if guild_id is not None and found.guild_id != guild_id:
            raise NotTournamentGame(game_id=game_id)
        await self._organising(found, by, admin)
        if not table.decided or table.annulled_at is not None:
            raise NoTournamentResult(game_id=game_id)
        if found.format == "knockout" and table.round != found.round:
            raise NoTournamentResult(game_id=game_id)
        now = self.core.clock()
        audit = TournamentAudit(
            found.id, by, "annul", now, reason=text, round=table.round, game_id=game_id
        )
        if not await self.core.storage.annul_tournament_game(table, now, audit):
            raise NoTournamentResult(game_id=game_id)
        log.warning("tournament %s: game %s annulled by %s: %s", found.id, game_id, by, text)
        self._notify(TournamentChange(found.id, "annulled", table.round, game_id=game_id))
        if found.format == "knockout":
            await self.advance(found.id)  # the match plays another game
        return dataclasses.replace(table, annulled_at=now)

    async def replay_game(
        self,
        game_id: int,
        by: int,
        why: str,
        *,
        admin: bool,
        guild_id: int | None = None,
    ) -> TurnView:
        """The organiser has a table of the round in play played again, with a reason (logged):
        its game (finished, or stopped if still in play) counts for nothing, and a new game of
        the same players at the same table and round is created and started (returned; see
        the module)."""
        text = leagues.check_reason(why)
        table = await self.core.storage.tournament_game(game_id)
        if table is None:
            raise NotTournamentGame(game_id=game_id)
        found = await self.tournament(table.tournament_id)
        if guild_id is not None and found.guild_id != guild_id:
            raise NotTournamentGame(game_id=game_id)
        await self._organising(found, by, admin)
        if found.state != "running":
            raise NotRunning(tournament=found.name)
        if table.round != found.round:
            raise PastRound(game_id=game_id, round=table.round, current=found.round)
        entrants = {e.user_id: e for e in await self.entrants(found.id)}
        for player in table.players:
            if not in_play(entrants[player]):
                raise AlreadyDropped(player=f"<@{player}>", tournament=found.name)
        manager = cast("GameManager", self.core)
        # Stopped before the tournament's lock is taken: a game ending holds its own lock and
        # then waits for the tournament's (its end listener), so the two are never held at once
        # the other way round.
        if not table.decided:
            try:
                await manager.abandon(game_id, by, admin=True)
            except ManagerError as error:  # it ended meanwhile: its end listener decided it
                log.info("tournament game %s not stopped: %s", game_id, error.key)
                async with self.core.lock(game_id):
                    pass
        async with self._lock(found.id):
            found = await self.tournament(found.id)
            table = await self.core.storage.tournament_game(game_id)
            assert table is not None
            if found.state != "running":
                raise NotRunning(tournament=found.name)
            if table.round != found.round:
                raise PastRound(game_id=game_id, round=table.round, current=found.round)
            games = await self.core.storage.tournament_games(found.id)
            same = [g for g in games if (g.round, g.table) == (table.round, table.table)]
            if table.annulled_at is not None or any(g.game_no > table.game_no for g in same):
                raise NotReplayable(game_id=game_id)
            if not table.decided:  # stopped here, or its end not recorded: decided first
                row = await self.core.game(game_id)
                if row.status == "finished" and not self.core.lock(game_id).locked():
                    async with self.core.hold(game_id) as live:
                        await self._decide(table, live.row, live.game)
                elif row.status == "abandoned":
                    await self._decide_stopped(table, row, set())
                table = await self.core.storage.tournament_game(game_id)
                assert table is not None
                if not table.decided:
                    raise NotReplayable(game_id=game_id)
            now = self.core.clock()
            audit = TournamentAudit(
                found.id, by, "replay", now, reason=text, round=table.round, game_id=game_id
            )
            if not await self.core.storage.annul_tournament_game(table, now, audit):
                raise NotReplayable(game_id=game_id)
            again = TournamentGame(
                found.id, table.round, table.table, table.players, table.game_no + 1
            )
            await self.core.storage.add_tournament_games([again])
            log.warning("tournament %s: game %s replayed (by %s): %s", found.id, game_id, by, text)
            made = await self._create_games(await self.tournament(found.id))
        fresh = [v for v in made if v.game_id != game_id]
        replay = next(
            (v for v in fresh if {s.user_id for s in v.game.seats} >= set(table.players)), None
        )
        if replay is None:  # pragma: no cover - its players are in play: the game is made
            raise NotReplayable(game_id=game_id)
        self._notify(
            TournamentChange(
                found.id,
                "replayed",
                table.round,
                game_id=game_id,
                games=tuple(v.game_id for v in fresh),
            )
        )
        return replay

    async def cancel(self, tournament_id: int, by: int, why: str, *, admin: bool) -> TournamentRow:
        """The organiser cancels the tournament (logged): its games in play are abandoned."""
        found = await self.tournament(tournament_id)
        await self._organising(found, by, admin)
        text = leagues.check_reason(why)
        now = self.core.clock()
        audit = TournamentAudit(tournament_id, by, "cancel", now, reason=text, round=found.round)
        if not await self.core.storage.set_tournament_state(
            tournament_id, "cancelled", ("signup", "checkin", "running"), audit, ended_at=now
        ):
            raise NotRunning(tournament=found.name)
        manager = cast("GameManager", self.core)
        for table in await self.core.storage.tournament_games(tournament_id):
            if table.game_id is not None and not table.decided:
                row = await self.core.game(table.game_id)
                if row.status in ("lobby", "active"):
                    await manager.abandon(row.id, by, admin=True)
        self._notify(TournamentChange(tournament_id, "cancelled", found.round))
        return await self.tournament(tournament_id)

    async def tournament_log(
        self, tournament_id: int, by: int, *, admin: bool, limit: int = 20
    ) -> list[TournamentAudit]:
        found = await self.tournament(tournament_id)
        await self._organising(found, by, admin)
        return await self.core.storage.tournament_audit(tournament_id, limit)

    # -- views --------------------------------------------------------------------------------

    async def table(self, tournament_id: int) -> TournamentTable:
        """Where the tournament stands (after bringing it up to date)."""
        found = await self.tournament(tournament_id)
        if found.state == "running":
            await self.advance(tournament_id)
            found = await self.tournament(tournament_id)
        entrants = await self.entrants(tournament_id)
        games = await self.core.storage.tournament_games(tournament_id)
        seeded = [Entrant(e.user_id, e.rating) for e in entrants if e.dropped_round != 0]
        results = [result_of(g) for g in games if g.decided]
        bracket = None
        places: list[int] = []
        if found.format == "knockout":
            bracket = self._bracket(found, entrants, games)
            rows: list[Standing] = []
            places = list(bracket.winner_order)
        else:
            swiss = [r for r in results if r.round <= (found.rounds or 0)]
            rows = tournaments.standings(seeded, swiss)
            if found.state == "finished":
                final = None
                if found.format == "swiss_final":
                    final = next((r for r in results if r.round > (found.rounds or 0)), None)
                places = tournaments.final_places(seeded, swiss, final)
        return TournamentTable(found, entrants, games, rows, bracket, places)

    async def standings(self, tournament_id: int) -> list[Standing]:
        """The Swiss standings (of the Swiss rounds; empty for a knockout)."""
        return (await self.table(tournament_id)).standings

    async def bracket(self, tournament_id: int) -> Bracket | None:
        """The knockout bracket (None for a Swiss tournament)."""
        return (await self.table(tournament_id)).bracket


async def _run_listener(listener: TournamentListener, change: TournamentChange) -> None:
    try:
        await listener(change)
    except Exception:
        log.exception("tournament listener failed on %s", change)
