"""Following a game without playing: ``/carcassonne follow`` and ``unfollow``.

A public game's follower is added to its thread at once. For a private game the command posts a
request in the game's thread with **Let in** / **Refuse** buttons (``cc:follow:GAME:USER:yes|no``,
so they work after a restart): the first player still playing who lets the asker in adds them to
the thread; each refusal is told to the asker by DM, and once every player refused the request
closes. Only the players may answer (anyone else's click is refused like on a turn button), and
followers never get turn controls: every turn component checks the seat of who clicks.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

import discord

from bot.i18n import shown_name
from bot.storage import GameRow
from bot.ui import ids
from bot.ui.components import IdButton
from bot.ui.errors import UIError
from bot.ui.texts import player_locale, tr
from bot.ui.timing.heads_up import thread_link
from bot.ui.turn import post

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)
QUIET = discord.AllowedMentions.none()


def _bot(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


async def _thread(bot: CarcassonneBot, row: GameRow) -> discord.Thread:
    channel = await post.game_channel(bot, row)
    if not isinstance(channel, discord.Thread):
        raise UIError("no_game_here")
    return channel


async def follow(interaction: discord.Interaction, row: GameRow) -> None:
    """Follow ``row``: into its thread at once, or (a private game) ask its players."""
    bot = _bot(interaction)
    user = interaction.user
    locale = player_locale(interaction, row.locale)
    await interaction.response.defer(ephemeral=True, thinking=True)
    row, status = await bot.manager.watch.follow(row.id, user.id)
    thread = await _thread(bot, row)
    if status == "asked":
        text = tr("follow_request", row.locale or "en", asker=user.mention)
        await thread.send(text, view=request_view(row, user.id), allowed_mentions=QUIET)
        log.info("user %s asks to follow private game %s", user.id, row.id)
    if status in ("following", "already"):
        try:
            await thread.add_user(user)
        except discord.HTTPException as error:
            log.warning("could not add user %s to game %s's thread: %s", user.id, row.id, error)
            if status == "following":
                await bot.manager.watch.unfollow(row.id, user.id)
            raise UIError("follow_failed", game_id=row.id) from None
    key = {
        "following": "follow_done",
        "already": "follow_already",
        "asked": "follow_asked",
        "waiting": "follow_waiting",
    }[status]
    reply = tr(key, locale, game_id=row.id, thread=thread.mention)
    await interaction.followup.send(reply, ephemeral=True)


async def unfollow(interaction: discord.Interaction, row: GameRow) -> None:
    """Stop following ``row`` (or withdraw a request): out of its thread."""
    bot = _bot(interaction)
    user = interaction.user
    locale = player_locale(interaction, row.locale)
    await interaction.response.defer(ephemeral=True, thinking=True)
    row = await bot.manager.watch.unfollow(row.id, user.id)
    key = "unfollow_done"
    if row.seat_of(user.id) is None and row.thread_id is not None:
        try:  # needs Manage Threads, except in the private threads the bot made
            await (await _thread(bot, row)).remove_user(user)
        except (discord.HTTPException, UIError) as error:
            log.info("user %s not removed from game %s's thread: %s", user.id, row.id, error)
            key = "unfollow_leave"
    await interaction.followup.send(tr(key, locale, game_id=row.id), ephemeral=True)


def request_view(row: GameRow, asker: int) -> discord.ui.View:
    locale = row.locale or "en"
    view = discord.ui.View(timeout=None)
    let_in, refuse = (ids.FollowAnswer(row.id, asker, yes) for yes in (True, False))
    view.add_item(FollowButton(let_in, tr("follow_accept", locale), discord.ButtonStyle.success))
    view.add_item(FollowButton(refuse, tr("follow_refuse", locale), discord.ButtonStyle.secondary))
    return view


async def tell(bot: CarcassonneBot, user_id: int, text: str) -> None:
    """A DM to the asker; closed DMs are logged (the thread shows the answer too)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(text)
    except discord.HTTPException as error:
        log.info("no follow answer DM for user %s: %s", user_id, error)


async def on_button(interaction: discord.Interaction, game_id: int, asker: int, yes: bool) -> None:
    """A player's answer to a request to follow their private game."""
    bot = _bot(interaction)
    watch = bot.manager.watch
    player = interaction.user
    name = shown_name(player.display_name)
    if yes:
        row = await watch.accept(game_id, asker, player.id)
        await interaction.response.defer()
        locale = row.locale or "en"
        text = tr("follow_let_in", locale, player=name, asker=f"<@{asker}>")
        await interaction.edit_original_response(content=text, view=None)
        try:
            await (await _thread(bot, row)).add_user(discord.Object(asker))
        except discord.HTTPException as error:
            log.warning("could not add user %s to game %s's thread: %s", asker, game_id, error)
        settings = await bot.manager.records.user_settings(asker)
        dm_locale = settings.locale or locale
        link = thread_link(row)
        await tell(
            bot,
            asker,
            tr("follow_accepted_dm", dm_locale, player=name, game_id=game_id, link=link),
        )
        return
    refusal = await watch.refuse(game_id, asker, player.id)
    await interaction.response.defer()
    row = refusal.row
    locale = row.locale or "en"
    if refusal.closed:
        text = tr("follow_closed", locale, asker=f"<@{asker}>")
        await interaction.edit_original_response(content=text, view=None)
    else:
        refused = ", ".join(f"<@{u}>" for u in refusal.refused_by)
        lines = [
            tr("follow_request", locale, asker=f"<@{asker}>"),
            tr("follow_refused_so_far", locale, players=refused),
        ]
        await interaction.edit_original_response(
            content="\n".join(lines), view=request_view(row, asker)
        )
    dm_locale = (await bot.manager.records.user_settings(asker)).locale or locale
    told = [tr("follow_refused_dm", dm_locale, player=name, game_id=game_id)]
    if refusal.closed:
        told.append(tr("follow_over_dm", dm_locale))
    await tell(bot, asker, " ".join(told))


class FollowButton(IdButton[ids.FollowAnswer], kind=ids.FollowAnswer):
    """Let in / Refuse on a request to follow a private game (state in the id)."""

    action = "follow answer"

    async def answer(self, interaction: discord.Interaction, value: ids.FollowAnswer) -> None:
        await on_button(interaction, value.game, value.user, value.let_in)
