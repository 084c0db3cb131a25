"""Abbey & Mayor (RULES.md section 2, abbey-and-mayor.fr.txt): tiles, abbey, mayor, barn, wagon.

Board sketches use x east, y south. The start tile D lies at (0, 0): city north, road west-east,
field south. Players are Blue (0), Red (1), Yellow (2)... in turn order; Blue places first.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from am_helpers import (
    INITIAL,
    REF,
    figures_at,
    new_game,
    phase_of,
    play_checked,
    put,
    put_abbey,
    root,
    scores_of,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Decision,
    FeatureScored,
    FigureReturned,
    Game,
    IllegalActionError,
    MoveWagon,
    Pass,
    Phase,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Setup,
)
from engine.carcassonne.abbey_mayor import of as am_of
from engine.cli import main as cli_main
from engine.cli import random_action, replay_output
from engine.core.events import WagonMoved
from engine.core.tiles import load_set

BLUE, RED, YELLOW = 0, 1, 2

# -- the 12 tiles as data ---------------------------------------------------------------------


def test_the_expansion_lists_twelve_landscape_tiles_one_of_each_and_the_abbey() -> None:
    kinds = {k.name: k for k in load_set("abbey_mayor")}
    landscape = {n: k for n, k in kinds.items() if not k.abbey}
    assert sorted(landscape) == [f"AM{i:02d}" for i in range(1, 13)]
    assert all(k.count == 1 for k in landscape.values())
    abbey = kinds["ABBEY"]
    assert abbey.abbey and abbey.count == 0
    assert [(f.type, f.centre) for f in abbey.features] == [("cloister", True)]


@pytest.mark.parametrize("name", sorted(REF))
def test_tile_data_matches_the_shared_table(name: str) -> None:
    ref = REF[name]
    kind = {k.name: k for k in load_set("abbey_mayor")}[name]
    assert (kind.count, kind.edges) == (ref.count, ref.edges)
    ids = [f.id for f in kind.features]
    mine = {
        (
            f.type,
            f.positions,
            f.inner >= 0,
            f.centre,
            f.pennants,
            frozenset(ids[c] for c in f.cities),
        )
        for f in kind.features
    }
    theirs = {(f.type, f.positions, f.inner, f.centre, f.pennants, f.cities) for f in ref.features}
    assert mine == theirs
    # Feature ids must agree too, since the field->city marks are written with them.
    assert sorted(ids) == sorted(f.id for f in ref.features)
    links = {frozenset((ids[a], ids[b])) for a, b in kind.links}
    assert links == set(ref.links)


def test_the_stack_holds_84_tiles_with_the_start_tile_d() -> None:
    game = Game(Setup(players=("Blue", "Red"), seed=5, expansions=("abbey_mayor",)))
    start = game.board.tiles[(0, 0)].oriented
    assert (start.kind, start.rotation) == ("D", 0)
    assert game.decision.tile is not None
    drawn = [game.decision.tile, *game.stack]
    assert len(drawn) == 83  # 72 + 12 = 84 tiles, minus the start tile on the table
    counts = Counter(drawn)
    counts["D"] += 1
    assert sum(counts.values()) == 84
    assert all(counts[f"AM{i:02d}"] == 1 for i in range(1, 13))
    assert counts["D"] == 4 and counts["ABBEY"] == 0
    kinds = game.kinds
    pennants = sum(_pennants(game, n) for n in counts.elements())
    cloisters = sum(any(f.centre for f in kinds[n].features) for n in counts.elements())
    assert (pennants, cloisters) == (16, 7)  # base 10 + AM01 2, AM02/03/09/12 1; base 6 + AM05


def _pennants(game: Game, name: str) -> int:
    return sum(f.pennants for f in game.kinds[name].features)


def test_without_the_expansion_the_stack_has_no_am_tiles_and_nobody_has_an_abbey() -> None:
    game = Game(Setup(players=("Blue", "Red"), seed=5))
    assert game.decision.tile is not None
    drawn = [game.decision.tile, *game.stack]
    assert len(drawn) == 71 and not any(n.startswith("AM") for n in drawn)
    assert "abbey_mayor" not in game.plugins and "abbey" not in game.pieces(0)
    assert game.supply[0] == {"follower": 7}


def test_each_player_gets_an_abbey_a_mayor_a_barn_and_a_wagon_for_up_to_six() -> None:
    game = new_game("D E", players=6)
    assert am_of(game).abbeys == [1] * 6
    assert game.supply == [dict(INITIAL) for _ in range(6)]


# -- the 12 tiles on the board ----------------------------------------------------------------


def test_am01_is_one_city_on_four_sides_with_two_pennants() -> None:
    # AM01 north of D joins D's city: 2 tiles, 2 pennants, open on three sides at the end.
    game = new_game("D AM01")
    put(game, 0, -1, 0, "follower", 5)
    assert root(game, 0, -1, 0) == root(game, 0, -1, 9) == root(game, 0, 0, 1)
    assert game.finished
    assert game.scores == [2 + 2, 0]  # incomplete: 1 per tile + 1 per pennant


def am02_board(figure_at: int | str) -> Game:
    """AM02 north of D; Red and Blue close its west-east city with two E tiles."""
    game = new_game("D AM02 E E")
    put(game, 0, -1, 0, "follower", figure_at)
    put(game, -1, -1, 90)  # E: city facing east
    put(game, 1, -1, 270)  # E: city facing west
    return game


def test_am02_has_two_separate_cities_the_north_south_one_joining_d() -> None:
    game = new_game("D AM02")
    put(game, 0, -1, 0)
    north_south, west_east = root(game, 0, -1, 1), root(game, 0, -1, 4)
    assert north_south == root(game, 0, -1, 7) == root(game, 0, 0, 1)
    assert west_east == root(game, 0, -1, 10) != north_south
    assert game.board.pennants[north_south] == 1 and game.board.pennants[west_east] == 0


def test_am02_west_east_city_completes_alone_and_scores_for_its_knight() -> None:
    game = new_game("D AM02 E E E")
    put(game, 0, -1, 0, "follower", 3)
    assert scores_of(put(game, -1, -1, 90)) == []  # E: city facing east
    (scored,) = scores_of(put(game, 1, -1, 270))  # E: city facing west closes it
    assert (scored.feature, scored.tiles, scored.pennants, scored.points) == ("city", 3, 0, {0: 6})
    assert game.supply[BLUE]["follower"] == 7


@pytest.mark.parametrize("inner", ["I1", "I2"])
def test_am02_has_two_inner_fields_each_touching_both_cities(inner: str) -> None:
    game = new_game("D AM02")
    game.play(PlaceTile(0, -1, 0))
    farmer_spots = {f.at for f in game.legal_figures() if f.figure == "follower"}
    assert {"I1", "I2"} <= farmer_spots
    i1, i2 = root(game, 0, -1, "I1"), root(game, 0, -1, "I2")
    assert i1 != i2
    assert game.board.ftiles[i1] == game.board.ftiles[i2] == {(0, -1)}
    # A farmer there scores for the completed west-east city only (the N-S one stays open).
    game = am02_board(inner)
    assert game.finished
    assert game.breakdown[BLUE] == {"field": 3}


@pytest.mark.parametrize(("small_city", "points"), [("classic", 3), ("modern", 6)])
def test_am03_pennant_city_closes_against_d_as_a_two_tile_city(
    small_city: str, points: int
) -> None:
    # AM03 turned 180: its pennant city (now south) meets D's city and ends in AM03's field.
    game = new_game("D AM03 E", small_city=small_city)
    events = put(game, 0, -1, 180, "follower", 6)
    (city,) = scores_of(events, "city")
    assert (city.tiles, city.pennants, city.complete, city.points) == (2, 1, True, {0: points})
    assert root(game, 0, -1, 3) != root(game, 0, -1, 6)  # the west-east city is another one
    assert not game.board.is_complete(root(game, 0, -1, 3))


@pytest.mark.parametrize("farmers", ["classic", "modern"])
def test_am03_outer_field_touches_both_cities_the_inner_field_is_apart(farmers: str) -> None:
    game = new_game("D AM03 E E", farmers=farmers)
    put(game, 0, -1, 180, "follower", 0)  # farmer in the field the pennant city ends in
    assert root(game, 0, -1, 0) != root(game, 0, -1, "I1")
    put(game, -1, -1, 90)  # E: city facing east
    put(game, 1, -1, 270)  # E: city facing west: the west-east city is complete too
    assert game.finished
    assert game.breakdown[BLUE] == {"field": 6}  # 3 for each of the two completed cities


def test_am04_two_single_edge_cities_and_roads_ending_at_their_gates() -> None:
    # AM04 turned 90 east of D: its gate road (now west) continues D's road and ends there.
    game = new_game("D AM04 A")
    put(game, 1, 0, 90, "follower", 10)
    north_city, east_city = root(game, 1, 0, 0), root(game, 1, 0, 3)
    assert north_city != east_city
    assert root(game, 1, 0, 10) == root(game, 0, 0, 4) != root(game, 1, 0, 7)
    fields = {root(game, 1, 0, at) for at in (6, 11, 8)}
    assert len(fields) == 3
    (road,) = scores_of(put(game, -1, 0, 270), "road")  # A closes the west end at its cloister
    assert (road.tiles, road.points) == (3, {0: 3})


def test_am05_four_roads_end_at_the_cloister() -> None:
    game = new_game("D AM05 A")
    put(game, 1, 0, 0, "follower", 10)
    roads = {root(game, 1, 0, at) for at in (1, 4, 7, 10)}
    assert len(roads) == 4
    assert root(game, 1, 0, 10) == root(game, 0, 0, 4)
    assert game.board.ftype[root(game, 1, 0, "C")] == "cloister"
    (road,) = scores_of(put(game, -1, 0, 270), "road")
    assert (road.tiles, road.points) == (3, {0: 3})  # A, D, AM05: ended at both cloisters


def test_am06_road_ends_at_the_city_gate_and_cuts_off_one_small_field() -> None:
    game = new_game("D AM06 E A")
    put(game, 1, 0, 0, "follower", 3)  # farmer in the big field (south and east)
    assert root(game, 1, 0, 10) == root(game, 0, 0, 4)
    assert root(game, 1, 0, 11) == root(game, 0, 0, 3) != root(game, 1, 0, 9)
    assert root(game, 1, 0, 9) == root(game, 0, 0, 5)  # D's south field runs into it
    put(game, 1, -1, 180)  # Red: E closes AM06's city: 2 tiles
    (road,) = scores_of(put(game, -1, 0, 270, "follower", 4), "road")
    assert (road.tiles, road.points) == (3, {0: 3})
    assert game.finished
    assert game.breakdown[BLUE] == {"road": 3, "field": 3}  # the big field touches the city


@pytest.mark.parametrize(
    ("kind", "at", "points"),
    [
        ("AM07", 2, 3),  # the field on the far side of the road touches the city
        ("AM07", 9, 3),  # the small field cut off between road and wall touches it too
        ("AM07", 11, 0),  # the corner field inside the curve does not
        ("AM08", 9, 3),
        ("AM08", 5, 3),
        ("AM08", 2, 0),
    ],
)
def test_am07_am08_road_touching_the_wall_makes_three_fields(
    kind: str, at: int, points: int
) -> None:
    # Turned 180 north of D: the city (now south) joins D's city at once and is complete.
    game = new_game(["D", kind])
    events = put(game, 0, -1, 180, "follower", at)
    assert scores_of(events, "city")[0].complete
    fields = {
        root(game, 0, -1, p) for p in range(12) if game.board.ftype[root(game, 0, -1, p)] == "field"
    }
    assert len(fields) == 3
    assert game.finished
    assert game.breakdown[BLUE].get("field", 0) == points


@pytest.mark.parametrize("at", [0, 3, 6])
def test_am09_three_fields_each_touching_the_pennant_city(at: int) -> None:
    game = new_game("D AM09 E")
    put(game, 0, 1, 0, "follower", at)
    assert len({root(game, 0, 1, p) for p in (0, 3, 6)}) == 3
    (city,) = scores_of(put(game, -1, 1, 90), "city")  # E, city facing east, closes it
    assert (city.tiles, city.pennants) == (2, 1)
    assert game.finished
    assert game.breakdown[BLUE] == {"field": 3}


def barn_block(last: str, rotation: int) -> Game:
    """Three B tiles south of D and ``last`` at (1, 2): four tiles meet at (1, 2)'s NW corner."""
    game = new_game(["D", "B", "B", "B", last, "E"])
    put(game, 0, 1, 0)
    put(game, 1, 1, 0)
    put(game, 0, 2, 0)
    game.play(PlaceTile(1, 2, rotation))
    return game


