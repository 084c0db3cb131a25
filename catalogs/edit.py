"""Add or change messages in every catalog at once, keeping each file's order and header.

For maintainers: ``python -m catalogs.edit CONTEXT KEY en="..." fr="..." de="..."`` sets one
message; a value with ``|`` between forms sets the plural forms of that language (one|other).
The test of the catalogs then checks that every language has it with the same placeholders.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from babel.messages.pofile import write_po

from catalogs import HERE, LANGUAGES, _forms, catalog


def put(context: str, key: str, texts: Mapping[str, str | tuple[str, ...]]) -> None:
    """Set ``context``/``key`` to ``texts[lang]`` in each language given (a tuple: plural forms)."""
    for lang, value in texts.items():
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: the catalogs are {LANGUAGES}")
        found = catalog(lang)
        plural = isinstance(value, tuple)
        msgid: str | tuple[str, str] = (key, key) if plural else key
        old = found.get(key, context=context)
        if old is not None:
            found.delete(key, context=context)
        found.add(msgid, string=value, context=context)
        with open(HERE / f"{lang}.po", "wb") as target:
            write_po(target, found, width=100, no_location=True, omit_header=False)
    _forms.cache_clear()


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    context, key, *pairs = argv
    texts: dict[str, str | tuple[str, ...]] = {}
    for pair in pairs:
        lang, _, value = pair.partition("=")
        texts[lang] = tuple(value.split("|")) if "|" in value else value
    put(context, key, texts)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
