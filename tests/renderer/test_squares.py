"""Every lettered square in the turn picture, one letter per square, wagon targets apart.

The counts of ``python -m benchmarks.squares`` on a fixed set of random decisions (late turns
included): no legal square without a letter, no lettered square left out of the picture, no
square with two letters or two letters over each other, no wagon target over another, letters
at least 11 px tall at 400 px wide. The checks themselves are tried on pictures spoilt on
purpose, so that a count that cannot rise does not pass for a zero.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from benchmarks import squares
from bot.turn_view import turn_screen
from bot.ui.turn.post import tile_card
from engine import Game
from renderer.options import RenderOptions
from renderer.phone import turn_picture

CASES = [
    ("carcassonne", (), 5, {}),
    ("carcassonne", ("abbey_mayor",), 6, {}),
    ("carcassonne", squares.EVERY, 4, {}),
    ("carcassonne", (), 3, {"hand": True}),
    ("hunters", (), 3, {}),
    ("castle", (), 2, {}),
]


@pytest.mark.parametrize(("kind", "expansions", "players", "options"), CASES)
def test_every_legal_square_is_lettered_once_in_the_picture(
    kind: str, expansions: tuple[str, ...], players: int, options: dict[str, Any]
) -> None:
    counts = squares.measure(kind, expansions, players, options, 12, seed=7)
    assert counts.decisions == 12 and counts.legal > 0
    assert counts.unlettered == 0
    assert counts.outside == 0, counts.notes
    assert counts.stacked == 0
    assert counts.wagon_bad == 0
    assert counts.smallest >= 11


def test_big_boxes_of_abbey_and_mayor_move_wagons_and_show_far_squares_close_up() -> None:
    """The set above covers what it is meant to: wagon decisions, and close-ups."""
    counts = squares.measure("carcassonne", squares.EVERY, 4, {}, 30, seed=3)
    assert counts.insets > 0
    found = squares.measure("carcassonne", ("abbey_mayor",), 6, {}, 40, seed=1)
    assert found.wagons > 0 and found.wagon_bad == 0


def late_turn(seed: int = 3) -> tuple[Game, dict[tuple[int, int], str]]:
    for kind, game in squares.decisions("carcassonne", squares.EVERY, 4, {}, seed):
        if kind == "tile" and game.turn > 60:
            return game, dict(turn_screen(game).labels)
    raise AssertionError("no late turn")


def test_the_checks_count_a_square_left_out_a_second_letter_and_letters_over_each_other() -> None:
    game, labels = late_turn()
    card = tile_card(turn_screen(game))
    picture = turn_picture(game, RenderOptions(), candidates=labels, card=card)
    clean = squares.Counts()
    squares.check_turn(game, picture, labels, clean)
    assert (clean.unlettered, clean.outside, clean.stacked) == (0, 0, 0)
    marks = picture.measures.marks
    (text, pos, box), (_, other, box2) = marks[0], marks[1]
    spoilt = [
        marks[1:],  # a letter never drawn
        [*marks, (text, pos, box2)],  # its square lettered twice
        [(text, pos, box), (marks[1][0], other, box), *marks[2:]],  # one letter over another
    ]
    found = []
    for wrong in spoilt:
        counts = squares.Counts()
        measures = dataclasses.replace(picture.measures, marks=wrong)
        squares.check_turn(game, dataclasses.replace(picture, measures=measures), labels, counts)
        found.append((counts.outside > 0, counts.stacked > 0))
    assert found == [(True, False), (False, True), (False, True)]
    fewer = dict(list(labels.items())[1:])
    counts = squares.Counts()
    squares.check_turn(game, picture, fewer, counts)
    assert counts.unlettered == 1
