"""The Castle: the castle as data and the worked examples of the tile notes (castle.md, section 5).

Each example starts from an empty castle and lays its tiles in order; Black plays the even tiles,
White the odd ones. Completions are checked as (feature, tiles, points) with a subject of the
majority holder on the feature.
"""

from __future__ import annotations

from collections import Counter

import pytest
from castle_helpers import castle, lay, scored

from engine import (
    FigureReturned,
    IllegalActionError,
    MalformedError,
    PalacePlaced,
    PlaceTile,
    Setup,
)
from engine.castle.board import castle_geometry
from engine.core.tiles import load_set

# -- the castle as data ----------------------------------------------------------------------


def test_the_castle_has_76_interior_squares_7_start_squares_and_14_corner_towers() -> None:
    geometry = castle_geometry()
    assert len(geometry.interior) == 76
    assert [s.kind for s in geometry.starts] == [f"S{i}" for i in range(1, 8)]
    assert len(geometry.towers) == 14
    assert [t.spaces[0] for t in geometry.towers] == [
        0, 12, 18, 22, 32, 36, 42, 60, 68, 74, 76, 82, 90, 96,
    ]  # fmt: skip
    assert sum(t.wall_tile for t in geometry.towers) == 13
    assert sum(t.inner for t in geometry.towers) == 5


def test_each_start_square_touches_exactly_one_interior_square() -> None:
    geometry = castle_geometry()
    for start in geometry.starts:
        x, y = start.cell
        around = [(x + dx, y + dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))]
        assert start.cell not in geometry.interior
        assert sum(cell in geometry.interior for cell in around) == 1


def test_sixty_castle_tiles_in_48_kinds_with_the_published_totals() -> None:
    kinds = [k for k in load_set("castle") if not k.start]
    assert len(kinds) == 48
    assert sum(k.count for k in kinds) == 60
    marks: Counter[str] = Counter()
    letters: Counter[str] = Counter()
    for kind in kinds:
        letters.update(kind.edges * kind.count)
        for feat in kind.features:
            for mark in ("market", "well"):
                marks[mark] += kind.count * bool(feat.extra.get(mark))
            marks[str(feat.extra.get("end"))] += kind.count
    assert marks["market"] == 16 and marks["well"] == 7
    assert marks["square"] == 19 and marks["door"] == 4
    assert letters == {"P": 76, "T": 38, "H": 46, "C": 80}


def test_a_new_castle_has_the_start_squares_on_the_board_and_their_7_neighbours_open() -> None:
    game = castle(("K01",))
    assert sorted(game.board.tiles) == sorted(s.cell for s in castle_geometry().starts)
    assert sorted(game.board.frontier) == [(0, 5), (1, 2), (3, 9), (5, 0), (8, 2), (8, 9), (9, 4)]
    assert game.supply == [{"subject": 6, "palace": 1}] * 2
    assert [game.track_space(p) for p in (0, 1)] == [0, 0]


def test_the_castle_is_for_exactly_two_players() -> None:
    for players in (("A",), ("A", "B", "C")):
        with pytest.raises(MalformedError, match="exactly 2 players") as caught:
            Setup(players=players, game="castle")
        assert caught.value.code == "wrong_player_count"


def test_draw_names_castle_tiles_only() -> None:
    with pytest.raises(MalformedError, match="not a castle tile"):
        castle(("S1",))


# -- worked examples E1-E10 --------------------------------------------------------------------


def test_e1_a_path_of_three_tiles_and_a_start_square_with_a_well_scores_8() -> None:
    game, events = lay(
        [((0, 5), "K22", 90), ((1, 5), "K21", 90), ((2, 5), "K47", 270)],
        {0: "path"},
        extra=("K01",),
    )
    assert scored(events) == [("path", 4, {0: 8})]
    assert game.scores == [8, 0]
    assert FigureReturned(0, "subject", 0, 5) in events  # the messenger comes home


def test_e2_closing_a_two_tile_tower_against_the_gate_tower_scores_4() -> None:
    _, events = lay([((5, 0), "K02", 0)], {0: "tower"}, extra=("K01",))
    assert scored(events) == [("tower", 2, {0: 4})]


E3 = [
    ((5, 0), "K02", 0),
    ((4, 0), "K07", 180),
    ((3, 0), "K08", 90),
    ((3, 1), "K07", 0),
    ((4, 1), "K17", 270),
]


def test_e3_four_corner_tower_pieces_make_a_tower_of_4_worth_8() -> None:
    _, events = lay(E3, {0: "tower", 1: "tower"}, extra=("K01",))
    assert scored(events) == [("tower", 2, {0: 4}), ("tower", 4, {1: 8})]


def test_e4_a_house_with_a_start_square_then_a_one_tile_house_and_both_palaces() -> None:
    _, events = lay(
        [((1, 2), "K05", 0), ((0, 2), "K06", 0)], {0: "house", 1: "house"}, extra=("K01",)
    )
    assert scored(events) == [("house", 2, {0: 2}), ("house", 1, {1: 1})]
    palaces = [(e.player, e.tiles, e.moved) for e in events if isinstance(e, PalacePlaced)]
    assert palaces == [(0, 2, False), (1, 1, False)]


