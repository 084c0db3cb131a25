"""The architecture of ``pyproject.toml``'s ``[tool.importlinter]``: layers (bot, renderer and
the computer players, engine), a Discord layer that nothing else imports, a storage interface
that does not import its implementations, the game families' packages reached only through
their registries, and no import circle among the modules of a package (function-level imports
count). A new circle or a wrong-way import fails here with import-linter's explanation.

The contracts name packages by their role or by wildcards, never lists of modules, so a new
module is covered wherever it is put: each contract is shown to bite on a copy of the tree with
a scratch module that breaks it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LINTER = Path(sys.executable).parent / "lint-imports"
PACKAGES = ("bot", "renderer", "engine", "catalogs", "ai")

#: For each contract (by its id): a scratch module (path, source) that breaks it, and the
#: import that the linter's explanation names.
SCRATCH = {
    "layers": ("ai/scratch.py", "import renderer.board\n", "ai.scratch -> renderer.board"),
    "discord-layer": (
        "bot/manager/scratch.py",
        "import bot.ui.turn.flow\n",
        "bot.manager.scratch -> bot.ui.turn.flow",
    ),
    "storage-interface": (
        "bot/storage/__init__.py",
        "from bot.storage import postgres\n",
        "bot.storage -> bot.storage.postgres",
    ),
    "storage-drivers": (
        "bot/storage/sql.py",
        "import asyncpg\n",
        "bot.storage.sql -> asyncpg",
    ),
    "no-cycles": (
        "bot/ui/lobby/scratch.py",
        "import bot.ui.leagues.league_commands\n",
        ".lobby -> .leagues",
    ),
    "castle-packages": (
        "bot/ui/turn/scratch.py",
        "from bot.ui.turn.castle import turn\n",
        "bot.ui.turn.scratch -> bot.ui.turn.castle.turn",
    ),
    "hunters-packages": (
        "renderer/scratch.py",
        "import renderer.hunters\n",
        "renderer.scratch -> renderer.hunters",
    ),
    "drawing-families": (
        "renderer/castle/scratch.py",
        "import renderer.hunters\n",
        "renderer.castle.scratch -> renderer.hunters",
    ),
    "ui-families": (
        "bot/ui/turn/hunters/scratch.py",
        "import bot.ui.turn.castle.turn\n",
        "bot.ui.turn.hunters.scratch -> bot.ui.turn.castle.turn",
    ),
    "engine-families": (
        "engine/hunters/scratch.py",
        "import engine.castle\n",
        "engine.hunters.scratch -> engine.castle",
    ),
    "engine-core": (
        "engine/core/scratch.py",
        "import engine.castle\n",
        "engine.core.scratch -> engine.castle",
    ),
    "carcassonne-rules": (
        "engine/carcassonne/scratch.py",
        "import engine.carcassonne.river\n",
        "engine.carcassonne.scratch -> engine.carcassonne.river",
    ),
    "carcassonne-expansions": (
        "engine/carcassonne/river/scratch.py",
        "import engine.carcassonne.abbey_mayor\n",
        "engine.carcassonne.river.scratch -> engine.carcassonne.abbey_mayor",
    ),
}


def lint(cwd: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    chosen = [arg for contract in contracts for arg in ("--contract", contract)]
    return subprocess.run(
        [str(LINTER), "--config", str(cwd / "pyproject.toml"), "--no-cache", *chosen],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contracts_hold() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_every_contract_has_a_scratch_module_that_breaks_it() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ids = [contract["id"] for contract in config["tool"]["importlinter"]["contracts"]]
    assert sorted(ids) == sorted(SCRATCH)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packages' Python files and the configuration, in a temporary folder (the linter
    analyses the packages found from its working directory first)."""
    folder = tmp_path_factory.mktemp("tree")

    def ignored(directory: str, names: list[str]) -> set[str]:
        return {
            name
            for name in names
            if name == "__pycache__" or (Path(directory, name).is_file() and name[-3:] != ".py")
        }

    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=ignored)
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    return folder


def test_the_copy_keeps_the_contracts(copy: Path) -> None:
    done = lint(copy)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


@pytest.fixture
def scratch(copy: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """The copy with the scratch module of a contract (an existing module gets the import at
    its end), taken out again afterwards."""
    path, source, _ = SCRATCH[request.param]
    target = copy / path
    before = target.read_text(encoding="utf-8") if target.exists() else None
    target.write_text((before or '"""A scratch module."""\n\n') + source, encoding="utf-8")
    try:
        yield copy
    finally:
        if before is None:
            target.unlink()
        else:
            target.write_text(before, encoding="utf-8")


@pytest.mark.parametrize("scratch", sorted(SCRATCH), indirect=True)
def test_a_scratch_module_breaks_it(scratch: Path, request: pytest.FixtureRequest) -> None:
    contract = request.node.callspec.params["scratch"]
    done = lint(scratch, contract)
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    assert "1 broken" in done.stdout, done.stdout[-4000:]
    assert SCRATCH[contract][2] in done.stdout, done.stdout[-4000:]
