"""The build: the engine's modules compiled to C by mypyc, about twice as fast as pure Python.

Everything else is in ``pyproject.toml``. mypyc turns the engine's typed modules (``mypy
--strict`` passes on them) into C extensions that sit beside their sources; the package's
``__init__`` modules stay Python. A manifest (``engine/_compiled.json``, see
``engine/_manifest.py``) records the hash of every source compiled: :mod:`engine._compiled`
imports the Python sources instead when one was edited since (or when ``ENGINE_PURE=1`` is set,
or when the C build failed), so a stale build is never run. ``ENGINE_PURE=1`` at install time
skips the compilation altogether.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent


def load_manifest() -> ModuleType:
    """``engine/_manifest.py``, by its path: the engine cannot be imported before its build."""
    spec = importlib.util.spec_from_file_location("engine_manifest", ROOT / "engine/_manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


manifest = load_manifest()


def engine_extensions() -> list[Extension]:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command in ("egg_info", "dist_info"):
        return []  # metadata only: pip asks for it before the build
    if command == "editable_wheel" and manifest.current(ROOT):
        return []  # `pip install -e .` again, no engine source changed: the builds stand
    (ROOT / "engine" / manifest.NAME).unlink(missing_ok=True)
    if os.environ.get("ENGINE_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []

    sources = manifest.compiled_sources(ROOT)
    keep = {manifest.build_of(ROOT, source) for source in sources}
    for build in (ROOT / "engine").rglob("*" + manifest.SUFFIX):
        if build not in keep and not build.name.startswith("_native__mypyc"):
            build.unlink()  # from an earlier build of a module now kept in Python
    # Type-check the whole engine (its __init__ modules included), compile only the modules.
    everything = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py"))
    try:
        extensions = mypycify(
            [*everything, "--strict"],
            only_compile_paths=sources,
            group_name=manifest.GROUP,
            opt_level="3",
            debug_level="0",
        )
    except (SystemExit, Exception) as error:  # mypyc exits on code it cannot compile
        print(f"setup.py: the engine stays pure Python, mypyc failed: {error}")
        return []
    for extension in extensions:
        # A machine without a C compiler still installs: the engine runs as pure Python.
        extension.optional = True
    manifest.write(ROOT, manifest.Manifest(manifest.digests(ROOT, sources)))
    return extensions


setup(ext_modules=engine_extensions())
