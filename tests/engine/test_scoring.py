"""Scoring during play and at the end (RULES.md section 1), with the French worked examples.

Board sketches use x east, y south. The start tile D lies at (0, 0): city north (edge positions
0-2), road east-west (4 and 10), field south. A turn is (x, y, rotation, at): ``at`` is where A
or B puts a follower on the tile just placed (None: pass). Players alternate A, B, A, ...
"""

from __future__ import annotations

import pytest
from support import Turn, followers_in_play, new_game, play_turns, scenario

from engine import FeatureScored, FigureReturned, Game, PlaceFigure, PlaceTile


def scored(game: Game) -> list[FeatureScored]:
    """Every scoring of a finished scenario, by replaying its actions on a fresh game."""
    replay = Game(game.setup)
    events = []
    for action in game.actions:
        events += replay.play(action)
    return [e for e in events if isinstance(e, FeatureScored)]


# -- roads ------------------------------------------------------------------------------------

# W (crossing) east of D, A's thief on its west road; W west of D closes the road: 3 tiles.
ROAD_3 = [(1, 0, 0, 10), (-1, 0, 0, None)]


def test_a_road_of_three_tiles_between_two_crossings_scores_3() -> None:
    # Rulebook: "Rouge reçoit 3 points".
    game = scenario("DWW", ROAD_3)
    assert game.scores == [3, 0]
    assert game.breakdown[0] == {"road": 3}


def test_a_road_ending_at_a_cloister_and_a_city_gate_is_complete() -> None:
    # A turned 90 (road west into its cloister) east of D; T turned 270 (road east out of its
    # city) west of D: the road A-D-T is closed at both ends, 3 tiles.
    game = new_game("DAT" + "B")
    play_turns(game, [(1, 0, 90, 10)])
    events = game.play(PlaceTile(-1, 0, 270))
    events += game.play(PlaceFigure("follower", -1, 0, 0))  # B's knight in T's city
    (road,) = [e for e in events if isinstance(e, FeatureScored) and e.feature == "road"]
    assert (road.points, road.final, road.tiles, road.complete) == ({0: 3}, False, 3, True)
    assert game.scores == [3, 0]


def test_a_road_that_closes_a_loop_is_complete() -> None:
    # Four curves V south of D make a ring: 4 tiles, 4 points.
    loop: list[Turn] = [(0, 1, 270, 4), (1, 1, 0, None), (0, 2, 180, None), (1, 2, 90, None)]
    game = scenario("DVVVV", loop, players=1)
    assert game.scores == [4]
    assert game.breakdown[0] == {"road": 4}


def test_an_open_road_does_not_score_during_play() -> None:
    game = scenario("DWUU", [(1, 0, 0, 10), (-1, 0, 0, None)])
    assert game.scores == [0, 0]
    assert not game.finished


# -- cities -----------------------------------------------------------------------------------

# N turned 180 (city south + east) north of D, N turned 270 (city west + south) at (1, -1),
# K (city north, road west-south) east of D: the four pieces close one city, no pennant.
CITY_4 = [(0, -1, 180, 6), (1, -1, 270, None), (1, 0, 0, None)]


def test_a_city_of_four_pieces_completed_scores_8() -> None:
    # Rulebook: "La nouvelle carte relie les deux quartiers ... Rouge reçoit 8 points".
    game = scenario("DNNK", CITY_4)
    assert game.scores == [8, 0]


def test_a_completed_city_scores_2_per_pennant_too() -> None:
    # The same city with M (pennant) instead of the first N: 4 tiles x 2 + 1 pennant x 2 = 10.
    game = scenario("DMNK", CITY_4)
    assert game.scores == [10, 0]


def test_a_two_tile_city_scores_2_under_classic() -> None:
    # E turned 180 closes D's city at once; the knight placed on it scores in the same turn.
    # "Seule exception: Une ville n'a que 2 quartiers ... le joueur rouge ne reçoit que 2 points."
    game = scenario("DE", [(0, -1, 180, 6)], small_city="classic")
    assert game.scores == [2, 0]


def test_a_two_tile_city_scores_4_under_modern() -> None:
    game = scenario("DE", [(0, -1, 180, 6)], small_city="modern")
    assert game.scores == [4, 0]


def test_the_small_city_exception_is_the_default() -> None:
    assert scenario("DE", [(0, -1, 180, 6)]).scores == [2, 0]


def test_a_three_tile_city_is_not_small() -> None:
    # N turned 180 then E turned 270: 3 tiles, 6 points under both options.
    for mode in ("classic", "modern"):
        game = scenario("DNE", [(0, -1, 180, 6), (1, -1, 270, None)], small_city=mode)
        assert game.scores == [6, 0], mode


