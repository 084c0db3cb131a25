"""Players' data on Discord: ``/carcassonne privacy`` (what the bot keeps about the caller and
for how long) and ``/carcassonne forget-me`` (erase it, after a confirmation button).

Both act on the caller alone (policy rows of scope ``self``): nobody can ask about, or erase,
another member's data, and the answers are private (ephemeral). The confirmation button answers
only the member who asked (its id names them). Forgetting goes through the manager
(:meth:`bot.manager.privacy.PrivacyOps.forget`); the running games they resigned from are
announced in their threads, as a resignation is, under their former name, and their lobbies'
messages are brought up to date.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.storage import GameRow, former_name
from bot.ui import access
from bot.ui.components import IdButton
from bot.ui.errors import UIError, guarded
from bot.ui.ids import ForgetAnswer
from bot.ui.limits import heavy
from bot.ui.lobby import lobby_ui
from bot.ui.texts import player_locale, tr, trn
from bot.ui.turn import post

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return interaction.client  # type: ignore[return-value]


def here_locale(interaction: discord.Interaction) -> str:
    return player_locale(interaction, interaction.extras.get("locale"))


def keeping(keep_days: int | None, locale: str) -> str:
    """How long the server keeps finished games, as a sentence."""
    if keep_days is None:
        return tr("privacy_keep_forever", locale)
    return trn("privacy_keep_days", keep_days, locale, days=keep_days)


async def privacy(interaction: discord.Interaction) -> None:
    """What is stored about the caller (counts of their own rows), and for how long."""
    manager = bot_of(interaction).manager
    locale = here_locale(interaction)
    data = await manager.privacy.personal_data(interaction.user.id)
    keep = None
    if interaction.guild_id is not None:
        keep = (await manager.records.guild_settings(interaction.guild_id)).keep_days
    text = tr(
        "privacy_notice",
        locale,
        games=data.games,
        running=data.running,
        stats=data.stats,
        leagues=data.leagues,
        placings=data.placings,
        follows=data.follows,
        settings=tr("privacy_yes" if data.settings else "privacy_no", locale),
        keep=keeping(keep, locale),
    )
    await interaction.response.send_message(text, ephemeral=True)


async def forget_me(interaction: discord.Interaction) -> None:
    """Ask before erasing: the two buttons answer only the caller."""
    locale = here_locale(interaction)
    user = interaction.user.id
    view = discord.ui.View(timeout=None)
    view.add_item(
        ForgetButton(
            ForgetAnswer(0, user, True), tr("forget_yes", locale), discord.ButtonStyle.danger
        )
    )
    view.add_item(
        ForgetButton(
            ForgetAnswer(0, user, False), tr("forget_no", locale), discord.ButtonStyle.secondary
        )
    )
    await interaction.response.send_message(tr("forget_confirm", locale), view=view, ephemeral=True)


class ForgetButton(IdButton[ForgetAnswer], kind=ForgetAnswer):
    """Forget me / Keep my data, under the question of ``/carcassonne forget-me``: no game to
    check, the caller's own data, and only the member the id names."""

    action = "forget answer"

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.value

        async def run(i: discord.Interaction) -> None:
            await access.authorise(i, self.action)
            if i.user.id != value.user:  # only the member who asked is ever forgotten
                raise UIError("forget_not_yours")
            await answer(i, value)

        await guarded(interaction, run)


async def answer(interaction: discord.Interaction, value: ForgetAnswer) -> None:
    locale = here_locale(interaction)
    if not value.agree:
        await interaction.response.edit_message(content=tr("forget_kept", locale), view=None)
        return
    await interaction.response.edit_message(content=tr("forget_working", locale), view=None)
    bot = bot_of(interaction)
    manager = bot.manager
    done = await manager.privacy.forget(value.user)
    if done.number is None:
        await interaction.edit_original_response(content=tr("forget_nothing", locale))
        return
    name = former_name(done.number)
    for game_id, result in done.resigned:
        try:
            await post.resigned(bot, game_id, result, name)
        except Exception:  # the erasure is done; a thread not told is only a stale message
            log.exception("game %s: the resignation of a forgotten player not announced", game_id)
    for row in done.lobbies:
        try:
            await _lobby_message(bot, await manager.game(row.id), name)
        except Exception:
            log.exception("lobby %s not brought up to date after forgetting a player", row.id)
    text = tr(
        "forget_done",
        locale,
        name=name,
        resigned=len(done.resigned),
        lobbies=len(done.lobbies),
        leagues=len(done.leagues),
    )
    await interaction.edit_original_response(content=text)


async def _lobby_message(bot: CarcassonneBot, row: GameRow, name: str) -> None:
    """A lobby the former player left (its seats now), or cancelled as its creator."""
    if row.status == "lobby":
        await lobby_ui.refresh_lobby(bot, row)
        return
    if row.channel_id is None or row.message_id is None:
        return
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    text = tr("lobby_cancelled", row.locale or "en", game_id=row.id, who=f"**{name}**")
    with contextlib.suppress(discord.HTTPException):  # the lobby message was deleted
        await message.edit(content=text, embed=lobby_ui.lobby_embed(row), view=None)


Command = app_commands.Command[Any, Any, Any]


def commands() -> list[Command]:
    """Fresh command objects (a command belongs to one group, and each bot builds its own)."""

    @app_commands.command(
        name=_("privacy"), description=_("What this bot keeps about you, and for how long")
    )
    @heavy
    async def privacy_command(interaction: discord.Interaction) -> None:
        await privacy(interaction)

    @app_commands.command(
        name=_("forget-me"), description=_("Erase your data on this bot (asks you first)")
    )
    @heavy
    async def forget_me_command(interaction: discord.Interaction) -> None:
        await forget_me(interaction)

    return [privacy_command, forget_me_command]


def register(group: app_commands.Group) -> None:
    """Add the players' data commands to the ``/carcassonne`` group."""
    for command in commands():
        group.add_command(command)
