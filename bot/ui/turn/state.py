"""Read-only game state for the Discord layer: a private engine copy and its turn view.

The manager owns the live game; the Discord layer gets its own copy (a fork) to draw prompts and
to try a placement before it is confirmed (which figure spots would the tile offer?), so the live
game is never touched. What the player in turn sees and may choose is the copy's turn view
(:mod:`bot.turn_view`), read by every prompt, menu and typed command.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, cast

import discord

from bot.errors import GameNotFound
from bot.lobby import player_names
from bot.manager import GameManager
from bot.outcomes import MoveResult, TurnView
from bot.storage import GameRow
from bot.turn_view import TurnScreen, turn_screen
from bot.ui import access
from bot.ui.errors import UIError
from bot.ui.texts import player_locale
from engine import Game

if TYPE_CHECKING:
    from bot.app import CarcassonneBot


@dataclass(frozen=True)
class Snapshot:
    """A game row, its decision, and a private engine copy to draw and try moves on."""

    row: GameRow
    view: TurnView
    game: Game | None

    @classmethod
    def after(cls, result: MoveResult) -> Snapshot:
        """The game after a move, from what the move returned (no second read)."""
        return cls(result.view.game, result.view, result.game)

    @cached_property
    def screen(self) -> TurnScreen:
        """The turn view: what the player in turn sees and may choose."""
        return turn_screen(self.require_game(), self.row.id)

    @property
    def names(self) -> tuple[str, ...]:
        return player_names(self.row.seats)

    @property
    def locale(self) -> str:
        return self.row.locale or "en"

    def require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError(f"game {self.row.id} has not started")
        return self.game


async def resolve(
    interaction: discord.Interaction, game: int | None, action: str | None
) -> GameRow:
    """The game named, else the one game of this thread or channel, once the policy lets the
    caller do ``action`` to it (None: only to find the context, such as help's language; a
    game of another server is then never found)."""
    manager = bot_of(interaction).manager
    if game is not None:
        row = await manager.game(game)
    else:
        channel_id = interaction.channel_id or 0
        rows = await manager.records.games_in_channel(channel_id)
        in_thread = [r for r in rows if r.thread_id == channel_id]
        rows = in_thread or rows
        if not rows:  # a finished game's own thread still answers for it
            ended = await manager.records.games_in_channel(channel_id, ("finished", "abandoned"))
            rows = [r for r in ended if r.thread_id == channel_id]
        if not rows:
            raise UIError("no_game_here")
        if len(rows) > 1:
            raise UIError("several_games", ids=", ".join(f"#{r.id}" for r in rows[:10]))
        row = rows[0]
    if action is not None:
        await access.authorise(interaction, action, row)
    elif row.guild_id is not None and row.guild_id != interaction.guild_id:
        raise GameNotFound(game_id=row.id)
    interaction.extras["locale"] = row.locale
    return row


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


async def current(
    interaction: discord.Interaction, game_id: int, turn: int, phase: str
) -> tuple[Snapshot, str]:
    """The game, checked: the stamp is current and the clicking user is the one to decide."""
    snap = await snapshot(bot_of(interaction).manager, game_id)
    interaction.extras["locale"] = snap.locale
    locale = player_locale(interaction, snap.locale)
    view = snap.view
    if view.finished or snap.row.status != "active":
        raise UIError("game_closed", game_id=game_id)
    if view.turn != turn or view.phase != phase:
        raise UIError("stale")
    if view.user_id != interaction.user.id:
        name = snap.names[view.seat] if view.seat is not None else "?"
        raise UIError("not_for_you", player=name)
    return snap, locale


async def snapshot(manager: GameManager, game_id: int) -> Snapshot:
    """The game as it is now, with a private copy of its engine state (a fork of the
    manager's, never the live one: pictures and previews may play on it)."""
    view, game = await manager.current(game_id)
    return Snapshot(view.game, view, game)
