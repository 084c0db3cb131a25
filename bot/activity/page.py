"""The live board's page and the art it draws with (``docs/ACTIVITY.md``).

:func:`page_html` is the page at ``/``: ``static/activity.html`` with its configuration embedded
as JSON (the application's client id and the page's words in every language, the catalogs'
context ``activity``); its script, style and the SDK's bundle are served apart from
``static/`` (:func:`static_file`). :func:`art_json` is ``/art/{variant}.json``: a variant's tables,
tile pictures and figures exactly as the browser viewer embeds them
(:func:`renderer.viewer.page.art_data`), made once per variant and process.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

import catalogs
from renderer.viewer.page import art_data, script_safe
from renderer.viewer.tables import variant_of

#: The files served at ``/static/{name}``, with their content types (``sdk.js`` is bundled by
#: ``scripts/activity-sdk`` and may be missing).
STATIC = {
    "activity.js": "text/javascript",
    "activity.css": "text/css",
    "sdk.js": "text/javascript",
}
#: The one thread that makes the art (a second or so per variant, once): the boards' views are
#: drawn in the default executor's threads and never wait behind it.
ART_THREAD = ThreadPoolExecutor(1, thread_name_prefix="live-board-art")
#: The catalog context of every word the page shows.
CONTEXT = "activity"


def _static() -> Traversable:
    return resources.files("bot.activity").joinpath("static")


def static_file(name: str) -> bytes:
    """The file ``name`` of :data:`STATIC` (KeyError for another name, FileNotFoundError when
    ``sdk.js`` was not bundled)."""
    if name not in STATIC:
        raise KeyError(name)
    return _static().joinpath(name).read_bytes()


def sdk_bundled() -> bool:
    """Whether ``scripts/activity-sdk`` bundled the SDK (without it the page cannot sign in)."""
    return _static().joinpath("sdk.js").is_file()


def page_texts() -> dict[str, dict[str, str | list[str]]]:
    """The page's words in every language, placeholders left for the page to fill; a word with
    plural forms is the list of its singular and plural (the page picks by its language's rule)."""
    keys = catalogs.keys(CONTEXT)
    out: dict[str, dict[str, str | list[str]]] = {}
    for lang in catalogs.LANGUAGES:
        words: dict[str, str | list[str]] = {}
        for key in keys:
            found = catalogs.forms(CONTEXT, key, lang)
            words[key] = found[0] if len(found) == 1 else list(found)
        out[lang] = words
    return out


@cache
def page_html(client_id: str) -> str:
    """The page, its configuration embedded: the client id and the words of every language."""
    config = {"clientId": client_id, "texts": page_texts()}
    data = script_safe(json.dumps(config, separators=(",", ":"), ensure_ascii=False))
    html = _static().joinpath("activity.html").read_text("utf-8")
    return html.replace("{{CONFIG}}", data)


@cache
def art_json(variant: str) -> bytes:
    """``/art/{variant}.json``: the variant's tables (``variants[variant]``), its tile pictures
    (``pictures``), its figures in every seat colour (``figures``), the barns' corners, the seat
    colours and the goods tokens, as the viewer embeds them. ValueError for a variant the
    viewer does not show. Made once per variant (the first takes a few seconds)."""
    data = art_data([variant_of(variant)])
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
