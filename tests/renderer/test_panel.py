"""The players' strip under the whole-board picture (``/carcassonne board``, previews, steps)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import ImageChops
from render_helpers import REFERENCE, decode, difference, expansion_game, reference_images

from renderer import RenderOptions, board_picture
from renderer.board import Box, Measures
from renderer.panel import (
    ROWS_MIN_WIDTH,
    PanelData,
    draw_panel,
    on_two_rows,
    row_height,
)
from renderer.render import panel_data


def test_the_strip_of_a_game_without_the_big_box_matches_its_reference() -> None:
    """Followers, mayor, wagon and barn on one row per player, drawn as before the Big Box."""
    made = decode(reference_images()["am_strip.png"])
    kept = decode((REFERENCE / "am_strip.png").read_bytes())
    assert made.size == kept.size
    assert difference(made, kept) < 0.5


EVERY = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
PHONE = 400


def apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize(("players", "width"), [(2, 720), (6, 993), (6, 1625)])
def test_a_big_box_strip_gives_each_count_a_cell_that_reads_at_phone_width(
    players: int, width: int
) -> None:
    """Seven figures, the abbey and three goods per player, each in a cell of its own with its
    icon beside its number, none touching another, readable when the picture is 400 px wide."""
    data = panel_data(expansion_game(EVERY, players, seed=players, turns=40))
    assert on_two_rows(data)
    measures = Measures([], [], [])
    strip = draw_panel(data, width, 64, RenderOptions(lang="fr"), measures)
    assert strip.width == width
    cells = measures.cells
    assert len(cells) == players * 11
    scale = PHONE / width
    boxes = []
    for icon, number in cells:
        assert icon[2] < number[0], "the icon stops before its number"
        assert (icon[3] - icon[1]) * scale >= 10
        assert (number[3] - number[1]) * scale >= 11
        boxes += [icon, number]
    for i, a in enumerate(boxes):
        assert all(apart(a, b) for b in boxes[i + 1 :]), f"{a} overlaps another box"
    assert all(b[0] >= 0 and b[2] <= width and b[3] <= strip.height for b in boxes)
    assert min(measures.digits) * scale >= 11


def test_each_count_of_a_big_box_strip_is_drawn_in_its_own_cell() -> None:
    """One more of any figure, the abbey or a goods token changes that cell's number only."""
    kinds = ("follower", "large_follower", "mayor", "wagon", "barn", "builder", "pig", "abbey")
    supply = [dict.fromkeys(kinds, 1) for _ in range(2)]
    goods = [dict.fromkeys(("wine", "grain", "cloth"), 1) for _ in range(2)]
    data = PanelData(("Ann", "Ben"), (3, 4), supply, tiles_left=20, current=0, turn=9, goods=goods)
    measures = Measures([], [], [])
    before = draw_panel(data, 960, 64, RenderOptions(), measures)
    for player in range(2):
        for i, kind in enumerate((*kinds, "wine", "grain", "cloth")):
            more = [dict(s) for s in supply], [dict(g) for g in goods]
            (more[1] if kind in goods[player] else more[0])[player][kind] = 2
            changed = replace(data, supply=more[0], goods=more[1])
            after = draw_panel(changed, 960, 64, RenderOptions())
            box = ImageChops.difference(before, after).getbbox()
            _, number = measures.cells[player * 11 + i]
            assert box is not None, f"{kind}: the count is not drawn"
            left, top, right, bottom = number
            assert left - 2 <= box[0] and box[2] <= right + 2, kind
            assert top - 4 <= box[1] and box[3] <= bottom + 4, kind


@pytest.mark.parametrize("expansions", [(), ("abbey_mayor",), ("river",), ("abbey_mayor", "river")])
def test_games_without_the_big_box_figures_keep_the_one_row_strip(
    expansions: tuple[str, ...],
) -> None:
    game = expansion_game(expansions, 3, seed=3, turns=12)
    data = panel_data(game)
    assert not on_two_rows(data) and data.goods is None
    strip = draw_panel(data, 900, 64, RenderOptions())
    assert strip.height == row_height(64) * 4 + row_height(64) // 3


def test_the_whole_board_picture_of_a_big_box_game_carries_the_two_row_strip() -> None:
    game = expansion_game(("traders_builders",), 2, seed=2, turns=6)
    image = board_picture(game, RenderOptions())
    assert image.width >= ROWS_MIN_WIDTH
    data = panel_data(game)
    strip = draw_panel(data, image.width, 64, RenderOptions())
    assert image.crop((0, image.height - strip.height, image.width, image.height)) == strip
