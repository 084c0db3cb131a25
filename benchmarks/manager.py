"""Game-manager benchmark (run: python -m benchmarks.manager [--games 100 --actions 5000]).

Prints, on a real SQLite file in a temporary directory:
- sustained actions/s across N concurrent games (apply + commit, no render) submitting as fast
  as they can, and the p50/p95 latency of one ``apply`` call at that saturation (queueing
  included), with ``synchronous=FULL`` (default: survives power loss) and ``NORMAL``;
- p50/p95 latency when the same games offer a steady --rate actions/s (default 600, open loop);
- the same with the board rendered after every action (renderer in a worker thread);
- the time for a new manager to resume N games (replay of every action log).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.manager import GameManager
from bot.outcomes import TurnView
from bot.storage.sqlite import open_sqlite
from engine import Action, Game, Pass


def pick(view: TurnView, rng: random.Random) -> Action:
    if view.phase == "tile":
        return view.placements[rng.randrange(len(view.placements))]
    choice = rng.randrange(len(view.figures) + 1)
    return view.figures[choice] if choice < len(view.figures) else Pass()


async def new_game(manager: GameManager, seed: int) -> TurnView:
    row = await manager.lobbies.create_lobby(1, "A", channel_id=1)
    await manager.lobbies.join(row.id, 2, "B")
    return await manager.lobbies.start(row.id, 1, seed=seed)


async def stream(
    manager: GameManager, games: int, total: int, render: bool, rate: float = 0.0
) -> tuple[float, list[float]]:
    """Play ``total`` actions spread over ``games`` concurrent games; (seconds, latencies ms).

    ``rate`` > 0 paces the players to that many actions/s in all (as real players would be);
    0 submits as fast as possible (saturation: latency is then mostly queueing).
    """
    pause = games / rate if rate > 0 else 0.0
    latencies: list[float] = []
    remaining = [total]

    first = await asyncio.gather(*(new_game(manager, seed) for seed in range(games)))

    async def player(seed: int) -> None:
        rng = random.Random(seed)
        view = first[seed]
        # Open loop: each player's moves are due on its own clock, whatever the service time,
        # so the offered load stays at ``rate`` and a slow answer shows as latency.
        due = time.perf_counter()
        while remaining[0] > 0:
            if view.finished:
                view = await new_game(manager, rng.randrange(1 << 30))
                continue
            remaining[0] -= 1
            if pause:
                due += rng.uniform(0, 2 * pause)
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            action = pick(view, rng)
            assert view.user_id is not None
            started = time.perf_counter()
            result = await manager.play_turn(
                view.game_id, view.user_id, action, turn=view.turn, render=render
            )
            latencies.append((time.perf_counter() - started) * 1000)
            view = result.view

    started = time.perf_counter()
    await asyncio.gather(*(player(seed) for seed in range(games)))
    return time.perf_counter() - started, latencies


def report(label: str, seconds: float, latencies: list[float]) -> None:
    p95 = statistics.quantiles(latencies, n=20)[-1]
    print(
        f"{label}: {len(latencies) / seconds:8.0f} actions/s, "
        f"p50 {statistics.median(latencies):6.2f} ms, p95 {p95:6.2f} ms ({len(latencies)} actions)"
    )


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for durable in (True, False):
            path = Path(folder) / f"bench-{durable}.sqlite3"
            manager = GameManager(await open_sqlite(path, durable=durable))
            seconds, latencies = await stream(manager, args.games, args.actions, render=False)
            await manager.close()
            mode = "FULL  " if durable else "NORMAL"
            report(f"{args.games} games, no render, synchronous={mode}", seconds, latencies)
        path = Path(folder) / "bench-paced.sqlite3"
        manager = GameManager(await open_sqlite(path))
        seconds, latencies = await stream(
            manager, args.games, args.actions, render=False, rate=args.rate
        )
        await manager.close()
        report(f"{args.games} games paced at {args.rate:.0f}/s, FULL  ", seconds, latencies)

        renderer = load_renderer()
        if renderer is None:
            print("with render: skipped (renderer.render_board not importable)")
        else:
            path = Path(folder) / "bench-render.sqlite3"
            manager = GameManager(await open_sqlite(path), renderer=renderer)
            count = max(args.games, args.actions // 10)
            seconds, latencies = await stream(manager, args.games, count, render=True)
            await manager.close()
            report(f"{args.games} games, render each action   ", seconds, latencies)

        path = Path(folder) / "bench-FULL.sqlite3".replace("FULL", "True")
        manager = await GameManager.open(str(path), cache_size=10_000)
        started = time.perf_counter()
        resumed = await manager.resume()
        seconds = time.perf_counter() - started
        actions = sum(len(live.game.actions) for live in manager.cache._games.values())
        await manager.close()
        print(
            f"resume: {resumed} games ({actions} actions) in {seconds * 1000:.0f} ms "
            f"({seconds * 1000 / max(resumed, 1):.2f} ms per game)"
        )


def load_renderer() -> Callable[[Game], bytes] | None:
    try:
        from renderer import render_board
    except ImportError:
        return None
    return render_board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="concurrent games")
    parser.add_argument("--actions", type=int, default=5000, help="actions per run")
    parser.add_argument("--rate", type=float, default=600, help="offered load of the paced run")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
