"""Undo as a conversation in the game's thread.

``/carcassonne undo`` takes back the asker's own last turn at once while nobody has acted since.
Any other undo is a request posted in the thread: it mentions the players who must agree and
carries Agree / Refuse buttons (``cc:undo:GAME:START:yes|no``, where ``START`` is the first action
of the turn asked about, so a request the game has moved past is refused as stale, also after a
restart). When everyone still playing has agreed, the whole turn is taken back and a new turn
message is posted; one refusal ends the request.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.i18n import shown_name
from bot.outcomes import UndoResult
from bot.storage import GameRow
from bot.ui import ids
from bot.ui.components import IdButton
from bot.ui.texts import tr
from bot.ui.turn import post
from bot.ui.turn.state import snapshot

if TYPE_CHECKING:
    from bot.app import CarcassonneBot


def _mentions(users: frozenset[int] | set[int]) -> str:
    return ", ".join(f"<@{u}>" for u in sorted(users))


def request_text(row: GameRow, result: UndoResult, asker: int) -> str:
    locale = row.locale or "en"
    seat = row.seat_of(result.by) if result.by is not None else None
    whose = seat.name if seat is not None else "?"
    missing = result.needed - result.votes
    return tr(
        "undo_request",
        locale,
        asker=f"<@{asker}>",
        whose=whose,
        agreed=_mentions(result.votes) or "-",
        missing=_mentions(missing) or "-",
    )


def request_view(row: GameRow, result: UndoResult) -> discord.ui.View:
    locale = row.locale or "en"
    view = discord.ui.View(timeout=None)
    agree, refuse = (ids.UndoAnswer(row.id, result.action_idx, yes) for yes in (True, False))
    view.add_item(UndoButton(agree, tr("undo_agree", locale), discord.ButtonStyle.success))
    view.add_item(UndoButton(refuse, tr("undo_refuse", locale), discord.ButtonStyle.danger))
    return view


async def ask(bot: CarcassonneBot, interaction: discord.Interaction, row: GameRow) -> None:
    """``/carcassonne undo``: take back one's own last turn, or ask the others in the thread."""
    manager = bot.manager
    user = interaction.user.id
    result = await manager.undo(row.id, user)
    locale = row.locale or "en"
    await told(bot, row, result, user, interaction.user.display_name)
    if result.undone:
        await interaction.followup.send(tr("undo_done", locale), ephemeral=True)
        return
    missing = _mentions(result.needed - result.votes)
    await interaction.followup.send(tr("undo_asked", locale, missing=missing), ephemeral=True)


async def post_request(bot: CarcassonneBot, row: GameRow, result: UndoResult, asker: int) -> None:
    """Post ``asker``'s undo request in the game's thread: who must agree, Agree / Refuse."""
    channel = await post.game_channel(bot, row)
    mentions = discord.AllowedMentions(users=list(map(discord.Object, result.needed)))
    await channel.send(
        request_text(row, result, asker),
        view=request_view(row, result),
        allowed_mentions=mentions,
    )


async def told(bot: CarcassonneBot, row: GameRow, result: UndoResult, user: int, name: str) -> None:
    """What the thread shows of ``user``'s undo (``name``: how they are shown): the turn
    message again when it was taken back, else the request to the others."""
    if result.undone:
        await taken_back(bot, row.id, name)
    else:
        await post_request(bot, row, result, user)


async def taken_back(bot: CarcassonneBot, game_id: int, name: str) -> None:
    """Post the turn message again after an undo, saying so."""
    snap = await snapshot(bot.manager, game_id)
    line = tr("undone", snap.locale, player=name)
    await post.announce(bot, snap, [], extra=[line])


async def on_button(
    interaction: discord.Interaction, game_id: int, start: int, agree: bool
) -> None:
    from bot.ui.access import bot_of

    bot = bot_of(interaction)
    manager = bot.manager
    await interaction.response.defer()
    row = await manager.game(game_id)
    locale = row.locale or "en"
    name = shown_name(interaction.user.display_name)
    if not agree:
        result = await manager.refuse_undo(game_id, interaction.user.id, start)
        await interaction.edit_original_response(
            content=tr("undo_refused", locale, player=name), view=None
        )
        return
    result = await manager.undo(game_id, interaction.user.id, request=start)
    if result.undone:
        asked = _mentions(result.votes)
        await interaction.edit_original_response(
            content=tr("undo_agreed", locale, players=asked), view=None
        )
        await taken_back(bot, game_id, name)
        return
    await interaction.edit_original_response(
        content=request_text(row, result, _asker(interaction.message) or interaction.user.id),
        view=request_view(row, result),
    )


def _asker(message: discord.Message | None) -> int | None:
    """The player who asked, as the request's first mention names them."""
    found = re.search(r"<@(\d+)>", message.content if message else "")
    return int(found[1]) if found else None


class UndoButton(IdButton[ids.UndoAnswer], kind=ids.UndoAnswer):
    """Agree / Refuse on an undo request (state in the id: game, turn's first action, answer)."""

    action = "undo answer"

    async def answer(self, interaction: discord.Interaction, value: ids.UndoAnswer) -> None:
        await on_button(interaction, value.game, value.start, value.agree)
