"""Tiles and figure spots in words: what a player reads instead of codes.

A tile is never named by its code in a message (the codes look like square letters): it is
described by what it shows ("city on 2 sides with a pennant · road"). A rotation offered in a
menu says what lies on each side once turned ("N city · E road · S field · W road"). A figure
spot says its feature and where it lies on the tile ("road, south"), in words that no other
spot of the tile shares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import catalogs
from engine.core.tiles import Oriented, TileKind
from renderer.board import spot_point
from renderer.geometry import CORNER_SPOTS

if TYPE_CHECKING:
    from bot.ui.turn.state import Snapshot

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


def _local(oriented: Oriented, at: int | str) -> int:
    """The local feature under spot ``at`` (-1 for a barn's corner or no feature)."""
    return -1 if isinstance(at, str) and at in CORNER_SPOTS else oriented.feature_at(at)


def edges_key(oriented: Oriented, local: int) -> str:
    """The sides of the tile a feature touches, in the order N, E, S, W: "NS", "ES", "" (a
    cloister)."""
    return "".join(SIDES[e] for e in sorted(oriented.features[local].edges))


def spot_words(oriented: Oriented, at: int | str, locale: str | None) -> str:
    """The feature under a spot and where it lies, unique on the tile: "road, south",
    "cloister", "field corner, south-east"; a feature through the centre, or two features of a
    kind lying the same way, are told by the sides each touches ("road, north-south" and
    "road, east-west", an en dash in the words)."""
    local = _local(oriented, at)
    corner = isinstance(at, str) and at in CORNER_SPOTS
    kind = "corner" if corner else (oriented.features[local].type if local >= 0 else "field")
    where = direction(oriented, at)
    parts = [feature_word(kind, locale)]
    if where != "C":
        parts.append(catalogs.text("direction", where, locale))
    if local >= 0 and (where == "C" or _looks_alike(oriented, local, where)):
        edges = edges_key(oriented, local)
        if edges:
            parts.append(catalogs.text("edges", edges, locale))
    return ", ".join(parts)


def _looks_alike(oriented: Oriented, local: int, where: str) -> bool:
    """Whether another feature of the tile has the same kind and lies the same way."""
    kind = oriented.features[local].type
    return any(
        j != local and f.type == kind and direction(oriented, oriented.at_label(j)) == where
        for j, f in enumerate(oriented.features)
    )


def tiles_in_words(snap: Snapshot) -> Callable[[str], str] | None:
    """Tile kinds of this game in words, as narration names them."""
    game = snap.game
    if game is None:
        return None
    kinds, locale = game.kinds, snap.locale
    return lambda name: tile_words(kinds[name], locale) if name in kinds else name
