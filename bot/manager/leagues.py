"""League operations of the game manager: leagues, members, league games, results, seasons.

A league fixes a game and its rules (expansions, options), a table size (2 to 5 players), a pace
(``live``: the server's usual timing; ``post``: play-by-post with a time per turn), standings
points and tie-breakers, and season dates. Its games are ordinary games created with that setup
and linked to the league:

* ``schedule`` (the organiser, or members who can manage the server): one game with the players
  named, or, with nobody named, a round: every free member is seated at tables of the league's
  size, players of similar rating together (see :func:`bot.leagues.pair_tables`). Scheduled games
  start at once.
* ``challenge`` (any member): a game the challenger opens for the members they name; it starts
  when all of them accept, and is abandoned if one declines.

When a linked game finishes, its placings are stored as the league's result for the game's
season (:meth:`LeagueOps.game_ended`, a listener of the manager's :meth:`on_game_end
<bot.manager.base.ManagerBase.on_game_end>`, told after the last move is saved); a game counts
only if it ends while its season is open. Ratings and standings are recomputed from
the stored results (:mod:`bot.leagues`), so an annulled result is simply left out.

Who may do what is decided here from two facts the Discord layer passes: ``admin`` (the member
can manage the server) and the league's organiser. Creating a league and annulling a result need
``admin``; scheduling, closing a season and reading the log need the organiser or ``admin``.
Closing a season and annulling a result are logged (who, what, reason, when) in the same
transaction as the change.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from bot import leagues, lobby
from bot.errors import BadLevel, BadSetup, NoComputers, reason
from bot.i18n import shown_name
from bot.leagues import (
    AlreadyMember,
    BadFormat,
    BadTable,
    BadTurnHours,
    Busy,
    ChallengeClosed,
    ChallengeSelf,
    LeagueClosed,
    LeagueNameTaken,
    LeagueNotFound,
    NamedTwice,
    NobodyFree,
    NoLeague,
    NoResult,
    NotInvited,
    NotLeagueGame,
    NotMember,
    NotMemberSelf,
    OnlyAdmins,
    OnlyOrganisers,
    Profile,
    Rating,
    Ratings,
    SeasonNotStarted,
    SeasonOver,
    SeveralLeagues,
    Standing,
)
from bot.live import LiveGame
from bot.lobby import COMPUTER_LEVELS
from bot.manager.base import ManagerBase
from bot.manager.lobbies import LobbyOps
from bot.outcomes import TurnView
from bot.storage import (
    TIMEOUT_POLICIES,
    GameRow,
    LeagueAudit,
    LeagueGame,
    LeagueMember,
    LeaguePace,
    LeagueResult,
    LeagueRow,
    SeasonRow,
)
from engine import Game, GameError, Setup

if TYPE_CHECKING:
    from bot.manager import GameManager

log = logging.getLogger(__name__)

#: Default time per turn of a play-by-post league.
POST_TURN_HOURS = 24
MAX_TURN_HOURS = 14 * 24
Player = tuple[int, str]
#: A computer seat's name from its number among the computers and its level.
ComputerNamer = Callable[[int, str], str]


def default_computer_name(number: int, level: str) -> str:
    return f"Bot {number} ({level})"


@dataclass(frozen=True, slots=True)
class LeagueChange:
    """Something that changes what a league's standings message shows.

    ``kind``: ``created``, ``joined``, ``left``, ``result`` (a game counted), ``annulled``,
    ``closed`` (``season`` is the closed one).
    """

    league_id: int
    kind: str
    season: int
    game_id: int | None = None


LeagueListener = Callable[[LeagueChange], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class SeasonTable:
    league: LeagueRow
    season: SeasonRow
    rows: list[Standing]
    games: int
    in_play: int


@dataclass(frozen=True, slots=True)
class ChallengeAnswer:
    """After an answer to a challenge: the game, who still has to accept, and whether it
    started (``view``) or was declined."""

    game: GameRow
    waiting: tuple[int, ...]
    view: TurnView | None = None
    declined: bool = False


def _day(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d")


class LeagueOps:
    """Leagues: creation, members, challenges, scheduling, results, ratings, seasons, audit log.
    League games are lobbies and games like any other (through :class:`LobbyOps`)."""

    def __init__(self, core: ManagerBase, lobbies: LobbyOps) -> None:
        self.core = core
        self.lobbies = lobbies

    _league_listeners: tuple[LeagueListener, ...] = ()

    def on_league_change(self, listener: LeagueListener) -> None:
        """Call ``listener`` (in a task of its own) after every change of a league."""
        self._league_listeners = (*self._league_listeners, listener)

    def _notify(self, change: LeagueChange) -> None:
        tasks: set[asyncio.Task[None]] = self.__dict__.setdefault("_league_tasks", set())
        for listener in self._league_listeners:
            task = asyncio.create_task(_run_listener(listener, change))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    # -- finding leagues ----------------------------------------------------------------------

    async def league(self, league_id: int) -> LeagueRow:
        found = await self.core.storage.get_league(league_id)
        if found is None:
            raise LeagueNotFound(name=str(league_id))
        return found

    async def guild_leagues(self, guild_id: int) -> list[LeagueRow]:
        return await self.core.storage.guild_leagues(guild_id)

    async def find_league(
        self, guild_id: int, name: str | None = None, channel_id: int | None = None
    ) -> LeagueRow:
        """The league called ``name``; without a name, the one league that fits: the open
        league of this channel, else the server's only open league, else its only league."""
        every = await self.core.storage.guild_leagues(guild_id)
        if name:
            wanted = " ".join(name.split()).casefold()
            for league in every:
                if league.name.casefold() == wanted or str(league.id) == wanted:
                    return league
            raise LeagueNotFound(name=name)
        if not every:
            raise NoLeague()
        open_ = [lg for lg in every if not lg.closed]
        for pool in ([lg for lg in open_ if lg.channel_id == channel_id], open_, every):
            if len(pool) == 1:
                return pool[0]
        names = ", ".join(lg.name for lg in (open_ or every)[:10])
        raise SeveralLeagues(names=names)

    # -- creating and joining -----------------------------------------------------------------

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
        """A new league with its first season; ``user_id`` (who must be ``admin``) organises it.
        ``computers``: the level of the computer players its games may seat (none if ``None``)."""
        if not admin:
            raise OnlyAdmins()
        clean = leagues.check_name(name)
        if any(lg.name.casefold() == clean.casefold() for lg in await self.guild_leagues(guild_id)):
            raise LeagueNameTaken(name=clean)
        if not leagues.MIN_TABLE <= min_players <= max_players <= leagues.MAX_TABLE:
            raise BadFormat()
        chosen = dict(options or {})
        for size in {min_players, max_players}:
            try:
                Setup(
                    players=tuple(f"p{i}" for i in range(size)),
                    game=game,
                    expansions=tuple(expansions),
                    options=chosen,
                )
            except GameError as error:
                raise BadSetup(reason=reason(error)) from None
        seconds = None
        if pace == "post":
            hours = POST_TURN_HOURS if turn_hours is None else turn_hours
            if not 1 <= hours <= MAX_TURN_HOURS:
                raise BadTurnHours()
            seconds = hours * 3600
        if computers is not None and computers not in COMPUTER_LEVELS:
            raise BadLevel(level=computers, choices=", ".join(COMPUTER_LEVELS))
        if timeout_policy not in TIMEOUT_POLICIES:
            raise BadSetup(
                reason=f"the timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}"
            )
        values: tuple[int, ...]
        if points is None:
            values = leagues.DEFAULT_POINTS
        elif isinstance(points, str):
            values = leagues.parse_points(points)
        else:
            values = leagues.parse_points(",".join(str(p) for p in points))
        order = tuple(tiebreaks) if tiebreaks is not None else leagues.DEFAULT_TIEBREAKS
        if any(t not in leagues.TIEBREAKS for t in order):
            raise BadSetup(reason=f"tie-breakers are among {', '.join(leagues.TIEBREAKS)}")
        now = self.core.clock()
        start, end = leagues.season_dates(starts, ends, now)
        row = LeagueRow(
            id=0,
            guild_id=guild_id,
            name=clean,
            organiser_id=user_id,
            channel_id=channel_id,
            season=SeasonRow(0, 1, start, end),
            kind=game,
            expansions=tuple(expansions),
            options=chosen,
            min_players=min_players,
            max_players=max_players,
            pace=pace,
            turn_seconds=seconds,
            timeout_policy=timeout_policy,
            points=values,
            tiebreaks=order,
            created_at=now,
            computers=computers,
        )
        audit = LeagueAudit(0, user_id, "create", now, reason=clean, season=1)
        league_id = await self.core.storage.create_league(row, audit)
        log.info("league %s %r created in guild %s by %s", league_id, clean, guild_id, user_id)
        created = await self.league(league_id)
        self._notify(LeagueChange(league_id, "created", 1))
        return created

    async def join_league(self, league_id: int, user_id: int, name: str) -> LeagueMember:
        league = await self.league(league_id)
        if league.closed:
            raise LeagueClosed(league=league.name)
        members = await self.core.storage.league_members(league_id, include_left=True)
        old = next((m for m in members if m.user_id == user_id), None)
        if old is not None and old.left_at is None:
            raise AlreadyMember(league=league.name)
        member = LeagueMember(league_id, user_id, shown_name(name), self.core.clock())
        await self.core.storage.save_league_member(member)
        self._notify(LeagueChange(league_id, "joined", league.season.season))
        return member

    async def leave_league(self, league_id: int, user_id: int) -> LeagueMember:
        """Leave a league: results stay, and games already started are played to the end."""
        league = await self.league(league_id)
        member = await self._member(league, user_id, self_=True)
        gone = dataclasses.replace(member, left_at=self.core.clock())
        await self.core.storage.save_league_member(gone)
        self._notify(LeagueChange(league_id, "left", league.season.season))
        return gone

    async def league_members(self, league_id: int) -> list[LeagueMember]:
        return await self.core.storage.league_members(league_id)

    async def _member(self, league: LeagueRow, user_id: int, *, self_: bool) -> LeagueMember:
        for member in await self.core.storage.league_members(league.id):
            if member.user_id == user_id:
                return member
        if self_:
            raise NotMemberSelf(league=league.name)
        raise NotMember(player=f"<@{user_id}>", league=league.name)

    # -- league games -------------------------------------------------------------------------

    def _require_playing_time(self, league: LeagueRow) -> None:
        season, now = league.season, self.core.clock()
        if league.closed:
            raise LeagueClosed(league=league.name)
        if now < season.starts_at:
            raise SeasonNotStarted(
                season=season.season, league=league.name, date=_day(season.starts_at)
            )
        if season.ends_at is not None and now >= season.ends_at:
            raise SeasonOver(
                season=season.season, league=league.name, date=_day(season.ends_at - 1)
            )

    async def _busy(self, league: LeagueRow) -> dict[int, int]:
        """Players in an unfinished game (or open challenge) of the league -> that game."""
        busy: dict[int, int] = {}
        for link, row in await self.core.storage.league_games(league.id):
            for user in (*(s.user_id for s in row.seats), *link.invited):
                busy.setdefault(user, row.id)
        return busy

    async def _check_table(
        self, league: LeagueRow, players: Sequence[Player], computers: int = 0
    ) -> None:
        if computers and league.computers is None:
            raise NoComputers()
        if not league.min_players <= len(players) + computers <= league.max_players:
            raise BadTable(
                league=league.name,
                low=league.min_players,
                high=league.max_players,
                count=len(players) + computers,
            )
        seen: set[int] = set()
        members = {m.user_id for m in await self.core.storage.league_members(league.id)}
        busy = await self._busy(league)
        for user, _ in players:
            if user in seen:
                raise NamedTwice(player=f"<@{user}>")
            seen.add(user)
            if user not in members:
                raise NotMember(player=f"<@{user}>", league=league.name)
            if user in busy:
                raise Busy(player=f"<@{user}>", league=league.name, game_id=busy[user])

    async def _open_game(
        self,
        league: LeagueRow,
        by: int,
        players: Sequence[Player],
        invited: Sequence[int] = (),
        computers: int = 0,
        namer: ComputerNamer = default_computer_name,
    ) -> GameRow:
        """A lobby with the league's setup, linked to the league; ``players`` are seated, then
        ``computers`` computer players at the league's level."""
        first, rest = players[0], players[1:]
        row = await self.lobbies.create_lobby(
            first[0],
            first[1],
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            game=league.kind,
            expansions=league.expansions,
            options=league.options,
            max_players=len(players) + len(invited) + computers,
            turn_seconds=league.turn_seconds,
            timeout_policy=league.timeout_policy if league.pace == "post" else None,
        )
        link = LeagueGame(
            row.id, league.id, league.season.season, by, self.core.clock(), tuple(invited)
        )
        await self.core.storage.link_league_game(link)
        for user, name in rest:
            row = await self.lobbies.join(row.id, user, name)
        level = league.computers
        for _ in range(computers):
            assert level is not None  # _check_table refused otherwise
            name = lobby.computer_name(row, lambda n: namer(n, level))
            row = await self.lobbies.add_computer(row.id, first[0], level, name)
        return row

    async def schedule(
        self,
        league_id: int,
        by: int,
        *,
        admin: bool,
        players: Sequence[Player] | None = None,
        namer: ComputerNamer = default_computer_name,
    ) -> list[TurnView]:
        """Start a league game with ``players`` (in a random seat order), or with none named a
        round of tables for every free member. In a league with computer players, a table
        short of the league's smallest size is filled with them (at least two people each).
        Returns the started games."""
        league = await self.league(league_id)
        if not (admin or by == league.organiser_id):
            raise OnlyOrganisers()
        self._require_playing_time(league)
        rng = random.Random(self.core.seeds())
        if players:
            await self._check_table(league, players, self._filling(league, len(players)))
            tables = [list(players)]
        else:
            tables = await self._round(league)
        started = []
        for table in tables:
            rng.shuffle(table)
            computers = self._filling(league, len(table))
            row = await self._open_game(league, by, table, computers=computers, namer=namer)
            if computers:
                order = [s.user_id for s in row.seats]
                rng.shuffle(order)
                await self.lobbies.configure(row.id, table[0][0], seat_order=order)
            started.append(await self.lobbies.start(row.id, table[0][0]))
        log.info("league %s: %s scheduled games %s", league_id, by, [v.game_id for v in started])
        return started

    @staticmethod
    def _filling(league: LeagueRow, people: int) -> int:
        """How many computer players a table of ``people`` gets: up to the league's smallest
        table if the league has computers and the table has two people to rate."""
        if league.computers is None or people < leagues.MIN_TABLE:
            return 0
        return max(0, league.min_players - people)

    async def _round(self, league: LeagueRow) -> list[list[Player]]:
        members = await self.core.storage.league_members(league.id)
        busy = await self._busy(league)
        free = [m for m in members if m.user_id not in busy]
        results = await self.core.storage.league_results(league.id)
        ratings = await asyncio.to_thread(leagues.rate, results)
        played: dict[int, int] = {}
        for result in results:
            if result.counted and result.season == league.season.season:
                for p in result.placings:
                    played[p.user_id] = played.get(p.user_id, 0) + 1
        candidates = [(m.user_id, played.get(m.user_id, 0), ratings.of(m.user_id).mu) for m in free]
        low = leagues.MIN_TABLE if league.computers is not None else league.min_players
        tables, _ = leagues.pair_tables(candidates, low, league.max_players)
        if not tables:
            raise NobodyFree(league=league.name, count=len(free), low=league.min_players)
        names = {m.user_id: m.name for m in members}
        return [[(u, names[u]) for u in table] for table in tables]

    async def challenge(
        self,
        league_id: int,
        user_id: int,
        name: str,
        opponents: Sequence[Player],
        computers: int = 0,
        namer: ComputerNamer = default_computer_name,
    ) -> GameRow:
        """``user_id`` challenges ``opponents``: a league game that starts once all accept,
        with ``computers`` computer players too if the league has them."""
        league = await self.league(league_id)
        self._require_playing_time(league)
        await self._member(league, user_id, self_=True)
        if any(user == user_id for user, _ in opponents):
            raise ChallengeSelf()
        await self._check_table(league, [(user_id, name), *opponents], computers)
        row = await self._open_game(
            league,
            user_id,
            [(user_id, name)],
            invited=[u for u, _ in opponents],
            computers=computers,
            namer=namer,
        )
        log.info("league %s: %s challenged %s (game %s)", league_id, user_id, opponents, row.id)
        return row

    async def answer_challenge(
        self, game_id: int, user_id: int, name: str, *, accept: bool
    ) -> ChallengeAnswer:
        link = await self.core.storage.league_game(game_id)
        if link is None:
            raise NotLeagueGame(game_id=game_id)
        row = await self.core.game(game_id)
        if row.status != "lobby":
            raise ChallengeClosed(game_id=game_id, status=row.status)
        withdrawing = not accept and user_id == row.owner_id
        if user_id not in link.invited and not withdrawing:
            if row.seat_of(user_id) is not None and accept:
                return ChallengeAnswer(row, link.invited)  # a second click: nothing to do
            everyone = [s.user_id for s in row.seats] + list(link.invited)
            raise NotInvited(players=", ".join(f"<@{u}>" for u in everyone))
        if not accept:  # an invited player declines, or the challenger withdraws
            manager = cast("GameManager", self.core)
            row = await manager.abandon(game_id, row.owner_id)
            log.info("league game %s: challenge declined by %s", game_id, user_id)
            return ChallengeAnswer(row, (), declined=True)
        league = await self.league(link.league_id)
        self._require_playing_time(league)
        row = await self.lobbies.join(game_id, user_id, name)
        waiting = tuple(u for u in link.invited if u != user_id)
        await self.core.storage.link_league_game(dataclasses.replace(link, invited=waiting))
        if waiting:
            return ChallengeAnswer(row, waiting)
        order = [s.user_id for s in row.seats]
        random.Random(self.core.seeds()).shuffle(order)
        await self.lobbies.configure(game_id, row.owner_id, seat_order=order)
        view = await self.lobbies.start(game_id, row.owner_id)
        return ChallengeAnswer(view.game, (), view)

    # -- results ------------------------------------------------------------------------------

    async def game_ended(self, live: LiveGame) -> None:
        """Record the result of a league game saved as finished (a listener of the manager's
        ``on_game_end``, the game's lock held). A failure is logged: the game is saved, and
        the next view of the league records the result (:meth:`_catch_up`)."""
        try:
            link = await self.core.storage.league_game(live.row.id)
            if link is None:
                return
            recorded = await self._record(link, live.row, live.game)
        except Exception:  # the game itself is saved; a later view records the result
            log.exception("league result of game %s not recorded", live.row.id)
            return
        if recorded is not None:
            self._notify(LeagueChange(link.league_id, "result", link.season, live.row.id))

    async def _record(self, link: LeagueGame, row: GameRow, game: Game) -> int | None:
        season = next(
            s for s in await self.core.storage.seasons(link.league_id) if s.season == link.season
        )
        ended = row.ended_at if row.ended_at is not None else self.core.clock()
        if season.closed_at is not None and ended > season.closed_at:
            log.info("league game %s ended after its season closed: not counted", row.id)
            return None
        winners = (row.result or {}).get("winners", list(game.winners))
        placings = leagues.placings_of(row.seats, game.scores, winners, game.breakdown)
        if len({p.user_id for p in placings}) != len(placings) or len(placings) < 2:
            return None
        result = LeagueResult(
            row.id, link.league_id, link.season, ended, placings, recorded_at=self.core.clock()
        )
        result_id = await self.core.storage.record_league_result(result)
        if result_id is not None:
            log.info("league %s: result of game %s recorded", link.league_id, row.id)
        return result_id

    async def _catch_up(self, league_id: int) -> None:
        """Record the results a stop of the bot left unrecorded (normally none)."""
        for game_id in await self.core.storage.unrecorded_league_games(league_id):
            link = await self.core.storage.league_game(game_id)
            if link is None:
                continue
            async with self.core.hold(game_id) as live:
                recorded = await self._record(link, live.row, live.game)
            if recorded is not None:  # its standings message shows it now
                self._notify(LeagueChange(league_id, "result", link.season, game_id))

    async def _results(self, league_id: int) -> list[LeagueResult]:
        await self._catch_up(league_id)
        return await self.core.storage.league_results(league_id)

    async def league_ratings(self, league_id: int) -> tuple[Ratings, list[LeagueResult]]:
        results = await self._results(league_id)
        return await asyncio.to_thread(leagues.rate, results), results

    # -- views --------------------------------------------------------------------------------

    async def season_table(self, league_id: int, season: int | None = None) -> SeasonTable:
        """The standings of ``season`` (default: the current one)."""
        league = await self.league(league_id)
        seasons = {s.season: s for s in await self.core.storage.seasons(league_id)}
        chosen = seasons.get(season or league.season.season, league.season)
        results = [
            r for r in await self._results(league_id) if r.season == chosen.season and r.counted
        ]
        members: dict[int, str] | None = None
        if chosen.closed_at is None:
            members = {m.user_id: m.name for m in await self.core.storage.league_members(league_id)}
        rows = leagues.standings(results, league.points, league.tiebreaks, members)
        in_play = 0
        if chosen.closed_at is None:
            in_play = sum(
                1 for _, g in await self.core.storage.league_games(league_id, ("active",))
            )
        return SeasonTable(league, chosen, rows, len(results), in_play)

    async def leaderboard(self, league_id: int) -> list[tuple[LeagueMember, Rating]]:
        """Members with at least one counted game, best rating first."""
        ratings, _ = await self.league_ratings(league_id)
        members = {m.user_id: m for m in await self.core.storage.league_members(league_id)}
        return [(members[u], r) for u, r in ratings.leaderboard(members)]

    async def league_profile(self, league_id: int, user_id: int, name: str = "") -> Profile:
        ratings, results = await self.league_ratings(league_id)
        members = await self.core.storage.league_members(league_id)
        board = ratings.leaderboard(m.user_id for m in members)
        known = next((m.name for m in members if m.user_id == user_id), name)
        return leagues.profile(results, user_id, ratings, known, board)

    # -- destructive, logged ------------------------------------------------------------------

    async def annul_result(
        self, game_id: int, user_id: int, why: str, *, admin: bool, guild_id: int | None = None
    ) -> tuple[LeagueRow, LeagueResult]:
        """An admin annuls the counted result of a league game, with a reason (logged).
        ``guild_id``: the admin's server; a game of another server's league is not found."""
        if not admin:
            raise OnlyAdmins()
        text = leagues.check_reason(why)
        link = await self.core.storage.league_game(game_id)
        if link is None:
            raise NotLeagueGame(game_id=game_id)
        league = await self.league(link.league_id)
        if guild_id is not None and league.guild_id != guild_id:
            raise NotLeagueGame(game_id=game_id)
        found = next(
            (r for r in await self._results(league.id) if r.game_id == game_id and r.counted), None
        )
        if found is None:
            raise NoResult(game_id=game_id)
        now = self.core.clock()
        audit = LeagueAudit(
            league.id, user_id, "annul", now, reason=text, season=found.season, game_id=game_id
        )
        if not await self.core.storage.annul_league_result(game_id, user_id, text, now, audit):
            raise NoResult(game_id=game_id)
        log.warning(
            "league %s: result of game %s annulled by %s: %s", league.id, game_id, user_id, text
        )
        self._notify(LeagueChange(league.id, "annulled", found.season, game_id))
        annulled = dataclasses.replace(
            found, annulled_at=now, annulled_by=user_id, annul_reason=text
        )
        return league, annulled

    async def close_season(
        self,
        league_id: int,
        user_id: int,
        why: str,
        *,
        admin: bool,
        next_ends: str | None = None,
    ) -> tuple[SeasonTable, LeagueRow]:
        """Close the current season (its standings are final; games still in play no longer
        count). With ``next_ends`` the next season opens at once, members staying; without,
        the league is closed. Returns the final table and the league as it is now."""
        league = await self.league(league_id)
        if not (admin or user_id == league.organiser_id):
            raise OnlyOrganisers()
        text = leagues.check_reason(why)
        if league.closed:
            raise LeagueClosed(league=league.name)
        now = self.core.clock()
        following = None
        if next_ends is not None:
            _, end = leagues.season_dates(None, next_ends, now)
            following = SeasonRow(league_id, league.season.season + 1, now, end)
        await self._catch_up(league_id)
        season = league.season.season
        audit = LeagueAudit(league_id, user_id, "close", now, reason=text, season=season)
        if not await self.core.storage.close_season(league_id, season, now, audit, following):
            raise LeagueClosed(league=league.name)
        log.warning("league %s: season %s closed by %s: %s", league_id, season, user_id, text)
        self._notify(LeagueChange(league_id, "closed", season))
        return await self.season_table(league_id, season), await self.league(league_id)

    async def league_log(
        self, league_id: int, user_id: int, *, admin: bool, limit: int = 20
    ) -> list[LeagueAudit]:
        league = await self.league(league_id)
        if not (admin or user_id == league.organiser_id):
            raise OnlyOrganisers()
        return await self.core.storage.league_audit(league_id, limit)

    def season_end_day(self, season: SeasonRow) -> str | None:
        """The last day of a season (its end is midnight after it), for display."""
        return None if season.ends_at is None else _day(season.ends_at - 1)


async def _run_listener(listener: LeagueListener, change: LeagueChange) -> None:
    try:
        await listener(change)
    except Exception:
        log.exception("league listener failed on %s", change)
