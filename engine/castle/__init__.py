"""The Castle (2 players): the castle's geometry, its tiles, its walls and its rules."""

from engine.castle.game import CastleGame
from engine.core.tiles import register_tile_set

register_tile_set("castle", __name__)

__all__ = ["CastleGame"]
