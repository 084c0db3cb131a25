"""The Discord layer's words (catalog contexts ``ui``, ``rules``, ``game``, ``expansion``).

Public game messages speak the game's language (chosen per guild with ``/carcassonne settings``);
ephemeral replies speak the clicking player's Discord language when we have it, else the game's.

>>> tr("your_turn", "fr", player="<@1>")
'<@1>, à vous de jouer !'
"""

from __future__ import annotations

from typing import Any

import discord

import catalogs
from bot.i18n import language


def tr(key: str, locale: str | None, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (English when the language lacks it)."""
    return catalogs.text("ui", key, locale, **params)


def trn(key: str, n: int, locale: str | None, **params: Any) -> str:
    """The form of ``key`` for the number ``n`` (its plural rule in ``locale``)."""
    return catalogs.plural("ui", key, n, locale, **params)


def rules_text(key: str, locale: str | None) -> str:
    return catalogs.text("rules", key, locale)


def rules_keys() -> list[str]:
    """The games and sections ``/carcassonne rules`` can show."""
    return catalogs.keys("rules")


def player_locale(interaction: discord.Interaction, fallback: str | None) -> str:
    """The clicking player's language: their Discord client's when we speak it, else
    ``fallback`` (the game's or the server's)."""
    # A client in a language we speak other than English always gets it. English is what most
    # clients send without the user ever choosing, so there the game's (or server's) wins.
    client = language(str(interaction.locale.value) if interaction.locale else "")
    if client != catalogs.DEFAULT or not fallback:
        return client
    return language(fallback)


def game_title(row: Any, locale: str | None) -> str:
    """The game family of ``row`` (a stored game), with its expansions: "Carcassonne + Abbey &
    Mayor", "Hunters & Gatherers"."""
    parts = [family_title(row.kind, locale)]
    parts += [catalogs.text("expansion", name, locale) for name in row.expansions]
    return " + ".join(parts)


def family_title(kind: str, locale: str | None) -> str:
    """A game family by its name on the box."""
    return catalogs.text("game", kind, locale)
