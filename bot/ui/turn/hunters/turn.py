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

from typing import Any

import catalogs
from bot.turn_view import TurnScreen
from bot.ui.texts import tr
from bot.ui.turn import families
from engine import Game
from renderer.hunters.end import bonus_tiles_by_player

GAME = "hunters"


def say(key: str, locale: str | None, **params: Any) -> str:
    return catalogs.text("hunters_ui", key, locale, **params)


def is_hunters(game: Game | None) -> bool:
    return game is not None and game.setup.game == GAME


def place_key(screen: TurnScreen) -> str:
    """The bonus tile is asked for as such (it is still the same player's turn)."""
    return "bonus_place" if screen.bonus == "gold" else "turn_place"


def seat_notes(game: Game, locale: str) -> list[str]:
    """The gold each player won (bonus tiles), for the final table."""
    return [tr("final_gold", locale, n=n) for n in bonus_tiles_by_player(game)]


def step_lines(game: Game, locale: str) -> list[str]:
    """A reminder of where each role goes, under the figure menu of an H&G placement."""
    if not is_hunters(game) or not game.legal_figures():
        return []
    return [say("roles", locale)]


families.register(
    GAME, families.FamilyHooks(step_lines=step_lines, place_key=place_key, seat_notes=seat_notes)
)
