"""Player-facing strings of the game manager (catalog context ``manager``), and the rules for
text that users give (names, quotes).

Texts are in the translation catalogs (:mod:`catalogs`); Discord locales like ``fr`` or ``en-GB``
are reduced to their language, English being the fallback.

>>> t("not_your_turn", "fr", player="Alice")
"Ce n'est pas votre tour : c'est à Alice de jouer."
"""

from __future__ import annotations

from typing import Any

import catalogs

LOCALES = catalogs.LANGUAGES
DEFAULT_LOCALE = catalogs.DEFAULT


language = catalogs.language


def t(key: str, locale: str | None = None, **params: Any) -> str:
    """The manager's text for ``key`` in ``locale`` (English if missing)."""
    return catalogs.text("manager", key, locale, **params)


def hidden_chars(text: str) -> bool:
    """Whether ``text`` holds control, format (zero-width, text-direction) or private-use
    characters, which no name shown to players may hold."""
    import unicodedata

    return any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in text)


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number written with the ASCII digits 0-9 only, the one way
    numbers are typed in options (``str.isdigit`` also takes superscripts, which ``int``
    refuses, and other scripts' digits, which ``int`` reads as numbers)."""
    return text.isascii() and text.isdigit()


#: How long a player's name may be where it is shown (Discord's own display-name limit).
NAME_LIMIT = 32


def shown_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name or a free text (a reason) as the bot shows it: visible characters only, spaces
    collapsed, and no mention syntax (``<@id>``, ``<#id>``, ``<@&id>``) that could ping or link:
    its angle brackets become single guillemets (U+2039, U+203A). ``@everyone`` and ``@here``
    never ping (the client allows user mentions only)."""
    visible = "".join(c for c in name if not hidden_chars(c))
    cleaned = " ".join(visible.split()).replace("<", "\u2039").replace(">", "\u203a")
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return cleaned or "?"


#: Characters that start Discord's markdown (bold, italics, underline, strike, spoiler, code,
#: quote, heading, list, masked link), escaped with a backslash where users' text is shown
#: (Discord hides a backslash before punctuation, so the text reads as typed).
MARKDOWN = "\\*_~`|>#-[]()"


def escape_markdown(text: str) -> str:
    """``text`` with every markdown character escaped and ``@`` unable to mention anyone."""
    escaped = "".join(f"\\{c}" if c in MARKDOWN else c for c in text)
    return escaped.replace("@", "@\u200b")


def shown_text(text: str, limit: int = NAME_LIMIT) -> str:
    """Free text a user typed (a reason, a league's name) as a message shows it: the rules of
    :func:`shown_name` (visible characters only, one line, no mention syntax, at most
    ``limit`` characters), then no markdown and no ``@`` mention (:func:`escape_markdown`)."""
    return escape_markdown(shown_name(text, limit))


def quote_input(text: str, limit: int = 20) -> str:
    """A short, harmless quote of what a user typed, for refusals: no control characters, no
    markdown, no mentions or channel links, at most ``limit`` characters."""
    short = "".join(c for c in text.strip() if c.isprintable())
    short = short if len(short) <= limit else short[: limit - 1] + "…"
    for mark in "\\*_~`|":
        short = short.replace(mark, "\\" + mark)
    short = short.replace("<", "\u2039").replace(">", "\u203a")
    return short.replace("@", "@\u200b")
