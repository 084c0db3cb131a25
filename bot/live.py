"""Live games: a stored game row with its engine state rebuilt by replay, in a bounded cache.

A game's state is never stored, only its setup and action log; :func:`replay` rebuilds the
:class:`engine.Game` and :class:`LiveCache` keeps the most recently used ones in memory (least
recently used evicted first) so that a move costs one engine call, not a replay.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.lobby import player_names
from bot.storage import ActionRow, GameRow
from engine import Action, Game, Pass, Phase, Setup, action_from_json

#: Live games a process keeps by default. A game costs about 60 KB (its engine state, 0 to
#: 100 actions in, and its action log), so 4,096 games take at most about 250 MB; a game that
#: falls out is replayed at its next use (about 5 ms with 100 actions), which a process
#: serving more active games than it keeps pays on nearly every move.
LIVE_GAMES = 4096


def record_head(game: GameRow) -> dict[str, Any]:
    """The setup part of the game's record (everything but the actions)."""
    return {
        "format": 1,
        "game": game.kind,
        "expansions": list(game.expansions),
        "options": dict(game.options),
        "players": list(player_names(game.seats)),
        "seed": game.seed or 0,
        **game.setup_extra,
    }


def setup_of(game: GameRow) -> Setup:
    return Setup.from_json(record_head(game))


def replay(game: GameRow, actions: Sequence[ActionRow]) -> Game:
    """Rebuild the engine state; raises the engine's ``ValueError`` if the log no longer plays."""
    state = Game(setup_of(game))
    for row in actions:
        state.play(action_from_json(row.action))
    return state


def autoplay_action(game: Game) -> Action:
    """A legal move chosen without thought, for seats the bot plays (resigned, timed out).

    The first legal placement in the engine's order, and no figure: deterministic, so a replay
    or a second process makes the same choice.
    """
    if game.decision.phase is Phase.TILE:
        return game.legal_placements()[0]
    return Pass()


@dataclass
class LiveGame:
    """A game in play as stored: its row, its engine state and its action log.

    A change is computed on a :meth:`draft` and made live by :meth:`adopt` once its write is
    durable, so that an exception anywhere in between (a read, the write, a cancellation)
    leaves the live game equal to the stored one.
    """

    row: GameRow
    game: Game
    #: The stored action log (who played each action and why), parallel to ``game.actions``.
    log: list[ActionRow] = field(default_factory=list)

    def draft(self) -> LiveGame:
        """A copy to compute a change on: the engine state forked (about 8 µs), the row (a
        frozen value) and the log (only ever replaced, never changed in place) shared."""
        return LiveGame(self.row, self.game.fork(), self.log)

    def adopt(self, draft: LiveGame, rows: Sequence[ActionRow] = ()) -> None:
        """Make ``draft`` live, its log followed by ``rows``, once its write is durable. No
        await between the write and this: a reader never sees half of a change."""
        self.row, self.game, self.log = draft.row, draft.game, [*draft.log, *rows]


class LiveCache:
    """At most ``size`` live games, least recently used evicted first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("the live-game cache needs room for at least one game")
        self.size = size
        self._games: OrderedDict[int, LiveGame] = OrderedDict()

    def get(self, game_id: int) -> LiveGame | None:
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
        return live

    def put(self, live: LiveGame) -> None:
        self._games[live.row.id] = live
        self._games.move_to_end(live.row.id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games
