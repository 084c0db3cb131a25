"""Animated replays: length, size, drawing time and phone legibility for whole games.

Run: ``python -m benchmarks.replay [--games N]``. For each kind of game (a 2-player base game,
a 6-player Abbey & Mayor game, Big Box games of 4 and 6 players, a 5-player Hunters & Gatherers
game, The Castle), N random full games (:func:`engine.cli.play_random`) are replayed as the
bot's ``/carcassonne replay`` does (:func:`renderer.replay.render_replay`, in this process, one
core). Prints JSON: per kind the turns and frames, how long the replay plays (seconds, against
the 60 s cap), the frame size, the WebP size (median and largest, against the upload limit),
the CPU time to draw the frames and to encode them, and the smallest words, figures and seat
discs once a frame is shown 400 pixels wide (:func:`renderer.replay.replay_measures`, the
smallest over the games).
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
from renderer.replay import (
    REPLAY_LIMIT,
    ReplayMeasures,
    encode_webp,
    plan,
    render_replay,
    replay_frames,
)

BIG_BOX = ("inns_cathedrals", "river", "traders_builders")
GAMES: dict[str, dict[str, Any]] = {
    "carcassonne, 2 players": {"players": 2},
    "abbey & mayor, 6 players": {"players": 6, "expansions": ("abbey_mayor",)},
    "big box (inns, traders, river), 4 players": {"players": 4, "expansions": BIG_BOX},
    "big box + abbey & mayor, 6 players": {
        "players": 6,
        "expansions": (*BIG_BOX, "abbey_mayor"),
    },
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
    measures = ReplayMeasures(plan(Game.from_record(record), options).width)
    started = time.process_time()
    drawn = list(replay_frames(record, options, measures))
    frames_s = time.process_time() - started
    started = time.process_time()
    webp = encode_webp([f for f, _ in drawn], [ms for _, ms in drawn])
    encode_s = time.process_time() - started
    if len(webp) > REPLAY_LIMIT:  # the bot would send it smaller: measure that one
        webp = render_replay(record, options).webp
    return {
        "turns": score_series(record).turns,
        "frames": len(drawn),
        "seconds": sum(ms for _, ms in drawn) / 1000,
        "size": drawn[0][0].size,
        "bytes": len(webp),
        "frames_s": frames_s,
        "encode_s": encode_s,
        "phone": measures.at_phone(),
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
        phone = {k: min(r["phone"].get(k, 999.0) for r in runs) for k in ("text", "figure", "disc")}
        results[name] = {
            "games": len(runs),
            "turns (median)": statistics.median(r["turns"] for r in runs),
            "frames (median)": statistics.median(r["frames"] for r in runs),
            "plays_s (longest)": max(r["seconds"] for r in runs),
            "frame sizes": sorted({f"{r['size'][0]}x{r['size'][1]}" for r in runs}),
            "bytes (median)": round(statistics.median(r["bytes"] for r in runs)),
            "bytes (largest)": max(r["bytes"] for r in runs),
            "largest / limit": round(max(r["bytes"] for r in runs) / REPLAY_LIMIT, 2),
            "draw_cpu_s (median)": round(statistics.median(r["frames_s"] for r in runs), 2),
            "encode_cpu_s (median)": round(statistics.median(r["encode_s"] for r in runs), 2),
            "total_cpu_s (largest)": round(max(r["frames_s"] + r["encode_s"] for r in runs), 2),
            "smallest at 400 px (text, figure, disc)": phone,
        }
        print(name, json.dumps(results[name]), flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
