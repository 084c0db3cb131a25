"""Live games: a stored game row with its engine state rebuilt by replay, in a bounded cache.

A game's state is never stored, only its setup and action log; :func:`replay` rebuilds the
:class:`engine.Game` and :class:`LiveCache` keeps the most recently used ones in memory (least
recently used evicted first) so that a move costs one engine call, not a replay.
"""

from __future__ import annotations

import pickle
import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from bot.lobby import player_names
from bot.storage import ActionRow, GameRow
from engine import Action, Game, Pass, Phase, Setup, action_from_json

#: Live games a process keeps by default. A game costs about 10 KB while it rests (its row and
#: its action log packed in one bytes object, which the garbage collector never scans), so
#: 8,192 games take about 80 MB; a game that falls out is read again from the database at its
#: next use.
LIVE_GAMES = 8192
#: ... of which this many, the most recently used, keep their engine state (about 60 KB and 300
#: objects the garbage collector scans, 0 to 100 actions in); the others rebuild it from their
#: log at their next use (a replay: 0.3 to 5 ms). A full garbage collection scans every object
#: held, so a bot holding 5,000 games' states paused for most of a second; with this many the
#: longest pause at 800 games was 84 ms (``benchmarks.load``).
ENGINE_STATES = 128


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


#: The references a game's own parts hold to it (its expansions' states, its family's board
#: hooks), by setup: a fork's, measured once (:func:`_let_go`).
_OWN_REFERENCES: dict[tuple[str, tuple[str, ...]], int] = {}


def _let_go(game: Game | None, held: int) -> None:
    """``game``, just dropped by a live game (``held``: the references the caller still holds),
    freed now rather than by the next full garbage collection: its reference cycles (its
    expansions point back at it) broken, if nothing but its own parts refers to it any more.
    Held elsewhere (a move under way, a picture being drawn), it is left as it is."""
    if game is None:
        return
    key = (game.setup.game, tuple(game.setup.expansions))
    own = _OWN_REFERENCES.get(key)
    if own is None:
        probe = game.fork()
        own = _OWN_REFERENCES[key] = sys.getrefcount(probe) - 2
        probe.release()
        del probe
    if sys.getrefcount(game) - 2 - held <= own:
        game.release()


def autoplay_action(game: Game) -> Action:
    """A legal move chosen without thought, for seats the bot plays (resigned, timed out).

    The first legal placement in the engine's order, and no figure: deterministic, so a replay
    or a second process makes the same choice.
    """
    if game.decision.phase is Phase.TILE:
        return game.legal_placements()[0]
    return Pass()


class LiveGame:
    """A game in play as stored: its row, its engine state and its action log.

    A change is computed on a :meth:`draft` and made live by :meth:`adopt` once its write is
    durable, so that an exception anywhere in between (a read, the write, a cancellation)
    leaves the live game equal to the stored one.

    While it rests (:meth:`rest`) it keeps only its row and its log packed in one bytes object:
    :attr:`game` and :attr:`log` are rebuilt from them at their next use (the engine state by a
    replay, which gives the same state: the engine is deterministic).
    """

    __slots__ = ("_game", "_log", "_packed", "_woken", "row")

    def __init__(self, row: GameRow, game: Game, log: list[ActionRow] | None = None) -> None:
        self.row = row
        self._game: Game | None = game
        #: The stored action log (who played each action and why), parallel to
        #: ``game.actions``; only ever replaced, never changed in place.
        self._log: list[ActionRow] | None = [] if log is None else log
        self._packed: bytes | None = None
        #: Told this game's id when it wakes (its cache's, which then rests another).
        self._woken: Callable[[int], None] | None = None

    @property
    def game(self) -> Game:
        if self._game is None:
            self.game = replay(self.row, self.log)
            assert self._game is not None
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        # A game woken by a move that was under way when it was rested (it held the game
        # meanwhile) is awake again: its cache counts it, and rests another.
        if self._game is None and self._woken is not None:
            self._woken(self.row.id)
        self._game = game

    @property
    def log(self) -> list[ActionRow]:
        if self._log is None:
            assert self._packed is not None
            self._log = [ActionRow(*fields) for fields in pickle.loads(self._packed)]
            self._packed = None
        return self._log

    @log.setter
    def log(self, log: list[ActionRow]) -> None:
        self._log, self._packed = log, None

    @property
    def resting(self) -> bool:
        """Whether it holds neither its engine state nor its unpacked log."""
        return self._game is None and self._log is None

    def rest(self) -> None:
        """Drop the engine state and pack the log (see the class)."""
        if self._log is not None:
            fields = [
                (r.idx, r.turn, r.seat, r.user_id, r.action, r.forced, r.created_at)
                for r in self._log
            ]
            self._packed = pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL)
            self._log = None
        game, self._game = self._game, None
        _let_go(game, held=1)
        del game

    def draft(self) -> LiveGame:
        """A copy to compute a change on: the engine state forked (about 8 µs), the row (a
        frozen value) and the log (only ever replaced, never changed in place) shared."""
        return LiveGame(self.row, self.game.fork(), self.log)

    def adopt(self, draft: LiveGame, rows: Sequence[ActionRow] = ()) -> None:
        """Make ``draft`` live, its log followed by ``rows``, once its write is durable. No
        await between the write and this: a reader never sees half of a change."""
        old = self._game
        self.row, self.game, self.log = draft.row, draft.game, [*draft.log, *rows]
        if old is not self._game:
            _let_go(old, held=1)
        del old


class LiveCache:
    """At most ``size`` live games, least recently used evicted first; of them, at most
    ``states`` (the most recently used) keep their engine state, the others rest
    (:meth:`LiveGame.rest`)."""

    def __init__(self, size: int, states: int = ENGINE_STATES) -> None:
        if size < 1:
            raise ValueError("the live-game cache needs room for at least one game")
        self.size = size
        self.states = max(1, states)
        self._games: OrderedDict[int, LiveGame] = OrderedDict()
        #: The games (ids) that may hold their engine state, least recently used first.
        self._awake: OrderedDict[int, None] = OrderedDict()

    def get(self, game_id: int) -> LiveGame | None:
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            self._wake(game_id)
        return live

    def put(self, live: LiveGame) -> None:
        self._games[live.row.id] = live
        self._games.move_to_end(live.row.id)
        live._woken = self._wake
        self._wake(live.row.id)
        while len(self._games) > self.size:
            gone, evicted = self._games.popitem(last=False)
            self._awake.pop(gone, None)
            evicted._woken = None

    def _wake(self, game_id: int) -> None:
        if game_id not in self._games:
            return
        self._awake[game_id] = None
        self._awake.move_to_end(game_id)
        while len(self._awake) > self.states:
            sleeper, _ = self._awake.popitem(last=False)
            live = self._games.get(sleeper)
            if live is not None:
                live.rest()

    def drop(self, game_id: int) -> None:
        dropped = self._games.pop(game_id, None)
        if dropped is not None:
            dropped._woken = None
        self._awake.pop(game_id, None)

    def awake(self) -> int:
        """How many games hold their engine state or their unpacked log."""
        return sum(not live.resting for live in self._games.values())

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games
