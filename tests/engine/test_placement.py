"""Placing tiles and figures: RULES.md "Common core" and section 1, with the rulebook's words.

Board sketches use x east, y south; the start tile D lies at (0, 0): city north, road east-west,
field south.
"""

from __future__ import annotations

import pytest
from support import brute_force_placements, new_game, play_turns, scenario

from engine import (
    FigurePlaced,
    IllegalActionError,
    Pass,
    Phase,
    PlaceFigure,
    PlaceTile,
    TileDiscarded,
    WrongPhaseError,
)

# -- tiles ------------------------------------------------------------------------------------


def test_the_start_tile_lies_at_the_origin_unrotated() -> None:
    game = new_game("DE")
    start = game.board.tiles[(0, 0)]
    assert (start.oriented.kind, start.oriented.rotation) == ("D", 0)
    assert game.decision.tile == "E"


def test_a_tile_must_share_an_edge_with_a_placed_tile() -> None:
    game = new_game("DE")
    with pytest.raises(IllegalActionError, match="does not touch"):
        game.play(PlaceTile(0, -2, 180))


def test_touching_only_by_a_corner_is_not_allowed() -> None:
    # "Il est interdit de placer une carte qui ne toucherait une autre carte que par un coin."
    game = new_game("DB")
    assert PlaceTile(1, 1, 0) not in game.legal_placements()
    with pytest.raises(IllegalActionError, match="does not touch"):
        game.play(PlaceTile(1, 1, 0))


def test_a_square_that_holds_a_tile_cannot_take_another() -> None:
    game = new_game("DC")
    with pytest.raises(IllegalActionError, match="already holds a tile"):
        game.play(PlaceTile(0, 0, 0))


def test_city_must_meet_city() -> None:
    # E unrotated shows a field to the south: it cannot sit on D's city edge.
    game = new_game("DE")
    with pytest.raises(
        IllegalActionError, match="S edge is field but the neighbour there shows city"
    ):
        game.play(PlaceTile(0, -1, 0))
    game.play(PlaceTile(0, -1, 180))  # turned, its city faces D's city
    assert game.board.tiles[(0, -1)].oriented.rotation == 180


def test_road_must_meet_road() -> None:
    # East of D lies a road end; B (all field) cannot continue it.
    game = new_game("DB")
    with pytest.raises(IllegalActionError, match="road"):
        game.play(PlaceTile(1, 0, 0))


def test_every_shared_edge_must_match_not_just_one() -> None:
    # The square (1, -1) has E's field to its west (E at (0, -1) closes D's city) and K's city
    # to its south (K at (1, 0) continues D's road). A tile there must show field west AND
    # city south.
    game = new_game("DEKE", players=("A",))
    play_turns(game, [(0, -1, 180, None), (1, 0, 0, None)])
    # E turned 180 shows city south, field west: it fits both.
    assert PlaceTile(1, -1, 180) in game.legal_placements()
    # E unrotated: its field west matches, but its field south faces K's city.
    assert PlaceTile(1, -1, 0) not in game.legal_placements()
    with pytest.raises(
        IllegalActionError, match="S edge is field but the neighbour there shows city"
    ):
        game.play(PlaceTile(1, -1, 0))


def test_legal_placements_list_symmetric_rotations_once() -> None:
    # U (road straight through) looks the same turned 0 or 180: only 0 and 90 are listed.
    game = new_game("DU")
    listed = {(a.x, a.y, a.rotation) for a in game.legal_placements()}
    assert (1, 0, 0) in listed
    assert (1, 0, 180) not in listed
    assert len(game.legal_placements()) == len(listed)


def test_legal_placements_match_a_brute_force_search_from_the_start() -> None:
    for kind in "ABCDEFGHIJKLMNOPQRSTUVWX":
        game = new_game("D" + kind)
        listed = {(a.x, a.y, a.rotation) for a in game.legal_placements()}
        assert listed == brute_force_placements(game, kind), kind
        assert len(game.legal_placements()) == len(listed)


# -- discarding -------------------------------------------------------------------------------


def test_an_unplaceable_tile_is_discarded_and_the_same_player_draws_again() -> None:
    # "si le cas se présente, il doit mettre cette carte de paysage de côté et piocher une
    # nouvelle carte". Once E closes D's city no city edge is open, so C fits nowhere.
    game = new_game("DECB")
    game.play(PlaceTile(0, -1, 180))
    events = game.play(Pass())
    assert TileDiscarded(player=1, kind="C") in events
    assert game.discarded == ["C"]
    assert game.decision.player == 1
    assert game.decision.tile == "B"


