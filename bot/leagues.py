"""Leagues as pure functions: placings, ratings, standings, profiles, pairings, and their refusals.

Nothing here does I/O. Ratings and standings are recomputed from the stored results, in the order
the games ended, every time they are shown: annulling a result only marks it, and the next
computation is exactly the one where that game never counted.

**Placings.** A finished game ranks its players by: winners first (the engine's winners: a player
who left cannot win), then players who stayed before players who left (resigned or timed out),
then score. Equal keys share a rank (competition ranking: 1, 2, 2, 4).

**Ratings** use openskill's Plackett-Luce model (multiplayer, ties from shared ranks), starting at
mu = 25, sigma = 25/3. The number players see is::

    rating = max(0, round(1000 + 40 * (mu - 3 * sigma)))

``mu - 3 sigma`` (openskill's ordinal) is a skill the player very probably has at least, so a
newcomer starts at 1000 and one lucky win does not put anyone on top: the number grows as
results make the bot surer. 40 points per ordinal unit gives Elo-like magnitudes (a first
place in a 4-player game is about +120 for a newcomer).

**Standings** are per season and separate from ratings: each counted game gives points by
placement (configurable, default 3 for first, 1 for second, 0 after; tied players each get the
points of the best place they share). Players are ordered by points, then by the league's
tie-breakers in order (wins, total score, average score); players still equal share a position.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, TypeVar

from openskill.models import PlackettLuce

import catalogs
from bot.errors import ManagerError
from bot.i18n import digits, hidden_chars, quote_input, shown_name, shown_text
from bot.storage import LeaguePlacing, LeagueResult, SeatRow

MU = 25.0
SIGMA = MU / 3
RATING_BASE = 1000
RATING_SCALE = 40
DEFAULT_POINTS = (3, 1, 0)
#: Tie-breakers after points, by name: higher is better for each.
TIEBREAKS = ("wins", "total_score", "average_score")
DEFAULT_TIEBREAKS = ("wins", "total_score")
MIN_TABLE, MAX_TABLE = 2, 5
NAME_LENGTH = 50
REASON_LENGTH = 300

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def display_rating(mu: float, sigma: float) -> int:
    """The easy number of a rating (see the module's formula)."""
    return max(0, round(RATING_BASE + RATING_SCALE * (mu - 3 * sigma)))


# -- placings --------------------------------------------------------------------------------


def ranks_of(
    scores: Sequence[int], winners: Iterable[int] = (), left: Sequence[bool] | None = None
) -> list[int]:
    """The rank of each seat (1 = first; equal keys share a rank, as 1, 2, 2, 4)."""
    won = set(winners)
    gone = left or [False] * len(scores)
    keys = [(p not in won, gone[p], -scores[p]) for p in range(len(scores))]
    return [1 + sum(other < key for other in keys) for key in keys]


def placings_of(
    seats: Sequence[SeatRow],
    scores: Sequence[int],
    winners: Iterable[int],
    breakdown: Sequence[Mapping[str, int]] = (),
) -> tuple[LeaguePlacing, ...]:
    """The placings of a finished game from its seats, final scores and winners. Computer
    seats have no placing: the people are ranked among themselves (their order kept)."""
    left = [seat.status != "playing" for seat in seats]
    ranks = ranks_of(scores, winners, left)
    people = [seat for seat in seats if seat.computer is None]
    if len(people) < len(seats):
        among = {s.seat: 1 + sum(ranks[o.seat] < ranks[s.seat] for o in people) for s in people}
        ranks = [among.get(seat, rank) for seat, rank in enumerate(ranks)]
    return tuple(
        LeaguePlacing(
            seat=seat.seat,
            user_id=seat.user_id,
            name=seat.name,
            score=int(scores[seat.seat]),
            rank=ranks[seat.seat],
            left=left[seat.seat],
            breakdown={k: int(v) for k, v in (breakdown[seat.seat] if breakdown else {}).items()},
        )
        for seat in people
    )


# -- ratings ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one game moved a player's rating (shown numbers before and after)."""

    game_id: int
    ended_at: float
    rank: int
    players: int
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Ratings:
    current: dict[int, Rating] = field(default_factory=dict)
    history: dict[int, list[RatingChange]] = field(default_factory=dict)

    def of(self, user_id: int) -> Rating:
        return self.current.get(user_id, Rating())

    def leaderboard(self, users: Iterable[int] | None = None) -> list[tuple[int, Rating]]:
        """Players with at least one game (of ``users`` if given), best rating first."""
        allowed = None if users is None else set(users)
        rows = [
            (u, r) for u, r in self.current.items() if r.games and (allowed is None or u in allowed)
        ]
        return sorted(rows, key=lambda item: (-item[1].display, -item[1].mu, item[0]))


def rate(results: Iterable[LeagueResult]) -> Ratings:
    """Every player's rating after the counted ``results``, applied in the order given."""
    current: dict[int, Rating] = {}
    history: dict[int, list[RatingChange]] = {}
    for result in results:
        if not result.counted or len(result.placings) < 2:
            continue
        users = [p.user_id for p in result.placings]
        if len(set(users)) != len(users):
            continue  # one person in two seats says nothing about skill
        before = [current.get(u, Rating()) for u in users]
        teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        rated = _MODEL.rate(teams, ranks=[float(p.rank) for p in result.placings])
        for placing, old, team in zip(result.placings, before, rated, strict=True):
            new = Rating(team[0].mu, team[0].sigma, old.games + 1)
            current[placing.user_id] = new
            history.setdefault(placing.user_id, []).append(
                RatingChange(
                    result.game_id,
                    result.ended_at,
                    placing.rank,
                    len(result.placings),
                    old.display,
                    new.display,
                )
            )
    return Ratings(current, history)


# -- standings -------------------------------------------------------------------------------


def placement_points(rank: int, points: Sequence[int]) -> int:
    """Standings points for ``rank`` (1-based): its entry in ``points``, 0 past the end."""
    return points[rank - 1] if 1 <= rank <= len(points) else 0


@dataclass(frozen=True, slots=True)
class Standing:
    position: int
    user_id: int
    name: str
    points: int
    games: int
    wins: int
    total_score: int

    @property
    def average_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    def tiebreak(self, name: str) -> float:
        return float(getattr(self, name))


def standings(
    results: Iterable[LeagueResult],
    points: Sequence[int] = DEFAULT_POINTS,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    members: Mapping[int, str] | None = None,
) -> list[Standing]:
    """The table of the counted ``results`` (one season's); ``members`` without games get a row
    with zeros. Sorted by points then ``tiebreaks``; equal players share a position."""
    totals: dict[int, list[int]] = {u: [0, 0, 0, 0] for u in members or {}}
    names: dict[int, str] = dict(members or {})
    for result in results:
        if not result.counted:
            continue
        for p in result.placings:
            total = totals.setdefault(p.user_id, [0, 0, 0, 0])
            total[0] += placement_points(p.rank, points)
            total[1] += 1
            total[2] += p.rank == 1
            total[3] += p.score
            names.setdefault(p.user_id, p.name)
    rows = [
        Standing(0, user, names.get(user, str(user)), pts, games, wins, total)
        for user, (pts, games, wins, total) in totals.items()
    ]

    def key(s: Standing) -> tuple[float, ...]:
        return (-s.points, *(-s.tiebreak(t) for t in tiebreaks))

    rows.sort(key=lambda s: (key(s), s.name.casefold(), s.user_id))
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        shared = ranked and key(ranked[-1]) == key(row)
        position = ranked[-1].position if shared else index + 1
        ranked.append(
            Standing(
                position, row.user_id, row.name, row.points, row.games, row.wins, row.total_score
            )
        )
    return ranked


# -- profiles --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Profile:
    user_id: int
    name: str
    games: int
    wins: int
    total_score: int
    best_score: int
    rating: Rating
    #: Scoring categories with the points they brought, most first.
    features: tuple[tuple[str, int], ...]
    history: tuple[RatingChange, ...]
    #: Place on the rating leaderboard (None without games).
    position: int | None = None

    @property
    def average_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0


def profile(
    results: Iterable[LeagueResult],
    user_id: int,
    ratings: Ratings,
    name: str = "",
    leaderboard: Sequence[tuple[int, Rating]] = (),
) -> Profile:
    games = wins = total = 0
    best = 0
    features: dict[str, int] = {}
    for result in results:
        if not result.counted:
            continue
        for p in result.placings:
            if p.user_id != user_id:
                continue
            games += 1
            wins += p.rank == 1
            total += p.score
            best = max(best, p.score)
            name = name or p.name
            for category, value in p.breakdown.items():
                features[category] = features.get(category, 0) + value
    favourite = tuple(sorted(((k, v) for k, v in features.items() if v > 0), key=lambda i: -i[1]))
    position = next((i + 1 for i, (u, _) in enumerate(leaderboard) if u == user_id), None)
    return Profile(
        user_id,
        name or str(user_id),
        games,
        wins,
        total,
        best,
        ratings.of(user_id),
        favourite,
        tuple(ratings.history.get(user_id, ())),
        position,
    )


# -- pairings --------------------------------------------------------------------------------


def table_sizes(count: int, low: int, high: int) -> list[int]:
    """How to split ``count`` players into tables of ``low`` to ``high``: as few tables as can
    seat everyone, sizes as even as possible. If no split seats everyone, the most players that
    fit are seated (the sizes sum to less than ``count``)."""
    if count < low:
        return []
    tables = math.ceil(count / high)
    while tables > 1 and count // tables < low:
        tables -= 1
    seated = min(count, tables * high)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pair_tables(
    players: Sequence[tuple[int, int, float]], low: int, high: int
) -> tuple[list[list[int]], list[int]]:
    """Tables for a round: ``players`` are (user id, games played this season, rating).

    Players with the fewest games this season are seated first (the others wait a round if not
    everyone fits); seated players are then grouped by rating, so each table has players of
    similar strength. Returns the tables (user ids, best rated first) and who sits out.
    """
    sizes = table_sizes(len(players), low, high)
    by_need = sorted(players, key=lambda p: (p[1], -p[2], p[0]))
    seated = by_need[: sum(sizes)]
    waiting = [p[0] for p in by_need[sum(sizes) :]]
    ordered = [p[0] for p in sorted(seated, key=lambda p: (-p[2], p[0]))]
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(ordered[start : start + size])
        start += size
    return tables, waiting


# -- values typed by players -----------------------------------------------------------------


def parse_points(text: str) -> tuple[int, ...]:
    """``"3,1,0"`` -> (3, 1, 0); at most 5 places, each 0 to 100."""
    parts = [p.strip() for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    if not 1 <= len(parts) <= MAX_TABLE or not all(digits(p) for p in parts):
        raise BadPoints(text=quote_input(text))
    values = tuple(int(p) for p in parts)
    if any(v > 100 for v in values):
        raise BadPoints(text=quote_input(text))
    return values


#: A day as typed: four, two and two ASCII digits (``strptime`` also takes other scripts'
#: digits, and one digit for a month or a day).
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: Seasons are dated within these years (a typo such as 9999 is refused, not crashed on).
YEARS = (2000, 2100)


def parse_day(text: str) -> datetime:
    """A date written YYYY-MM-DD (ASCII digits) between the years of :data:`YEARS`, as
    midnight UTC."""
    if not DAY.fullmatch(text.strip()):
        raise BadDate(text=quote_input(text))
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d")
    except ValueError:
        raise BadDate(text=quote_input(text)) from None
    if not YEARS[0] <= day.year <= YEARS[1]:
        raise BadYear(text=quote_input(text), first=YEARS[0], last=YEARS[1])
    return day.replace(tzinfo=UTC)


def season_dates(starts: str | None, ends: str | None, now: float) -> tuple[float, float | None]:
    """The start (given day, else now) and end (the end of the given day) of a season."""
    start = parse_day(starts).timestamp() if starts else now
    end = None
    if ends:
        end = (parse_day(ends) + timedelta(days=1)).timestamp()
        if end <= start or end <= now:
            raise BadDates(ends=quote_input(ends))
    return start, end


def check_name(name: str) -> str:
    """A league name as shown everywhere: no control or direction characters, no mentions."""
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_LENGTH:
        raise BadLeagueName(length=NAME_LENGTH)
    if hidden_chars(cleaned):
        raise BadLeagueChars()
    if "@" in cleaned or re.search(r"<[@#:/][^>]*>", cleaned):
        raise BadLeagueChars()
    return cleaned


def check_reason(reason: str) -> str:
    """A reason as kept and shown: needed, and made of more than invisible characters."""
    visible = "".join(c for c in reason if not hidden_chars(c))
    if not visible.strip():
        raise ReasonNeeded()
    return shown_name(visible, REASON_LENGTH)


# -- refusals --------------------------------------------------------------------------------


#: The parameters of league refusals that hold text users typed (a league's name as typed or
#: stored, a list of names), and how much of each is shown.
FREE_TEXT = {"league": NAME_LENGTH, "name": NAME_LENGTH, "names": 10 * (NAME_LENGTH + 2)}


class LeagueError(ManagerError):
    """A refusal about leagues, in the player's language (catalog context ``league``). The
    names in it are shown harmlessly (:func:`bot.i18n.shown_text`): no control or direction
    characters, no markdown, no mentions."""

    key: ClassVar[str] = "league_not_found"
    #: The catalog context of its texts, and the longest each free-text parameter is shown.
    context: ClassVar[str] = "league"
    free_text: ClassVar[Mapping[str, int]] = FREE_TEXT

    def __init__(self, **params: Any) -> None:
        free = self.free_text
        self.params = {
            k: shown_text(v, free[k]) if k in free and isinstance(v, str) else v
            for k, v in params.items()
        }
        ValueError.__init__(self, self.message("en"))

    def message(self, locale: str | None = None) -> str:
        return catalogs.text(self.context, self.key, locale, **self.params)


E = TypeVar("E", bound="LeagueError")


def error_kind(base: type[E], key: str) -> type[E]:
    """A refusal of ``base`` with the text ``key`` (its class named after the key)."""
    return type("".join(part.title() for part in key.split("_")), (base,), {"key": key})


def _error(key: str) -> type[LeagueError]:
    return error_kind(LeagueError, key)


LeagueNotFound = _error("league_not_found")
NoLeague = _error("no_league")
SeveralLeagues = _error("several_leagues")
LeagueNameTaken = _error("league_name_taken")
BadLeagueName = _error("bad_league_name")
BadLeagueChars = _error("bad_league_chars")
BadFormat = _error("bad_format")
BadPoints = _error("bad_points")
BadDate = _error("bad_date")
BadYear = _error("bad_year")
BadDates = _error("bad_dates")
BadTurnHours = _error("bad_turn_hours")
OnlyAdmins = _error("only_admins")
OnlyOrganisers = _error("only_organisers")
AlreadyMember = _error("already_member")
NotMemberSelf = _error("not_member_self")
NotMember = _error("not_member")
LeagueClosed = _error("league_closed")
SeasonNotStarted = _error("season_not_started")
SeasonOver = _error("season_over")
BadTable = _error("bad_table")
NamedTwice = _error("twice")
Busy = _error("busy")
NobodyFree = _error("nobody_free")
NotLeagueGame = _error("not_league_game")
NoResult = _error("no_result")
ReasonNeeded = _error("reason_needed")
NotInvited = _error("not_invited")
ChallengeClosed = _error("challenge_closed")
ChallengeSelf = _error("challenge_self")
