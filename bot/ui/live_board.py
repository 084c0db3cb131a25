"""The Discord side of the live board (the bot's Discord Activity, ``docs/ACTIVITY.md``).

Discord opens the Activity two ways, both only when the host serves it (``ACTIVITY_PORT`` with
the application's ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``: ``Settings.activity``):

- **Play on the board**, a button on a running game's turn message (``cc:live:GAME``): anyone who
  may see the game (policy row ``live board``) is answered with Discord's LAUNCH_ACTIVITY
  response, and Discord opens the board in the game's thread, where the page shows that game.
- The **Entry Point command** (application command type 4, in the App Launcher): Discord creates
  one when Activities are enabled in the developer portal and launches the Activity itself
  (handler 2). A bulk overwrite of the global commands that would remove it is refused (error
  50240), so the sync keeps an existing one as it is and, with the Activity served, creates
  :func:`entry_point` when there is none (``bot.app.Tree.sync``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord

from bot.ui import ids
from bot.ui.components import IdButton
from bot.ui.texts import tr
from bot.ui.translator import DISCORD_LOCALES, command_text

#: Application command type 4 (PRIMARY_ENTRY_POINT) and its handler 2 (DISCORD_LAUNCH_ACTIVITY).
ENTRY_POINT_TYPE = 4
LAUNCHED_BY_DISCORD = 2
#: The Entry Point command's fields a sync sends again (as Discord's bulk overwrite takes them).
ENTRY_POINT_FIELDS = (
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "type",
    "handler",
    "integration_types",
    "contexts",
)
NAME = "launch"
DESCRIPTION = "Open the live board of this channel's games"


class LiveBoardButton(IdButton[ids.LiveBoard], kind=ids.LiveBoard):
    """Play on the board: launches the Activity for the caller (state in the id: the game)."""

    action = "live board"

    async def answer(self, interaction: discord.Interaction, value: ids.LiveBoard) -> None:
        await interaction.response.launch_activity()


def add_button(view: discord.ui.View, game_id: int, locale: str) -> bool:
    """Put Play on the board on a turn message's components, in the first row with room (next
    to the turn's own buttons); False when the message has none left (the Entry Point command
    still opens the board)."""
    label = tr("live_board_button", locale)
    item = LiveBoardButton(ids.LiveBoard(game_id), label, discord.ButtonStyle.secondary)
    try:
        view.add_item(item)
    except ValueError:  # five full rows, or Discord's 25 components
        return False
    return True


def entry_point() -> dict[str, Any]:
    """The Entry Point command the sync creates when the application has none: ``/launch`` in
    a server (where the board signs its players in), opened by Discord."""
    names = {str(loc): command_text(NAME, lang) for loc, lang in DISCORD_LOCALES.items()}
    texts = {str(loc): command_text(DESCRIPTION, lang) for loc, lang in DISCORD_LOCALES.items()}
    return {
        "name": NAME,
        "name_localizations": {loc: text for loc, text in names.items() if text != NAME},
        "description": DESCRIPTION,
        "description_localizations": {
            loc: text for loc, text in texts.items() if text != DESCRIPTION
        },
        "type": ENTRY_POINT_TYPE,
        "handler": LAUNCHED_BY_DISCORD,
        "integration_types": [0],  # installed in servers
        "contexts": [0],  # used in servers
    }


def kept_entry_point(
    existing: Iterable[Mapping[str, object]], served: bool
) -> dict[str, Any] | None:
    """The Entry Point command a sync of the global commands sends: the application's own as it
    is (Discord refuses to remove it), else :func:`entry_point` when the Activity is served,
    else none."""
    for command in existing:
        if command.get("type") == ENTRY_POINT_TYPE:
            return {k: command[k] for k in ENTRY_POINT_FIELDS if command.get(k) is not None}
    return entry_point() if served else None
