"""Every picture draws random games of every combination of the Big Box expansions (with Abbey
& Mayor too), for 2 to 6 players: the phone turn picture with the player strip's new columns,
the whole board and the end picture with its goods category."""

from __future__ import annotations

import itertools

import pytest
from render_helpers import decode, expansion_game

from renderer import RenderOptions, render_board, render_game_end
from renderer.phone import turn_picture

EXPANSIONS = ("inns_cathedrals", "traders_builders", "river", "abbey_mayor")
COMBINATIONS = [combo for n in range(1, 5) for combo in itertools.combinations(EXPANSIONS, n)]


@pytest.mark.parametrize("index", range(len(COMBINATIONS)))
def test_turn_board_and_end_pictures_draw_every_expansion_combination(index: int) -> None:
    expansions = COMBINATIONS[index]
    players = 2 + index % 5
    game = expansion_game(expansions, players, seed=index, turns=None)
    options = RenderOptions(lang=("en", "fr", "de")[index % 3])
    board = decode(render_board(game, options))
    end = decode(render_game_end(game, options))
    assert board.width > 200 and end.height > board.height // 2
    middle = expansion_game(expansions, players, seed=index, turns=30)
    phone = turn_picture(middle, options).image
    assert phone.width == 960


def test_the_player_strip_counts_goods_and_the_new_figures() -> None:
    game = expansion_game(("inns_cathedrals", "traders_builders"), 6, seed=4, turns=None)
    from renderer.phone import COLUMNS, figure_counts

    counts = figure_counts(game, 0)
    assert {"large_follower", "builder", "pig"} <= set(counts) <= set(COLUMNS)
