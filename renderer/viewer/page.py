"""The viewer's HTML page: one file, no server, no external resource.

The page holds its script and style, the tables of the variants it shows
(:mod:`renderer.viewer.tables`), each tile kind's picture and each figure in each seat colour,
drawn by this renderer and embedded as data URIs (and the goods tokens, with each tile's cities
for counting them: :func:`city_table`), the words in every language of the catalogs,
and optionally one game's code (:func:`standalone_page`; :func:`hosted_page` reads the game from
the URL fragment instead, and carries every variant).

>>> html = standalone_page(record)                      # doctest: +SKIP
>>> hosted = hosted_page()                               # every family's tiles: ~1.5 MB
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from PIL import Image

import catalogs
from renderer import emblems, families
from renderer import palette as pal
from renderer.figures import figure_icon
from renderer.phone import FIGURE_SCALE
from renderer.tileart import tile_image
from renderer.viewer import codec
from renderer.viewer.tables import VARIANTS, corner_points, variant, variant_of
from renderer.viewer.turns import CORNER_BASE, game_turns, variant_key

#: Pixels per tile of the embedded pictures (shown at 64 CSS pixels: sharp on phones).
ART_SIZE = 128
#: The page's scripts, in order: the decoder, the goods tokens (Traders & Builders), the page.
SCRIPTS = ("decode.js", "goods.js", "viewer.js")
#: Pixels of a goods token's picture (shown at 20 CSS pixels beside its count).
GOODS_SIZE = 40
#: The page's words: (catalog context, key), read in every language.
TEXTS = (
    *(("picture", key) for key in ("replay_start", "replay_turn", "replay_final")),
    ("picture", "winner"),
    ("picture", "winners"),
    ("picture", "goods"),
    *(("goods", kind) for kind in emblems.GOODS),
    *(
        ("viewer", key)
        for key in (
            "viewer_title",
            "viewer_chart",
            "viewer_slider",
            "viewer_play",
            "viewer_pause",
            "viewer_first",
            "viewer_prev",
            "viewer_next",
            "viewer_last",
            "viewer_zoom_in",
            "viewer_zoom_out",
            "viewer_fit",
            "viewer_follow",
            "viewer_no_game",
            "viewer_bad_code",
            "viewer_other_version",
            "viewer_not_here",
        )
    ),
)


def _asset(name: str) -> str:
    return resources.files("renderer.viewer").joinpath(name).read_text("utf-8")


def data_uri(image: Image.Image, lossless: bool = False) -> str:
    """A picture as a WebP data URI (lossy for tiles, lossless for figures with their edges)."""
    out = io.BytesIO()
    if lossless:
        image.save(out, format="WEBP", lossless=True, quality=100, method=4)
    else:
        image.save(out, format="WEBP", quality=82, method=4)
    return "data:image/webp;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def icon_function(game: str) -> Any:
    own = families.PIECES.get(game)
    return own.icon if own is not None else figure_icon


@cache
def tile_art(index: int, kind: int) -> str:
    """The picture of tile kind ``kind`` of variant ``index``, as a data URI."""
    return data_uri(tile_image(variant(index).kinds[kind].oriented(0), ART_SIZE))


@cache
def figure_art(game: str, role: str) -> tuple[dict[str, Any], ...]:
    """A figure of ``game`` drawn as ``role`` in every seat colour (data URI and size)."""
    icon = icon_function(game)
    out: list[dict[str, Any]] = []
    with pal.seat_styles(()):
        for style in range(len(pal.PLAYER_COLOURS)):
            image = icon(style, role, round(ART_SIZE * FIGURE_SCALE))
            out.append({"uri": data_uri(image, lossless=True), "w": image.width, "h": image.height})
    return tuple(out)


def variant_art(
    index: int, pictures: dict[str, str], figures: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """A variant's tables, its tile pictures and figures named by keys of ``pictures`` and
    ``figures`` (filled here): a tile or figure several variants share is embedded once."""
    tables = variant(index)
    data = tables.to_json()
    data["art"] = []
    for kind, tile in enumerate(tables.kinds):
        key = f"{tables.game}:{tile.name}"
        if key not in pictures:
            pictures[key] = tile_art(index, kind)
        data["art"].append(key)
    data["sprites"] = {}
    for role in tables.roles:
        key = f"{tables.game}:{role}"
        if key not in figures:
            figures[key] = list(figure_art(tables.game, role))
        data["sprites"][role] = key
    return data


def city_table(index: int) -> list[list[list[Any]]] | None:
    """Traders & Builders: per tile kind of variant ``index``, each city's edges on the unrotated
    tile and its goods symbol (an index of :data:`emblems.GOODS`, or -1); None without goods.

    The page follows the cities with it to count each player's goods tokens turn by turn, as
    the engine gives them (the code needs no more characters): not part of the tables' fingerprint,
    so that links made before it still open."""
    tables = variant(index)
    if tables.game != "carcassonne" or "traders_builders" not in tables.key.split("+"):
        return None
    out: list[list[list[Any]]] = []
    for kind in tables.kinds:
        cities = []
        for feat in kind.oriented(0).features:
            if feat.type == "city" and feat.positions:
                good = feat.extra.get("goods")
                symbol = emblems.GOODS.index(good) if good in emblems.GOODS else -1
                cities.append([sorted(feat.edges), symbol])
        out.append(cities)
    return out


@cache
def goods_art() -> dict[str, str]:
    """Each goods token's picture, as a data URI."""
    return {kind: data_uri(emblems.goods_icon(kind, GOODS_SIZE), True) for kind in emblems.GOODS}


