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
    new_game,
    put,
    root,
    scores_of,
)

from engine import (
    Game,
    IllegalActionError,
    PlaceFigure,
    PlaceTile,
    Setup,
)
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
