"""The storage's shape: one extension point. :class:`bot.storage.sql.Storage` is the one
storage, every call written once; a database engine is an :class:`bot.storage.db.Engine` and its
connections' :class:`bot.storage.db.Db`, nothing more (SQLite and PostgreSQL implement exactly
those), and no class restates or overrides the storage's calls."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import bot.storage
from bot.storage.db import Db, Engine
from bot.storage.postgres import PgDb, PostgresEngine
from bot.storage.sql import CALLS, Storage
from bot.storage.sqlite import SqliteDb, SqliteEngine, open_sqlite

T = TypeVar("T")
PACKAGE = Path(bot.storage.__file__).parent
#: What a backend implements: an engine, and the statements of its connections.
ENGINE = {"dialect", "transaction", "read", "write", "batch", "call", "notify", "listen", "close"}
DB = {"execute", "executemany", "fetchall", "fetchone", "insert_id"}


def members(interface: type) -> set[str]:
    """The public members a protocol declares: its methods and its annotated attributes."""
    declared = {name for name in vars(interface) if not name.startswith("_")}
    return declared | set(vars(interface).get("__annotations__", {}))


def public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def test_the_engine_interfaces_are_what_a_backend_implements_and_all_it_implements() -> None:
    assert members(Engine) == ENGINE
    assert members(Db) == DB
    for engine in (SqliteEngine, PostgresEngine):
        assert public(engine) == ENGINE, engine
    for connection in (SqliteDb, PgDb):
        assert public(connection) == DB, connection


def test_storage_is_one_concrete_class_that_nothing_subclasses() -> None:
    """No abstract storage interface to keep in step with its implementation, and no backend
    that overrides the SQL: the storage varies by its engine only."""
    names = [
        "bot.storage",
        *(f"bot.storage.{m.name}" for m in pkgutil.iter_modules([str(PACKAGE)])),
    ]
    modules = [importlib.import_module(name) for name in names]
    assert Storage.__subclasses__() == []
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:  # defined there, not imported
                assert not inspect.isabstract(cls), cls


def test_each_call_of_the_storage_is_written_once() -> None:
    """Every call (each public coroutine method but ``close`` and ``listen``) has exactly one
    definition in the package, in the storage's SQL modules: no list of declarations beside the
    code."""
    defined: dict[str, list[str]] = {name: [] for name in CALLS}
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AsyncFunctionDef) and item.name in defined:
                        defined[item.name].append(f"{path.name}:{node.name}")
    twice = {name: where for name, where in defined.items() if len(where) != 1}
    assert not twice
    homes = {where[0].split(":")[0] for where in defined.values()}
    assert homes == {
        "sql.py",
        "sql_leagues.py",
        "sql_privacy.py",
        "sql_reviews.py",
        "sql_stats.py",
        "sql_tournaments.py",
        "sql_watch.py",
    }
    assert "announce" in CALLS and "listen" not in CALLS


async def test_each_call_of_the_storage_is_one_call_of_its_engine(tmp_path: Path) -> None:
    storage = await open_sqlite(tmp_path / "games.sqlite3")
    seen: list[str] = []
    real = storage.engine.call

    async def call(work: Callable[[], Awaitable[T]]) -> T:
        assert isinstance(work, functools.partial)
        seen.append(work.func.__name__)
        return await real(work)

    storage.engine.call = call  # type: ignore[method-assign]
    try:
        assert await storage.get_game(1) is None
        assert await storage.deadlines(1) == []
        await storage.save_user_settings(bot.storage.UserSettings(7, dm_reminders=True), 1.0)
    finally:
        await storage.close()
    assert seen == ["get_game", "deadlines", "save_user_settings"]
