"""Players' data operations of the game manager: what is kept about a player, forgetting a
player on their request, and deleting the finished games a server keeps no longer.

Forgetting a player (``/carcassonne forget-me``) first treats them as having resigned from
every running game (the manager's resign: their turns are skipped, their points stay but they
cannot win), leaves their lobbies (a lobby they opened is cancelled) and their leagues, then
replaces them in one transaction (:meth:`bot.storage.sql.Storage.forget_user`): their user id
becomes ``FORGOTTEN_BASE + N`` and their name "former player N" in every stored game, result,
league table and statistic, and their settings, follows and votes are deleted. A game is a
setup and a log of moves by seat, so every game replays as before, to the same scores, and the
league tables and statistics add up as before (the former player is one player).

Deleting finished games (a server's ``keep_days``): the scheduler calls :meth:`delete_expired`;
what is deleted is each game's record, never the summary that statistics, ratings and league
tables are made of (see :mod:`bot.storage.sql_privacy`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.errors import ManagerError
from bot.manager.leagues import LeagueOps
from bot.manager.lobbies import LobbyOps
from bot.outcomes import MoveResult
from bot.storage import GameRow
from bot.storage.sql_privacy import PersonalData

if TYPE_CHECKING:
    from bot.manager.leaving import LeavingManager

log = logging.getLogger(__name__)

#: Games whose record is deleted per transaction by :meth:`PrivacyOps.delete_expired`.
DELETE_BATCH = 200


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a player did."""

    #: The former player's number (None: nothing was stored about them).
    number: int | None
    #: The running games they were treated as having resigned from, with each move's result.
    resigned: tuple[tuple[int, MoveResult], ...] = ()
    #: Lobbies they left, or cancelled when they had opened them (as stored after).
    lobbies: tuple[GameRow, ...] = ()
    #: Leagues they left.
    leagues: tuple[int, ...] = ()


class PrivacyOps:
    """Players' data: :meth:`personal_data`, :meth:`forget`, :meth:`delete_expired`."""

    def __init__(self, core: LeavingManager, lobbies: LobbyOps, leagues: LeagueOps) -> None:
        self.core = core
        self.lobbies = lobbies
        self.leagues = leagues

    async def personal_data(self, user_id: int) -> PersonalData:
        return await self.core.storage.personal_data(user_id)

    async def forget(self, user_id: int) -> Forgotten:
        """Erase ``user_id``'s personal data everywhere (see the module)."""
        storage = self.core.storage
        resigned: list[tuple[int, MoveResult]] = []
        lobbies: list[GameRow] = []
        games = await storage.games_of(user_id)
        for game_id, status in games:
            try:
                if status == "active":
                    resigned.append((game_id, await self.core.resign(game_id, user_id)))
                elif status == "lobby":
                    row = await self.core.game(game_id)
                    if row.owner_id == user_id:
                        lobbies.append(await self.core.abandon(game_id, user_id))
                    else:
                        lobbies.append(await self.lobbies.leave(game_id, user_id))
            except ManagerError as error:  # it ended, or they left, meanwhile
                log.info("forgetting: game %s left as it is: %s", game_id, error.key)
        left: list[int] = []
        for league_id in await storage.memberships(user_id):
            try:
                await self.leagues.leave_league(league_id, user_id)
                left.append(league_id)
            except ManagerError as error:
                log.info("forgetting: league %s left as it is: %s", league_id, error.key)
        ids = sorted(game_id for game_id, _ in games)
        number = await self._replace(user_id, ids)
        log.warning(
            "a player was forgotten as former player %s (%d games, %d resigned)",
            number,
            len(ids),
            len(resigned),
        )
        return Forgotten(number, tuple(resigned), tuple(lobbies), tuple(left))

    async def _replace(self, user_id: int, game_ids: list[int]) -> int | None:
        """The rows rewritten while no move of the player's games runs in this process, and
        those games dropped from memory (their seats are read again, renamed)."""
        locks = [self.core.lock(game_id) for game_id in game_ids]
        for lock in locks:  # by game id: never two callers waiting for each other
            await lock.acquire()
        try:
            number = await self.core.storage.forget_user(user_id, self.core.clock())
            for game_id in game_ids:
                self.core.cache.drop(game_id)
        finally:
            for lock in reversed(locks):
                lock.release()
        return number

    async def delete_expired(self) -> list[int]:
        """Delete the record of every finished game past its server's ``keep_days`` (the
        scheduler's job); the ids, oldest first."""
        deleted: list[int] = []
        while True:
            ids = await self.core.storage.delete_expired_games(self.core.clock(), DELETE_BATCH)
            for game_id in ids:
                self.core.cache.drop(game_id)
            deleted += ids
            if len(ids) < DELETE_BATCH:
                break
        if deleted:
            log.info("deleted %d finished games past their server's keep_days", len(deleted))
        return deleted
