"""Animated replays: size and render time for whole games of every family.

Run: ``python -m benchmarks.replay [--games N]``. For each game (a 2-player base game, a
6-player Abbey & Mayor game, a 5-player Hunters & Gatherers game, The Castle), N random full
games (:func:`engine.cli.play_random`) are replayed as the bot's ``/carcassonne replay`` does
(:func:`renderer.replay.render_replay`, in this process, one core). Prints JSON: per game the
turns and frames, the frame size, the WebP size (median and largest, against the 3 MiB limit)
and the time to draw the frames and to encode them (median and largest).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from engine import Game, Setup
from engine.cli import play_random
from engine.core.timeline import score_series
from renderer import RenderOptions
from renderer.replay import REPLAY_LIMIT, encode_webp, render_replay, replay_frames

GAMES: dict[str, dict[str, Any]] = {
    "carcassonne, 2 players": {"players": 2},
    "abbey & mayor, 6 players": {"players": 6, "expansions": ("abbey_mayor",)},
    "hunters & gatherers, 5 players": {"players": 5, "game": "hunters"},
    "the castle, 2 players": {"players": 2, "game": "castle"},
}


def a_record(seed: int, players: int, **setup: Any) -> dict[str, Any]:
    names = tuple(f"Player {i + 1}" for i in range(players))
    game = Game(Setup(players=names, seed=seed, **setup))
    play_random(game, random.Random(seed))
    return game.record()


def measure(record: dict[str, Any]) -> dict[str, Any]:
    options = RenderOptions()
    started = time.perf_counter()
    drawn = list(replay_frames(record, options))
    frames_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    webp = encode_webp([f for f, _ in drawn], [ms for _, ms in drawn])
    encode_ms = (time.perf_counter() - started) * 1000
    if len(webp) > REPLAY_LIMIT:  # the bot would send it smaller: measure that one
        webp = render_replay(record, options).webp
    return {
        "turns": score_series(record).turns,
        "frames": len(drawn),
        "size": drawn[0][0].size,
        "kb": len(webp) / 1024,
        "frames_ms": frames_ms,
        "encode_ms": encode_ms,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="random games per kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    a_record(0, 2)  # warm: the tile art and the palette are drawn once per process
    results: dict[str, Any] = {}
    for name, setup in GAMES.items():
        runs = [measure(a_record(args.seed + i, **setup)) for i in range(args.games)]
        total = [r["frames_ms"] + r["encode_ms"] for r in runs]
        results[name] = {
            "games": len(runs),
            "turns (median)": statistics.median(r["turns"] for r in runs),
            "frames (median)": statistics.median(r["frames"] for r in runs),
            "frame sizes": sorted({f"{r['size'][0]}x{r['size'][1]}" for r in runs}),
            "webp_kb (median)": round(statistics.median(r["kb"] for r in runs)),
            "webp_kb (largest)": round(max(r["kb"] for r in runs)),
            "largest / 3 MiB limit": round(max(r["kb"] for r in runs) * 1024 / REPLAY_LIMIT, 2),
            "draw_frames_s (median)": round(
                statistics.median(r["frames_ms"] for r in runs) / 1000, 2
            ),
            "encode_s (median)": round(statistics.median(r["encode_ms"] for r in runs) / 1000, 2),
            "total_s (largest)": round(max(total) / 1000, 2),
        }
        print(name, json.dumps(results[name]), flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