@pytest.mark.parametrize("rotation", [180, 270])
def test_am09_city_reaches_two_corners_so_it_offers_no_barn_corner(rotation: int) -> None:
    assert [f.at for f in barn_block("B", 0).legal_figures() if f.figure == "barn"] == ["NW"]
    game = barn_block("AM09", rotation)
    assert [f for f in game.legal_figures() if f.figure == "barn"] == []
    with pytest.raises(IllegalActionError):
        game.play(PlaceFigure("barn", 1, 2, "NW"))


def test_am10_road_ending_in_a_field_completes_like_a_crossing() -> None:
    game = new_game("D AM10 A")
    put(game, 1, 0, 90, "follower", 10)
    assert root(game, 1, 0, 10) == root(game, 0, 0, 4)
    # The road ends at the house: the field goes round it, joining D's two fields.
    assert root(game, 0, 0, 3) == root(game, 0, 0, 5) == root(game, 1, 0, 0)
    (road,) = scores_of(put(game, -1, 0, 270), "road")
    assert (road.tiles, road.complete, road.points) == (3, True, {0: 3})


def test_am11_one_road_with_three_branches_needs_all_three_ends_closed() -> None:
    game = new_game("D AM11 A A A")
    put(game, 1, 0, 0, "follower", 1)
    assert root(game, 1, 0, 1) == root(game, 1, 0, 4) == root(game, 1, 0, 10)
    assert scores_of(put(game, -1, 0, 270)) == []  # west end closed
    assert scores_of(put(game, 2, 0, 90)) == []  # east end closed
    (road,) = scores_of(put(game, 1, -1, 0), "road")  # north end closed: now complete
    assert (road.tiles, road.points) == (5, {0: 5})
    assert game.breakdown[BLUE] == {"road": 5}


