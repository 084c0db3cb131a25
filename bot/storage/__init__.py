"""The rows of the game manager's storage: plain data in and out, knowing no database.

:class:`bot.storage.sql.Storage` reads and writes them (every SQL statement of the bot, once),
on the engine a backend provides (:mod:`bot.storage.db`: SQLite, PostgreSQL); this module
imports none of them. Setup values (expansions, options, results) are JSON-shaped Python values,
so new games and options need no schema change. :class:`WriteConflict` is the storage's answer
to a write on a game's action log that another writer got to first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["lobby", "active", "finished", "abandoned"]
SeatStatus = Literal["playing", "resigned", "forfeited"]
TimeoutPolicy = Literal["autoplay", "skip", "forfeit"]
TIMEOUT_POLICIES: tuple[TimeoutPolicy, ...] = ("autoplay", "skip", "forfeit")


#: The user ids of forgotten players: ``FORGOTTEN_BASE + N`` for "former player N". No
#: Discord id is that small (a snowflake counts milliseconds since 2015 from bit 22 up) and a
#: computer's id is negative, so these never meet a real user.
FORGOTTEN_BASE = 1 << 40


def forgotten_number(user_id: int) -> int | None:
    """N if ``user_id`` stands for "former player N", else None."""
    number = user_id - FORGOTTEN_BASE
    return number if 0 < number < FORGOTTEN_BASE else None


def former_name(number: int) -> str:
    """The name a forgotten player's rows carry (the same in every language: it is stored)."""
    return f"former player {number}"


def who(user_id: int) -> str:
    """A user as messages name them: a Discord mention, or a forgotten player's name."""
    number = forgotten_number(user_id)
    return f"<@{user_id}>" if number is None else f"**{former_name(number)}**"


class WriteConflict(Exception):
    """The game's action log is not at the expected length: someone else wrote first."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    colour: str
    status: SeatStatus = "playing"
    joined_at: float = 0.0
    #: The level of a computer player (``easy``, ``medium``, ``hard``, ``expert``); None for a
    #: person. A computer's ``user_id`` is negative, never a Discord user.
    computer: str | None = None
    #: Seconds left in the seat's chess-clock bank before its next turn (None: no chess clock).
    bank: float | None = None

    @property
    def mention(self) -> str:
        """How messages name the seat: a Discord mention, or a computer's (or a forgotten
        player's) name in bold."""
        if self.computer or forgotten_number(self.user_id) is not None:
            return f"**{self.name}**"
        return f"<@{self.user_id}>"


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game as stored: setup, where it lives on Discord, and a summary of its progress."""

    id: int
    owner_id: int
    created_at: float
    updated_at: float
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    message_id: int | None = None
    kind: str = "carcassonne"
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    setup_extra: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    status: Status = "lobby"
    private: bool = False
    max_players: int = 6
    locale: str | None = None
    turn: int = 0
    action_count: int = 0
    current_seat: int | None = None
    turn_seconds: int | None = None
    timeout_policy: TimeoutPolicy = "autoplay"
    result: dict[str, Any] | None = None
    started_at: float | None = None
    ended_at: float | None = None
    seats: tuple[SeatRow, ...] = ()
    #: No tiles-left picture and no dead squares on the pictures (a display choice, not a rule).
    purist: bool = False
    #: The chess clock of a live game: each bank's first seconds (None: no chess clock) and the
    #: seconds each of a player's turns adds; an agreed pause, and when it ends by itself.
    clock_bank: int | None = None
    clock_increment: int = 0
    clock_paused_at: float | None = None
    clock_paused_until: float | None = None

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The first seat held by ``user_id`` (a user may hold several in a hot-seat import)."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def current_user(self) -> int | None:
        if self.current_seat is None or self.current_seat >= len(self.seats):
            return None
        return self.seats[self.current_seat].user_id


@dataclass(frozen=True, slots=True)
class ActionRow:
    idx: int
    turn: int
    seat: int
    user_id: int | None
    action: dict[str, Any]
    forced: str | None = None
    created_at: float = 0.0


@dataclass(frozen=True, slots=True)
class Progress:
    """The summary columns of a game after a write to its action log."""

    turn: int
    action_count: int
    current_seat: int | None
    status: Status
    updated_at: float
    result: dict[str, Any] | None = None
    ended_at: float | None = None


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timer of the scheduler: ``kind`` is ``reminder``, ``turn`` (the turn's end) or
    ``clock`` (a chess clock's bank and increment spent; paused only by an agreed pause).

    ``paused_at`` is set while ``user_id`` is away (see
    :meth:`bot.storage.sql.Storage.pause_deadlines`); ``notified_at``, on a ``turn`` row, when
    the turn's start was announced.
    """

    game_id: int
    kind: str
    turn: int
    due_at: float
    user_id: int | None = None
    done_at: float | None = None
    paused_at: float | None = None
    notified_at: float | None = None

    def remaining(self, now: float) -> float:
        """Seconds left before it is due (frozen while paused)."""
        return self.due_at - (self.paused_at if self.paused_at is not None else now)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    locale: str = "en"
    game: str = "carcassonne"
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    channel_id: int | None = None
    turn_seconds: int | None = None
    timeout_policy: TimeoutPolicy = "autoplay"
    digest_channel_id: int | None = None
    #: Whether an admin chose ``locale``; until then games speak the server's Discord language.
    locale_chosen: bool = False
    #: Days finished games are kept, then deleted (None: kept for ever).
    keep_days: int | None = None


