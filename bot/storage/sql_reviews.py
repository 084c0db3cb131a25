"""The game reviews' part of :class:`bot.storage.sql.Storage`: the SQL of tables ``reviews`` and
``review_seats``.

A mixin of :class:`bot.storage.sql.Storage`, on the connections of its ``engine`` like the rest,
for every database engine; the tables are those of ``migrations/0016_reviews.sql`` (and its
PostgreSQL twin). A review and its seats' figures are written in one transaction: a failure
leaves neither.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage import ReviewSeat, StoredReview
from bot.storage.db import Engine


class SqlReviews:
    """The review statements, mixed into :class:`bot.storage.sql.Storage`."""

    engine: Engine

    async def save_review(self, review: StoredReview, seats: Sequence[ReviewSeat]) -> None:
        """Store a game's review and its seats' figures (replacing any earlier ones), in one
        transaction."""
        text = json.dumps(review.review, separators=(",", ":"), sort_keys=True)
        async with self.engine.transaction() as db:
            await db.execute("DELETE FROM review_seats WHERE game_id = ?", (review.game_id,))
            await db.execute("DELETE FROM reviews WHERE game_id = ?", (review.game_id,))
            await db.execute(
                "INSERT INTO reviews (game_id, budget, action_count, review, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (review.game_id, review.budget, review.action_count, text, review.created_at),
            )
            await db.executemany(
                "INSERT INTO review_seats (game_id, seat, decisions, accuracy, lost_per_turn) "
                "VALUES (?, ?, ?, ?, ?)",
                [(s.game_id, s.seat, s.decisions, s.accuracy, s.lost_per_turn) for s in seats],
            )

    async def get_review(self, game_id: int) -> StoredReview | None:
        """The game's stored review, if any."""
        async with self.engine.read() as db:
            row = await db.fetchone(
                "SELECT game_id, budget, action_count, review, created_at FROM reviews "
                "WHERE game_id = ?",
                (game_id,),
            )
        if row is None:
            return None
        return StoredReview(
            int(row[0]), int(row[1]), int(row[2]), json.loads(row[3]), float(row[4])
        )

    async def review_seats_of(self, game_ids: Sequence[int]) -> list[ReviewSeat]:
        """The seats' review figures of those games that were reviewed, by game and seat."""
        if not game_ids:
            return []
        marks = ", ".join("?" * len(game_ids))
        async with self.engine.read() as db:
            rows = await db.fetchall(
                "SELECT game_id, seat, decisions, accuracy, lost_per_turn FROM review_seats "
                f"WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                list(game_ids),
            )
        return [_seat(row) for row in rows]


def _seat(row: Sequence[Any]) -> ReviewSeat:
    return ReviewSeat(int(row[0]), int(row[1]), int(row[2]), float(row[3]), float(row[4]))
