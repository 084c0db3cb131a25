"""The async game manager: every Discord command about a game goes through it.

It owns the per-game locks, the live-game cache and the storage; it checks who may act and
whether a submission is stale, runs the engine, and saves each move in one transaction before
answering. Nothing here knows about Discord or about which database is behind :class:`Storage`.

What lives where: the core (:class:`GameManager` and its bases) holds the shared state
(:mod:`bot.manager.base`: storage, live games, locks, clock, seeds, and the public interface its
services use), plays the turns (:mod:`bot.manager.turns`: moves, timeouts, computers' turns,
saving) and lets players leave or take back (:mod:`bot.manager.leaving`: resign, abandon, undo,
with their policies). Everything else belongs to a service the manager holds, which callers
call directly (``manager.lobbies.start(...)``, ``manager.leagues.schedule(...)``): lobbies,
records, timing, clocks, leagues, tournaments, stats, watch, privacy and reviews (see
:class:`GameManager`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.manager.clock import ChessClock, ClockOps, PauseVote
from bot.manager.leagues import ComputerNamer, LeagueOps, default_computer_name
from bot.manager.leaving import LeavingManager, last_turn
from bot.manager.lobbies import LobbyOps
from bot.manager.privacy import Forgotten, PrivacyOps
from bot.manager.records import RecordsOps
from bot.manager.reviews import Hint, Progress, ReviewOps
from bot.manager.stats import StatsOps, StatsReport
from bot.manager.timing import TimingOps
from bot.manager.tournaments import TournamentOps
from bot.manager.turns import (
    AUTOPLAY_LEVEL,
    COMPUTER,
    Computer,
    Move,
    Step,
    Timeout,
    _computer_seed,
)
from bot.manager.watch import WatchOps

if TYPE_CHECKING:
    from bot.review_pool import ReviewWorkers
    from bot.storage.sql import Storage

__all__ = [
    "AUTOPLAY_LEVEL",
    "COMPUTER",
    "ChessClock",
    "Computer",
    "ComputerNamer",
    "Forgotten",
    "GameManager",
    "Hint",
    "Move",
    "PauseVote",
    "Progress",
    "StatsReport",
    "Step",
    "Timeout",
    "_computer_seed",
    "default_computer_name",
    "last_turn",
]


class GameManager(LeavingManager):
    """The game manager. Its own operations are the core's: the turns (:meth:`play_turn`, the
    one way a decision is played, by a player, a computer or a timeout; :meth:`current`, what a
    prompt is drawn from; :meth:`forced_move`), leaving and taking back
    (:meth:`resign`, :meth:`abandon`, :meth:`vote_abandon`, :meth:`refuse_abandon`,
    :meth:`undo`, :meth:`refuse_undo`), a game's row, decision, engine copy and picture
    (:meth:`game`, :meth:`decision`, :meth:`engine_copy`, :meth:`render`), listeners
    (:meth:`on_game_change`, :meth:`on_game_end`, :attr:`timer_listeners`) and its life
    (:meth:`open`, :meth:`resume`, :meth:`settle`, :meth:`close`).

    Every other operation belongs to a service, one job each, which callers call directly:

    - :attr:`lobbies` (:class:`LobbyOps`): create, join, leave, seats, options, start;
    - :attr:`records` (:class:`RecordsOps`): export, import, listings, server and player
      settings;
    - :attr:`timing` (:class:`TimingOps`): play-by-post turn clocks, absences, digests;
    - :attr:`clocks` (:class:`ClockOps`): chess clocks and agreed pauses;
    - :attr:`leagues` (:class:`LeagueOps`): leagues, members, league games, results, seasons;
    - :attr:`tournaments` (:class:`TournamentOps`): tournaments, sign-up, rounds, results;
    - :attr:`stats` (:class:`StatsOps`): players' statistics;
    - :attr:`watch` (:class:`WatchOps`): followers and dashboards;
    - :attr:`privacy` (:class:`PrivacyOps`): players' data, forgetting a player, deleting
      finished games past a server's ``keep_days``;
    - :attr:`reviews` (:class:`ReviewOps`): finished games' reviews (worker processes, stored
      once) and hints in practice games.

    The services use the core through its public interface only (see
    :class:`~bot.manager.base.ManagerBase`); a game's end reaches the league results and the
    statistics as listeners of :meth:`on_game_end`, subscribed here.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        reviews: ReviewWorkers | None = None,
        review_budget: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__(storage, **options)
        self.lobbies = LobbyOps(self)
        self.records = RecordsOps(self)
        self.timing = TimingOps(self)
        self.leagues = LeagueOps(self, self.lobbies)
        self.stats = StatsOps(self)
        self.clocks = ClockOps(self)
        self.watch = WatchOps(self)
        self.privacy = PrivacyOps(self, self.lobbies, self.leagues)
        self.reviews = ReviewOps(self, self.records, reviews, review_budget)
        self.tournaments = TournamentOps(self, self.lobbies, self.leagues)
        # A game's end: its league result first (its standings then show it), then statistics,
        # then its tournament table (which may start the next round's games).
        self.on_game_end(self.leagues.game_ended)
        self.on_game_end(self.stats.game_ended)
        self.on_game_end(self.tournaments.game_ended)

    async def close(self) -> None:
        """Stop the review workers, then the core (computer workers, listening, storage)."""
        self.reviews.close()
        await super().close()
