"""The dashboards and followers part of :class:`bot.storage.sql.Storage`.

A mixin of :class:`bot.storage.sql.Storage`, on the connections of its ``engine`` like the rest,
for every database engine; the tables are those of ``migrations/0013_dashboards_followers.sql``
(and its PostgreSQL twin).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage import DashboardRow, FollowRow, FollowStatus
from bot.storage.db import Engine

DASHBOARD_COLUMNS = "channel_id, guild_id, message_id, changed_at, shown_at"


def _dashboard(row: Sequence[Any]) -> DashboardRow:
    channel, guild, message, changed, shown = row
    return DashboardRow(int(channel), int(guild), message, float(changed), float(shown))


def _follow(row: Sequence[Any]) -> FollowRow:
    game, user, status, since, refused = row
    return FollowRow(game, user, status, since, tuple(int(u) for u in json.loads(refused)))


class SqlWatch:
    """The dashboard and follower statements, mixed into :class:`bot.storage.sql.Storage`."""

    engine: Engine

    # -- dashboards --------------------------------------------------------------------------

    async def set_dashboard(self, channel_id: int, guild_id: int, on: bool, now: float) -> bool:
        """Turn a channel's dashboard on (a row, no message yet) or off (the row deleted).
        Returns whether anything changed."""
        async with self.engine.transaction() as db:
            if not on:
                return (
                    await db.execute("DELETE FROM dashboards WHERE channel_id = ?", (channel_id,))
                    > 0
                )
            return (
                await db.execute(
                    "INSERT INTO dashboards (channel_id, guild_id, created_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (channel_id) DO NOTHING",
                    (channel_id, guild_id, now),
                )
                > 0
            )

    async def dashboards(self, guild_ids: Sequence[int] | None = None) -> list[DashboardRow]:
        """The dashboards of these guilds (every guild's with None), by channel."""
        sql = f"SELECT {DASHBOARD_COLUMNS} FROM dashboards"
        args: list[Any] = []
        if guild_ids is not None:
            if not guild_ids:
                return []
            sql += f" WHERE guild_id IN ({', '.join('?' * len(guild_ids))})"
            args = list(guild_ids)
        async with self.engine.read() as db:
            rows = await db.fetchall(sql + " ORDER BY channel_id", args)
        return [_dashboard(row) for row in rows]

    async def changed_dashboards(self) -> list[DashboardRow]:
        """The dashboards whose channel changed since they last showed it (by channel)."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT {DASHBOARD_COLUMNS} FROM dashboards WHERE changed_at > shown_at "
                "ORDER BY channel_id"
            )
        return [_dashboard(row) for row in rows]

    async def dashboard_posted(self, channel_id: int, message_id: int | None) -> None:
        """The dashboard's message is now ``message_id`` (None: to post again)."""
        async with self.engine.write() as db:
            await db.execute(
                "UPDATE dashboards SET message_id = ? WHERE channel_id = ?",
                (message_id, channel_id),
            )

    async def dashboard_changed(self, channel_id: int, now: float) -> None:
        """A game of the channel changed (seen by a process that does not show it)."""
        async with self.engine.write() as db:
            await db.execute(
                "UPDATE dashboards SET changed_at = ? WHERE channel_id = ? AND changed_at < ?",
                (now, channel_id, now),
            )

    async def dashboard_shown(self, channel_id: int, changed_at: float) -> None:
        """The dashboard shows every change up to ``changed_at``."""
        async with self.engine.write() as db:
            await db.execute(
                "UPDATE dashboards SET shown_at = ? WHERE channel_id = ? AND shown_at < ?",
                (changed_at, channel_id, changed_at),
            )

    # -- followers ---------------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, status: FollowStatus, now: float) -> bool:
        """Record a follower or a request (a request never demotes a follower). Returns
        whether the row is new or changed."""
        async with self.engine.write() as db:
            if status == "following":  # a request becomes a follow; a follow stays one
                return (
                    await db.execute(
                        "INSERT INTO followers (game_id, user_id, status, since) "
                        "VALUES (?, ?, 'following', ?) ON CONFLICT (game_id, user_id) DO UPDATE "
                        "SET status = 'following', since = excluded.since "
                        "WHERE followers.status = 'asked'",
                        (game_id, user_id, now),
                    )
                    > 0
                )
            return (
                await db.execute(
                    "INSERT INTO followers (game_id, user_id, status, since) "
                    "VALUES (?, ?, 'asked', ?) ON CONFLICT (game_id, user_id) DO NOTHING",
                    (game_id, user_id, now),
                )
                > 0
            )

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """Drop the follower or the request; False if there was none."""
        async with self.engine.write() as db:
            return (
                await db.execute(
                    "DELETE FROM followers WHERE game_id = ? AND user_id = ?", (game_id, user_id)
                )
                > 0
            )

    async def follow_row(self, game_id: int, user_id: int) -> FollowRow | None:
        async with self.engine.read() as db:
            row = await db.fetchone(
                "SELECT game_id, user_id, status, since, refused_by FROM followers "
                "WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
        return None if row is None else _follow(row)

    async def refuse_follow(self, game_id: int, user_id: int, player_id: int) -> FollowRow | None:
        """Add ``player_id`` to the refusals of a pending request; the request as it is now
        (None if there is no request any more: accepted, withdrawn)."""
        async with self.engine.transaction() as db:
            row = await db.fetchone(
                "SELECT game_id, user_id, status, since, refused_by FROM followers "
                "WHERE game_id = ? AND user_id = ? AND status = 'asked'",
                (game_id, user_id),
            )
            if row is None:
                return None
            found = _follow(row)
            refused = tuple(sorted({*found.refused_by, player_id}))
            await db.execute(
                "UPDATE followers SET refused_by = ? WHERE game_id = ? AND user_id = ? "
                "AND status = 'asked'",
                (json.dumps(list(refused)), game_id, user_id),
            )
        return FollowRow(found.game_id, found.user_id, found.status, found.since, refused)

    async def followers(self, game_id: int) -> list[int]:
        """The users following the game (requests not included), by user id."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT user_id FROM followers WHERE game_id = ? AND status = 'following' "
                "ORDER BY user_id",
                (game_id,),
            )
        return [int(row[0]) for row in rows]

    async def follower_counts(self, game_ids: Sequence[int]) -> dict[int, int]:
        """How many follow each game (games nobody follows are left out)."""
        if not game_ids:
            return {}
        marks = ", ".join("?" * len(game_ids))
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT game_id, COUNT(*) FROM followers WHERE status = 'following' "
                f"AND game_id IN ({marks}) GROUP BY game_id",
                list(game_ids),
            )
        return {int(game): int(count) for game, count in rows}
