"""One path per turn: the Discord layer changes a game only through the manager's one turn call
(and the few named acts that are not turns), reads what a turn offers from the turn view, and a
tap on a figure spot makes one manager call that plays and one write that stores the move.

The source checks read the syntax tree of every module of ``bot.ui`` (and ``bot.app``); each is
also run on small sources with the mistake it looks for, so a checker that sees nothing fails.
"""

from __future__ import annotations

import ast
import contextvars
import functools
import importlib
import inspect
import types
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import simcord
from conftest_ui import Table, commit, pick, simcord_bot, spot_ids

from bot.manager import GameManager
from bot.manager.leaving import LeavingManager
from bot.manager.turns import TurnsManager
from bot.storage.faults import Faults

__all__ = ["simcord_bot"]

ROOT = Path(__file__).resolve().parents[2]

#: The one turn call, and the named acts that change a game and are not turns.
TURN_CALL = "play_turn"
NAMED_ACTS = frozenset(
    {"resign", "abandon", "vote_abandon", "refuse_abandon", "undo", "refuse_undo"}
)
#: What the turn core offers that only reads.
READS = frozenset({"current", "forced_move", "decision", "game", "engine_copy", "render"})
#: The modules of ``bot.ui`` that play turns: the buttons and menus, the typed command, The
#: Castle's steps, and the computer seats' runner.
TURN_MODULES = frozenset(
    {
        "bot/ui/turn/flow.py",
        "bot/ui/turn/place_cmd.py",
        "bot/ui/turn/castle/turn.py",
        "bot/ui/turn/computer_turns.py",
    }
)
#: The storage calls the Discord layer may make itself: reads, a league table message's id, and
#: closing it at shutdown.
STORAGE_CALLS = frozenset(
    {"active_game_ids", "shared", "league_game", "set_season_message", "close"}
)


def turn_core_methods() -> set[str]:
    """Every method the turn core (its turns, leaving and undo) defines, private ones too."""
    names: set[str] = set()
    for cls in (TurnsManager, LeavingManager):
        names |= {n for n, v in vars(cls).items() if callable(v) or isinstance(v, staticmethod)}
    return names


def problems(source: str, path: str) -> list[str]:
    """What a module of the Discord layer does to a game other than through the one path."""
    tree = ast.parse(source)
    found: list[str] = []
    core = turn_core_methods()
    allowed = {TURN_CALL, *NAMED_ACTS, *READS}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        where = f"{path}:{node.lineno}"
        chain = ast.unparse(node.value)
        if node.attr == "play" and not chain.endswith(("voice_client", "vc")):
            found.append(f"{where}: plays on an engine game ({ast.unparse(node)})")
        elif node.attr.startswith("_") and "manager" in chain:
            found.append(f"{where}: reaches into the manager ({ast.unparse(node)})")
        elif chain.endswith("storage") and node.attr not in STORAGE_CALLS:
            found.append(f"{where}: writes storage itself ({ast.unparse(node)})")
        elif "manager" in chain and node.attr in core and node.attr not in allowed:
            found.append(f"{where}: changes a game past the turn call ({ast.unparse(node)})")
        elif node.attr == TURN_CALL and path not in TURN_MODULES:
            found.append(f"{where}: plays a turn outside the turn modules")
    return found


def discord_layer() -> Iterator[Path]:
    yield from sorted((ROOT / "bot" / "ui").rglob("*.py"))
    yield ROOT / "bot" / "app.py"


def test_the_discord_layer_changes_a_game_only_through_the_turn_call() -> None:
    found: list[str] = []
    turns: Counter[str] = Counter()
    for path in discord_layer():
        name = path.relative_to(ROOT).as_posix()
        source = path.read_text()
        found += problems(source, name)
        turns[name] += sum(
            isinstance(n, ast.Attribute) and n.attr == TURN_CALL
            for n in ast.walk(ast.parse(source))
        )
    assert found == []
    # Every turn module plays through it (the buttons twice: a spot, and The Castle's end).
    assert {name for name, n in turns.items() if n} == TURN_MODULES


