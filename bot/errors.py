"""The error family of the game manager: each error carries a message key a bot can show.

Every refusal a player can cause is a :class:`ManagerError` (a ``ValueError``). ``str(error)``
is the English text; :meth:`ManagerError.message` gives it in the player's language, so the
Discord layer's central handler needs one ``except ManagerError`` and no knowledge of causes.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.i18n import t
from engine import GameError


class ManagerError(ValueError):
    """Base class; ``key`` names the text in :mod:`bot.i18n`, ``params`` fill it in."""

    key: ClassVar[str] = "illegal_action"

    def __init__(self, **params: Any) -> None:
        self.params = params
        super().__init__(t(self.key, "en", **params))

    def message(self, locale: str | None = None) -> str:
        """The text for a player, in ``locale`` (``en``, ``fr``, or a Discord locale)."""
        return t(self.key, locale, **self.params)


class GameNotFound(ManagerError):
    key = "game_not_found"


class NotAPlayer(ManagerError):
    key = "not_a_player"


class PlayerFollows(ManagerError):
    """A player of a game asked to follow it (they are in its thread already)."""

    key = "follow_player"


class NotFollowing(ManagerError):
    key = "not_following"


class FollowGone(ManagerError):
    """An answer to a request to follow that was accepted or withdrawn meanwhile."""

    key = "follow_gone"


class NotYourTurn(ManagerError):
    key = "not_your_turn"


class StaleAction(ManagerError):
    """The submission answers an earlier decision (double click, old button)."""

    key = "stale_action"


class StaleStep(StaleAction):
    """A second click on a step of this turn that was already played (a double click)."""

    key = "stale_step"


class IllegalAction(ManagerError):
    """The engine refused the move; ``reason`` is the engine's explanation (English).

    With ``cause`` (the engine's error), :meth:`message` gives the reason in the player's
    language from the error's code and parameters.
    """

    key = "illegal_action"

    def __init__(self, *, cause: GameError | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.cause = cause

    def message(self, locale: str | None = None) -> str:
        if self.cause is None:
            return super().message(locale)
        from bot.narrate import engine_error

        return t(self.key, locale, reason=reason_text(engine_error(self.cause, locale)))


class NotInLobby(ManagerError):
    key = "not_in_lobby"


class NotActive(ManagerError):
    key = "not_active"


class GameOver(ManagerError):
    key = "game_over"


class ReviewNotReady(ManagerError):
    """A review asked of a game still running: it comes when the game ends."""

    key = "review_running"


class ReviewAbandoned(ManagerError):
    """A review asked of a game that was stopped before its end: only finished games have one."""

    key = "review_abandoned"


class HintNotHere(ManagerError):
    """A hint asked outside a practice game (one person against computers, not a league game)."""

    key = "hint_not_practice"


class HintAfterTile(ManagerError):
    """A hint asked once the turn's tile is placed: a hint is a whole turn, tile first."""

    key = "hint_after_tile"


class HintUnavailable(ManagerError):
    """The expert could not decide the hint in time (its workers are busy)."""

    key = "hint_unavailable"


class AlreadyJoined(ManagerError):
    key = "already_joined"


class LobbyFull(ManagerError):
    key = "lobby_full"


class NotOwner(ManagerError):
    key = "not_owner"


class NotAComputer(ManagerError):
    key = "not_a_computer"


class BadLevel(ManagerError):
    key = "bad_level"


class NoComputers(ManagerError):
    key = "no_computers"


class OwnerCannotLeave(ManagerError):
    key = "owner_cannot_leave"


class BadSetup(ManagerError):
    key = "bad_setup"


class WrongPlayerCount(ManagerError):
    """A game for a fixed number of players (The Castle: 2) started or set with another."""

    key = "wrong_player_count"


class BadSeatOrder(ManagerError):
    key = "bad_seat_order"


class BadColour(ManagerError):
    key = "bad_colour"


class ColourTaken(ManagerError):
    key = "colour_taken"


class UndoNothing(ManagerError):
    key = "undo_nothing"


class UndoStale(ManagerError):
    """An Agree or Refuse for an undo request whose turn is no longer the last one."""

    key = "undo_stale"


class UndoGameOver(ManagerError):
    key = "undo_game_over"


class BadRecord(ManagerError):
    key = "bad_record"


class BadSettings(ManagerError):
    key = "bad_settings"


class NoSuchSeason(ManagerError):
    key = "no_such_season"


class CorruptGame(ManagerError):
    """A stored game no longer replays (should never happen; logged as an error)."""

    key = "corrupt_game"


class Conflict(ManagerError):
    """Another process wrote the same game first (several bot processes on one database)."""

    key = "conflict"


class Unsure(ManagerError):
    """A write's answer was lost (the database connection dropped around its commit) and the
    storage could not be asked whether it landed: the player is told so, never "nothing was
    played" nor "done". The game is reloaded from storage at its next use."""

    key = "unsure"


class DatabaseTooNew(ManagerError):
    key = "db_too_new"


class DatabaseUnreachable(ManagerError):
    """The PostgreSQL server of ``DATABASE_URL`` refused or could not be reached."""

    key = "db_unreachable"


def reason(error: BaseException) -> str:
    """An engine message as a clause: no trailing full stop (the templates add one)."""
    return reason_text(str(error))


def reason_text(text: str) -> str:
    return text.rstrip(". ")


class ClockRanOut(ManagerError):
    """A move came after the player's chess-clock bank ran out: the timeout policy ends the
    turn (the scheduler plays it within seconds), not the late move."""

    key = "clock_ran_out"


class NoClock(ManagerError):
    """A pause asked in a game without a chess clock."""

    key = "no_clock"


class PauseOver(ManagerError):
    """An answer to a pause request that is no longer open (done, refused, or never asked)."""

    key = "pause_over"
