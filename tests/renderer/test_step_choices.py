"""The figure step a thumb can use: on a fixed set of random games of every family and
expansion, no step picture numbers more than eight places and no two numbered badges overlap,
as :mod:`benchmarks.choices` measures them from the drawn badges' boxes; every spot has words no
other spot of its tile shares; and the measure itself catches a crowded or overlapping layout."""

from __future__ import annotations

import collections

import pytest

from benchmarks import choices
from bot.spot_words import spot_words
from bot.turn_view import PAGE_PLACES
from engine import Game, Setup
from renderer import board
from renderer.board import overlaps
from renderer.geometry import CORNER_SPOTS

#: Figure steps drawn per family (the benchmark draws more, see its docstring).
DECISIONS = 25
SEED = 3
BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")


@pytest.mark.parametrize(("name", "family", "players"), choices.FAMILIES, ids=lambda v: str(v))
def test_no_step_picture_is_crowded_or_overlapping(
    name: str, family: dict[str, object], players: int
) -> None:
    found = choices.survey(family, players, DECISIONS, SEED)
    assert found.decisions == DECISIONS, name
    assert 0 < found.most_places <= PAGE_PLACES, name
    assert found.crowded == 0, name
    assert found.overlaps == 0, (name, found.overlapping)
    assert found.smallest_badge >= 2 * board.BADGE_FLOOR, name


def test_the_measure_catches_overlapping_badges(monkeypatch: pytest.MonkeyPatch) -> None:
    assert overlaps([(0, 0, 10, 10), (10, 0, 20, 10)]) == []  # touching is not overlapping
    assert overlaps([(0, 0, 10, 10), (9, 9, 20, 20), (30, 30, 40, 40)]) == [(0, 1)]

    def heaped(points: list[tuple[int, int]], gap: float) -> list[tuple[float, float]]:
        return [(float(points[0][0]), float(points[0][1]))] * len(points)

    monkeypatch.setattr(board, "apart", heaped)  # every badge on the first one
    family, players = choices.FAMILIES[0][1], choices.FAMILIES[0][2]
    found = choices.survey(family, players, 10, SEED)
    assert found.overlaps > 0 and found.overlapping


def test_the_measure_catches_a_crowded_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.turn_view as view

    hunters = next(f for n, f, _ in choices.FAMILIES if n == "Hunters & Gatherers")
    paged = choices.survey(hunters, 3, 30, 6)  # seed 6: tiles with nine places early on
    assert paged.paged > 0 and paged.most_places <= PAGE_PLACES and paged.crowded == 0
    monkeypatch.setattr(view, "spot_pages", lambda places: (tuple(places),))  # one page always
    found = choices.survey(hunters, 3, 30, 6)
    assert found.most_places > PAGE_PLACES and found.crowded > 0


def all_tiles() -> list[tuple[str, Game]]:
    games = [
        Game(Setup(players=("A", "B"), expansions=BIG_BOX)),
        Game(Setup(players=("A", "B"), game="hunters")),
        Game(Setup(players=("A", "B"), game="castle")),
    ]
    return [(name, game) for game in games for name in game.kinds]


@pytest.mark.parametrize("locale", ["en", "fr", "de"])
def test_every_spot_of_every_tile_has_words_of_its_own(locale: str) -> None:
    seen = 0
    for name, game in all_tiles():
        kind = game.kinds[name]
        for rotation in (0, 90, 180, 270):
            oriented = kind.oriented(rotation)
            spots: list[int | str] = [oriented.at_label(i) for i in range(len(oriented.features))]
            spots += list(CORNER_SPOTS)
            words = collections.Counter(spot_words(oriented, at, locale) for at in spots)
            twice = [w for w, n in words.items() if n > 1]
            assert not twice, (name, rotation, twice)
            seen += 1
    assert seen > 400
