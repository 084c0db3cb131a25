"""Computer players for every game of the house (they import :mod:`engine` only).

``make_player(level, seed).choose(game, seat)`` returns the seat's next action, decided from
what that seat may see (:mod:`ai.observation`). Levels (:mod:`ai.levels`): ``easy``, ``medium``,
``hard``, ``expert``; the ``greedy`` baseline and ``random`` serve as yardsticks
(``python -m ai arena``).
"""

from ai.levels import LEVELS, PLAYERS, make_player
from ai.players import options

__all__ = ["LEVELS", "PLAYERS", "make_player", "options"]
