"""A render worker's recent games: a record rebuilt by playing only what is new since the last
picture of the same game, not the whole record.

A job carries its game as a record (setup and actions, see :mod:`renderer.jobs`), and replaying
a record of 100 actions takes about 5 ms, half a turn picture's work. The pictures of one game
come one move apart, so a worker keeps the engine state of each game it drew, by setup: the next
record with the same setup whose actions begin with the kept ones plays only the rest. The
engine is deterministic from (setup, actions), so the state reached is the replay's, whichever
game the kept state came from; any other record (an undo, another game) is replayed whole.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from engine import Game, action_from_json

#: Games a worker keeps (about 86 KB each, so 88 MB): a game falling out is replayed whole at
#: its next picture (0.3 to 5 ms). A game's pictures go to one worker, so with 2 workers the
#: pictures of about 2,000 active games find their state; at 5,000 games about two in five do,
#: and keeping them all would take 430 MB more, past what 1.5 GB for the bot and its workers
#: allows.
KEPT = 1024


def game_key(record: Mapping[str, Any]) -> str | None:
    """What names a record's game between its pictures: the record without its actions (None
    for a record that cannot be named so)."""
    try:
        return json.dumps({k: v for k, v in record.items() if k != "actions"}, sort_keys=True)
    except (TypeError, ValueError):
        return None


class RecentGames:
    """Engine states of the records drawn lately, least recently used dropped first; safe to
    share between threads (each caller gets its own fork)."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[str, tuple[list[Any], Game]] = OrderedDict()
        self._lock = threading.Lock()
        #: Records whose kept state was brought up to date, and records replayed whole.
        self.found = 0
        self.missed = 0

    def game(self, record: Mapping[str, Any], key: str | None = None) -> Game:
        """The game of ``record``, as :meth:`engine.Game.from_record` builds it (the same errors
        for a record that does not play), never shared with another caller; ``key``: the
        record's :func:`game_key`, if the caller has it already."""
        actions = record.get("actions", [])
        key = key if key is not None else game_key(record)
        if key is None:  # not a record this cache can name: no shortcut
            return Game.from_record(dict(record))
        with self._lock:
            kept = self._kept.pop(key, None)
        game = None
        if isinstance(actions, list) and kept is not None:
            done, state = kept
            if len(done) <= len(actions) and actions[: len(done)] == done:
                game = _played(state, actions[len(done) :])
        if game is None:
            game = Game.from_record(dict(record))
        with self._lock:
            if kept is not None and game is kept[1]:
                self.found += 1
            else:
                self.missed += 1
            self._kept[key] = (list(actions), game)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        # The kept state stays this cache's: the caller draws (or changes) its own copy.
        return game.fork()

    def __len__(self) -> int:
        return len(self._kept)


def _played(game: Game, actions: list[Any]) -> Game | None:
    """``game`` with ``actions`` played, or None if one does not play (the caller replays the
    whole record, which reports the error as a replay does)."""
    try:
        for raw in actions:
            game.play(action_from_json(raw))
    except ValueError:
        return None
    return game
