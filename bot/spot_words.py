"""A figure spot in words, the feature under it and where it lies on the tile ("road, south"),
and a figure choice by its name ("knight", "mayor"): what the turn step, the typed command and
the live board all say of a place (core: no Discord).
"""

from __future__ import annotations

import catalogs
from bot.narrate import role_name as role_words
from bot.turn_view import FigureChoice
from engine.core.tiles import Oriented
from renderer.board import spot_point
from renderer.geometry import CORNER_SPOTS

#: The four sides, then the eight directions of a spot and the centre (catalog contexts ``side``
#: and ``direction``).
SIDES = ("N", "E", "S", "W")
DIRECTIONS = frozenset({"N", "NE", "E", "SE", "S", "SW", "W", "NW", "C"})


def feature_word(kind: str, locale: str | None) -> str:
    return catalogs.text("tile_feature", kind, locale)


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


#: Figures offered with the feature they would stand on: "mayor on the city", "large follower
#: on the road", "builder on the city", "pig on the field"; they are named by their kind, the
#: others by the role the engine gives them there (knight, thief, monk, farmer, hunter...).
ON_FEATURE = frozenset({"mayor", "wagon", "large_follower", "builder", "pig"})


def figure_name(choice: FigureChoice, locale: str) -> str:
    """How a figure choice is called: knight, thief, monk, farmer, mayor, wagon, barn, large
    follower, builder, pig, messenger, hunter, hut."""
    name = choice.figure if choice.figure in ON_FEATURE else choice.role
    return role_words(name, locale).split(" ", 1)[-1]
