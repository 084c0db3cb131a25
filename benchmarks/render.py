"""Renderer benchmark (run: python -m benchmarks.render).

Prints median ms (PNG encoding included) and PNG size for: a full 72-tile base board, a mid-game
board (turn 35), the turn images (rotations, placement preview) and the end-of-game image, at the
default tile size with warm caches; plus the one-off cold cost of drawing every tile's art.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine import Game, Pass, Phase, Setup
from engine.cli import play_random
from renderer import (
    RenderOptions,
    render_board,
    render_game_end,
    render_preview,
    render_rotations,
)


def play_to(seed: int, turn: int | None) -> Game:
    game = Game(Setup(players=("A", "B", "C"), seed=seed))
    rng = random.Random(seed)
    if turn is None:
        play_random(game, rng)
        return game
    while game.phase is not Phase.OVER and game.turn < turn:
        if game.phase is Phase.TILE:
            game.play(rng.choice(list(game.legal_placements())))
        else:
            figures = game.legal_figures()
            game.play(rng.choice(figures) if figures and rng.random() < 0.5 else Pass())
    return game


def measure(name: str, make: Callable[[], bytes], repeats: int) -> None:
    make()
    times = []
    size = 0
    for _ in range(repeats):
        started = time.perf_counter()
        size = len(make())
        times.append((time.perf_counter() - started) * 1000)
    print(f"{name:<28} {statistics.median(times):7.1f} ms  {size / 1024:7.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    options = RenderOptions()
    started = time.perf_counter()
    end = play_to(args.seed, None)
    render_board(end, options)
    print(f"cold start (palette + tile art) {(time.perf_counter() - started) * 1000:7.0f} ms")
    mid = play_to(args.seed, 35)
    placement = next(iter(mid.legal_placements()))
    print(f"tile size {options.tile_size} px; end board {len(end.board.tiles)} tiles")
    measure("full board (72 tiles)", lambda: render_board(end, options), args.repeats)
    measure("mid-game board (turn 35)", lambda: render_board(mid, options), args.repeats)
    measure("turn: rotations", lambda: render_rotations(mid, options), args.repeats)
    measure(
        "turn: placement preview", lambda: render_preview(mid, placement, options), args.repeats
    )
    measure("end of game (board + chart)", lambda: render_game_end(end, options), args.repeats)


if __name__ == "__main__":
    main()
