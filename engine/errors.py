"""Errors a player (or a tool) can read as they are."""

from __future__ import annotations


class GameError(ValueError):
    """Base class: anything wrong with an action or a record."""


class IllegalActionError(GameError):
    """The action is well formed but not allowed now; the message says why and what to do."""


class WrongPhaseError(IllegalActionError):
    """The action does not answer the decision the game is waiting for."""


class MalformedError(GameError):
    """A record or an action that cannot be read (missing field, wrong type, unknown name)."""
