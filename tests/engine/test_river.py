"""The River (RULES.md section 5): the spring, river tiles first, the lake, the turning rule.

Board sketches use x east, y south. The spring R01 lies at (0, 0) with its river flowing east, so
the river's open end starts at (1, 0). R07 is a straight river, R10 a bend (west to south).
"""

from __future__ import annotations

from collections import Counter

import pytest
from bigbox_helpers import NAMES, RIVER, new_game, put, scores_of

from engine import Game, IllegalActionError, Pass, PlaceFigure, PlaceTile, Setup, TileDiscarded
from engine.core.tiles import load_set

BLUE, RED = 0, 1
RIVER_TILES = {k.name for k in load_set("river")}
FLOWING = RIVER_TILES - {"R01", "R02"}


def spots(game: Game) -> list[tuple[int, int, int]]:
    """The legal placements as sorted (x, y, rotation)."""
    return sorted((p.x, p.y, p.rotation) for p in game.legal_placements())


def draw_order(game: Game) -> list[str]:
    """The tiles in the order they will be drawn, the one drawn now first."""
    return [game.tile or "", *reversed(game.stack)]


@pytest.mark.parametrize("seed", range(8))
def test_spring_first_then_the_ten_river_tiles_then_the_lake_then_the_rest(seed: int) -> None:
    game = Game(Setup(players=NAMES[:3], seed=seed, expansions=RIVER))
    assert game.board.tiles[(0, 0)].oriented.kind == "R01"
    order = draw_order(game)
    assert Counter(order[:10]) == Counter({name: 1 for name in FLOWING} | {"R07": 2, "R10": 2})
    assert order[10] == "R02"
    rest = Counter(order[11:])
    assert not rest.keys() & RIVER_TILES
    assert sum(rest.values()) == 72 and rest["D"] == 4  # the base start tile is in the stack


