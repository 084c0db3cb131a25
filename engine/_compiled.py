"""Whether the engine runs compiled (mypyc, built by ``setup.py``) or as pure Python.

The compiled modules sit beside their sources, and Python prefers them. They are used only if
the build's manifest (:mod:`engine._manifest`) lists them and they match: if one source was
edited since, or one build is missing, the engine runs from its Python sources with a warning
(rebuild it). It runs from them silently when nothing was compiled (no C compiler at install,
or ``ENGINE_PURE=1`` then: the manifest says why), or with ``ENGINE_PURE=1`` now. A finder
placed first makes every module with a build beside it load from its source instead: all or
nothing, since compiled modules call each other directly in C. A build left from a module now
kept in Python (or from an earlier build) is never loaded either.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from engine import _manifest

ROOT = Path(__file__).resolve().parent.parent


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


def _built_modules() -> set[str]:
    """Every engine source with a C build beside it (``engine/core/board.py``)."""
    suffix = _manifest.SUFFIX
    return {
        build.with_name(build.name.removesuffix(suffix) + ".py").relative_to(ROOT).as_posix()
        for build in (ROOT / "engine").rglob("*" + suffix)
        if build.with_name(build.name.removesuffix(suffix) + ".py").exists()
    }


def _choose() -> tuple[bool, str, dict[str, str]]:
    """Whether the engine runs compiled, how it runs in words, and the compiled modules;
    places the finder that keeps the builds not to be run from loading."""
    manifest = _manifest.read(ROOT)
    modules = manifest.modules if manifest is not None else {}
    built = _built_modules()
    problem = None
    if os.environ.get("ENGINE_PURE", "") not in ("", "0"):
        how = "pure Python, ENGINE_PURE=1"
    elif manifest is not None and manifest.pure is not None:
        how = manifest.pure
    elif manifest is None:
        how = "pure Python, not built (install the project to compile it)"
        if built:
            problem = f"C builds without their manifest ({_manifest.NAME})"
    else:
        problem = _manifest.problem(ROOT, modules) if modules else "the manifest lists no module"
        if problem is None:
            _load_from_sources(built - set(modules))  # left from modules now kept in Python
            return True, "compiled by mypyc", modules
        how = f"pure Python, {problem}"
    if problem is not None:
        warnings.warn(
            f"engine: {problem}; running the pure Python engine (about half as fast). "
            "Rebuild it with scripts/test or: .venv/bin/pip install -e .",
            RuntimeWarning,
            stacklevel=3,
        )
    _load_from_sources(built | set(modules))
    return False, how, {}


def _load_from_sources(sources: set[str]) -> None:
    if sources:
        sys.meta_path.insert(0, _SourceFinder(_module_paths(sources)))


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
    for name in sorted(_module_paths(set(_COMPILED_MODULES))):
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


#: True when the engine's modules run compiled; how it runs, in words (``"compiled by mypyc"``,
#: or ``"pure Python, "`` and why: the bot logs it at start).
COMPILED, BUILD, _COMPILED_MODULES = _choose()
