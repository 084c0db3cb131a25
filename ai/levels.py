"""The computer players by level: :func:`make_player` names each one (:mod:`ai.players`, and the
expert level's search in :mod:`ai.expert`)."""

from __future__ import annotations

from ai.evaluate import Heuristic, WinChance, spent_end_values
from ai.expert import ExpertPlayer
from ai.players import EndgamePlayer, OnePlyPlayer, RandomPlayer, hard_heuristic


def make_player(level: str, seed: int = 0) -> RandomPlayer | OnePlyPlayer:
    """A player by name: random, greedy, easy, medium, hard or expert."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":
        return OnePlyPlayer("greedy", spent_end_values, 1, seed)
    if level == "easy":
        return OnePlyPlayer("easy", spent_end_values, 3, seed)
    if level == "medium":
        return OnePlyPlayer("medium", Heuristic(fits=False).values, 1, seed)
    if level == "hard":
        return EndgamePlayer("hard", hard_heuristic().values, 1, seed, WinChance())
    if level == "expert":
        return ExpertPlayer("expert", hard_heuristic().values, 1, seed, WinChance())
    raise ValueError(
        f"unknown level {level!r}: expected random, greedy, easy, medium, hard or expert"
    )


LEVELS = ("easy", "medium", "hard", "expert")
PLAYERS = ("random", "greedy", *LEVELS)
