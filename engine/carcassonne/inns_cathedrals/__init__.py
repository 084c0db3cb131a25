"""Inns & Cathedrals (RULES.md section 5): inns, cathedrals and the large follower, a Carcassonne
plug-in."""

from engine.carcassonne.inns_cathedrals.plugin import LARGE_FOLLOWER, NAME, InnsCathedrals
from engine.core.expansion import register_expansion
from engine.core.tiles import register_tile_set

register_tile_set(NAME, __name__)
register_expansion("carcassonne", InnsCathedrals)

__all__ = ["LARGE_FOLLOWER", "NAME", "InnsCathedrals"]
