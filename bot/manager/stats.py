"""Statistics operations of the game manager: per-seat summaries of finished games, and the sums.

A finished game is replayed once (:func:`bot.stats.summarise`, about 8 to 16 ms a game) and its
summary stored (table ``game_stats``, one row per seat) when it ends; a query reads the stored
rows only. Games that ended before the table existed, or whose summary was not written (the bot
stopped in between), are summarised the first time a query needs them (:meth:`StatsOps._backfill`),
so the table heals itself and nothing else needs running.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.errors import NoSuchSeason
from bot.live import LiveGame
from bot.manager.base import ManagerBase
from bot.stats import HeadToHead, PlayerStats, head_to_head, player_stats, summarise
from bot.storage import SeatStats

log = logging.getLogger(__name__)

#: Games summarised by a backfill are saved this many at a time (one transaction each).
BATCH = 50


@dataclass(frozen=True, slots=True)
class StatsReport:
    """A player's statistics in one scope (a server, or a league's season)."""

    player: PlayerStats
    versus: HeadToHead | None = None
    #: The league season the figures are limited to, if any: (league id, season).
    season: tuple[int, int] | None = None
    #: How many games this query summarised for the first time (backfill).
    summarised: int = 0
    #: The lobby colour of the player's seat in their latest game counted (None: no game).
    colour: str | None = None


class StatsOps:
    """Players' statistics from stored games."""

    def __init__(self, core: ManagerBase) -> None:
        self.core = core

    async def game_ended(self, live: LiveGame) -> None:
        """Store the summary of a game that just finished (a listener of the manager's
        ``on_game_end``). A failure is logged and only delays it: the next query that needs it
        computes it (:meth:`_backfill`)."""
        try:
            rows = await asyncio.to_thread(summarise, live.row, list(live.log))
            await self.core.storage.save_game_stats({live.row.id: rows})
        except Exception:
            log.exception("statistics of game %s not stored", live.row.id)

    async def _backfill(self, guild_id: int, user_id: int) -> int:
        """Summarise the player's finished games that have no current summary; how many."""
        storage = self.core.storage
        done = 0
        batch: dict[int, list[SeatStats]] = {}
        missing = await storage.games_without_stats(guild_id, user_id)
        for index, game_id in enumerate(missing):
            row = await storage.get_game(game_id)
            if row is not None and row.status == "finished" and row.seed is not None:
                actions = await storage.get_actions(game_id)
                try:
                    batch[game_id] = await asyncio.to_thread(summarise, row, actions)
                except ValueError as error:  # a log that no longer replays: left out
                    log.error("game %s does not replay for statistics: %s", game_id, error)
            if batch and (len(batch) == BATCH or index == len(missing) - 1):
                await storage.save_game_stats(batch)  # one transaction per batch
                done += len(batch)
                batch = {}
        if done:
            log.info("statistics: %d games of guild %s summarised", done, guild_id)
        return done

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
        """``user_id``'s statistics over the finished games of the guild, or over the games
        that counted in a league's season (``league_id``; ``season`` default: the current one);
        with ``versus``, also their head-to-head against that player. Asked by ``viewer``, the
        private games count only where the viewer played or was let in to follow."""
        storage = self.core.storage
        game_ids: list[int] | None = None
        scope: tuple[int, int] | None = None
        if league_id is not None:
            league = await storage.get_league(league_id)
            if league is None:
                raise NoSuchSeason(season=season or 0)
            number = season if season is not None else league.season.season
            if number not in {s.season for s in await storage.seasons(league_id)}:
                raise NoSuchSeason(season=number)
            guild_id = league.guild_id
            game_ids = [
                r.game_id
                for r in await storage.league_results(league_id)
                if r.counted and r.season == number
            ]
            scope = (league_id, number)
        summarised = await self._backfill(guild_id, user_id)
        rows = await storage.game_stats_of(guild_id, user_id, game_ids, viewer)
        together = head_to_head(user_id, versus, rows) if versus is not None else None
        colour = None
        latest = max((r.game_id for r in rows if r.user_id == user_id), default=None)
        if latest is not None:
            row = await storage.get_game(latest)
            seat = row.seat_of(user_id) if row is not None else None
            colour = seat.colour if seat is not None else None
        reviews = await storage.review_seats_of(sorted({r.game_id for r in rows}))
        player = player_stats(user_id, rows, reviews)
        return StatsReport(player, together, scope, summarised, colour)
