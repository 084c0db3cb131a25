"""A disk cache of what the first pictures of a process would otherwise compute: the tile
layouts of every game family (the shapes of cities, roads and fields found by search, the bulk of
a first picture's time), each family's PNG palette, and the finished tile pictures at every size
drawn so far (:func:`tile`: a tile is drawn once per machine, not once per render worker, and
read back losslessly by the others and after a restart).

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
import tempfile
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import PIL
from PIL import Image

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
LAYOUTS = "layouts.pickle"
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
    return _folder


def _tables() -> dict[str, dict[Any, Any]]:
    """The renderer's in-memory layout caches, by family (each registers its own when the
    ``renderer`` package, imported before any of its modules, imports the families)."""
    from renderer import families

    return families.LAYOUT_CACHES


def _write(path: Path, data: bytes) -> None:
    """Write atomically: processes starting together never read half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(temp, path)


TILES = "tiles"


def _tile_path(key: tuple[Hashable, ...]) -> Path | None:
    if _folder is None:
        return None
    name = "-".join(
        "".join(c if c.isalnum() else f"_{ord(c):x}" for c in str(part)) or "_" for part in key
    )
    return _folder / TILES / f"{name}.png"


def tile(key: tuple[Hashable, ...], draw: Callable[[], Image.Image]) -> Image.Image:
    """The tile picture of ``key`` (family, kind, rotation, size): read from the cache's
    folder, or drawn by ``draw`` and written there for the other processes (PNG: lossless, so
    a picture is the same bytes whichever process drew its tiles)."""
    path = _tile_path(key)
    if path is not None:
        try:
            with Image.open(path) as image:
                image.load()
                return image.copy()
        except (OSError, ValueError, SyntaxError):
            pass  # not drawn yet (or damaged): draw it and write it again
    art = draw()
    if path is not None:
        out = io.BytesIO()
        art.save(out, format="PNG")
        try:
            _write(path, out.getvalue())
        except OSError as error:  # a full or read-only disk: the picture is still right
            log.debug("tile %s not cached: %s", key, error)
    return art


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
    for name in tiles.TILE_SETS:
        for kind in tiles.kinds_by_name(name).values():
            for rotation in (0, 90, 180, 270):
                tileart.tile_image(kind.oriented(rotation), 64)
    for key in PALETTES:
        encode.shared_palette(key)
    if _folder is not None:
        _write(_folder / LAYOUTS, pickle.dumps({k: dict(v) for k, v in _tables().items()}))
        for key in PALETTES:
            out = io.BytesIO()
            encode._PALETTES[key].save(out, format="PNG")
            _write(_folder / f"palette-{key}.png", out.getvalue())
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
