"""How play-by-post clocks read on Discord: deadlines, vacations and timeout policies.

A chess clock (live games) reads as a countdown of the player in turn and each player's time
(:func:`chess_lines`). Times are Discord timestamps (``<t:UNIX:R>`` reads "in 5 hours" in each
reader's own language and time zone), so a turn message stays right however long after it is
read. Used by the turn messages (:mod:`bot.ui.turn.post`), ``/carcassonne status``, ``mygames``, the
lobby and the notifier.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from bot.manager.clock import ChessClock
from bot.manager.timing import TurnClock
from bot.storage import GameRow
from bot.ui.texts import tr

if TYPE_CHECKING:
    from bot.manager import GameManager

HOUR = 3600
DAY = 24 * HOUR


def stamp(when: float, style: str = "R") -> str:
    """A Discord timestamp: ``R`` relative ("in 3 hours"), ``f`` date and time."""
    return f"<t:{int(when)}:{style}>"


def duration(seconds: float, locale: str) -> str:
    """A short length of time: ``2 d``, ``18 h``, ``25 min`` (``j`` for days in French)."""
    if seconds >= 2 * DAY and seconds % DAY == 0:
        return f"{int(seconds // DAY)} {'j' if locale == 'fr' else 'd'}"
    if seconds >= HOUR:
        return f"{seconds / HOUR:.0f} h"
    return f"{max(1, math.ceil(seconds / 60))} min"


def timing_summary(turn_seconds: int | None, policy: str, locale: str) -> str:
    """``24 h per turn; when time runs out, the bot plays the turn (medium computer)``."""
    if not turn_seconds:
        return tr("timing_none", locale)
    return tr(
        "timing",
        locale,
        hours=duration(turn_seconds, locale),
        policy=tr(f"policy_{policy}", locale),
    )


def clock_line(clock: TurnClock, player: str, locale: str) -> str:
    """The current turn's clock, for the turn message and ``status``."""
    if not clock.paused:
        return tr("clock_running", locale, rel=stamp(clock.due_at))
    left = duration(clock.remaining, locale)
    if clock.away_until is None:
        return tr("clock_paused_plain", locale, left=left)
    return tr("clock_paused", locale, player=player, until=stamp(clock.away_until, "f"), left=left)


def clock_short(clock: TurnClock | None, locale: str) -> str:
    """The clock in a list line (``mygames``, the digest)."""
    if clock is None:
        return tr("timing_none", locale)
    if clock.paused:
        if clock.away_until is not None:
            return tr("clock_short_away", locale, until=stamp(clock.away_until, "f"))
        return tr("clock_short_paused", locale, left=duration(clock.remaining, locale))
    return tr("clock_short_running", locale, rel=stamp(clock.due_at))


def bank(seconds: float | None) -> str:
    """A chess clock's time as on a clock: ``9:05``, ``1:02:00`` (whole seconds, rounded down)."""
    whole = max(0, int(seconds or 0))
    hours, rest = divmod(whole, HOUR)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60}:{rest % 60:02d}"


def chess_timing(row: GameRow, locale: str) -> str:
    """``Chess clock 10 min + 20 s per turn; when a clock runs out, ...`` (the lobby)."""
    assert row.clock_bank is not None
    return tr(
        "chess_timing",
        locale,
        bank=duration(row.clock_bank, locale),
        increment=f"{row.clock_increment} s",
        policy=tr(f"policy_{row.timeout_policy}", locale),
    )


def chess_lines(clock: ChessClock, row: GameRow, locale: str) -> list[str]:
    """The chess clock in the turn message: who runs out when (a Discord countdown), or the
    pause; then every player's time."""
    lines: list[str] = []
    if clock.paused:
        if clock.paused_until is not None:
            until = stamp(clock.paused_until, "f")
            lines.append(tr("chess_paused", locale, until=until))
        else:
            lines.append(tr("chess_paused_plain", locale))
    elif clock.seat is not None and clock.due_at is not None:
        player = row.seats[clock.seat].name
        lines.append(tr("chess_running", locale, player=player, rel=stamp(clock.due_at)))
    times = " · ".join(
        f"{s.name} {bank(clock.banks[s.seat])}"
        for s in row.seats
        if s.status == "playing" and s.computer is None
    )
    lines.append(tr("chess_banks", locale, banks=times))
    return lines


async def clock_lines(
    manager: GameManager, row: GameRow, locale: str, *, everyone: bool = False
) -> list[str]:
    """The clock of the turn in play, and (``everyone``) which other players are away."""
    if row.status != "active":
        return []
    if row.clock_bank is not None:  # live: nobody's absence pauses a chess clock
        chess = await manager.clocks.chess_clock(row.id)
        return [] if chess is None else chess_lines(chess, row, locale)
    lines: list[str] = []
    current = row.current_user
    if row.turn_seconds:
        clock = await manager.timing.turn_clock(row.id)
        seat = row.current_seat
        if clock is not None and seat is not None and seat < len(row.seats):
            lines.append(clock_line(clock, row.seats[seat].name, locale))
    if everyone:
        now = manager.clock()
        shown = {current} if row.turn_seconds else set()
        for seat_row in row.seats:
            if seat_row.status != "playing" or seat_row.user_id in shown:
                continue
            shown.add(seat_row.user_id)
            away = (await manager.records.user_settings(seat_row.user_id)).away_until
            if away is not None and away > now:
                lines.append(tr("away_line", locale, player=seat_row.name, until=stamp(away, "f")))
    return lines


def jump_link(row: GameRow) -> str | None:
    """The link to the game's latest message (its turn message), if it has one."""
    where = row.thread_id or row.channel_id
    if row.guild_id is None or where is None:
        return None
    if row.message_id is None:
        return f"https://discord.com/channels/{row.guild_id}/{where}"
    return f"https://discord.com/channels/{row.guild_id}/{where}/{row.message_id}"
