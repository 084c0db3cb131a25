"""Turn flow: the tactical hand, the end of the game, winners, players, and refused actions."""

from __future__ import annotations

from typing import Any

import pytest
from support import new_game, phase_of, play_turns, scenario

from engine import (
    GameEnded,
    GameError,
    IllegalActionError,
    MalformedError,
    Pass,
    Phase,
    PlaceFigure,
    PlaceTile,
    Setup,
    WrongPhaseError,
)
from engine.core.game import Game

# -- the tactical hand ------------------------------------------------------------------------


def test_hand_each_player_holds_three_tiles_and_sees_only_their_own() -> None:
    # Hands are dealt in seat order from the stack: A gets U U U, B gets E E E.
    game = new_game("DUUUEEEB", hand=True)
    assert game.decision.hand == ("U", "U", "U")
    assert game.decision.tile is None
    game.play(PlaceTile(1, 0, 0, "U"))
    game.play(Pass())
    assert game.decision.player == 1
    assert game.decision.hand == ("E", "E", "E")


def test_hand_the_player_must_say_which_tile_they_play() -> None:
    game = new_game("DUUUEEEB", hand=True)
    with pytest.raises(IllegalActionError, match="say which tile of your hand"):
        game.play(PlaceTile(1, 0, 0))
    with pytest.raises(IllegalActionError, match="not in your hand"):
        game.play(PlaceTile(0, -1, 180, "E"))
    game.play(PlaceTile(1, 0, 0, "U"))
    assert game.record()["actions"][0] == {
        "type": "place_tile",
        "x": 1,
        "y": 0,
        "rotation": 0,
        "tile": "U",
    }


def test_hand_legal_placements_name_the_tile() -> None:
    game = new_game("DUEBEEEB", hand=True)
    kinds = {a.tile for a in game.legal_placements()}
    assert kinds == {"U", "E", "B"}
    assert PlaceTile(0, -1, 180, "E") in game.legal_placements()
    assert PlaceTile(0, -1, 180) not in game.legal_placements()


def test_hand_is_refilled_after_each_turn() -> None:
    game = new_game("DUUUEEEB", hand=True)
    game.play(PlaceTile(1, 0, 0, "U"))
    game.play(Pass())
    assert sorted(game.hands[0]) == ["B", "U", "U"]
    assert game.tiles_left == 0


def test_hand_game_ends_when_the_stack_and_the_hands_are_empty() -> None:
    game = new_game("DUUUEE", hand=True)
    played = 0
    while not game.finished:
        assert phase_of(game) is Phase.TILE
        game.play(next(iter(game.legal_placements())))
        played += 1
        if phase_of(game) is Phase.FIGURE:
            game.play(Pass())
    assert played == 5
    assert game.hands == [[], []]
    assert len(game.board.tiles) == 6


def test_hand_an_unplaceable_tile_in_hand_is_discarded_and_replaced() -> None:
    # A holds E, C, U; after B's E closes D's city no city edge is open, so A's C is discarded
    # at the start of A's next turn and replaced by the next tile of the stack (B).
    game = new_game("DECUEUUB", hand=True)
    game.play(PlaceTile(0, -1, 180, "E"))  # A
    game.play(Pass())
    game.play(PlaceTile(1, 0, 0, "U"))  # B
    game.play(Pass())
    assert game.decision.player == 0
    assert "C" in game.discarded
    assert "C" not in game.decision.hand
    assert "B" in game.decision.hand


# -- end of game and winners ------------------------------------------------------------------


def test_the_game_ends_after_the_turn_of_the_last_tile() -> None:
    game = new_game("DUU")
    play_turns(game, [(1, 0, 0, None)])
    assert not game.finished
    events = play_turns(game, [(-1, 0, 0, None)])
    assert game.finished
    assert game.decision.phase is Phase.OVER
    assert isinstance(events[-1], GameEnded)
    with pytest.raises(WrongPhaseError, match="game is over"):
        game.play(PlaceTile(2, 0, 0))


def test_the_last_tile_may_still_take_a_figure_before_final_scoring() -> None:
    # "Il introduit la carte dans le jeu et peut placer un dernier partisan."
    game = new_game("DB")
    game.play(PlaceTile(0, 1, 0))
    assert game.decision.phase is Phase.FIGURE
    game.play(PlaceFigure("follower", 0, 1, "C"))
    assert game.finished
    assert game.scores == [2, 0]


def test_the_highest_score_wins() -> None:
    game = scenario("DWW", [(1, 0, 0, 10), (-1, 0, 0, None)])
    assert game.winners == (0,)
    (ended,) = [e for e in replay_events(game) if isinstance(e, GameEnded)]
    assert ended == GameEnded(scores=(3, 0), winners=(0,))


def test_tied_highest_scores_share_the_win() -> None:
    # The tied city of the rulebook: 10 points each.
    game = scenario("DMKN", [(0, -1, 180, 3), (1, 0, 0, 1), (1, -1, 270, None)])
    assert game.winners == (0, 1)


def test_nobody_scoring_is_a_shared_win_of_all() -> None:
    game = scenario("DU", [(1, 0, 0, None)], players=3)
    assert game.winners == (0, 1, 2)


