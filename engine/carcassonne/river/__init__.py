"""The River (RULES.md section 5): the spring, the river tiles drawn first, the lake; a
Carcassonne plug-in."""

from engine.carcassonne.river.plugin import NAME, River
from engine.core.expansion import register_expansion
from engine.core.tiles import register_tile_set

register_tile_set(NAME, __name__)
register_expansion("carcassonne", River)

__all__ = ["NAME", "River"]
