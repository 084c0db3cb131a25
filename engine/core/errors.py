"""Errors a player (or a tool) can read as they are."""

from __future__ import annotations


class GameError(ValueError):
    """Base class: anything wrong with an action or a record.

    ``str(error)`` is an English sentence for a player; ``code`` and ``params`` let a front end
    say the same in another language (``code`` is stable, ``params`` fill the sentence in).
    """

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code or "illegal"
        self.params = params


class IllegalActionError(GameError):
    """The action is well formed but not allowed now; the message says why and what to do."""


class WrongPhaseError(IllegalActionError):
    """The action does not answer the decision the game is waiting for."""


class MalformedError(GameError):
    """A record or an action that cannot be read (missing field, wrong type, unknown name)."""
