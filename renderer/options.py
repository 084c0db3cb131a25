"""Render options and the few words the images print, in English and French.

The bot passes a :class:`RenderOptions` (language, tile size, size cap); every image reads its
words from :data:`LABELS`, so adding a language is adding one dict.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_TILE = 96

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "tiles_left": "Tiles left: {n}",
        "points": "{n} pts",
        "road": "Roads",
        "city": "Cities",
        "cloister": "Cloisters",
        "field": "Farms",
        "barn": "Barns",
        "final": "Final scores",
        "winner": "Winner: {names}",
        "winners": "Winners: {names}",
        "rotations": "{tile}: rotations that fit",
        "no_rotation": "{tile} fits nowhere",
        "turn": "Turn {n}",
        "follower": "followers",
        "bonus_left": "Bonus tiles: {n}",
    },
    "fr": {
        "tiles_left": "Tuiles restantes : {n}",
        "points": "{n} pts",
        "road": "Routes",
        "city": "Villes",
        "cloister": "Abbayes",
        "field": "Prés",
        "barn": "Fermes",
        "final": "Scores finaux",
        "winner": "Gagnant : {names}",
        "winners": "Gagnants : {names}",
        "rotations": "{tile} : orientations possibles",
        "no_rotation": "{tile} ne se pose nulle part",
        "turn": "Tour {n}",
        "follower": "partisans",
        "bonus_left": "Tuiles bonus : {n}",
    },
}


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

    def text(self, key: str, **values: object) -> str:
        """A label in the chosen language (English when the language or key is unknown)."""
        table = LABELS.get(self.lang, LABELS["en"])
        template = table.get(key) or LABELS["en"].get(key, key)
        return template.format(**values)
