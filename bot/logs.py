"""The bot's log lines: plain text, or one JSON object per line (``LOG_FORMAT=json``).

What a line is about is kept in context variables, set where it becomes known: the interaction
and its guild when discord.py hands the bot an interaction (the command tree's check, a
component's guard), the game when an interaction names one (the policy's check) and when a turn
is played (:meth:`bot.manager.GameManager.play_turn`, the scheduler's timeouts included). Each
asyncio task has its own copy, so two interactions handled at once never mix their fields. A
JSON line carries them as ``game``, ``guild`` and ``interaction`` when known.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextvars import ContextVar
from typing import Any

GAME: ContextVar[int | None] = ContextVar("carcassonne_game", default=None)
GUILD: ContextVar[int | None] = ContextVar("carcassonne_guild", default=None)
INTERACTION: ContextVar[int | None] = ContextVar("carcassonne_interaction", default=None)

#: The values of ``LOG_FORMAT``.
FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def about(*, interaction: int | None, guild: int | None) -> None:
    """The interaction being handled (and its guild), for every line logged while it is."""
    INTERACTION.set(interaction)
    GUILD.set(guild)
    GAME.set(None)


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``time`` (UTC, ISO 8601 with milliseconds), ``level``,
    ``logger``, ``message``, then ``game``, ``guild`` and ``interaction`` when known, and
    ``exception`` (the traceback) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {
            "time": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name, var in (("game", GAME), ("guild", GUILD), ("interaction", INTERACTION)):
            value = var.get()
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(level: str, form: str = "text") -> None:
    """Log at ``level`` to standard output, as text or JSON lines (``form``)."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(TEXT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
