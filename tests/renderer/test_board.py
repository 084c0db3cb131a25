"""Board pictures: size follows the board, last tile framed, figures in seat colours, labels."""

from __future__ import annotations

from PIL import ImageChops
from render_helpers import (
    AM_BOARD,
    am_figures,
    build_board,
    close,
    colours_near,
    decode,
    random_game,
)

from engine.core.board import Figure
from renderer import RenderOptions, render_board, render_figure_spots, render_preview
from renderer import palette as pal
from renderer.board import draw_board, figure_point

OPTIONS = RenderOptions(tile_size=80)


def test_the_image_covers_the_placed_tiles_plus_one_ring_of_empty_squares() -> None:
    board = build_board([("D", 0, 0, 0), ("U", 1, 0, 90), ("U", 2, 0, 90), ("E", 0, 1, 180)])
    image, frame = draw_board(board.tiles, [], OPTIONS)
    assert (frame.cols, frame.rows) == (5, 4)
    assert (frame.min_x, frame.min_y) == (-1, -1)
    assert image.size == frame.size
    assert image.width == frame.left + 5 * 80 + 4
    wider = build_board([("D", 0, 0, 0), ("U", 1, 0, 90), ("U", 2, 0, 90), ("U", 3, 0, 90)])
    assert draw_board(wider.tiles, [], OPTIONS)[0].width == image.width + 80


def test_the_last_tile_is_framed_in_gold() -> None:
    board = build_board([("D", 0, 0, 0), ("U", 1, 0, 90), ("U", 2, 0, 90)])
    image, frame = draw_board(board.tiles, [], OPTIONS, last=(1, 0))
    x0, y0, x1, _ = frame.box((1, 0))
    inset = 1 + max(3, 80 // 22) // 2
    assert close(image.getpixel(((x0 + x1) // 2, y0 + inset)), pal.HIGHLIGHT)  # type: ignore[arg-type]
    other = frame.box((2, 0))
    assert not close(image.getpixel(((other[0] + other[2]) // 2, other[1] + inset)), pal.HIGHLIGHT)  # type: ignore[arg-type]


def test_each_figure_shows_its_seat_colour_at_its_spot() -> None:
    board = build_board(AM_BOARD)
    figures = am_figures(board)
    image, frame = draw_board(board.tiles, figures, OPTIONS)
    for figure in figures:
        point = frame.point(figure.pos, figure_point(figure, board.tiles[figure.pos]))
        near = colours_near(image, point, 6)
        colour = pal.player_colour(figure.player)
        assert any(close(c, colour) for c in near), f"{figure} not drawn in its colour"


def test_a_barn_stands_on_the_tile_corner() -> None:
    board = build_board(AM_BOARD)
    barn = Figure(3, "barn", (2, 1), -1, "NW")
    _, frame = draw_board(board.tiles, [barn], OPTIONS)
    assert frame.point(barn.pos, figure_point(barn, board.tiles[barn.pos])) == frame.box((2, 1))[:2]


def test_a_farmer_lies_down_and_a_thief_stands_up() -> None:
    board = build_board([("U", 0, 0, 0)])
    options = RenderOptions(tile_size=160)
    blank, _ = draw_board(board.tiles, [], options)

    def aspect(figure: Figure) -> float:
        image, _ = draw_board(board.tiles, [figure], options)
        changed = ImageChops.difference(image, blank).getbbox()
        assert changed is not None
        return (changed[2] - changed[0]) / (changed[3] - changed[1])

    farmer = aspect(Figure(0, "follower", (0, 0), 1, 0))
    thief = aspect(Figure(0, "follower", (0, 0), 0, 4))
    assert farmer > thief * 1.2


def test_candidate_squares_carry_the_labels_the_bot_offers() -> None:
    game = random_game(2, seed=2, turns=4)
    cells = sorted({(p.x, p.y) for p in game.legal_placements()})
    labels = {cell: chr(ord("A") + i) for i, cell in enumerate(cells)}
    with_labels = decode(render_board(game, OPTIONS, candidates=labels))
    without = decode(render_board(game, OPTIONS))
    assert with_labels.size == without.size
    image, frame = draw_board(game.board.tiles, game.figures(), OPTIONS, candidates=labels)
    for cell in cells:
        x0, y0, x1, y1 = frame.box(cell)
        near = colours_near(image, ((x0 + x1) // 2, (y0 + y1) // 2), 8)
        assert any(close(c, pal.LABEL_FILL) for c in near)
        assert any(close(c, pal.WHITE) for c in near), "label text missing"


def test_the_preview_ghosts_the_tile_and_marks_its_figure_spots() -> None:
    game = random_game(2, seed=5, turns=3)
    placement = next(iter(game.legal_placements()))
    plain = decode(render_board(game, OPTIONS))
    preview = decode(render_preview(game, placement, OPTIONS, spot_labels={"C": "1"}))
    assert preview.size == plain.size
    assert preview.tobytes() != plain.tobytes()


def test_figure_spot_labels_sit_on_the_placed_tile() -> None:
    game = random_game(2, seed=6, turns=3)
    for placement in game.legal_placements():
        game.play(placement)
        break
    assert game.legal_figures(), "a tile just placed offers at least its field"
    labels = {f.at: str(i + 1) for i, f in enumerate(game.legal_figures())}
    marked = decode(render_figure_spots(game, labels, OPTIONS))
    plain = decode(render_board(game, OPTIONS))
    changed = ImageChops.difference(marked, plain).getbbox()
    assert changed is not None
    _, frame = draw_board(game.board.tiles, [], OPTIONS)
    assert game.last_pos is not None
    x0, y0, x1, y1 = frame.box(game.last_pos)
    assert x0 - 20 <= changed[0] and changed[2] <= x1 + 20
    assert y0 - 20 <= changed[1] and changed[3] <= y1 + 20