@dataclass(frozen=True, slots=True)
class UserSettings:
    user_id: int
    locale: str | None = None
    dm_reminders: bool = False
    away_until: float | None = None
    #: A DM when the player before this one starts their turn ("you are next").
    dm_heads_up: bool = False


@dataclass(frozen=True, slots=True)
class DashboardRow:
    """A channel's dashboard: the message listing its running games (None: not posted yet).

    ``changed_at``: when a game of the channel last changed as another process saw it;
    ``shown_at``: the change the message shows (see
    :meth:`bot.storage.sql.Storage.changed_dashboards`)."""

    channel_id: int
    guild_id: int
    message_id: int | None = None
    changed_at: float = 0.0
    shown_at: float = 0.0


FollowStatus = Literal["asked", "following"]


@dataclass(frozen=True, slots=True)
class FollowRow:
    """A user who follows a game without playing (``asked``: waits for a player's yes)."""

    game_id: int
    user_id: int
    status: FollowStatus
    since: float
    #: The players who refused a request to follow (a private game).
    refused_by: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one seat did in a finished game (table ``game_stats``), for statistics.

    ``won`` is true for every winner of a shared win; ``turn_times`` are the seconds each of
    the seat's own turns took, in games with a turn clock only; ``action_count`` is the length
    of the log the row was computed from. ``kind`` is the game's family (read from the game).
    """

    game_id: int
    seat: int
    user_id: int
    computer: bool
    score: int
    won: bool
    left: bool
    breakdown: dict[str, int]
    figures_placed: int
    figures_returned: int
    turn_times: tuple[float, ...]
    action_count: int
    kind: str = "carcassonne"


# -- game reviews ----------------------------------------------------------------------------
# Rows of the review tables (migration 0016): a finished game's review, computed once.


@dataclass(frozen=True, slots=True)
class ReviewSeat:
    """A seat's figures in a stored review (table ``review_seats``), for statistics: its own
    reviewed decisions, the share within 1 point of the best, the mean points lost."""

    game_id: int
    seat: int
    decisions: int
    accuracy: float
    lost_per_turn: float


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A finished game's review (table ``reviews``): ``review`` is the JSON form of
    ``ai.review.Review``, computed at ``budget`` from the first ``action_count`` actions."""

    game_id: int
    budget: int
    action_count: int
    review: dict[str, Any]
    created_at: float


# -- leagues ---------------------------------------------------------------------------------
# Rows of the league tables (migration 0003). Ratings and standings are not stored: they are
# recomputed from the counted results in order (see bot.leagues).

LeaguePace = Literal["live", "post"]


@dataclass(frozen=True, slots=True)
class SeasonRow:
    league_id: int
    season: int
    starts_at: float
    ends_at: float | None = None
    message_id: int | None = None
    closed_at: float | None = None


