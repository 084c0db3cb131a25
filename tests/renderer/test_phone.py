"""The turn picture read on a phone: Discord shows it about 400 px wide in a chat.

Full games of each family are played at random; at regular turns the turn picture is drawn
as the bot sends it (lettered squares, the drawn tile and its rotations, the players) and what
a player must read is measured on it, scaled to 400 px wide: square letters and score digits at
least 11 px tall, figures at least 10 px tall. Everything stays within Discord's upload limit.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from bot.turn_view import turn_screen
from bot.ui.turn.post import tile_card
from engine import Game, Setup
from engine.cli import random_action
from renderer.encode import encode_png
from renderer.options import RenderOptions
from renderer.phone import WIDTH, PhonePicture, turn_picture

PHONE = 400
FAMILIES = [
    ("carcassonne", (), 2),
    ("carcassonne", ("abbey_mayor",), 6),
    ("carcassonne", ("abbey_mayor", "inns_cathedrals", "river", "traders_builders"), 6),
    ("hunters", (), 5),
    ("castle", (), 2),
]


def pictures(
    game_kind: str, expansions: tuple[str, ...], players: int, seed: int
) -> Iterator[PhonePicture]:
    names = tuple(f"player {i + 1}" for i in range(players))
    game = Game(Setup(players=names, seed=seed, game=game_kind, expansions=expansions))
    rng = random.Random(seed)
    tile_turns = 0
    while not game.finished:
        if game.decision.phase.value == "tile" and game.decision.tile:
            tile_turns += 1
            if tile_turns % 9 == 1:
                screen = turn_screen(game)
                card = tile_card(screen)
                yield turn_picture(game, RenderOptions(), candidates=screen.labels, card=card)
        game.play(random_action(game, rng))
    yield turn_picture(game, RenderOptions())


@pytest.mark.parametrize(("kind", "expansions", "players"), FAMILIES)
def test_turn_pictures_read_at_phone_width(
    kind: str, expansions: tuple[str, ...], players: int
) -> None:
    seen = 0
    for picture in pictures(kind, expansions, players, seed=5):
        image, measures = picture.image, picture.measures
        assert image.width == WIDTH
        scale = PHONE / image.width
        assert measures.digits, "every picture shows the scores"
        assert min(measures.digits) * scale >= 11, measures.digits
        if measures.letters:
            assert min(measures.letters) * scale >= 11, measures.letters
        if measures.figures:
            assert min(measures.figures) * scale >= 10, measures.figures
        assert len(encode_png(image, family=kind)) < 2 * 1024 * 1024
        seen += 1
    assert seen >= 5


def test_a_wide_board_shows_the_part_around_the_action_and_the_far_squares_close_up() -> None:
    """Past 13 squares across (16 down), the picture shows that many around the last tile and
    each lettered square outside them in a close-up under it: every letter once, none hidden."""
    from renderer.phone import WINDOW, WINDOW_DOWN

    game = Game(Setup(players=("a", "b"), seed=3))
    rng = random.Random(3)
    while not game.finished and game.tiles_left > 8:
        game.play(random_action(game, rng))
    labels = turn_screen(game).labels
    picture = turn_picture(game, RenderOptions(), candidates=labels)
    if picture.window is None:
        pytest.skip("this board stayed narrow")
    wx, wy, wc, wr = picture.window
    assert wc <= WINDOW and wr <= WINDOW_DOWN
    assert game.last_pos is not None
    assert wx <= game.last_pos[0] < wx + wc and wy <= game.last_pos[1] < wy + wr
    outside = {p for p in labels if not (wx <= p[0] < wx + wc and wy <= p[1] < wy + wr)}
    assert outside, "this board has lettered squares out of the part (else the test shows nothing)"
    assert {p for inset in picture.insets for p in inset.squares} == outside
    drawn = [(text, pos) for text, pos, _ in picture.measures.marks]
    assert sorted(drawn) == sorted((text, pos) for pos, text in labels.items())
    assert picture.hidden == ()
    whole = turn_picture(game, RenderOptions(), candidates=labels, whole=True)
    assert whole.window is None and not whole.hidden and not whole.insets


def test_column_titles_wrap_at_a_space_before_they_shrink() -> None:
    from renderer.phone import column_titles

    titles, size = column_titles(["Partisans", "Grande abbaye"], 106)
    assert titles == [["Partisans"], ["Grande", "abbaye"]] and size == 20
    titles, size = column_titles(["Bürgermeister", "Abtei"], 106)
    assert titles == [["Bürgermeister"], ["Abtei"]] and 14 <= size < 20


def test_a_six_player_big_box_table_gives_each_count_a_cell_of_its_own() -> None:
    """Eight figures and three goods per player: each player on two rows, every count in a cell
    with its icon beside it, none touching another, all readable 400 px wide."""
    every = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
    names = tuple(f"player {i + 1}" for i in range(6))
    game = Game(Setup(players=names, seed=2, expansions=every))
    rng = random.Random(2)
    while game.turn < 40:
        game.play(random_action(game, rng))
    picture = turn_picture(game, RenderOptions(lang="de"))
    scale = PHONE / picture.image.width
    cells = picture.measures.cells
    assert len(cells) == 6 * 11
    for icon, number in cells:
        assert icon[2] < number[0], "the icon stops before its number"
        assert (icon[3] - icon[1]) * scale >= 10
        assert (number[3] - number[1]) * scale >= 11
    boxes = [box for cell in cells for box in cell]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{a} overlaps {b}"
    # Cells are at least 30 px wide on the phone: room for a figure and a digit side by side.
    lefts = sorted({icon[0] for icon, _ in cells})
    assert min(b - a for a, b in itertools.pairwise(lefts)) * scale >= 30
    assert min(picture.measures.digits) * scale >= 11
