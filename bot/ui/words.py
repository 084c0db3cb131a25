"""Tiles and figure spots in words: what a player reads instead of codes.

A tile is never named by its code in a message (the codes look like square letters): it is
described by what it shows ("city on 2 sides with a pennant · road"). A rotation offered in a
menu says what lies on each side once turned ("N city · E road · S field · W road"). A figure
spot says its feature and where it lies on the tile ("road, south").
"""

from __future__ import annotations

from bot.i18n import language
from engine.tiles import Oriented, TileKind
from renderer.board import spot_point
from renderer.geometry import CORNER_SPOTS

#: Feature words, in the singular (English, French).
FEATURE_WORDS: dict[str, tuple[str, str]] = {
    "city": ("city", "ville"),
    "road": ("road", "route"),
    "field": ("field", "pré"),
    "cloister": ("cloister", "abbaye"),
    "river": ("river", "rivière"),
    "lake": ("lake", "lac"),
    "forest": ("forest", "forêt"),
    "meadow": ("meadow", "prairie"),
    "path": ("path", "chemin"),
    "tower": ("tower", "tour"),
    "house": ("house", "maison"),
    "courtyard": ("courtyard", "cour"),
    "wall": ("wall", "mur"),
}
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
#: The four sides and the eight directions of a spot, (English, French).
SIDES = (("N", "N"), ("E", "E"), ("S", "S"), ("W", "O"))
DIRECTIONS: dict[str, tuple[str, str]] = {
    "N": ("north", "nord"),
    "NE": ("north-east", "nord-est"),
    "E": ("east", "est"),
    "SE": ("south-east", "sud-est"),
    "S": ("south", "sud"),
    "SW": ("south-west", "sud-ouest"),
    "W": ("west", "ouest"),
    "NW": ("north-west", "nord-ouest"),
    "C": ("centre", "centre"),
}


def _fr(locale: str | None) -> int:
    return 1 if language(locale) == "fr" else 0


def feature_word(kind: str, locale: str | None) -> str:
    return FEATURE_WORDS.get(kind, (kind, kind))[_fr(locale)]


def tile_words(kind: TileKind, locale: str | None) -> str:
    """What the tile shows, e.g. "city on 2 sides with a pennant · road · field"."""
    fr = _fr(locale)
    oriented = kind.oriented(0)
    parts: list[str] = []
    for feature in oriented.features:
        if feature.type == "field":
            continue
        sides = len({p // 3 for p in feature.positions})
        text = feature_word(feature.type, locale)
        if feature.type == "city" and sides:
            text += (" sur {n} côté{s}" if fr else " on {n} side{s}").format(
                n=sides, s="s" if sides > 1 else ""
            )
        if feature.pennants:
            text += " avec blason" if fr else " with a pennant"
        parts.append(text)
    if not parts:
        parts.append(feature_word("field", locale))
    return " · ".join(dict.fromkeys(parts))


def sides_words(oriented: Oriented, locale: str | None) -> str:
    """What lies on each side once turned: "N city · E road · S field · W road"."""
    fr = _fr(locale)
    out = []
    for side, letter in zip(SIDES, oriented.edges, strict=False):
        feature = EDGE_FEATURES.get(letter)
        if feature is not None:
            out.append(f"{side[fr]} {feature_word(feature, locale)}")
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
    return f"{word}, {DIRECTIONS[where][_fr(locale)]}"
