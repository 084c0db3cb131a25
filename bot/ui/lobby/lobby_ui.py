"""The lobby message (Join / Leave / Start / Options) and the start of a game in its thread.

The lobby message always shows the stored lobby: after each button it is redrawn from the row
the manager returns, so two players joining at once both end up listed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

import discord

import catalogs
from bot import lobby
from bot.i18n import digits
from bot.storage import GameRow, who
from bot.ui import components, ids, images
from bot.ui.clocks import chess_timing, timing_summary
from bot.ui.errors import UIError
from bot.ui.lobby import lobby_seats
from bot.ui.texts import game_title, player_locale, tr
from bot.ui.timing import chess_clock
from bot.ui.turn import post
from bot.ui.turn.state import snapshot

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: Lobby options: name -> ((value, English label, French label), ...); first is the default.
#: The lobby's option menus: each option's values, the first being the default; their labels are
#: in the catalogs (context ``lobby_option``, key ``option.value``).
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "small_city": ("classic", "modern"),
    "farmers": ("classic", "classic4", "modern"),
    "incomplete": ("standard", "half"),
    "hand": ("no", "yes"),
}


#: Carcassonne's expansions, in the order the lobby lists and stores them; any may be combined
#: (one menu with 0 to 4 values).
EXPANSION_CHOICES: tuple[str, ...] = (
    "abbey_mayor",
    "inns_cathedrals",
    "traders_builders",
    "river",
)


def option_label(name: str, value: str, locale: str | None) -> str:
    return catalogs.text("lobby_option", f"{name}.{value}", locale)


def expansions_label(expansions: tuple[str, ...], locale: str | None) -> str:
    """The expansions of a lobby in words: "Abbey & Mayor + The River", or "No expansion"."""
    if not expansions:
        return option_label("expansion", "none", locale)
    return " + ".join(catalogs.text("expansion", name, locale) for name in expansions)


def ordered_expansions(chosen: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The chosen expansions in the lobby's order, each once; an unknown one is a stale menu."""
    if any(name not in EXPANSION_CHOICES for name in chosen):
        raise UIError("stale")
    return tuple(name for name in EXPANSION_CHOICES if name in chosen)


#: Game threads archive after the longest inactivity Discord allows (7 days, in minutes); the next
#: turn message unarchives them (see :func:`bot.ui.turn.post.game_channel`).
ARCHIVE_MINUTES: Final = 10080


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def setup_summary(row: GameRow, locale: str) -> str:
    privacy = tr("private_game" if row.private else "public_game", locale)
    if row.purist:  # no tiles left shown, no dead squares marked
        privacy = f"{tr('purist_game', locale)} · {privacy}"
    if row.kind == "castle":  # no options; its castle and tiles are a reconstruction
        title = f"{tr('castle_game', locale)} ({tr('castle_reconstructed', locale)})"
        return f"{title} · {privacy}"
    if row.kind == "hunters":  # no options; its deck is a reconstruction
        title = f"{tr('hunters_game', locale)} ({tr('hunters_reconstructed', locale)})"
        return f"{title} · {privacy}"
    parts = [expansions_label(tuple(row.expansions), locale)]
    values = {k: str(v).lower() for k, v in row.options.items()}
    values["hand"] = "yes" if row.options.get("hand") else "no"
    for name, choices in OPTION_CHOICES.items():
        chosen = values.get(name, choices[0])
        if chosen in choices:
            parts.append(option_label(name, chosen, locale))
    parts.append(privacy)
    return " · ".join(parts)