def test_am12_road_runs_under_the_city_as_one_road_and_the_field_is_not_split() -> None:
    # AM12 turned 90 east of D: city north-south, road west-east under it.
    game = new_game("D AM12 A A")
    put(game, 1, 0, 90, "follower", 4)
    assert root(game, 1, 0, 4) == root(game, 1, 0, 10) == root(game, 0, 0, 4)
    assert root(game, 1, 0, 0) == root(game, 1, 0, 6)  # one city over the road
    assert game.board.pennants[root(game, 1, 0, 0)] == 1
    # West of the city (the printed south side) one field runs on both sides of the road.
    assert root(game, 1, 0, 9) == root(game, 1, 0, 11) == root(game, 0, 0, 3) == root(game, 0, 0, 5)
    # East of the city (the printed north side) the road splits two fields.
    assert len({root(game, 1, 0, 3), root(game, 1, 0, 5), root(game, 1, 0, 9)}) == 3
    put(game, -1, 0, 270)
    (road,) = scores_of(put(game, 2, 0, 90), "road")
    assert (road.tiles, road.points) == (4, {0: 4})


def test_am12_field_under_the_city_carries_a_farmer_to_the_far_city() -> None:
    # The farmer stands west of AM12's city on the side facing D's south field; the field is
    # one piece, so it reaches D's north field and D's city, which E then completes.
    game = new_game("D AM12 E")
    put(game, 1, 0, 90, "follower", 9)
    put(game, 0, -1, 180)
    assert game.finished
    assert game.breakdown[BLUE] == {"field": 3}


# -- abbey -------------------------------------------------------------------------------------
#
#            x=-2   x=-1   x=0    x=1
#   y=0      (U)    U      D      U        road west-east along y=0
#   y=1      A      U  =>  hole  <= U      roads ending at the hole from both sides
#   y=2             (E)    N      B        N: city north (facing the hole) and west
#
# The hole (0, 1) has D's field north, roads west and east, N's city south.

RING_2P = "D U U A U U B N U E"
RING_3P = "D U U A U U B N"


def build_ring(game: Game, road_figure: str = "follower", monk: bool = False) -> None:
    """Fill the board round the hole (0, 1); Red (seat 1) has ``road_figure`` on the west road."""
    put(game, -1, 0, 0)
    put(game, -1, 1, 0, road_figure, 4)  # the road that ends at the hole, west side
    put(game, -2, 1, 270)  # A: its cloister ends that road at the other end
    put(game, 1, 0, 0)
    put(game, 1, 1, 0)  # the road to the right of the hole
    put(game, 1, 2, 0, *(("follower", "C") if monk else ()))  # B: a cloister diagonal to it
    put(game, 0, 2, 0)  # N: the city below the hole


def ring_2p(road_figure: str = "follower", monk: bool = False) -> Game:
    """The ring with 2 players; Red adds a harmless U; Blue to play, holding E."""
    game = new_game(RING_2P)
    build_ring(game, road_figure, monk)
    put(game, -2, 0, 0)
    assert game.decision.player == BLUE and game.decision.tile == "E"
    return game


def test_an_abbey_goes_only_into_a_hole() -> None:
    game = new_game(RING_2P)
    assert game.legal(PlaceAbbey) == []
    with pytest.raises(IllegalActionError, match="hole"):
        game.play(PlaceAbbey(0, 1))
    build_ring(game)
    # Red to play: the hole now has tiles on all four sides (diagonals don't matter).
    assert game.legal(PlaceAbbey) == [PlaceAbbey(0, 1)]
    for square in [(0, -1), (2, 1), (0, 0)]:
        with pytest.raises(IllegalActionError):
            game.play(PlaceAbbey(*square))
    assert am_of(game).abbeys == [1, 1]


def test_the_abbey_closes_the_road_it_touches_and_scores_it_at_once() -> None:
    # "Bleu pose sa grande abbaye et achève la route à gauche avec le voleur rouge. La ville en
    # dessous de la grande abbaye et la route à droite restent inachevées."
    game = ring_2p()
    events = put_abbey(game, 0, 1)
    (road,) = scores_of(events)
    assert (road.feature, road.tiles, road.complete, road.points) == ("road", 2, True, {RED: 2})
    assert FigureReturned(RED, "follower", -1, 1) in events
    assert not game.board.is_complete(root(game, 0, 2, 0))  # the city below
    assert not game.board.is_complete(root(game, 1, 1, 4))  # the road to the right
    assert am_of(game).abbeys == [0, 1]
    # The abbey is not a tile of what it closes: the city scores 1 tile, the right road 2.
    assert (0, 1) not in (game.board.ftiles[root(game, 0, 2, 0)] or set())
    assert (0, 1) not in (game.board.ftiles[root(game, 1, 1, 4)] or set())


def test_the_drawn_tile_goes_back_on_top_for_the_next_player() -> None:
    game = ring_2p()
    left = game.tiles_left
    put_abbey(game, 0, 1)
    assert game.decision == Decision(Phase.TILE, RED, game.turn, "E")
    assert game.tiles_left == left


def test_the_abbey_matches_any_edge_and_does_not_join_fields() -> None:
    game = ring_2p()
    south_west, south_east = root(game, -1, 1, 5), root(game, 1, 1, 9)
    assert south_west != south_east
    put_abbey(game, 0, 1)
    assert game.board.tiles[(0, 1)].oriented.edges == "****"
    assert root(game, -1, 1, 5) != root(game, 1, 1, 9)  # fields on either side stay apart
    for node, tiles in enumerate(game.board.ftiles):
        if tiles is not None and game.board.ftype[node] != "cloister":
            assert (0, 1) not in tiles


