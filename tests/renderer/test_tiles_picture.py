"""The tiles-left picture and the dead squares' marks on the board and turn pictures."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import catalogs
from engine import Game, Pass, Phase, Setup
from renderer.jobs import Job, run
from renderer.options import RenderOptions
from renderer.render import render_board
from renderer.tileart import tile_image
from renderer.tiles_left import (
    CAPTION,
    COLUMNS,
    GAP,
    TILE,
    shown_kinds,
    tiles_left_picture,
    title_lines,
)


def _played(setup: Setup, moves: int) -> Game:
    game = Game(setup)
    rng = random.Random(7)
    for _ in range(moves):
        if game.finished:
            break
        if game.decision.phase is Phase.TILE:
            placements = list(game.legal_placements())
            game.play(placements[rng.randrange(len(placements))])
        else:
            game.play(Pass())
    return game


def _dead_game() -> Game:
    """A base game (start D, then a cloister): three dead squares around the start."""
    return Game(Setup(players=("A", "B"), seed=0, draw=tuple("DBB")))


SETUPS = [
    Setup(players=("A", "B"), seed=3),
    Setup(players=("A", "B", "C"), seed=3, expansions=("abbey_mayor",), options={"hand": True}),
    Setup(game="hunters", players=("A", "B"), seed=3),
    Setup(game="castle", players=("A", "B"), seed=3),
]


@pytest.mark.parametrize("setup", SETUPS, ids=["base", "abbey_mayor_hand", "hunters", "castle"])
def test_one_tile_per_kind_left_in_rows_of_six(setup: Setup) -> None:
    game = _played(setup, 30)
    kinds = len(game.unplaced_tiles())
    image = tiles_left_picture(game, RenderOptions(dead_squares=True))
    rows = -(-kinds // COLUMNS)
    assert image.width < 900
    # The title (three lines: to place, in the stack, dead squares) and the rows of tiles.
    assert rows * (TILE + CAPTION) < image.height < rows * (TILE + CAPTION) + 250


def test_the_counts_are_drawn_large_enough_for_a_phone() -> None:
    game = _dead_game()
    image = tiles_left_picture(game, RenderOptions(dead_squares=True))
    # At 400 px wide, the count under the first tile (times 1) is at least 14 px tall.
    small = image.resize((400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS)
    scale = 400 / image.width
    bottom = image.height - GAP
    band = small.crop(
        (0, round((bottom - CAPTION) * scale), round((GAP + TILE) * scale), small.height)
    )
    ink = band.convert("L").point(lambda v: 255 if v < 100 else 0).getbbox()
    assert ink is not None, "no count drawn"
    assert ink[3] - ink[1] >= 14


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_the_picture_and_the_status_count_the_stack_alike(lang: str) -> None:
    """The base game has 72 tiles: once the start lies and a tile is drawn, 71 are still to
    place and 70 are in the stack. The picture says both; the status and the turn picture's
    footer say the stack, with the same number and the same words."""
    game = Game(Setup(players=("A", "B"), seed=3))
    assert game.tiles_left == 70
    options = RenderOptions(lang=lang, dead_squares=False)
    in_stack = catalogs.plural("picture", "in_stack", 70, lang)
    assert title_lines(game, options) == [
        catalogs.plural("picture", "unplaced_tiles", 71, lang),
        in_stack,
    ]
    status = catalogs.plural(
        "ui", "status_line", game.tiles_left, lang, game_id=1, turn=1, tiles=70, player="A"
    )
    footer = catalogs.plural("phone", "footer", game.tiles_left, lang, turn=1, left=70)
    assert in_stack in status and in_stack in footer, (status, footer)
    hand = _played(SETUPS[1], 4)
    title = title_lines(hand, options)
    unplaced = sum(hand.unplaced_tiles().values())
    assert title[1] == catalogs.plural("picture", "in_stack", hand.tiles_left, lang)
    assert unplaced > hand.tiles_left + 1  # the hands count among the tiles to place


def test_the_dead_squares_line_goes_with_the_option() -> None:
    game = _dead_game()
    with_dead = tiles_left_picture(game, RenderOptions(dead_squares=True))
    without = tiles_left_picture(game, RenderOptions(dead_squares=False))
    assert with_dead.height > without.height


def test_dead_squares_are_crossed_on_the_board_and_the_turn() -> None:
    game = _dead_game()
    assert game.dead_squares() == {(0, -1), (1, 0), (-1, 0)}
    plain = render_board(game, RenderOptions())
    marked = render_board(game, RenderOptions(dead_squares=True))
    assert plain != marked
    record = game.record()
    turn_plain, _ = run(Job("turn", record, RenderOptions()))
    turn_marked, _ = run(Job("turn", record, RenderOptions(dead_squares=True)))
    assert turn_plain != turn_marked
    # Nothing dead: the option changes nothing.
    alive = Game(Setup(players=("A", "B"), seed=0, draw=tuple("DDD")))
    assert alive.dead_squares() == frozenset()
    assert render_board(alive, RenderOptions()) == render_board(
        alive, RenderOptions(dead_squares=True)
    )


def test_the_tiles_job_draws_a_png() -> None:
    game = _played(SETUPS[0], 10)
    png, hidden = run(Job("tiles", game.record(), RenderOptions(dead_squares=True)))
    assert hidden == ()
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_the_castle_crosses_out_its_dead_squares_too() -> None:
    game = Game(Setup(game="castle", players=("A", "B"), seed=4))
    rng = random.Random(1)
    while not game.dead_squares():
        assert not game.finished, "this seed's game has dead squares before its end"
        if game.decision.phase is Phase.TILE:
            placements = list(game.legal_placements())
            game.play(placements[rng.randrange(len(placements))])
        else:
            game.play(Pass())
    assert game.dead_squares() <= set(game.board.frontier)
    record = game.record()
    plain, _ = run(Job("turn", record, RenderOptions()))
    marked, _ = run(Job("turn", record, RenderOptions(dead_squares=True)))
    assert plain != marked
    assert render_board(game, RenderOptions()) != render_board(
        game, RenderOptions(dead_squares=True)
    )


RIVER = {f"R{i:02d}" for i in range(1, 11)}


def test_the_river_tiles_come_first_as_they_are_placed_first() -> None:
    # The spring is the start tile; the river tiles left, then the lake, then the rest.
    game = Game(Setup(players=("A", "B"), seed=2, expansions=("inns_cathedrals", "river")))
    kinds = shown_kinds(game)
    assert kinds[:9] == ["R03", "R04", "R05", "R06", "R07", "R08", "R09", "R10", "R02"]
    assert not RIVER & set(kinds[9:])
    assert kinds[9:] == [name for name in game.kinds if name in kinds[9:]]
    # The picture's first cell is the first river tile, its ninth the lake.
    image = tiles_left_picture(game, RenderOptions(dead_squares=False))
    top = image.height - (-(-len(kinds) // COLUMNS)) * (TILE + CAPTION) - GAP

    def cell(index: int) -> Image.Image:
        x = GAP + (index % COLUMNS) * (TILE + GAP)
        y = top + (index // COLUMNS) * (TILE + CAPTION)
        return image.crop((x + 2, y + 2, x + TILE - 2, y + TILE - 2))

    for index, name in ((0, "R03"), (8, "R02")):
        drawn = tile_image(game.kinds[name].oriented(0), TILE).convert("RGB")
        assert cell(index).tobytes() == drawn.crop((2, 2, TILE - 2, TILE - 2)).tobytes(), name
    # Once the river is laid, the list starts with the base game's tiles again.
    river_laid = _played(Setup(players=("A", "B"), seed=2, expansions=("river",)), 40)
    assert not RIVER & set(shown_kinds(river_laid))
