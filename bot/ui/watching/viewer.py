"""The browser viewer from Discord: a game's page as a file, and a link button to the hosted page.

``/carcassonne replay page:True`` attaches the standalone page (:func:`viewer_file`, drawn by a
render worker: it embeds the tile art). When the host sets ``VIEWER_URL`` (the page written by
``python -m renderer viewer``, hosted as a static file), replays carry a button opening the game
there: the address, ``#`` and the game's code (:func:`renderer.viewer.page.link`), within the
512 characters Discord allows a link button.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence

import discord

from bot.ui import images
from bot.ui.texts import tr
from engine import Game
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.viewer.page import link

log = logging.getLogger(__name__)

#: Discord's limit for the address of a link button.
MAX_LINK = 512
#: The characters a game's code always has (names are shortened to fit): a shorter
#: ``VIEWER_URL`` than the longest allowed leaves the code the rest of the 512.
CODE_LIMIT = 400
#: The longest ``VIEWER_URL``: the rest of a link is ``#`` and the code.
MAX_BASE = MAX_LINK - CODE_LIMIT - 1


def code_limit(base: str) -> int:
    """The characters left for the game's code after ``base`` and ``#``."""
    return max(CODE_LIMIT, MAX_LINK - len(base.split("#")[0]) - 1)


async def viewer_link(base: str, game: Game, styles: Sequence[int] = ()) -> str | None:
    """The hosted viewer's address for ``game`` (None, logged, when it cannot be coded)."""
    try:
        url = await asyncio.to_thread(link, base, game.record(), styles, code_limit(base))
    except ValueError as error:  # a family the viewer does not show, a game too long
        log.warning("no viewer link for this game: %s", error)
        return None
    if len(url) > MAX_LINK:
        log.warning("viewer link of %d characters, over Discord's %d", len(url), MAX_LINK)
        return None
    return url


def link_view(url: str, locale: str | None) -> discord.ui.View:
    """A message's row with one link button opening ``url``."""
    view = discord.ui.View(timeout=None)
    label = tr("viewer_button", locale)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label))
    return view


async def viewer_file(
    game: Game, lang: str, game_id: int, *, styles: Sequence[int] = ()
) -> discord.File:
    """The standalone viewer page of the whole game so far (HTML, the tile art embedded),
    built by a render worker (or a thread), never on the event loop."""
    job = Job("viewer", game.record(), RenderOptions(lang=lang), tuple(styles))
    html = await images.draw_job(game, job)
    return discord.File(io.BytesIO(html), filename=f"carcassonne-{game_id}-viewer.html")
