"""Heads-up DMs: "you are next in game #12", when the player before you starts their turn.

Players opt in with ``/carcassonne reminders heads_up: True``. The manager tells
:meth:`HeadsUp.changed` about every new turn; the player after the one starting (the next seat
still playing) gets one DM, unless that player is a computer, the one who just played (two
players: they know), or the one starting (a hot-seat import). The DM goes out in the
background, so a move never waits for it; a player whose DMs are closed is logged, not retried.
The move is told once, by the process that made it, so a DM is never sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.storage import GameRow, SeatRow
from bot.ui.texts import tr

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)


def playing_after(row: GameRow, seat: int, step: int = 1) -> SeatRow | None:
    """The seat still playing ``step`` places after ``seat`` in turn order (None if none)."""
    count = len(row.seats)
    for offset in range(1, count):
        candidate = row.seats[(seat + offset * step) % count]
        if candidate.status == "playing":
            return candidate
    return None


def next_up(row: GameRow) -> SeatRow | None:
    """Who is told "you are next" when the current player starts: the next seat still
    playing, if a person other than the current and the previous player."""
    current = row.current_seat
    if row.status != "active" or current is None or current >= len(row.seats):
        return None
    after = playing_after(row, current)
    before = playing_after(row, current, step=-1)
    if after is None or after.computer is not None:
        return None
    if after.user_id == row.seats[current].user_id:
        return None
    if before is not None and before.user_id == after.user_id:
        return None  # two players: the next one just played
    return after


def thread_link(row: GameRow) -> str:
    """The link to the game's thread (a DM has no channel mentions)."""
    where = row.thread_id or row.channel_id
    if row.guild_id is None or where is None:
        return ""
    return f"https://discord.com/channels/{row.guild_id}/{where}"


class HeadsUp:
    """Sends the heads-up DMs of the games this process moves."""

    def __init__(self, bot: CarcassonneBot) -> None:
        self.bot = bot
        self._sending: set[asyncio.Task[None]] = set()

    async def changed(self, row: GameRow, turn_started: bool) -> None:
        """The manager's listener: a new turn may make someone next."""
        if not turn_started:
            return
        seat = next_up(row)
        if seat is None:
            return
        task = asyncio.create_task(self.send(row, seat))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def send(self, row: GameRow, seat: SeatRow) -> None:
        try:
            settings = await self.bot.manager.records.user_settings(seat.user_id)
            if not settings.dm_heads_up:
                return
            current = row.seats[row.current_seat or 0].name
            locale = settings.locale or row.locale or "en"
            text = tr("heads_up_dm", locale, game_id=row.id, player=current, link=thread_link(row))
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            await user.send(text.strip())
        except discord.HTTPException as error:  # closed DMs (Forbidden), or Discord failing
            log.info("no heads-up DM for user %s (game %s): %s", seat.user_id, row.id, error)
        except Exception:
            log.exception("heads-up DM of game %s failed", row.id)

    async def stop(self) -> None:
        """Let the DMs being sent finish (a shutdown)."""
        for task in list(self._sending):
            with contextlib.suppress(BaseException):
                await task
