"""Abbey & Mayor (RULES.md section 2): abbeys, mayors, barns and wagons, a Carcassonne plug-in."""

from engine.carcassonne.abbey_mayor.plugin import AbbeyMayor
from engine.core.actions import MoveWagon, PlaceAbbey
from engine.core.expansion import register_expansion
from engine.core.game import FOREIGN_ACTIONS, Game
from engine.core.tiles import register_tile_set

register_tile_set("abbey_mayor", __name__)
register_expansion("carcassonne", AbbeyMayor)
for _action in (PlaceAbbey, MoveWagon):
    FOREIGN_ACTIONS[_action] = (
        "this game is played without the Abbey & Mayor expansion",
        "no_abbey_mayor",
    )

__all__ = ["AbbeyMayor"]


def of(game: Game) -> AbbeyMayor:
    """The Abbey & Mayor state of ``game`` (which must be played with it)."""
    plugin = game.plugins[AbbeyMayor.name]
    assert isinstance(plugin, AbbeyMayor)
    return plugin