def test_a_tile_counts_once_per_feature_even_if_the_feature_crosses_it_twice() -> None:
    # I (two separate city edges) south of D, then three N close a 2x2 ring of city around it:
    # the city runs through I twice, yet it has 4 tiles: 8 points, not 10.
    ring: list[Turn] = [(0, 1, 180, 6), (1, 1, 270, None), (0, 2, 90, None), (1, 2, 0, None)]
    game = scenario("DINNN", ring, players=1)
    assert game.scores == [8]
    (city,) = scored(game)
    assert (city.feature, city.tiles, city.points) == ("city", 4, {0: 8})


# -- majority ---------------------------------------------------------------------------------

# A's knight in M north of D; B's knight in K's separate city east of D; N at (1, -1) joins and
# closes both: 4 tiles + 1 pennant = 10, each knight alone in its part, tied 1-1.
TIED_CITY = [(0, -1, 180, 3), (1, 0, 0, 1), (1, -1, 270, None)]


def test_a_tied_city_pays_both_players_in_full() -> None:
    # Rulebook: "Rouge et Bleu reçoivent la somme totale des points ... 10 points chacun".
    game = scenario("DMKN", TIED_CITY)
    assert game.scores == [10, 10]
    assert game.winners == (0, 1)


def test_the_player_with_more_knights_takes_the_whole_city() -> None:
    # Green (A) has two knights, Black (B) one, in a city left open (see GREEN_BLACK below).
    game = scenario("DQKJRN", GREEN_BLACK)
    assert game.scores == [7, 0]


def test_a_tied_road_pays_both_thieves() -> None:
    # A's thief on the road west of the crossing W east of D; B's thief on the road west of the
    # crossing W south of D: two separate roads. Two curves V at (-1, 1) and (-1, 0) join them
    # into one road closed by both crossings: W, D, V, V, W = 5 tiles, thieves tied 1-1.
    turns: list[Turn] = [(1, 0, 0, 10), (0, 1, 0, 10), (-1, 1, 180, None), (-1, 0, 270, None)]
    game = scenario("DWWVV", turns)
    assert game.scores == [5, 5]


# -- cloisters --------------------------------------------------------------------------------

# B (cloister) south of D with A's monk, then its eight neighbours: two V continuing D's road
# into fields, five more B. The last one completes it.
CLOISTER = [
    (0, 1, 0, "C"),
    (1, 0, 90, None),
    (-1, 0, 180, None),
    (-1, 1, 0, None),
    (1, 1, 0, None),
    (-1, 2, 0, None),
    (0, 2, 0, None),
    (1, 2, 0, None),
]


def test_a_surrounded_cloister_scores_9() -> None:
    game = scenario("DBVVBBBBB", CLOISTER, players=1)
    assert game.scores == [9]
    assert game.supply[0]["follower"] == 7


def test_an_incomplete_cloister_scores_1_plus_its_neighbours_at_the_end() -> None:
    # Monk south of D with 3 neighbours (D, and the two V): 1 + 3 = 4.
    game = scenario("DBVV", CLOISTER[:3], players=1)
    assert game.scores == [4]


def test_a_cloister_with_only_the_start_tile_beside_it_scores_2() -> None:
    assert scenario("DB", [(0, 1, 0, "C")]).scores == [2, 0]


# -- followers coming back --------------------------------------------------------------------


def test_followers_return_after_scoring_and_can_be_reused_next_turn() -> None:
    # A's thief on W east of D; B closes the road; A gets the thief back and places it again.
    game = new_game("DWWU")
    play_turns(game, [(1, 0, 0, 10)])
    assert game.supply[0]["follower"] == 6
    events = play_turns(game, [(-1, 0, 0, None)])
    assert FigureReturned(0, "follower", 1, 0) in events
    assert game.supply[0]["follower"] == 7
    assert list(game.figures()) == []
    play_turns(game, [(2, 0, 0, 4)])
    assert game.supply[0]["follower"] == 6


def test_a_follower_placed_on_the_feature_it_completes_scores_and_returns_the_same_turn() -> None:
    # "Il est possible de placer un partisan sur une carte, de recevoir des points et de
    # récupérer le partisan dans le même tour."
    game = new_game("DWWU")
    play_turns(game, [(1, 0, 0, None)])
    events = play_turns(game, [(-1, 0, 0, 4)])
    assert game.scores == [0, 3]
    assert FigureReturned(1, "follower", -1, 0) in events
    assert game.supply[1]["follower"] == 7


