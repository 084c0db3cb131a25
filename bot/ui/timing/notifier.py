"""The scheduler's notices on Discord (:class:`bot.scheduler.Notifier`).

One mention per turn: the turn message of :mod:`bot.ui.turn.post` (after a move, or after a timeout
below) mentions the player whose turn begins, and it is the only message that pings them. The
reminder shows their name without pinging again; players who opted in
(``/carcassonne reminders``) also get it as a DM. Forced moves are announced like any turn: the
new board, what the bot did and why, the next player mentioned. Every thread notice goes through
:func:`bot.ui.turn.post.game_channel`, which unarchives the thread first.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.manager.timing import DigestLine
from bot.narrate import narrate
from bot.scheduler import ForcedTurn
from bot.storage import Deadline, GameRow, GuildSettings, UserSettings
from bot.ui.clocks import clock_short, jump_link, stamp
from bot.ui.texts import tr, trn
from bot.ui.timing import chess_clock
from bot.ui.turn import final, post
from bot.ui.turn.state import snapshot
from bot.ui.turn.words import tiles_in_words

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: Notices show names as mentions (readable, clickable) but never ping.
QUIET = discord.AllowedMentions.none()
LIMIT = 2000


def _locale(game: GameRow) -> str:
    return game.locale or "en"


def _name(game: GameRow, user_id: int | None) -> str:
    seat = game.seat_of(user_id) if user_id is not None else None
    return seat.name if seat is not None else "?"


#: How many of a channel's last messages are searched for a notice that may have gone out.
RECENT = 50


class DiscordNotifier:
    """Posts the scheduler's notices in the games' threads, DMs and digest channels."""

    def __init__(self, bot: CarcassonneBot) -> None:
        self.bot = bot

    async def _post(self, game: GameRow, text: str, again: bool = False) -> None:
        channel = await post.game_channel(self.bot, game)
        if again and await self._already(channel, text):
            return
        await channel.send(text, allowed_mentions=QUIET)

    async def _already(
        self, channel: discord.abc.Messageable, text: str, *, start: bool = False
    ) -> bool:
        """Whether the bot posted ``text`` (or, with ``start``, a message beginning with it)
        among the channel's last messages: a notice sent by a process that died before
        recording it (the text names the game, turn and time, or the move)."""
        me = self.bot.user
        async for message in channel.history(limit=RECENT):
            if message.author != me:
                continue
            if message.content == text or (start and message.content.startswith(text)):
                return True
        return False

    async def turn_started(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        """Nothing more to send: the turn message already mentioned the player, with the
        turn's deadline (or paused clock); a second ping for the same turn is what we avoid."""
        log.debug("game %s turn %s started for %s", game.id, deadline.turn, user.user_id)

    async def reminder(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        """The one reminder of the turn: in the thread (no ping), and by DM if opted in."""
        rel = stamp(deadline.due_at)
        text = tr("reminder", _locale(game), player=f"<@{user.user_id}>", rel=rel)
        await self._post(game, text, again)
        if user.dm_reminders:
            await self.direct(user, game, rel, again)

    async def direct(
        self, user: UserSettings, game: GameRow, rel: str, again: bool = False
    ) -> None:
        """The DM reminder; a player who closed their DMs is logged, not retried."""
        locale = user.locale or _locale(game)
        link = jump_link(game) or f"#{game.id}"
        text = tr("reminder_dm", locale, game_id=game.id, rel=rel, link=link)
        try:
            target = self.bot.get_user(user.user_id) or await self.bot.fetch_user(user.user_id)
            if again and await self._already(await target.create_dm(), text):
                return
            await target.send(text)
        except discord.HTTPException as error:
            log.info("no DM reminder for user %s (game %s): %s", user.user_id, game.id, error)

    async def forced(self, game: GameRow, result: ForcedTurn, *, again: bool = False) -> None:
        """Announce a timeout like a turn: why, what the bot did, the new board, who is next.

        ``again``: the process that saved the timeout died around its announcement; nothing is
        posted if the announcement is among the thread's last messages. When someone has played
        since (``result.last`` false), that later turn message shows the board, so only the
        timeout and what the bot did are told, without board or controls.
        """
        name = _name(game, result.user_id)
        if 0 <= result.seat < len(game.seats):
            name = game.seats[result.seat].name
        snap = await snapshot(self.bot.manager, game.id)
        line = tr(f"timeout_{result.policy}", snap.locale, player=name)
        if again:
            turn, _ = final.split_events(result.move.events)
            told = [line, *narrate(turn, snap.names, snap.locale, tiles_in_words(snap))]
            channel = await post.game_channel(self.bot, game)
            if await self._already(channel, "\n".join(told), start=True):
                return
            if not result.last:
                for piece in final.chunks(told, final.CONTENT):
                    await channel.send(piece, allowed_mentions=QUIET)
                return
        await post.announce(self.bot, snap, result.move.events, extra=[line])

    async def resumed(self, game: GameRow, user: UserSettings, deadline: Deadline) -> None:
        """The player in turn came back: their clock runs again (no ping)."""
        text = tr(
            "resumed",
            _locale(game),
            player=_name(game, user.user_id),
            rel=stamp(deadline.due_at),
        )
        await self._post(game, text)

    async def clock_resumed(self, game: GameRow) -> None:
        """The asker's absence ended: the game's chess clocks run again (no ping)."""
        await chess_clock.tell_resumed(self.bot, game)

    async def digest(self, guild: GuildSettings, lines: Sequence[DigestLine]) -> None:
        """The daily list of whose turn it is, in the guild's digest channel."""
        if guild.digest_channel_id is None:
            return
        channel = self.bot.get_channel(guild.digest_channel_id) or await self.bot.fetch_channel(
            guild.digest_channel_id
        )
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("digest channel %s of guild %s is not a text channel", channel, guild)
            return
        await channel.send(digest_text(lines, guild.locale), allowed_mentions=QUIET)


def digest_text(lines: Sequence[DigestLine], locale: str) -> str:
    """The digest message: a title and one line per game, cut to Discord's 2000 characters."""
    out = [trn("digest_title", len(lines), locale, count=len(lines))]
    size = len(out[0])
    for index, line in enumerate(lines):
        place = line.thread_id or line.channel_id
        where = f"<#{place}>" if place else "-"
        text = tr(
            "digest_line",
            locale,
            game_id=line.game_id,
            player=f"<@{line.user_id}>",
            where=where,
            clock=clock_short(line.clock, locale),
        )
        more = tr("digest_more", locale, count=len(lines) - index)
        if size + len(text) + len(more) + 2 > LIMIT:
            out.append(more)
            break
        out.append(text)
        size += len(text) + 1
    return "\n".join(out)
