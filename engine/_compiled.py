"""Whether the engine runs compiled (mypyc, built by ``setup.py``) or as pure Python.

The compiled modules sit beside their sources, and Python prefers them. They are used only if
they match: ``engine/_compiled.json`` holds the hash of each source as it was compiled, and if
one source was edited since, or one module is missing (a build without a C compiler), or
``ENGINE_PURE=1`` is set, a finder placed first makes every one of them load from its Python
source instead. It is all or nothing: compiled modules call each other directly in C.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = Path(__file__).with_name("_compiled.json")


def _compiled_modules() -> dict[str, str]:
    """Listed module source (``engine/core/board.py``) -> its hash when compiled; {} if none."""
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    modules = manifest.get("modules") if isinstance(manifest, dict) else None
    return modules if isinstance(modules, dict) else {}


def _problem(modules: dict[str, str]) -> str | None:
    """Why the compiled modules cannot be used, or None if they can."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for source, digest in modules.items():
        path = ROOT / source
        if not path.with_name(path.stem + suffix).exists():
            return f"{source} was not compiled"
        try:
            if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
                return f"{source} changed since the engine was compiled"
        except OSError:
            return f"{source} is missing"
    return None


class _SourceFinder:
    """Loads the listed engine modules from their Python sources, ahead of their C builds."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self.paths = paths

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.paths.get(name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(name, source)


def _built_modules() -> list[str]:
    """Every engine source with a C build beside it (``engine/core/board.py``)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return sorted(
        build.with_name(build.name.removesuffix(suffix) + ".py").relative_to(ROOT).as_posix()
        for build in (ROOT / "engine").rglob("*" + suffix)
        if build.with_name(build.name.removesuffix(suffix) + ".py").exists()
    )


def _choose() -> bool:
    modules = _compiled_modules()
    built = _built_modules()
    if not modules and not built:
        return False
    pure = os.environ.get("ENGINE_PURE", "") not in ("", "0")
    problem = None
    if not pure:
        problem = _problem(modules) if modules else "no build manifest was found"
    if problem is None and not pure:
        # A build left from an earlier compilation of a module now kept in Python.
        stale = set(built) - set(modules)
        if stale:
            sys.meta_path.insert(0, _SourceFinder(_module_paths(stale)))
        return True
    if problem is not None:
        warnings.warn(
            f"engine: {problem}; running the pure Python engine (about half as fast). "
            "Rebuild it with scripts/test or: .venv/bin/pip install -e .",
            RuntimeWarning,
            stacklevel=3,
        )
    sys.meta_path.insert(0, _SourceFinder(_module_paths({*modules, *built})))
    return False


def _reduce_by_fields(self: Any) -> tuple[type, tuple[Any, ...]]:
    return type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self))


def pickle_by_fields() -> int:
    """Let pickle copy the compiled engine's dataclasses (actions, events, tiles, setups).

    mypyc's own ``__setstate__`` sets each attribute with ``setattr``, which a frozen dataclass
    refuses, and a compiled ``__init__`` runs on allocation; so these are rebuilt by calling
    the class with their fields, in order (every field is an ``__init__`` argument). Imports
    every compiled module; returns how many classes it changed.
    """
    changed = 0
    for name in sorted(_module_paths(set(_compiled_modules()))):
        module = importlib.import_module(name)
        for cls in list(vars(module).values()):
            if (
                isinstance(cls, type)
                and cls.__module__ == name
                and "__mypyc_attrs__" in cls.__dict__
                and dataclasses.is_dataclass(cls)
            ):
                setattr(cls, "__reduce__", _reduce_by_fields)  # noqa: B010
                changed += 1
    return changed


def _module_paths(sources: set[str]) -> dict[str, Path]:
    """Module name -> source path, for sources such as ``engine/core/board.py``."""
    return {source.removesuffix(".py").replace("/", "."): ROOT / source for source in sources}


#: True when the engine's modules run compiled.
COMPILED = _choose()
