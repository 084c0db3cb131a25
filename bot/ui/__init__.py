"""The Discord layer: the ``/carcassonne`` commands, lobby and turn components, error handler.

:func:`install` wires it into a bot in ``setup_hook``: translator, command group, the persistent
components (matched by ``custom_id`` after a restart) and the central error handler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.app import CarcassonneBot


async def install(bot: CarcassonneBot) -> None:
    # The modules that answer components and add family hooks register themselves on import.
    from bot.ui.commands import CarcassonneGroup
    from bot.ui.components import DYNAMIC_ITEMS
    from bot.ui.errors import report
    from bot.ui.leagues.league_commands import install as install_leagues
    from bot.ui.live_board import LiveBoardButton
    from bot.ui.lobby import lobby_ui  # noqa: F401
    from bot.ui.privacy import ForgetButton
    from bot.ui.privacy import register as register_privacy
    from bot.ui.timing import pbp_commands
    from bot.ui.timing.chess_clock import PauseButton
    from bot.ui.tournaments.tournament_commands import install as install_tournaments
    from bot.ui.translator import Translator
    from bot.ui.turn import flow  # noqa: F401
    from bot.ui.turn.abandon import AbandonButton
    from bot.ui.turn.castle import turn as castle_turn  # noqa: F401
    from bot.ui.turn.hunters import turn as hunters_turn  # noqa: F401
    from bot.ui.turn.undo import UndoButton
    from bot.ui.watching import watch_commands
    from bot.ui.watching.follow import FollowButton

    await bot.tree.set_translator(Translator())
    group = CarcassonneGroup()
    pbp_commands.register(group)
    watch_commands.register(group)
    register_privacy(group)
    bot.tree.add_command(group)
    bot.add_dynamic_items(
        *DYNAMIC_ITEMS,
        UndoButton,
        AbandonButton,
        PauseButton,
        FollowButton,
        ForgetButton,
        LiveBoardButton,
    )
    await install_leagues(bot)
    await install_tournaments(bot)

    async def on_tree_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)

    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]