def replay_events(game: Game) -> list[Any]:
    fresh = Game(game.setup)
    events: list[Any] = []
    for action in game.actions:
        events += fresh.play(action)
    return events


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_one_to_six_players_take_turns_in_seat_order(players: int) -> None:
    names = tuple(f"P{i}" for i in range(players))
    game = Game(Setup(players=names, seed=3))
    seen = []
    while not game.finished:
        if game.decision.phase is Phase.TILE:
            seen.append(game.decision.player)
            game.play(next(iter(game.legal_placements())))
        else:
            game.play(Pass())
    assert seen[: 2 * players] == [i % players for i in range(2 * players)]
    assert len(game.board.tiles) + len(game.discarded) == 72
    assert len(game.scores) == players


@pytest.mark.parametrize("players", [0, 7])
def test_fewer_than_one_or_more_than_six_players_are_refused(players: int) -> None:
    with pytest.raises(MalformedError, match="1 to 6 players"):
        Setup(players=tuple(f"P{i}" for i in range(players)))


def test_a_shuffled_game_starts_with_d_and_uses_all_72_tiles() -> None:
    game = Game(Setup(players=("A", "B"), seed=11))
    assert game.board.tiles[(0, 0)].oriented.kind == "D"
    assert game.decision.tile is not None
    stack = [*game.stack, game.decision.tile]
    assert len(stack) == 71
    assert stack.count("D") == 3


def test_the_same_seed_gives_the_same_stack_and_another_seed_another() -> None:
    def order(seed: int) -> list[str]:
        return list(Game(Setup(players=("A", "B"), seed=seed)).stack)

    assert order(5) == order(5)
    assert order(5) != order(6)


# -- refused actions --------------------------------------------------------------------------


def refused(game: Game, action: Any) -> GameError:
    """Play an action that must be refused; check it left the game exactly as it was."""
    before = game.snapshot()
    record = game.record()
    with pytest.raises(GameError) as caught:
        game.play(action)
    assert isinstance(caught.value, ValueError)
    assert game.snapshot() == before
    assert game.record() == record
    message = str(caught.value)
    assert len(message.split()) >= 3, f"not a sentence a player can read: {message!r}"
    return caught.value


def test_refused_tile_placements_say_why_and_change_nothing() -> None:
    game = new_game("DEU")
    assert "does not touch" in str(refused(game, PlaceTile(4, 4, 0)))
    assert "already holds a tile" in str(refused(game, PlaceTile(0, 0, 0)))
    error = refused(game, PlaceTile(0, -1, 0))
    assert "N" in str(error) or "S edge" in str(error)
    assert "the tile to place is E" in str(refused(game, PlaceTile(0, -1, 180, "U")))
    assert isinstance(refused(game, Pass()), WrongPhaseError)
    assert isinstance(refused(game, PlaceFigure("follower", 0, 0, 0)), WrongPhaseError)


def test_refused_figures_say_why_and_change_nothing() -> None:
    game = new_game("DEU")
    game.play(PlaceTile(0, -1, 180))
    assert "just placed" in str(refused(game, PlaceFigure("follower", 0, 0, 0)))
    assert "mayor" in str(refused(game, PlaceFigure("mayor", 0, -1, 0)))
    assert "no feature" in str(refused(game, PlaceFigure("follower", 0, -1, "C")))
    assert isinstance(refused(game, PlaceTile(1, 0, 0)), WrongPhaseError)


def test_a_figure_with_no_follower_left_is_refused() -> None:
    game = scenario("D" + "B" * 9, [(0, y, 0, "C") for y in range(1, 8)], players=1)
    game.play(PlaceTile(0, 8, 0))
    error = refused(game, PlaceFigure("follower", 0, 8, "C"))
    assert isinstance(error, WrongPhaseError)


def test_actions_after_the_end_are_refused() -> None:
    game = scenario("DU", [(1, 0, 0, None)])
    assert "over" in str(refused(game, PlaceTile(2, 0, 0)))


def test_something_that_is_not_an_action_is_malformed() -> None:
    game = new_game("DU")
    assert isinstance(refused(game, "place a tile"), MalformedError)


@pytest.mark.parametrize("rotation", [225, 360])
def test_a_rotation_other_than_0_90_180_270_is_refused(rotation: int) -> None:
    game = new_game("DE")
    refused(game, PlaceTile(0, -1, rotation))


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"farmers": "sometimes"}, "option farmers must be one of"),
        ({"hand": "yes"}, "option hand must be one of"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_refused_with_a_message(options: dict[str, Any], words: str) -> None:
    with pytest.raises(MalformedError, match=words):
        Setup(players=("A", "B"), options=options)


def test_a_draw_with_an_unknown_tile_is_malformed() -> None:
    with pytest.raises(MalformedError, match="unknown tile kind 'Z'"):
        new_game("DZ")


def test_players_must_have_different_names() -> None:
    with pytest.raises(MalformedError, match="different"):
        Setup(players=("A", "A"))


def test_every_game_error_is_a_value_error() -> None:
    for error in (GameError, IllegalActionError, WrongPhaseError, MalformedError):
        assert issubclass(error, ValueError)
    assert issubclass(WrongPhaseError, IllegalActionError)
