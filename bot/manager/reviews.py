"""Game reviews and hints of the game manager.

A **review** (:mod:`ai.review`) values every tile decision of a finished game against the best
the expert finds at a fixed budget, in worker processes (:class:`bot.review_pool.ReviewWorkers`,
one decision per task). It is computed once and stored (tables ``reviews`` and
``review_seats``, one transaction): a second call reads it back, and calls on the same game
while it is computed wait for that one computation (:meth:`ReviewOps.progress` tells how far it
is). Only a finished game has a review: a running game's would tell the table the best moves of
a game still played. Several bot processes on one database may each compute the same game's
review once: the same record and budget give the same review, and the last write replaces the
first in one transaction.

A **hint** is the expert's best turn for the player in turn of a practice game (one person
against computer players, not a league game), decided by the computer players' workers
(:class:`bot.computers.ComputerPlayers`) from what that player sees: the expert decides from
the player's observation (:func:`ai.observation.observe`), never from the seed, the stack or
other players' hands.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from ai.review import Review, summarise
from bot.errors import (
    HintAfterTile,
    HintNotHere,
    HintUnavailable,
    NotActive,
    ReviewAbandoned,
    ReviewNotReady,
)
from bot.manager.base import ManagerBase
from bot.manager.records import RecordsOps
from bot.review_pool import ReviewWorkers
from bot.storage import GameRow, ReviewSeat, StoredReview
from engine import Phase

log = logging.getLogger(__name__)

#: The level whose best turn a hint shows.
HINT_LEVEL = "expert"


@dataclass
class Progress:
    """How far a review being computed is: decisions ``done`` of ``total`` (None: still being
    counted)."""

    done: int = 0
    total: int | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's best turn for ``seat`` at turn ``turn``: ``actions`` (record JSON) are to be
    played after the first ``index`` actions of the game."""

    seat: int
    turn: int
    index: int
    actions: tuple[dict[str, Any], ...]


def is_practice(row: GameRow) -> bool:
    """Whether the seats make a practice game: one person, the others computer players."""
    people = [s for s in row.seats if s.computer is None]
    return len(people) == 1 and len(row.seats) > 1


class ReviewOps:
    """Reviews of finished games (computed once, stored) and hints in practice games."""

    def __init__(
        self,
        core: ManagerBase,
        records: RecordsOps,
        workers: ReviewWorkers | None = None,
        budget: int | None = None,
    ) -> None:
        self.core = core
        self.records = records
        self.workers = workers or ReviewWorkers()
        self._budget = budget
        #: Reviews being computed, by game: every caller waits for the same one.
        self._computing: dict[int, asyncio.Task[Review]] = {}
        self._progress: dict[int, Progress] = {}

    def budget(self, kind: str) -> int:
        """The expert's positions per decision of a review of a game of ``kind``: the setting,
        else the game's review budget (``ai.review.REVIEW_BUDGETS``)."""
        if self._budget is not None:
            return self._budget
        from ai.review import REVIEW_BUDGET, REVIEW_BUDGETS

        return int(REVIEW_BUDGETS.get(kind, REVIEW_BUDGET))

    def progress(self, game_id: int) -> Progress | None:
        """How far the game's review is, while it is computed (None: it is not)."""
        return self._progress.get(game_id)

    async def stored(self, game_id: int) -> Review | None:
        """The game's stored review, if one was computed from its whole log at this budget."""
        row = await self.core.read_row(game_id)
        return await self._stored(row)

    async def _stored(self, row: GameRow) -> Review | None:
        found = await self.core.storage.get_review(row.id)
        if found is None or found.action_count != row.action_count:
            return None
        if found.budget != self.budget(row.kind):  # the budget changed: computed again
            return None
        try:
            return Review.from_json(found.review)
        except (ValueError, KeyError, TypeError) as error:  # an older format: computed again
            log.info("review of game %s is computed again: %s", row.id, error)
            return None

    def check_reviewable(self, row: GameRow) -> None:
        """Refuse a game that has no review: one still running, or stopped before its end."""
        if row.status == "abandoned":
            raise ReviewAbandoned(game_id=row.id)
        if row.status != "finished":
            raise ReviewNotReady(game_id=row.id)

    async def review(self, game_id: int) -> Review:
        """The finished game's review: stored, or computed now (once, whoever else asks
        meanwhile) and stored. :class:`ReviewNotReady` for a game still running."""
        row = await self.core.read_row(game_id)
        self.check_reviewable(row)
        found = await self._stored(row)
        if found is not None:
            return found
        task = self._computing.get(game_id)
        if task is None:
            task = asyncio.create_task(self._compute(row), name=f"review {game_id}")
            self._computing[game_id] = task
            self._progress[game_id] = Progress()

            def forget(_: Any) -> None:
                self._computing.pop(game_id, None)
                self._progress.pop(game_id, None)

            task.add_done_callback(forget)
        # A caller that stops waiting (its interaction gone) leaves the review to the others.
        return await asyncio.shield(task)

    async def _compute(self, row: GameRow) -> Review:
        record = await self.records.export_record(row.id)
        budget = self.budget(row.kind)
        progress = self._progress.setdefault(row.id, Progress())

        def advance(done: int, total: int) -> None:
            progress.done, progress.total = done, total

        moments = await self.workers.review(record, budget, advance)
        review = summarise(budget, moments, len(row.seats))
        stored = StoredReview(row.id, budget, row.action_count, review.to_json(), self.core.clock())
        seats = [
            ReviewSeat(row.id, p.seat, p.decisions, p.accuracy, p.lost_per_turn)
            for p in review.players
        ]
        await self.core.storage.save_review(stored, seats)
        log.info("game %s reviewed: %d decisions at budget %d", row.id, len(moments), budget)
        return review

    async def hint(self, game_id: int) -> Hint:
        """The expert's best turn for the player in turn of a practice game, from what that
        player sees. :class:`HintNotHere` outside a practice game."""
        row = await self.core.read_row(game_id)
        if row.status != "active":
            raise NotActive(game_id=game_id)
        if not is_practice(row) or await self.core.storage.league_game(game_id) is not None:
            raise HintNotHere(game_id=game_id)
        async with self.core.hold(game_id) as live:
            game = live.game.fork()
        if game.finished:
            raise NotActive(game_id=game_id)
        if game.decision.phase is not Phase.TILE:  # the tile is down: the turn is half played
            raise HintAfterTile(game_id=game_id)
        seat, turn = game.decision.player, game.turn
        record = game.record()
        # The computer players' path: the expert decides each step from the seat's observation.
        actions = await self.core.computers.turn(record, seat, HINT_LEVEL, _hint_seed(row, turn))
        if not actions:
            raise HintUnavailable(game_id=game_id)
        return Hint(seat, turn, len(record["actions"]), tuple(actions))

    def close(self) -> None:
        self.workers.close()


def _hint_seed(row: GameRow, turn: int) -> int:
    """The expert's own randomness for a hint: the same hint for the same turn."""
    return (row.id * 1_000_003 + turn) % (1 << 62)
