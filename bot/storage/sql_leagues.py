"""The league part of :class:`bot.storage.sql.Storage`: every SQL statement on leagues.

A mixin of :class:`bot.storage.sql.Storage`, on the connections of its ``engine`` like the rest,
for every database engine; the tables are those of ``migrations/0003_leagues.sql`` (and its
PostgreSQL twin).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.storage import (
    GameRow,
    LeagueAudit,
    LeagueGame,
    LeagueMember,
    LeaguePlacing,
    LeagueResult,
    LeagueRow,
    SeasonRow,
    Status,
)
from bot.storage.db import Db, Engine, upsert

LEAGUE_COLUMNS = (
    "guild_id, name, organiser_id, channel_id, kind, expansions, options, min_players, "
    "max_players, pace, turn_seconds, timeout_policy, points, tiebreaks, created_at, computers"
)
SEASON_COLUMNS = "league_id, season, starts_at, ends_at, message_id, closed_at"
RESULT_COLUMNS = (
    "id, game_id, league_id, season, ended_at, recorded_at, annulled_at, annulled_by, annul_reason"
)
PLACING_COLUMNS = "seat, user_id, name, score, rank, left_game, breakdown"
AUDIT_COLUMNS = "league_id, user_id, action, created_at, reason, season, game_id"
#: The current season of each league: its last one.
CURRENT = (
    "JOIN league_seasons s ON s.league_id = l.id AND s.season = "
    "(SELECT MAX(season) FROM league_seasons WHERE league_id = l.id)"
)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _league(row: Sequence[Any]) -> LeagueRow:
    (lid, guild, name, organiser, channel, kind, expansions, options, low, high) = row[:10]
    (pace, seconds, policy, points, tiebreaks, created, computers) = row[10:17]
    return LeagueRow(
        id=lid,
        guild_id=guild,
        name=name,
        organiser_id=organiser,
        channel_id=channel,
        season=SeasonRow(*row[17:]),
        kind=kind,
        expansions=tuple(json.loads(expansions)),
        options=json.loads(options),
        min_players=low,
        max_players=high,
        pace=pace,
        turn_seconds=seconds,
        timeout_policy=policy,
        points=tuple(json.loads(points)),
        tiebreaks=tuple(json.loads(tiebreaks)),
        created_at=created,
        computers=computers,
    )


def _link(row: Sequence[Any]) -> LeagueGame:
    game_id, league_id, season, created_by, created_at, invited = row
    return LeagueGame(
        game_id, league_id, season, created_by, created_at, tuple(json.loads(invited))
    )


LINK_COLUMNS = "game_id, league_id, season, created_by, created_at, invited"


class SqlLeagues:
    """The league statements, mixed into :class:`bot.storage.sql.Storage`."""

    engine: Engine

    if TYPE_CHECKING:

        async def _games(self, db: Db, where: str, args: Sequence[Any]) -> list[GameRow]: ...

    # -- leagues and seasons ------------------------------------------------------------------

    async def create_league(self, league: LeagueRow, audit: LeagueAudit) -> int:
        """Insert ``league`` (ids ignored), its first season and the audit line; return its id."""
        values = (
            league.guild_id,
            league.name,
            league.organiser_id,
            league.channel_id,
            league.kind,
            _dump(list(league.expansions)),
            _dump(league.options),
            league.min_players,
            league.max_players,
            league.pace,
            league.turn_seconds,
            league.timeout_policy,
            _dump(list(league.points)),
            _dump(list(league.tiebreaks)),
            league.created_at,
            league.computers,
        )
        marks = ", ".join("?" * len(values))
        async with self.engine.transaction() as db:
            league_id = await db.insert_id(
                f"INSERT INTO leagues ({LEAGUE_COLUMNS}) VALUES ({marks}) RETURNING id", values
            )
            season = league.season
            await db.execute(
                f"INSERT INTO league_seasons ({SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (league_id, 1, season.starts_at, season.ends_at, None, None),
            )
            await self._audit(db, audit, league_id)
            return int(league_id)

    async def _audit(self, db: Db, audit: LeagueAudit, league_id: int | None = None) -> None:
        await db.execute(
            f"INSERT INTO league_audit ({AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                league_id or audit.league_id,
                audit.user_id,
                audit.action,
                audit.created_at,
                audit.reason,
                audit.season,
                audit.game_id,
            ),
        )

    async def _leagues(self, where: str, args: Sequence[Any]) -> list[LeagueRow]:
        columns = ", ".join(f"l.{c}" for c in LEAGUE_COLUMNS.split(", "))
        seasons = ", ".join(f"s.{c}" for c in SEASON_COLUMNS.split(", "))
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT l.id, {columns}, {seasons} FROM leagues l {CURRENT} {where}", args
            )
        return [_league(row) for row in rows]

    async def get_league(self, league_id: int) -> LeagueRow | None:
        """The league with its current (last) season."""
        found = await self._leagues("WHERE l.id = ?", (league_id,))
        return found[0] if found else None

    async def guild_leagues(self, guild_id: int) -> list[LeagueRow]:
        """Every league of a guild, by name."""
        found = await self._leagues("WHERE l.guild_id = ?", (guild_id,))
        return sorted(found, key=lambda league: (league.name.casefold(), league.id))

    async def seasons(self, league_id: int) -> list[SeasonRow]:
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT {SEASON_COLUMNS} FROM league_seasons WHERE league_id = ? ORDER BY season",
                (league_id,),
            )
        return [SeasonRow(*row) for row in rows]

    async def set_season_message(self, league_id: int, season: int, message_id: int) -> None:
        async with self.engine.transaction() as db:
            await db.execute(
                "UPDATE league_seasons SET message_id = ? WHERE league_id = ? AND season = ?",
                (message_id, league_id, season),
            )

    async def close_season(
        self,
        league_id: int,
        season: int,
        now: float,
        audit: LeagueAudit,
        following: SeasonRow | None,
    ) -> bool:
        """Close ``season`` if still open, log it, and open ``following``; False if not open."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE league_seasons SET closed_at = ? "
                "WHERE league_id = ? AND season = ? AND closed_at IS NULL",
                (now, league_id, season),
            )
            if changed != 1:
                return False
            await self._audit(db, audit)
            if following is not None:
                await db.execute(
                    f"INSERT INTO league_seasons ({SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                    (league_id, season + 1, following.starts_at, following.ends_at, None, None),
                )
            return True

    # -- members ------------------------------------------------------------------------------

    async def league_members(
        self, league_id: int, *, include_left: bool = False
    ) -> list[LeagueMember]:
        where = "" if include_left else " AND left_at IS NULL"
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT league_id, user_id, name, joined_at, left_at FROM league_members "
                f"WHERE league_id = ?{where} ORDER BY joined_at, user_id",
                (league_id,),
            )
        return [LeagueMember(*row) for row in rows]

    async def save_league_member(self, member: LeagueMember) -> None:
        """Insert or replace a member (joining again clears ``left_at``)."""
        m = member
        async with self.engine.transaction() as db:
            await db.execute(
                "INSERT INTO league_members (league_id, user_id, name, joined_at, left_at) "
                "VALUES (?, ?, ?, ?, ?) "
                + upsert("league_id, user_id", "name, joined_at, left_at"),
                (m.league_id, m.user_id, m.name, m.joined_at, m.left_at),
            )

    # -- games --------------------------------------------------------------------------------

    async def link_league_game(self, link: LeagueGame) -> None:
        async with self.engine.transaction() as db:
            await db.execute(
                f"INSERT INTO league_games ({LINK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
                + upsert("game_id", LINK_COLUMNS.removeprefix("game_id, ")),
                (
                    link.game_id,
                    link.league_id,
                    link.season,
                    link.created_by,
                    link.created_at,
                    _dump(list(link.invited)),
                ),
            )

    async def league_game(self, game_id: int) -> LeagueGame | None:
        async with self.engine.read() as db:
            row = await db.fetchone(
                f"SELECT {LINK_COLUMNS} FROM league_games WHERE game_id = ?", (game_id,)
            )
        return None if row is None else _link(row)

    async def league_games(
        self, league_id: int, statuses: Sequence[Status] = ("lobby", "active")
    ) -> list[tuple[LeagueGame, GameRow]]:
        """The league's games whose status is one of ``statuses``, oldest first."""
        marks = ", ".join("?" * len(statuses))
        async with self.engine.read() as db:
            found = await db.fetchall(
                f"SELECT {LINK_COLUMNS} FROM league_games WHERE league_id = ? AND game_id IN "
                f"(SELECT id FROM games WHERE status IN ({marks})) ORDER BY game_id",
                (league_id, *statuses),
            )
            links = [_link(row) for row in found]
            ids = [link.game_id for link in links]
            rows: list[GameRow] = []
            if ids:
                rows = await self._games(db, f"WHERE id IN ({', '.join('?' * len(ids))})", ids)
        by_id = {row.id: row for row in rows}
        return [(link, by_id[link.game_id]) for link in links if link.game_id in by_id]

    async def unrecorded_league_games(self, league_id: int) -> list[int]:
        """Finished games that count (ended while their season was open) but have no stored
        result yet (e.g. the bot stopped between the last move and recording it)."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT k.game_id FROM league_games k JOIN games g ON g.id = k.game_id "
                "JOIN league_seasons s ON s.league_id = k.league_id AND s.season = k.season "
                "WHERE k.league_id = ? AND g.status = 'finished' "
                "AND (s.closed_at IS NULL OR g.ended_at <= s.closed_at) AND NOT EXISTS "
                "(SELECT 1 FROM league_results r WHERE r.game_id = k.game_id) ORDER BY g.ended_at",
                (league_id,),
            )
        return [row[0] for row in rows]

    # -- results ------------------------------------------------------------------------------

    async def record_league_result(self, result: LeagueResult) -> int | None:
        """Store a result and its placings; None if the game already has one."""
        r = result
        async with self.engine.transaction() as db:
            result_id = await db.insert_id(
                "INSERT INTO league_results (game_id, league_id, season, ended_at, "
                "recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (r.game_id, r.league_id, r.season, r.ended_at, r.recorded_at),
            )
            if result_id is None:
                return None
            await db.executemany(
                f"INSERT INTO league_placings (result_id, {PLACING_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        result_id,
                        p.seat,
                        p.user_id,
                        p.name,
                        p.score,
                        p.rank,
                        int(p.left),
                        _dump(p.breakdown),
                    )
                    for p in r.placings
                ],
            )
            return int(result_id)

    async def league_results(self, league_id: int) -> list[LeagueResult]:
        """Every result of the league (annulled ones too), in the order the games ended."""
        async with self.engine.read() as db:
            heads = await db.fetchall(
                f"SELECT {RESULT_COLUMNS} FROM league_results WHERE league_id = ? "
                "ORDER BY ended_at, id",
                (league_id,),
            )
            rows = await db.fetchall(
                f"SELECT result_id, {PLACING_COLUMNS} FROM league_placings WHERE result_id IN "
                "(SELECT id FROM league_results WHERE league_id = ?) ORDER BY result_id, seat",
                (league_id,),
            )
        placings: dict[int, list[LeaguePlacing]] = {}
        for row in rows:
            seat, user, name, score, rank, left, breakdown = row[1:]
            placings.setdefault(row[0], []).append(
                LeaguePlacing(seat, user, name, score, rank, bool(left), json.loads(breakdown))
            )
        results = []
        for head in heads:
            rid, game_id, lid, season, ended, recorded, annulled, by, why = head
            results.append(
                LeagueResult(
                    game_id=game_id,
                    league_id=lid,
                    season=season,
                    ended_at=ended,
                    placings=tuple(placings.get(rid, ())),
                    recorded_at=recorded,
                    id=rid,
                    annulled_at=annulled,
                    annulled_by=by,
                    annul_reason=why,
                )
            )
        return results

    async def annul_league_result(
        self, game_id: int, by: int, reason: str, now: float, audit: LeagueAudit
    ) -> bool:
        """Mark a counted result annulled and log it; False if none or already annulled."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE league_results SET annulled_at = ?, annulled_by = ?, annul_reason = ? "
                "WHERE game_id = ? AND annulled_at IS NULL",
                (now, by, reason, game_id),
            )
            if changed != 1:
                return False
            await self._audit(db, audit)
            return True

    async def league_audit(self, league_id: int, limit: int = 20) -> list[LeagueAudit]:
        """The latest audit lines, newest first."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT {AUDIT_COLUMNS} FROM league_audit WHERE league_id = ? "
                "ORDER BY created_at DESC, id DESC LIMIT ?",
                (league_id, limit),
            )
        return [LeagueAudit(*row) for row in rows]
