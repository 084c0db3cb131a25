"""The storage of the game manager: plain rows in, plain rows out, all async, every SQL statement
of the bot written once for every database engine.

:class:`Storage` runs its SQL on the connections of an :class:`bot.storage.db.Engine`, the one
thing a database engine provides (:mod:`bot.storage.sqlite`, the default: one aiosqlite
connection; :mod:`bot.storage.postgres`: an asyncpg pool). Each write method is one
transaction, each read one read; the rows are those of :mod:`bot.storage`. Setup values
(expansions, options, results) are JSON-shaped Python values, so new games and options need no
schema change.

Moves on one game are serialised by the database itself: the writes that follow a game's action
log (:meth:`Storage.append_actions`, :meth:`Storage.truncate_actions`) are a compare-and-set on
the game's action count (:func:`progress_step`), so of two processes submitting a move on the
same game, exactly one succeeds and the other gets :class:`WriteConflict`: that check, not only
the manager's in-process lock, is what lets several bot processes share a database.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import astuple
from typing import Any

from bot import metrics
from bot.storage import (
    ActionRow,
    Deadline,
    GameRow,
    GuildSettings,
    Notice,
    NoticeKind,
    Progress,
    SeatRow,
    Status,
    UserSettings,
    WriteConflict,
)
from bot.storage.db import Db, Engine, Listening, Step, run_steps, upsert
from bot.storage.sql_leagues import SqlLeagues
from bot.storage.sql_privacy import SqlPrivacy
from bot.storage.sql_reviews import SqlReviews
from bot.storage.sql_stats import SqlStats
from bot.storage.sql_tournaments import SqlTournaments
from bot.storage.sql_watch import SqlWatch

log = logging.getLogger(__name__)

#: The notifications' channel: a game changed, its id as payload (see :meth:`Storage.announce`).
CHANNEL = "carcassonne_games"
GAME_COLUMNS = (
    "guild_id, channel_id, thread_id, message_id, owner_id, kind, expansions, options, "
    "setup_extra, seed, status, private, max_players, locale, turn, action_count, current_seat, "
    "turn_seconds, timeout_policy, result, created_at, updated_at, started_at, ended_at, purist, "
    "clock_bank, clock_increment, clock_paused_at, clock_paused_until"
)
GAME_PLACEHOLDERS = ", ".join("?" * len(GAME_COLUMNS.split(", ")))
SEAT_COLUMNS = "seat, user_id, name, colour, status, joined_at, computer, bank"
#: A game's row with its seats, one result row per seat (one with no seat in a lobby
#: nobody joined yet); the seat's columns start at :data:`SEAT_AT`.
GAME_WITH_SEATS = (
    f"SELECT g.id, {', '.join(f'g.{c}' for c in GAME_COLUMNS.split(', '))}, "
    f"{', '.join(f's.{c}' for c in SEAT_COLUMNS.split(', '))} "
    "FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? AND g.deleted_at IS NULL "
    "ORDER BY s.seat"
)
SEAT_AT = 1 + len(GAME_COLUMNS.split(", "))
#: The games whose record is kept (not deleted by a server's ``keep_days``), as a table.
KEPT_GAMES = "(SELECT * FROM games WHERE deleted_at IS NULL) AS games"
DEADLINE_COLUMNS = "game_id, kind, turn, due_at, user_id, done_at, paused_at, notified_at"
#: The deadlines of users away at the time given as the one parameter.
AWAY = "user_id IN (SELECT user_id FROM user_settings WHERE away_until > ?)"
#: Deadlines that one player's absence pauses: not chess clocks (only an agreed pause does).
NOT_CLOCK = "kind <> 'clock'"


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _game_values(game: GameRow) -> tuple[Any, ...]:
    return (
        game.guild_id,
        game.channel_id,
        game.thread_id,
        game.message_id,
        game.owner_id,
        game.kind,
        _dump(list(game.expansions)),
        _dump(game.options),
        _dump(game.setup_extra),
        game.seed,
        game.status,
        int(game.private),
        game.max_players,
        game.locale,
        game.turn,
        game.action_count,
        game.current_seat,
        game.turn_seconds,
        game.timeout_policy,
        None if game.result is None else _dump(game.result),
        game.created_at,
        game.updated_at,
        game.started_at,
        game.ended_at,
        int(game.purist),
        game.clock_bank,
        game.clock_increment,
        game.clock_paused_at,
        game.clock_paused_until,
    )


def _game_from_row(row: Sequence[Any], seats: tuple[SeatRow, ...]) -> GameRow:
    (gid, guild, channel, thread, message, owner, kind, expansions, options, extra, seed) = row[:11]
    (status, private, max_players, locale, turn, count, current, seconds, policy) = row[11:20]
    result, created, updated, started, ended, purist = row[20:26]
    bank, increment, paused_at, paused_until = row[26:]
    return GameRow(
        id=gid,
        owner_id=owner,
        created_at=created,
        updated_at=updated,
        guild_id=guild,
        channel_id=channel,
        thread_id=thread,
        message_id=message,
        kind=kind,
        expansions=tuple(json.loads(expansions)),
        options=json.loads(options),
        setup_extra=json.loads(extra),
        seed=seed,
        status=status,
        private=bool(private),
        max_players=max_players,
        locale=locale,
        turn=turn,
        action_count=count,
        current_seat=current,
        turn_seconds=seconds,
        timeout_policy=policy,
        result=None if result is None else json.loads(result),
        started_at=started,
        ended_at=ended,
        seats=seats,
        purist=bool(purist),
        clock_bank=bank,
        clock_increment=increment,
        clock_paused_at=paused_at,
        clock_paused_until=paused_until,
    )


INSERT_ACTION = (
    "INSERT INTO actions (game_id, idx, turn, seat, user_id, action, forced, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _action_values(game_id: int, a: ActionRow) -> tuple[Any, ...]:
    return (game_id, a.idx, a.turn, a.seat, a.user_id, _dump(a.action), a.forced, a.created_at)


def progress_step(game_id: int, expected_count: int, progress: Progress) -> Step:
    """The compare-and-set on the action count: it must change exactly one row. Only a game in
    play moves: one abandoned by another process (its count unchanged) is not revived."""
    return (
        "UPDATE games SET turn = ?, action_count = ?, current_seat = ?, status = ?, "
        "updated_at = ?, result = ?, ended_at = ? "
        "WHERE id = ? AND action_count = ? AND status = 'active'",
        (
            progress.turn,
            progress.action_count,
            progress.current_seat,
            progress.status,
            progress.updated_at,
            None if progress.result is None else _dump(progress.result),
            progress.ended_at,
            game_id,
            expected_count,
        ),
        False,
    )


def seat_steps(game_id: int, seats: Iterable[SeatRow]) -> list[Step]:
    return [
        ("DELETE FROM seats WHERE game_id = ?", (game_id,), False),
        (
            f"INSERT INTO seats (game_id, {SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, *astuple(seat)) for seat in seats],
            True,
        ),
    ]


def paused_if_away(paused: str, away: str, user: str) -> str:
    """A timer's ``paused_at`` as written, from three SQL expressions: the one given
    (``paused``), else the time of writing (``away``) if its player (``user``) is away then.
    ``away`` is NULL for a timer that no absence pauses (see :func:`away_check`): nothing is
    greater than NULL."""
    return (
        f"COALESCE({paused}, (SELECT {away} FROM user_settings "
        f"WHERE user_settings.user_id = {user} AND away_until > {away}))"
    )


#: :func:`paused_if_away` on parameters: paused_at, the time of writing, user, that time again.
PAUSED_IF_AWAY = paused_if_away("CAST(? AS DOUBLE PRECISION)", "CAST(? AS DOUBLE PRECISION)", "?")


def away_check(deadline: Deadline, pause_away: float | None) -> float | None:
    """The time at which ``deadline``'s player must be away for it to be written paused: None
    for a chess clock (only an agreed pause stops it) or a timer already paused."""
    if deadline.kind == "clock" or deadline.paused_at is not None or deadline.user_id is None:
        return None
    return pause_away


def deadline_steps(
    game_id: int, deadlines: Sequence[Deadline], pause_away: float | None = None
) -> list[Step]:
    """Replace the game's timers; with ``pause_away``, those of a player away at that time are
    written paused (in the database, in the same transaction: no read before the write)."""
    rows = []
    for d in deadlines:
        at = away_check(d, pause_away)
        # The columns up to done_at, the four parameters of PAUSED_IF_AWAY, then notified_at.
        before = (game_id, d.kind, d.turn, d.user_id, d.due_at, d.done_at)
        rows.append((*before, d.paused_at, at, d.user_id, at, d.notified_at))
    return [
        ("DELETE FROM deadlines WHERE game_id = ?", (game_id,), False),
        (
            "INSERT INTO deadlines (game_id, kind, turn, user_id, due_at, done_at, paused_at, "
            f"notified_at) VALUES (?, ?, ?, ?, ?, ?, {PAUSED_IF_AWAY}, ?)",
            rows,
            True,
        ),
    ]


def notice_claim(kind: NoticeKind) -> str:
    """The compare-and-set that claims a turn's start or reminder notice on its deadline
    (parameters: now, game, turn); it changes one row unless already claimed or stale."""
    if kind == "start":
        return (
            "UPDATE deadlines SET notified_at = ? WHERE game_id = ? AND kind = 'turn' "
            "AND turn = ? AND done_at IS NULL AND notified_at IS NULL"
        )
    return (
        "UPDATE deadlines SET done_at = ? WHERE game_id = ? AND kind = 'reminder' "
        "AND turn = ? AND done_at IS NULL"
    )


def move_steps(
    game_id: int,
    expected_count: int,
    actions: Sequence[ActionRow],
    progress: Progress,
    deadlines: Sequence[Deadline] | None,
    seats: Sequence[SeatRow] | None,
    notice: Notice | None = None,
    pause_away: float | None = None,
) -> list[Step]:
    """The statements of a move's transaction, the compare-and-set first."""
    steps: list[Step] = [
        progress_step(game_id, expected_count, progress),
        ("DELETE FROM undo_votes WHERE game_id = ?", (game_id,), False),
        (INSERT_ACTION, [_action_values(game_id, a) for a in actions], True),
    ]
    if deadlines is not None:
        steps += deadline_steps(game_id, deadlines, pause_away)
    if seats is not None:
        steps += seat_steps(game_id, seats)
    if notice is not None:
        steps.append(
            (
                "INSERT INTO notices (game_id, kind, turn, claimed_until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (game_id, notice.kind, notice.turn, notice.claimed_until),
                False,
            )
        )
    return steps