def test_the_abbey_closes_roads_so_that_their_open_ends_are_counted_closed() -> None:
    # Whatever the bug above, the road the abbey closes is complete on the board.
    game = ring_2p()
    put_abbey(game, 0, 1)
    assert game.board.is_complete(root(game, -1, 1, 4))
    assert game.board.ftiles[root(game, -1, 1, 4)] == {(-2, 1), (-1, 1)}


def test_one_abbey_per_player_and_a_used_one_is_not_offered_at_the_end() -> None:
    game = new_game("D U U A U U B N U B B B B")
    build_ring(game)
    put(game, -2, 0, 0)
    put_abbey(game, 0, 1)  # Blue's abbey; the drawn B goes back for Red
    put(game, -2, 2, 0)
    put(game, 0, 3, 0)
    put(game, -1, 3, 0)  # a second hole at (-1, 2)
    assert game.decision.player == BLUE and game.board.holes() == [(-1, 2)]
    assert game.legal(PlaceAbbey) == []
    with pytest.raises(IllegalActionError, match="already played"):
        game.play(PlaceAbbey(-1, 2))
    put(game, 1, 3, 0)  # Blue places the last tile
    assert (phase_of(game), game.decision.player) == (Phase.ABBEY_END, RED)
    put_abbey(game, -1, 2)
    assert game.finished  # Blue, whose abbey is used, is not asked
    assert am_of(game).abbeys == [0, 0]


def test_a_monk_on_the_abbey_scores_9_when_its_eight_neighbours_are_placed() -> None:
    game = ring_2p(monk=True)
    put_abbey(game, 0, 1, "follower")
    assert (BLUE, "follower", (0, 1), "C") in figures_at(game)
    events = put(game, -1, 2, 90)  # Red: E, the eighth neighbour, also closes N's city
    cloister = [c for c in scores_of(events, "cloister") if not c.final]
    assert [(c.points, c.where) for c in cloister] == [({BLUE: 9}, (0, 1))]
    assert game.supply[BLUE]["follower"] == 7
    # Red's monk on B (1, 2) counts the abbey as a neighbour: (0, 1), (1, 1), (0, 2) + itself.
    assert game.finished
    assert game.breakdown[RED] == {"road": 2, "cloister": 4}


def test_an_abbey_completes_at_once_when_its_neighbours_are_already_there() -> None:
    game = new_game("D U U A U U B N E U U")
    build_ring(game)
    put(game, -1, 2, 90)  # Red: E in the last diagonal square
    put(game, -2, 0, 0)  # Blue
    events = put_abbey(game, 0, 1, "follower")  # Red's abbey, with a monk
    cloister = scores_of(events, "cloister")
    assert [(c.points, c.final, c.where) for c in cloister] == [({RED: 9}, False, (0, 1))]
    assert not game.finished


def test_a_wagon_may_go_on_an_abbey() -> None:
    game = ring_2p()
    game.play(PlaceAbbey(0, 1))
    assert PlaceFigure("wagon", 0, 1, "C") in game.legal_figures()
    assert PlaceFigure("mayor", 0, 1, "C") not in game.legal_figures()
    game.play(PlaceFigure("wagon", 0, 1, "C"))
    assert (BLUE, "wagon", (0, 1), "C") in figures_at(game)


def test_a_wagon_freed_by_the_abbey_may_move_onto_it_or_the_cloister_at_the_other_end() -> None:
    game = ring_2p(road_figure="wagon")
    events = put_abbey(game, 0, 1)
    assert scores_of(events)[0].points == {RED: 2}
    assert phase_of(game) is Phase.WAGON and game.decision.player == RED
    assert set(game.legal(MoveWagon)) == {MoveWagon(0, 1, "C"), MoveWagon(-2, 1, "C")}
    events = game.play(MoveWagon(0, 1, "C"))
    assert WagonMoved(RED, 0, 1, "C") in events
    assert (RED, "wagon", (0, 1), "C") in figures_at(game)
    assert phase_of(game) is Phase.TILE and game.decision.player == RED


def test_a_monk_on_the_abbey_leaves_only_the_far_cloister_for_the_wagon() -> None:
    game = ring_2p(road_figure="wagon")
    put_abbey(game, 0, 1, "follower")
    assert game.legal(MoveWagon) == [MoveWagon(-2, 1, "C")]


# -- the end-game abbey ------------------------------------------------------------------------


def test_end_game_abbeys_are_offered_from_the_next_player_before_final_scoring() -> None:
    game = new_game(RING_3P, players=3)
    build_ring(game)  # Blue placed N, the last tile
    assert phase_of(game) is Phase.ABBEY_END and game.decision.player == RED
    assert game.legal(PlaceAbbey) == [PlaceAbbey(0, 1)] and game.can_pass
    game.play(Pass())
    assert phase_of(game) is Phase.ABBEY_END and game.decision.player == YELLOW
    game.play(PlaceAbbey(0, 1))
    assert phase_of(game) is Phase.FIGURE and game.decision.player == YELLOW
    events = game.play(PlaceFigure("follower", 0, 1, "C"))
    # Then final scoring, before which Blue is not asked: no hole is left.
    kinds = [(s.feature, s.points) for s in scores_of(events)]
    assert ("road", {RED: 2}) in kinds  # the road the abbey closed
    assert ("cloister", {YELLOW: 8}) in kinds  # 1 + the 7 placed neighbours
    assert game.finished
    assert am_of(game).abbeys == [1, 1, 0]


def test_end_game_abbey_scores_what_it_closes_before_final_scoring() -> None:
    game = new_game(RING_3P, players=3)
    build_ring(game)
    game.play(PlaceAbbey(0, 1))  # Red, first asked
    events = game.play(Pass())
    road = scores_of(events, "road")
    assert [(r.final, r.complete, r.points) for r in road] == [(False, True, {RED: 2})]


def test_end_game_abbey_can_be_declined_by_everyone() -> None:
    game = new_game(RING_3P, players=3)
    build_ring(game)
    for player in (RED, YELLOW, BLUE):
        assert (phase_of(game), game.decision.player) == (Phase.ABBEY_END, player)
        events = game.play(Pass())
    assert game.finished
    assert [(s.feature, s.final, s.points) for s in scores_of(events)] == [
        ("road", True, {RED: 2})  # incomplete at the end: 1 per tile
    ]
    assert am_of(game).abbeys == [1, 1, 1]


def test_no_end_game_abbey_step_without_a_hole() -> None:
    game = new_game("D E")
    put(game, 0, -1, 180)
    assert game.finished


