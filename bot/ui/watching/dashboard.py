"""A dashboard per channel: one message, edited in place, listing the channel's running games.

An admin turns it on with ``/carcassonne settings dashboard: True`` in the channel. Each line
names a game, its family, whose turn it is, the turn's deadline (play-by-post) or when the turn
began (live games) as a Discord countdown, the link to its thread and how many follow it.

Edits are coalesced: a change of a game (the manager's listeners, :meth:`Dashboards.changed`)
only marks its channel's dashboard dirty and wakes a task that sleeps to the end of the current
``window`` (5 s of the clock, counted from the epoch: Discord's rate limits) and then edits the
dirty dashboards. So each dashboard is edited at most once per window, however many moves
happened in it, and nothing runs while no game changes.

Several bot processes may share the database, each running some guilds: a dashboard belongs to
its guild, so only the process running that guild edits it. A process that changes a game of
another process's guild (a scheduler's timeout) marks the dashboard changed in the database;
the owner finds it there (it looks every ``POLL`` seconds, on a shared database only). The
message id is stored: once a restarted bot is ready it shows every dashboard again, and one
whose message was deleted is posted anew.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import tasks

import catalogs
from bot.i18n import language
from bot.storage import DashboardRow, GameRow
from bot.ui.clocks import clock_short, stamp
from bot.ui.errors import UIError
from bot.ui.texts import game_title, player_locale, tr
from bot.ui.timing.heads_up import thread_link

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: The shortest time between two edits of one dashboard, in seconds.
WINDOW = 5.0
#: How often a process looks for the changes other processes made (shared database only).
POLL = 30.0
#: Discord's longest embed description, and the most games a dashboard lists.
DESCRIPTION = 4096
MOST = 25


@dataclass(frozen=True, slots=True)
class Line:
    """One game as a dashboard shows it."""

    row: GameRow
    clock: str
    followers: int


def game_line(line: Line, locale: str) -> str:
    """``#12 · Carcassonne · @alice to play · ends in 3 hours · 👁 2 followers``, the game's
    number linking to its thread."""
    row = line.row
    seat = row.seats[row.current_seat] if row.current_seat is not None else None
    link = thread_link(row)
    parts = [
        f"**[#{row.id}]({link})**" if link else f"**#{row.id}**",
        game_title(row, locale),
        tr("dash_turn", locale, player=seat.mention if seat is not None else "-"),
    ]
    if line.clock:
        parts.append(line.clock)
    if line.followers:
        parts.append(followers_text(line.followers, locale))
    return " · ".join(parts)


def followers_text(count: int, locale: str) -> str:
    """``👁 2 followers``."""
    return catalogs.plural("ui", "dash_followers", count, locale, count=count)


def dashboard_embed(lines: list[Line], locale: str, now: float) -> discord.Embed:
    """The dashboard: a title with the count, one line per game (the oldest first), cut to
    :data:`MOST` games and Discord's length with "and N more"."""
    embed = discord.Embed(title=tr("dash_title", locale, count=len(lines)))
    shown: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        text = game_line(line, locale)
        more = tr("dash_more", locale, count=len(lines) - index)
        if index >= MOST or size + len(text) + len(more) + 2 > DESCRIPTION:
            shown.append(more)
            break
        shown.append(text)
        size += len(text) + 1
    embed.description = "\n".join(shown) if shown else tr("dash_none", locale)
    embed.timestamp = datetime.datetime.fromtimestamp(now, datetime.UTC)  # "Today at 14:03"
    return embed


