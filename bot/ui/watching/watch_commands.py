"""The watching commands of the ``/carcassonne`` group: ``follow`` and ``unfollow``.

:func:`register` adds them to the group (as :mod:`bot.ui.timing.pbp_commands` does its own); the
work is in :mod:`bot.ui.watching.follow`. The dashboard is an option of ``settings``
(:mod:`bot.ui.watching.dashboard`) and the heads-up DM one of ``reminders``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.ui.limits import GameNumber
from bot.ui.turn.state import resolve
from bot.ui.watching import follow

Command = app_commands.Command[Any, Any, Any]


def commands() -> list[Command]:
    """Fresh command objects (a command belongs to one group, and each bot builds its own)."""

    @app_commands.command(
        name=_("follow"), description=_("Follow a game without playing: join its thread")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def follow_command(
        interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        await follow.follow(interaction, await resolve(interaction, game, "carcassonne follow"))

    @app_commands.command(
        name=_("unfollow"), description=_("Stop following a game: leave its thread")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Game number (default: the game of this thread)"))
    async def unfollow_command(
        interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        await follow.unfollow(interaction, await resolve(interaction, game, "carcassonne unfollow"))

    return [follow_command, unfollow_command]


def register(group: app_commands.Group) -> None:
    """Add the watching commands to the ``/carcassonne`` group."""
    for command in commands():
        group.add_command(command)