# -- mayor -------------------------------------------------------------------------------------
#
#   y=0    U(-2,0) U(-1,0) D U(1,0) U(2,0)      a road row; fields south of it
#   y=1    E  F  F  F  G  E                     a west-east city of 6 tiles, 3 pennants (the F)
#         -2 -1  0  1  2  3


def test_a_mayor_with_three_pennants_counts_as_three_knights() -> None:
    # "Le maire vaut 3 partisans (3 blasons). Bleu remporte donc 18 points pour cette ville."
    game = new_game("D U U U U F E G E F F")
    put(game, -1, 0, 0)
    put(game, -2, 0, 0)
    put(game, 1, 0, 0)
    put(game, 2, 0, 0)
    put(game, 0, 1, 0, "mayor", 3)  # Blue: mayor alone in a one-tile city
    put(game, -2, 1, 90, "follower", 3)  # Red: knight in the west end (E, city east)
    put(game, 2, 1, 0)  # Blue: G
    put(game, 3, 1, 270, "follower", 9)  # Red: knight in the east part (E, city west)
    events = put(game, -1, 1, 0)  # Blue: F joins the west end to the mayor's city
    assert scores_of(events) == []
    events = put(game, 1, 1, 0)  # Red: F closes the whole city
    (city,) = scores_of(events, "city")
    assert (city.tiles, city.pennants, city.complete) == (6, 3, True)
    assert city.points == {BLUE: 18}  # mayor 3 against two knights
    assert game.supply[BLUE]["mayor"] == 1 and game.supply[RED]["follower"] == 7
    assert FigureReturned(BLUE, "mayor", 0, 1) in events


def test_a_mayor_in_a_city_without_pennant_counts_for_nothing() -> None:
    game = new_game("D E E")
    put(game, 0, -1, 180, "mayor", 6)  # E north of D: a 2-tile city, complete at once
    assert game.scores == [0, 0]
    assert game.supply[BLUE]["mayor"] == 1  # it still comes back


def test_a_mayor_with_one_pennant_ties_a_knight_and_the_city_value_is_unchanged() -> None:
    game = new_game("D U U E F G E")
    put(game, 1, 0, 0)
    put(game, 2, 0, 0)
    put(game, 0, 1, 90, "follower", 3)  # Blue: knight in E's city (facing east)
    put(game, 2, 1, 0, "mayor", 3)  # Red: mayor in F's city (1 pennant), apart for now
    assert scores_of(put(game, 1, 1, 0)) == []  # Blue: G joins them
    (city,) = scores_of(put(game, 3, 1, 270), "city")  # Red: E closes it
    assert (city.tiles, city.pennants) == (4, 1)
    assert city.points == {BLUE: 10, RED: 10}  # 1 knight = mayor with 1 pennant; value 8 + 2


@pytest.mark.parametrize("where", ["road", "field", "cloister"])
def test_the_mayor_goes_only_in_a_city(where: str) -> None:
    game = new_game("D A")
    game.play(PlaceTile(1, 0, 90))  # A: road ending at its cloister, continuing D's road
    spots: dict[str, int | str] = {"road": 10, "field": 0, "cloister": "C"}
    at = spots[where]
    assert all(f.figure != "mayor" for f in game.legal_figures())
    with pytest.raises(IllegalActionError, match="mayor goes only in a city"):
        game.play(PlaceFigure("mayor", 1, 0, at))


def test_the_mayor_needs_a_city_with_no_figure_in_it() -> None:
    game = new_game("D U F E")
    put(game, 1, 0, 0)
    put(game, 1, 1, 0, "follower", 3)  # Red: a knight in F's city
    game.play(PlaceTile(0, 1, 90))  # Blue: E joins it
    assert PlaceFigure("mayor", 0, 1, 3) not in game.legal_figures()
    with pytest.raises(IllegalActionError):
        game.play(PlaceFigure("mayor", 0, 1, 3))


def test_an_incomplete_city_with_a_mayor_scores_at_the_end_by_pennants() -> None:
    game = new_game("D U F")
    put(game, 1, 0, 0)
    put(game, 1, 1, 0, "mayor", 3)  # Red: F, 1 pennant, open both ways
    assert game.finished
    assert game.breakdown[RED] == {"city": 2}  # 1 tile + 1 pennant


# -- barn --------------------------------------------------------------------------------------
#
#   y=0         D   (U)        D's south field runs into the B tiles below
#   y=1         B    B
#   y=2         E    E         E turned 180: city south; the barn corner is between the four
#   y=3         E    E         E: city north, closing the two cities above: both complete
#              x=0  x=1


def test_a_barn_goes_where_four_tiles_meet_with_only_field_at_the_corner() -> None:
    game = new_game("D B B B B E")
    put(game, 0, 1, 0)
    put(game, 1, 1, 0)
    game.play(PlaceTile(0, 2, 0))  # three tiles only round (1, 2)'s corner: no barn yet
    assert [f for f in game.legal_figures() if f.figure == "barn"] == []
    game.play(Pass())
    game.play(PlaceTile(1, 2, 0))
    assert [f for f in game.legal_figures() if f.figure == "barn"] == [
        PlaceFigure("barn", 1, 2, "NW")
    ]
    with pytest.raises(IllegalActionError, match="barn"):
        game.play(PlaceFigure("barn", 1, 2, "SE"))  # no tiles there
    with pytest.raises(IllegalActionError):
        game.play(PlaceFigure("barn", 1, 2, 0))  # a barn stands on a corner, not an edge


def test_no_barn_where_a_city_touches_the_junction() -> None:
    # "La grange ne peut pas être posée ici, car il y a une ville à la jonction des champs sur
    # les deux tuiles du dessous."
    game = new_game("D B B F F E")
    put(game, 0, 1, 0)
    put(game, 1, 1, 0)
    put(game, 0, 2, 0)  # F: city west-east
    game.play(PlaceTile(1, 2, 0))
    assert [f for f in game.legal_figures() if f.figure == "barn"] == []


def barn_example(players: int = 2) -> tuple[Game, list[object]]:
    """Seat 1 has a farmer in the big field; Blue places the barn (seat 0)."""
    game = new_game("D B E E B E U E B B B")
    put(game, 0, 1, 0)
    put(game, 0, 2, 180, "follower", 0)  # seat 1: farmer in the big field
    put(game, 0, 3, 0)  # closes the first city
    put(game, 1, 1, 0)
    put(game, 1, 3, 0)
    put(game, 1, 0, 0)
    game.play(PlaceTile(1, 2, 180))  # closes the second city; four tiles meet at its NW
    events: list[object] = list(game.play(PlaceFigure("barn", 1, 2, "NW")))
    return game, events