#: The notices the scheduler owes: a turn's start, the turn's reminder.
NoticeKind = Literal["start", "reminder", "timeout"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice owed to a game's players, saved with the move that calls for it (a timeout's
    announcement): claimed by the saving process until ``claimed_until``."""

    kind: NoticeKind
    turn: int
    claimed_until: float


@dataclass(frozen=True, slots=True)
class LeagueRow:
    """A league's rules and its current (last) season."""

    id: int
    guild_id: int
    name: str
    organiser_id: int
    channel_id: int
    season: SeasonRow
    kind: str = "carcassonne"
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    min_players: int = 2
    max_players: int = 4
    pace: LeaguePace = "live"
    turn_seconds: int | None = None
    timeout_policy: TimeoutPolicy = "skip"
    points: tuple[int, ...] = (3, 1, 0)
    tiebreaks: tuple[str, ...] = ("wins", "total_score")
    created_at: float = 0.0
    #: The level of the computer players its games may seat, ``None`` if they may not.
    computers: str | None = None

    @property
    def closed(self) -> bool:
        return self.season.closed_at is not None


@dataclass(frozen=True, slots=True)
class LeagueMember:
    league_id: int
    user_id: int
    name: str
    joined_at: float
    left_at: float | None = None


@dataclass(frozen=True, slots=True)
class LeagueGame:
    """A game created from a league; ``invited`` lists who a challenge still waits for."""

    game_id: int
    league_id: int
    season: int
    created_by: int
    created_at: float
    invited: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LeaguePlacing:
    seat: int
    user_id: int
    name: str
    score: int
    rank: int
    left: bool = False
    breakdown: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LeagueResult:
    game_id: int
    league_id: int
    season: int
    ended_at: float
    placings: tuple[LeaguePlacing, ...]
    recorded_at: float = 0.0
    id: int = 0
    annulled_at: float | None = None
    annulled_by: int | None = None
    annul_reason: str | None = None

    @property
    def counted(self) -> bool:
        return self.annulled_at is None


@dataclass(frozen=True, slots=True)
class LeagueAudit:
    """One destructive or administrative act: who, what, on which season or game, and why."""

    league_id: int
    user_id: int
    action: str
    created_at: float
    reason: str = ""
    season: int | None = None
    game_id: int | None = None


# -- tournaments -----------------------------------------------------------------------------
# Rows of the tournament tables (migration 0017). Standings and brackets are not stored: they are
# computed from the decided tables (see bot.tournaments).

TournamentFormat = Literal["swiss", "knockout", "swiss_final"]
TournamentState = Literal["signup", "checkin", "running", "finished", "cancelled"]


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament's rules and where it stands (``round``: the round being played, 0 before
    the first)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    organiser_id: int
    format: TournamentFormat
    table_size: int = 2
    league_id: int | None = None
    kind: str = "carcassonne"
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    #: The Swiss rounds (``swiss``, ``swiss_final``); None for a knockout.
    rounds: int | None = None
    best_of: int = 1
    #: Players going on from each knockout table of 3 to 5; the final table's size after Swiss.
    advance: int = 1
    pace: LeaguePace = "live"
    turn_seconds: int | None = None
    round_seconds: int | None = None
    timeout_policy: TimeoutPolicy = "skip"
    #: The level of the computer players that fill short tables, None if none may.
    computers: str | None = None
    state: TournamentState = "signup"
    round: int = 0
    round_deadline: float | None = None
    message_id: int | None = None
    created_at: float = 0.0
    ended_at: float | None = None

    @property
    def open(self) -> bool:
        """Not finished or cancelled yet."""
        return self.state in ("signup", "checkin", "running")


@dataclass(frozen=True, slots=True)
class TournamentEntrant:
    tournament_id: int
    user_id: int
    name: str
    joined_at: float
    #: The seeding: the player's rating when the tournament started.
    rating: int = 1000
    checked_in: bool = False
    #: The round they dropped out in (0: before the first); None while they play on.
    dropped_round: int | None = None

    @property
    def playing(self) -> bool:
        return self.dropped_round is None


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One game of one table of one round (``game_no``: the game of a best-of match). A bye or
    a forfeit has no ``game_id``; ``ranks`` and ``scores`` (aligned with ``players``) are set
    once decided, ``absent`` lists who forfeited."""

    tournament_id: int
    round: int
    table: int
    players: tuple[int, ...]
    game_no: int = 1
    game_id: int | None = None
    ranks: tuple[int, ...] | None = None
    scores: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()
    decided_at: float | None = None
    annulled_at: float | None = None

    @property
    def decided(self) -> bool:
        return self.ranks is not None


@dataclass(frozen=True, slots=True)
class TournamentAudit:
    """One act of an organiser (or of a player dropping out): who, what, and why."""

    tournament_id: int
    user_id: int
    action: str
    created_at: float
    reason: str = ""
    round: int | None = None
    game_id: int | None = None
