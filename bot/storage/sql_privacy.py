"""The players' data part of :class:`bot.storage.sql.Storage`: what is kept about a player,
forgetting a player, and deleting the finished games a server keeps no longer.

A mixin of :class:`bot.storage.sql.Storage`, on the connections of its ``engine`` like the rest,
for every database engine (tables of ``migrations/0014_privacy.sql`` and its PostgreSQL twin).

Forgetting replaces the player's user id by ``FORGOTTEN_BASE + N`` and their name by
"former player N" in every row that keeps a game, a league or tournament table or a statistic,
so that each of those still adds up (the substitute is one player, distinct from every other),
and deletes what is only theirs (settings, follows, votes). Deleting a game keeps its summary
row in ``games`` (status, scores, action count: what statistics and league tables are made of)
and deletes its record: moves, seats, timers, votes, notices and followers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import FORGOTTEN_BASE, former_name
from bot.storage.db import Db, Engine

#: Seconds in a day, for ``keep_days``.
DAY = 86400.0

#: What a game's record is, beside its summary row: deleted with it (by ``keep_days``).
RECORD_TABLES = (
    "actions",
    "seats",
    "deadlines",
    "undo_votes",
    "abandon_votes",
    "pause_votes",
    "notices",
    "followers",
    "reviews",
)

#: Finished games a server keeps no longer: ended more than its ``keep_days`` ago, not in a
#: league season still open, and with nothing left to compute from their record (a finished
#: game's statistics stored for its whole log; a league game that counts has its result; a
#: tournament game has its table decided).
EXPIRED = (
    "SELECT g.id FROM games g JOIN guild_settings s ON s.guild_id = g.guild_id "
    "WHERE s.keep_days IS NOT NULL AND g.deleted_at IS NULL "
    "AND g.status IN ('finished', 'abandoned') AND g.ended_at < ? - s.keep_days * ? "
    "AND NOT EXISTS (SELECT 1 FROM league_games k JOIN league_seasons z "
    "ON z.league_id = k.league_id AND z.season = k.season "
    "WHERE k.game_id = g.id AND z.closed_at IS NULL) "
    "AND (g.status <> 'finished' OR EXISTS (SELECT 1 FROM game_stats t "
    "WHERE t.game_id = g.id AND t.action_count = g.action_count)) "
    "AND NOT EXISTS (SELECT 1 FROM league_games k JOIN league_seasons z "
    "ON z.league_id = k.league_id AND z.season = k.season WHERE k.game_id = g.id "
    "AND g.status = 'finished' AND g.ended_at <= z.closed_at "
    "AND NOT EXISTS (SELECT 1 FROM league_results r WHERE r.game_id = g.id)) "
    "AND NOT EXISTS (SELECT 1 FROM tournament_games u WHERE u.game_id = g.id "
    "AND u.decided_at IS NULL) "
    "ORDER BY g.ended_at, g.id LIMIT ?"
)


@dataclass(frozen=True, slots=True)
class PersonalData:
    """What the bot keeps about one user (``/carcassonne privacy``)."""

    #: Seats in games (lobbies, running and finished games with their moves).
    games: int = 0
    #: Of them, games still running or waiting in a lobby.
    running: int = 0
    #: Statistics rows (one per finished game).
    stats: int = 0
    #: League memberships, and league results with the player's name.
    leagues: int = 0
    placings: int = 0
    #: Games followed or asked to follow.
    follows: int = 0
    #: Whether the player saved settings (language, reminders, absence).
    settings: bool = False


class SqlPrivacy:
    """The players' data statements, mixed into :class:`bot.storage.sql.Storage`."""

    engine: Engine

    async def personal_data(self, user_id: int) -> PersonalData:
        """Counts of what is stored about ``user_id``, in one read."""
        async with self.engine.read() as db:
            row = await db.fetchone(
                "SELECT (SELECT count(*) FROM seats WHERE user_id = ?), "
                "(SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = ? AND g.status IN ('lobby', 'active')), "
                "(SELECT count(*) FROM game_stats WHERE user_id = ?), "
                "(SELECT count(*) FROM league_members WHERE user_id = ?), "
                "(SELECT count(*) FROM league_placings WHERE user_id = ?), "
                "(SELECT count(*) FROM followers WHERE user_id = ?), "
                "(SELECT count(*) FROM user_settings WHERE user_id = ?)",
                (user_id,) * 7,
            )
        assert row is not None
        games, running, stats, leagues, placings, follows, settings = (int(v) for v in row)
        return PersonalData(games, running, stats, leagues, placings, follows, settings > 0)

    async def forget_user(self, user_id: int, now: float) -> int | None:
        """Replace ``user_id`` by a former player everywhere, in one transaction; the former
        player's number, or None when nothing was stored about them."""
        async with self.engine.transaction() as db:
            if not await _anything_of(db, user_id):
                return None
            number = int(
                await db.insert_id(
                    "INSERT INTO forgotten (forgotten_at) VALUES (?) RETURNING number", (now,)
                )
            )
            former, name = FORGOTTEN_BASE + number, former_name(number)
            ids = (former, user_id)
            # The log first: its rows are found through the seats, then renamed.
            await db.execute(
                "UPDATE actions SET user_id = ? WHERE user_id = ? AND game_id IN "
                "(SELECT game_id FROM seats WHERE user_id = ?)",
                (*ids, user_id),
            )
            await db.execute(
                "UPDATE seats SET user_id = ?, name = ? WHERE user_id = ?", (former, name, user_id)
            )
            for table, column in (
                ("game_stats", "user_id"),
                ("games", "owner_id"),
                ("deadlines", "user_id"),
                ("leagues", "organiser_id"),
                ("league_games", "created_by"),
                ("league_results", "annulled_by"),
                ("league_audit", "user_id"),
                ("tournaments", "organiser_id"),
                ("tournament_audit", "user_id"),
            ):
                await db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", ids)
            for table in ("league_members", "league_placings", "tournament_entrants"):
                await db.execute(
                    f"UPDATE {table} SET user_id = ?, name = ? WHERE user_id = ?",
                    (former, name, user_id),
                )
            for table in ("undo_votes", "abandon_votes", "pause_votes", "followers"):
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM user_settings WHERE user_id = ?", (user_id,))
            await _rewrite_json(db, user_id, former)
            return number

    async def games_of(self, user_id: int) -> list[tuple[int, str]]:
        """The games where ``user_id`` holds a seat, with their status, by id."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT g.id, g.status FROM games g WHERE g.id IN "
                "(SELECT game_id FROM seats WHERE user_id = ?) ORDER BY g.id",
                (user_id,),
            )
        return [(int(row[0]), str(row[1])) for row in rows]

    async def memberships(self, user_id: int) -> list[int]:
        """The leagues ``user_id`` is a member of (not left), by id."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT league_id FROM league_members WHERE user_id = ? AND left_at IS NULL "
                "ORDER BY league_id",
                (user_id,),
            )
        return [int(row[0]) for row in rows]

    async def forgotten_count(self) -> int:
        """How many players were forgotten."""
        async with self.engine.read() as db:
            row = await db.fetchone("SELECT count(*) FROM forgotten")
        return int(row[0]) if row else 0

    async def delete_expired_games(self, now: float, limit: int = 200) -> list[int]:
        """Delete the record of up to ``limit`` finished games their server keeps no longer
        (see :data:`EXPIRED`), in one transaction; their ids, oldest first."""
        async with self.engine.transaction() as db:
            rows = await db.fetchall(EXPIRED, (now, DAY, limit))
            ids = [int(row[0]) for row in rows]
            if not ids:
                return []
            marks = ", ".join("?" * len(ids))
            for table in RECORD_TABLES:
                await db.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", ids)
            await db.execute(
                "UPDATE games SET deleted_at = ?, owner_id = 0, seed = NULL, setup_extra = '{}', "
                f"message_id = NULL, updated_at = ? WHERE id IN ({marks})",
                [now, now, *ids],
            )
        return ids

    async def deleted_games(self, guild_id: int) -> int:
        """How many of the guild's finished games were deleted (their summary kept)."""
        async with self.engine.read() as db:
            row = await db.fetchone(
                "SELECT count(*) FROM games WHERE guild_id = ? AND deleted_at IS NOT NULL",
                (guild_id,),
            )
        return int(row[0]) if row else 0


