"""Tiles and figure spots in words: what a player reads instead of codes.

A tile is never named by its code in a message (the codes look like square letters): it is
described by what it shows ("city on 2 sides with a pennant · road"). A rotation offered in a
menu says what lies on each side once turned ("N city · E road · S field · W road"). A figure
spot says its feature and where it lies on the tile ("road, south"), in words no other spot of
the tile shares; a wagon target says that and where its tile lies from the last tile.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import catalogs
from bot.spot_words import SIDES, feature_word, spot_words
from engine.core.tiles import Feature, Oriented, TileKind

if TYPE_CHECKING:
    from bot.ui.turn.state import Snapshot
    from engine import Game

#: Marks of a feature said after "with": an inn (road), a cathedral (city), a well (the castle's
#: path), a market (its courtyard), gold (a forest of Hunters & Gatherers).
MARKS = (
    ("inn", "with_inn"),
    ("cathedral", "with_cathedral"),
    ("well", "with_well"),
    ("market", "with_market"),
    ("nugget", "with_gold"),
)


def _marks(feature: Feature, locale: str | None) -> list[str]:
    """What a feature carries, in words: its pennants, goods, inn, cathedral, well, market."""
    found = []
    if feature.pennants == 1:
        found.append(catalogs.text("tile_words", "with_pennant", locale))
    elif feature.pennants > 1:
        found.append(catalogs.plural("narrate", "pennants", feature.pennants, locale))
    goods = feature.extra.get("goods")
    if goods:
        found.append(catalogs.text("goods", str(goods), locale))
    found += [
        catalogs.text("tile_words", key, locale) for mark, key in MARKS if feature.extra.get(mark)
    ]
    return found


def _with(text: str, marks: list[str], locale: str | None) -> str:
    if not marks:
        return text
    what = catalogs.text("narrate", "and", locale).join(marks)
    return catalogs.text("tile_words", "with", locale, word=text, what=what)


def _sides(feature: Feature) -> int:
    return len({p // 3 for p in feature.positions})


def _cities(cities: list[Feature], locale: str | None) -> str:
    """One city: "city on 2 sides with a pennant"; several separate ones on one tile:
    "2 separate cities (1 side each)", "2 separate cities (2 sides with wine; 1 side)"."""
    if len(cities) == 1:
        city = cities[0]
        word = feature_word("city", locale)
        text = catalogs.plural("tile_words", "city_sides", _sides(city), locale, word=word)
        return _with(text, _marks(city, locale), locale)
    each = [
        _with(catalogs.plural("tile_words", "sides", _sides(c), locale), _marks(c, locale), locale)
        for c in cities
    ]
    if len(set(each)) == 1:
        details = catalogs.text("tile_words", "each", locale, what=each[0])
    else:
        details = catalogs.text("tile_words", "separator", locale).join(each)
    return catalogs.plural("tile_words", "cities", len(cities), locale, details=details)


def tile_words(kind: TileKind, locale: str | None) -> str:
    """What the tile shows, every feature named: "city on 2 sides with a pennant · road",
    "2 separate cities (1 side each)", "road with an inn · cloister", "city on 2 sides with
    wine"."""
    oriented = kind.oriented(0)
    cities = [f for f in oriented.features if f.type == "city"]
    parts: list[str] = [_cities(cities, locale)] if cities else []
    for feature in oriented.features:
        if feature.type in ("field", "city"):
            continue
        parts.append(_with(feature_word(feature.type, locale), _marks(feature, locale), locale))
    if not parts:
        parts.append(feature_word("field", locale))
    return " · ".join(dict.fromkeys(parts))


def sides_words(oriented: Oriented, locale: str | None) -> str:
    """What lies on each side once turned: "N city · E road · S field · W road" (the feature
    at the middle of each side, whatever the game: a courtyard is a courtyard, a river a
    river)."""
    out = []
    for side, position in zip(SIDES, (1, 4, 7, 10), strict=True):
        local = oriented.at_position[position]
        if local >= 0:
            word = feature_word(oriented.features[local].type, locale)
            out.append(f"{catalogs.text('side', side, locale)} {word}")
    return " · ".join(out)


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
    return spot, from_last(game, x, y, locale)


def from_last(game: Game, x: int, y: int, locale: str | None) -> str:
    """Where square (x, y) lies from the last tile placed: "on the last tile", "2 squares
    north of the last tile" (the wagon's targets, the abbey's holes)."""
    last = game.last_pos or (x, y)
    dx, dy = x - last[0], y - last[1]
    if dx == dy == 0:
        return catalogs.text("ui", "wagon_on_last", locale)
    steps = max(abs(dx), abs(dy))
    way = catalogs.text("direction", compass(dx, dy), locale)
    return catalogs.plural("ui", "wagon_near", steps, locale, direction=way)
