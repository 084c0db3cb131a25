"""The build: the engine's modules compiled to C by mypyc, about twice as fast as pure Python.

Everything else is in ``pyproject.toml``. mypyc turns the engine's typed modules (``mypy
--strict`` passes on them) into C extensions that sit beside their sources; the package's
``__init__`` modules stay Python. A manifest (``engine/_compiled.json``) records the hash of
every source compiled: :mod:`engine._compiled` imports the Python sources instead when one was
edited since (or when ``ENGINE_PURE=1`` is set, or when the C build failed), so a stale build is
never run. ``ENGINE_PURE=1`` at install time skips the compilation altogether.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
MANIFEST = ROOT / "engine" / "_compiled.json"


#: Modules left in Python: the exceptions (callers set attributes on them, such as the index
#: of a record's failing action).
PURE = {"engine/core/errors.py"}


def compiled_modules() -> list[Path]:
    """The engine's modules to compile: all but package ``__init__``, ``__main__``, ``_*`` and
    :data:`PURE`."""
    return sorted(
        path
        for path in (ROOT / "engine").rglob("*.py")
        if not path.name.startswith("_")
        and "__pycache__" not in path.parts
        and path.relative_to(ROOT).as_posix() not in PURE
    )


def manifest(sources: list[Path]) -> dict[str, str]:
    """Each compiled source (``engine/core/board.py``) and the hash of its text."""
    return {
        path.relative_to(ROOT).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sources
    }


def up_to_date(sources: list[Path]) -> bool:
    """True when the C builds beside the sources were made from these very sources."""
    try:
        built = json.loads(MANIFEST.read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return built == manifest(sources) and all(
        path.with_name(path.stem + suffix).exists() for path in sources
    )


def engine_extensions() -> list[Extension]:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command in ("egg_info", "dist_info"):
        return []  # metadata only: pip asks for it before the build
    if command == "editable_wheel" and up_to_date(compiled_modules()):
        return []  # `pip install -e .` again, no engine source changed: the builds stand
    MANIFEST.unlink(missing_ok=True)
    if os.environ.get("ENGINE_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []

    sources = compiled_modules()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    keep = {path.with_name(path.stem + suffix) for path in sources}
    for build in (ROOT / "engine").rglob("*" + suffix):
        if build not in keep and not build.name.startswith("_native__mypyc"):
            build.unlink()  # from an earlier build of a module now kept in Python
    relative = [path.relative_to(ROOT).as_posix() for path in sources]
    # Type-check the whole engine (its __init__ modules included), compile only the modules.
    everything = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py"))
    try:
        extensions = mypycify(
            [*everything, "--strict"],
            only_compile_paths=relative,
            group_name="engine._native",
            opt_level="3",
            debug_level="0",
        )
    except (SystemExit, Exception) as error:  # mypyc exits on code it cannot compile
        print(f"setup.py: the engine stays pure Python, mypyc failed: {error}")
        return []
    for extension in extensions:
        # A machine without a C compiler still installs: the engine runs as pure Python.
        extension.optional = True
    MANIFEST.write_text(json.dumps({"modules": manifest(sources)}, indent=1, sort_keys=True) + "\n")
    return extensions


setup(ext_modules=engine_extensions())