def test_placing_a_barn_pays_the_farmers_3_per_completed_city_and_sends_them_home() -> None:
    # "Bleu pose sa grange. Jaune gagne 6 points pour les 2 villes achevées et récupère son
    # paysan." (Yellow is seat 1 here.)
    game, events = barn_example()
    field = [e for e in events if isinstance(e, FeatureScored) and e.feature == "field"]
    assert [(f.points, f.final) for f in field] == [({1: 6}, False)]
    assert game.scores == [0, 6]
    assert game.supply[1]["follower"] == 7 and game.supply[BLUE]["barn"] == 0
    assert FigureReturned(1, "follower", 0, 2) in events
    assert (BLUE, "barn", (1, 2), "NW") in figures_at(game)


def test_no_farmer_in_a_field_with_a_barn_and_no_second_barn_there() -> None:
    game, _ = barn_example()
    game.play(PlaceTile(-1, 1, 0))  # seat 1: B in the barn's field
    choices = game.legal_figures()
    assert PlaceFigure("follower", -1, 1, "C") in choices  # a monk is fine
    assert all(f.at == "C" for f in choices if f.figure == "follower")
    with pytest.raises(IllegalActionError, match="barn"):
        game.play(PlaceFigure("follower", -1, 1, 0))
    game.play(Pass())
    game.play(PlaceTile(2, 1, 0))  # Blue: B; then seat 1's B at (2, 2) makes a second corner
    game.play(Pass())
    game.play(PlaceTile(2, 2, 0))
    assert [f for f in game.legal_figures() if f.figure == "barn"] == []


def test_the_barn_scores_4_per_completed_city_at_the_end_and_is_never_removed() -> None:
    game, _ = barn_example()
    put(game, -1, 1, 0)
    put(game, 2, 1, 0)
    events = put(game, 2, 2, 0)
    assert game.finished
    assert (BLUE, "barn", (1, 2), "NW") in figures_at(game)
    barn = [(e.points, e.final, e.details["cities"]) for e in scores_of(events, "barn")]
    assert barn == [({BLUE: 8}, True, 2)]
    assert game.breakdown[BLUE] == {"barn": 8}
    assert game.scores == [8, 6]


def test_joining_a_farmer_field_to_a_barn_field_pays_1_per_completed_city() -> None:
    # "La nouvelle tuile relie le champ avec le paysan rouge à la grange bleue. Rouge reçoit
    # 2 points (2 villes achevées) et récupère son paysan."
    game = new_game("D B E E E B U E B B")
    put(game, 0, 1, 0)
    put(game, 0, 2, 180)
    put(game, 0, 3, 0)  # closes the first city
    put(game, 1, 3, 0, "follower", 3)  # Red: farmer in the small field south of both cities
    put(game, 1, 1, 0)
    put(game, 1, 0, 0)
    events = put(game, 1, 2, 180, "barn", "NW")  # Blue: barn; nobody farms that field yet
    assert [f.points for f in scores_of(events, "field")] == [{}]
    put(game, 2, 2, 0)  # Red: B joins the barn's field
    events = put(game, 2, 3, 0)  # Blue: B links Red's field to the barn's field
    field = scores_of(events, "field")
    assert [(f.points, f.final) for f in field] == [({RED: 2}, False)]
    assert game.supply[RED]["follower"] == 7
    assert game.finished
    assert game.breakdown == [{"barn": 8}, {"field": 2}]


def test_several_barns_in_one_field_each_score_fully() -> None:
    # Blue's barn north of the road row, Red's south of it; A at the road's east end joins
    # the two fields. D's city (closed by E) is the only completed city.
    game = new_game("D U U E B B B B B B B U B A")
    put(game, 1, 0, 0)
    put(game, 2, 0, 0)
    put(game, 0, -1, 180)
    put(game, 1, -1, 0)
    put(game, 2, -1, 0)
    put(game, 1, -2, 0)
    put(game, 2, -2, 0, "barn", "SW")  # Blue
    put(game, 0, 1, 0)
    put(game, 1, 1, 0)
    put(game, 0, 2, 0)
    put(game, -1, 0, 0)
    put(game, 1, 2, 0, "barn", "NW")  # Red: a second field, touching no completed city
    assert root(game, 1, 1, 0) != root(game, 1, -1, 0)
    events = put(game, 3, 0, 90)  # A: its field goes round the road's end
    assert root(game, 1, 1, 0) == root(game, 1, -1, 0)
    assert game.finished
    barns = scores_of(events, "barn")
    assert sorted((tuple(b.points.items()), b.final) for b in barns) == [
        (((BLUE, 4),), True),
        (((RED, 4),), True),
    ]
    assert game.breakdown == [{"barn": 4}, {"barn": 4}]


# -- wagon -------------------------------------------------------------------------------------


def test_the_wagon_goes_on_a_road_city_or_cloister_but_not_a_field() -> None:
    game = new_game("D A")
    game.play(PlaceTile(1, 0, 90))  # A: road ending at its cloister
    wagons = {f.at for f in game.legal_figures() if f.figure == "wagon"}
    assert wagons == {10, "C"}
    with pytest.raises(IllegalActionError, match="not in a field"):
        game.play(PlaceFigure("wagon", 1, 0, 0))


def test_the_wagon_counts_as_one_follower() -> None:
    game = new_game("D U U E F G E")
    put(game, 1, 0, 0)
    put(game, 2, 0, 0)
    put(game, 0, 1, 90, "follower", 3)  # Blue: knight
    put(game, 2, 1, 0, "wagon", 3)  # Red: wagon in a separate city
    put(game, 1, 1, 0)
    events = put(game, 3, 1, 270)
    assert scores_of(events, "city")[0].points == {BLUE: 10, RED: 10}
    # Nothing touches that city: the wagon comes back by itself.
    assert game.supply[RED]["wagon"] == 1 and phase_of(game) is not Phase.WAGON


def wagon_road_to_crossing() -> Game:
    """Blue's wagon on a road from A's cloister to a W crossing where Red has a thief."""
    game = new_game("D U W A E")
    put(game, 1, 0, 0, "wagon", 4)
    put(game, 2, 0, 0, "follower", 7)  # Red: W crossing, thief on its south road
    return game


