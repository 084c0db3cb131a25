"""What a user may ask: the rule of every slash-command option, and how often.

Each option's bounds are declared once, on the command (``app_commands.Range`` types below):
Discord's client enforces them, and :func:`check_options` enforces them again on our side
before any handler runs (a modified client, or a test double, may send anything). The rules the
parsers add beyond the bounds (a square's notation, a date's format, a name's characters) are
in :data:`RULES`, so that :func:`options_table` can list every option with its whole rule
(``python -m bot.docs`` prints it; ``docs/commands.md`` is that table).

Commands that render or query a lot are rate limited per user and per channel (:data:`heavy`);
the turn flow (menus, buttons, ``place``) never is.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.i18n import quote_input
from bot.ui.errors import UIError

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

#: Discord's largest integer option (2^53 - 1): game numbers are never larger.
MAX_GAME_NUMBER = 2**53 - 1

GameNumber = app_commands.Range[int, 1, MAX_GAME_NUMBER]
#: A square: a letter or two ("AB"), or coordinates "-12,7".
Cell = app_commands.Range[str, 1, 12]
#: A figure spot: a number, a spot's name, or "none".
Figure = app_commands.Range[str, 1, 24]
Rotation = app_commands.Range[int, 0, 270]
LeagueName = app_commands.Range[str, 1, 50]
TournamentName = app_commands.Range[str, 1, 50]
Day = app_commands.Range[str, 1, 10]
Points = app_commands.Range[str, 1, 30]
Reason = app_commands.Range[str, 1, 300]
Season = app_commands.Range[int, 1, 10_000]
Opponents = app_commands.Range[int, 1, 5]

#: What the parsers check beyond the type and bounds, by option name.
RULES: dict[str, str] = {
    "cell": "a lettered square of this turn's picture, or x,y coordinates next to a tile (digits "
    "0-9); a hole's letter followed by abbey plays the abbey there",
    "rotation": "0, 90, 180 or 270, among the rotations that fit the square",
    "figure": "a spot number shown this turn, or none",
    "game": "the number of a game of this server",
    "name": "no mentions (@, <…>), control or text-direction characters; unique in the server",
    "league": "a league of this server (default: the league of this channel)",
    "tournament": "a tournament of this server (default: the open tournament of this channel, "
    "else the server's only open one)",
    "starts": "a date YYYY-MM-DD, years 2000 to 2100",
    "ends": "a date YYYY-MM-DD, years 2000 to 2100, after the start",
    "next_ends": "a date YYYY-MM-DD, years 2000 to 2100",
    "points": "1 to 5 whole numbers from 0 to 100, separated by commas, first place first",
    "max_players": "at least min_players",
    "file": "a JSON record exported with /carcassonne export: at most 1 MiB, nested at most "
    "32 deep, numbers in range, every action legal",
    "reason": "shown to the league or tournament as typed: control and direction characters "
    "left out, markdown and mentions shown as plain text",
    "season": "a season of the league",
    "turn_hours": "whole hours",
}

# -- checking ----------------------------------------------------------------------------------

_CHECKED = (AppCommandOptionType.string, AppCommandOptionType.integer, AppCommandOptionType.number)


def check_options(interaction: discord.Interaction) -> None:
    """Refuse (privately, naming the option and its rule) any value outside what the command
    declares: too long or short, out of range, or not one of its choices."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    namespace = interaction.namespace
    for param in command.parameters:
        if param.type not in _CHECKED:
            continue
        value = getattr(namespace, param.display_name, None)
        if value is None:
            continue
        shown = str(param.display_name)
        if param.choices and value not in [c.value for c in param.choices]:
            allowed = ", ".join(str(c.value) for c in param.choices)
            raise UIError(
                "option_choice", option=shown, value=quote_input(str(value)), allowed=allowed
            )
        low, high = param.min_value, param.max_value
        if param.type is AppCommandOptionType.string:
            size = len(str(value))
            if (low is not None and size < low) or (high is not None and size > high):
                raise UIError("option_length", option=shown, low=low or 0, high=high)
        elif isinstance(value, int | float) and (
            (low is not None and value < low) or (high is not None and value > high)
        ):
            raise UIError("option_range", option=shown, low=_bound(low), high=_bound(high))


