"""The central error handler: every failure becomes one short ephemeral message and a log line.

Commands reach it through the command tree's ``on_error``; components (whose errors discord.py
would only log) through :func:`guarded`. Players never see a traceback: known refusals are told
in their language, anything else is logged with its traceback and answered with an apology.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot import logs, metrics
from bot.errors import Conflict, CorruptGame, ManagerError
from bot.narrate import engine_error
from bot.ui.texts import player_locale, tr
from engine import GameError

log = logging.getLogger(__name__)


class UIError(app_commands.AppCommandError):
    """A refusal of the Discord layer itself, told with a key of :mod:`bot.ui.texts`.

    An ``AppCommandError`` so that command checks may raise it too."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def describe(error: BaseException, locale: str) -> tuple[str, int, str]:
    """The player's message for ``error``, the log level it deserves, and the reason it is
    counted under (:mod:`bot.metrics`): the message's key, one of a set the code names."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, UIError):
        return tr(error.key, locale, **error.params), logging.DEBUG, error.key
    if isinstance(error, CorruptGame):
        return error.message(locale), logging.ERROR, error.key
    if isinstance(error, ManagerError):
        level = logging.WARNING if isinstance(error, Conflict) else logging.INFO
        return error.message(locale), level, error.key
    if isinstance(error, GameError):
        return engine_error(error, locale), logging.INFO, f"rules.{error.code}"
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("guild_only", locale), logging.DEBUG, "guild_only"
    if isinstance(error, app_commands.MissingPermissions):
        return tr("manage_only", locale), logging.DEBUG, "manage_only"
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = max(1, math.ceil(error.retry_after))
        return tr("cooldown", locale, seconds=seconds), logging.DEBUG, "cooldown"
    return tr("unexpected", locale), logging.ERROR, "unexpected"


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the player what went wrong (ephemeral) and log it."""
    locale = player_locale(interaction, interaction.extras.get("locale"))
    text, level, reason = describe(error, locale)
    if metrics.ON:  # failed: an error logged with its traceback; else a refusal
        metrics.refused(reason, level >= logging.ERROR)
    where = interaction.command.qualified_name if interaction.command else interaction.data
    log.log(
        level,
        "interaction %s by %s refused: %s",
        where,
        interaction.user.id,
        error,
        exc_info=error if level >= logging.ERROR else None,
    )
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about %r", interaction.user.id, error)


async def guarded(
    interaction: discord.Interaction, run: Callable[[discord.Interaction], Awaitable[None]]
) -> None:
    """Run a component callback, reporting any error through :func:`report`."""
    logs.about(interaction=interaction.id, guild=interaction.guild_id)
    try:
        await run(interaction)
    except Exception as error:  # the central handler: nothing escapes unreported
        await report(interaction, error)
