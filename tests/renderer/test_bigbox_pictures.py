"""Every picture draws random games of every combination of the Big Box expansions (with Abbey
& Mayor too), for 2 to 6 players: the phone turn picture with the player strip's new columns,
the whole board and the end picture with its goods category."""

from __future__ import annotations

import itertools
import random

import pytest
from render_helpers import decode

from engine import Game, Pass, Phase, Setup
from renderer import RenderOptions, render_board, render_game_end
from renderer.phone import turn_picture

EXPANSIONS = ("inns_cathedrals", "traders_builders", "river", "abbey_mayor")
COMBINATIONS = [combo for n in range(1, 5) for combo in itertools.combinations(EXPANSIONS, n)]


def _game(expansions: tuple[str, ...], players: int, seed: int, turns: int | None) -> Game:
    setup = Setup(
        players=tuple(f"Player {i + 1}" for i in range(players)),
        seed=seed,
        expansions=expansions,
    )
    game = Game(setup)
    rng = random.Random(seed)
    while game.phase is not Phase.OVER and (turns is None or game.turn < turns):
        if game.phase is Phase.TILE:
            game.play(rng.choice(list(game.legal_placements())))
        else:
            figures = game.legal_figures()
            game.play(rng.choice(figures) if figures and rng.random() < 0.7 else Pass())
    return game


@pytest.mark.parametrize("index", range(len(COMBINATIONS)))
def test_turn_board_and_end_pictures_draw_every_expansion_combination(index: int) -> None:
    expansions = COMBINATIONS[index]
    players = 2 + index % 5
    game = _game(expansions, players, seed=index, turns=None)
    options = RenderOptions(lang=("en", "fr", "de")[index % 3])
    board = decode(render_board(game, options))
    end = decode(render_game_end(game, options))
    assert board.width > 200 and end.height > board.height // 2
    middle = _game(expansions, players, seed=index, turns=30)
    phone = turn_picture(middle, options).image
    assert phone.width == 960


def test_the_player_strip_counts_goods_and_the_new_figures() -> None:
    game = _game(("inns_cathedrals", "traders_builders"), 6, seed=4, turns=None)
    from renderer.phone import COLUMNS, figure_counts

    counts = figure_counts(game, 0)
    assert {"large_follower", "builder", "pig"} <= set(counts) <= set(COLUMNS)
