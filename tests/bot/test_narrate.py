"""Narration: engine events and refusals as player sentences, in English, French and German."""

from __future__ import annotations

import pytest

from bot.narrate import describe_score, engine_error, narrate
from engine import (
    Event,
    FeatureScored,
    FigurePlaced,
    FigureReturned,
    Game,
    GameEnded,
    IllegalActionError,
    Pass,
    PlaceFigure,
    PlaceTile,
    Setup,
    TileDiscarded,
    TilePlaced,
)

NAMES = ["Alice", "Bob"]


def test_a_turn_reads_as_one_sentence_then_its_scores() -> None:
    events: list[Event] = [
        TilePlaced(1, "E", 0, -1, 180),
        FigurePlaced(1, "follower", "knight", 0, -1, 6),
        FeatureScored("city", {1: 4}, final=False, tiles=2, pennants=0),
        FigureReturned(1, "follower", 0, -1),
    ]
    assert narrate(events, NAMES, "en") == [
        "Bob placed a tile (E) at (0, -1) and put a knight on it.",
        "Bob scored 4 for the city (2 tiles, 0 pennants).",
    ]
    assert narrate(events, NAMES, "fr") == [
        "Bob a posé une tuile (E) en (0, -1) et y a mis un chevalier.",
        "Bob marque 4 points pour la ville (2 tuiles, 0 blason).",
    ]


def test_a_tie_pays_each_and_says_so() -> None:
    event = FeatureScored("city", {0: 10, 1: 10}, final=False, tiles=4, pennants=1)
    assert describe_score(event, NAMES, "en") == (
        "Alice and Bob scored 10 each for the city (4 tiles, 1 pennant)."
    )
    assert describe_score(event, NAMES, "fr-FR").startswith(
        "Alice et Bob marquent 10 points chacun"
    )


def test_end_of_game_scores_discards_and_the_winner() -> None:
    events: list[Event] = [
        TileDiscarded(0, "X"),
        FeatureScored("field", {0: 6}, final=True, details={"cities": 2}),
        GameEnded((30, 30), (0, 1)),
    ]
    assert narrate(events, NAMES, "en") == [
        "A tile (X) fitted nowhere and was removed from the game.",
        "Alice scored 6 for the farmers' field at the end (2 completed cities).",
        "Game over! Alice and Bob share the win with 30 points.",
    ]
    assert narrate([GameEnded((12, 30), (1,))], NAMES, "fr") == [
        "Partie terminée ! Bob gagne avec 30 points."
    ]


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "already holds a tile"), ("fr", "porte déjà une tuile")],
)
def test_engine_refusals_are_translated(locale: str, expected: str) -> None:
    game = Game(Setup(players=("A", "B"), seed=1))
    with pytest.raises(IllegalActionError) as refused:
        game.play(PlaceTile(0, 0, 0))
    assert expected in engine_error(refused.value, locale)


def test_every_engine_refusal_code_of_a_random_game_has_french_text() -> None:
    import catalogs

    game = Game(Setup(players=("A", "B"), seed=3))
    codes = set()
    for action in [PlaceTile(0, 0, 0), PlaceTile(5, 5, 0)]:
        with pytest.raises(IllegalActionError) as refused:
            game.play(action)
        codes.add(refused.value.code)
    assert all(catalogs.has_in("engine", code, "fr") for code in codes), codes