async def _anything_of(db: Db, user_id: int) -> bool:
    checks = [
        "SELECT 1 FROM seats WHERE user_id = ?",
        "SELECT 1 FROM game_stats WHERE user_id = ?",
        "SELECT 1 FROM games WHERE owner_id = ?",
        "SELECT 1 FROM user_settings WHERE user_id = ?",
        "SELECT 1 FROM followers WHERE user_id = ?",
        "SELECT 1 FROM league_members WHERE user_id = ?",
        "SELECT 1 FROM league_placings WHERE user_id = ?",
        "SELECT 1 FROM league_audit WHERE user_id = ?",
        "SELECT 1 FROM leagues WHERE organiser_id = ?",
        "SELECT 1 FROM tournament_entrants WHERE user_id = ?",
        "SELECT 1 FROM tournament_audit WHERE user_id = ?",
        "SELECT 1 FROM tournaments WHERE organiser_id = ?",
    ]
    union = " UNION ALL ".join(checks)
    return await db.fetchone(
        f"SELECT count(*) FROM ({union}) AS found", (user_id,) * len(checks)
    ) != (0,)


def _replaced(value: Any, user_id: int, former: int) -> Any:
    if isinstance(value, list):
        return [former if v == user_id else v for v in value]
    return value


async def _rewrite_json(db: Db, user_id: int, former: int) -> None:
    """The user ids inside JSON columns: who refused a follower, who a challenge waits for,
    who sat at a tournament table and who forfeited there, who abandoned a game."""
    pattern = f"%{user_id}%"
    table_key = "tournament_id, round, table_no, game_no"
    spots: Sequence[tuple[str, str, str]] = (
        ("followers", "refused_by", "game_id, user_id"),
        ("league_games", "invited", "game_id"),
        ("tournament_games", "players", table_key),
        ("tournament_games", "absent", table_key),
    )
    for table, column, key in spots:
        rows = await db.fetchall(
            f"SELECT {key}, {column} FROM {table} WHERE {column} LIKE ?", (pattern,)
        )
        names = key.split(", ")
        for row in rows:
            value = _replaced(json.loads(row[-1]), user_id, former)
            where = " AND ".join(f"{name} = ?" for name in names)
            await db.execute(
                f"UPDATE {table} SET {column} = ? WHERE {where}",
                (json.dumps(value, separators=(",", ":")), *row[:-1]),
            )
    rows = await db.fetchall(
        "SELECT id, result FROM games WHERE status = 'abandoned' AND result LIKE ?", (pattern,)
    )
    for game_id, text in rows:
        result = json.loads(text)
        if isinstance(result, dict) and result.get("by") == user_id:
            result["by"] = former
            await db.execute(
                "UPDATE games SET result = ? WHERE id = ?",
                (json.dumps(result, separators=(",", ":"), sort_keys=True), game_id),
            )
