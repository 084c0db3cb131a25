"""Play-by-post commands of the ``/carcassonne`` group: ``away``, ``mygames``, ``reminders``.

:func:`register` adds them to the group; the timing options of ``new`` and ``settings`` (time per
turn, timeout policy, digest channel) are read by the helpers below, so
:mod:`bot.ui.commands` only forwards them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from bot.storage import GameRow, GuildSettings
from bot.ui.clocks import DAY, HOUR, clock_short, jump_link, stamp, timing_summary
from bot.ui.texts import player_locale, tr, trn
from bot.ui.timing import chess_clock
from bot.ui.turn import post

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

TIMEOUTS = [
    Choice(name=_("the bot plays the turn (medium computer)"), value="autoplay"),
    Choice(name=_("the turn is skipped"), value="skip"),
    Choice(name=_("the player leaves the game"), value="forfeit"),
]
#: The longest time per turn offered, in hours (30 days).
MAX_TURN_HOURS = 720
MAX_AWAY_DAYS = 60


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def here_locale(interaction: discord.Interaction) -> str:
    return player_locale(interaction, interaction.extras.get("locale"))


# -- options of /carcassonne new and settings ----------------------------------------------------


def game_timing(turn_hours: int | None, timeout: str | None) -> dict[str, Any]:
    """``create_lobby`` arguments for the time per turn and the timeout policy chosen on ``new``
    (unset ones come from the server's defaults)."""
    timing: dict[str, Any] = {}
    if turn_hours is not None:
        timing["turn_seconds"] = turn_hours * HOUR
    if timeout is not None:
        timing["timeout_policy"] = timeout
    return timing


def settings_changes(
    turn_hours: int | None,
    timeout: str | None,
    digest_channel: discord.TextChannel | None,
    digest_off: bool | None,
) -> dict[str, Any]:
    """``update_guild_settings`` changes: default time per turn (0: none), policy, digest."""
    changes: dict[str, Any] = {}
    if turn_hours is not None:
        changes["turn_seconds"] = turn_hours * HOUR if turn_hours > 0 else None
    if timeout is not None:
        changes["timeout_policy"] = timeout
    if digest_channel is not None:
        changes["digest_channel_id"] = digest_channel.id
    if digest_off:
        changes["digest_channel_id"] = None
    return changes


def settings_parts(settings: GuildSettings, locale: str) -> list[str]:
    """The play-by-post defaults, for the ``settings`` summary."""
    timing = timing_summary(settings.turn_seconds, settings.timeout_policy, locale)
    parts = [tr("settings_timing", locale, timing=timing)]
    if settings.digest_channel_id:
        parts.append(tr("settings_digest", locale, channel=f"<#{settings.digest_channel_id}>"))
    return parts


# -- the commands ------------------------------------------------------------------------------


async def away(interaction: discord.Interaction, days: int) -> None:
    """Pause the player's clocks for ``days``, or end their absence (0)."""
    bot = bot_of(interaction)
    manager = bot.manager
    locale = here_locale(interaction)
    user = interaction.user
    now = manager.clock()
    before = (await manager.records.user_settings(user.id)).away_until
    guild = interaction.guild_id
    if days == 0 and (before is None or before <= now):
        if guild is not None and await chess_clock.back(bot, user.id, guild):
            await interaction.response.send_message(tr("away_back", locale), ephemeral=True)
            return
        await interaction.response.send_message(tr("away_not", locale), ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    until = now + days * DAY if days else None
    await manager.timing.set_away(user.id, until)
    # Tell the players of every game of this server that waits for this player.
    for row in await manager.records.games_awaiting(user.id, guild):
        if row.clock_bank is None:  # a chess clock stops only if everyone agrees (below)
            await tell_table(bot, row, user.id, until)
    if guild is not None:
        if until is None:
            await chess_clock.back(bot, user.id, guild)
        else:
            await chess_clock.ask_pause(bot, user, until, guild)
    if until is None:
        reply = tr("away_back", locale)
    else:
        reply = tr("away_set", locale, until=stamp(until, "f"))
    await interaction.followup.send(reply, ephemeral=True)


async def tell_table(bot: CarcassonneBot, row: GameRow, user_id: int, until: float | None) -> None:
    """A notice (no ping) in a game's thread: the player in turn left or came back."""
    seat = row.seat_of(user_id)
    name = seat.name if seat is not None else "?"
    locale = row.locale or "en"
    if until is not None:
        text = tr("away_notice", locale, player=name, until=stamp(until, "f"))
    else:
        clock = await bot.manager.timing.turn_clock(row.id)
        if clock is None:
            return  # no time limit: nothing was paused
        text = tr("resumed", locale, player=name, rel=stamp(clock.due_at))
    try:
        channel = await post.game_channel(bot, row)
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except (discord.HTTPException, RuntimeError) as error:
        log.info("could not tell game %s about user %s: %s", row.id, user_id, error)


async def mygames(interaction: discord.Interaction) -> None:
    """The games of this server waiting for the player, with links and clocks (ephemeral)."""
    manager = bot_of(interaction).manager
    locale = here_locale(interaction)
    user = interaction.user
    rows = await manager.records.games_awaiting(user.id, interaction.guild_id)
    lines: list[str] = []
    away_until = (await manager.records.user_settings(user.id)).away_until
    if away_until is not None and away_until > manager.clock():
        lines.append(tr("mygames_away", locale, until=stamp(away_until, "f")))
    if not rows:
        lines.append(tr("mygames_none", locale))
    else:
        lines.append(trn("mygames_title", len(rows), locale, count=len(rows)))
    for row in rows[:20]:
        where = f"<#{row.thread_id or row.channel_id}>" if row.thread_id or row.channel_id else "-"
        link = jump_link(row)
        if link is not None and row.message_id is not None:
            where += f" · [{tr('turn_link', locale)}]({link})"
        clock = await manager.timing.turn_clock(row.id) if row.turn_seconds else None
        lines.append(
            tr(
                "mygames_line",
                locale,
                game_id=row.id,
                turn=row.turn + 1,
                where=where,
                clock=clock_short(clock, locale),
            )
        )
    await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)


async def reminders(
    interaction: discord.Interaction, dm: bool | None, heads_up: bool | None = None
) -> None:
    """Turn DM reminders and heads-up DMs ("you are next") on (after a test DM) or off;
    without either, say which are on."""
    manager = bot_of(interaction).manager
    locale = here_locale(interaction)
    user = interaction.user
    if dm is None and heads_up is None:
        current = await manager.records.user_settings(user.id)
        lines = [
            tr("dm_show_on" if current.dm_reminders else "dm_show_off", locale),
            tr("heads_up_on" if current.dm_heads_up else "heads_up_off", locale),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if dm or heads_up:
        try:  # a DM now tells at once whether reminders can reach this player
            await user.send(tr("dm_welcome" if dm else "heads_up_welcome", locale))
        except discord.HTTPException as error:
            log.info("user %s refuses DMs: %s", user.id, error)
            await interaction.followup.send(tr("dm_refused", locale), ephemeral=True)
            return
    changes: dict[str, bool] = {}
    lines = []
    if dm is not None:
        changes["dm_reminders"] = dm
        lines.append(tr("dm_on" if dm else "dm_off", locale))
    if heads_up is not None:
        changes["dm_heads_up"] = heads_up
        lines.append(tr("heads_up_on" if heads_up else "heads_up_off", locale))
    await manager.records.update_user_settings(user.id, **changes)
    await interaction.followup.send("\n".join(lines), ephemeral=True)


Command = app_commands.Command[Any, Any, Any]


def commands() -> list[Command]:
    """Fresh command objects (a command belongs to one group, and each bot builds its own)."""

    @app_commands.command(
        name=_("away"), description=_("Pause your turn clocks while you are away (0 days: back)")
    )
    @app_commands.rename(days=_("days"))
    @app_commands.describe(days=_("How many days you are away; 0 ends your absence"))
    async def away_command(
        interaction: discord.Interaction, days: app_commands.Range[int, 0, MAX_AWAY_DAYS]
    ) -> None:
        await away(interaction, days)

    @app_commands.command(
        name=_("mygames"), description=_("The games of this server where it is your turn")
    )
    async def mygames_command(interaction: discord.Interaction) -> None:
        await mygames(interaction)

    @app_commands.command(
        name=_("reminders"), description=_("Get your turn reminders by direct message, or not")
    )
    @app_commands.rename(dm=_("dm"), heads_up=_("heads_up"))
    @app_commands.describe(
        dm=_("True: a DM before your time runs out; False: no DM"),
        heads_up=_("True: a DM when the player before you starts their turn"),
    )
    async def reminders_command(
        interaction: discord.Interaction, dm: bool | None = None, heads_up: bool | None = None
    ) -> None:
        await reminders(interaction, dm, heads_up)

    return [away_command, mygames_command, reminders_command]


def register(group: app_commands.Group) -> None:
    """Add the play-by-post commands to the ``/carcassonne`` group."""
    for command in commands():
        group.add_command(command)