def test_farmers_stay_on_the_board_until_the_end() -> None:
    # A's farmer on the field north of the road (W east of D); the road then closes and scores,
    # the farmer stays; at the end it is still there and never returned.
    game = new_game("DWWU")
    events = play_turns(game, [(1, 0, 0, 0), (-1, 0, 0, None)])
    assert not any(isinstance(e, FigureReturned) for e in events)
    assert game.supply[0]["follower"] == 6
    play_turns(game, [(2, 0, 0, None)])
    assert game.finished
    assert followers_in_play(game) == [1, 0]


def test_a_feature_already_scored_does_not_score_again() -> None:
    game = scenario("DEU", [(0, -1, 180, 6), (1, 0, 0, None)])
    assert game.scores == [2, 0]


# -- final scoring ----------------------------------------------------------------------------

# Green (A) and Black (B): "Vert reçoit 7 points pour la grande ville inachevée. Noir ne reçoit
# rien puisque Vert possède plus de chevaliers que lui dans la ville."
# Q turned 180 north of D (city S, E, W + pennant, Green's knight); K east of D (Black's knight
# in its city); J west of D (Green's second knight); R turned 270 at (1, -1) joins K's city and
# stays open to the north; N turned 180 at (-1, -1) joins J's city.
# City: D, Q, K, J, R, N = 6 tiles + 1 pennant, open: Green 2 knights > Black 1.
GREEN_BLACK: list[Turn] = [
    (0, -1, 180, 3),
    (1, 0, 0, 1),
    (-1, 0, 0, 1),
    (1, -1, 270, None),
    (-1, -1, 180, None),
]


def test_an_incomplete_city_scores_1_per_tile_and_1_per_pennant() -> None:
    game = scenario("DQKJRN", GREEN_BLACK, incomplete="standard")
    assert game.finished
    assert game.scores == [7, 0]
    (final,) = [e for e in scored(game) if e.final]
    assert (final.feature, final.tiles, final.pennants, final.complete) == ("city", 6, 1, False)


def test_incomplete_half_scores_only_the_pennants_of_a_city() -> None:
    game = scenario("DQKJRN", GREEN_BLACK, incomplete="half")
    assert game.scores == [1, 0]


def test_an_incomplete_two_tile_city_scores_2_at_the_end() -> None:
    # "Bleu reçoit 2 points pour la ville inachevée": N turned 180 north of D, left open.
    assert scenario("DN", [(0, -1, 180, 3)]).scores == [2, 0]
    assert scenario("DN", [(0, -1, 180, 3)], incomplete="half").scores == [0, 0]


def test_an_incomplete_road_scores_1_per_tile() -> None:
    # U east of D with A's thief, U west of D: a 3-tile road open at both ends.
    turns: list[Turn] = [(1, 0, 0, 4), (-1, 0, 0, None)]
    assert scenario("DUU", turns).scores == [3, 0]


def test_incomplete_half_halves_roads_rounding_down() -> None:
    turns: list[Turn] = [(1, 0, 0, 4), (-1, 0, 0, None)]
    assert scenario("DUU", turns, incomplete="half").scores == [1, 0]  # 3 // 2
    assert scenario("DUUU", [*turns, (2, 0, 0, None)], incomplete="half").scores == [2, 0]


def test_incomplete_half_halves_cloisters_rounding_down() -> None:
    assert scenario("DBVV", CLOISTER[:3], players=1, incomplete="half").scores == [2]  # 4 // 2
    assert scenario("DB", [(0, 1, 0, "C")], incomplete="half").scores == [1, 0]  # 2 // 2


def test_complete_features_are_not_halved() -> None:
    assert scenario("DWW", ROAD_3, incomplete="half").scores == [3, 0]
    assert scenario("DNNK", CITY_4, incomplete="half").scores == [8, 0]


def test_a_feature_without_followers_scores_nobody_at_the_end() -> None:
    game = scenario("DUU", [(1, 0, 0, None), (-1, 0, 0, None)])
    assert game.scores == [0, 0]
    assert game.winners == (0, 1)


# -- farmers ----------------------------------------------------------------------------------

# City X = D + N (turned 180, north of D) + E (turned 270, at (1, -1)): complete, three tiles.
# Three separate fields touch it: N's field (A's farmer), E's field (B's farmer), and D's strip
# north of the road, extended by U west of D (A's second farmer).
FARMS: list[Turn] = [(0, -1, 180, 0), (1, -1, 270, 1), (-1, 0, 0, 0)]


def test_classic_farmers_the_city_goes_to_the_majority_of_all_farmers_around_it() -> None:
    # Around X: A has 2 farmers, B has 1: A scores 3 for X, B nothing.
    game = scenario("DNEU", FARMS, farmers="classic")
    assert game.scores == [3, 0]
    assert game.breakdown == [{"field": 3}, {}]