def _bound(value: int | float | None) -> str:
    return "…" if value is None else f"{value:,}".replace(",", " ")


# -- cooldowns ---------------------------------------------------------------------------------

#: Per user and per command 4 per 30 s, per channel 10 per 30 s. Buckets belong to the bot (so a
#: restart or another bot starts afresh).
USER_RATE, CHANNEL_RATE, PER = 4, 10, 30.0


async def _not_too_often(interaction: discord.Interaction) -> bool:
    bot = cast("CarcassonneBot", interaction.client)
    name = interaction.command.qualified_name if interaction.command is not None else "?"
    now = time.time()
    keys = (
        (("user", name, interaction.user.id), USER_RATE),
        (("channel", name, interaction.channel_id), CHANNEL_RATE),
    )
    for key, rate in keys:
        bucket = bot.cooldowns.get(key)
        if bucket is None:
            bucket = bot.cooldowns[key] = app_commands.Cooldown(rate, PER)
        retry = bucket.update_rate_limit(now)
        if retry:
            raise app_commands.CommandOnCooldown(bucket, retry)
    return True


#: Decorator for the commands that render or query a lot.
heavy = app_commands.check(_not_too_often)


def is_heavy(command: app_commands.Command[Any, ..., Any]) -> bool:
    return _not_too_often in command.checks


# -- the table ---------------------------------------------------------------------------------


def _commands(tree: app_commands.CommandTree[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
    for command in sorted(tree.walk_commands(), key=lambda c: c.qualified_name):
        if isinstance(command, app_commands.Command):
            yield command


def option_rule(param: app_commands.Parameter) -> str:
    """One option's whole rule in words."""
    kind = param.type
    parts: list[str] = []
    low, high = param.min_value, param.max_value
    if param.choices:
        parts.append("one of " + ", ".join(f"`{c.value}`" for c in param.choices))
    elif kind is AppCommandOptionType.string:
        parts.append(f"text, {low or 0} to {high} characters" if high else "text")
    elif kind is AppCommandOptionType.integer:
        if low is not None or high is not None:
            parts.append(f"whole number from {_bound(low)} to {_bound(high)}")
        else:
            parts.append("whole number")
    else:
        parts.append(
            {
                AppCommandOptionType.boolean: "yes or no",
                AppCommandOptionType.channel: "a text channel of this server",
                AppCommandOptionType.user: "a member of this server",
                AppCommandOptionType.attachment: "a file",
            }.get(kind, kind.name)
        )
    if param.autocomplete:
        parts.append("suggested as you type")
    extra = None if param.choices else RULES.get(param.name)
    if extra:
        parts.append(extra)
    return "; ".join(parts)


def options_table(tree: app_commands.CommandTree[Any]) -> str:
    """Markdown: every command, each of its options and the option's rule."""
    lines = [
        "# Commands and the rule of every option",
        "",
        "Generated from the bot's command tree by `python -m bot.docs`; a test keeps it",
        "current. Discord's client enforces the lengths and ranges, and the bot checks them again",
        "before doing anything. A value that breaks a rule gets a private message naming the",
        "option and the rule; nothing is changed.",
        "",
        f"Commands marked ⏱ are rate limited: {USER_RATE} per {PER:.0f} s per user, "
        f"{CHANNEL_RATE} per {PER:.0f} s per channel. The turn flow is never limited.",
        "",
        "| Command | Option | What it is | Required | Rule |",
        "|---|---|---|---|---|",
    ]
    for command in _commands(tree):
        name = f"/{command.qualified_name}" + (" ⏱" if is_heavy(command) else "")
        if not command.parameters:
            lines.append(f"| {name} | | {_described(command.description)} | | no options |")
        for param in command.parameters:
            required = "yes" if param.required else "no"
            what = _described(param.description)
            rule = option_rule(param)
            lines.append(f"| {name} | `{param.display_name}` | {what} | {required} | {rule} |")
            name = ""
    return "\n".join(lines) + "\n"


def _described(text: Any) -> str:
    return str(text).replace("|", "/")