#: A move in one statement, so one round trip to the server where the transaction of
#: :func:`move_steps` takes seven (BEGIN, five statements, COMMIT), for an engine whose dialect
#: has :attr:`~bot.storage.db.Dialect.one_statement` (PostgreSQL). Every part reads the row of
#: ``moved``, so none writes unless the compare-and-set on the action count changed the game's
#: row; the statement is its own transaction.
MOVE = (
    "WITH moved AS ("
    "UPDATE games SET turn = ?, action_count = ?, current_seat = ?, status = ?, updated_at = ?, "
    "result = ?, ended_at = ? WHERE id = ? AND action_count = ? AND status = 'active' "
    "RETURNING id), "
    "votes AS (DELETE FROM undo_votes WHERE game_id IN (SELECT id FROM moved)), "
    "logged AS (INSERT INTO actions "
    "(game_id, idx, turn, seat, user_id, action, forced, created_at) "
    "SELECT moved.id, a.* FROM moved, "
    "unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], "
    "?::float8[]) AS a){timers} "
    "SELECT count(*) FROM moved"
)
#: The timers of a turn that starts, in the same statement. The parts of one statement run in
#: no set order, so the old timers are not deleted then inserted again (the insert could come
#: first and collide): those of another kind go, those of the same kind are overwritten.
TIMERS = (
    ", dropped AS (DELETE FROM deadlines WHERE game_id IN (SELECT id FROM moved) "
    "AND NOT (kind = ANY(?::text[]))), "
    "timed AS (INSERT INTO deadlines (game_id, kind, turn, user_id, due_at, done_at, paused_at, "
    "notified_at) SELECT moved.id, d.kind, d.turn, d.user_id, d.due_at, d.done_at, "
    f"{paused_if_away('d.paused_at', 'd.away', 'd.user_id')}, d.notified_at FROM moved, "
    "unnest(?::text[], ?::bigint[], ?::bigint[], ?::float8[], ?::float8[], ?::float8[], "
    "?::float8[], ?::float8[]) "
    "AS d (kind, turn, user_id, due_at, done_at, paused_at, notified_at, away) "
    "ON CONFLICT (game_id, kind) DO UPDATE SET turn = excluded.turn, user_id = excluded.user_id, "
    "due_at = excluded.due_at, done_at = excluded.done_at, paused_at = excluded.paused_at, "
    "notified_at = excluded.notified_at)"
)


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows as one list per column (the arrays ``unnest`` turns back into rows)."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else []