def test_a_discarded_last_tile_ends_the_game() -> None:
    game = new_game("DEC")
    game.play(PlaceTile(0, -1, 180))
    game.play(Pass())
    assert game.finished
    assert game.discarded == ["C"]
    assert len(game.board.tiles) + len(game.discarded) == 3


# -- figures ----------------------------------------------------------------------------------


def test_a_figure_goes_only_on_the_tile_just_placed() -> None:
    game = new_game("DU")
    game.play(PlaceTile(1, 0, 0))
    with pytest.raises(IllegalActionError, match=r"tile you just placed, at \(1, 0\)"):
        game.play(PlaceFigure("follower", 0, 0, 4))
    assert all(a.x == 1 and a.y == 0 for a in game.legal_figures())


def test_one_figure_per_turn() -> None:
    game = new_game("DUU")
    game.play(PlaceTile(1, 0, 0))
    game.play(PlaceFigure("follower", 1, 0, 4))
    with pytest.raises(WrongPhaseError):
        game.play(PlaceFigure("follower", 1, 0, 0))
    assert game.supply[0]["follower"] == 6


def test_the_role_follows_from_the_feature() -> None:
    # A (cloister with a road) south of D: thief on the road, monk in the cloister, farmer.
    roles = {}
    for at in (7, "C", 0):
        game = new_game("DA")
        game.play(PlaceTile(0, 1, 0))
        (placed,) = [
            e for e in game.play(PlaceFigure("follower", 0, 1, at)) if isinstance(e, FigurePlaced)
        ]
        roles[at] = placed.role
    assert roles == {7: "thief", "C": "monk", 0: "farmer"}
    game = new_game("DE")
    game.play(PlaceTile(0, -1, 180))
    (placed,) = [
        e for e in game.play(PlaceFigure("follower", 0, -1, 7)) if isinstance(e, FigurePlaced)
    ]
    assert placed.role == "knight"


def test_a_figure_cannot_join_a_feature_that_holds_one_however_far() -> None:
    # "...s'il n'y a pas encore d'autres partisans ... indépendamment de la distance".
    # A's thief stands on the road at (1, 0); B extends the same road at (-1, 0), two tiles away.
    game = new_game("DUU")
    play_turns(game, [(1, 0, 0, 4)])
    game.play(PlaceTile(-1, 0, 0))
    spots = {a.at for a in game.legal_figures()}
    assert 4 not in spots and 10 not in spots
    assert 0 in spots  # the field north of the road is free
    with pytest.raises(IllegalActionError, match="already holds a figure"):
        game.play(PlaceFigure("follower", -1, 0, 10))
    game.play(PlaceFigure("follower", -1, 0, 0))


def test_own_figure_also_blocks() -> None:
    # Red may not put a farmer on a field where Red already has one.
    game = new_game("DUU", players=("Red",))
    play_turns(game, [(1, 0, 0, 0)])
    game.play(PlaceTile(-1, 0, 0))
    assert 0 not in {a.at for a in game.legal_figures()}


def test_features_that_later_join_hold_several_figures() -> None:
    # A's knight in the city at (0, -1), B's knight in a separate city at (1, 0); R at (1, -1)
    # joins both cities (still open to the north): the joined city holds both knights.
    game = scenario("DMKRU", [(0, -1, 180, 3), (1, 0, 0, 1), (1, -1, 270, None)])
    knights = list(game.figures())
    assert sorted(f.player for f in knights) == [0, 1]
    assert len({game.board.root_of(f.pos, f.local) for f in knights}) == 1


def test_seven_followers_and_then_no_more() -> None:
    # A solo player places a monk on each of seven cloisters in a column; the eighth cloister
    # gets no figure step at all.
    turns = [(0, y, 0, "C") for y in range(1, 8)]
    game = scenario("D" + "B" * 9, turns, players=1)
    assert game.supply[0]["follower"] == 0
    game.play(PlaceTile(0, 8, 0))
    assert game.decision.phase is Phase.TILE
    assert game.legal_figures() == []
    assert len(list(game.figures())) == 7
    # The record shows no pass for that turn: the step never happened.
    assert game.record()["actions"][-1]["type"] == "place_tile"


def test_pass_declines_the_figure() -> None:
    game = new_game("DUU")
    game.play(PlaceTile(1, 0, 0))
    game.play(Pass())
    assert game.decision.player == 1
    assert game.supply[0]["follower"] == 7
    assert game.record()["actions"][-1] == {"type": "pass"}


def test_a_cloister_takes_a_monk_at_its_centre() -> None:
    game = new_game("DB")
    game.play(PlaceTile(0, 1, 0))
    assert {str(a.at) for a in game.legal_figures()} == {"C", "0"}
    game.play(PlaceFigure("follower", 0, 1, "C"))
    (monk,) = game.figures()
    assert (monk.pos, monk.at) == ((0, 1), "C")