def test_lists_of_tiles_put_the_river_first_from_the_spring_to_the_lake() -> None:
    river = ["R01", "R03", "R04", "R05", "R06", "R07", "R08", "R09", "R10", "R02"]
    for expansions in (RIVER, ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")):
        game = Game(Setup(players=NAMES[:2], seed=1, expansions=expansions))
        order = game.kinds_in_play_order()
        assert order[:10] == river
        assert sorted(order) == sorted(game.kinds)  # every kind once
        assert order[10:] == [name for name in game.kinds if name not in RIVER_TILES]
    plain = Game(Setup(players=NAMES[:2], seed=1, expansions=("inns_cathedrals",)))
    assert plain.kinds_in_play_order() == list(plain.kinds)


def test_the_river_tiles_come_in_a_random_order_and_the_start_tile_anywhere() -> None:
    orders = set()
    start_places = set()
    for seed in range(12):
        order = draw_order(Game(Setup(players=NAMES[:2], seed=seed, expansions=RIVER)))
        orders.add(tuple(order[:10]))
        start_places.add(tuple(i for i, name in enumerate(order) if name == "D"))
    assert len(orders) > 6 and len(start_places) > 6


def test_the_first_river_tile_can_only_continue_the_river_at_its_open_end() -> None:
    game = new_game("R01 R07 R10", expansions=RIVER)
    assert list(game.legal_placements()) == [PlaceTile(1, 0, 0)]
    assert len(game.legal_placements()) == 1
    assert PlaceTile(0, 1, 0) not in game.legal_placements()
    with pytest.raises(IllegalActionError, match="continue the river") as refused:
        game.play(PlaceTile(0, 1, 0))  # fits the spring's field edge, but leaves the river
    assert refused.value.code == "river_elsewhere"
    put(game, 1, 0, 0)
    # The bend goes on at (2, 0), turning either way.
    assert spots(game) == [(2, 0, 0), (2, 0, 90)]


def test_no_two_turns_in_a_row_the_same_way() -> None:
    game = new_game("R01 R10 R10 R10", expansions=RIVER)
    put(game, 1, 0, 0)  # turns right: the river flows south into (1, 1)
    # Right again would be a U-turn; left (east) is the only way on.
    assert list(game.legal_placements()) == [PlaceTile(1, 1, 180)]
    with pytest.raises(IllegalActionError, match="U-turn") as refused:
        game.play(PlaceTile(1, 1, 90))
    assert refused.value.code == "river_u_turn"
    put(game, 1, 1, 180)  # left: the river flows east into (2, 1)
    assert spots(game) == [(2, 1, 0)]  # right is fine again, left would be a U-turn


def test_a_straight_tile_between_two_turns_allows_the_same_turn_again() -> None:
    game = new_game("R01 R10 R07 R10", expansions=RIVER)
    put(game, 1, 0, 0)  # right: south
    put(game, 1, 1, 90)  # straight on south
    assert spots(game) == [(1, 2, 90), (1, 2, 180)]


def test_the_river_never_runs_back_into_itself() -> None:
    # Right, straight, right, straight, right, straight: the spiral would reach the spring.
    game = new_game("R01 R10 R07 R10 R07 R10 R07 R10", expansions=RIVER)
    for x, y, rotation in [(1, 0, 0), (1, 1, 90), (1, 2, 90), (0, 2, 0), (-1, 2, 180)]:
        put(game, x, y, rotation)
    put(game, -1, 1, 90)  # straight on north, into (-1, 0), west of the spring
    # At (-1, 0) a right turn would flow east into the spring's side: only left is possible.
    assert spots(game) == [(-1, 0, 0)]


def test_an_unplaceable_river_tile_is_discarded_and_the_next_one_drawn() -> None:
    game = new_game("R01 R10 U U R10 R07", expansions=RIVER)
    put(game, 1, 0, 0)  # Blue: the river turns right, flowing south into (1, 1)
    put(game, 2, 0, 90)  # Red: U beside the bend
    events = put(game, 2, 1, 90)  # Blue: U east of (1, 1): a left turn there is blocked
    # Red's R10 could only turn right again (a U-turn): it is discarded, R07 drawn instead.
    assert TileDiscarded(RED, "R10") in events
    assert game.discarded == ["R10"]
    assert (game.decision.player, game.tile) == (RED, "R07")
    assert list(game.legal_placements()) == [PlaceTile(1, 1, 90)]


def test_the_lake_closes_the_river_and_later_river_tiles_have_no_place() -> None:
    game = new_game("R01 R07 R02 R07 U", expansions=RIVER)
    put(game, 1, 0, 0)
    assert list(game.legal_placements()) == [PlaceTile(2, 0, 0)]  # the lake, river west
    events = put(game, 2, 0, 0)
    assert TileDiscarded(BLUE, "R07") in events  # nowhere to continue: the river has ended
    assert game.tile == "U"
    river = game.board.root_of((0, 0), 0)
    assert game.board.is_complete(river) and game.board.ftiles[river] == {(0, 0), (1, 0), (2, 0)}


def test_nobody_stands_on_the_river_and_it_never_scores() -> None:
    game = new_game("R01 R07 R02", expansions=RIVER)
    game.play(PlaceTile(1, 0, 0))
    assert {f.at for f in game.legal_figures()} == {0, 5}  # the two fields only
    with pytest.raises(IllegalActionError, match="no figure can stand on a river"):
        game.play(PlaceFigure("follower", 1, 0, 4))
    game.play(Pass())
    events = put(game, 2, 0, 0)  # the lake completes the river
    assert game.finished and scores_of(events) == []


def test_the_river_splits_the_fields_on_its_two_banks() -> None:
    # R06: the river flows on east under a north-south road; east of it, R07's banks stay apart
    # (they meet only round the spring in the west, and round the lake once it comes).
    game = new_game("R01 R06 R07 R02", expansions=RIVER)
    put(game, 1, 0, 90)
    put(game, 2, 0, 0, "follower", 0)  # Red: farmer on the north bank
    north, south = (
        game.board.root_of((2, 0), game.board.tiles[(2, 0)].oriented.feature_at(p)) for p in (0, 6)
    )
    assert north != south
    assert game.strengths(north) == [0, 1] and game.strengths(south) == [0, 0]
    put(game, 3, 0, 0)  # the lake: its field joins the two banks round it
    assert game.board.find(north) == game.board.find(south)


def test_roads_cities_and_cloisters_on_river_tiles_score_normally() -> None:
    game = new_game("R01 R05 A", expansions=RIVER)
    put(game, 1, 0, 0, "follower", 7)  # Blue: thief on R05's road south of the river
    (road,) = scores_of(put(game, 1, 1, 180), "road")  # A's road ends at its cloister
    assert (road.tiles, road.points) == (2, {BLUE: 2})
