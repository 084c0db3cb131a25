"""The chess clock of live games on Discord: its choice in the lobby, pauses by agreement.

The clock itself is shown in each turn message (:func:`bot.ui.clocks.chess_lines`); timeouts are
announced by the scheduler's notifier like play-by-post ones. Here:

- the lobby: ``/carcassonne new clock:`` or the lobby's Clock button (a menu of presets);
- ``/carcassonne away`` in a game with a chess clock asks its players to pause every clock: a
  request in the game's thread with Pause / Keep playing buttons (``cc:pause:GAME:yes|no``, so
  they work after a restart); the last Pause stops the clocks, one Keep playing drops the request;
  ``away 0`` (back) starts them again, as does the end of the asker's absence (the scheduler).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from bot.i18n import shown_name
from bot.manager.clock import PRESETS, PauseVote
from bot.storage import GameRow
from bot.ui import components, ids
from bot.ui.clocks import duration, stamp
from bot.ui.components import IdButton
from bot.ui.texts import player_locale, tr
from bot.ui.turn import post

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: ``/carcassonne new clock:`` (the lobby's Clock menu offers the same presets).
CLOCKS = [
    Choice(name=_("no chess clock"), value="off"),
    Choice(name=_("5 min + 10 s per turn"), value="5+10"),
    Choice(name=_("10 min + 20 s per turn"), value="10+20"),
    Choice(name=_("20 min + 30 s per turn"), value="20+30"),
]
QUIET = discord.AllowedMentions.none()


def clock_choice(value: str | None) -> dict[str, Any]:
    """``create_lobby`` arguments for the clock chosen on ``new`` (nothing if none chosen)."""
    if value is None:
        return {}
    return {"clock": PRESETS.get(value, (0, 0))}


def _bot(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def _mentions(users: frozenset[int]) -> str:
    return ", ".join(f"<@{u}>" for u in sorted(users)) or "-"


# -- the lobby ---------------------------------------------------------------------------------


def preset_label(value: str, locale: str) -> str:
    if value not in PRESETS:
        return tr("clock_off", locale)
    bank, increment = PRESETS[value]
    return tr("clock_preset", locale, bank=duration(bank, locale), increment=f"{increment} s")


def chosen_preset(row: GameRow) -> str:
    found = (row.clock_bank, row.clock_increment)
    return next((name for name, clock in PRESETS.items() if clock == found), "off")


def clock_view(row: GameRow, locale: str) -> discord.ui.View:
    """The creator's clock message: a menu of presets, the current one selected."""
    current = chosen_preset(row)
    options = [
        discord.SelectOption(
            label=preset_label(value, locale), value=value, default=value == current
        )
        for value in ("off", *PRESETS)
    ]
    menu: discord.ui.Select[Any] = discord.ui.Select(
        options=options, placeholder=tr("clock_menu", locale)
    )
    view = discord.ui.View(timeout=None)
    view.add_item(components.LobbyOption(ids.LobbyMenu(row.id, "clock"), menu))
    return view


async def open_clock(interaction: discord.Interaction, row: GameRow, locale: str) -> None:
    """The lobby's Clock button (the creator's): the presets, privately."""
    await interaction.response.send_message(
        tr("clock_intro", locale, game_id=row.id), view=clock_view(row, locale), ephemeral=True
    )


async def choose_clock(interaction: discord.Interaction, game_id: int, value: str) -> GameRow:
    """A preset picked in the clock menu: saved, and the menu shown again."""
    manager = _bot(interaction).manager
    clock = PRESETS.get(value, (0, 0))
    row = await manager.lobbies.configure(game_id, interaction.user.id, clock=clock)
    locale = player_locale(interaction, row.locale)
    await interaction.response.edit_message(
        content=tr("options_saved", locale), view=clock_view(row, locale)
    )
    return row


# -- pauses by agreement -------------------------------------------------------------------------