def lobby_embed(row: GameRow) -> discord.Embed:
    locale = row.locale or "en"
    owner = who(row.owner_id)
    embed = discord.Embed(
        title=tr("lobby_title", locale, title=game_title(row, locale), game_id=row.id),
        description=tr("lobby_body", locale, owner=owner),
        colour=discord.Colour.dark_green(),
    )
    embed.add_field(name=tr("lobby_setup", locale), value=setup_summary(row, locale), inline=False)
    players = "\n".join(
        f"{s.seat + 1}. {s.mention} {lobby_seats.seat_colour(row, s.seat, locale)}"
        for s in row.seats
    )
    embed.add_field(
        name=tr("lobby_players", locale, count=len(row.seats), max=row.max_players),
        value=players or "-",
        inline=False,
    )
    timing = timing_summary(row.turn_seconds, row.timeout_policy, locale)
    if row.clock_bank is not None:
        timing = chess_timing(row, locale)
    embed.add_field(name=tr("lobby_timing", locale), value=timing, inline=False)
    return embed


def lobby_view(row: GameRow) -> discord.ui.View:

    locale = row.locale or "en"
    view = discord.ui.View(timeout=None)
    for op, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
        ("start", discord.ButtonStyle.primary),
        ("options", discord.ButtonStyle.secondary),
        ("colour", discord.ButtonStyle.secondary),
        ("computer", discord.ButtonStyle.secondary),
        ("clock", discord.ButtonStyle.secondary),
        ("cancel", discord.ButtonStyle.danger),
    ):
        if op != "colour" or row.kind in images.STYLED_GAMES:
            view.add_item(components.LobbyButton(ids.LobbyOp(row.id, op), tr(op, locale), style))
    return view


@components.handles(ids.LobbyOp)
async def on_button(interaction: discord.Interaction, game_id: int, op: str) -> None:
    manager = bot_of(interaction).manager
    row = await manager.game(game_id)
    interaction.extras["locale"] = row.locale
    locale = player_locale(interaction, row.locale)
    user = interaction.user
    if op == "join":
        row = await manager.lobbies.join(game_id, user.id, user.display_name)
    elif op == "leave":
        row = await manager.lobbies.leave(game_id, user.id)
    elif op == "options":
        if row.owner_id != user.id:
            raise UIError("options_not_owner", owner=f"<@{row.owner_id}>")
        await interaction.response.send_message(
            tr("options_intro", locale, game_id=game_id),
            view=options_view(row, locale),
            ephemeral=True,
        )
        return
    elif op == "colour":
        await lobby_seats.open_colours(interaction, row, locale)
        return
    elif op == "clock":
        if row.owner_id != user.id:
            raise UIError("options_not_owner", owner=f"<@{row.owner_id}>")
        await chess_clock.open_clock(interaction, row, locale)
        return
    elif op == "computer":
        if row.owner_id != user.id:
            raise UIError("options_not_owner", owner=f"<@{row.owner_id}>")
        await interaction.response.send_message(
            computers_text(row, locale), view=computers_view(row, locale), ephemeral=True
        )
        return
    elif op in ("hand", "purist", "seats", "shuffle", "back"):
        await creator_button(interaction, row, op, locale)
        return
    elif op == "start" and len(row.seats) < 2 and row.owner_id == user.id and row.kind != "castle":
        # Starting alone is allowed (a solo game), but never by accident.
        confirm = discord.ui.View(timeout=None)
        label = tr("solo_start", locale)
        solo = ids.LobbyOp(row.id, "solo")
        confirm.add_item(components.LobbyButton(solo, label, discord.ButtonStyle.success))
        await interaction.response.send_message(
            tr("solo_confirm", locale, game_id=game_id), view=confirm, ephemeral=True
        )
        return
    elif op == "cancel":
        if row.owner_id != user.id:
            raise UIError("abandon_refused")
        row = await manager.abandon(game_id, user.id)
        log.info("lobby of game %s cancelled by %s", game_id, user.id)
        done = tr("lobby_cancelled", locale, game_id=game_id, who=user.mention)
        await interaction.response.edit_message(content=done, embed=lobby_embed(row), view=None)
        return
    elif op in ("start", "solo"):
        await interaction.response.defer()
        view = await manager.lobbies.start(game_id, user.id)
        await begin(bot_of(interaction), interaction, view.game)
        return
    await interaction.response.edit_message(embed=lobby_embed(row), view=lobby_view(row))
    done = "joined" if op == "join" else "left"
    await interaction.followup.send(tr(done, locale, game_id=game_id), ephemeral=True)


