"""Traders & Builders' builder (RULES.md section 5): where it goes, the second tile it gives,
its limits (never a third tile, none without a tile left, none for an abbey), its return.

Board sketches use x east, y south; D, the start tile, lies at (0, 0) with its road west-east.
Blue (0) places first, then Red (1).
"""

from __future__ import annotations

from typing import Any

import pytest
from am_helpers import phase_of, put, put_abbey, scores_of
from tb_helpers import BOTH, new_game

from engine import FigureReturned, Game, Pass, Phase, PlaceAbbey, PlaceFigure, PlaceTile
from engine.carcassonne.traders_builders import of as tb_of
from engine.core.events import Event, TurnStarted

BLUE, RED = 0, 1


def lay(game: Game, x: int, y: int, figure: str | None = None, at: Any = None) -> list[Event]:
    """Place the tile in play unturned (from the hand in the tactical variant), then a figure."""
    name = game.hands[game.current][0] if game.hand_mode else None
    events = game.play(PlaceTile(x, y, 0, name))
    if figure is not None:
        events += game.play(PlaceFigure(figure, x, y, at))
    elif phase_of(game) is Phase.FIGURE:
        events += game.play(Pass())
    return events


#   y=0    D  U  U  U  U ...   Blue's road east of D: thief on (1, 0), builder on (2, 0)
#   y=1    U  U                Red's harmless tiles


def road_with_builder(draw: str = "D " + "U " * 12, **options: Any) -> Game:
    game = new_game(draw, **options)
    lay(game, 1, 0, "follower", 4)  # Blue: thief
    lay(game, 0, 1)  # Red
    game.play(PlaceTile(2, 0, 0, "U" if game.hand_mode else None))
    assert [f for f in game.legal_figures() if f.figure == "builder"] == [
        PlaceFigure("builder", 2, 0, 4)
    ]
    game.play(PlaceFigure("builder", 2, 0, 4))  # Blue: placing it gives no tile yet
    assert (game.decision.player, tb_of(game).bonus_turn) == (RED, False)
    lay(game, 1, 1)  # Red
    return game


@pytest.mark.parametrize("hand", [False, True])
def test_extending_the_builders_road_gives_a_second_tile_as_a_new_turn(hand: bool) -> None:
    game = road_with_builder(hand=hand)
    turn = game.decision.turn
    assert game.decision.player == BLUE
    events = lay(game, 3, 0)  # Blue extends the road holding the builder
    assert (game.decision.player, game.decision.turn) == (BLUE, turn + 1)
    assert TurnStarted(BLUE, turn + 1) in events
    assert tb_of(game).bonus_turn and game.decision.phase is Phase.TILE
    if hand:
        assert len(game.hands[BLUE]) == 3
    events = lay(game, 4, 0)  # the second tile extends it again: never a third
    assert (game.decision.player, game.decision.turn) == (RED, turn + 2)
    assert not tb_of(game).bonus_turn
    assert TurnStarted(RED, turn + 2) in events
    lay(game, 2, 1)  # Red
    lay(game, 5, 0)  # Blue, a new ordinary turn: the builder works again
    assert (game.decision.player, tb_of(game).bonus_turn) == (BLUE, True)


def test_another_players_builder_on_the_road_gives_nothing() -> None:
    game = road_with_builder()
    lay(game, 3, 0)  # Blue's second tile
    lay(game, 4, 0)
    assert game.decision.player == RED
    lay(game, 5, 0)  # Red extends Blue's builder's road: nothing for Red
    assert (game.decision.player, tb_of(game).bonus_turn) == (BLUE, False)


def test_no_second_tile_when_the_stack_is_empty() -> None:
    game = road_with_builder("D U U U U U")
    events = lay(game, 3, 0)  # the last tile extends the builder's road
    assert game.finished
    assert not any(isinstance(e, TurnStarted) for e in events)


#   y=0    W  D  U  U  W      Red's W ends the road west; Blue's W at (3, 0) completes it


