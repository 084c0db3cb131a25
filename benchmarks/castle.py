"""The Castle benchmark: random 2-player games per second (run: python -m benchmarks.castle).

Each game plays uniformly random legal moves (placements, subjects or pass, wall tiles 1-3 when
legal) to the end, final scoring included. Prints games per second, the median and p90 time per
game, the median time to replay a full record, and a few figures of the games themselves.

Then the renderer on a full castle (all 60 tiles down): the one-off cold cost (every tile layout
and art drawn, palette built), and the median ms (PNG encoding included) and size of the board,
a placement preview and the end-of-game image, at the default tile size with warm caches.
``--render-only`` skips the games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from engine import CastleGame, Game, Setup
from engine.cli import play_random


def random_game(seed: int) -> tuple[CastleGame, float]:
    started = time.perf_counter()
    game = Game(Setup(players=("Black", "White"), game="castle", seed=seed))
    assert isinstance(game, CastleGame)
    play_random(game, random.Random(seed))
    return game, (time.perf_counter() - started) * 1000


def render_figures(seed: int, repeats: int) -> dict[str, object]:
    """Render timings of a full castle (cold first, then warm medians)."""
    from engine import Pass, Phase
    from renderer import RenderOptions, render_board, render_game_end, render_preview

    options = RenderOptions()
    end, _ = random_game(seed)
    started = time.perf_counter()
    render_board(end, options)
    cold = (time.perf_counter() - started) * 1000
    mid = Game(Setup(players=("Black", "White"), game="castle", seed=seed))
    rng = random.Random(seed)
    while mid.turn < 30 or mid.phase is not Phase.TILE:
        if mid.phase is Phase.TILE:
            mid.play(rng.choice(list(mid.legal_placements())))
        else:
            mid.play(Pass())
    placement = next(iter(mid.legal_placements()))
    figures: dict[str, object] = {
        "tile_px": options.tile_size,
        "cold_first_render_ms": round(cold),
    }
    images: list[tuple[str, Callable[[], bytes]]] = [
        ("full_castle_board", lambda: render_board(end, options)),
        ("placement_preview_turn_30", lambda: render_preview(mid, placement, options)),
        ("end_of_game_image", lambda: render_game_end(end, options)),
    ]
    for name, draw in images:
        draw()
        times: list[float] = []
        size = 0
        for _ in range(repeats):
            begun = time.perf_counter()
            size = len(draw())
            times.append((time.perf_counter() - begun) * 1000)
        figures[f"{name}_median_ms"] = round(statistics.median(times), 1)
        figures[f"{name}_kb"] = size // 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=15, help="renders per image timing")
    parser.add_argument("--render-only", action="store_true", help="only the render timings")
    args = parser.parse_args()
    if args.render_only:
        print(json.dumps(render_figures(args.seed, args.repeats), indent=1))
        return
    for seed in range(5):  # warm the per-kind fit tables, as a running bot would have
        random_game(10_000 + seed)

    game_ms: list[float] = []
    scores: list[int] = []
    walls_taken = 0
    discarded = 0
    records = []
    started = time.perf_counter()
    for index in range(args.games):
        game, elapsed = random_game(args.seed + index)
        game_ms.append(elapsed)
        scores.extend(game.scores)
        walls_taken += sum(len(game.wall_hand(p)) + len(game.played[p]) for p in (0, 1))
        discarded += len(game.discarded)
        if index < 50:
            records.append(game.record())
    wall_clock = time.perf_counter() - started

    replay_ms = []
    for record in records:
        begun = time.perf_counter()
        Game.from_record(record)
        replay_ms.append((time.perf_counter() - begun) * 1000)

    figures = {
        "games": args.games,
        "games_per_second": round(args.games / wall_clock, 1),
        "median_ms_per_game": round(statistics.median(game_ms), 3),
        "p90_ms_per_game": round(statistics.quantiles(game_ms, n=10)[-1], 3),
        "median_ms_to_replay_full_record": round(statistics.median(replay_ms), 3),
        "mean_score": round(statistics.fmean(scores), 2),
        "mean_wall_tiles_taken_per_game": round(walls_taken / args.games, 2),
        "mean_tiles_discarded_per_game": round(discarded / args.games, 2),
        "render": render_figures(args.seed, args.repeats),
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