def options_view(row: GameRow, locale: str) -> discord.ui.View:

    current = {
        "hand": "yes" if row.options.get("hand") else "no",
        **{k: str(v) for k, v in row.options.items() if k != "hand"},
    }
    view = discord.ui.View(timeout=None)
    if row.kind == "carcassonne":
        view.add_item(expansions_menu(row, locale))
    # Only Carcassonne has these options (The Castle has none). The hand is a button below.
    for name, choices in OPTION_CHOICES.items() if row.kind == "carcassonne" else ():
        if name == "hand":
            continue
        options = [
            discord.SelectOption(
                label=option_label(name, value, locale),
                value=value,
                default=current.get(name, choices[0]) == value,
            )
            for value in choices
        ]
        menu: discord.ui.Select[Any] = discord.ui.Select(options=options)
        view.add_item(components.LobbyOption(ids.LobbyMenu(row.id, name), menu))
    for button in creator_buttons(row, locale):
        view.add_item(button)
    return view


def expansions_menu(row: GameRow, locale: str) -> components.LobbyOption:
    """One menu of Carcassonne's expansions: none, any or all of them."""
    options = [
        discord.SelectOption(
            label=catalogs.text("expansion", name, locale),
            value=name,
            default=name in row.expansions,
        )
        for name in EXPANSION_CHOICES
    ]
    menu: discord.ui.Select[Any] = discord.ui.Select(
        options=options,
        min_values=0,
        max_values=len(options),
        placeholder=option_label("expansion", "none", locale),
    )
    return components.LobbyOption(ids.LobbyMenu(row.id, "expansions"), menu)


def creator_buttons(row: GameRow, locale: str) -> list[Any]:
    """The options' last row: the tactical hand on or off, purist on or off (every game), and
    the seat order."""

    found = []
    if row.kind == "carcassonne":
        on = bool(row.options.get("hand"))
        label = tr("hand_on" if on else "hand_off", locale)
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        found.append(components.LobbyButton(ids.LobbyOp(row.id, "hand"), label, style))
    label = tr("purist_on" if row.purist else "purist_off", locale)
    style = discord.ButtonStyle.success if row.purist else discord.ButtonStyle.secondary
    found.append(components.LobbyButton(ids.LobbyOp(row.id, "purist"), label, style))
    seats = ids.LobbyOp(row.id, "seats")
    found.append(components.LobbyButton(seats, tr("seats", locale), discord.ButtonStyle.secondary))
    for item in found:
        item.item.row = 4
    return found


async def creator_button(
    interaction: discord.Interaction, row: GameRow, op: str, locale: str
) -> None:
    """The creator's buttons in the options message: hand, purist, seats, shuffle, back."""
    if row.owner_id != interaction.user.id:
        raise UIError("options_not_owner", owner=f"<@{row.owner_id}>")
    manager = bot_of(interaction).manager
    user = interaction.user.id
    if op == "hand":
        row = await manager.lobbies.configure(
            row.id, user, options={"hand": not row.options.get("hand")}
        )
    elif op == "purist":
        row = await manager.lobbies.configure(row.id, user, purist=not row.purist)
    elif op == "shuffle":
        row = await manager.lobbies.configure(row.id, user, seat_order=lobby_seats.shuffled(row))
    if op in ("seats", "shuffle"):
        await interaction.response.edit_message(
            content=lobby_seats.seats_text(row, locale), view=lobby_seats.seats_view(row, locale)
        )
    else:
        key = "options_saved" if op in ("hand", "purist") else "options_intro"
        await interaction.response.edit_message(
            content=tr(key, locale, game_id=row.id), view=options_view(row, locale)
        )
    if op in ("hand", "purist", "shuffle"):
        await refresh_lobby(bot_of(interaction), row)


