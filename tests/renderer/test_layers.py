"""A game's kept squares: a turn picture drawn on them is the same bytes as one drawn afresh,
after every move of whole games of every family, and whatever the canvas saw before."""

from __future__ import annotations

import dataclasses

import pytest

from ai.players import RandomPlayer
from benchmarks.encoding import bot_turn_job
from engine import Game, Setup
from renderer.jobs import CANVASES, Job, draw, run
from renderer.layers import Canvas, Canvases
from renderer.options import RenderOptions

#: Every family; Carcassonne alone and with every expansion at once.
VARIANTS = [
    ("carcassonne", ()),
    ("carcassonne", ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")),
    ("hunters", ()),
    ("castle", ()),
]


def turn_job(game: Game, options: RenderOptions | None = None) -> Job:
    """The turn picture the bot posts for the decision now (with other ``options``)."""
    job = bot_turn_job(game)
    return job if options is None else dataclasses.replace(job, options=options)


@pytest.mark.parametrize(("family", "expansions"), VARIANTS, ids=lambda v: str(v))
def test_every_move_of_a_whole_game_draws_the_same_bytes_on_the_kept_squares(
    family: str, expansions: tuple[str, ...]
) -> None:
    game = Game(Setup(("A", "B"), seed=11, game=family, expansions=expansions))
    canvas = Canvas()
    player = RandomPlayer(5)
    pictures = 0
    # The Castle draws its own picture, whole: a few moves show the canvas changes nothing.
    while not game.finished and (family != "castle" or pictures < 20):
        job = turn_job(game)
        assert draw(game, job, canvas) == draw(game, job), f"move {len(game.record()['actions'])}"
        pictures += 1
        game.play(player.choose(game, game.current))
    assert pictures >= 20
    squares = [canvas.squares(tile) for tile in canvas.sizes()]
    if family != "castle":  # The Castle draws its own picture, whole
        assert sum(s.reused for s in squares) > 0, "the kept squares were never used"


def test_kept_squares_follow_an_undo_another_game_and_the_options() -> None:
    setup = Setup(("A", "B"), seed=4, expansions=("river",))
    game = Game(setup)
    player = RandomPlayer(2)
    states = []
    for _ in range(70):
        states.append(game.fork())
        game.play(player.choose(game, game.current))
    other = Game(dataclasses.replace(setup, seed=5))
    for _ in range(40):
        other.play(RandomPlayer(3).choose(other, other.current))
    canvas = Canvas()
    # Forwards, back to earlier moves (an undo: tiles gone), another board on the same canvas,
    # the dead squares off then on, the whole board.
    sequence = [*states[30:60], states[20], states[59], other, states[65], states[10]]
    for state in sequence:
        for options in (RenderOptions(dead_squares=True), RenderOptions()):
            job = turn_job(state, options)
            assert draw(state, job, canvas) == draw(state, job)
        whole = dataclasses.replace(turn_job(state), whole=True)
        assert draw(state, whole, canvas) == draw(state, whole)


def test_a_worker_keeps_the_squares_of_its_recent_games_within_its_budget() -> None:
    game = Game(Setup(("A", "B"), seed=9))
    player = RandomPlayer(1)
    found = CANVASES.found
    for _ in range(12):
        job = turn_job(game)
        assert run(job) == draw(game, job)
        game.play(player.choose(game, game.current))
    assert CANVASES.found - found >= 10  # one game's pictures found its canvas
    small = Canvases(budget=1)
    for seed in range(3):
        state = Game(Setup(("A", "B"), seed=seed))
        canvas = small.canvas(f"game {seed}")
        draw(state, turn_job(state), canvas)
        small.trim(canvas)
    # Only the last game's squares are kept, and counted.
    assert len(small) == 1 and small.nbytes == canvas.nbytes > 0
