"""The Big Box in a turn: the figure menu names the new figures by their role and the feature
they would stand on, and a builder's second tile is told as such."""

from __future__ import annotations

import random

from bot.turn_view import figure_choices, turn_screen
from bot.ui.turn.flow import figure_label
from engine import Game, Phase, Setup
from engine.carcassonne import traders_builders
from engine.cli import random_action

ALL = ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")


def labels_in_play(seeds: range) -> dict[str, set[str]]:
    """Every figure menu label met in random games, by figure, in English."""
    found: dict[str, set[str]] = {}
    for seed in seeds:
        game = Game(Setup(players=("A", "B"), seed=seed, expansions=ALL))
        rng = random.Random(seed)
        while not game.finished:
            if game.phase is Phase.FIGURE:
                for choice in figure_choices(game):
                    label = figure_label(choice, "en").replace(f"{choice.number} ·", "1 ·", 1)
                    found.setdefault(choice.figure, set()).add(label)
            game.play(random_action(game, rng))
    return found


def test_the_figure_menu_names_the_large_follower_builder_and_pig_with_their_feature() -> None:
    found = labels_in_play(range(4))
    assert {"1 · large follower on the city", "1 · large follower on the road"} <= found[
        "large_follower"
    ]
    assert found["builder"] <= {"1 · builder on the city", "1 · builder on the road"}
    assert found["pig"] == {"1 · pig on the farmers' field"}
    french = Game(Setup(players=("A", "B"), seed=0, expansions=ALL))
    rng = random.Random(0)
    while not any(c.figure == "large_follower" for c in figure_choices(french)):
        french.play(random_action(french, rng))
    large = next(c for c in figure_choices(french) if c.figure == "large_follower")
    assert "grand partisan sur" in figure_label(large, "fr")
    assert "großer Gefolgsmann auf" in figure_label(large, "de")


def test_a_builders_second_tile_is_a_turn_of_its_own_told_as_such() -> None:
    for seed in range(40):
        game = Game(Setup(players=("A", "B"), seed=seed, expansions=("traders_builders",)))
        rng = random.Random(seed)
        while not game.finished:
            before = (game.turn, game.current)
            game.play(random_action(game, rng))
            if game.phase is Phase.TILE and turn_screen(game).bonus == "builder":
                assert game.current == before[1] and game.turn == before[0] + 1
                assert traders_builders.of(game).bonus_turn
                return
            if game.phase is Phase.TILE and game.turn != before[0]:
                assert turn_screen(game).bonus is None
    raise AssertionError("no builder earned a second tile in 40 random games")
