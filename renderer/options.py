"""Render options, and the words the images print (catalog context ``picture``).

The bot passes a :class:`RenderOptions` (language, tile size, size cap); every image reads its
words from the translation catalogs (:mod:`catalogs`), so adding a language is adding a catalog.
"""

from __future__ import annotations

from dataclasses import dataclass

import catalogs

DEFAULT_TILE = 96


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """How to draw: language, pixels per tile, and the largest side an image may have.

    When a board would be wider or taller than ``max_side``, tiles shrink (never below
    ``min_tile``) so every image stays phone-sized and well under Discord's upload limit.
    """

    lang: str = "en"
    tile_size: int = DEFAULT_TILE
    max_side: int = 1800
    min_tile: int = 48
    coordinates: bool = True
    panel: bool = True
    #: Phone pictures draw square letters and figures larger than the tile art alone would.
    label_scale: float = 1.0
    figure_scale: float = 1.0
    #: Cross out the dead squares: empty squares no tile left can fill (off in purist games).
    dead_squares: bool = False

    def count(self, key: str, n: int, **values: object) -> str:
        """A label with a number, in the plural form the language wants."""
        return catalogs.plural("picture", key, n, self.lang, **values)

    def text(self, key: str, **values: object) -> str:
        """A label in the chosen language (English when the language or key is unknown)."""
        return catalogs.text("picture", key, self.lang, **values)
