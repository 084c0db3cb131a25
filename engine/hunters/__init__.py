"""Hunters & Gatherers (standalone): its tiles (a documented reconstruction) and its rules."""

from engine.core.tiles import register_tile_set
from engine.hunters.game import HuntersGame

register_tile_set("hunters", __name__)

__all__ = ["HuntersGame"]
