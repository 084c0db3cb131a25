"""A disk cache of what the first pictures of a process would otherwise compute: the tile
layouts of every game family (the shapes of cities, roads and fields found by search, the bulk of
a first picture's time), each family's PNG palette, and the finished tile pictures at every size
drawn so far (:mod:`renderer.tilecache`: a tile is drawn once per machine, not once per render
worker, and read back losslessly by the others and after a restart).

:func:`enable` points the renderer at a folder (the bot does it at start); :func:`build` fills it
(every tile kind in every rotation, every palette) and :func:`load` reads it into the renderer's
in-memory caches, after which a new process draws its first picture as fast as its hundredth.
The folder is named after a hash of the renderer's source and Pillow's version, so a change of
the art never reads stale shapes; a cache that cannot be read is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
import time
from pathlib import Path
from typing import Any

import PIL
from PIL import Image

from renderer import tilecache

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
LAYOUTS = "layouts.pickle"
#: The tile pictures drawn so far (:mod:`renderer.tilecache`).
TILES = "tiles"
#: The palette keys of :func:`renderer.encode.shared_palette`.
PALETTES = ("carcassonne", "hunters")

_folder: Path | None = None


def version() -> str:
    """A hash of the renderer's source files and Pillow's version."""
    digest = hashlib.sha256(PIL.__version__.encode())
    for path in sorted(HERE.rglob("*.py")):
        digest.update(path.relative_to(HERE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def default_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "carcassonne-bot" / "art"


def enable(folder: Path | None = None) -> Path:
    """Use ``folder`` (default: the user's cache folder) for this version of the art."""
    global _folder
    _folder = (folder or default_folder()) / version()
    tilecache.folder = _folder / TILES
    return _folder


def disable() -> None:
    """Use no folder: everything is computed in memory again."""
    global _folder
    _folder = None
    tilecache.folder = None


def _tables() -> dict[str, dict[Any, Any]]:
    """The renderer's in-memory layout caches, by family (each registers its own when the
    ``renderer`` package, imported before any of its modules, imports the families)."""
    from renderer import families

    return families.LAYOUT_CACHES


def load() -> bool:
    """Read the cache into the renderer's memory; False if it is missing or unreadable."""
    if _folder is None:
        return False
    from renderer import encode

    try:
        tables = pickle.loads((_folder / LAYOUTS).read_bytes())
        palettes = {}
        for key in PALETTES:
            with Image.open(_folder / f"palette-{key}.png") as image:
                image.load()
                palettes[key] = image.copy()
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
        return False
    for name, table in _tables().items():
        table.update(tables.get(name, {}))
    encode._PALETTES.update(palettes)
    return True


def build() -> float:
    """Compute every layout and palette and write them (seconds taken)."""
    from engine.core import tiles
    from renderer import encode, tileart

    started = time.perf_counter()
    # Drawing every tile once finds every layout; these small tiles are not worth keeping on
    # disk (pictures use other sizes, written there when first drawn).
    kept, tilecache.folder = tilecache.folder, None
    try:
        for name in tiles.TILE_SETS:
            for kind in tiles.kinds_by_name(name).values():
                for rotation in (0, 90, 180, 270):
                    tileart.tile_image(kind.oriented(rotation), 64)
    finally:
        tilecache.folder = kept
    for key in PALETTES:
        encode.shared_palette(key)
    if _folder is not None:
        tilecache.write(_folder / LAYOUTS, pickle.dumps({k: dict(v) for k, v in _tables().items()}))
        for key in PALETTES:
            out = io.BytesIO()
            encode._PALETTES[key].save(out, format="PNG")
            tilecache.write(_folder / f"palette-{key}.png", out.getvalue())
    return time.perf_counter() - started


def warm(folder: Path | None = None) -> tuple[bool, float]:
    """Enable the cache in ``folder``, load it, or build it if it is not there yet.
    Returns (whether it was built now, seconds taken)."""
    enable(folder)
    started = time.perf_counter()
    if load():
        return False, time.perf_counter() - started
    seconds = build()
    log.info("tile art cache built in %.1f s in %s", seconds, _folder)
    return True, seconds
