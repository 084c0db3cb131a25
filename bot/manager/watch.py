"""Watching games without playing them: followers, and the channels' dashboards (issue 19).

Following (a service of the manager, :attr:`bot.manager.GameManager.watch`): anyone may follow a
running public game; a private game's players decide. A request to follow a private game waits
until one of its players still playing accepts (the first yes lets the asker in) or until every
one of them refused; each refusal is told to the asker by the Discord layer. Players of a game
never follow it (they are in it), and followers never play: the manager's moves check seats,
so a follower's click is refused like anyone else's who does not play.

Dashboards: an admin turns a channel's dashboard on or off; the Discord layer
(:mod:`bot.ui.watching.dashboard`) keeps its message and its id here, so it is found again after a
restart, and the processes that do not show a dashboard mark it changed for the one that does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.errors import FollowGone, NotAPlayer, NotFollowing, PlayerFollows
from bot.manager.base import ManagerBase, require_active
from bot.policy import GameFacts, Role
from bot.storage import DashboardRow, FollowRow, GameRow

Followed = Literal["following", "asked", "already", "waiting"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A player refused a request to follow: who refused so far, and whether it is over (every
    player still playing refused, so the request was dropped)."""

    row: GameRow
    refused_by: tuple[int, ...]
    closed: bool


def deciders(row: GameRow) -> frozenset[int]:
    """Who may let a follower into a private game: the people still playing it."""
    return frozenset(s.user_id for s in row.seats if s.status == "playing" and s.computer is None)


class WatchOps:
    """Followers of games and dashboards of channels (a service of the manager)."""

    def __init__(self, core: ManagerBase) -> None:
        self.core = core

    async def facts(self, row: GameRow, user_id: int, wanted: frozenset[Role]) -> GameFacts:
        """What the policy needs of ``row`` to answer ``user_id`` (``bot.policy``): the turn
        and the followers cost a read each, fetched only when ``wanted`` (the roles the
        action's row names) can change the answer."""
        players = frozenset(s.user_id for s in row.seats if s.computer is None)
        in_turn = None
        if Role.TURN in wanted and row.status == "active":
            in_turn = (await self.core.decision(row.id)).user_id
        followers: frozenset[int] = frozenset()
        if Role.FOLLOWER in wanted and user_id not in players:
            found = await self.follow_row(row.id, user_id)
            if found is not None and found.status == "following":
                followers = frozenset({user_id})
        return GameFacts(
            row.id,
            row.guild_id,
            private=row.private,
            owner_id=row.owner_id,
            players=players,
            in_turn=in_turn,
            followers=followers,
        )

    # -- following --------------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int) -> tuple[GameRow, Followed]:
        """Follow a running game: ``following`` at once for a public game, ``asked`` for a
        private one (a request its players answer), ``already`` following, or ``waiting``
        (a request already asked)."""
        row = await self.core.read_row(game_id)
        require_active(row)
        if row.seat_of(user_id) is not None:
            raise PlayerFollows(game_id=game_id)
        now = self.core.clock()
        found = await self.core.storage.follow_row(game_id, user_id)
        if found is not None:
            return row, "already" if found.status == "following" else "waiting"
        status: Literal["following", "asked"] = "asked" if row.private else "following"
        await self.core.storage.follow(game_id, user_id, status, now)
        return row, status

    async def accept(self, game_id: int, asker: int, player: int) -> GameRow:
        """A player lets the asker follow their private game (the first yes decides)."""
        row = await self.core.read_row(game_id)
        require_active(row)
        if player not in deciders(row):
            raise NotAPlayer(game_id=game_id)
        found = await self.core.storage.follow_row(game_id, asker)
        if found is None:
            raise FollowGone(game_id=game_id)
        if found.status == "asked":
            await self.core.storage.follow(game_id, asker, "following", self.core.clock())
        return row

    async def refuse(self, game_id: int, asker: int, player: int) -> Refusal:
        """A player refuses; the request ends when every player still playing refused."""
        row = await self.core.read_row(game_id)
        if player not in deciders(row):
            raise NotAPlayer(game_id=game_id)
        found = await self.core.storage.refuse_follow(game_id, asker, player)
        if found is None:
            raise FollowGone(game_id=game_id)
        closed = deciders(row) <= set(found.refused_by)
        if closed:
            await self.core.storage.unfollow(game_id, asker)
        return Refusal(row, found.refused_by, closed)

    async def unfollow(self, game_id: int, user_id: int) -> GameRow:
        """Stop following a game (or withdraw a request)."""
        row = await self.core.read_row(game_id)
        if not await self.core.storage.unfollow(game_id, user_id):
            raise NotFollowing(game_id=game_id)
        return row

    async def follow_row(self, game_id: int, user_id: int) -> FollowRow | None:
        return await self.core.storage.follow_row(game_id, user_id)

    async def followers(self, game_id: int) -> list[int]:
        return await self.core.storage.followers(game_id)

    async def follower_counts(self, game_ids: Sequence[int]) -> dict[int, int]:
        return await self.core.storage.follower_counts(game_ids)

    # -- dashboards -------------------------------------------------------------------------

    async def set_dashboard(self, channel_id: int, guild_id: int, on: bool) -> bool:
        """Turn the channel's dashboard on or off; whether that changed anything."""
        return await self.core.storage.set_dashboard(channel_id, guild_id, on, self.core.clock())

    async def dashboards(self, guild_ids: Sequence[int] | None = None) -> list[DashboardRow]:
        return await self.core.storage.dashboards(guild_ids)

    async def changed_dashboards(self) -> list[DashboardRow]:
        """Dashboards another process marked changed since they were last shown."""
        return await self.core.storage.changed_dashboards()

    async def dashboard_changed(self, channel_id: int, now: float) -> None:
        """A game of the channel changed here; another process shows its dashboard."""
        await self.core.storage.dashboard_changed(channel_id, now)

    async def dashboard_shown(self, channel_id: int, changed_at: float) -> None:
        await self.core.storage.dashboard_shown(channel_id, changed_at)

    async def dashboard_posted(self, channel_id: int, message_id: int | None) -> None:
        await self.core.storage.dashboard_posted(channel_id, message_id)

    async def running_in(self, channel_id: int, limit: int = 1000) -> list[GameRow]:
        """The running public games of a channel, oldest first (a dashboard's list: a message
        every member of the channel reads, so private games are left out)."""
        rows = await self.core.storage.list_games(
            channel_id=channel_id, statuses=("active",), limit=limit
        )
        return sorted((row for row in rows if not row.private), key=lambda row: row.id)

    async def turn_started_at(self, game_id: int) -> float | None:
        """When the current turn began: the last action of an earlier turn, else the start."""
        async with self.core.hold(game_id) as live:
            turn = live.game.decision.turn
            earlier = [action.created_at for action in live.log if action.turn < turn]
            return earlier[-1] if earlier else live.row.started_at
