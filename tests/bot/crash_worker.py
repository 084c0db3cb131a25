"""Run by test_crash.py in a subprocess: play random moves in many games until killed.

Prints ``<game id> <action count>`` after each committed move so the test knows what must
survive the SIGKILL.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.manager import GameManager
from engine import Action, Pass


async def main(path: str, games: int) -> None:
    manager = await GameManager.open(path)
    views = []
    for seed in range(games):
        row = await manager.lobbies.create_lobby(1, "A")
        await manager.lobbies.join(row.id, 2, "B")
        views.append(await manager.lobbies.start(row.id, 1, seed=seed))
    rng = random.Random(0)
    while True:
        index = rng.randrange(len(views))
        view = views[index]
        if view.finished:
            continue
        if view.phase == "tile":
            action: Action = view.placements[rng.randrange(len(view.placements))]
        else:
            action = view.figures[0] if view.figures and rng.random() < 0.5 else Pass()
        assert view.user_id is not None
        result = await manager.play_turn(view.game_id, view.user_id, action, turn=view.turn)
        views[index] = result.view
        print(view.game_id, result.view.game.action_count, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
