"""The storage interface of the game manager: plain rows in, plain rows out, all async.

Nothing here knows which database holds the rows. :mod:`bot.storage.sqlite` implements it on
SQLite (aiosqlite); a PostgreSQL backend (asyncpg) would implement the same :class:`Storage`.
Setup values (expansions, options, results) are JSON-shaped Python values, so new games and
options need no schema change.

Each write method is one transaction. The writes that follow a game's action log
(:meth:`Storage.append_actions`, :meth:`Storage.truncate_actions`) take the action count the
caller expects to find and raise :class:`WriteConflict` if another writer got there first: that
check, not only the manager's in-process lock, is what lets several bot processes share a database.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["lobby", "active", "finished", "abandoned"]
SeatStatus = Literal["playing", "resigned", "forfeited"]
TimeoutPolicy = Literal["autoplay", "skip", "forfeit"]
TIMEOUT_POLICIES: tuple[TimeoutPolicy, ...] = ("autoplay", "skip", "forfeit")


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
    #: The level of a computer player (``easy``, ``medium``, ``hard``); None for a person. A
    #: computer's ``user_id`` is negative, never a Discord user.
    computer: str | None = None
    #: Seconds left in the seat's chess-clock bank before its next turn (None: no chess clock).
    bank: float | None = None

    @property
    def mention(self) -> str:
        """How messages name the seat: a Discord mention, or a computer's name in bold."""
        return f"**{self.name}**" if self.computer else f"<@{self.user_id}>"


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

    ``paused_at`` is set while ``user_id`` is away (see :meth:`Storage.pause_deadlines`);
    ``notified_at``, on a ``turn`` row, when the turn's start was announced.
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
    ``shown_at``: the change the message shows (see :meth:`Storage.changed_dashboards`)."""

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


class Storage(abc.ABC):
    """Async persistence of games; one implementation per database engine."""

    #: Whether other bot processes may write the same database (then a game kept in memory is
    #: checked against the stored one before use).
    shared: bool = False

    @abc.abstractmethod
    async def close(self) -> None: ...

    # -- games ------------------------------------------------------------------------------

    @abc.abstractmethod
    async def create_game(self, game: GameRow) -> int:
        """Insert ``game`` (its ``id`` is ignored) and its seats; return the new id."""

    @abc.abstractmethod
    async def save_game(
        self,
        game: GameRow,
        *,
        deadlines: Sequence[Deadline] | None = None,
        pause_away: float | None = None,
    ) -> None:
        """Write every column of ``game`` and replace its seats (lobby changes, start, end).

        ``deadlines`` (if given) replace the game's; a game no longer active loses them all.
        ``pause_away``: the time they are written; those of a player away then (by their
        settings' ``away_until``; not a chess clock's) are written paused from it.
        """

    @abc.abstractmethod
    async def end_game(
        self, game_id: int, status: Status, result: dict[str, Any] | None, now: float
    ) -> bool:
        """End a lobby or a game in play (an abandon): its status and result, ended ``now``,
        nobody in turn, its timers gone. Only those columns change (a move another process
        stored meanwhile stays counted); False, and nothing written, if it had ended."""

    @abc.abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...

    @abc.abstractmethod
    async def action_count(self, game_id: int) -> int | None:
        """How many actions the game's log holds (None: no such game); one indexed read."""

    @abc.abstractmethod
    async def get_actions(self, game_id: int) -> list[ActionRow]:
        """The action log of a game, in order."""

    @abc.abstractmethod
    async def import_game(self, game: GameRow, actions: Sequence[ActionRow]) -> int:
        """Insert a whole game with its action log in one transaction; return the new id."""

    @abc.abstractmethod
    async def append_actions(
        self,
        game_id: int,
        expected_count: int,
        actions: Sequence[ActionRow],
        progress: Progress,
        *,
        deadlines: Sequence[Deadline] | None = None,
        seats: Sequence[SeatRow] | None = None,
        notice: Notice | None = None,
        pause_away: float | None = None,
    ) -> None:
        """Append to the log, update the summary, clear undo votes; all in one transaction.

        ``deadlines`` (if given) replace the game's deadlines (``pause_away`` as in
        :meth:`save_game`) and ``seats`` its seats; ``notice`` is recorded as owed (claimed
        until its time, see :meth:`claim_notice`). Raises :class:`WriteConflict` if the log
        does not hold ``expected_count`` actions or the game is no longer active.
        """

    @abc.abstractmethod
    async def truncate_actions(
        self,
        game_id: int,
        expected_count: int,
        keep: int,
        progress: Progress,
        *,
        actions: Sequence[ActionRow] = (),
        deadlines: Sequence[Deadline] | None = None,
        pause_away: float | None = None,
    ) -> None:
        """Drop every action from index ``keep`` on (undo) and append ``actions`` after the
        ones kept, update the summary, clear votes, all in one transaction; ``deadlines`` and
        ``pause_away`` as in :meth:`append_actions`. Raises :class:`WriteConflict` as it does."""

    @abc.abstractmethod
    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        statuses: Sequence[Status] = ("lobby", "active"),
        limit: int = 100,
    ) -> list[GameRow]:
        """Games matching every filter given (channel matches the channel or the thread)."""

    @abc.abstractmethod
    async def games_awaiting(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """Active games where it is ``user_id``'s turn."""

    @abc.abstractmethod
    async def active_game_ids(self) -> list[int]: ...

    @abc.abstractmethod
    async def set_messages(
        self, game_id: int, thread_id: int | None, message_id: int | None
    ) -> None: ...

    # -- undo votes -------------------------------------------------------------------------

    @abc.abstractmethod
    async def add_undo_vote(
        self, game_id: int, action_idx: int, user_id: int, now: float
    ) -> set[int]:
        """Record a vote; return every voter for that action (raises nothing on a repeat)."""

    @abc.abstractmethod
    async def clear_undo_votes(self, game_id: int) -> None:
        """Drop every undo vote of the game (a player refused)."""

    # -- abandon votes ----------------------------------------------------------------------

    @abc.abstractmethod
    async def add_abandon_vote(self, game_id: int, user_id: int, now: float) -> set[int]:
        """Record a vote to abandon the game; return every voter so far."""

    @abc.abstractmethod
    async def clear_abandon_votes(self, game_id: int) -> None:
        """Drop the game's votes to abandon it (a player refused)."""

    # -- chess clock pauses -----------------------------------------------------------------

    @abc.abstractmethod
    async def add_pause_vote(
        self, game_id: int, user_id: int, now: float, until: float | None = None
    ) -> dict[int, float | None]:
        """Record a vote to pause the game's clock (``until``: the asker's absence ends);
        return every voter so far with their ``until``."""

    @abc.abstractmethod
    async def clear_pause_votes(self, game_id: int) -> None:
        """Drop the game's votes to pause its clock (a player refused)."""

    @abc.abstractmethod
    async def pause_clock(self, game_id: int, now: float, until: float | None) -> bool:
        """Pause the game's chess clock (its pending ``clock`` deadline and the game's pause
        columns) and drop the votes, in one transaction; False if it was already paused."""

    @abc.abstractmethod
    async def resume_clock(self, game_id: int, now: float) -> bool:
        """End the game's agreed pause: its pending ``clock`` deadline moves later by the time
        paused; False if it was not paused."""

    @abc.abstractmethod
    async def pauses_ending(self, now: float) -> list[int]:
        """Active games whose agreed pause ends at ``now`` or before."""

    @abc.abstractmethod
    async def next_clock_due(self) -> float | None:
        """The soonest time a chess clock needs the scheduler: a running clock's deadline or an
        agreed pause's end (None: no chess clock runs or is paused)."""

    @abc.abstractmethod
    async def clock_pause(self, game_id: int) -> float | None:
        """When the game's agreed pause began, as stored (None: the clock runs)."""

    # -- deadlines --------------------------------------------------------------------------

    @abc.abstractmethod
    async def deadlines(self, game_id: int) -> list[Deadline]: ...

    @abc.abstractmethod
    async def due_deadlines(self, now: float, limit: int = 100) -> list[Deadline]:
        """Pending deadlines due at ``now`` or before, oldest first."""

    @abc.abstractmethod
    async def complete_deadline(self, game_id: int, kind: str, turn: int, now: float) -> bool:
        """Mark a deadline done if it is still pending for ``turn``; False if stale or done."""

    @abc.abstractmethod
    async def postpone_deadline(self, game_id: int, kind: str, turn: int, due_at: float) -> bool:
        """Move a pending deadline of ``turn`` to ``due_at`` (a retry after a failure)."""

    @abc.abstractmethod
    async def pause_deadlines(self, now: float, user_id: int | None = None) -> int:
        """Pause the pending deadlines of ``user_id`` (or of every user away at ``now``);
        chess clocks (``clock`` rows) are not paused by one player's absence.

        Returns how many were paused; paused deadlines are never due.
        """

    @abc.abstractmethod
    async def resume_deadlines(self, now: float, user_id: int | None = None) -> list[Deadline]:
        """Resume the paused deadlines of ``user_id`` (or of every user no longer away).

        Each moves later by the time it was paused, counted up to the user's return (the end of
        their ``away_until``, or ``now`` if they came back early). Returns the resumed ones.
        """

    @abc.abstractmethod
    async def unnotified_turns(self, limit: int = 100) -> list[Deadline]:
        """Pending ``turn`` deadlines whose start has not been announced yet."""

    @abc.abstractmethod
    async def claim_notice(
        self, game_id: int, kind: NoticeKind, turn: int, now: float, lease: float
    ) -> bool:
        """Claim the notice ``kind`` (``start``: the turn's start; ``reminder``) of a turn: its
        deadline is marked done (announced) and the notice recorded as owed, claimed until
        ``now + lease``, in one transaction. False if stale or another process claimed it."""

    @abc.abstractmethod
    async def expired_notices(
        self, now: float, lease: float, limit: int = 100
    ) -> list[tuple[int, NoticeKind, int]]:
        """Claim again (until ``now + lease``) notices claimed but never marked sent whose claim
        ran out (their process died): ``(game_id, kind, turn)``, each to one caller only."""

    @abc.abstractmethod
    async def renew_notice(
        self, game_id: int, kind: NoticeKind, turn: int, held: float, until: float
    ) -> bool:
        """Extend a claim this process still holds (its ``claimed_until`` is ``held``, as this
        process set it) to ``until``, just before sending. False if the notice was sent, or if
        its claim ran out and another process claimed it again: that one sends it then, so a
        slow process never sends a notice a second time."""

    @abc.abstractmethod
    async def notice_sent(self, game_id: int, kind: NoticeKind, turn: int, now: float) -> None:
        """The notice went out (or needs no sending any more)."""

    # -- digests ----------------------------------------------------------------------------

    @abc.abstractmethod
    async def digest_guilds(self) -> list[tuple[GuildSettings, float | None]]:
        """Guilds with a digest channel, each with when its last digest was sent."""

    @abc.abstractmethod
    async def claim_digest(self, guild_id: int, last: float | None, now: float) -> bool:
        """Record a digest sent at ``now`` if the last one is still ``last`` (at most once)."""

    # -- settings ---------------------------------------------------------------------------

    @abc.abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, defaults if never saved."""

    @abc.abstractmethod
    async def save_guild_settings(self, settings: GuildSettings, now: float) -> None: ...

    @abc.abstractmethod
    async def user_settings(self, user_id: int) -> UserSettings: ...

    @abc.abstractmethod
    async def save_user_settings(self, settings: UserSettings, now: float) -> None: ...

    # -- dashboards and followers (tables dashboards, followers; bot.manager.watch) ------------

    @abc.abstractmethod
    async def set_dashboard(self, channel_id: int, guild_id: int, on: bool, now: float) -> bool:
        """Turn a channel's dashboard on (a row, no message yet) or off (the row deleted).
        Returns whether anything changed."""

    @abc.abstractmethod
    async def dashboards(self, guild_ids: Sequence[int] | None = None) -> list[DashboardRow]:
        """The dashboards of these guilds (every guild's with None), by channel."""

    @abc.abstractmethod
    async def changed_dashboards(self) -> list[DashboardRow]:
        """The dashboards whose channel changed since they last showed it (by channel)."""

    @abc.abstractmethod
    async def dashboard_posted(self, channel_id: int, message_id: int | None) -> None:
        """The dashboard's message is now ``message_id`` (None: to post again)."""

    @abc.abstractmethod
    async def dashboard_changed(self, channel_id: int, now: float) -> None:
        """A game of the channel changed (seen by a process that does not show it)."""

    @abc.abstractmethod
    async def dashboard_shown(self, channel_id: int, changed_at: float) -> None:
        """The dashboard shows every change up to ``changed_at``."""

    @abc.abstractmethod
    async def follow(self, game_id: int, user_id: int, status: FollowStatus, now: float) -> bool:
        """Record a follower or a request (a request never demotes a follower). Returns
        whether the row is new or changed."""

    @abc.abstractmethod
    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """Drop the follower or the request; False if there was none."""

    @abc.abstractmethod
    async def follow_row(self, game_id: int, user_id: int) -> FollowRow | None: ...

    @abc.abstractmethod
    async def refuse_follow(self, game_id: int, user_id: int, player_id: int) -> FollowRow | None:
        """Add ``player_id`` to the refusals of a pending request; the request as it is now
        (None if there is no request any more: accepted, withdrawn)."""

    @abc.abstractmethod
    async def followers(self, game_id: int) -> list[int]:
        """The users following the game (requests not included), by user id."""

    @abc.abstractmethod
    async def follower_counts(self, game_ids: Sequence[int]) -> dict[int, int]:
        """How many follow each game (games nobody follows are left out)."""

    # -- statistics (table game_stats; used by bot.manager.stats) ----------------------------------

    @abc.abstractmethod
    async def save_game_stats(self, games: Mapping[int, Sequence[SeatStats]]) -> None:
        """Replace the statistics rows of finished games (game id -> one row per seat), in one
        transaction."""

    @abc.abstractmethod
    async def games_without_stats(self, guild_id: int, user_id: int) -> list[int]:
        """Finished games of the guild where ``user_id`` holds a seat whose statistics rows are
        missing or stale (computed from another action count), oldest first."""

    @abc.abstractmethod
    async def game_stats_of(
        self,
        guild_id: int,
        user_id: int,
        game_ids: Sequence[int] | None = None,
        viewer: int | None = None,
    ) -> list[SeatStats]:
        """Every seat's current statistics row of the finished games of the guild where
        ``user_id`` played (only those of ``game_ids`` if given), by game and seat; with
        ``viewer``, only the private games where the viewer played or was let in to follow."""

    # -- leagues (rows defined at the end of this module; used by bot.manager.leagues) -------------

    @abc.abstractmethod
    async def create_league(self, league: LeagueRow, audit: LeagueAudit) -> int:
        """Insert ``league`` (ids ignored), its first season and the audit line; return its id."""

    @abc.abstractmethod
    async def get_league(self, league_id: int) -> LeagueRow | None:
        """The league with its current (last) season."""

    @abc.abstractmethod
    async def guild_leagues(self, guild_id: int) -> list[LeagueRow]:
        """Every league of a guild, by name."""

    @abc.abstractmethod
    async def seasons(self, league_id: int) -> list[SeasonRow]: ...

    @abc.abstractmethod
    async def set_season_message(self, league_id: int, season: int, message_id: int) -> None: ...

    @abc.abstractmethod
    async def close_season(
        self,
        league_id: int,
        season: int,
        now: float,
        audit: LeagueAudit,
        following: SeasonRow | None,
    ) -> bool:
        """Close ``season`` if still open, log it, and open ``following``; False if not open."""

    @abc.abstractmethod
    async def league_members(
        self, league_id: int, *, include_left: bool = False
    ) -> list[LeagueMember]: ...

    @abc.abstractmethod
    async def save_league_member(self, member: LeagueMember) -> None:
        """Insert or replace a member (joining again clears ``left_at``)."""

    @abc.abstractmethod
    async def link_league_game(self, link: LeagueGame) -> None: ...

    @abc.abstractmethod
    async def league_game(self, game_id: int) -> LeagueGame | None: ...

    @abc.abstractmethod
    async def league_games(
        self, league_id: int, statuses: Sequence[Status] = ("lobby", "active")
    ) -> list[tuple[LeagueGame, GameRow]]:
        """The league's games whose status is one of ``statuses``, oldest first."""

    @abc.abstractmethod
    async def unrecorded_league_games(self, league_id: int) -> list[int]:
        """Finished games that count (ended while their season was open) but have no stored
        result yet (e.g. the bot stopped between the last move and recording it)."""

    @abc.abstractmethod
    async def record_league_result(self, result: LeagueResult) -> int | None:
        """Store a result and its placings; None if the game already has one."""

    @abc.abstractmethod
    async def league_results(self, league_id: int) -> list[LeagueResult]:
        """Every result of the league (annulled ones too), in the order the games ended."""

    @abc.abstractmethod
    async def annul_league_result(
        self, game_id: int, by: int, reason: str, now: float, audit: LeagueAudit
    ) -> bool:
        """Mark a counted result annulled and log it; False if none or already annulled."""

    @abc.abstractmethod
    async def league_audit(self, league_id: int, limit: int = 20) -> list[LeagueAudit]:
        """The latest audit lines, newest first."""


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