def page_texts() -> dict[str, dict[str, str]]:
    """The page's words in every language (placeholders left for the page to fill)."""
    out: dict[str, dict[str, str]] = {}
    for lang in catalogs.LANGUAGES:
        out[lang] = {key: catalogs.template(context, key, lang) for context, key in TEXTS}
    return out


def art_data(indices: Sequence[int]) -> dict[str, Any]:
    """The drawing part of the page's data for the variants ``indices``: their tables (with the
    goods' cities), tile pictures, figures in every seat colour, the barns' corners, the seat
    colours and the goods tokens. The live board reads the same per variant."""
    pictures: dict[str, str] = {}
    figures: dict[str, list[dict[str, Any]]] = {}
    variants = {variant(i).key: variant_art(i, pictures, figures) for i in indices}
    for i in indices:
        cities = city_table(i)
        if cities is not None:
            variants[variant(i).key]["cities"] = cities
    return {
        "variants": variants,
        "pictures": pictures,
        "figures": figures,
        "artSize": ART_SIZE,
        "cornerBase": CORNER_BASE,
        "corners": corner_points(),
        "colours": [list(c) for c in pal.PLAYER_COLOURS],
        "goods": goods_art() if any(city_table(i) for i in indices) else {},
    }


def page_data(indices: Sequence[int], lang: str | None) -> dict[str, Any]:
    return {
        "checksums": [codec.checksum(), *codec.EARLIER],
        "codec": codec.constants(),
        "variantKeys": [variant_key(g, e) for g, e in VARIANTS],
        **art_data(indices),
        "texts": page_texts(),
        "lang": lang,
    }


def script_safe(text: str) -> str:
    """Text that cannot end the ``<script>`` element holding it."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def build_page(indices: Sequence[int], code: str = "", lang: str | None = None) -> str:
    """The page showing the variants ``indices``, with the game ``code`` embedded (or none)."""
    if code and not re.fullmatch(r"[A-Za-z0-9_-]+", code):
        raise ValueError("a game code is written in base64url letters")
    data = page_data(indices, lang)
    title = page_texts()[lang or "en"]["viewer_title"]
    parts = {
        "LANG": lang or "en",
        "TITLE": title.replace("&", "&amp;").replace("<", "&lt;"),
        "CSS": _asset("viewer.css"),
        "DATA": script_safe(json.dumps(data, separators=(",", ":"), ensure_ascii=False)),
        "GAME": code,
        "JS": script_safe("\n".join(_asset(name) for name in SCRIPTS)),
    }
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m.group(1)], _asset("viewer.html"))


def standalone_page(record: Mapping[str, Any], lang: str = "en", styles: Sequence[int] = ()) -> str:
    """One game's page: its code and only its variant's pictures embedded (a few hundred kB).

    Raises ValueError for a record the engine refuses or a family the viewer does not show.
    """
    turns = game_turns(record)
    code = codec.encode(turns, styles)
    return build_page([variant_of(turns.variant)], code, lang)


def hosted_page(lang: str | None = None) -> str:
    """The page to host as a static file: every variant, the game read from the URL's ``#``
    fragment; the words in ``lang``, or in the reader's browser language when None."""
    return build_page(range(len(VARIANTS)), "", lang)


def link(
    base: str,
    record: Mapping[str, Any],
    styles: Sequence[int] = (),
    limit: int = 400,
    *,
    turn: int | None = None,
) -> str:
    """The hosted page's address for a game: ``base#code`` (names shortened to fit ``limit``),
    which opens on the game's last turn; ``turn`` names the turn to open on (``base#code~12``;
    0 is the start)."""
    code = codec.encode(game_turns(record), styles, limit=limit)
    named = "" if turn is None else f"~{turn}"
    return f"{base.split('#')[0]}#{code}{named}"
