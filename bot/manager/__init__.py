"""The async game manager: every Discord command about a game goes through it.

It owns the per-game locks, the live-game cache and the storage; it checks who may act and
whether a submission is stale, runs the engine, and saves each move in one transaction before
answering. Nothing here knows about Discord or about which database is behind :class:`Storage`.

The turns themselves (moves, timeouts, computers' turns, saving) are :mod:`bot.manager.turns`;
resign, abandon and undo, with their policies, are :mod:`bot.manager.leaving`; the services
(lobbies, records, timing, leagues, statistics, clocks, followers) each have their module, and
:class:`GameManager` offers their operations too, so callers need one object.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.manager.clock import ChessClock, ClockOps, PauseVote
from bot.manager.leagues import ComputerNamer, LeagueOps, default_computer_name
from bot.manager.leaving import LeavingManager, last_turn
from bot.manager.lobbies import LobbyOps
from bot.manager.records import RecordsOps
from bot.manager.stats import StatsOps, StatsReport
from bot.manager.timing import TimingOps
from bot.manager.turns import AUTOPLAY_LEVEL, Step, _computer_seed
from bot.manager.watch import WatchOps
from bot.outcomes import TurnView
from bot.storage import GameRow, Status

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
    from engine import Game

log = logging.getLogger(__name__)

__all__ = [
    "AUTOPLAY_LEVEL",
    "ChessClock",
    "ComputerNamer",
    "GameManager",
    "PauseVote",
    "StatsReport",
    "Step",
    "_computer_seed",
    "default_computer_name",
    "last_turn",
]


class GameManager(LeavingManager):
    """The game manager: the shared state of :class:`ManagerBase` (storage, live games, locks,
    clock), the turns themselves (moves, timeouts: :mod:`bot.manager.turns`; undo, resign,
    abandon: :mod:`bot.manager.leaving`), and the
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
        # A game's end: its league result first (its standings then show it), then statistics.
        self.on_game_end(self.leagues.game_ended)
        self.on_game_end(self.stats.game_ended)

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
        self, game_id: int, user_id: int, why: str, *, admin: bool, guild_id: int | None = None
    ) -> tuple[LeagueRow, LeagueResult]:
        """See :meth:`LeagueOps.annul_result`."""
        return await self.leagues.annul_result(
            game_id, user_id, why, admin=admin, guild_id=guild_id
        )

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

    async def full_record(self, game_id: int) -> dict[str, Any]:
        """See :meth:`RecordsOps.full_record`."""
        return await self.records.full_record(game_id)

    async def public_copy(self, game_id: int) -> Game:
        """See :meth:`RecordsOps.public_copy`."""
        return await self.records.public_copy(game_id)

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
        viewer: int | None = None,
    ) -> StatsReport:
        """See :meth:`StatsOps.player_stats`."""
        return await self.stats.player_stats(
            guild_id, user_id, versus=versus, league_id=league_id, season=season, viewer=viewer
        )
