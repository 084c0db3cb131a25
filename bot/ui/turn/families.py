"""What a game family adds to the common turn flow, registered by the family's own UI module.

The common flow (:mod:`bot.ui.turn.flow`, :mod:`bot.ui.turn.post`) asks :func:`hooks` for the
game in play and never imports a family's module: The Castle's (:mod:`bot.ui.turn.castle.turn`)
registers its turn message, its step notes and its end-of-turn pass, Hunters & Gatherers'
(:mod:`bot.ui.turn.hunters.turn`) its bonus tile and final notes, when :func:`bot.ui.install`
imports them. A
new family or expansion with its own turn needs registers here the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import discord

    from bot.turn_view import TurnScreen
    from bot.ui.turn.state import Snapshot
    from engine import Game

Prompt = tuple[str, "discord.File", "discord.ui.View"]


async def _no_prompt(snap: Snapshot) -> Prompt | None:
    return None


def _no_lines(after: Game, locale: str) -> list[str]:
    return []


def _plain_place(screen: TurnScreen) -> str:
    return "turn_place"


def _no_notes(game: Game, locale: str) -> list[str] | None:
    return None


@dataclass(frozen=True)
class FamilyHooks:
    """``prompt``: the family's own turn message (None: the common one); ``step_lines``: notes for
    the placement step (given the game with the placement tried); ``place_key``: the catalog key
    of the line asking for the tile (a bonus tile is said otherwise); ``seat_notes``: one more
    note per seat in the final table (None: nothing)."""

    prompt: Callable[[Snapshot], Awaitable[Prompt | None]] = _no_prompt
    step_lines: Callable[[Game, str], list[str]] = _no_lines
    place_key: Callable[[TurnScreen], str] = _plain_place
    seat_notes: Callable[[Game, str], list[str] | None] = _no_notes


COMMON = FamilyHooks()
_HOOKS: dict[str, FamilyHooks] = {}


def register(family: str, hooks: FamilyHooks) -> None:
    _HOOKS[family] = hooks


def hooks(family: str) -> FamilyHooks:
    """The hooks of ``family`` (a game's ``setup.game``), the common ones when it has none."""
    return _HOOKS.get(family, COMMON)
