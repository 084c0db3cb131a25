"""Stopping a game for good: ``/carcassonne abandon`` and its request to the players.

A lobby, or a game where the creator is the only one still playing, is stopped by its creator at
once; any game by a server admin (Manage Server) at once. A started game with other players is
abandoned when they all agree: the creator's command posts a request in the thread that mentions
them, with Agree / Refuse buttons (``cc:abandon:GAME:yes|no``, so they work after a restart).
The last Agree abandons the game; one Refuse drops the request. Every abandon is logged.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

import discord

from bot.i18n import shown_name
from bot.outcomes import AbandonVote
from bot.storage import GameRow
from bot.ui import ids
from bot.ui.components import IdButton
from bot.ui.errors import UIError
from bot.ui.texts import player_locale, tr
from bot.ui.turn import post

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)


def _mentions(users: frozenset[int]) -> str:
    return ", ".join(f"<@{u}>" for u in sorted(users)) or "-"


def _bot(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


async def command(interaction: discord.Interaction, row: GameRow) -> None:
    """``/carcassonne abandon``, once the game is resolved."""
    bot = _bot(interaction)
    user = interaction.user
    perms = interaction.permissions
    admin = bool(perms.manage_guild or perms.administrator)
    locale = player_locale(interaction, row.locale)
    # People still playing (computer players never need asking).
    playing = {s.user_id for s in row.seats if s.status == "playing" and s.computer is None}
    creator = row.owner_id == user.id
    at_once = admin or (creator and (row.status == "lobby" or playing <= {user.id}))
    if not at_once and not (creator and row.status == "active"):
        raise UIError("abandon_refused")  # before any answer: the refusal stays private
    await interaction.response.defer(ephemeral=True, thinking=True)
    if at_once:
        row = await bot.manager.abandon(row.id, user.id, admin=admin)
        await ended(bot, row, user.id, admin=admin)
        await interaction.followup.send(tr("abandon_done", locale, game_id=row.id), ephemeral=True)
        return
    vote = await bot.manager.vote_abandon(row.id, user.id)
    if vote.done:  # nobody else left to ask
        await ended(bot, vote.row, user.id, admin=False)
        await interaction.followup.send(tr("abandon_done", locale, game_id=row.id), ephemeral=True)
        return
    channel = await post.game_channel(bot, row)
    mentions = discord.AllowedMentions(users=[discord.Object(u) for u in vote.needed])
    await channel.send(request_text(row, vote), view=request_view(row), allowed_mentions=mentions)
    log.info("game %s: %s asks to abandon it", row.id, user.id)
    missing = _mentions(vote.needed - vote.votes)
    await interaction.followup.send(tr("abandon_asked", locale, missing=missing), ephemeral=True)


async def ended(bot: CarcassonneBot, row: GameRow, by: int, *, admin: bool) -> None:
    """Log the abandon, say it in the game's channel and take the menus off its last turn."""
    log.info("game %s abandoned by %s (admin=%s)", row.id, by, admin)
    if row.thread_id is None:
        return
    await post.retire_message(bot, row)
    channel = await post.game_channel(bot, row)
    public = tr("game_abandoned", row.locale or "en", game_id=row.id, who=f"<@{by}>")
    await channel.send(public, allowed_mentions=discord.AllowedMentions.none())


def request_text(row: GameRow, vote: AbandonVote) -> str:
    return tr(
        "abandon_request",
        row.locale or "en",
        asker=f"<@{row.owner_id}>",
        game_id=row.id,
        agreed=_mentions(vote.votes),
        missing=_mentions(vote.needed - vote.votes),
    )


def request_view(row: GameRow) -> discord.ui.View:
    locale = row.locale or "en"
    view = discord.ui.View(timeout=None)
    agree, refuse = (ids.AbandonAnswer(row.id, yes) for yes in (True, False))
    view.add_item(AbandonButton(agree, tr("undo_agree", locale), discord.ButtonStyle.danger))
    view.add_item(AbandonButton(refuse, tr("undo_refuse", locale), discord.ButtonStyle.secondary))
    return view


async def on_button(interaction: discord.Interaction, game_id: int, agree: bool) -> None:
    bot = _bot(interaction)
    await interaction.response.defer()
    name = shown_name(interaction.user.display_name)
    if not agree:
        row = await bot.manager.refuse_abandon(game_id, interaction.user.id)
        text = tr("abandon_refused_by", row.locale or "en", player=name, game_id=game_id)
        await interaction.edit_original_response(content=text, view=None)
        return
    vote = await bot.manager.vote_abandon(game_id, interaction.user.id)
    if vote.done:
        text = tr("abandon_agreed", vote.row.locale or "en", game_id=game_id)
        await interaction.edit_original_response(content=text, view=None)
        await ended(bot, vote.row, vote.row.owner_id, admin=False)
        return
    await interaction.edit_original_response(
        content=request_text(vote.row, vote), view=request_view(vote.row)
    )


class AbandonButton(IdButton[ids.AbandonAnswer], kind=ids.AbandonAnswer):
    """Agree / Refuse on a request to abandon a game (state in the id: game and answer)."""

    action = "abandon answer"

    async def answer(self, interaction: discord.Interaction, value: ids.AbandonAnswer) -> None:
        await on_button(interaction, value.game, value.agree)
