"""Inns & Cathedrals (RULES.md section 5): the large follower, inn roads, cathedral cities.

Board sketches use x east, y south. The start tile is the first entry of the forced draw (D: city
north, road west-east, field south). Players are Blue (0) and Red (1); Blue places first.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from bigbox_helpers import IC, NAMES, new_game, put, scores_of

from engine import (
    FigureReturned,
    Game,
    IllegalActionError,
    Pass,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Setup,
)
from engine.cli import main as cli_main
from engine.cli import replay_output
from engine.core.events import Event, FigurePlaced

BLUE, RED = 0, 1
AM_IC = ("abbey_mayor", "inns_cathedrals")

# -- setup ------------------------------------------------------------------------------------


def test_the_stack_holds_the_18_tiles_shuffled_into_the_base_game() -> None:
    game = Game(Setup(players=NAMES[:2], seed=3, expansions=IC))
    pool = Counter(game.stack) + Counter([game.tile])
    assert sum(pool.values()) + 1 == 72 + 18
    assert pool["IC01"] == 2 and all(pool[f"IC{i:02d}"] == 1 for i in range(2, 18))
    assert game.board.tiles[(0, 0)].oriented.kind == "D"


@pytest.mark.parametrize("players", [1, 2, 5, 6])
def test_each_player_gets_one_large_follower_for_up_to_six_players(players: int) -> None:
    game = Game(Setup(players=NAMES[:players], seed=1, expansions=IC))
    assert game.supply == [{"follower": 7, "large_follower": 1}] * players


def test_without_the_expansion_nobody_has_a_large_follower() -> None:
    game = new_game("D U", expansions=())
    game.play(PlaceTile(1, 0, 0))
    with pytest.raises(IllegalActionError, match="no large_follower"):
        game.play(PlaceFigure("large_follower", 1, 0, 4))


# -- the large follower -----------------------------------------------------------------------


def test_the_large_follower_may_stand_on_a_road_a_city_a_cloister_or_a_field() -> None:
    game = new_game("D IC02 L")
    game.play(PlaceTile(1, 0, 0))  # IC02: roads W and E end at the cloister, fields N and S
    large = {f.at for f in game.legal_figures() if f.figure == "large_follower"}
    assert large == {0, 4, 5, 10, "C"}
    events = game.play(PlaceFigure("large_follower", 1, 0, "C"))
    assert FigurePlaced(BLUE, "large_follower", "monk", 1, 0, "C") in events
    assert game.supply[BLUE] == {"follower": 7, "large_follower": 0}
    # It is the turn's one figure: Red plays next.
    assert game.decision.player == RED
    game.play(PlaceTile(-1, 0, 0))  # L west of D: its east road ends D's road
    game.play(PlaceFigure("large_follower", -1, 0, 1))  # Red's large knight in L's city
    assert game.supply[RED]["large_follower"] == 0


#   y=-2   N  Q  N        Q (one pennant) joins the city of G and D with the two Red E cities
#   y=-1   E  G  E
#   y=0       D  U
#         -1  0  1
JOIN = "D G E U E Q N N"


def build_join(game: Game, red_knights: int) -> list[Event]:
    put(game, 0, -1, 90, "large_follower", 1)  # Blue: large knight in G, joined to D's city
    put(game, 1, -1, 0, "follower", 1)  # Red: knight in E (city north), apart for now
    put(game, 1, 0, 0)  # Blue: U
    put(game, -1, -1, 0, *(("follower", 1) if red_knights == 2 else ()))  # Red: E
    put(game, 0, -2, 180)  # Blue: Q, city west, south and east
    put(game, 1, -2, 270)  # Red: N joins the east E
    return put(game, -1, -2, 180)  # Blue: N joins the west E and closes the city


def test_a_large_follower_ties_two_followers_and_both_score_the_full_city() -> None:
    game = new_game(JOIN)
    (city,) = scores_of(build_join(game, red_knights=2), "city")
    assert (city.tiles, city.pennants, city.complete) == (7, 1, True)
    assert city.points == {BLUE: 16, RED: 16}


def test_a_large_follower_beats_one_follower_and_scores_like_one_follower() -> None:
    game = new_game(JOIN)
    events = build_join(game, red_knights=1)
    (city,) = scores_of(events, "city")
    assert city.points == {BLUE: 16}  # 2 per tile + 2 per pennant, not doubled
    assert game.scores == [16, 0]
    assert FigureReturned(BLUE, "large_follower", 0, -1) in events
    assert game.supply[BLUE]["large_follower"] == 1


@pytest.mark.parametrize("farmers", ["classic", "modern"])
def test_a_large_farmer_weighs_two_and_scores_3_per_city(farmers: str) -> None:
    # D and E close a 2-tile city; Blue's large farmer stands in D's north strip.
    game = new_game("D U U E", farmers=farmers)
    put(game, 1, 0, 0, "large_follower", 0)  # U east of D: north field joins D's north strip
    put(game, 2, 0, 0)
    north_field = game.board.tiles[(1, 0)].oriented.feature_at(0)
    assert game.strengths(game.board.root_of((1, 0), north_field)) == [2, 0]
    events = put(game, 0, -1, 180)  # Blue: E closes D's city; the last tile
    (field,) = scores_of(events, "field")
    assert field.points == {BLUE: 3}


# -- inns -------------------------------------------------------------------------------------

#   y=-1  A                   A closes the north end of IC16's road
#   y=0   IC16 D IC15 A       the inn road: 4 tiles, or 5 with IC16 (two inns)
#         -1   0  1   2


def test_a_completed_inn_road_scores_2_per_tile() -> None:
    game = new_game("D IC15 A A")
    put(game, 1, 0, 0, "follower", 4)  # Blue: thief on the inn road
    put(game, 2, 0, 90)  # Red: A closes the east end at its cloister
    (road,) = scores_of(put(game, -1, 0, 270), "road")  # Blue: A closes the west end
    assert (road.tiles, road.complete, road.points) == (4, True, {BLUE: 8})
    assert road.marks == ("inn",)


def test_the_same_road_without_an_inn_scores_1_per_tile() -> None:
    game = new_game("D U A A")
    put(game, 1, 0, 0, "follower", 4)
    put(game, 2, 0, 90)
    (road,) = scores_of(put(game, -1, 0, 270), "road")
    assert (road.points, road.marks) == ({BLUE: 4}, ())


def test_two_inns_on_one_road_still_give_2_per_tile() -> None:
    game = new_game("D IC15 IC16 A A")
    put(game, 1, 0, 0, "follower", 4)  # Blue: thief on IC15's inn road
    put(game, -1, 0, 180)  # Red: IC16, a second inn, bends the road north
    put(game, 2, 0, 90)  # Blue: A closes the east end
    (road,) = scores_of(put(game, -1, -1, 0), "road")  # Red: A closes the north end
    assert (road.tiles, road.points) == (5, {BLUE: 10})
    assert road.marks == ("inn",)  # named once, like it counts once


@pytest.mark.parametrize("incomplete", ["standard", "half"])
def test_an_unfinished_inn_road_scores_nothing_at_the_end(incomplete: str) -> None:
    game = new_game("D IC15", incomplete=incomplete)
    events = put(game, 1, 0, 0, "follower", 4)  # the last tile: final scoring follows
    assert game.finished
    (road,) = scores_of(events, "road")
    assert (road.complete, road.final, road.points) == (False, True, {BLUE: 0})
    assert road.marks == ("inn",)
    assert game.scores == [0, 0]


@pytest.mark.parametrize(("incomplete", "points"), [("standard", 2), ("half", 1)])
def test_an_unfinished_road_without_inn_scores_as_usual(incomplete: str, points: int) -> None:
    game = new_game("D U", incomplete=incomplete)
    events = put(game, 1, 0, 0, "follower", 4)
    assert game.finished
    (road,) = scores_of(events, "road")
    assert (road.points, road.marks) == ({BLUE: points}, ())


# -- cathedrals -------------------------------------------------------------------------------

#   y=-1  E  M              IC01 (cathedral) alone in the middle, closed on its four sides;
#   y=0   E  IC01 E         M brings one pennant and needs E at (-1, -1)
#   y=1      E
#        -1  0    1
CATHEDRAL = "IC01 E E E M E"


def build_cathedral(game: Game, figure: str = "follower", at: int = 1) -> list[Event]:
    put(game, 0, 1, 0, figure, at)  # Blue: E south of the cathedral
    put(game, 1, 0, 270)  # Red: E east
    put(game, -1, 0, 90)  # Blue: E west
    put(game, 0, -1, 270)  # Red: M north, city south and west, one pennant
    return put(game, -1, -1, 90)  # Blue: E closes M's west side


def test_a_completed_cathedral_city_scores_3_per_tile_and_3_per_pennant() -> None:
    game = new_game(CATHEDRAL)
    (city,) = scores_of(build_cathedral(game), "city")
    assert (city.tiles, city.pennants, city.complete) == (6, 1, True)
    assert (city.points, city.marks) == ({BLUE: 21}, ("cathedral",))


def test_two_cathedrals_in_one_city_still_give_3_per_tile() -> None:
    game = new_game("IC01 IC01 E E E E E E")
    put(game, 1, 0, 0, "follower", 1)  # Blue: knight on the second cathedral
    put(game, 0, -1, 180)
    put(game, 1, -1, 180)
    put(game, 0, 1, 0)
    put(game, 1, 1, 0)
    put(game, -1, 0, 90)
    (city,) = scores_of(put(game, 2, 0, 270), "city")
    assert (city.tiles, city.points, city.marks) == (8, {BLUE: 24}, ("cathedral",))


@pytest.mark.parametrize("incomplete", ["standard", "half"])
def test_an_unfinished_cathedral_city_scores_nothing_at_the_end(incomplete: str) -> None:
    game = new_game("IC01 E M", incomplete=incomplete)
    put(game, 0, 1, 0, "follower", 1)
    events = put(game, 0, -1, 270)  # M: a pennant, and the city stays open
    assert game.finished
    (city,) = scores_of(events, "city")
    assert (city.complete, city.pennants, city.points) == (False, 1, {BLUE: 0})
    assert city.marks == ("cathedral",)


@pytest.mark.parametrize(("incomplete", "points"), [("standard", 5), ("half", 2)])
def test_an_unfinished_city_without_cathedral_scores_as_usual(incomplete: str, points: int) -> None:
    # C: the base 4-sided city with a pennant; 3 tiles and 2 pennants with M.
    game = new_game("C E M", incomplete=incomplete)
    put(game, 0, 1, 0, "follower", 1)
    (city,) = scores_of(put(game, 0, -1, 270), "city")
    assert (city.points, city.marks) == ({BLUE: points}, ())


@pytest.mark.parametrize("farmers", ["classic", "classic4", "modern"])
def test_a_completed_cathedral_city_is_one_city_for_the_farmers(farmers: str) -> None:
    game = new_game(CATHEDRAL, farmers=farmers)
    events = build_cathedral(game, "large_follower", 4)  # Blue's large farmer in E's field
    (field,) = scores_of(events, "field")
    assert field.points == {BLUE: 4 if farmers == "classic4" else 3}
    assert field.marks == ()  # the farmers see a city, cathedral or not


# -- with Abbey & Mayor -----------------------------------------------------------------------


@pytest.mark.parametrize(("pennant_tile", "points"), [("M", {BLUE: 21}), ("N", {})])
def test_the_mayor_counts_the_pennants_of_a_cathedral_city(
    pennant_tile: str, points: dict[int, int]
) -> None:
    game = new_game(f"IC01 E E E {pennant_tile} E", expansions=AM_IC)
    (city,) = scores_of(build_cathedral(game, "mayor", 1), "city")
    assert city.points == points  # a mayor weighs the city's pennants: 1 with M, 0 with N
    assert game.supply[BLUE]["mayor"] == 1


def test_an_abbey_closing_an_inn_road_scores_it_at_once_without_counting_itself() -> None:
    # The ring of the Abbey & Mayor tests round the hole (0, 1), with an inn on the west road.
    game = new_game("D U IC15 A U U B N U E", expansions=AM_IC)
    put(game, -1, 0, 0)
    put(game, -1, 1, 0, "large_follower", 4)  # Red: large thief on the inn road
    put(game, -2, 1, 270)  # A: its cloister ends that road in the west
    put(game, 1, 0, 0)
    put(game, 1, 1, 0)
    put(game, 1, 2, 0)
    put(game, 0, 2, 0)
    put(game, -2, 0, 0)

    events = game.play(PlaceAbbey(0, 1)) + game.play(Pass())
    (road,) = scores_of(events, "road")
    assert (road.tiles, road.complete, road.points, road.marks) == (2, True, {RED: 4}, ("inn",))


def test_a_barn_counts_a_completed_cathedral_city_once() -> None:
    game = new_game(f"{CATHEDRAL} B B", expansions=AM_IC)
    build_cathedral(game)
    put(game, -2, -1, 0)  # Red: B west of the north-west E
    # Blue: B below it; its NE corner is where (-2, -1), (-1, -1), (-2, 0), (-1, 0) meet.
    events = put(game, -2, 0, 0, "barn", "NE")
    assert game.finished
    (barn,) = scores_of(events, "barn")
    assert (barn.details["cities"], barn.points) == (1, {BLUE: 4})


# -- the score events of the record contract (python -m engine replay) ------------------------


def test_replay_marks_a_completed_inn_road_and_not_a_plain_one() -> None:
    # Blue's thief on the inn road of D IC15 A A, then on the same road with U for the inn.
    game = new_game("D IC15 A A")
    put(game, 1, 0, 0, "follower", 4)
    put(game, 2, 0, 90)
    put(game, -1, 0, 270)
    status, output = replay_output(game.record())
    assert status == 0
    assert output["events"] == [
        {"type": "score", "player": "Blue", "feature": "road", "points": 8, "final": False,
         "inn": True},
    ]  # fmt: skip
    plain = new_game("D U A A")
    put(plain, 1, 0, 0, "follower", 4)
    put(plain, 2, 0, 90)
    put(plain, -1, 0, 270)
    assert replay_output(plain.record())[1]["events"] == [
        {"type": "score", "player": "Blue", "feature": "road", "points": 4, "final": False},
    ]


def test_replay_names_the_unfinished_cathedral_city_that_scores_0_under_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game("IC01 E M", incomplete="half")
    put(game, 0, 1, 0, "follower", 1)
    put(game, 0, -1, 270)
    path = tmp_path / "cathedral.json"
    path.write_text(json.dumps(game.record()), "utf-8")
    assert cli_main(["replay", str(path)]) == 0
    printed = capsys.readouterr().out
    assert json.loads(printed) == {
        "scores": {"Blue": 0, "Red": 0},
        "finished": True,
        "events": [
            {"type": "score", "player": "Blue", "feature": "city", "points": 0, "final": True,
             "cathedral": True},
        ],
    }  # fmt: skip
    assert '"final": true, "cathedral": true}' in printed  # a new field after the old ones
