"""The finished tile pictures on disk, shared by the processes of a machine.

A tile picture (a family's tile kind in one rotation at one size) takes 10 to 50 ms to draw;
each render worker process would otherwise draw its own copy of every tile it meets. With a
``folder`` (set by :func:`renderer.artcache.enable`, inside the cache's versioned folder, so a
change of the art never reads a stale tile), :func:`tile` reads a tile another process drew, or
draws it and writes it there. PNG is lossless: a picture is the same bytes whichever process
drew its tiles. This module imports nothing of the renderer, so the tile art may use it.
"""

from __future__ import annotations

import io
import logging
import os
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path

from PIL import Image

log = logging.getLogger(__name__)

#: Where the tile pictures go (None: drawn in memory only).
folder: Path | None = None


def write(path: Path, data: bytes) -> None:
    """Write atomically: processes starting together never read half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(temp, path)


def path_of(key: tuple[Hashable, ...]) -> Path | None:
    """The file of the tile picture ``key`` (family, kind, rotation, size)."""
    if folder is None:
        return None
    name = "-".join(
        "".join(c if c.isalnum() else f"_{ord(c):x}" for c in str(part)) or "_" for part in key
    )
    return folder / f"{name}.png"


def tile(key: tuple[Hashable, ...], draw: Callable[[], Image.Image]) -> Image.Image:
    """The tile picture of ``key``: read from :data:`folder`, or drawn by ``draw`` and written
    there for the other processes (a damaged file is drawn and written again, never trusted)."""
    path = path_of(key)
    if path is not None:
        try:
            with Image.open(path) as image:
                image.load()
                return image.copy()
        except (OSError, ValueError, SyntaxError):
            pass  # not drawn yet, or damaged
    art = draw()
    if path is not None:
        out = io.BytesIO()
        art.save(out, format="PNG")
        try:
            write(path, out.getvalue())
        except OSError as error:  # a full or read-only disk: the picture is still right
            log.debug("tile %s not cached: %s", key, error)
    return art
