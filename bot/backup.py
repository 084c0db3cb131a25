"""``python -m bot backup``, ``restore`` and ``check``: a host's copies of the database.

- ``backup --out FILE`` copies the SQLite database while the bot runs, through SQLite's online
  backup (one read transaction: a consistent copy of the moment it started, with every move
  committed by then and none half-written; the bot goes on writing meanwhile), then checks the
  copy (``PRAGMA integrity_check``) and writes it as one file, atomically.
- ``restore FILE`` puts a backup back in place of the database (stop the bot first). It refuses a
  file that is not a backup of this bot, one of a newer schema than this bot knows, and, without
  ``--force``, a database that holds changes made after the backup.
- ``check`` replays every stored game (SQLite or the PostgreSQL of ``DATABASE_URL``) and
  reports each one that does not replay, or replays to other scores than those stored.

PostgreSQL is backed up and restored with its own tools, ``pg_dump`` and ``pg_restore`` (see
the README's "Backups").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.errors import ManagerError
from bot.live import replay
from bot.storage.backends import open_storage, shown
from bot.storage.migrate import discover


class BackupError(Exception):
    """A backup, restore or check that cannot be done: the message says why and what to do."""


def is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True, slots=True)
class Facts:
    """What a database file is: its schema version and its last change."""

    version: int
    games: int
    #: The newest time any game, setting or league act was written (0: nothing yet).
    last_change: float


LAST_CHANGE = (
    "SELECT max(t) FROM (SELECT max(updated_at) AS t FROM games "
    "UNION ALL SELECT max(updated_at) FROM guild_settings "
    "UNION ALL SELECT max(updated_at) FROM user_settings "
    "UNION ALL SELECT max(created_at) FROM league_audit) AS changes"
)


def facts(path: Path, what: str) -> Facts:
    """The facts of the bot's database at ``path``; ``what`` names it in the messages."""
    if not path.exists():
        raise BackupError(f"{what} {path} does not exist")
    if not path.is_file():
        raise BackupError(f"{what} {path} is not a file")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"{what} {path} cannot be opened: {error}") from error
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "games" not in tables or version == 0:
            raise BackupError(f"{what} {path} is a SQLite database, but not one of this bot")
        known = len(discover())
        if version > known:
            raise BackupError(
                f"{what} {path} has schema version {version}, newer than this bot's {known}: "
                "it was written by a newer version of the bot; run that version (or newer)"
            )
        games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
        if version >= 3:  # league_audit came with version 3
            row = db.execute(LAST_CHANGE).fetchone()
        else:
            row = db.execute("SELECT max(updated_at) FROM games").fetchone()
        return Facts(version, games, float(row[0] or 0.0))
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{what} {path} is not a SQLite database ({error})") from error
    finally:
        db.close()


def _stamp(at: float) -> str:
    if not at:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at))


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """The whole of ``source`` into a new file ``target``, in one step (one read transaction of
    the source: WAL readers never block the bot's writes), as a single file (no WAL)."""
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE").fetchall()
        problems = copy.execute("PRAGMA integrity_check").fetchall()
        if problems != [("ok",)]:
            raise BackupError(f"the copy failed its integrity check: {problems[:3]}")
    finally:
        copy.close()


