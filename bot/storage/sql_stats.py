"""The statistics part of :class:`bot.storage.sql.Storage`: the SQL of table ``game_stats``.

A mixin of :class:`bot.storage.sql.Storage`, on the connections of its ``engine`` like the rest,
for every database engine; the table is that of ``migrations/0011_game_stats.sql`` (and its
PostgreSQL twin).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage import SeatStats
from bot.storage.db import Engine, upsert

STATS_COLUMNS = (
    "game_id, seat, user_id, computer, score, won, left_game, breakdown, figures_placed, "
    "figures_returned, turn_times, action_count"
)
#: Rows of finished games that are current (computed from the game's whole log).
CURRENT = (
    "FROM game_stats t JOIN games g ON g.id = t.game_id "
    "WHERE g.status = 'finished' AND t.action_count = g.action_count AND g.guild_id = ? "
    "AND t.game_id IN (SELECT game_id FROM game_stats WHERE user_id = ?)"
)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _values(row: SeatStats) -> tuple[Any, ...]:
    return (
        row.game_id,
        row.seat,
        row.user_id,
        int(row.computer),
        row.score,
        int(row.won),
        int(row.left),
        _dump(row.breakdown),
        row.figures_placed,
        row.figures_returned,
        _dump(list(row.turn_times)),
        row.action_count,
    )


def _stats(row: Sequence[Any]) -> SeatStats:
    (game_id, seat, user, computer, score, won, left, breakdown, placed, returned) = row[:10]
    times, count, kind = row[10:]
    return SeatStats(
        game_id=game_id,
        seat=seat,
        user_id=user,
        computer=bool(computer),
        score=score,
        won=bool(won),
        left=bool(left),
        breakdown={k: int(v) for k, v in json.loads(breakdown).items()},
        figures_placed=placed,
        figures_returned=returned,
        turn_times=tuple(float(t) for t in json.loads(times)),
        action_count=count,
        kind=kind,
    )


class SqlStats:
    """The statistics statements, mixed into :class:`bot.storage.sql.Storage`."""

    engine: Engine

    async def save_game_stats(self, games: Mapping[int, Sequence[SeatStats]]) -> None:
        """Replace the statistics rows of finished games (game id -> one row per seat), in one
        transaction."""
        marks = ", ".join("?" * len(STATS_COLUMNS.split(", ")))
        async with self.engine.transaction() as db:
            await db.executemany(
                "DELETE FROM game_stats WHERE game_id = ?", [(game_id,) for game_id in games]
            )
            # Two processes may summarise the same game at once (two queries): the second
            # one's rows replace the first's instead of failing on the key.
            await db.executemany(
                f"INSERT INTO game_stats ({STATS_COLUMNS}) VALUES ({marks}) "
                + upsert("game_id, seat", STATS_COLUMNS.split(", ", 2)[2]),
                [_values(row) for rows in games.values() for row in rows],
            )

    async def games_without_stats(self, guild_id: int, user_id: int) -> list[int]:
        """Finished games of the guild where ``user_id`` holds a seat whose statistics rows are
        missing or stale (computed from another action count), oldest first."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT g.id FROM games g WHERE g.status = 'finished' AND g.guild_id = ? "
                "AND g.id IN (SELECT game_id FROM seats WHERE user_id = ?) "
                "AND NOT EXISTS (SELECT 1 FROM game_stats t WHERE t.game_id = g.id "
                "AND t.action_count = g.action_count) ORDER BY g.id",
                (guild_id, user_id),
            )
        return [int(row[0]) for row in rows]

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
        columns = ", ".join(f"t.{c}" for c in STATS_COLUMNS.split(", "))
        sql = f"SELECT {columns}, g.kind {CURRENT}"
        args: list[Any] = [guild_id, user_id]
        if viewer is not None:  # private games only where the viewer sat or was let in
            sql += (
                " AND (g.private = 0"
                " OR t.game_id IN (SELECT game_id FROM game_stats WHERE user_id = ?)"
                " OR t.game_id IN"
                " (SELECT game_id FROM followers WHERE user_id = ? AND status = 'following'))"
            )
            args += [viewer, viewer]
        if game_ids is not None:
            if not game_ids:
                return []
            sql += f" AND t.game_id IN ({', '.join('?' * len(game_ids))})"
            args += list(game_ids)
        async with self.engine.read() as db:
            rows = await db.fetchall(sql + " ORDER BY t.game_id, t.seat", args)
        return [_stats(row) for row in rows]
