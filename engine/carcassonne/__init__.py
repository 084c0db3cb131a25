"""Carcassonne (base game): its tiles, its scoring, and its expansions (one package each)."""

from engine.carcassonne import abbey_mayor, inns_cathedrals, river, traders_builders
from engine.carcassonne.game import CarcassonneGame
from engine.core.tiles import register_tile_set

register_tile_set("base", __name__)

__all__ = ["CarcassonneGame", "abbey_mayor", "inns_cathedrals", "river", "traders_builders"]
