"""The manager's shape, read from its source: its methods do their own work (none only forwards
to a service: callers call the service, ``manager.leagues.schedule(...)``), and the services use
the core's public interface only (no ``self.core._x``, no other service's ``_x``), as the core
never uses a service's private members.

The core is :class:`bot.manager.base.ManagerBase` and its subclasses, in the core's own modules
(:data:`CORE_MODULES`), which may use their own private members; every other module of
``bot/manager/`` is a service or a helper. The last tests show, on small sources, that both
checks find what they look for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TypeGuard

MANAGER = Path(__file__).parents[2] / "bot" / "manager"
#: The modules of the core: ManagerBase and its subclasses.
CORE_MODULES = ("__init__.py", "base.py", "leaving.py", "turns.py")
#: The manager's class and its bases.
CORE_CLASSES = ("ManagerBase", "TurnsManager", "LeavingManager", "GameManager")


def sources(folder: Path = MANAGER) -> dict[str, str]:
    """Every module of the manager's package: file name -> source."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.py"))}


def services(modules: Mapping[str, str]) -> frozenset[str]:
    """The manager's services: the attributes ``GameManager.__init__`` sets from a call
    (``self.leagues = LeagueOps(self, ...)``)."""
    found: set[str] = set()
    for cls in _classes(modules):
        if cls.name != "GameManager":
            continue
        for item in cls.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                for node in ast.walk(item):
                    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                        found.update(
                            target.attr for target in node.targets if _is_self_attr(target)
                        )
    return frozenset(found)


def forwarding_methods(modules: Mapping[str, str]) -> list[str]:
    """The methods of the manager's classes whose body (docstring aside) is one statement that
    returns, awaits or calls ``self.<service>.<method>(...)``: ``Class.method`` each."""
    held = services(modules)
    found = []
    for cls in _classes(modules):
        if cls.name not in CORE_CLASSES:
            continue
        for item in cls.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                body = _without_docstring(item.body)
                if len(body) == 1 and _forwards(body[0], held):
                    found.append(f"{cls.name}.{item.name}")
    return found


def private_accesses(name: str, source: str, held: frozenset[str]) -> list[str]:
    """Where module ``name`` reaches into another object's private members: in a service (any
    module but the core's), ``x._y`` with ``x`` other than ``self`` or ``cls`` (``self.core._y``,
    ``self.leagues._y``, ``other._y``) and ``from m import _y`` of another module of the
    package; in the core, ``self.<service>._y``. ``name:line: code`` each."""
    tree = ast.parse(source)
    core = name in CORE_MODULES
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if core:
                wrong = _is_self_attr(owner) and owner.attr in held
            else:
                wrong = not (isinstance(owner, ast.Name) and owner.id in ("self", "cls"))
            if wrong:
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and not core and _in_package(node):
            for alias in node.names:
                if _private(alias.name):
                    found.append((node.lineno, f"import {alias.name}"))
    return [f"{name}:{line}: {code}" for line, code in sorted(found)]


def all_private_accesses(modules: Mapping[str, str]) -> list[str]:
    held = services(modules)
    return [hit for name, source in modules.items() for hit in private_accesses(name, source, held)]


def _classes(modules: Mapping[str, str]) -> Iterator[ast.ClassDef]:
    for source in modules.values():
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef):
                yield node


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return body[1:]
    return body


def _forwards(statement: ast.stmt, held: frozenset[str]) -> bool:
    if not isinstance(statement, ast.Return | ast.Expr) or statement.value is None:
        return False
    value = statement.value
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    owner = value.func.value
    return _is_self_attr(owner) and owner.attr in held


def _is_self_attr(node: ast.expr) -> TypeGuard[ast.Attribute]:
    """``self.<name>``."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _in_package(node: ast.ImportFrom) -> bool:
    """An import from another module of ``bot.manager`` (relative or absolute)."""
    return node.level > 0 or (node.module or "").startswith("bot.manager")


# -- the manager as it is ----------------------------------------------------------------------


def test_the_manager_has_services() -> None:
    assert {"lobbies", "records", "timing", "leagues", "stats", "clocks", "watch"} <= services(
        sources()
    )


def test_no_method_of_the_manager_only_forwards_to_a_service() -> None:
    assert forwarding_methods(sources()) == []


def test_no_service_reaches_into_private_members() -> None:
    assert all_private_accesses(sources()) == []


# -- the checks can fail -------------------------------------------------------------------------

SAMPLE = '''
class GameManager(LeavingManager):
    def __init__(self, storage):
        super().__init__(storage)
        self.leagues = LeagueOps(self)
        self.storage = storage

    async def schedule(self, league_id, by):
        """See LeagueOps.schedule."""
        return await self.leagues.schedule(league_id, by)

    def on_league_change(self, listener):
        self.leagues.on_league_change(listener)

    async def game(self, game_id):
        return await self.storage.get_game(game_id)

    async def apply(self, game_id):
        live = await self._live(game_id)
        return await self.leagues.schedule(live, 0)

    async def finish(self, live):
        self.timers_changed()
        await self.leagues._league_game_ended(live)
'''

SERVICE = """
from bot.manager.turns import _computer_seed


class LeagueOps:
    def __init__(self, core):
        self.core = core

    async def schedule(self, league_id):
        now = self.core._clock()
        seed = self.core.seeds()
        self._notify(league_id)
        return self.lobbies._change_lobby(league_id, now, seed)
"""


def test_a_forwarding_method_is_found() -> None:
    modules = {"__init__.py": SAMPLE}
    assert services(modules) == {"leagues"}  # a plain attribute (storage) is not a service
    # One statement forwarding to a service, awaited or not; a read of storage is the
    # manager's own, as is a method that does something before calling a service.
    assert forwarding_methods(modules) == ["GameManager.schedule", "GameManager.on_league_change"]


def test_a_private_access_is_found() -> None:
    held = frozenset({"leagues"})
    # The core uses its own private members, never a service's.
    assert private_accesses("__init__.py", SAMPLE, held) == [
        "__init__.py:24: self.leagues._league_game_ended"
    ]
    # A service uses its own private members and the core's public interface only.
    assert private_accesses("leagues.py", SERVICE, held) == [
        "leagues.py:2: import _computer_seed",
        "leagues.py:10: self.core._clock",
        "leagues.py:13: self.lobbies._change_lobby",
    ]
