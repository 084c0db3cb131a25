"""Computer players for every game of the house (they import :mod:`engine` only).

``make_player(level, seed).choose(game, seat)`` returns the seat's next action, decided from
what that seat may see (:mod:`ai.observation`). Levels: ``easy``, ``medium``, ``hard``; the
``greedy`` baseline and ``random`` serve as yardsticks (``python -m ai arena``).
"""

from ai.players import LEVELS, PLAYERS, make_player, options

__all__ = ["LEVELS", "PLAYERS", "make_player", "options"]
