"""Skip and forfeit: what the play-by-post scheduler records when a player runs out of time."""

from __future__ import annotations

import pytest

from engine import (
    Forfeit,
    Game,
    GameError,
    Pass,
    Phase,
    PlaceFigure,
    PlaceTile,
    Setup,
    Skip,
    action_from_json,
)
from engine.core.board import Figure
from engine.core.events import PlayerLeft, TurnSkipped


def game_of(draw: str, players: int = 2, **options: object) -> Game:
    names = tuple(f"P{i}" for i in range(players))
    return Game(Setup(players=names, draw=tuple(draw), options=dict(options)))


def test_a_skipped_turn_puts_the_tile_under_the_stack_and_moves_on() -> None:
    game = game_of("DEUV")
    assert game.decision.tile == "E"
    events = game.play(Skip())
    assert TurnSkipped(0, "E") in events
    assert game.decision.player == 1 and game.decision.tile == "U"
    assert game.stack == ["E", "V"]  # E went under the stack; V is drawn next
    assert game.turn == 1


def test_skip_is_refused_once_the_tile_is_down() -> None:
    game = game_of("DEUV")
    game.play(PlaceTile(0, -1, 180))
    assert game.phase is Phase.FIGURE
    with pytest.raises(GameError, match="before its tile is placed"):
        game.play(Skip())


def test_a_skip_in_the_hand_variant_keeps_the_hand() -> None:
    game = game_of("DEUVUUV", hand=True)
    hand = list(game.hands[0])
    game.play(Skip())
    assert game.hands[0] == hand
    assert game.decision.player == 1


def test_a_forfeit_in_turn_passes_the_seen_tile_to_the_next_player() -> None:
    game = game_of("DEUV", players=3)
    events = game.play(Forfeit(0))
    assert PlayerLeft(0) in events
    assert game.decision.player == 1 and game.decision.tile == "E"


def test_a_forfeit_during_the_figure_step_ends_that_turn_without_a_figure() -> None:
    game = game_of("DEUV", players=3)
    game.play(PlaceTile(0, -1, 180))
    game.play(Forfeit(0))
    assert game.decision.player == 1 and game.decision.phase is Phase.TILE
    assert not list(game.figures())


def test_seats_that_left_are_skipped() -> None:
    game = game_of("DEUVU", players=3)
    game.play(Forfeit(1))
    assert game.decision.player == 0  # not P1's turn: nothing else changes yet
    game.play(PlaceTile(0, -1, 180))
    game.play(Pass())
    assert game.decision.player == 2


def test_a_player_who_left_scores_nothing_and_does_not_block_the_majority() -> None:
    game = game_of("DUU", players=2)
    game.play(PlaceTile(1, 0, 0))
    game.play(PlaceFigure("follower", 1, 0, 4))  # P0's thief on the road D-U
    road = game.board.root_of((1, 0), game.board.tiles[(1, 0)].oriented.feature_at(4))
    # Two more thieves joined this road in earlier turns of a longer game: one P0, one P1.
    game.board.figures[road] += [
        Figure(0, "follower", (0, 0), 1, 4),
        Figure(1, "follower", (0, 0), 1, 10),
    ]
    game.play(Forfeit(0))
    game.play(PlaceTile(-1, 0, 0))  # P1 extends the road to 3 tiles, then the stack is empty
    game.play(Pass())
    assert game.finished
    assert game.scores == [0, 3]  # P0's 2-to-1 majority counts for nothing; P1 scores the road
    assert game.winners == (1,)


def test_when_everybody_has_left_the_game_ends() -> None:
    game = game_of("DEUV", players=2)
    game.play(Forfeit(1))
    game.play(Forfeit(0))
    assert game.finished


def test_forfeit_refusals_are_readable() -> None:
    game = game_of("DEUV", players=2)
    with pytest.raises(GameError, match="no seat 5"):
        game.play(Forfeit(5))
    game.play(Forfeit(1))
    with pytest.raises(GameError, match="already left"):
        game.play(Forfeit(1))


def test_skip_and_forfeit_round_trip_through_records() -> None:
    game = game_of("DEUVUV", players=3)
    game.play(Skip())  # P0 skips E; P1 draws U
    game.play(Forfeit(2))
    game.play(PlaceTile(1, 0, 0))
    record = game.record()
    assert {"type": "skip"} in record["actions"]
    assert {"type": "forfeit", "player": 2} in record["actions"]
    assert Game.from_record(record).snapshot() == game.snapshot()
    assert action_from_json({"type": "forfeit", "player": 1}) == Forfeit(1)