def option_change(name: str, value: str) -> dict[str, Any]:
    """The manager's ``configure`` arguments for one lobby option."""
    if name == "expansion":  # the single menu of lobby messages posted before there were more
        return {"expansions": () if value == "none" else ordered_expansions([value])}
    if name == "hand":
        return {"options": {"hand": value == "yes"}}
    return {"options": {name: value}}


@components.handles(ids.LobbyMenu)
async def on_option(
    interaction: discord.Interaction,
    game_id: int,
    name: str,
    values: list[str],
    arg: int | None = None,
) -> None:
    if name in ("colour", "seat_who", "seat_to") and values:
        await on_seat_option(interaction, game_id, name, values[0], arg)
        return
    if name in ("computer_add", "computer_remove") and values:
        await on_computer_option(interaction, game_id, name, values[0])
        return
    if name == "clock" and values:
        row = await chess_clock.choose_clock(interaction, game_id, values[0])
        await refresh_lobby(bot_of(interaction), row)
        return
    manager = bot_of(interaction).manager
    if name == "expansions":  # a menu of 0 to 4 values: every expansion chosen at once
        change: dict[str, Any] = {"expansions": ordered_expansions(values)}
    elif (name in OPTION_CHOICES or name == "expansion") and values:
        change = option_change(name, values[0])
    else:
        raise UIError("stale")
    row = await manager.lobbies.configure(game_id, interaction.user.id, **change)
    locale = player_locale(interaction, row.locale)
    await interaction.response.edit_message(
        content=tr("options_saved", locale), view=options_view(row, locale)
    )
    await refresh_lobby(bot_of(interaction), row)


async def on_seat_option(
    interaction: discord.Interaction, game_id: int, name: str, value: str, arg: int | None
) -> None:
    """A colour picked by a player, or a seat move by the creator (player, then seat)."""
    manager = bot_of(interaction).manager
    row = await manager.game(game_id)
    interaction.extras["locale"] = row.locale
    locale = player_locale(interaction, row.locale)
    if name == "colour":
        row = await lobby_seats.choose_colour(interaction, row, value, locale)
        await refresh_lobby(bot_of(interaction), row)
        return
    if row.owner_id != interaction.user.id:
        raise UIError("options_not_owner", owner=f"<@{row.owner_id}>")
    if name == "seat_who":
        if not digits(value):
            raise UIError("stale")
        await interaction.response.edit_message(
            content=lobby_seats.seats_text(row, locale),
            view=lobby_seats.seats_view(row, locale, who=int(value)),
        )
        return
    if arg is None or not digits(value):
        raise UIError("stale")
    order = lobby_seats.moved(row, arg, int(value))
    row = await manager.lobbies.configure(game_id, interaction.user.id, seat_order=order)
    await interaction.response.edit_message(
        content=lobby_seats.seats_text(row, locale), view=lobby_seats.seats_view(row, locale)
    )
    await refresh_lobby(bot_of(interaction), row)


def level_word(level: str, locale: str) -> str:
    return tr(f"level_{level}", locale)


def computer_namer(locale: str) -> Callable[[int, str], str]:
    """Names of computer seats in ``locale`` from their number and level: "Bot 1 (Easy)", short
    so that two computers stay apart where a phone cuts names. An unknown level (refused later
    by the manager) is shown as given."""

    def name(number: int, level: str) -> str:
        word = level_word(level, locale) if level in lobby.COMPUTER_LEVELS else level
        return tr("computer_name", locale, n=number, level=word)

    return name


def computers_text(row: GameRow, locale: str) -> str:
    """The creator's computer players message: what the levels are, who is seated."""
    seated = [s for s in row.seats if s.computer]
    lines = [tr("computers_intro", locale, game_id=row.id)]
    if seated:
        lines.append(tr("computers_seated", locale, names=", ".join(s.name for s in seated)))
    return "\n".join(lines)


