"""The engine compiled by mypyc (setup.py) plays exactly as its Python sources do.

How the build decides what to compile, and a build without a C compiler: ``test_build``.
"""

from __future__ import annotations

import ast
import importlib.machinery
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
import engine.core.board
from engine import PlaceFigure, PlaceTile, Setup, _manifest
from engine._compiled import ROOT
from engine.core.events import FeatureScored
from engine.core.setup import EXPANSIONS, OPTIONS

HERE = Path(__file__).resolve().parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def run_digest(count: int, **env: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(HERE / "engine_digest.py"), str(count)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
        timeout=600,
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def require_a_build() -> None:
    """Skip, saying why, when the install compiled nothing here (no C compiler, say); in CI
    (``CI=true``) fail instead: there the compiled engine must be tested, unless the run asked
    for no compiler itself (``CC`` set to one that cannot build, as in ``CC=false``: the check
    that a machine without one passes the suite)."""
    built = _manifest.read(ROOT)
    if built is not None and built.modules:
        return  # compiled: whether the build may run is the test's to say
    why = built.pure if built is not None else "the project was never installed here"
    chosen = bool(os.environ.get("CC")) and "no working C compiler" in (why or "")
    if os.environ.get("CI") == "true" and not chosen:
        pytest.fail(f"CI=true and no compiled engine to test: {why}")
    pytest.skip(f"no compiled engine here: {why}")


def test_the_test_command_runs_the_compiled_engine() -> None:
    # scripts/test installs the project, which compiles the engine; ENGINE_PURE=1 opts out.
    if os.environ.get("ENGINE_PURE", "") not in ("", "0"):
        assert not engine.COMPILED
        return
    require_a_build()
    assert engine.COMPILED, engine.BUILD
    assert str(engine.core.board.__file__).endswith(SUFFIX)


def test_the_compiled_and_the_pure_engine_play_the_same_games() -> None:
    require_a_build()
    pure = run_digest(40, ENGINE_PURE="1")
    compiled = run_digest(40, ENGINE_PURE="0")
    assert pure["compiled"] is False
    assert pure["build"] == "pure Python, ENGINE_PURE=1"
    assert compiled["compiled"] is True, compiled["build"]
    setups = [game["setup"] for game in compiled["games"]]
    assert {setup["game"] for setup in setups} == set(OPTIONS)  # every family
    played = {(setup["game"], name) for setup in setups for name in setup["expansions"]}
    assert played == {(game, name) for game, names in EXPANSIONS.items() for name in names}
    differ = [p["setup"] for p, c in zip(pure["games"], compiled["games"], strict=True) if p != c]
    assert not differ, f"played differently compiled: {differ}"


def test_frozen_values_survive_pickling() -> None:
    # The bot sends actions, events and setups to its worker processes.
    values: list[object] = [
        PlaceTile(1, -2, 90),
        PlaceFigure("follower", 0, 1, "N"),
        FeatureScored("city", {0: 10, 1: 10}, final=False, tiles=4, marks=("cathedral",)),
        Setup(players=("A", "B"), seed=3, expansions=("abbey_mayor",)),
    ]
    for value in values:
        copy = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        assert copy == value
        assert type(copy) is type(value)


def written_inits() -> list[tuple[str, ast.ClassDef]]:
    """The engine's dataclasses declared ``init=False`` with an ``__init__`` of their own."""
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(d, ast.Call)
                and any(
                    k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
                    for k in d.keywords
                )
                for d in node.decorator_list
            ):
                found.append((path.name, node))
    return found


def test_written_inits_take_and_store_every_field_in_order() -> None:
    # Compiled, a dataclass's generated __init__ stays Python; the hot ones write their own,
    # which must stay what dataclass would write: every field, in order, stored as given.
    classes = written_inits()
    assert len(classes) >= 8
    for where, node in classes:
        fields = [
            s.target.id
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]
        init = next(s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__")
        assert [a.arg for a in init.args.args[1:]] == fields, (where, node.name)
        stored = []
        for statement in init.body:
            assert isinstance(statement, ast.Expr | ast.Assign), (where, node.name)
            if isinstance(statement, ast.Assign):
                target = statement.targets[0]
                assert isinstance(target, ast.Attribute)
                stored.append(target.attr)
            else:
                call = statement.value
                assert isinstance(call, ast.Call)
                assert ast.unparse(call.func) == "object.__setattr__"
                name = call.args[1]
                assert isinstance(name, ast.Constant) and isinstance(name.value, str)
                stored.append(name.value)
        assert stored == fields, (where, node.name)