def test_wagon_moves_on_to_the_cloister_or_free_road_at_the_ends_of_its_road() -> None:
    # "Bleu marque 4 points pour la route achevée. Il peut alors déplacer son chariot vers
    # l'abbaye ou la route qui se trouvent aux extrémités. Il ne peut par contre pas le déplacer
    # sur la route avec le partisan rouge, même si celle-ci est également adjacente."
    game = wagon_road_to_crossing()
    events = put(game, -1, 0, 270)  # Blue: A closes the road at its cloister
    (road,) = scores_of(events, "road")
    assert (road.tiles, road.points) == (4, {BLUE: 4})
    assert (phase_of(game), game.decision.player) == (Phase.WAGON, BLUE)
    assert game.can_pass
    assert set(game.legal(MoveWagon)) == {MoveWagon(-1, 0, "C"), MoveWagon(2, 0, 4)}
    for refused in [MoveWagon(2, 0, 7), MoveWagon(0, 0, 4), MoveWagon(0, 0, 1)]:
        with pytest.raises(IllegalActionError, match="wagon"):
            game.play(refused)
    events = game.play(MoveWagon(-1, 0, "C"))
    assert events[0] == WagonMoved(BLUE, -1, 0, "C")
    assert (BLUE, "wagon", (-1, 0), "C") in figures_at(game)
    assert (phase_of(game), game.decision.player) == (Phase.TILE, RED)


def test_the_wagon_owner_may_take_it_back_instead() -> None:
    game = wagon_road_to_crossing()
    put(game, -1, 0, 270)
    events = game.play(Pass())
    returned = [e for e in events if isinstance(e, FigureReturned)]
    assert [(e.player, e.figure) for e in returned] == [(BLUE, "wagon")]
    assert game.supply[BLUE]["wagon"] == 1
    assert all(f.kind != "wagon" for f in game.figures())


def test_wagon_may_move_to_the_city_at_the_gate_but_not_to_occupied_or_completed_roads() -> None:
    # "Bleu marque 2 points pour la route achevée. Il peut alors déplacer son chariot vers la
    # ville adjacente. Il ne peut par contre pas le déplacer sur la route avec le partisan
    # rouge [...]. Il ne peut pas non plus l'envoyer vers la route déjà achevée."
    game = new_game("D U W A U T E")
    put(game, -1, 0, 0)
    put(game, 1, 0, 180, "follower", 10)  # Red: W crossing (roads N, E, W), thief going west
    put(game, 2, 0, 90)  # Blue: A closes the crossing's east road (2 tiles, nobody on it)
    put(game, -2, 0, 0)
    events = put(game, 1, -1, 0, "wagon", 7)  # Blue: T, its gate road meets the crossing
    assert scores_of(events, "road")[0].points == {BLUE: 2}
    assert game.legal(MoveWagon) == [MoveWagon(1, -1, 0)]  # T's city only
    game.play(MoveWagon(1, -1, 0))
    assert (BLUE, "wagon", (1, -1), "0") in figures_at(game)


def test_wagon_leaves_a_completed_city_along_the_road_at_its_gate() -> None:
    # "Bleu marque 14 points pour la ville achevée. Il peut alors déplacer son chariot vers la
    # route qui part vers la droite." Here: AM06's city, closed by E, and its gate road.
    game = new_game("D AM06 E E")
    put(game, 1, 0, 0, "wagon", 0)
    events = put(game, 1, -1, 180)  # Red closes the city; Blue's wagon is freed
    assert scores_of(events, "city")[0].points == {BLUE: 2}  # 2 tiles, classic small city
    assert (phase_of(game), game.decision.player) == (Phase.WAGON, BLUE)
    assert game.legal(MoveWagon) == [MoveWagon(1, 0, 10)]
    game.play(MoveWagon(1, 0, 10))
    assert (phase_of(game), game.decision.player) == (Phase.TILE, BLUE)


def test_wagon_must_come_back_when_no_touching_feature_qualifies() -> None:
    # "Si aucun des éléments adjacents ne remplit ces deux conditions, le joueur doit récupérer
    # son chariot." The gate road is already complete when the city closes.
    game = new_game("D AM06 A E E")
    put(game, 1, 0, 0, "wagon", 0)
    put(game, -1, 0, 270)  # Red: A completes the road D -> AM06's gate
    events = put(game, 1, -1, 180)  # Blue closes the city
    assert scores_of(events, "city")[0].points == {BLUE: 2}
    assert any(isinstance(e, FigureReturned) and e.figure == "wagon" for e in events)
    assert game.supply[BLUE]["wagon"] == 1
    assert (phase_of(game), game.decision.player) == (Phase.TILE, RED)


def test_freed_wagons_move_in_turn_order_from_the_active_player() -> None:
    # Red places X, completing Yellow's road from the west and Blue's road from the north.
    game = new_game("D E B A A X E", players=3)
    put(game, 0, -1, 180)  # Blue: E closes D's city
    put(game, 0, 1, 0)  # Red
    put(game, -1, 0, 270, "wagon", 4)  # Yellow: wagon on the road A -> D
    put(game, 1, -1, 0, "wagon", 7)  # Blue: wagon on A's road going south
    events = put(game, 1, 0, 0)  # Red: X ends both roads
    assert sorted((r.tiles, tuple(r.points.items())) for r in scores_of(events, "road")) == [
        (2, ((BLUE, 2),)),
        (3, ((YELLOW, 3),)),
    ]
    assert (phase_of(game), game.decision.player) == (Phase.WAGON, YELLOW)
    assert set(game.legal(MoveWagon)) == {
        MoveWagon(1, 0, 4),
        MoveWagon(1, 0, 7),
        MoveWagon(-1, 0, "C"),
    }
    game.play(MoveWagon(1, 0, 4))
    assert (phase_of(game), game.decision.player) == (Phase.WAGON, BLUE)
    assert set(game.legal(MoveWagon)) == {MoveWagon(1, 0, 7), MoveWagon(1, -1, "C")}
    game.play(MoveWagon(1, 0, 7))
    assert (phase_of(game), game.decision.player) == (Phase.TILE, YELLOW)
    assert {(f.player, f.pos, f.at) for f in game.figures() if f.kind == "wagon"} == {
        (YELLOW, (1, 0), 4),
        (BLUE, (1, 0), 7),
    }


def test_a_wagon_on_an_unfinished_feature_scores_like_a_follower_at_the_end() -> None:
    game = new_game("D U")
    put(game, 1, 0, 0, "wagon", 4)
    assert game.finished
    assert game.breakdown[BLUE] == {"road": 2}
    assert game.supply[BLUE]["wagon"] == 0  # the game is over: nothing moves any more


def test_one_figure_per_turn_a_follower_the_mayor_the_barn_or_the_wagon() -> None:
    game = new_game("D F E")
    game.play(PlaceTile(0, 1, 0))
    assert {f.figure for f in game.legal_figures()} == {"follower", "mayor", "wagon"}
    game.play(PlaceFigure("mayor", 0, 1, 3))
    assert phase_of(game) is Phase.TILE and game.decision.player == RED
    with pytest.raises(IllegalActionError):
        game.play(PlaceFigure("wagon", 0, 1, 0))


# -- records and the command line --------------------------------------------------------------


def ring_record_game() -> Game:
    game = ring_2p(road_figure="wagon")
    put_abbey(game, 0, 1, "follower")
    return game


