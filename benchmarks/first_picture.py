"""The first picture of each game family in a new process, with and without the tile art cache
(run: python -m benchmarks.first_picture).

Each measurement is a fresh Python process (nothing warm) that sets up a game 30 moves in and
times its first turn picture (the phone picture the bot posts) and the board picture after it;
"cached" processes first load the cache of :mod:`renderer.artcache` (its time is shown apart).
Also printed: how long building the cache takes (once per version of the art, at the bot's
first start, in the background).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile

FAMILIES = {
    "carcassonne": ("carcassonne", ()),
    "abbey_mayor": ("carcassonne", ("abbey_mayor",)),
    "hunters": ("hunters", ()),
    "castle": ("castle", ()),
}

PROBE = """
import json, random, sys, time
started = time.perf_counter()
from pathlib import Path
from engine import Game, Pass, Setup
from renderer import artcache
from renderer.phone import turn_picture
from renderer.render import render_board
from renderer.options import RenderOptions
game_name, expansions, folder = sys.argv[1], tuple(json.loads(sys.argv[2])), sys.argv[3]
imported = time.perf_counter()
loaded = 0.0
if folder:
    artcache.enable(Path(folder))
    assert artcache.load(), "the cache is missing"
    loaded = time.perf_counter() - imported
game = Game(Setup(players=("a", "b"), seed=3, game=game_name, expansions=expansions))
rng = random.Random(1)
for _ in range(30):
    if game.finished:
        break
    game.play(rng.choice(game.legal_placements()) if game.phase.value == "tile" else Pass())
before = time.perf_counter()
turn_picture(game, RenderOptions())
first = time.perf_counter() - before
before = time.perf_counter()
render_board(game, RenderOptions())
board = time.perf_counter() - before
print(json.dumps({"load_s": loaded, "first_turn_picture_s": first, "then_board_s": board}))
"""


def probe(game: str, expansions: tuple[str, ...], folder: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, game, json.dumps(expansions), folder],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        built = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, engine; from pathlib import Path; from renderer import artcache; "
                "print(artcache.warm(Path(sys.argv[1]))[1])",
                folder,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        print(json.dumps({"cache_build_s": round(float(built.stdout.split()[-1]), 2)}))
        for name, (game, expansions) in FAMILIES.items():
            rows = {
                label: [probe(game, expansions, where) for _ in range(3)]
                for label, where in (("cold", ""), ("cached", folder))
            }
            summary = {
                f"{label}_{key}": round(statistics.median(r[key] for r in runs) * 1000)
                for label, runs in rows.items()
                for key in ("first_turn_picture_s", "then_board_s")
            }
            summary["cache_load_ms"] = round(
                statistics.median(r["load_s"] for r in rows["cached"]) * 1000
            )
            print(
                json.dumps(
                    {"family": name, **{k.replace("_s", "_ms"): v for k, v in summary.items()}}
                )
            )


if __name__ == "__main__":
    main()
