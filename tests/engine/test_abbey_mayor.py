"""Abbey & Mayor (RULES.md section 2, abbey-and-mayor.fr.txt): tiles, abbey, mayor, barn, wagon.

Board sketches use x east, y south. The start tile D lies at (0, 0): city north, road west-east,
field south. Players are Blue (0), Red (1), Yellow (2)... in turn order; Blue places first.
"""

from __future__ import annotations

from collections import Counter

import pytest
from am_helpers import (
    INITIAL,
    REF,
    figures_at,
    new_game,
    put,
    put_abbey,
    root,
    scores_of,
)

from engine import (
    Decision,
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
from engine.events import WagonMoved
from engine.tiles import load_set

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
    assert game.abbeys == [0, 0]
    assert game.supply[0] == {"follower": 7}


def test_each_player_gets_an_abbey_a_mayor_a_barn_and_a_wagon_for_up_to_six() -> None:
    game = new_game("D E", players=6)
    assert game.abbeys == [1] * 6
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
    assert game.legal_abbeys() == []
    with pytest.raises(IllegalActionError, match="hole"):
        game.play(PlaceAbbey(0, 1))
    build_ring(game)
    # Red to play: the hole now has tiles on all four sides (diagonals don't matter).
    assert game.legal_abbeys() == [PlaceAbbey(0, 1)]
    for square in [(0, -1), (2, 1), (0, 0)]:
        with pytest.raises(IllegalActionError):
            game.play(PlaceAbbey(*square))
    assert game.abbeys == [1, 1]


ABBEY_BUG = (
    "engine bug: features closed by an abbey are not scored at once (Board.place does not "
    "report the neighbouring roads/cities whose open edges it closed as touched); they score "
    "only at final scoring and their figures stay on the board until then"
)


@pytest.mark.xfail(strict=True, reason=ABBEY_BUG)
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
    assert game.abbeys == [0, 1]
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
    assert game.legal_abbeys() == []
    with pytest.raises(IllegalActionError, match="already played"):
        game.play(PlaceAbbey(-1, 2))
    put(game, 1, 3, 0)  # Blue places the last tile
    assert (game.decision.phase, game.decision.player) == (Phase.ABBEY_END, RED)
    put_abbey(game, -1, 2)
    assert game.finished  # Blue, whose abbey is used, is not asked
    assert game.abbeys == [0, 0]


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


@pytest.mark.xfail(strict=True, reason=ABBEY_BUG)
def test_a_wagon_freed_by_the_abbey_may_move_onto_it_or_the_cloister_at_the_other_end() -> None:
    game = ring_2p(road_figure="wagon")
    events = put_abbey(game, 0, 1)
    assert scores_of(events)[0].points == {RED: 2}
    assert game.decision.phase is Phase.WAGON and game.decision.player == RED
    assert set(game.legal_wagon_moves()) == {MoveWagon(0, 1, "C"), MoveWagon(-2, 1, "C")}
    events = game.play(MoveWagon(0, 1, "C"))
    assert WagonMoved(RED, 0, 1, "C") in events
    assert (RED, "wagon", (0, 1), "C") in figures_at(game)
    assert game.decision.phase is Phase.TILE and game.decision.player == RED


@pytest.mark.xfail(strict=True, reason=ABBEY_BUG)
def test_a_monk_on_the_abbey_leaves_only_the_far_cloister_for_the_wagon() -> None:
    game = ring_2p(road_figure="wagon")
    put_abbey(game, 0, 1, "follower")
    assert game.legal_wagon_moves() == [MoveWagon(-2, 1, "C")]


# -- the end-game abbey ------------------------------------------------------------------------


def test_end_game_abbeys_are_offered_from_the_next_player_before_final_scoring() -> None:
    game = new_game(RING_3P, players=3)
    build_ring(game)  # Blue placed N, the last tile
    assert game.decision.phase is Phase.ABBEY_END and game.decision.player == RED
    assert game.legal_abbeys() == [PlaceAbbey(0, 1)] and game.can_pass
    game.play(Pass())
    assert game.decision.phase is Phase.ABBEY_END and game.decision.player == YELLOW
    game.play(PlaceAbbey(0, 1))
    assert game.decision.phase is Phase.FIGURE and game.decision.player == YELLOW
    events = game.play(PlaceFigure("follower", 0, 1, "C"))
    # Then final scoring, before which Blue is not asked: no hole is left.
    kinds = [(s.feature, s.points) for s in scores_of(events)]
    assert ("road", {RED: 2}) in kinds  # the road the abbey closed
    assert ("cloister", {YELLOW: 8}) in kinds  # 1 + the 7 placed neighbours
    assert game.finished
    assert game.abbeys == [1, 1, 0]


@pytest.mark.xfail(strict=True, reason=ABBEY_BUG)
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
        assert (game.decision.phase, game.decision.player) == (Phase.ABBEY_END, player)
        events = game.play(Pass())
    assert game.finished
    assert [(s.feature, s.final, s.points) for s in scores_of(events)] == [
        ("road", True, {RED: 2})  # incomplete at the end: 1 per tile
    ]
    assert game.abbeys == [1, 1, 1]


def test_no_end_game_abbey_step_without_a_hole() -> None:
    game = new_game("D E")
    put(game, 0, -1, 180)
    assert game.finished