def move_statement(
    game_id: int,
    expected_count: int,
    actions: Sequence[ActionRow],
    progress: Progress,
    deadlines: Sequence[Deadline] | None,
    pause_away: float | None,
) -> tuple[str, list[Any]]:
    """:data:`MOVE` (with :data:`TIMERS` if ``deadlines`` are given) and its parameters."""
    _, guard, _ = progress_step(game_id, expected_count, progress)
    logged = [_action_values(game_id, a)[1:] for a in actions]
    args = [*guard, *(_columns(logged) or [[]] * 7)]
    if deadlines is None:
        return MOVE.format(timers=""), args
    timers = [
        (d.kind, d.turn, d.user_id, d.due_at, d.done_at, d.paused_at, d.notified_at, at)
        for d in deadlines
        for at in [away_check(d, pause_away)]
    ]
    kinds = [d.kind for d in deadlines]
    return MOVE.format(timers=TIMERS), [*args, kinds, *(_columns(timers) or [[]] * 8)]


class Storage(SqlLeagues, SqlTournaments, SqlStats, SqlWatch, SqlPrivacy, SqlReviews):
    """Async persistence of games on the connections of ``engine``; open one with
    :func:`bot.storage.backends.open_storage` (or an engine's ``open_*`` function), close it
    with :meth:`close` (or ``async with``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: Whether other bot processes may write the same database (then a game kept in memory
        #: is checked against the stored one before use).
        self.shared = engine.dialect.shared

    async def close(self) -> None:
        """Close the storage, its listenings (:meth:`listen`) too."""
        await self.engine.close()

    # -- between processes ------------------------------------------------------------------

    async def announce(self, game_id: int) -> None:
        """Tell every bot process listening on the database (:meth:`listen`) that game
        ``game_id`` changed: one statement on PostgreSQL, nothing on SQLite (one process per
        database)."""
        await self.engine.notify(CHANNEL, str(game_id))

    async def listen(self, changed: Callable[[int], None], resync: Callable[[], None]) -> Listening:
        """Call ``changed(game_id)`` for each game announced (:meth:`announce`) by any process
        on the database, this one included (callers de-duplicate), and ``resync()`` when some
        may have been missed (PostgreSQL's listening connection was lost and is back: read again
        what you show). Plain functions, called in the event loop; one that fails is logged.
        Until the answer is closed, or the storage. SQLite never calls either. Not a call of
        the storage (:data:`CALLS`): it lasts."""

        def heard(payload: str) -> None:
            try:
                game_id = int(payload)
            except ValueError:
                log.warning("a notification on %s names no game: %r", CHANNEL, payload)
                return
            try:
                changed(game_id)
            except Exception:
                log.exception("a listener of game %s's changes in other processes failed", game_id)

        def lost() -> None:
            try:
                resync()
            except Exception:
                log.exception("a listener of the missed changes of games failed")

        return await self.engine.listen(CHANNEL, heard, lost)

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- games ------------------------------------------------------------------------------

    async def _insert_game(self, db: Db, game: GameRow) -> int:
        game_id = await db.insert_id(
            f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({GAME_PLACEHOLDERS}) RETURNING id",
            _game_values(game),
        )
        assert game_id is not None
        await run_steps(db, seat_steps(game_id, game.seats))
        return int(game_id)

    async def create_game(self, game: GameRow) -> int:
        """Insert ``game`` (its ``id`` is ignored) and its seats; return the new id."""
        async with self.engine.transaction() as db:
            return await self._insert_game(db, game)

    async def save_game(
        self,
        game: GameRow,
        *,
        deadlines: Sequence[Deadline] | None = None,
        pause_away: float | None = None,
    ) -> None:
        """Write every column of ``game`` and replace its seats (lobby changes, start, end).

        ``deadlines`` (if given) replace the game's; a game no longer active loses them all.
        ``pause_away``: the time they are written; those of a player away then (by their
        settings' ``away_until``; not a chess clock's) are written paused from it.
        """
        sets = ", ".join(f"{name} = ?" for name in GAME_COLUMNS.split(", "))
        if game.status != "active":
            deadlines = ()
        async with self.engine.transaction() as db:
            await db.execute(
                f"UPDATE games SET {sets} WHERE id = ?", (*_game_values(game), game.id)
            )
            await run_steps(db, seat_steps(game.id, game.seats))
            if deadlines is not None:
                await run_steps(db, deadline_steps(game.id, deadlines, pause_away))

    async def end_game(
        self, game_id: int, status: Status, result: dict[str, Any] | None, now: float
    ) -> bool:
        """End a lobby or a game in play (an abandon): its status and result, ended ``now``,
        nobody in turn, its timers gone. Only those columns change (a move another process
        stored meanwhile stays counted); False, and nothing written, if it had ended."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE games SET status = ?, current_seat = NULL, result = ?, updated_at = ?, "
                "ended_at = ? WHERE id = ? AND status IN ('lobby', 'active')",
                (status, None if result is None else _dump(result), now, now, game_id),
            )
            if changed != 1:
                return False
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
        return True

    async def _seats(self, db: Db, ids: list[int]) -> dict[int, list[SeatRow]]:
        found: dict[int, list[SeatRow]] = {gid: [] for gid in ids}
        if not ids:
            return found
        marks = ", ".join("?" * len(ids))
        for row in await db.fetchall(
            f"SELECT game_id, {SEAT_COLUMNS} FROM seats WHERE game_id IN ({marks}) "
            "ORDER BY game_id, seat",
            ids,
        ):
            found[row[0]].append(SeatRow(*row[1:]))
        return found

    async def _games(self, db: Db, where: str, args: Sequence[Any]) -> list[GameRow]:
        # A deleted game (``keep_days``) is a summary only: no record, not a game to show.
        rows = await db.fetchall(f"SELECT id, {GAME_COLUMNS} FROM {KEPT_GAMES} {where}", args)
        seats = await self._seats(db, [row[0] for row in rows])
        return [_game_from_row(row, tuple(seats[row[0]])) for row in rows]

    async def get_game(self, game_id: int) -> GameRow | None:
        # One query, the game's columns repeated on each of its seats: one round trip to a
        # database server, where reading the seats apart would take two.
        async with self.engine.read() as db:
            rows = await db.fetchall(GAME_WITH_SEATS, (game_id,))
        if not rows:
            return None
        seats = tuple(SeatRow(*row[SEAT_AT:]) for row in rows if row[SEAT_AT] is not None)
        return _game_from_row(rows[0][:SEAT_AT], seats)

    async def action_count(self, game_id: int) -> int | None:
        """How many actions the game's log holds (None: no such game); one indexed read."""
        async with self.engine.read() as db:
            row = await db.fetchone("SELECT action_count FROM games WHERE id = ?", (game_id,))
        return None if row is None else int(row[0])

    async def get_actions(self, game_id: int) -> list[ActionRow]:
        """The action log of a game, in order."""
        async with self.engine.read() as db:
            return await self._actions(db, game_id)

    async def _actions(self, db: Db, game_id: int) -> list[ActionRow]:
        rows = await db.fetchall(
            "SELECT idx, turn, seat, user_id, action, forced, created_at FROM actions "
            "WHERE game_id = ? ORDER BY idx",
            (game_id,),
        )
        return [ActionRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6]) for r in rows]

    async def import_game(self, game: GameRow, actions: Sequence[ActionRow]) -> int:
        """Insert a whole game with its action log in one transaction; return the new id."""
        async with self.engine.transaction() as db:
            game_id = await self._insert_game(db, game)
            await db.executemany(INSERT_ACTION, [_action_values(game_id, a) for a in actions])
            return game_id

    async def append_actions(
        self,
        game_id: int,
        expected_count: int,
        actions: Sequence[ActionRow],
        progress: Progress,
        *,
        deadlines: Sequence[Deadline] | None = None,
        seats: Sequence[SeatRow] | None = None,
        notice: Notice | None = None,
        pause_away: float | None = None,
    ) -> None:
        """Append to the log, update the summary, clear undo votes; all in one transaction.

        ``deadlines`` (if given) replace the game's deadlines (``pause_away`` as in
        :meth:`save_game`) and ``seats`` its seats; ``notice`` is recorded as owed (claimed
        until its time, see :meth:`claim_notice`). Raises :class:`WriteConflict` if the log
        does not hold ``expected_count`` actions or the game is no longer active.

        The hot path of every move: one statement (:data:`MOVE`) on an engine whose dialect
        allows it, unless the move changes the seats or owes a notice (a departure, a
        timeout); else one transaction, the engine's :meth:`~bot.storage.db.Engine.batch`.
        """
        if self.engine.dialect.one_statement and seats is None and notice is None:
            sql, args = move_statement(
                game_id, expected_count, actions, progress, deadlines, pause_away
            )
            async with self.engine.write() as db:
                row = await db.fetchone(sql, args)
            moved = row is not None and row[0] == 1
        else:
            steps = move_steps(
                game_id, expected_count, actions, progress, deadlines, seats, notice, pause_away
            )
            moved = await self.engine.batch(steps)
        if not moved:
            raise WriteConflict(f"game {game_id} does not hold {expected_count} actions")

    async def _update_progress(self, db: Db, step: Step, game_id: int, expected_count: int) -> None:
        """The compare-and-set of a move: nothing is written unless it changes one row."""
        sql, params, _ = step
        if await db.execute(sql, params) != 1:
            raise WriteConflict(f"game {game_id} does not hold {expected_count} actions")

    async def truncate_actions(
        self,
        game_id: int,
        expected_count: int,
        keep: int,
        progress: Progress,
        *,
        actions: Sequence[ActionRow] = (),
        deadlines: Sequence[Deadline] | None = None,
        pause_away: float | None = None,
    ) -> None:
        """Drop every action from index ``keep`` on (undo) and append ``actions`` after the
        ones kept, update the summary, clear votes, all in one transaction; ``deadlines`` and
        ``pause_away`` as in :meth:`append_actions`. Raises :class:`WriteConflict` as it does."""
        async with self.engine.transaction() as db:
            step = progress_step(game_id, expected_count, progress)
            await self._update_progress(db, step, game_id, expected_count)
            await db.execute("DELETE FROM undo_votes WHERE game_id = ?", (game_id,))
            await db.execute("DELETE FROM actions WHERE game_id = ? AND idx >= ?", (game_id, keep))
            if actions:
                await db.executemany(INSERT_ACTION, [_action_values(game_id, a) for a in actions])
            if deadlines is not None:
                await run_steps(db, deadline_steps(game_id, deadlines, pause_away))

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        statuses: Sequence[Status] = ("lobby", "active"),
        limit: int = 100,
    ) -> list[GameRow]:
        """Games matching every filter given (channel matches the channel or the thread)."""
        clauses = [f"status IN ({', '.join('?' * len(statuses))})"]
        args: list[Any] = list(statuses)
        if guild_id is not None:
            clauses.append("guild_id = ?")
            args.append(guild_id)
        if channel_id is not None:
            clauses.append("(channel_id = ? OR thread_id = ?)")
            args += [channel_id, channel_id]
        if user_id is not None:
            clauses.append("id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            args.append(user_id)
        where = f"WHERE {' AND '.join(clauses)} ORDER BY updated_at DESC, id DESC LIMIT ?"
        async with self.engine.read() as db:
            return await self._games(db, where, [*args, limit])

    async def games_awaiting(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """Active games where it is ``user_id``'s turn."""
        where = (
            "WHERE status = 'active' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id "
            "AND s.seat = games.current_seat AND s.user_id = ?)"
        )
        args: list[Any] = [user_id]
        if guild_id is not None:
            where += " AND guild_id = ?"
            args.append(guild_id)
        async with self.engine.read() as db:
            return await self._games(db, where + " ORDER BY updated_at", args)

    async def active_game_ids(self) -> list[int]:
        async with self.engine.read() as db:
            rows = await db.fetchall("SELECT id FROM games WHERE status = 'active' ORDER BY id")
        return [row[0] for row in rows]

    async def stored_game_ids(self) -> list[int]:
        """Every game whose record is kept (lobbies too), by id."""
        async with self.engine.read() as db:
            rows = await db.fetchall("SELECT id FROM games WHERE deleted_at IS NULL ORDER BY id")
        return [int(row[0]) for row in rows]

    async def set_messages(
        self, game_id: int, thread_id: int | None, message_id: int | None
    ) -> None:
        async with self.engine.write() as db:
            await db.execute(
                "UPDATE games SET thread_id = ?, message_id = ? WHERE id = ?",
                (thread_id, message_id, game_id),
            )

    # -- undo votes -------------------------------------------------------------------------

    async def add_undo_vote(
        self, game_id: int, action_idx: int, user_id: int, now: float
    ) -> set[int]:
        """Record a vote; return every voter for that action (raises nothing on a repeat)."""
        async with self.engine.transaction() as db:
            await db.execute(
                "INSERT INTO undo_votes (game_id, action_idx, user_id, voted_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, action_idx, user_id, now),
            )
            rows = await db.fetchall(
                "SELECT user_id FROM undo_votes WHERE game_id = ? AND action_idx = ?",
                (game_id, action_idx),
            )
        return {row[0] for row in rows}

    async def clear_undo_votes(self, game_id: int) -> None:
        """Drop every undo vote of the game (a player refused)."""
        async with self.engine.write() as db:
            await db.execute("DELETE FROM undo_votes WHERE game_id = ?", (game_id,))

    # -- abandon votes ----------------------------------------------------------------------

    async def add_abandon_vote(self, game_id: int, user_id: int, now: float) -> set[int]:
        """Record a vote to abandon the game; return every voter so far."""
        async with self.engine.transaction() as db:
            await db.execute(
                "INSERT INTO abandon_votes (game_id, user_id, voted_at) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (game_id, user_id, now),
            )
            rows = await db.fetchall(
                "SELECT user_id FROM abandon_votes WHERE game_id = ?", (game_id,)
            )
        return {row[0] for row in rows}

    async def clear_abandon_votes(self, game_id: int) -> None:
        """Drop the game's votes to abandon it (a player refused)."""
        async with self.engine.write() as db:
            await db.execute("DELETE FROM abandon_votes WHERE game_id = ?", (game_id,))

    # -- chess clock pauses -----------------------------------------------------------------

    async def add_pause_vote(
        self, game_id: int, user_id: int, now: float, until: float | None = None
    ) -> dict[int, float | None]:
        """Record a vote to pause the game's clock (``until``: the asker's absence ends);
        return every voter so far with their ``until``."""
        async with self.engine.transaction() as db:
            await db.execute(
                "INSERT INTO pause_votes (game_id, user_id, voted_at, until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (game_id, user_id, now, until),
            )
            rows = await db.fetchall(
                "SELECT user_id, until FROM pause_votes WHERE game_id = ?", (game_id,)
            )
        return {int(row[0]): row[1] for row in rows}

    async def clear_pause_votes(self, game_id: int) -> None:
        """Drop the game's votes to pause its clock (a player refused)."""
        async with self.engine.write() as db:
            await db.execute("DELETE FROM pause_votes WHERE game_id = ?", (game_id,))

    async def pause_clock(self, game_id: int, now: float, until: float | None) -> bool:
        """Pause the game's chess clock (its pending ``clock`` deadline and the game's pause
        columns) and drop the votes, in one transaction; False if it was already paused."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE games SET clock_paused_at = ?, clock_paused_until = ? "
                "WHERE id = ? AND clock_paused_at IS NULL AND clock_bank IS NOT NULL",
                (now, until, game_id),
            )
            await db.execute("DELETE FROM pause_votes WHERE game_id = ?", (game_id,))
            if changed != 1:
                return False
            await db.execute(
                "UPDATE deadlines SET paused_at = ? WHERE game_id = ? AND kind = 'clock' "
                "AND done_at IS NULL AND paused_at IS NULL",
                (now, game_id),
            )
        return True

    async def resume_clock(self, game_id: int, now: float) -> bool:
        """End the game's agreed pause: its pending ``clock`` deadline moves later by the time
        paused; False if it was not paused."""
        async with self.engine.transaction() as db:
            changed = await db.execute(
                "UPDATE games SET clock_paused_at = NULL, clock_paused_until = NULL "
                "WHERE id = ? AND clock_paused_at IS NOT NULL",
                (game_id,),
            )
            if changed != 1:
                return False
            await db.execute(
                "UPDATE deadlines SET due_at = due_at + (? - paused_at), paused_at = NULL "
                "WHERE game_id = ? AND kind = 'clock' AND done_at IS NULL "
                "AND paused_at IS NOT NULL",
                (now, game_id),
            )
        return True

    async def pauses_ending(self, now: float) -> list[int]:
        """Active games whose agreed pause ends at ``now`` or before."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT id FROM games WHERE clock_paused_until IS NOT NULL "
                "AND clock_paused_until <= ? AND status = 'active' ORDER BY id",
                (now,),
            )
        return [int(row[0]) for row in rows]

    async def next_clock_due(self) -> float | None:
        """The soonest time a chess clock needs the scheduler: a running clock's deadline or an
        agreed pause's end (None: no chess clock runs or is paused)."""
        async with self.engine.read() as db:
            clock = await db.fetchone(
                "SELECT MIN(due_at) FROM deadlines WHERE kind = 'clock' AND done_at IS NULL "
                "AND paused_at IS NULL"
            )
            pause = await db.fetchone(
                "SELECT MIN(clock_paused_until) FROM games WHERE clock_paused_until IS NOT NULL "
                "AND status = 'active'"
            )
        found = [row[0] for row in (clock, pause) if row is not None and row[0] is not None]
        return min(found) if found else None

    async def clock_pause(self, game_id: int) -> float | None:
        """When the game's agreed pause began, as stored (None: the clock runs)."""
        async with self.engine.read() as db:
            row = await db.fetchone("SELECT clock_paused_at FROM games WHERE id = ?", (game_id,))
        return None if row is None else row[0]

    # -- deadlines --------------------------------------------------------------------------

    async def _deadlines(self, where: str, args: Sequence[Any]) -> list[Deadline]:
        async with self.engine.read() as db:
            rows = await db.fetchall(f"SELECT {DEADLINE_COLUMNS} FROM deadlines {where}", args)
        return [Deadline(*row) for row in rows]

    async def deadlines(self, game_id: int) -> list[Deadline]:
        return await self._deadlines("WHERE game_id = ? ORDER BY due_at", (game_id,))

    async def due_deadlines(self, now: float, limit: int = 100) -> list[Deadline]:
        """Pending deadlines due at ``now`` or before, oldest first."""
        return await self._deadlines(
            "WHERE done_at IS NULL AND paused_at IS NULL AND due_at <= ? "
            "ORDER BY due_at, game_id, kind LIMIT ?",
            (now, limit),
        )

    async def complete_deadline(self, game_id: int, kind: str, turn: int, now: float) -> bool:
        """Mark a deadline done if it is still pending for ``turn``; False if stale or done."""
        return await self._set_pending(game_id, kind, turn, "done_at", now)

    async def postpone_deadline(self, game_id: int, kind: str, turn: int, due_at: float) -> bool:
        """Move a pending deadline of ``turn`` to ``due_at`` (a retry after a failure)."""
        return await self._set_pending(game_id, kind, turn, "due_at", due_at)

    async def _set_pending(
        self, game_id: int, kind: str, turn: int, column: str, value: float
    ) -> bool:
        """Set one column of a deadline still pending for ``turn``; False if stale or done."""
        async with self.engine.write() as db:
            changed = await db.execute(
                f"UPDATE deadlines SET {column} = ? WHERE game_id = ? AND kind = ? AND turn = ? "
                "AND done_at IS NULL",
                (value, game_id, kind, turn),
            )
        return changed == 1

    async def pause_deadlines(self, now: float, user_id: int | None = None) -> int:
        """Pause the pending deadlines of ``user_id`` (or of every user away at ``now``);
        chess clocks (``clock`` rows) are not paused by one player's absence.

        Returns how many were paused; paused deadlines are never due.
        """
        if user_id is None:
            who, args = AWAY, [now]
        else:
            who, args = "user_id = ?", [user_id]
        async with self.engine.write() as db:
            return await db.execute(
                "UPDATE deadlines SET paused_at = ? "
                f"WHERE done_at IS NULL AND paused_at IS NULL AND {NOT_CLOCK} AND {who}",
                [now, *args],
            )

    async def resume_deadlines(self, now: float, user_id: int | None = None) -> list[Deadline]:
        """Resume the paused deadlines of ``user_id`` (or of every user no longer away).

        Each moves later by the time it was paused, counted up to the user's return (the end of
        their ``away_until``, or ``now`` if they came back early). Returns the resumed ones.
        """
        if user_id is None:
            who, args = f"NOT ({AWAY})", [now]
        else:
            who, args = "user_id = ?", [user_id]
        where = f"WHERE done_at IS NULL AND paused_at IS NOT NULL AND {NOT_CLOCK} AND {who}"
        async with self.engine.transaction() as db:
            # Back at the end of the vacation, or now if earlier; never before the pause began.
            d = self.engine.dialect
            back = (
                f"{d.greatest}(paused_at, {d.least}(?, COALESCE((SELECT away_until "
                "FROM user_settings u WHERE u.user_id = deadlines.user_id), ?)))"
            )
            keys = await db.fetchall("SELECT game_id, kind, turn FROM deadlines " + where, args)
            await db.execute(
                f"UPDATE deadlines SET due_at = due_at + {back} - paused_at, paused_at = NULL "
                + where,
                [now, now, *args],
            )
            resumed: list[Deadline] = []
            for key in keys:
                rows = await db.fetchall(
                    f"SELECT {DEADLINE_COLUMNS} FROM deadlines "
                    "WHERE game_id = ? AND kind = ? AND turn = ?",
                    key,
                )
                resumed.extend(Deadline(*row) for row in rows)
            return resumed

    async def unnotified_turns(self, limit: int = 100) -> list[Deadline]:
        """Pending ``turn`` deadlines whose start has not been announced yet."""
        return await self._deadlines(
            "WHERE kind = 'turn' AND done_at IS NULL AND notified_at IS NULL "
            "ORDER BY due_at, game_id LIMIT ?",
            (limit,),
        )

    async def claim_notice(
        self, game_id: int, kind: NoticeKind, turn: int, now: float, lease: float
    ) -> bool:
        """Claim the notice ``kind`` (``start``: the turn's start; ``reminder``) of a turn: its
        deadline is marked done (announced) and the notice recorded as owed, claimed until
        ``now + lease``, in one transaction. False if stale or another process claimed it."""
        if self.engine.dialect.one_statement:  # the claim and the notice owed: one round trip
            sql = (
                f"WITH claimed AS ({notice_claim(kind)} RETURNING game_id), "
                "owed AS (INSERT INTO notices (game_id, kind, turn, claimed_until) "
                "SELECT game_id, ?::text, ?::bigint, ?::float8 FROM claimed "
                "ON CONFLICT DO NOTHING) SELECT count(*) FROM claimed"
            )
            async with self.engine.write() as db:
                row = await db.fetchone(sql, (now, game_id, turn, kind, turn, now + lease))
            return row is not None and row[0] == 1
        async with self.engine.transaction() as db:
            if await db.execute(notice_claim(kind), (now, game_id, turn)) != 1:
                return False
            await db.execute(
                "INSERT INTO notices (game_id, kind, turn, claimed_until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (game_id, kind, turn, now + lease),
            )
        return True

    async def expired_notices(
        self, now: float, lease: float, limit: int = 100
    ) -> list[tuple[int, NoticeKind, int]]:
        """Claim again (until ``now + lease``) notices claimed but never marked sent whose claim
        ran out (their process died): ``(game_id, kind, turn)``, each to one caller only."""
        skip_locked = self.engine.dialect.skip_locked
        async with self.engine.write() as db:
            rows = await db.fetchall(
                "UPDATE notices SET claimed_until = ? WHERE (game_id, kind, turn) IN "
                "(SELECT game_id, kind, turn FROM notices WHERE sent_at IS NULL "
                f"AND claimed_until <= ? ORDER BY claimed_until LIMIT ?{skip_locked}) "
                "RETURNING game_id, kind, turn",
                (now + lease, now, limit),
            )
        return [(int(r[0]), r[1], int(r[2])) for r in rows]

    async def renew_notice(
        self, game_id: int, kind: NoticeKind, turn: int, held: float, until: float
    ) -> bool:
        """Extend a claim this process still holds (its ``claimed_until`` is ``held``, as this
        process set it) to ``until``, just before sending. False if the notice was sent, or if
        its claim ran out and another process claimed it again: that one sends it then, so a
        slow process never sends a notice a second time."""
        async with self.engine.write() as db:
            changed = await db.execute(
                "UPDATE notices SET claimed_until = ? WHERE game_id = ? AND kind = ? AND turn = ? "
                "AND sent_at IS NULL AND claimed_until = ?",
                (until, game_id, kind, turn, held),
            )
        return bool(changed == 1)

    async def notice_sent(self, game_id: int, kind: NoticeKind, turn: int, now: float) -> None:
        """The notice went out (or needs no sending any more)."""
        async with self.engine.write() as db:
            await db.execute(
                "UPDATE notices SET sent_at = ? WHERE game_id = ? AND kind = ? AND turn = ?",
                (now, game_id, kind, turn),
            )

    # -- digests ----------------------------------------------------------------------------

    async def digest_guilds(self) -> list[tuple[GuildSettings, float | None]]:
        """Guilds with a digest channel, each with when its last digest was sent."""
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT g.guild_id, d.sent_at FROM guild_settings g LEFT JOIN digests d "
                "ON d.guild_id = g.guild_id WHERE g.digest_channel_id IS NOT NULL "
                "ORDER BY g.guild_id"
            )
        return [(await self.guild_settings(guild), sent) for guild, sent in rows]

    async def claim_digest(self, guild_id: int, last: float | None, now: float) -> bool:
        """Record a digest sent at ``now`` if the last one is still ``last`` (at most once)."""
        async with self.engine.write() as db:
            if last is None:
                changed = await db.execute(
                    "INSERT INTO digests (guild_id, sent_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (guild_id, now),
                )
            else:
                changed = await db.execute(
                    "UPDATE digests SET sent_at = ? WHERE guild_id = ? AND sent_at = ?",
                    (now, guild_id, last),
                )
        return changed == 1

    # -- settings ---------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, defaults if never saved."""
        async with self.engine.read() as db:
            row = await db.fetchone(
                "SELECT locale, game, expansions, options, channel_id, turn_seconds, "
                "timeout_policy, digest_channel_id, locale_chosen, keep_days FROM guild_settings "
                "WHERE guild_id = ?",
                (guild_id,),
            )
        if row is None:
            return GuildSettings(guild_id)
        locale, game, expansions, options, channel, seconds, policy, digest, chosen, keep = row
        return GuildSettings(
            guild_id,
            locale,
            game,
            tuple(json.loads(expansions)),
            json.loads(options),
            channel,
            seconds,
            policy,
            digest,
            bool(chosen),
            keep,
        )

    async def save_guild_settings(self, settings: GuildSettings, now: float) -> None:
        s = settings
        columns = (
            "locale, game, expansions, options, channel_id, turn_seconds, timeout_policy, "
            "digest_channel_id, updated_at, locale_chosen, keep_days"
        )
        async with self.engine.write() as db:
            await db.execute(
                f"INSERT INTO guild_settings (guild_id, {columns}) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) {upsert('guild_id', columns)}",
                (
                    s.guild_id,
                    s.locale,
                    s.game,
                    _dump(list(s.expansions)),
                    _dump(s.options),
                    s.channel_id,
                    s.turn_seconds,
                    s.timeout_policy,
                    s.digest_channel_id,
                    now,
                    int(s.locale_chosen),
                    s.keep_days,
                ),
            )

    async def user_settings(self, user_id: int) -> UserSettings:
        async with self.engine.read() as db:
            row = await db.fetchone(
                "SELECT locale, dm_reminders, away_until, dm_heads_up FROM user_settings "
                "WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return UserSettings(user_id)
        return UserSettings(user_id, row[0], bool(row[1]), row[2], bool(row[3]))

    async def save_user_settings(self, settings: UserSettings, now: float) -> None:
        s = settings
        columns = "locale, dm_reminders, away_until, updated_at, dm_heads_up"
        async with self.engine.write() as db:
            await db.execute(
                f"INSERT INTO user_settings (user_id, {columns}) VALUES (?, ?, ?, ?, ?, ?) "
                + upsert("user_id", columns),
                (s.user_id, s.locale, int(s.dm_reminders), s.away_until, now, int(s.dm_heads_up)),
            )


def _one_call(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``method`` run as one call of the engine (:meth:`bot.storage.db.Engine.call`), timed
    for :mod:`bot.metrics` when metrics are on (an error counted, but for a lost
    compare-and-set). The wrapper's code bears the method's name, so that tracebacks, profiles
    and traces name the storage call (not 72 times ``call``)."""
    record = metrics.storage_call(method.__name__)

    async def call(self: Storage, *args: Any, **kwargs: Any) -> Any:
        work = functools.partial(method, self, *args, **kwargs)
        if not metrics.ON:
            return await self.engine.call(work)
        start = time.perf_counter()
        try:
            answer = await self.engine.call(work)
        except Exception as error:
            record(time.perf_counter() - start, not isinstance(error, WriteConflict))
            raise
        record(time.perf_counter() - start, False)
        return answer

    call.__code__ = call.__code__.replace(co_name=method.__name__, co_qualname=method.__qualname__)
    return functools.wraps(method)(call)


#: The coroutine methods of the storage that are not calls: its end, and a listening (it lasts).
NOT_CALLS = ("close", "listen")
#: The calls of the storage: every coroutine method but :data:`NOT_CALLS`, each one transaction,
#: one read or one statement, each run by the engine as one call.
CALLS = tuple(
    name
    for name, member in inspect.getmembers(Storage, inspect.iscoroutinefunction)
    if not name.startswith("_") and name not in NOT_CALLS
)
for _name in CALLS:
    setattr(Storage, _name, _one_call(getattr(Storage, _name)))
