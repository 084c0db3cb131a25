"""What mypyc compiles of the engine, and whether a build of it may run.

``engine/_compiled.json``, the manifest, is written by the build (``setup.py``) after its C
extensions are built: the hash of each source as it was compiled, or, when nothing was
compiled, why (``"pure"``). This one module lists the compiled modules and checks a build, for
the build (which loads this file by its path: the engine cannot be imported before it is built)
and for the run time (:mod:`engine._compiled`). Standard library only, nothing of the engine.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
from pathlib import Path
from typing import NamedTuple

#: The manifest, in the ``engine`` package.
NAME = "_compiled.json"
#: mypyc's group: its compiled code is one shared library, :data:`LIBRARY` (each module's build
#: beside its source only loads its part of it), so compiled modules call each other in C.
GROUP = "engine._native"
LIBRARY = "engine/_native__mypyc"
#: Modules left in Python: the exceptions (callers set attributes on them, such as the index
#: of a record's failing action).
PURE = frozenset({"engine/core/errors.py"})
#: The file name ending of a C build for this interpreter (``.cpython-311-x86_64-linux-gnu.so``).
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


class Manifest(NamedTuple):
    """What a build made: each compiled source (``engine/core/board.py``) and its hash, or
    nothing and why (``pure``: a sentence, the one line the build printed)."""

    modules: dict[str, str]
    pure: str | None = None


def compiled_sources(root: Path) -> list[str]:
    """The engine's modules mypyc compiles, under ``root`` (the folder holding ``engine``): all
    but package ``__init__``, ``__main__``, ``_*`` (this one) and :data:`PURE`."""
    return sorted(
        path.relative_to(root).as_posix()
        for path in (root / "engine").rglob("*.py")
        if not path.name.startswith("_")
        and "__pycache__" not in path.parts
        and path.relative_to(root).as_posix() not in PURE
    )


def build_of(root: Path, source: str) -> Path:
    """The C build of ``source`` (``engine/core/board.py``), beside it."""
    path = root / source
    return path.with_name(path.stem + SUFFIX)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digests(root: Path, sources: list[str]) -> dict[str, str]:
    """Each source and the hash of its text now."""
    return {source: digest(root / source) for source in sources}


def read(root: Path) -> Manifest | None:
    """The manifest of the build under ``root``; None when there is none (never built here,
    or unreadable)."""
    try:
        data = json.loads((root / "engine" / NAME).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    modules, pure = data.get("modules"), data.get("pure")
    if not isinstance(modules, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in modules.items()
    ):
        return None
    return Manifest(dict(modules), pure if isinstance(pure, str) else None)


def write(root: Path, manifest: Manifest) -> None:
    """Write the manifest of the build under ``root`` (after the build, never before)."""
    data: dict[str, object] = {"modules": manifest.modules}
    if manifest.pure is not None:
        data["pure"] = manifest.pure
    path = root / "engine" / NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def problem(root: Path, modules: dict[str, str]) -> str | None:
    """Why the compiled ``modules`` (a manifest's) cannot run, or None if they can: each one's
    build and the shared library present, each source as it was compiled."""
    if modules and not (root / (LIBRARY + SUFFIX)).exists():
        return f"{LIBRARY + SUFFIX} is missing"
    for source, hashed in sorted(modules.items()):
        if not build_of(root, source).exists():
            return f"{source} was not compiled"
        try:
            if digest(root / source) != hashed:
                return f"{source} changed since the engine was compiled"
        except OSError:
            return f"{source} is missing"
    return None


def current(root: Path) -> bool:
    """Whether the build under ``root`` is of exactly the engine there now: every module to
    compile compiled from its present source (so the build need not run mypyc again)."""
    manifest = read(root)
    if manifest is None or manifest.pure is not None:
        return False
    return set(manifest.modules) == set(compiled_sources(root)) and (
        problem(root, manifest.modules) is None
    )
