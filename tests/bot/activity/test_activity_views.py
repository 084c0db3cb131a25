"""What the live board shows of a game: the table's view, the same whatever is hidden."""

from __future__ import annotations

import json
import random

import pytest

from bot.activity.views import Timing, own_view, table_view
from bot.storage import GameRow, SeatRow
from engine import Game, Setup
from engine.cli import random_action

FAMILIES = [
    ("carcassonne", (), {}),
    ("carcassonne", ("abbey_mayor",), {"hand": True}),
    ("carcassonne", ("inns_cathedrals", "traders_builders", "river"), {}),
    ("hunters", (), {}),
    ("castle", (), {}),
]


def row_of(game: Game, status: str = "active") -> GameRow:
    seats = tuple(
        SeatRow(i, 100 + i, name, ("red", "blue", "green")[i])
        for i, name in enumerate(game.setup.players)
    )
    return GameRow(
        id=5,
        owner_id=100,
        created_at=0.0,
        updated_at=0.0,
        kind=game.setup.game,
        expansions=tuple(game.setup.expansions),
        status=status,  # type: ignore[arg-type]
        seed=game.setup.seed,
        seats=seats,
    )


def played(setup: Setup, moves: int, rng_seed: int = 4) -> Game:
    game = Game(setup)
    rng = random.Random(rng_seed)
    for _ in range(moves):
        if game.finished:
            break
        game.play(random_action(game, rng))
    return game


@pytest.mark.parametrize(("kind", "expansions", "options"), FAMILIES)
def test_the_view_is_what_the_engine_shows(
    kind: str, expansions: tuple[str, ...], options: dict[str, object]
) -> None:
    game = played(
        Setup(players=("Ann", "Bo"), seed=77, game=kind, expansions=expansions, options=options), 30
    )
    view = table_view(row_of(game), game.fork(), Timing(now=10.0))
    assert view["version"] == len(game.actions)
    assert len(view["tiles"]) == len(game.board.tiles)
    assert view["tilesLeft"] == game.tiles_left
    assert [p["score"] for p in view["players"]] == game.scores
    assert [p["supply"] for p in view["players"]] == [game.pieces(p) for p in range(game.players)]
    assert view["turn"]["seat"] == game.decision.player
    if not game.hand_mode:
        assert view["turn"]["tile"] == game.decision.tile
    assert view["position"]["format"] == 2
    assert "seed" not in json.dumps(view)


def test_two_stacks_behind_the_same_table_give_the_same_view() -> None:
    """Two games whose stacks differ only in tiles nobody has seen yet: byte-identical views."""
    first = Game(Setup(players=("Ann", "Bo"), seed=1))
    kinds = [name for name in first.kinds_in_play_order() for _ in range(first.kinds[name].count)]
    start, rest = kinds[0], kinds[1:]
    rng = random.Random(2)
    rng.shuffle(rest)
    seen, hidden = rest[:12], rest[12:]
    other = hidden[:]
    random.Random(3).shuffle(other)
    assert other != hidden
    views = []
    for seed, tail in ((5, hidden), (99_999, other)):
        game = Game(Setup(players=("Ann", "Bo"), seed=seed, draw=(start, *seen, *tail)))
        rng = random.Random(8)
        while len(game.board.tiles) < 10:
            game.play(random_action(game, rng))
        views.append(json.dumps(table_view(row_of(game), game, Timing(now=1.0)), sort_keys=True))
    assert views[0] == views[1]


def test_a_hand_goes_to_its_owner_alone() -> None:
    game = played(Setup(players=("Ann", "Bo"), seed=3, options={"hand": True}), 9)
    row = row_of(game)
    view = table_view(row, game.fork(), Timing(now=1.0))
    assert "hand" not in view
    assert own_view(view, row, game, 100)["hand"] == list(game.hands[0])
    assert own_view(view, row, game, 101)["hand"] == list(game.hands[1])
    assert "hand" not in own_view(view, row, game, 999)
    assert '"hand": [' not in json.dumps(view)  # the option "hand": true is public


def test_a_finished_game_shows_its_final_scores() -> None:
    game = played(Setup(players=("Ann", "Bo"), seed=3), 10_000)
    assert game.finished
    view = table_view(row_of(game, "finished"), game, Timing(now=1.0))
    assert view["turn"] is None
    assert view["final"] == game.scores
    assert "position" not in view
