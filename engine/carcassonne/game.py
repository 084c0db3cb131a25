"""Carcassonne, the base game (RULES.md section 1), on the common turn machine.

What is Carcassonne's own: its tiles (``base.toml``), seven followers each, the roles of a
follower (thief, knight, monk, farmer), the options of our French sources, and its scoring
(:mod:`engine.carcassonne.scoring`). Its expansions are plug-ins in packages beside this module.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.carcassonne import scoring
from engine.core.game import Game, register_game

FOLLOWERS = 7
ROLES = {"road": "thief", "city": "knight", "cloister": "monk", "field": "farmer"}
EDGE_WORDS = {"C": "city", "R": "road", "F": "field", "W": "river"}
#: Options: name -> (allowed values, default).
OPTIONS: dict[str, tuple[tuple[Any, ...], Any]] = {
    "small_city": (("classic", "modern"), "classic"),
    "farmers": (("classic", "classic4", "modern"), "classic"),
    "incomplete": (("standard", "half"), "standard"),
    "hand": ((False, True), False),
}


class CarcassonneGame(Game):
    """One game of Carcassonne, with the expansions its setup names."""

    edge_words: ClassVar[dict[str, str]] = EDGE_WORDS
    roles: ClassVar[dict[str, str]] = ROLES
    role_figures: ClassVar[frozenset[str]] = frozenset({"follower", "large_follower"})

    def tile_sets(self) -> tuple[str, ...]:
        return ("base",)

    def initial_supply(self) -> dict[str, int]:
        return {"follower": FOLLOWERS}

    def score_completed(self, touched: list[int]) -> None:
        scoring.score_completed(self, touched)

    def final_scoring(self) -> None:
        scoring.score_final(self)


register_game("carcassonne", CarcassonneGame, OPTIONS)
