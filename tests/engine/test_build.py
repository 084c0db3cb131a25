"""The build (setup.py) and its manifest (engine/_manifest.py): what is compiled, when a build
may run, and an install without a C compiler.

The builds run setuptools' own build backend, as pip does (without pip's isolated environment:
the test tools hold setuptools and mypy), on a copy of the project as a fresh clone holds it.
None of them compiles anything, so they take seconds; the compiled engine itself is
``test_compiled``'s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from engine import _manifest
from engine._compiled import ROOT
from engine._manifest import SUFFIX, Manifest

#: Plays one random game of each family; prints how the engine runs and the scores.
PLAY = """
import random
import engine
from engine.cli import play_random
print(engine.COMPILED)
print(engine.BUILD)
for game in ("carcassonne", "hunters", "castle"):
    played = engine.Game(engine.Setup(players=("A", "B"), seed=7, game=game))
    play_random(played, random.Random(7))
    print(game, played.finished, played.scores)
"""


def fresh_clone(folder: Path) -> Path:
    """The project's build files and engine as a fresh clone has them: no builds, no manifest
    (the .gitignore'd build products left out)."""
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, folder / name)
    products = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", _manifest.NAME)
    shutil.copytree(ROOT / "engine", folder / "engine", ignore=products)
    return folder


def build(project: Path, **env: str) -> str:
    """Build ``project`` for an editable install, as ``pip install -e`` does; what it printed."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import setuptools.build_meta as backend; backend.build_editable('dist')",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "ENGINE_PURE": "0", **env},
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def engine_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith("engine: ")]


def run_engine(project: Path, **env: str) -> list[str]:
    """Import the engine of ``project`` (warnings are errors) and play a game of each family."""
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", PLAY],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "ENGINE_PURE": "0", **env},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a warning
    return done.stdout.splitlines()


def test_without_a_c_compiler_the_install_says_so_once_and_the_engine_plays_in_python(
    tmp_path: Path,
) -> None:
    project = fresh_clone(tmp_path)
    # Builds left in the tree (an earlier compilation; errors.py is kept in Python) are kept,
    # and never loaded: these would not load.
    left = [project / "engine/core/board.py", project / "engine/core/errors.py"]
    for source in left:
        source.with_name(source.stem + SUFFIX).write_bytes(b"not a build")
    output = build(project, CC="false")
    lines = engine_lines(output)
    assert lines == [
        "engine: pure Python, no working C compiler at install "
        "(false could not build a test extension)"
    ]
    assert "Traceback" not in output
    assert not (project / "build").exists()  # mypyc never ran
    assert _manifest.read(project) == Manifest({}, lines[0].removeprefix("engine: "))
    assert all(source.with_name(source.stem + SUFFIX).exists() for source in left)
    compiled, how, *games = run_engine(project)
    assert compiled == "False"
    assert how == lines[0].removeprefix("engine: ")
    assert [game.split()[:2] for game in games] == [
        ["carcassonne", "True"],
        ["hunters", "True"],
        ["castle", "True"],
    ]


def test_engine_pure_at_install_compiles_nothing(tmp_path: Path) -> None:
    project = fresh_clone(tmp_path)
    assert engine_lines(build(project, ENGINE_PURE="1")) == [
        "engine: pure Python, ENGINE_PURE=1 at install"
    ]
    assert not (project / "build").exists()
    assert run_engine(project)[:2] == ["False", "pure Python, ENGINE_PURE=1 at install"]


def fake_build(project: Path) -> list[Path]:
    """Files standing for a current build of ``project``'s engine, and its manifest."""
    sources = _manifest.compiled_sources(project)
    files = [project / (_manifest.LIBRARY + SUFFIX)]
    files += [_manifest.build_of(project, source) for source in sources]
    for path in files:
        path.write_bytes(b"a build")
    _manifest.write(project, Manifest(_manifest.digests(project, sources)))
    return files


def test_a_current_build_is_not_rebuilt(tmp_path: Path) -> None:
    # `pip install -e .` again (scripts/test), no engine source changed: mypyc does not run.
    project = fresh_clone(tmp_path)
    files = fake_build(project)
    before = {path: path.stat().st_mtime_ns for path in [*files, project / "engine/_compiled.json"]}
    assert engine_lines(build(project)) == [
        "engine: compiled by mypyc, no engine source changed since: not rebuilt"
    ]
    assert not (project / "build").exists()
    assert {path: path.stat().st_mtime_ns for path in before} == before


def test_a_build_is_current_only_of_the_sources_there_now(tmp_path: Path) -> None:
    project = fresh_clone(tmp_path)
    assert not _manifest.current(project)  # never built
    fake_build(project)
    assert _manifest.current(project)
    board = project / "engine/core/board.py"
    board.write_text(board.read_text() + "\n")
    assert not _manifest.current(project)
    fake_build(project)
    (project / "engine/core/added.py").write_text("")  # a module the build has not seen
    assert not _manifest.current(project)
    _manifest.write(project, Manifest({}, "pure Python, ENGINE_PURE=1 at install"))
    assert not _manifest.current(project)


def test_a_build_runs_only_whole_and_of_its_sources(tmp_path: Path) -> None:
    project = fresh_clone(tmp_path)
    fake_build(project)
    modules = _manifest.read(project)
    assert modules is not None and modules.pure is None
    assert _manifest.problem(project, modules.modules) is None
    board = "engine/core/board.py"
    changed = {**modules.modules, board: "0" * 64}
    assert _manifest.problem(project, changed) == f"{board} changed since the engine was compiled"
    # A module kept in Python (package __init__ modules are never compiled).
    assert _manifest.problem(project, {"engine/__init__.py": "0" * 64}) == (
        "engine/__init__.py was not compiled"
    )
    (project / (_manifest.LIBRARY + SUFFIX)).unlink()
    assert _manifest.problem(project, modules.modules) == f"{_manifest.LIBRARY + SUFFIX} is missing"


def test_every_engine_module_is_compiled_but_the_exceptions_packages_and_the_build_own() -> None:
    sources = _manifest.compiled_sources(ROOT)
    assert "engine/core/board.py" in sources
    assert "engine/cli.py" in sources
    assert "engine/core/errors.py" not in sources  # callers set attributes on exceptions
    assert not [s for s in sources if Path(s).name.startswith("_")]  # __init__, _manifest ...


def test_an_unreadable_manifest_is_none(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    assert _manifest.read(tmp_path) is None
    for text in ("{", "[]", '{"modules": {"a": 1}}', '{"modules": []}'):
        (tmp_path / "engine" / _manifest.NAME).write_text(text)
        assert _manifest.read(tmp_path) is None