def test_the_big_box_reads_as_its_rulebook() -> None:
    from engine.core.events import GoodsTaken

    events: list[Event] = [
        TilePlaced(0, "E", 1, 0, 0),
        FigurePlaced(0, "large_follower", "knight", 1, 0, 6),
        FeatureScored("road", {0: 8}, final=False, tiles=4, marks=("inn",)),
        FeatureScored("city", {1: 15}, final=False, tiles=4, pennants=1, marks=("cathedral",)),
        GoodsTaken(0, {"wine": 2, "cloth": 1}, (1, 0)),
        FeatureScored("road", {1: 0}, final=True, tiles=3, complete=False, marks=("inn",)),
        FeatureScored("goods", {0: 10}, final=True, details={"good": "wine", "tokens": 3}),
    ]
    assert narrate(events, NAMES, "en") == [
        "Alice placed a tile (E) at (1, 0) and put a knight on it, a large follower.",
        "Alice scored 8 for the road (4 tiles, with an inn).",
        "Bob scored 15 for the city (4 tiles, 1 pennant, with a cathedral).",
        "Alice takes the goods of the city at (1, 0): 2 wine, 1 cloth.",
        "Bob scored 0 for the road at the end (an unfinished road with an inn scores nothing).",
        "Alice scored 10 for the most wine at the end (3 goods tokens).",
    ]
    french = narrate(events, NAMES, "fr")
    assert "un grand partisan" in french[0] and "avec une auberge" in french[1]
    assert "2 vin, 1 tissu" in french[3] and "la majorité de vin" in french[5]
    german = narrate(events, NAMES, "de")
    assert "ein großer Gefolgsmann" in german[0] and "mit Kathedrale" in german[2]
    assert "die Mehrheit bei Wein" in german[5]


def test_an_ordinary_road_or_city_is_not_called_an_inn_or_a_cathedral() -> None:
    plain = [
        FeatureScored("road", {0: 4}, final=False, tiles=4),
        FeatureScored("city", {0: 10}, final=False, tiles=4, pennants=1),
        FeatureScored("road", {0: 3}, final=True, tiles=3, complete=False),
        # Points that look like an inn's or a cathedral's: only the event's mark names one.
        FeatureScored("road", {0: 8}, final=False, tiles=4),
        FeatureScored("city", {0: 0}, final=True, tiles=3, complete=False),
    ]
    for locale, inn, cathedral in [
        ("en", "inn", "cathedral"),
        ("fr", "auberge", "cathédrale"),
        ("de", "Wirtshaus", "Kathedrale"),
    ]:
        for line in narrate(plain, NAMES, locale):
            assert inn not in line and cathedral not in line


def test_an_unfinished_cathedral_city_that_scores_0_under_half_is_named() -> None:
    # incomplete=half: an unfinished city without pennants scores 0 too; the mark tells them apart.
    game = Game(Setup(players=("Alice", "Bob"), seed=1, expansions=("inns_cathedrals",),
                      options={"incomplete": "half"}, draw=("IC01", "E", "M")))  # fmt: skip
    game.play(PlaceTile(0, 1, 0))
    game.play(PlaceFigure("follower", 0, 1, 1))  # Alice's knight in the cathedral city
    events = game.play(PlaceTile(0, -1, 270)) + game.play(Pass())
    assert game.finished
    (city,) = [e for e in events if isinstance(e, FeatureScored)]
    assert (city.complete, city.points, city.marks) == (False, {0: 0}, ("cathedral",))
    assert describe_score(city, NAMES, "en") == (
        "Alice scored 0 for the city at the end"
        " (an unfinished city with a cathedral scores nothing)."
    )
    assert "une ville inachevée avec une cathédrale ne rapporte rien" in describe_score(
        city, NAMES, "fr"
    )
    assert "eine unfertige Stadt mit Kathedrale bringt nichts" in describe_score(city, NAMES, "de")


@pytest.mark.parametrize(
    ("locale", "completed", "unfinished"),
    [
        ("en", "(4 tiles, with an inn)", "(an unfinished road with an inn scores nothing)"),
        ("fr", "avec une auberge)", "(une route inachevée avec une auberge ne rapporte rien)"),
        ("de", "mit Wirtshaus)", "(eine unfertige Straße mit Wirtshaus bringt nichts)"),
    ],
)
def test_inn_roads_read_the_same_in_every_language(
    locale: str, completed: str, unfinished: str
) -> None:
    done = FeatureScored("road", {0: 8}, final=False, tiles=4, marks=("inn",))
    open_road = FeatureScored("road", {1: 0}, final=True, tiles=1, complete=False, marks=("inn",))
    assert completed in describe_score(done, NAMES, locale)
    assert unfinished in describe_score(open_road, NAMES, locale)