E5 = [((3, 9), "K01", 0), ((3, 8), "K01", 0), ((2, 9), "K04", 270), ((4, 9), "K06", 90)]


def test_e5_a_court_with_five_markets_one_on_a_start_square_scores_15() -> None:
    game, events = lay(E5, {0: "courtyard"})
    assert scored(events, final=False) == [("tower", 1, {}), ("house", 1, {})]
    assert scored(events, final=True) == [("courtyard", 5, {0: 15})]
    assert game.finished and game.scores == [15, 0]


def test_e6_a_square_ends_every_path_that_meets_it() -> None:
    game, events = lay([((9, 4), "K40", 0)], {0: 4}, extra=("K01",))
    assert scored(events) == [("path", 2, {0: 2})]
    board = game.board
    tile = board.tiles[(9, 4)]
    others = {board.find(tile.first_node + tile.oriented.feature_at(p)) for p in (1, 7, 10)}
    assert len(others) == 3 and all(board.open[r] == 1 for r in others)


def test_e7_a_plain_junction_does_not_end_paths() -> None:
    _, events = lay(
        [((0, 5), "K41", 0), ((0, 4), "K47", 180), ((1, 5), "K48", 270)],
        {0: "path"},
        extra=("K01",),
    )
    assert scored(events) == [("path", 4, {0: 4})]


def test_e8_a_path_from_the_wall_to_a_tower_door_is_complete_at_one_tile() -> None:
    _, events = lay([((0, 5), "K22", 90), ((0, 6), "K45", 90)], {1: "path"}, extra=("K01",))
    assert scored(events) == [("path", 1, {1: 1})]


def test_e9_two_towers_joined_into_a_tie_score_nobody_and_both_knights_go_home() -> None:
    placements = [
        ((8, 9), "K07", 180),  # Black's knight, with S6
        ((8, 8), "K01", 0),
        ((0, 5), "K22", 90),  # elsewhere, so that White lays the K02 tower
        ((7, 8), "K02", 180),  # White's knight
        ((7, 9), "K07", 0),  # joins them; the wall closes the tower
    ]
    game, events = lay(placements, {0: "tower", 3: "tower"}, extra=("K01",))
    assert scored(events) == [("tower", 4, {})]
    assert game.scores == [0, 0]
    returned = [e for e in events if isinstance(e, FigureReturned)]
    assert sorted((e.player, e.x, e.y) for e in returned) == [(0, 8, 9), (1, 7, 8)]


def test_e9_the_placer_may_not_add_a_knight_to_towers_that_hold_knights() -> None:
    placements = [((8, 9), "K07", 180), ((8, 8), "K01", 0), ((0, 5), "K22", 90)]
    placements += [((7, 8), "K02", 180)]
    game, _ = lay(placements, {0: "tower", 3: "tower"}, extra=("K07", "K01"))
    game.play(PlaceTile(7, 9, 0))
    tile = game.board.tiles[(7, 9)].oriented
    kinds = {tile.features[tile.feature_at(f.at)].type for f in game.legal_figures()}
    assert kinds == {"courtyard"}


def test_e10_four_bends_make_a_loop_with_a_well_worth_8_and_the_court_joins_s4() -> None:
    placements = [((8, 2), "K24", 90), ((9, 2), "K23", 180), ((8, 3), "K34", 0)]
    placements += [((9, 3), "K34", 270)]
    game, events = lay(placements, {0: "path"}, extra=("K01",))
    assert scored(events) == [("path", 4, {0: 8})]
    board = game.board
    s4 = board.tiles[(8, 1)]
    first = board.tiles[(8, 2)]
    court = first.oriented.features.index(
        next(f for f in first.oriented.features if f.type == "courtyard" and 1 in f.positions)
    )
    assert board.find(s4.first_node) == board.find(first.first_node + court)


# -- legality L1-L5 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pos", "kind", "rotation", "code"),
    [
        ((0, 5), "K21", 0, "does_not_fit"),
        ((0, 5), "K21", 90, None),
        ((1, 2), "K21", 0, "does_not_fit"),
        ((1, 2), "K21", 90, None),
        ((4, 4), "K01", 0, "not_adjacent"),
        ((0, 0), "K01", 0, "outside_castle"),
    ],
)
def test_legality_on_an_empty_castle(
    pos: tuple[int, int], kind: str, rotation: int, code: str | None
) -> None:
    game = castle((kind,))
    action = PlaceTile(pos[0], pos[1], rotation)
    assert (action in game.legal_placements()) is (code is None)
    if code is not None:
        with pytest.raises(IllegalActionError) as caught:
            game.play(action)
        assert caught.value.code == code
        assert str(caught.value)  # a sentence a player can read
    else:
        game.play(action)


def test_a_refused_path_names_the_sides() -> None:
    game = castle(("K21",))
    with pytest.raises(IllegalActionError, match="W edge is courtyard but the neighbour there"):
        game.play(PlaceTile(0, 5, 0))


def test_first_placements_are_the_seven_squares_before_the_start_squares() -> None:
    game = castle(("K01",))
    squares = {(a.x, a.y) for a in game.legal_placements()}
    assert squares == {(1, 2), (3, 9), (5, 0), (8, 2), (8, 9)}  # not the two gates: no path
