"""The slash commands, options and choices in every language of the catalogs.

Discord shows a command in the user's client language when the command carries localisations;
discord.py asks an :class:`app_commands.Translator` for each ``locale_str`` at sync time. The
English text is the key (catalog context ``command``), so the command definitions stay readable.
Command names are lower case without spaces, as Discord requires.
"""

from __future__ import annotations

from discord import Locale, app_commands

import catalogs

#: The Discord client languages served, by catalog language (English is the commands' own).
DISCORD_LOCALES: dict[Locale, str] = {Locale.french: "fr", Locale.german: "de"}


def command_text(english: str, locale: str | None) -> str:
    """A command's name, description or choice as shown to ``locale`` (the English when the
    catalogs lack it)."""
    if catalogs.language(locale) == catalogs.DEFAULT or not catalogs.has("command", english):
        return english
    return catalogs.text("command", english, locale)


class Translator(app_commands.Translator):
    """Serves the catalogs' command texts to discord.py when it syncs the commands."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = DISCORD_LOCALES.get(locale)
        if lang is None or not catalogs.has_in("command", string.message, lang):
            return None
        return catalogs.text("command", string.message, lang)