def test_the_tile_that_completes_the_builders_road_still_gives_the_second_tile() -> None:
    game = new_game("D U W U U W E E")
    lay(game, 1, 0, "follower", 4)  # Blue: thief
    lay(game, -1, 0)  # Red: W ends the road west
    lay(game, 2, 0, "builder", 4)  # Blue: builder
    lay(game, 0, 1)  # Red
    events = lay(game, 3, 0)  # Blue: W ends the road east
    (road,) = scores_of(events, "road")
    assert (road.tiles, road.points) == (5, {BLUE: 5})
    assert FigureReturned(BLUE, "builder", 2, 0) in events  # it never scores, it comes back
    assert game.supply[BLUE]["builder"] == 1 and game.breakdown[BLUE] == {"road": 5}
    assert (game.decision.player, tb_of(game).bonus_turn) == (BLUE, True)


#   y=-1   N  F  E     Blue's figure in N's city; the builder on F; E closes the city
#   y=0    D  U  U


@pytest.mark.parametrize("figure", ["follower", "mayor", "wagon"])
def test_the_builder_joins_a_city_holding_any_figure_of_its_owner(figure: str) -> None:
    game = new_game("D N U F U E U U", expansions=BOTH)
    put(game, 0, -1, 180, figure, 3)  # Blue: N, city south and east
    game.play(PlaceTile(1, 0, 0))  # Red: U, on D's road where nobody stands
    assert "builder" not in {f.figure for f in game.legal_figures()}
    game.play(Pass())
    game.play(PlaceTile(1, -1, 0))  # Blue: F extends the city
    assert [f for f in game.legal_figures() if f.figure == "builder"] == [
        PlaceFigure("builder", 1, -1, 3)
    ]
    game.play(PlaceFigure("builder", 1, -1, 3))
    put(game, 2, 0, 0)  # Red
    game.play(PlaceTile(2, -1, 270))  # Blue: E completes the city
    assert "builder" not in {f.figure for f in game.legal_figures()}  # none on a finished city
    events = game.play(Pass())
    (city,) = scores_of(events, "city")
    assert city.tiles == 4  # D, N, F, E
    assert game.supply[BLUE]["builder"] == 1 and game.supply[BLUE][figure] == (
        7 if figure == "follower" else 1
    )
    assert (game.decision.player, tb_of(game).bonus_turn) == (BLUE, True)


def test_the_builder_never_counts_for_the_majority() -> None:
    game = new_game("D N U F U")
    put(game, 0, -1, 180, "follower", 3)  # Blue: knight
    put(game, 1, 0, 0)
    put(game, 1, -1, 0, "builder", 3)  # Blue: builder in the same city
    city = game.board.root_of((0, -1), game.board.tiles[(0, -1)].oriented.feature_at(3))
    assert game.strengths(city) == [1, 0]
    put(game, 2, 0, 0)
    assert game.finished
    assert game.breakdown[BLUE] == {"city": 3 + 1}  # 3 tiles, F's pennant; once, for the knight


#            x=-2   x=-1   x=0    x=1    x=2
#   y=0             U      D      U
#   y=1      A      U      hole   U      W     Blue's thief on (1, 1), builder on W
#   y=2                    N      B


def test_an_abbey_closing_the_builders_road_is_no_tile_of_it_and_gives_no_second_tile() -> None:
    game = new_game("D U U A U U B W N E", expansions=BOTH)
    put(game, -1, 0, 0)
    put(game, -1, 1, 0)
    put(game, -2, 1, 270)  # A ends the west road
    put(game, 1, 0, 0)
    put(game, 1, 1, 0, "follower", 4)  # Blue: thief on the road east of the hole
    put(game, 1, 2, 0)
    put(game, 2, 1, 0, "builder", 10)  # Blue: W ends that road; the builder joins it
    put(game, 0, 2, 0)  # Red: N, the hole is closed on four sides
    assert PlaceAbbey(0, 1) in game.legal(PlaceAbbey)
    events = put_abbey(game, 0, 1)
    assert [(e.tiles, e.points) for e in scores_of(events, "road") if e.points] == [(2, {BLUE: 2})]
    assert FigureReturned(BLUE, "builder", 2, 1) in events
    assert (game.decision.player, game.decision.tile) == (RED, "E")
    assert not tb_of(game).bonus_turn
