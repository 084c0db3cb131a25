"""Lobby seats and colours: each player picks a colour; the creator sets the seat order.

Everything is ephemeral and stateless: the choice so far travels in the components' ids
(``cc:lopt:12:seat_to:<user id>``), and every change goes through the manager, which checks
the lobby is still open, that the clicker may do it, and that a colour is free.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.errors import ColourTaken
from bot.lobby import COLOURS, player_names
from bot.storage import GameRow
from bot.ui import ids, images
from bot.ui.components import LobbyButton, LobbyOption
from bot.ui.errors import UIError
from bot.ui.texts import tr

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

_shuffle = random.SystemRandom()


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def colour_label(colour: str, locale: str) -> str:
    """A colour as players read it: its round emoji and its name, e.g. "🟢 green"."""
    style = images.STYLES.get(colour)
    emoji = images.EMOJI[style] if style is not None else "⚪"
    return f"{emoji} {tr(f'colour_{colour}', locale) if colour in COLOURS else colour}"


def seat_colour(row: GameRow, seat: int, locale: str) -> str:
    """The colour seat ``seat`` is drawn in, as :func:`colour_label` words."""
    return colour_label(images.colour_name(row, seat), locale)


def seat_order(row: GameRow) -> str:
    names = player_names(row.seats)
    return " · ".join(f"{s.seat + 1}. {names[s.seat]}" for s in row.seats)


# -- colours (any player) -------------------------------------------------------------------


def colour_view(row: GameRow, user_id: int, locale: str) -> discord.ui.View:
    names = player_names(row.seats)
    holders = {s.colour: names[s.seat] for s in row.seats}
    mine = next((s.colour for s in row.seats if s.user_id == user_id), None)
    options = []
    for colour in COLOURS:
        holder = holders.get(colour)
        note = None
        if colour == mine:
            note = tr("colour_yours", locale)
        elif holder is not None:
            note = tr("colour_taken_note", locale, player=holder)
        options.append(
            discord.SelectOption(
                label=colour_label(colour, locale),
                value=colour,
                description=note,
                default=colour == mine,
            )
        )
    menu: discord.ui.Select[Any] = discord.ui.Select(
        options=options, placeholder=tr("colour", locale)
    )
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyOption(ids.LobbyMenu(row.id, "colour"), menu))
    return view


async def open_colours(interaction: discord.Interaction, row: GameRow, locale: str) -> None:
    if row.seat_of(interaction.user.id) is None:
        raise UIError("colour_join_first", game_id=row.id)
    if row.kind not in images.STYLED_GAMES:
        raise UIError("colour_fixed")
    await interaction.response.send_message(
        tr("colour_intro", locale),
        view=colour_view(row, interaction.user.id, locale),
        ephemeral=True,
    )


async def choose_colour(
    interaction: discord.Interaction, row: GameRow, colour: str, locale: str
) -> GameRow:
    if row.seat_of(interaction.user.id) is None:
        raise UIError("colour_join_first", game_id=row.id)
    if colour not in COLOURS:
        raise UIError("stale")
    try:
        row = await bot_of(interaction).manager.lobbies.set_colour(
            row.id, interaction.user.id, colour
        )
    except ColourTaken:
        latest = await bot_of(interaction).manager.game(row.id)
        holder = next((s for s in latest.seats if s.colour == colour), None)
        name = player_names(latest.seats)[holder.seat] if holder else "?"
        label = colour_label(colour, locale)
        raise UIError("colour_taken_by", colour=label, player=name) from None
    await interaction.response.edit_message(
        content=tr("colour_saved", locale, colour=colour_label(colour, locale)),
        view=colour_view(row, interaction.user.id, locale),
    )
    return row


# -- seat order (the creator) -----------------------------------------------------------------


def seats_view(row: GameRow, locale: str, who: int | None = None) -> discord.ui.View:
    """Pick a player, then the seat to move them to; or shuffle; or go back to the options."""
    names = player_names(row.seats)
    view = discord.ui.View(timeout=None)
    players = [
        discord.SelectOption(
            label=f"{s.seat + 1}. {names[s.seat]}", value=str(s.user_id), default=s.user_id == who
        )
        for s in row.seats
    ]
    menu: discord.ui.Select[Any] = discord.ui.Select(
        options=players,
        placeholder=tr("seat_who", locale),
        row=0,
    )
    view.add_item(LobbyOption(ids.LobbyMenu(row.id, "seat_who"), menu))
    moving = row.seat_of(who) if who is not None else None
    if moving is not None:
        seats = [
            discord.SelectOption(label=tr("seat_option", locale, n=n + 1), value=str(n))
            for n in range(len(row.seats))
            if n != moving.seat
        ]
        to: discord.ui.Select[Any] = discord.ui.Select(
            options=seats,
            placeholder=tr("seat_to", locale, player=names[moving.seat]),
            row=1,
        )
        view.add_item(LobbyOption(ids.LobbyMenu(row.id, "seat_to", who), to))
    for op, key in (("shuffle", "shuffle"), ("back", "back_to_options")):
        item = LobbyButton(ids.LobbyOp(row.id, op), tr(key, locale), discord.ButtonStyle.secondary)
        item.item.row = 2
        view.add_item(item)
    return view


def seats_text(row: GameRow, locale: str) -> str:
    return tr("seats_intro", locale, order=seat_order(row))


def moved(row: GameRow, user_id: int, seat: int) -> list[int]:
    """The seat order (user ids) with ``user_id`` moved to ``seat`` (0-based)."""
    order = [s.user_id for s in row.seats]
    if user_id not in order or not 0 <= seat < len(order):
        raise UIError("stale")
    order.remove(user_id)
    order.insert(seat, user_id)
    return order


def shuffled(row: GameRow) -> list[int]:
    order = [s.user_id for s in row.seats]
    _shuffle.shuffle(order)
    return order
