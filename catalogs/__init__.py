"""Every text players read, in gettext catalogs: ``catalogs/<language>.po``, one per language.

Why gettext through Babel: the ``.po`` format is what translators and their tools (Poedit,
Weblate, Crowdin) read and check, Babel reads it without a compile step and knows each language's
plural rules from the CLDR, and it is a kept, widely used library.

A message is found by its *context* (``msgctxt``: the part of the program that shows it, such as
``ui``, ``narrate`` or ``picture``) and its *key* (``msgid``, a stable name, not English text);
the English catalog holds the English texts like any other language. Placeholders are
``str.format`` fields (``{game_id}``). A message with plural forms is read with :func:`plural`.
``tests/test_catalogs.py`` fails on a missing or empty translation or a placeholder that differs
from English. ``glossary.toml`` names each concept's one term per language (the rulebooks' terms)
and its forbidden synonyms; ``tests/test_glossary.py`` reads every text against it.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

HERE = Path(__file__).parent
#: The languages the bot speaks, English first (the fallback).
LANGUAGES = ("en", "fr", "de")
DEFAULT = "en"


def language(locale: str | None) -> str:
    """The catalog language for a Discord locale or a language code ("fr", "de-DE", "en-GB")."""
    code = (locale or "").lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT


@cache
def catalog(lang: str) -> Catalog:
    with open(HERE / f"{lang}.po", "rb") as source:
        return read_po(source, locale=lang)


@cache
def _plural_rule(lang: str) -> Callable[[int], int]:
    return gettext.c2py(catalog(lang).plural_expr)


def _message(context: str, key: str, lang: str) -> tuple[Any, str]:
    """The message and the language it was found in (English when ``lang`` lacks it)."""
    found = catalog(lang).get(key, context=context)
    forms = found.string if found is not None else None
    if not forms or (isinstance(forms, tuple) and not all(forms)):
        if lang == DEFAULT:
            raise KeyError(f"no text {context}/{key} in the English catalog")
        return _message(context, key, DEFAULT)
    return found, lang


_COMMAND = re.compile(r"/(carcassonne|league|tournament)\b(?: ([a-z_]+)\b)?")


def commands_in(template: str, lang: str) -> str:
    """``template`` with the slash commands it names as clients in ``lang`` show them: a French
    client has ``/carcassonne nouvelle``, so a text must not tell it ``/carcassonne new``."""
    if lang == DEFAULT or "/" not in template:
        return template

    def name(english: str) -> str:
        found = catalog(lang).get(english, context="command")
        return str(found.string) if found is not None and found.string else english

    def local(match: re.Match[str]) -> str:
        group, sub = match[1], match[2]
        return f"/{name(group)}" + (f" {name(sub)}" if sub else "")

    return _COMMAND.sub(local, template)


@cache
def _forms(context: str, key: str, lang: str) -> tuple[tuple[str, ...], str]:
    """The message's forms as shown in ``lang`` (commands named as there), and the language
    they come from (English when ``lang`` lacks the message). Computed once per message."""
    found, source = _message(context, key, lang)
    forms = found.string if isinstance(found.string, tuple) else (found.string,)
    return tuple(commands_in(str(form), source) for form in forms), source


def text(context: str, key: str, locale: str | None, /, **params: Any) -> str:
    """The text ``context``/``key`` in the language of ``locale``, filled in with ``params``."""
    forms, _ = _forms(context, key, language(locale))
    return forms[0].format(**params)


def template(context: str, key: str, locale: str | None) -> str:
    """The text ``context``/``key`` with its ``{placeholders}`` left in, for a page that fills
    them itself (the browser viewer)."""
    forms, _ = _forms(context, key, language(locale))
    return forms[0]


def forms(context: str, key: str, locale: str | None) -> tuple[str, ...]:
    """Every form of ``context``/``key`` (one; or the singular and the plural), placeholders left
    in, for a page that fills them and picks the form itself (the live board)."""
    found, _ = _forms(context, key, language(locale))
    return found


def plural(context: str, key: str, n: int, locale: str | None, /, **params: Any) -> str:
    """The form of ``context``/``key`` for the number ``n`` (given to the text as ``{n}``)."""
    forms, source = _forms(context, key, language(locale))
    index = _plural_rule(source)(n)
    return forms[min(index, len(forms) - 1)].format(n=n, **params)


def has(context: str, key: str) -> bool:
    return catalog(DEFAULT).get(key, context=context) is not None


def has_in(context: str, key: str, locale: str | None) -> bool:
    """Whether the language of ``locale`` has its own text for ``context``/``key``."""
    found = catalog(language(locale)).get(key, context=context)
    return found is not None and bool(found.string)


def keys(context: str) -> list[str]:
    """Every key of ``context``, in the English catalog's order."""
    return [str(m.id if isinstance(m.id, str) else m.id[0]) for m in catalog(DEFAULT)
            if m.id and m.context == context]  # fmt: skip
