"""The server's words on the live board: refusals, in the board user's language.

The page's own words are embedded in it (:mod:`bot.activity.page`); what the server says (why a
sign-in or a game was refused) is written here from the same catalogs, so a refusal reads as the
same refusal does in Discord.
"""

from __future__ import annotations

from typing import Any

import catalogs

#: Where each refusal's words are: the catalogs' context of its key.
CONTEXTS = {
    "game_not_found": "manager",
    "private_only": "ui",
    "not_allowed": "ui",
}


def refusal_text(reason: str, lang: str, **params: Any) -> str:
    """The words of refusal ``reason`` (a sign-in's or a session's are the board's own)."""
    return catalogs.text(CONTEXTS.get(reason, "activity"), reason, lang, **params)