def test_the_checker_finds_each_way_around_the_turn_call() -> None:
    bad = {
        "game.play(PlaceTile(0, 1, 0))": "plays on an engine game",
        "await bot.manager._finish_move(live, draft, done, now)": "reaches into the manager",
        "await manager.storage.append_actions(1, 0, rows, progress)": "writes storage itself",
        "await bot.manager.storage.clear_pause_votes(1)": "writes storage itself",
        "await manager._move(live, move, 1, 0, None, False)": "reaches into the manager",
        "await manager._timeout(1, Timeout(), turn=0, render=False)": "reaches into the manager",
        "await manager.play_turn(1, 2, Pass(), turn=0)": "plays a turn outside the turn modules",
    }
    for source, why in bad.items():
        found = problems(source, "bot/ui/scratch.py")
        assert len(found) == 1 and why in found[0], (source, found)
    fine = "await manager.play_turn(1, 2, Pass(), turn=0)\nawait manager.resign(1, 2)\n"
    assert problems(fine, "bot/ui/turn/flow.py") == []
    assert problems("await manager.lobbies.start(1, 2)", "bot/ui/lobby/lobby_ui.py") == []


def engine_imports(source: str) -> list[tuple[str, str]]:
    """(module, name) of every name imported from the engine."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engine":
            found += [(node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, "") for a in node.names if a.name.split(".")[0] == "engine"]
    return found


def not_a_type(module: str, name: str) -> bool:
    """Whether an imported engine name is something other than a type or a constant."""
    if not name:
        return True  # a whole module: its functions would come with it
    value = getattr(importlib.import_module(module), name, None)
    if value is None:
        return True
    alias = isinstance(value, types.UnionType) or type(value).__module__ == "typing"
    return not (inspect.isclass(value) or name.isupper() or alias)


def test_the_discord_layer_imports_only_types_from_the_engine() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {module}.{name}"
        for path in discord_layer()
        for module, name in engine_imports(path.read_text())
        if not_a_type(module, name)
    ]
    assert found == []
    # The check sees a function, a module and a mistyped name.
    assert not_a_type("engine.cli", "random_action")
    assert not_a_type("engine.core", "")
    assert not not_a_type("engine", "PlaceTile") and not not_a_type("engine.core.setup", "OPTIONS")
    assert engine_imports("from engine.core.record import read_record\nimport engine.cli") == [
        ("engine.core.record", "read_record"),
        ("engine.cli", ""),
    ]


# -- a tap, counted -------------------------------------------------------------------------------

_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("inside", default=False)


def count_calls(manager: GameManager, calls: Counter[str]) -> None:
    """Count the manager's (and its services') public operations called from outside it."""
    owners: dict[str, Any] = {"manager": manager}
    owners |= {
        name: value
        for name, value in vars(manager).items()
        if type(value).__module__.startswith("bot.manager.") and not name.startswith("_")
    }
    for owner_name, owner in owners.items():
        for name, member in inspect.getmembers(type(owner)):
            if name.startswith("_") or not inspect.iscoroutinefunction(member):
                continue
            setattr(owner, name, _counted(f"{owner_name}.{name}", getattr(owner, name), calls))


def _counted(
    name: str, real: Callable[..., Awaitable[Any]], calls: Counter[str]
) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(real)
    async def call(*args: Any, **kwargs: Any) -> Any:
        if _INSIDE.get():
            return await real(*args, **kwargs)
        calls[name] += 1
        token = _INSIDE.set(True)
        try:
            return await real(*args, **kwargs)
        finally:
            _INSIDE.reset(token)

    return call


#: The storage calls that write a game's moves.
MOVE_WRITES = frozenset({"append_actions", "truncate_actions"})


async def test_a_tap_on_a_figure_spot_is_one_turn_call_and_one_move_write(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    game_id = await table.new()
    manager = table.bot.manager
    player = table.actor((await manager.decision(game_id)).user_id)
    step = await pick(table, game_id, player, table.last())
    assert spot_ids(step), "the first placement offers a figure spot"
    calls: Counter[str] = Counter()
    count_calls(manager, calls)
    faults = Faults(manager.storage)
    faults.arm()
    before = len(await manager.storage.get_actions(game_id))
    await commit(player, step, 1)
    stored = faults.disarm()
    after = await manager.storage.get_actions(game_id)
    assert len(after) == before + 2  # the tile and its figure, in one move
    assert calls["manager.play_turn"] == 1
    assert sum(calls[f"manager.{n}"] for n in NAMED_ACTS) == 0
    assert [c for c in stored if c in MOVE_WRITES] == ["append_actions"]
    # Besides the move: the policy reads the game and its facts (whose turn it is), the step's
    # check reads the turn, and the new turn message's id is kept.
    assert calls == {
        "manager.game": 1,
        "watch.facts": 1,
        "manager.current": 1,
        "manager.play_turn": 1,
        "records.set_messages": 1,
    }