def computers_view(row: GameRow, locale: str) -> discord.ui.View:
    """A menu of levels to seat a computer player, and one of computers to take out."""
    view = discord.ui.View(timeout=None)
    if len(row.seats) < row.max_players:
        levels = [
            discord.SelectOption(
                label=level_word(level, locale),
                value=level,
                description=tr(f"level_{level}_about", locale)[:100],
            )
            for level in lobby.COMPUTER_LEVELS
        ]
        add: discord.ui.Select[Any] = discord.ui.Select(
            options=levels,
            placeholder=tr("computer_add", locale),
        )
        view.add_item(components.LobbyOption(ids.LobbyMenu(row.id, "computer_add"), add))
    seated = [s for s in row.seats if s.computer]
    if seated:
        remove: discord.ui.Select[Any] = discord.ui.Select(
            options=[discord.SelectOption(label=s.name, value=str(s.seat)) for s in seated],
            placeholder=tr("computer_remove", locale),
        )
        view.add_item(components.LobbyOption(ids.LobbyMenu(row.id, "computer_remove"), remove))
    return view


async def on_computer_option(
    interaction: discord.Interaction, game_id: int, name: str, value: str
) -> None:
    """The creator seats a computer player at a level, or takes one out."""
    manager = bot_of(interaction).manager
    row = await manager.game(game_id)
    locale = player_locale(interaction, row.locale)
    if row.owner_id != interaction.user.id:
        raise UIError("options_not_owner", owner=f"<@{row.owner_id}>")
    user = interaction.user.id
    if name == "computer_add":
        namer = computer_namer(row.locale or "en")
        seat_name = lobby.computer_name(row, lambda n: namer(n, value))
        row = await manager.lobbies.add_computer(game_id, user, value, seat_name)
    else:
        if not digits(value):
            raise UIError("stale")
        row = await manager.lobbies.remove_computer(game_id, user, int(value))
    await interaction.response.edit_message(
        content=computers_text(row, locale), view=computers_view(row, locale)
    )
    await refresh_lobby(bot_of(interaction), row)


async def refresh_lobby(bot: CarcassonneBot, row: GameRow) -> None:
    if row.channel_id is None or row.message_id is None:
        return
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    with contextlib.suppress(discord.HTTPException):  # the lobby message was deleted
        await message.edit(embed=lobby_embed(row), view=lobby_view(row))


async def begin(bot: CarcassonneBot, interaction: discord.Interaction, row: GameRow) -> None:
    """Open the game's thread (private for private games), then post the first turn."""
    locale = row.locale or "en"
    name = tr("thread_name", locale, title=game_title(row, locale), game_id=row.id)
    channel = interaction.channel
    clicked = interaction.message
    lobby = clicked if clicked is not None and clicked.id == row.message_id else None
    thread: discord.Thread
    if isinstance(channel, discord.Thread):
        thread = channel
    elif row.private and isinstance(channel, discord.TextChannel):
        thread = await channel.create_thread(
            name=name,
            type=discord.ChannelType.private_thread,
            invitable=False,
            auto_archive_duration=ARCHIVE_MINUTES,
        )
        for seat in row.seats:
            if seat.computer is None:
                await thread.add_user(discord.Object(seat.user_id))
    elif isinstance(channel, discord.TextChannel) and lobby is not None:
        thread = await lobby.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    elif isinstance(channel, discord.TextChannel):
        thread = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
        )
    else:
        raise UIError("guild_only")
    lobby_message = row.message_id
    await bot.manager.records.set_messages(row.id, thread_id=thread.id, message_id=None)
    started = tr("lobby_started", locale, where=thread.mention)
    if lobby is not None:
        await lobby.edit(content=started, embed=lobby_embed(row), view=None)
    elif lobby_message is not None and row.channel_id is not None and row.thread_id is None:
        # Started from the solo confirmation (a private message): the lobby is edited by id.
        message = bot.get_partial_messageable(row.channel_id).get_partial_message(lobby_message)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(content=started, embed=lobby_embed(row), view=None)
    players = ", ".join(s.mention for s in row.seats)
    snap = await snapshot(bot.manager, row.id)
    welcome = tr("welcome", locale, game_id=row.id, players=players)
    await post.announce(bot, snap, [], extra=[welcome])
