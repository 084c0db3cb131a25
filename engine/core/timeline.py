"""A game turn by turn: the state after each turn and the scores over time, from its record.

A turn ends when the next player is asked for a tile (the engine starts a turn), when the game
ends, or when an abbey may be played after the last tile. The end-of-game scoring is kept apart:
the last turn carries the scores before it and the final ones, so a chart can show the jump.
Used by the end picture's score chart and by the animated replay, which draw what they read here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.actions import action_from_json
from engine.core.errors import MalformedError
from engine.core.events import FeatureScored, GameEnded, TilePlaced, TurnStarted
from engine.core.game import Game, new_game
from engine.core.setup import Setup
from engine.core.turn import Phase


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """One turn played (``number`` 0: the start, before any action).

    ``player`` played it (None at the start and for a turn with no tile placed by a seat, such
    as one skipped by the clock: then the seat whose turn it was); ``placed`` is the square of
    its tile (None when no tile was placed); ``actions`` is how many of the record's actions are
    played once it ends; ``scores`` the scores then, before any end-of-game scoring; ``final``
    the scores after the end-of-game scoring when the game ended with this turn, else None.
    """

    number: int
    player: int | None
    placed: tuple[int, int] | None
    actions: int
    scores: tuple[int, ...]
    final: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ScoreSeries:
    """Each seat's score over the turns: ``by_turn[i]`` after turn ``i`` (0: the start), before
    the end-of-game scoring; ``final`` the scores after it, once the game has ended."""

    by_turn: tuple[tuple[int, ...], ...]
    final: tuple[int, ...] | None

    @property
    def turns(self) -> int:
        return len(self.by_turn) - 1

    def of(self, player: int) -> list[int]:
        """One seat's scores, turn by turn, then the final score when the game has ended."""
        points = [scores[player] for scores in self.by_turn]
        if self.final is not None:
            points.append(self.final[player])
        return points

    @property
    def best(self) -> int:
        """The highest score anyone reached (0 for a game without points)."""
        tops = [max(s, default=0) for s in self.by_turn]
        if self.final is not None:
            tops.append(max(self.final, default=0))
        return max(tops, default=0)


def turn_ends(record: Mapping[str, Any]) -> Iterator[tuple[TurnEnd, Game]]:
    """Replay ``record``, yielding the start and then each turn's end with the game then.

    The game is the one being replayed: read it before asking for the next turn (or ``fork``
    it). Errors are the engine's (a ``ValueError`` naming the failing action's index).
    """
    game = new_game(Setup.from_json(record))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise MalformedError("'actions' must be a list")
    yield TurnEnd(0, None, None, 0, tuple(game.scores)), game
    number = 0
    player: int | None = None
    placed: tuple[int, int] | None = None
    start_player = game.current
    for index, raw in enumerate(actions):
        try:
            events = game.play(action_from_json(raw))
        except ValueError as error:
            error.args = (f"action {index}: {error}",)
            raise
        final_points = [0] * game.players
        ended = False
        started = False
        for event in events:
            if isinstance(event, TilePlaced) and player is None:
                player, placed = event.player, (event.x, event.y)
            elif isinstance(event, TilePlaced):
                placed = (event.x, event.y)
            elif isinstance(event, FeatureScored) and event.final:
                for seat, points in event.points.items():
                    final_points[seat] += points
            elif isinstance(event, GameEnded):
                ended = True
            elif isinstance(event, TurnStarted):
                started = True
        at_abbey_end = game.phase is Phase.ABBEY_END and placed is not None
        if not (started or ended or at_abbey_end):
            continue
        number += 1
        scores = tuple(game.scores)
        final = None
        if ended:
            final = scores
            scores = tuple(s - f for s, f in zip(scores, final_points, strict=True))
        who = player if player is not None else start_player
        yield TurnEnd(number, who, placed, index + 1, scores, final), game
        player, placed = None, None
        start_player = game.current


def score_series(record: Mapping[str, Any]) -> ScoreSeries:
    """The scores after each turn of ``record`` (see :class:`ScoreSeries`)."""
    by_turn: list[tuple[int, ...]] = []
    final = None
    for end, _game in turn_ends(record):
        by_turn.append(end.scores)
        if end.final is not None:
            final = end.final
    return ScoreSeries(tuple(by_turn), final)