async def ask_pause(bot: CarcassonneBot, user: discord.abc.User, until: float, guild: int) -> None:
    """``away``: in each live game of this server with a chess clock, ask to pause it."""
    for row in await bot.manager.records.games_of_user(
        user.id, guild_id=guild, statuses=("active",)
    ):
        if row.clock_bank is None or row.thread_id is None:
            continue
        try:
            vote = await bot.manager.clocks.vote_pause(row.id, user.id, until)
            channel = await post.game_channel(bot, row)
            if vote.done:  # nobody else to ask (the others are computers)
                await channel.send(done_text(vote), allowed_mentions=QUIET)
                continue
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in vote.needed])
            await channel.send(
                request_text(vote), view=request_view(row), allowed_mentions=mentions
            )
        except Exception:
            log.exception("asking to pause the clock of game %s failed", row.id)


async def back(bot: CarcassonneBot, user_id: int, guild: int) -> bool:
    """``away 0``: every paused chess clock of the player's live games here runs again (and
    their requests still open end); whether a clock was paused."""
    resumed_any = False
    for row in await bot.manager.records.games_of_user(
        user_id, guild_id=guild, statuses=("active",)
    ):
        if row.clock_bank is None:
            continue
        resumed = await bot.manager.clocks.player_back(row.id, user_id)
        if resumed is not None:
            resumed_any = True
            await tell_resumed(bot, resumed)
    return resumed_any


async def tell_resumed(bot: CarcassonneBot, row: GameRow) -> None:
    """Say in the thread that the clocks run again, and until when for the player in turn."""
    clock = await bot.manager.clocks.chess_clock(row.id)
    if clock is None or clock.seat is None or clock.due_at is None:
        return
    locale = row.locale or "en"
    player = row.seats[clock.seat].name
    text = tr("pause_resumed", locale, game_id=row.id, player=player, rel=stamp(clock.due_at))
    channel = await post.game_channel(bot, row)
    await channel.send(text, allowed_mentions=QUIET)


def request_text(vote: PauseVote) -> str:
    return tr(
        "pause_request",
        vote.row.locale or "en",
        asker=f"<@{vote.asker}>",
        until=stamp(vote.until or 0, "f"),
        game_id=vote.row.id,
        agreed=_mentions(vote.votes),
        missing=_mentions(vote.needed - vote.votes),
    )


def done_text(vote: PauseVote) -> str:
    locale = vote.row.locale or "en"
    return tr("pause_done", locale, game_id=vote.row.id, until=stamp(vote.until or 0, "f"))


def request_view(row: GameRow) -> discord.ui.View:
    locale = row.locale or "en"
    view = discord.ui.View(timeout=None)
    agree, refuse = (ids.PauseAnswer(row.id, yes) for yes in (True, False))
    view.add_item(PauseButton(agree, tr("pause_agree", locale), discord.ButtonStyle.primary))
    view.add_item(PauseButton(refuse, tr("pause_refuse", locale), discord.ButtonStyle.secondary))
    return view


async def on_button(interaction: discord.Interaction, game_id: int, agree: bool) -> None:
    bot = _bot(interaction)
    await interaction.response.defer()
    user = interaction.user
    if not agree:
        row = await bot.manager.clocks.refuse_pause(game_id, user.id)
        name = shown_name(user.display_name)
        text = tr("pause_refused_by", row.locale or "en", player=name, game_id=game_id)
        await interaction.edit_original_response(content=text, view=None)
        return
    vote = await bot.manager.clocks.vote_pause(game_id, user.id, None)
    if vote.done:
        await interaction.edit_original_response(content=done_text(vote), view=None)
        return
    await interaction.edit_original_response(
        content=request_text(vote), view=request_view(vote.row)
    )


class PauseButton(IdButton[ids.PauseAnswer], kind=ids.PauseAnswer):
    """Pause / Keep playing on a request to pause a game's chess clocks (state in the id)."""

    action = "pause answer"

    async def answer(self, interaction: discord.Interaction, value: ids.PauseAnswer) -> None:
        await on_button(interaction, value.game, value.agree)
