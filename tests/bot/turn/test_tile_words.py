"""Tiles in words name every feature: separate cities, pennants, inns, cathedrals, goods, the
castle's markets and wells, on the real tiles of every game and expansion, in every language."""

from __future__ import annotations

import re

import pytest

import catalogs
import engine.carcassonne.abbey_mayor
import engine.carcassonne.inns_cathedrals
import engine.carcassonne.river
import engine.carcassonne.traders_builders
import engine.castle
import engine.hunters  # noqa: F401  (registers the tile sets)
from bot.ui.turn.words import sides_words, tile_words
from engine.core.tiles import TileKind, load_set

SETS = ("base", "abbey_mayor", "inns_cathedrals", "traders_builders", "river", "hunters", "castle")
KINDS = [(name, kind) for name in SETS for kind in load_set(name)]


def kind(set_name: str, name: str) -> TileKind:
    return next(k for k in load_set(set_name) if k.name == name)


@pytest.mark.parametrize(
    ("set_name", "name", "lang", "words"),
    [
        ("base", "H", "en", "2 separate cities (1 side each)"),
        ("base", "H", "fr", "2 villes séparées (1 côté chacune)"),
        ("base", "H", "de", "2 getrennte Städte (je 1 Seite)"),
        ("base", "D", "en", "city on 1 side · road"),
        ("base", "C", "en", "city on 4 sides with a pennant"),
        ("abbey_mayor", "AM01", "en", "city on 4 sides with 2 pennants"),
        ("abbey_mayor", "AM03", "en", "2 separate cities (1 side with a pennant; 2 sides)"),
        ("inns_cathedrals", "IC01", "fr", "ville sur 4 côtés avec cathédrale"),
        ("inns_cathedrals", "IC11", "de", "Stadt an 2 Seiten · Straße mit Wirtshaus"),
        ("inns_cathedrals", "IC06", "fr", "2 villes séparées (2 côtés avec blason ; 1 côté)"),
        ("traders_builders", "TB01", "en", "city on 2 sides with grain"),
        ("traders_builders", "TB03", "de", "2 getrennte Städte (2 Seiten mit Stoff; 1 Seite)"),
        ("river", "R03", "en", "2 separate cities (1 side each) · river"),
        ("castle", "K22", "en", "path with a well · courtyard"),
        ("castle", "K14", "fr", "maison · cour avec marché · cour"),
        ("hunters", "L03", "en", "forest with gold · meadow · river · lake"),
    ],
)
def test_a_tile_reads_as_it_looks(set_name: str, name: str, lang: str, words: str) -> None:
    assert tile_words(kind(set_name, name), lang) == words


def count_of(text: str, word: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text))


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_every_feature_of_every_tile_is_named(lang: str) -> None:
    """Each real tile: the separate cities counted, every pennant, inn, cathedral, good,
    market, well and gold named once per feature that carries it."""
    assert len(KINDS) > 200
    for set_name, tile in KINDS:
        words = tile_words(tile, lang)
        features = tile.oriented(0).features
        cities = [f for f in features if f.type == "city"]
        if len(cities) > 1:
            many = catalogs.plural("tile_words", "cities", len(cities), lang, details="")
            assert words.startswith(many.split("(")[0]), (set_name, tile.name, words)
        elif cities:
            assert catalogs.text("tile_feature", "city", lang) in words, (tile.name, words)
        marks = {
            "inn": "with_inn",
            "cathedral": "with_cathedral",
            "well": "with_well",
            "market": "with_market",
            "nugget": "with_gold",
        }
        for mark, key in marks.items():
            carrying = sum(1 for f in features if f.extra.get(mark))
            said = count_of(words, catalogs.text("tile_words", key, lang))
            # Identical roads or courtyards are said once ("road with an inn" twice is one).
            assert (said > 0) == (carrying > 0), (set_name, tile.name, mark, words)
        for good in ("wine", "grain", "cloth"):
            carrying = sum(1 for f in features if f.extra.get("goods") == good)
            said = count_of(words, catalogs.text("goods", good, lang))
            assert said == carrying, (set_name, tile.name, good, words)
        pennants = [f.pennants for f in features if f.pennants]
        for n in pennants:
            shown = (
                catalogs.text("tile_words", "with_pennant", lang)
                if n == 1
                else catalogs.plural("narrate", "pennants", n, lang)
            )
            assert shown in words, (set_name, tile.name, words)


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_the_sides_are_the_features_of_the_game(lang: str) -> None:
    """A rotation's description names the feature on each side as its game does: The Castle's
    courtyards are courtyards (never cities), The River's and Hunters & Gatherers' rivers are
    rivers (never walls or roads)."""
    word = {k: catalogs.text("tile_feature", k, lang) for k in ("city", "road", "wall", "river")}
    for set_name, tile in KINDS:
        for rotation in (0, 90, 180, 270):
            sides = sides_words(tile.oriented(rotation), lang)
            shown = {w.split(" ", 1)[1] for w in sides.split(" · ") if w}
            if set_name == "castle":
                assert word["city"] not in shown, (tile.name, sides)
                if "C" in tile.edges:
                    assert catalogs.text("tile_feature", "courtyard", lang) in shown
            if set_name == "hunters" and "R" in tile.edges:
                assert word["road"] not in shown, (tile.name, sides)
            if set_name == "river":
                assert word["wall"] not in shown and word["river"] in shown, (tile.name, sides)
