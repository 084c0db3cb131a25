"""Tiles and figure spots in words: what a player reads instead of codes.

A tile is never named by its code in a message (the codes look like square letters): it is
described by what it shows ("city on 2 sides with a pennant · road"). A rotation offered in a
menu says what lies on each side once turned ("N city · E road · S field · W road"). A figure
spot says its feature and where it lies on the tile ("road, south"); a wagon target says that
and where its tile lies from the last tile.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import catalogs
from engine.core.tiles import Oriented, TileKind
from renderer.board import spot_point
from renderer.geometry import CORNER_SPOTS

if TYPE_CHECKING:
    from bot.ui.turn.state import Snapshot
    from engine import Game

#: Feature words, in the singular (English, French).
#: Edge letters of the tile data -> feature.
EDGE_FEATURES = {
    "C": "city",
    "R": "road",
    "F": "field",
    "M": "meadow",
    "P": "path",
    "H": "house",
    "T": "tower",
    "W": "wall",
}
#: The four sides, then the eight directions of a spot and the centre (catalog contexts ``side``
#: and ``direction``).
SIDES = ("N", "E", "S", "W")
DIRECTIONS = frozenset({"N", "NE", "E", "SE", "S", "SW", "W", "NW", "C"})


def feature_word(kind: str, locale: str | None) -> str:
    return catalogs.text("tile_feature", kind, locale)


def tile_words(kind: TileKind, locale: str | None) -> str:
    """What the tile shows, e.g. "city on 2 sides with a pennant · road · field"."""
    oriented = kind.oriented(0)
    parts: list[str] = []
    for feature in oriented.features:
        if feature.type == "field":
            continue
        sides = len({p // 3 for p in feature.positions})
        text = feature_word(feature.type, locale)
        if feature.type == "city" and sides:
            text = catalogs.plural("tile_words", "city_sides", sides, locale, word=text)
        if feature.pennants:
            text = catalogs.text("tile_words", "pennant", locale, word=text)
        parts.append(text)
    if not parts:
        parts.append(feature_word("field", locale))
    return " · ".join(dict.fromkeys(parts))


def sides_words(oriented: Oriented, locale: str | None) -> str:
    """What lies on each side once turned: "N city · E road · S field · W road"."""
    out = []
    for side, letter in zip(SIDES, oriented.edges, strict=False):
        feature = EDGE_FEATURES.get(letter)
        if feature is not None:
            out.append(f"{catalogs.text('side', side, locale)} {feature_word(feature, locale)}")
    return " · ".join(out)


def direction(oriented: Oriented, at: int | str) -> str:
    """The compass direction of a figure spot on its tile: N, NE, ..., or C near the centre."""
    if isinstance(at, str) and at in CORNER_SPOTS:
        return at if at in DIRECTIONS else "C"
    x, y = spot_point(oriented, at)
    dx, dy = x - 0.5, y - 0.5
    if abs(dx) < 0.12 and abs(dy) < 0.12:
        return "C"
    ns = "N" if dy < -0.12 else ("S" if dy > 0.12 else "")
    ew = "W" if dx < -0.12 else ("E" if dx > 0.12 else "")
    return (ns + ew) or "C"


def spot_words(oriented: Oriented, at: int | str, locale: str | None) -> str:
    """The feature under a spot and where it lies: "road, south", "cloister"."""
    local = -1 if isinstance(at, str) and at in CORNER_SPOTS else oriented.feature_at(at)
    kind = oriented.features[local].type if local >= 0 else "field"
    where = direction(oriented, at)
    word = feature_word(kind, locale)
    if where == "C":
        return word
    return f"{word}, {catalogs.text('direction', where, locale)}"


def tiles_in_words(snap: Snapshot) -> Callable[[str], str] | None:
    """Tile kinds of this game in words, as narration names them."""
    game = snap.game
    if game is None:
        return None
    kinds, locale = game.kinds, snap.locale
    return lambda name: tile_words(kinds[name], locale) if name in kinds else name


def compass(dx: int, dy: int) -> str:
    """The direction of a step of ``dx`` squares east and ``dy`` south: N, NE, ... (C: none)."""
    if dx == dy == 0:
        return "C"
    sector = round(math.atan2(-dy, dx) / (math.pi / 4)) % 8
    return ("E", "NE", "N", "NW", "W", "SW", "S", "SE")[sector]


def wagon_words(game: Game, x: int, y: int, at: int | str, locale: str | None) -> tuple[str, str]:
    """A wagon target in words: its feature and where it lies on its tile ("road, west"), and
    where that tile lies from the last tile ("on the last tile", "2 squares north of the last
    tile")."""
    spot = spot_words(game.board.tiles[(x, y)].oriented, at, locale)
    last = game.last_pos or (x, y)
    dx, dy = x - last[0], y - last[1]
    if dx == dy == 0:
        return spot, catalogs.text("ui", "wagon_on_last", locale)
    steps = max(abs(dx), abs(dy))
    way = catalogs.text("direction", compass(dx, dy), locale)
    return spot, catalogs.plural("ui", "wagon_near", steps, locale, direction=way)
