"""The tournament part of :class:`bot.storage.sql.Storage`: every SQL statement on tournaments.

A mixin of :class:`bot.storage.sql.Storage`, on the connections of its ``engine`` like the rest,
for every database engine; the tables are those of ``migrations/0017_tournaments.sql`` (and its
PostgreSQL twin). A round's tables are inserted together with the round's number, only if the
tournament is still at the round before (so two processes ending a round's last games at once
pair the next round once), and a table is decided only once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage import (
    TournamentAudit,
    TournamentEntrant,
    TournamentGame,
    TournamentRow,
    TournamentState,
)
from bot.storage.db import Db, Engine, upsert

TOURNAMENT_COLUMNS = (
    "guild_id, channel_id, name, organiser_id, format, table_size, league_id, kind, expansions, "
    "options, rounds, best_of, advance, pace, turn_seconds, round_seconds, timeout_policy, "
    "computers, state, round, round_deadline, message_id, created_at, ended_at"
)
ENTRANT_COLUMNS = "tournament_id, user_id, name, joined_at, rating, checked_in, dropped_round"
GAME_COLUMNS = (
    "tournament_id, round, table_no, players, game_no, game_id, ranks, scores, absent, "
    "decided_at, annulled_at"
)
AUDIT_COLUMNS = "tournament_id, user_id, action, created_at, reason, round, game_id"


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _tournament(row: Sequence[Any]) -> TournamentRow:
    (tid, guild, channel, name, organiser, fmt, size, league, kind, expansions, options) = row[:11]
    (rounds, best_of, advance, pace, turn, per_round, policy, computers) = row[11:19]
    (state, round_no, deadline, message, created, ended) = row[19:]
    return TournamentRow(
        id=tid,
        guild_id=guild,
        channel_id=channel,
        name=name,
        organiser_id=organiser,
        format=fmt,
        table_size=size,
        league_id=league,
        kind=kind,
        expansions=tuple(json.loads(expansions)),
        options=json.loads(options),
        rounds=rounds,
        best_of=best_of,
        advance=advance,
        pace=pace,
        turn_seconds=turn,
        round_seconds=per_round,
        timeout_policy=policy,
        computers=computers,
        state=state,
        round=round_no,
        round_deadline=deadline,
        message_id=message,
        created_at=created,
        ended_at=ended,
    )


def _entrant(row: Sequence[Any]) -> TournamentEntrant:
    tid, user, name, joined, rating, checked, dropped = row
    return TournamentEntrant(tid, user, name, joined, rating, bool(checked), dropped)


def _game(row: Sequence[Any]) -> TournamentGame:
    tid, round_no, table, players, game_no, game_id, ranks, scores, absent, decided, annulled = row
    return TournamentGame(
        tournament_id=tid,
        round=round_no,
        table=table,
        players=tuple(json.loads(players)),
        game_no=game_no,
        game_id=game_id,
        ranks=None if ranks is None else tuple(json.loads(ranks)),
        scores=tuple(json.loads(scores)) if scores is not None else (),
        absent=tuple(json.loads(absent)),
        decided_at=decided,
        annulled_at=annulled,
    )


def _game_values(g: TournamentGame) -> tuple[Any, ...]:
    return (
        g.tournament_id,
        g.round,
        g.table,
        _dump(list(g.players)),
        g.game_no,
        g.game_id,
        None if g.ranks is None else _dump(list(g.ranks)),
        _dump(list(g.scores)) if g.ranks is not None else None,
        _dump(list(g.absent)),
        g.decided_at,
        g.annulled_at,
    )


GAME_KEY = "tournament_id = ? AND round = ? AND table_no = ? AND game_no = ?"


def _key(g: TournamentGame) -> tuple[int, int, int, int]:
    return (g.tournament_id, g.round, g.table, g.game_no)


class SqlTournaments:
    """The tournament statements, mixed into :class:`bot.storage.sql.Storage`."""

    engine: Engine

    # -- tournaments --------------------------------------------------------------------------

    async def create_tournament(self, tournament: TournamentRow, audit: TournamentAudit) -> int:
        """Insert ``tournament`` (its id ignored) and the audit line; return its id."""
        t = tournament
        values = (
            t.guild_id,
            t.channel_id,
            t.name,
            t.organiser_id,
            t.format,
            t.table_size,
            t.league_id,
            t.kind,
            _dump(list(t.expansions)),
            _dump(t.options),
            t.rounds,
            t.best_of,
            t.advance,
            t.pace,
            t.turn_seconds,
            t.round_seconds,
            t.timeout_policy,
            t.computers,
            t.state,
            t.round,
            t.round_deadline,
            t.message_id,
            t.created_at,
            t.ended_at,
        )
        marks = ", ".join("?" * len(values))
        async with self.engine.transaction() as db:
            tid = await db.insert_id(
                f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES ({marks}) RETURNING id",
                values,
            )
            await self._tournament_audit(db, audit, int(tid))
            return int(tid)

    async def _tournament_audit(
        self, db: Db, audit: TournamentAudit, tournament_id: int | None = None
    ) -> None:
        a = audit
        await db.execute(
            f"INSERT INTO tournament_audit ({AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                tournament_id or a.tournament_id,
                a.user_id,
                a.action,
                a.created_at,
                a.reason,
                a.round,
                a.game_id,
            ),
        )

    async def _tournaments(self, where: str, args: Sequence[Any]) -> list[TournamentRow]:
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT id, {TOURNAMENT_COLUMNS} FROM tournaments {where} ORDER BY id", args
            )
        return [_tournament(row) for row in rows]

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        found = await self._tournaments("WHERE id = ?", (tournament_id,))
        return found[0] if found else None

    async def guild_tournaments(self, guild_id: int) -> list[TournamentRow]:
        """Every tournament of a guild, oldest first."""
        return await self._tournaments("WHERE guild_id = ?", (guild_id,))

    async def running_tournaments(self, due_by: float | None = None) -> list[TournamentRow]:
        """The tournaments being played; with ``due_by``, those whose round deadline has come."""
        if due_by is None:
            return await self._tournaments("WHERE state = 'running'", ())
        return await self._tournaments(
            "WHERE state = 'running' AND round_deadline IS NOT NULL AND round_deadline <= ?",
            (due_by,),
        )

    async def set_tournament_state(
        self,
        tournament_id: int,
        state: TournamentState,
        expected: Sequence[TournamentState],
        audit: TournamentAudit | None = None,
        *,
        ended_at: float | None = None,
    ) -> bool:
        """Move the tournament to ``state`` if it is in one of ``expected`` (and log it);
        False if it was not."""
        marks = ", ".join("?" * len(expected))
        async with self.engine.transaction() as db:
            over = ", round_deadline = NULL" if state in ("finished", "cancelled") else ""
            changed = await db.execute(
                f"UPDATE tournaments SET state = ?, ended_at = ?{over} "
                f"WHERE id = ? AND state IN ({marks})",
                (state, ended_at, tournament_id, *expected),
            )
            if changed != 1:
                return False
            if audit is not None:
                await self._tournament_audit(db, audit)
            return True

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        async with self.engine.transaction() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def start_round(
        self,
        tournament_id: int,
        after: int,
        deadline: float | None,
        tables: Sequence[TournamentGame],
        *,
        audit: TournamentAudit | None = None,
        entrants: Sequence[TournamentEntrant] = (),
    ) -> bool:
        """Make round ``after + 1`` the current one (the tournament running) with its
        ``tables``, if the tournament is still at round ``after``; ``entrants`` are written
        too (the first round fixes ratings and check-ins). False if another writer did it."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE tournaments SET round = ?, round_deadline = ?, state = 'running' "
                "WHERE id = ? AND round = ? AND state IN ('signup', 'checkin', 'running')",
                (after + 1, deadline, tournament_id, after),
            )
            if changed != 1:
                return False
            for entrant in entrants:
                await self._save_entrant(db, entrant)
            await self._insert_games(db, tables)
            if audit is not None:
                await self._tournament_audit(db, audit)
            return True

    async def _insert_games(self, db: Db, games: Sequence[TournamentGame]) -> None:
        if games:
            await db.executemany(
                f"INSERT INTO tournament_games ({GAME_COLUMNS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [_game_values(g) for g in games],
            )

    async def add_tournament_games(self, games: Sequence[TournamentGame]) -> None:
        """Insert the next games of matches already paired (a best-of's next game, forfeits);
        a game already there is kept as it is."""
        async with self.engine.transaction() as db:
            await self._insert_games(db, games)

    # -- entrants -----------------------------------------------------------------------------

    async def _save_entrant(self, db: Db, entrant: TournamentEntrant) -> None:
        e = entrant
        await db.execute(
            f"INSERT INTO tournament_entrants ({ENTRANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
            + upsert("tournament_id, user_id", ENTRANT_COLUMNS.split(", ", 2)[2]),
            (
                e.tournament_id,
                e.user_id,
                e.name,
                e.joined_at,
                e.rating,
                int(e.checked_in),
                e.dropped_round,
            ),
        )

    async def save_entrant(
        self, entrant: TournamentEntrant, audit: TournamentAudit | None = None
    ) -> None:
        """Insert or replace an entrant (and log the act)."""
        async with self.engine.transaction() as db:
            await self._save_entrant(db, entrant)
            if audit is not None:
                await self._tournament_audit(db, audit)

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        async with self.engine.transaction() as db:
            removed = await db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            return removed == 1

    async def tournament_entrants(self, tournament_id: int) -> list[TournamentEntrant]:
        """Every entrant (dropped ones too), in the order they signed up."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ? "
                "ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        return [_entrant(row) for row in rows]

    # -- games --------------------------------------------------------------------------------

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Every table of every round, in order (round, table, game)."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = ? "
                "ORDER BY round, table_no, game_no",
                (tournament_id,),
            )
        return [_game(row) for row in rows]

    async def tournament_game(self, game_id: int) -> TournamentGame | None:
        """The tournament table played by the game ``game_id``."""
        async with self.engine.read() as db:
            row = await db.fetchone(
                f"SELECT {GAME_COLUMNS} FROM tournament_games WHERE game_id = ?", (game_id,)
            )
        return None if row is None else _game(row)

    async def link_tournament_game(self, table: TournamentGame, game_id: int) -> bool:
        """The game created for ``table``; False if the table has one already."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                f"UPDATE tournament_games SET game_id = ? WHERE {GAME_KEY} AND game_id IS NULL "
                "AND decided_at IS NULL",
                (game_id, *_key(table)),
            )
            return changed == 1

    async def decide_tournament_game(self, table: TournamentGame) -> bool:
        """Store the ranks, scores and absentees of an undecided table; False if it was
        decided already."""
        assert table.ranks is not None
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE tournament_games SET ranks = ?, scores = ?, absent = ?, decided_at = ? "
                f"WHERE {GAME_KEY} AND decided_at IS NULL",
                (
                    _dump(list(table.ranks)),
                    _dump(list(table.scores)),
                    _dump(list(table.absent)),
                    table.decided_at,
                    *_key(table),
                ),
            )
            return changed == 1

    async def mark_absent(self, table: TournamentGame, absent: Sequence[int]) -> None:
        """Add ``absent`` to the forfeits of an undecided table (a drop-out during its game)."""
        async with self.engine.transaction() as db:
            await db.execute(
                f"UPDATE tournament_games SET absent = ? WHERE {GAME_KEY} AND decided_at IS NULL",
                (_dump(sorted(set(absent))), *_key(table)),
            )

    async def annul_tournament_game(
        self, table: TournamentGame, now: float, audit: TournamentAudit
    ) -> bool:
        """Mark a decided table annulled and log it; False if undecided or annulled already."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                f"UPDATE tournament_games SET annulled_at = ? WHERE {GAME_KEY} "
                "AND decided_at IS NOT NULL AND annulled_at IS NULL",
                (now, *_key(table)),
            )
            if changed != 1:
                return False
            await self._tournament_audit(db, audit)
            return True

    async def tournament_audit(self, tournament_id: int, limit: int = 20) -> list[TournamentAudit]:
        """The latest audit lines, newest first."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                f"SELECT {AUDIT_COLUMNS} FROM tournament_audit WHERE tournament_id = ? "
                "ORDER BY created_at DESC, id DESC LIMIT ?",
                (tournament_id, limit),
            )
        return [TournamentAudit(*row) for row in rows]