def backup(database: Path, out: Path, *, force: bool = False) -> Facts:
    """Copy the database at ``database`` to ``out`` (see the module)."""
    found = facts(database, "the database")
    if out.exists() and not force:
        raise BackupError(f"{out} already exists: give another --out, or add --force to replace it")
    if out.resolve() == database.resolve():
        raise BackupError("--out is the database itself: give another file")
    if not out.parent.is_dir():
        raise BackupError(f"there is no folder {out.parent} to write {out.name} in")
    partial = out.with_name(f".{out.name}.partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(database, timeout=30)
    try:
        _copy(source, partial)
        os.replace(partial, out)
    finally:
        source.close()
        partial.unlink(missing_ok=True)
    return found


def restore(backup_file: Path, database: Path, *, force: bool = False) -> Facts:
    """Put ``backup_file`` back as the database at ``database`` (see the module)."""
    saved = facts(backup_file, "the backup")
    if database.exists():
        current = facts(database, "the database")
        log = database.with_name(f"{database.name}-wal")
        if log.exists() and log.stat().st_size > 0 and not force:
            raise BackupError(
                f"{log.name} is beside the database: the bot is running on it (or stopped "
                "without closing it). Stop the bot first; add --force to restore anyway"
            )
        if current.last_change > saved.last_change and not force:
            raise BackupError(
                f"the database {database} is newer than the backup: it was last changed at "
                f"{_stamp(current.last_change)} ({current.games} games), the backup at "
                f"{_stamp(saved.last_change)} ({saved.games} games). Restoring would lose "
                "what happened since; stop the bot and add --force to replace it anyway"
            )
        if current.version > saved.version and not force:
            raise BackupError(
                f"the database {database} has schema version {current.version}, the backup "
                f"{saved.version}: add --force to replace it (the bot migrates the backup "
                "again when it starts)"
            )
    source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    target = sqlite3.connect(database, timeout=30)
    try:
        source.backup(target)  # replaces the target's pages in one transaction (WAL too)
        problems = target.execute("PRAGMA integrity_check").fetchall()
        if problems != [("ok",)]:
            raise BackupError(f"the restored database failed its integrity check: {problems[:3]}")
    finally:
        source.close()
        target.close()
    return saved


@dataclass
class CheckReport:
    checked: int = 0
    skipped: int = 0
    problems: list[str] = field(default_factory=list)


async def check(location: str) -> CheckReport:
    """Replay every stored game of the database at ``location`` (see the module)."""
    if not is_postgres(location):
        facts(Path(location.removeprefix("sqlite:///")), "the database")
    storage = await open_storage(location)
    report = CheckReport()
    try:
        for game_id in await storage.stored_game_ids():
            row = await storage.get_game(game_id)
            if row is None:  # deleted meanwhile
                continue
            if row.status == "lobby" or row.seed is None:
                report.skipped += 1
                continue
            report.checked += 1
            actions = await storage.get_actions(game_id)
            problem = _problem(row, actions)
            if problem:
                report.problems.append(f"game #{game_id} ({row.status}): {problem}")
    finally:
        await storage.close()
    return report


def _problem(row: Any, actions: Sequence[Any]) -> str | None:
    if len(actions) != row.action_count:
        return f"{len(actions)} moves stored, the game says {row.action_count}"
    try:
        game = replay(row, actions)
    except (ValueError, KeyError, TypeError) as error:
        return f"does not replay: {error}"
    stored = (row.result or {}).get("scores")
    if stored is not None and list(stored) != list(game.scores):
        return f"replays to the scores {list(game.scores)}, the stored result says {stored}"
    if row.status == "finished" and not game.finished:
        return "stored as finished, but its replay is not over"
    return None


def main(command: str, argv: Sequence[str], location: str) -> int:
    """``python -m bot backup|restore|check``; ``location`` is the database the bot uses."""
    parser = argparse.ArgumentParser(prog=f"python -m bot {command}", description=__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    if command == "backup":
        parser.add_argument("--out", required=True, type=Path, help="the file to write")
    elif command == "restore":
        parser.add_argument("file", type=Path, help="a file written by python -m bot backup")
    parser.add_argument(
        "--db",
        default=location,
        help="the database (default: DATABASE_URL, else CARCASSONNE_DB, else carcassonne.sqlite3)",
    )
    if command != "check":
        parser.add_argument("--force", action="store_true", help="replace what is there")
    args = parser.parse_args(argv)
    try:
        return _run(command, args)
    except BackupError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 1
    except ManagerError as error:
        print(f"{command}: {error.message('en')}", file=sys.stderr)
        return 1


def _run(command: str, args: argparse.Namespace) -> int:
    db: str = args.db
    if command in ("backup", "restore") and is_postgres(db):
        tool = "pg_dump --format=custom --file=FILE" if command == "backup" else "pg_restore"
        raise BackupError(
            f"the bot uses PostgreSQL ({shown(db)}): {command} it with {tool} "
            "(see the README's Backups); this command copies SQLite databases"
        )
    path = Path(db.removeprefix("sqlite:///"))
    if command == "backup":
        started = time.perf_counter()
        found = backup(path, args.out, force=args.force)
        size = args.out.stat().st_size
        print(
            f"backed up {path} to {args.out}: {found.games} games, schema version "
            f"{found.version}, {size / 1e6:.1f} MB in {time.perf_counter() - started:.1f} s"
        )
        return 0
    if command == "restore":
        saved = restore(args.file, path, force=args.force)
        print(
            f"restored {args.file} as {path}: {saved.games} games, last changed "
            f"{_stamp(saved.last_change)}; start the bot"
        )
        return 0
    report = asyncio.run(check(db))
    for line in report.problems:
        print(line)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    verdict = "all replay" if not report.problems else f"{len(report.problems)} do not replay"
    print(f"checked {report.checked} games ({report.skipped} lobbies skipped): {verdict}")
    return 1 if report.problems else 0
