"""The review workers: each decision of a record appraised in a worker process as its own
task, the same moments as in a thread, progress counted decision by decision."""

from __future__ import annotations

from typing import Any

from ai import make_player
from bot.review_pool import ReviewWorkers, appraise, count_decisions
from engine.core.game import new_game
from engine.core.setup import Setup

#: The base game's short forced draw: the start tile and ten tiles.
DRAW = ["D", "U", "V", "E", "K", "B", "L", "J", "A", "N", "W"]
#: A small budget: the test is about the workers, not the search.
BUDGET = 8


def short_record() -> dict[str, Any]:
    """A finished 2-player game on the short draw, played by the random player."""
    game = new_game(Setup(players=("alice", "bob"), seed=3, draw=tuple(DRAW)))
    player = make_player("random", 5)
    while not game.finished:
        game.play(player.choose(game, game.actor))
    return game.record()


async def test_a_worker_process_appraises_what_a_thread_does_one_decision_a_task() -> None:
    record = short_record()
    total = count_decisions(record)
    assert total > 0
    seen: list[tuple[int, int]] = []
    workers = ReviewWorkers(workers=1)
    try:
        moments = await workers.review(record, BUDGET, lambda done, n: seen.append((done, n)))
    finally:
        workers.close()
    assert moments == tuple(appraise(record, number, BUDGET) for number in range(total))
    assert seen == [(done, total) for done in range(total + 1)]
    threaded = ReviewWorkers(workers=0)
    try:
        assert await threaded.review(record, BUDGET) == moments
    finally:
        threaded.close()
