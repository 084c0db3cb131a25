"""Traders & Builders (RULES.md section 5): goods, builders and pigs, a Carcassonne plug-in."""

from engine.carcassonne.traders_builders.plugin import TradersBuilders
from engine.core.expansion import register_expansion
from engine.core.game import Game
from engine.core.tiles import register_tile_set

register_tile_set("traders_builders", __name__)
register_expansion("carcassonne", TradersBuilders)

__all__ = ["TradersBuilders", "goods", "of"]


def of(game: Game) -> TradersBuilders:
    """The Traders & Builders state of ``game`` (which must be played with it)."""
    plugin = game.plugins[TradersBuilders.name]
    assert isinstance(plugin, TradersBuilders)
    return plugin


def goods(game: Game, player: int) -> dict[str, int]:
    """``player``'s goods tokens (wine, grain, cloth -> count); all 0 without the expansion."""
    plugin = game.plugins.get(TradersBuilders.name)
    if not isinstance(plugin, TradersBuilders):
        return {}
    return dict(plugin.goods[player])