def barn_join_game() -> Game:
    game = new_game("D B E E E B U E B B")
    for x, y, rotation, figure, at in [
        (0, 1, 0, None, None),
        (0, 2, 180, None, None),
        (0, 3, 0, None, None),
        (1, 3, 0, "follower", 3),
        (1, 1, 0, None, None),
        (1, 0, 0, None, None),
        (1, 2, 180, "barn", "NW"),
        (2, 2, 0, None, None),
        (2, 3, 0, None, None),
    ]:
        put(game, x, y, rotation, figure, at)
    return game


def mayor_and_wagons_game() -> Game:
    game = new_game("D E B A A X E F", players=3)
    put(game, 0, -1, 180)
    put(game, 0, 1, 0)
    put(game, -1, 0, 270, "wagon", 4)
    put(game, 1, -1, 0, "wagon", 7)
    put(game, 1, 0, 0)
    game.play(MoveWagon(1, 0, 4))
    game.play(Pass())  # Blue takes the wagon back
    put(game, 0, -2, 0)  # Yellow: E north of the closed city
    put(game, 0, -3, 90, "mayor", 0)  # Blue: F turned 90 continues that E's city
    return game


RECORDED = [ring_record_game, barn_join_game, mayor_and_wagons_game, wagon_road_to_crossing]


@pytest.mark.parametrize("build", RECORDED, ids=lambda f: f.__name__)
def test_records_replay_to_the_same_state(build: Callable[[], Game]) -> None:
    game = build()
    record = json.loads(json.dumps(game.record()))
    assert record["expansions"] == ["abbey_mayor"]
    again = Game.from_record(record)
    assert again.snapshot() == game.snapshot()
    assert again.record() == record


def test_records_use_every_abbey_and_mayor_action() -> None:
    actions = [a for build in RECORDED for a in build().record()["actions"]]
    types = {a["type"] for a in actions}
    assert {"place_tile", "place_abbey", "place_figure", "move_wagon", "pass"} <= types
    assert {a["figure"] for a in actions if a["type"] == "place_figure"} == {
        "follower",
        "mayor",
        "barn",
        "wagon",
    }
    assert {"type": "place_abbey", "x": 0, "y": 1} in actions
    assert {"type": "move_wagon", "x": 1, "y": 0, "at": 4} in actions


def test_cli_replay_prints_the_barn_score_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "barn.json"
    path.write_text(json.dumps(barn_join_game().record()), "utf-8")
    assert cli_main(["replay", str(path)]) == 0
    output = json.loads(capsys.readouterr().out)
    assert output == {
        "scores": {"Blue": 8, "Red": 2},
        "finished": True,
        "events": [
            {"type": "score", "player": "Red", "feature": "field", "points": 2, "final": False},
            {"type": "score", "player": "Blue", "feature": "barn", "points": 8, "final": True},
        ],
    }


def test_cli_replay_refuses_a_wagon_move_onto_an_occupied_road() -> None:
    game = wagon_road_to_crossing()
    record = game.record()
    record["actions"] += [
        {"type": "place_tile", "x": -1, "y": 0, "rotation": 270},
        {"type": "pass"},
        {"type": "move_wagon", "x": 2, "y": 0, "at": 7},
    ]
    status, output = replay_output(record)
    assert status == 1
    assert output["action"] == len(record["actions"]) - 1
    assert "wagon" in output["error"]


# -- properties over random games --------------------------------------------------------------

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"farmers": "modern", "small_city": "modern"},
    {"farmers": "classic4", "incomplete": "half"},
    {"hand": True},
]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_every_figure_and_never_lose_points(players: int) -> None:
    for index in range(4):
        seed = 100 * players + index
        setup = Setup(
            players=tuple(f"P{i}" for i in range(players)),
            seed=seed,
            expansions=("abbey_mayor",),
            options=dict(OPTION_SETS[index % len(OPTION_SETS)]),
        )
        game = Game(setup)
        play_checked(game, random.Random(seed))
        assert game.finished and not game.stack
        again = Game.from_record(json.loads(json.dumps(game.record())))
        assert again.snapshot() == game.snapshot()
        assert again.scores == game.scores


def test_simulate_with_the_expansion_runs(capsys: pytest.CaptureFixture[str]) -> None:
    for players in (1, 6):
        args = ["simulate", "--expansion", "abbey_mayor", "--games", "3", "--players", str(players)]
        assert cli_main(args) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["games"] == 3 and summary["expansions"] == ["abbey_mayor"]
        assert summary["players"] == players


def unscored_complete_features(game: Game) -> list[tuple[str, int]]:
    """Completed roads, cities and cloisters still holding figures (none should, between turns)."""
    board = game.board
    return [
        (board.ftype[node], node)
        for node, parent in enumerate(board.parent)
        if parent == node
        and board.ftype[node] in ("road", "city", "cloister")
        and board.open[node] == 0
        and board.figures[node]
    ]


@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_never_leave_a_completed_feature_unscored(seed: int) -> None:
    game = Game(Setup(players=("P0", "P1", "P2"), seed=seed, expansions=("abbey_mayor",)))
    rng = random.Random(seed)
    while not game.finished:
        game.play(random_action(game, rng))
        if phase_of(game) in (Phase.TILE, Phase.ABBEY_END):
            assert unscored_complete_features(game) == [], game.record()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 6), hand=st.booleans())
def test_any_random_game_ends_with_its_figures_kept_and_replays(
    seed: int, players: int, hand: bool
) -> None:
    setup = Setup(
        players=tuple(f"P{i}" for i in range(players)),
        seed=seed,
        expansions=("abbey_mayor",),
        options={"hand": hand},
    )
    game = Game(setup)
    play_checked(game, random.Random(seed))
    assert Game.from_record(game.record()).snapshot() == game.snapshot()


def test_a_wagon_on_the_abbey_moves_on_to_a_road_the_abbey_closes() -> None:
    game = ring_2p()
    put_abbey(game, 0, 1, "wagon")
    events = put(game, -1, 2, 90)  # Red: E completes the abbey (and N's city)
    assert [c.points for c in scores_of(events, "cloister")] == [{BLUE: 9}]
    assert (phase_of(game), game.decision.player) == (Phase.WAGON, BLUE)
    # Not the city (now complete), not the west road (closed by the abbey, complete).
    assert game.legal(MoveWagon) == [MoveWagon(1, 1, 4)]
    events = game.play(MoveWagon(1, 1, 4))
    assert game.finished  # that was the last tile: the wagon scores its road at the end
    assert [(r.points, r.final) for r in scores_of(events, "road") if BLUE in r.points] == [
        ({BLUE: 1}, True)
    ]