def test_classic4_farmers_score_4_per_city() -> None:
    assert scenario("DNEU", FARMS, farmers="classic4").scores == [4, 0]


def test_modern_farmers_each_field_scores_3_per_completed_city() -> None:
    # Each of the three fields touches X once: A 3 + 3, B 3.
    assert scenario("DNEU", FARMS, farmers="modern").scores == [6, 3]


def test_classic_is_the_default_farmer_rule() -> None:
    assert scenario("DNEU", FARMS).scores == [3, 0]


# Blue (A): E turned 180 closes D's city, farmer on E's field. Red (B): U east of D, farmer
# north of its road (joins D's strip along the city). Yellow (C): B south of D, farmer in the
# field south of the road, which touches no city.
BLUE_RED_YELLOW: list[Turn] = [(0, -1, 180, 0), (1, 0, 0, 0), (0, 1, 0, 0)]


def test_french_example_blue_and_red_tie_for_the_city_yellow_is_cut_off() -> None:
    # base-game-classic.fr.txt: "Ils sont à égalité : chacun reçoit 4 points. Jaune ne reçoit
    # rien car sa prairie ... n'est pas en relation avec la ville."
    game = scenario("DEUB", BLUE_RED_YELLOW, players=3, farmers="classic4")
    assert game.scores == [4, 4, 0]


def test_french_example_yellow_joins_the_fields_and_scores_too() -> None:
    # "La carte placée dans l'angle ... met Jaune en connexion avec la prairie qui entoure la
    # ville complète. Jaune reçoit aussi 4 points." A turned 270 west of D: its road ends at
    # its cloister, so its field joins D's strip north of the road with the field south of it.
    turns = [*BLUE_RED_YELLOW, (-1, 0, 270, None)]
    game = scenario("DEUBA", turns, players=3, farmers="classic4")
    assert game.scores == [4, 4, 4]
    assert game.winners == (0, 1, 2)


def test_a_tie_among_farmers_pays_3_each_under_classic() -> None:
    game = scenario("DEUB", BLUE_RED_YELLOW, players=3, farmers="classic")
    assert game.scores == [3, 3, 0]


# Blue alone: E turned 180 closes D's city, farmer on its field; E north of it opens a second
# city on the same field; E turned 180 closes that one.
TWO_CITIES: list[Turn] = [(0, -1, 180, 0), (0, -2, 0, None), (0, -3, 180, None)]


@pytest.mark.parametrize("mode", ["classic", "modern"])
def test_a_farmer_scores_for_every_completed_city_its_field_touches(mode: str) -> None:
    # Rulebook: "Un paysan peut approvisionner plusieurs villes ... Bleu reçoit 6 points".
    assert scenario("DEEE", TWO_CITIES, players=1, farmers=mode).scores == [6]


def test_a_farmer_scores_nothing_for_an_incomplete_city() -> None:
    # "Bleu reçoit 3 points pour la ville achevée. Il ne reçoit pas de points pour la ville
    # inachevée."
    assert scenario("DEE", TWO_CITIES[:2], players=1).scores == [3]


def test_a_farmer_far_from_the_city_still_supplies_it() -> None:
    # "Peu importe la distance": U east of D, U further east, farmer on the far one's north field.
    game = scenario("DEUU", [(0, -1, 180, None), (1, 0, 0, None), (2, 0, 0, 0)], players=1)
    assert game.scores == [3]


def test_modern_farmers_majority_per_field() -> None:
    # Blue/Red/Yellow joined (one field holds Red and Yellow, Blue's field is separate):
    # modern: Blue's field 3; the joined field is tied 1-1 between Red and Yellow: 3 each.
    turns = [*BLUE_RED_YELLOW, (-1, 0, 270, None)]
    game = scenario("DEUBA", turns, players=3, farmers="modern")
    assert game.scores == [3, 3, 3]


def test_farmers_score_after_the_other_final_scoring() -> None:
    game = scenario("DNEU", FARMS, farmers="modern")
    final = [e for e in scored(game) if e.final]
    assert [e.feature for e in final] == ["field", "field", "field"]
    assert game.breakdown == [{"field": 6}, {"field": 3}]


@pytest.mark.parametrize("mode", ["classic", "modern"])
def test_a_field_touching_one_city_along_two_tiles_counts_it_once(mode: str) -> None:
    # E turned 180 closes D's city (farmer on E's field); U east of D extends D's strip along the
    # city; B at (1, -1) joins E's field with that strip: one field touching the one city on two
    # tiles. It is still one city: 3 points, not 6.
    turns: list[Turn] = [(0, -1, 180, 0), (1, 0, 0, None), (1, -1, 0, None)]
    assert scenario("DEUB", turns, players=1, farmers=mode).scores == [3]
