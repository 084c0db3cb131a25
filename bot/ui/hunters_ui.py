"""Hunters & Gatherers in Discord: the bonus tile inside the turn, figure hints, final breakdown.

The turn flow is the base game's (square, rotation, figure, confirm); what differs is said here:

- After a placement completes a forest holding gold, the engine keeps the same player and the same
  turn number and asks for a tile again: the bonus tile. The narration says "Gold!", the next turn
  message says "Bonus tile B05: place it now, it is still your turn" and offers its squares like
  any tile. The turn stamp is unchanged and the phase is a tile phase again: the previous message
  loses its components, and a stale confirm of the first placement is refused by the engine (its
  square is taken), so nothing can be played twice.
- The figure step names each choice by role (hunter, gatherer, fisher, hut) and the first step of
  a turn says where each role goes.
- The final message breaks each score into rivers, forests, huts and hunting, with the gold (bonus
  tiles) each player won.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import language
from engine import Game

if TYPE_CHECKING:
    pass

GAME = "hunters"

TEXTS: dict[str, tuple[str, str]] = {
    "roles": (
        "Men: hunter on a meadow (scores its game at the end), gatherer on a forest, fisher on a "
        "river. Hut on a river or lake: its river system's fish at the end.",
        "Hommes : chasseur sur un pré (son gibier compte à la fin), cueilleur sur une forêt, "
        "pêcheur sur une rivière. Hutte sur une rivière ou un lac : les poissons de son réseau "
        "à la fin.",
    ),
}


def say(key: str, locale: str | None, **params: Any) -> str:
    en, fr = TEXTS[key]
    return (fr if language(locale) == "fr" else en).format(**params)


def is_hunters(game: Game | None) -> bool:
    return game is not None and game.setup.game == GAME


def in_bonus(game: Game) -> bool:
    """Whether the tile to place now is a bonus tile (earned by gold in this same turn)."""
    return is_hunters(game) and bool(getattr(game, "in_bonus", False))


def step_lines(game: Game, locale: str) -> list[str]:
    """A reminder of where each role goes, under the figure menu of an H&G placement."""
    if not is_hunters(game) or not game.legal_figures():
        return []
    return [say("roles", locale)]
