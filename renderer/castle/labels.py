"""The words The Castle's images print, in English and French, and its chart colours."""

from __future__ import annotations

import catalogs
from renderer import palette as pal
from renderer.options import RenderOptions

#: The end chart's categories (the engine's breakdown keys), in scoring order.
CATEGORIES = ("path", "tower", "house", "courtyard", "palace", "wall")
CATEGORY_COLOURS: dict[str, pal.RGB] = {
    "path": (200, 170, 120),
    "tower": (120, 120, 128),
    "house": pal.ROOF,
    "courtyard": (96, 156, 60),
    "palace": (150, 100, 170),
    "wall": (90, 66, 44),
}


def text(options: RenderOptions, key: str, **values: object) -> str:
    """A castle label in the options' language (English when missing)."""
    return catalogs.text("castle_picture", key, options.lang, **values)


def category_names(options: RenderOptions) -> dict[str, str]:
    """Chart legend names of the castle's scoring categories."""
    return {c: text(options, "palace_cat" if c == "palace" else c) for c in CATEGORIES}
