"""Shared by the computer players' tests."""

from __future__ import annotations

import random

from ai import make_player
from engine import Game, Phase
from engine.cli import random_action


def play_level_against_random(game: Game, level: str, seed: int) -> None:
    """Play ``game`` to its end: ``level`` in seat 0, random moves elsewhere; raises on an
    illegal move, then checks that the record replays to the same state."""
    rng = random.Random(seed)
    computer = make_player(level, seed=seed)
    while not game.finished:
        seat = game.actor
        action = computer.choose(game, seat) if seat == 0 else random_action(game, rng)
        game.play(action)  # raises on an illegal move
    assert Game.from_record(game.record()).snapshot() == game.snapshot()


def to_a_tile(game: Game, moves: int = 30, seed: int = 4) -> Game:
    """``game`` after ``moves`` random moves and then to its next tile decision."""
    rng = random.Random(seed)
    for _ in range(moves):
        game.play(random_action(game, rng))
    while game.phase is not Phase.TILE:
        game.play(random_action(game, rng))
    return game
