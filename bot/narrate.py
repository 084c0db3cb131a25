"""What happened, in words: engine events and engine refusals as short player-facing text.

English, French and German. The engine speaks in events (facts) and error codes; this module is
the only place that turns them into sentences, so the bot's messages read the same everywhere.

>>> from engine import FeatureScored
>>> describe_score(FeatureScored("city", {0: 8}, final=False, tiles=3, pennants=1), ["Bob"], "en")
'Bob scored 8 for the city (3 tiles, 1 pennant).'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import catalogs
from bot.i18n import language
from engine import (
    Event,
    FeatureScored,
    FigurePlaced,
    GameEnded,
    GameError,
    PalacePlaced,
    TileDiscarded,
    TilePlaced,
    WallTileTaken,
    WallTileUsed,
)
from engine.core.events import BonusTileDrawn, GoodsTaken, PlayerLeft, TurnSkipped, WagonMoved


def text(key: str, locale: str | None, **params: Any) -> str:
    return catalogs.text("narrate", key, locale, **params)


def feature_name(kind: str, locale: str | None) -> str:
    """A scored feature with its article: "the city", "la ville"."""
    return catalogs.text("feature", kind, locale) if catalogs.has("feature", kind) else kind


def role_name(role: str, locale: str | None) -> str:
    """A figure by its role: "a knight", "le maire"."""
    return catalogs.text("role", role, locale) if catalogs.has("role", role) else role


def where(x: int, y: int) -> str:
    """A square as the board image labels it: column x, row y."""
    return f"({x}, {y})"


def join_names(names: Sequence[str], locale: str | None) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + text("and", locale) + names[-1]


def describe_score(event: FeatureScored, names: Sequence[str], locale: str | None) -> str:
    """One scoring, e.g. "Alice and Bob scored 10 each for the city (4 tiles, 1 pennant)."."""
    feature = feature_name(event.feature, locale)
    if event.feature == "goods":  # a majority of Traders & Builders' goods: "the most wine"
        feature = feature_name(f"goods_{event.details.get('good')}", locale)
    if event.feature == "wall" and event.details.get("wall"):
        feature = text("wall_tile", locale, n=event.details["wall"])
    winners = [names[p] for p in sorted(event.points)]
    if not winners:
        return text("nobody", locale, feature=feature)
    points = next(iter(event.points.values()))
    key = "scored_each" if len(winners) > 1 else "scored_one"
    sentence = count(key, points, locale, players=join_names(winners, locale), feature=feature)
    detail = _detail(event, locale)
    if event.final:
        sentence += text("final", locale)
    return sentence + (f" ({detail})" if detail else "") + "."


def _detail(event: FeatureScored, locale: str | None) -> str:
    if event.feature in CASTLE_FEATURES:
        return _castle_detail(event, locale)
    if event.feature == "goods":
        return count("tokens", int(event.details.get("tokens", 0)), locale)
    mark = inns_cathedrals_mark(event)
    if mark in ("inn_unfinished", "cathedral_unfinished"):
        return text(mark, locale)
    marked = f", {text(mark, locale)}" if mark else ""
    if event.feature == "city" and event.tiles:
        tiles, pennants = (
            count("tiles", event.tiles, locale),
            count("pennants", event.pennants, locale),
        )
        return f"{tiles}, {pennants}{marked}"
    if event.feature == "road" and event.tiles:
        return count("tiles", event.tiles, locale) + marked
    if event.feature in HUNTERS_FEATURES:
        return _hunters_detail(event, locale)
    cities = event.details.get("cities")
    if cities:
        return count("cities", int(cities), locale)
    return ""


def inns_cathedrals_mark(event: FeatureScored) -> str | None:
    """The narration's word for an inn on a scored road or a cathedral in a scored city (Inns
    & Cathedrals), from the event's marks: "with an inn", or, unfinished at the end (0 points),
    "an unfinished road with an inn scores nothing"."""
    for mark in ("inn", "cathedral"):
        if mark in event.marks:
            return f"with_{mark}" if event.complete else f"{mark}_unfinished"
    return None


HUNTERS_FEATURES = frozenset({"river", "forest", "hut", "meadow"})


def count(key: str, n: int, locale: str | None, **params: Any) -> str:
    """A narration message with a number in it, in the plural form the language wants."""
    return catalogs.plural("narrate", key, n, locale, **params)


def _hunters_detail(event: FeatureScored, locale: str | None) -> str:
    """What a Hunters & Gatherers score was made of: tiles, fish, mushrooms, game."""
    d = event.details
    parts: list[str] = []
    if event.feature in ("river", "forest") and event.tiles:
        parts.append(count("tiles", event.tiles, locale))
    if event.feature == "river" and d.get("fish"):
        parts.append(count("fish", int(d["fish"]), locale))
    if event.feature == "forest":
        if d.get("mushrooms"):
            parts.append(count("mushrooms", int(d["mushrooms"]), locale))
        if d.get("nuggets"):
            parts.append(text("gold", locale))
    if event.feature == "hut":
        parts.append(count("system_fish", int(d.get("fish", 0)), locale))
    if event.feature == "meadow":
        tigers = int(d.get("tiger", 0))
        deer = int(d.get("deer", 0))
        for animal in ("deer", "mammoth", "aurochs"):
            if d.get(animal):
                parts.append(count(animal, int(d[animal]), locale))
        if d.get("fire") and tigers:
            parts.append(text("fire", locale))
        elif tigers and deer:
            parts.append(count("tiger_ate", min(tigers, deer), locale))
        if d.get("shrine"):
            parts.append(text("shrine", locale))
    return ", ".join(parts)


def _bonus_kinds() -> frozenset[str]:
    from engine.core.tiles import load_set

    return frozenset(k.name for k in load_set("hunters") if k.extra.get("bonus"))


BONUS_TILES = _bonus_kinds()


TileWords = Callable[[str], str]


def narrate(
    events: Sequence[Event],
    names: Sequence[str],
    locale: str | None,
    tiles: TileWords | None = None,
) -> list[str]:
    """Sentences for a turn's events, in order; figure returns and turn starts stay silent.
    ``tiles`` names a tile kind in words ("city on 2 sides · road"); without it, its code."""
    lines: list[str] = []
    tile = tiles or str
    current: str | None = None
    for event in events:
        if isinstance(event, TilePlaced):
            if current:
                lines.append(current + text("end", locale))
            key = "placed_abbey" if event.kind == "ABBEY" else "placed"
            if event.kind in BONUS_TILES:
                key = "placed_bonus"
            current = text(
                key,
                locale,
                player=names[event.player],
                tile=tile(event.kind),
                where=where(event.x, event.y),
            )
        elif isinstance(event, FigurePlaced) and current is not None:
            role = role_name(event.role, locale)
            if event.figure == "large_follower":
                current += text("with_large", locale, role=role)
            elif event.figure == "barn":
                corner = catalogs.text("direction", str(event.at), locale)
                current += text("barn_figure", locale, role=role, corner=corner)
            else:
                current += text("with_figure", locale, role=role)
        else:
            if current:
                lines.append(current + text("end", locale))
                current = None
            line = _other(event, names, locale, tile)
            if line:
                lines.append(line)
    if current:
        lines.append(current + text("end", locale))
    return lines


def _other(event: Event, names: Sequence[str], locale: str | None, tile: TileWords = str) -> str:
    castle = _castle_event(event, names, locale)
    if castle is not None:
        return castle
    if isinstance(event, FeatureScored):
        return describe_score(event, names, locale) if event.points else ""
    if isinstance(event, TileDiscarded):
        return text("discarded", locale, tile=tile(event.kind))
    if isinstance(event, TurnSkipped):
        shown = tile(event.kind) if event.kind else "-"
        return text("skipped", locale, player=names[event.player], tile=shown)
    if isinstance(event, PlayerLeft):
        return text("left", locale, player=names[event.player])
    if isinstance(event, BonusTileDrawn):
        return text("bonus", locale, player=names[event.player], tile=tile(event.kind))
    if isinstance(event, GoodsTaken):
        goods = ", ".join(
            f"{n} {catalogs.text('goods', good, locale)}" for good, n in event.goods.items() if n
        )
        return text(
            "goods_taken",
            locale,
            player=names[event.player],
            where=where(*event.where),
            goods=goods,
        )
    if isinstance(event, WagonMoved):
        return text(
            "wagon_moved", locale, player=names[event.player], where=where(event.x, event.y)
        )
    if isinstance(event, GameEnded):
        winners = [names[p] for p in event.winners]
        key = "winners" if len(winners) > 1 else "winner"
        score = max(event.scores) if event.scores else 0
        return text(key, locale, players=join_names(winners, locale), score=score)
    return ""


CASTLE_FEATURES = frozenset({"path", "tower", "house", "courtyard", "palace", "wall"})


def _castle_detail(event: FeatureScored, locale: str | None) -> str:
    """What a score of The Castle was made of: tiles, a well, markets, a doubling wall tile."""
    d = event.details
    parts: list[str] = []

    if event.feature in ("path", "tower", "house") and event.tiles:
        parts.append(count("tiles", event.tiles, locale))
        if d.get("wells"):
            parts.append(text("with_well", locale))
        if d.get("wall"):
            parts.append(text("doubled", locale, n=d["wall"]))
    markets = d.get("markets")
    if event.feature in ("courtyard", "wall") and markets:
        parts.append(count("markets", int(markets), locale))
    if event.feature == "wall" and d.get("feature") in ("path", "tower", "house"):
        name = feature_name(str(d["feature"]), locale)
        parts.append(f"{name}, " + count("tiles", event.tiles, locale))
    if event.feature == "palace":
        parts.append(count("empty_area", event.tiles, locale))
    return ", ".join(parts)


def _castle_event(event: Event, names: Sequence[str], locale: str | None) -> str | None:
    """The Castle's own events: wall tiles taken and played, the palace built or moved."""
    if isinstance(event, WallTileTaken):
        meaning = text(f"wall_meaning_{event.wall}", locale)
        return text(
            "wall_taken",
            locale,
            player=names[event.player],
            space=event.space,
            wall=event.wall,
            meaning=meaning,
        )
    if isinstance(event, WallTileUsed):
        spot = where(*event.where) if event.where else ""
        return text(f"wall_used_{event.wall}", locale, player=names[event.player], where=spot)
    if isinstance(event, PalacePlaced):
        return count(
            "palace_moved" if event.moved else "palace_placed",
            event.tiles,
            locale,
            player=names[event.player],
            where=where(event.x, event.y),
        )
    return None


def engine_error(error: GameError, locale: str | None) -> str:
    """An engine refusal in the player's language (English is the engine's own text)."""
    if language(locale) != catalogs.DEFAULT and catalogs.has_in("engine", error.code, locale):
        try:
            return catalogs.text("engine", error.code, locale, **error.params)
        except (KeyError, IndexError):
            pass
    return str(error)