class Dashboards:
    """The dashboards of the guilds this process runs: marks, the loop, the edits."""

    def __init__(self, bot: CarcassonneBot, window: float = WINDOW) -> None:
        self.bot = bot
        self.window = window
        #: This process's dashboards by channel (loaded at the first tick).
        self._boards: dict[int, DashboardRow] = {}
        self._dirty: set[int] = set()
        #: When each dashboard was last edited (the manager's clock).
        self._edited: dict[int, float] = {}
        #: Changes other processes recorded, shown once the edit is done.
        self._seen: dict[int, float] = {}
        self._loaded = False
        #: Edits the dirty dashboards at each window's end; runs only while any is dirty.
        self._flusher: tasks.Loop[Any] = tasks.loop(seconds=window)(self._flush)
        self._flusher.before_loop(self.bot.wait_until_ready)
        self._armed = False
        #: Polls the changes other processes recorded (only on a shared database).
        self._poll: tasks.Loop[Any] | None = None

    @property
    def manager(self) -> Any:
        return self.bot.manager

    def mine(self, guild_id: int) -> bool:
        """Whether this process runs the guild (its shard is one of ours)."""
        return self.bot.get_guild(guild_id) is not None

    # -- the timing -------------------------------------------------------------------------

    def start(self) -> None:
        """Once the bot is ready, show every dashboard again (a restart); on a database other
        processes share, look for their changes every ``POLL`` seconds."""
        self._wake()
        if self.manager.storage.shared:
            poll: tasks.Loop[Any] = tasks.loop(seconds=POLL)(self.poll_safely)
            poll.before_loop(self.bot.wait_until_ready)
            self._poll = poll
            poll.start()

    async def stop(self) -> None:
        for loop in (self._poll, self._flusher):
            if loop is not None and loop.is_running():
                loop.cancel()
                task = loop.get_task()
                if task is not None:
                    with contextlib.suppress(BaseException):
                        await task
        self._poll = None

    def _wake(self) -> None:
        if not self._flusher.is_running():
            self._armed = False
            self._flusher.start()

    async def _flush(self) -> None:
        """One iteration of the flusher (a ``discord.ext.tasks`` loop, which follows simulated
        time in tests). Its first iteration only sets the next one at the end of the current
        window (windows are ``window`` seconds of the clock from the epoch); each one after
        edits the dirty dashboards, a window apart, until none is dirty. So one edit covers
        every change of its window."""
        try:
            if not self._loaded:
                await self.load()
            if not self._armed:
                now = self.manager.clock()
                end = (math.floor(now / self.window) + 1) * self.window
                self._flusher.change_interval(seconds=max(end - now, 0.001))
                self._armed = True
                return
            self._flusher.change_interval(seconds=self.window)
            await self.tick()
        except Exception:
            log.exception("dashboard edits failed; trying again at the next change")
            self._dirty.clear()
        if not self._dirty:
            self._flusher.stop()

    async def load(self) -> None:
        """This process's dashboards, all to show (after a start: found again, or posted)."""
        for board in await self.manager.watch.dashboards():
            if self.mine(board.guild_id):
                self._boards[board.channel_id] = board
                self._dirty.add(board.channel_id)
        self._loaded = True

    async def poll_safely(self) -> None:
        try:
            for board in await self.manager.watch.changed_dashboards():
                if self.mine(board.guild_id):
                    self._boards[board.channel_id] = board
                    self._seen[board.channel_id] = board.changed_at
                    self._dirty.add(board.channel_id)
            self._wake()
        except Exception:
            log.exception("looking for dashboards changed elsewhere failed")

    async def tick(self) -> None:
        """Edit every dirty dashboard whose last edit is a window old."""
        now = self.manager.clock()
        for channel_id in sorted(self._dirty):
            if now - self._edited.get(channel_id, -self.window) < self.window:
                continue  # stays dirty for the next window
            self._dirty.discard(channel_id)
            await self.show(channel_id)

    # -- changes ----------------------------------------------------------------------------

    async def changed(self, row: GameRow, turn_started: bool = False) -> None:
        """The manager's listener: a game of this channel changed."""
        channel_id, guild_id = row.channel_id, row.guild_id
        if channel_id is None or guild_id is None:
            return
        if self.mine(guild_id):
            if channel_id in self._boards:
                self._dirty.add(channel_id)
                self._wake()
        else:
            await self.manager.watch.dashboard_changed(channel_id, self.manager.clock())

    async def turn_on(self, channel_id: int, guild_id: int) -> None:
        """An admin turned the channel's dashboard on: shown now."""
        await self.manager.watch.set_dashboard(channel_id, guild_id, True)
        for board in await self.manager.watch.dashboards([guild_id]):
            if board.channel_id == channel_id:
                self._boards[channel_id] = board
        self._dirty.discard(channel_id)
        await self.show(channel_id)

    async def turn_off(self, channel_id: int, guild_id: int) -> None:
        """An admin turned it off: the message goes too (best effort)."""
        board = self._boards.pop(channel_id, None)
        self._dirty.discard(channel_id)
        await self.manager.watch.set_dashboard(channel_id, guild_id, False)
        if board is not None and board.message_id is not None:
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(
                board.message_id
            )
            with contextlib.suppress(discord.HTTPException):
                await message.delete()

    # -- showing ----------------------------------------------------------------------------

    async def locale_of(self, guild_id: int) -> str:
        """The guild's game language: chosen by an admin, else the server's own."""
        settings = await self.manager.records.guild_settings(guild_id)
        guild = self.bot.get_guild(guild_id)
        if settings.locale_chosen or guild is None:
            return str(settings.locale)
        return language(str(guild.preferred_locale.value))

    async def lines(self, channel_id: int, locale: str) -> list[Line]:
        watch = self.manager.watch
        rows = await watch.running_in(channel_id)
        counts = await watch.follower_counts([row.id for row in rows[: MOST + 1]])
        lines: list[Line] = []
        for index, row in enumerate(rows):
            clock = ""
            if index <= MOST:  # the games past the list only count
                clock = await self.clock_text(row, locale)
            lines.append(Line(row, clock, counts.get(row.id, 0)))
        return lines

    async def clock_text(self, row: GameRow, locale: str) -> str:
        """The turn's deadline (play-by-post), when the chess clock runs out, else when the
        turn began."""
        if row.clock_bank is not None:
            clock = await self.manager.clocks.chess_clock(row.id)
            if clock is not None and clock.paused:
                return tr("dash_clock_paused", locale)
            if clock is not None and clock.due_at is not None:
                return tr("dash_clock", locale, rel=stamp(clock.due_at))
        if row.turn_seconds:
            return clock_short(await self.manager.timing.turn_clock(row.id), locale)
        began = await self.manager.watch.turn_started_at(row.id)
        return tr("dash_since", locale, rel=stamp(began)) if began is not None else ""

    async def show(self, channel_id: int) -> None:
        """Edit the dashboard (post it if it has no message or lost it)."""
        board = self._boards.get(channel_id)
        if board is None:
            return
        now = self.manager.clock()
        self._edited[channel_id] = now
        try:
            locale = await self.locale_of(board.guild_id)
            embed = dashboard_embed(await self.lines(channel_id, locale), locale, now)
            if board.message_id is not None:
                message = self.bot.get_partial_messageable(channel_id).get_partial_message(
                    board.message_id
                )
                try:
                    await message.edit(content=None, embed=embed)
                except discord.NotFound:
                    board = await self.post(board, embed)
            else:
                board = await self.post(board, embed)
        except (discord.HTTPException, RuntimeError) as error:
            log.warning("dashboard of channel %s not shown: %s", channel_id, error)
            return
        seen = self._seen.pop(channel_id, None)
        if seen is not None:
            await self.manager.watch.dashboard_shown(channel_id, seen)
        self._boards[channel_id] = board

    async def post(self, board: DashboardRow, embed: discord.Embed) -> DashboardRow:
        channel = self.bot.get_channel(board.channel_id) or await self.bot.fetch_channel(
            board.channel_id
        )
        if not isinstance(channel, discord.abc.Messageable):
            raise RuntimeError(f"channel {board.channel_id} takes no messages")
        message = await channel.send(embed=embed)
        await self.manager.watch.dashboard_posted(board.channel_id, message.id)
        log.info("dashboard of channel %s posted as %s", board.channel_id, message.id)
        return DashboardRow(
            board.channel_id, board.guild_id, message.id, board.changed_at, board.shown_at
        )


async def setting(interaction: discord.Interaction, on: bool) -> str:
    """``/carcassonne settings dashboard:`` in a channel (admins): turn its dashboard on (posted
    now) or off (deleted); the line the settings' answer adds. Defers the interaction. The
    policy's ``carcassonne settings change`` row was checked by the command."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise UIError("dash_in_thread")
    await interaction.response.defer(ephemeral=True, thinking=True)
    boards = cast("CarcassonneBot", interaction.client).dashboards
    if on:
        await boards.turn_on(channel.id, channel.guild.id)
    else:
        await boards.turn_off(channel.id, channel.guild.id)
    locale = player_locale(interaction, interaction.extras.get("locale"))
    return tr("dash_on" if on else "dash_off", locale, channel=channel.mention)
