"""Hunters & Gatherers benchmark: random games per second, and the time to draw a board.

Run: ``python -m benchmarks.hunters [--games N] [--players P]``. Each game plays uniformly random
legal moves (:func:`engine.cli.play_random`: any placement, then any figure or none) to the end,
bonus tiles and final scoring included. Prints games per second, the median and p90 time per
game, the median time to replay a full record, a few figures of the games themselves, then the
renderer's times on a finished game: the first board of a process (every tile's layout and art
drawn once), a warm board, the end image."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine import Game, HuntersGame, Setup
from engine.cli import play_random


def random_game(seed: int, players: int) -> tuple[HuntersGame, float]:
    started = time.perf_counter()
    names = tuple(f"P{i + 1}" for i in range(players))
    game = Game(Setup(players=names, game="hunters", seed=seed))
    assert isinstance(game, HuntersGame)
    play_random(game, random.Random(seed))
    return game, (time.perf_counter() - started) * 1000


def render_times(game: Game) -> dict[str, float]:
    """Milliseconds and sizes of the H&G pictures of a finished game (first call included)."""
    from renderer import RenderOptions, render_board, render_game_end

    options = RenderOptions()
    started = time.perf_counter()
    render_board(game, options)
    cold = (time.perf_counter() - started) * 1000
    warm = []
    for _ in range(5):
        begun = time.perf_counter()
        png = render_board(game, options)
        warm.append((time.perf_counter() - begun) * 1000)
    begun = time.perf_counter()
    end = render_game_end(game, options)
    end_ms = (time.perf_counter() - begun) * 1000
    return {
        "render_first_board_ms (cold: tile layouts, art, palette)": round(cold, 1),
        "render_board_ms (warm, median of 5)": round(statistics.median(warm), 1),
        "board_png_kb": round(len(png) / 1024, 1),
        "render_end_image_ms": round(end_ms, 1),
        "end_png_kb": round(len(end) / 1024, 1),
        "tiles_on_board": len(game.board.tiles),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-render", action="store_true", help="skip the renderer's timings")
    args = parser.parse_args()
    for seed in range(5):  # warm the per-kind fit tables, as a running bot would have
        random_game(10_000 + seed, args.players)

    game_ms: list[float] = []
    scores: list[int] = []
    bonus = discarded = 0
    records = []
    last: HuntersGame | None = None
    started = time.perf_counter()
    for index in range(args.games):
        game, elapsed = random_game(args.seed + index, args.players)
        game_ms.append(elapsed)
        scores.extend(game.scores)
        bonus += sum(
            1 for p in game.board.tiles.values() if game.kinds[p.oriented.kind].extra.get("bonus")
        )
        discarded += len(game.discarded)
        if index < 50:
            records.append(game.record())
        last = game
    wall_clock = time.perf_counter() - started

    replay_ms = []
    for record in records:
        begun = time.perf_counter()
        Game.from_record(record)
        replay_ms.append((time.perf_counter() - begun) * 1000)

    figures: dict[str, object] = {
        "games": args.games,
        "players": args.players,
        "games_per_second": round(args.games / wall_clock, 1),
        "median_ms_per_game": round(statistics.median(game_ms), 3),
        "p90_ms_per_game": round(statistics.quantiles(game_ms, n=10)[-1], 3),
        "median_ms_to_replay_full_record": round(statistics.median(replay_ms), 3),
        "mean_score": round(statistics.fmean(scores), 2),
        "mean_bonus_tiles_per_game": round(bonus / args.games, 2),
        "mean_tiles_discarded_per_game": round(discarded / args.games, 3),
    }
    if not args.no_render and last is not None:
        figures.update(render_times(last))
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
