"""Strength and speed of the computer players: the table of the AI issues, one JSON line per
match (run: python -m benchmarks.ai [--games N] [--jobs 2] [--only NAME ...] [--log FILE]).

Each match is ``python -m ai arena`` with the same settings: deals played from every seat, win
share of the first player with its Wilson 95 % interval, mean score margin with its standard
error, and the first player's seconds per decision (median, p95: wall time, and the CPU time of
its own thread, one core's work) measured in the same games.

The expert level's rows (``expert-*``) stop early once their answer is clear
(:func:`ai.arena.clear`: the 99 % interval wholly above or below the target share, after half
the games): each row then takes at most about 90 minutes on the 2 cores. ``--log`` resumes a
row stopped halfway. Their opponents are the levels of this commit; greedy is pinned (its
decisions on fixed deals are checked by ``tests/ai/test_pinned_greedy.py``). They are played on
deals from 1 up, never used to tune the expert (tuned on deals from 900001). ``--no-guard``
switches the expert's wall-time guard off, so that a loaded machine cannot cut its search
short (its CPU time per decision is still measured).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from pathlib import Path

from ai.arena import Match, run

CLASSIC = (("farmers", "classic"),)
#: Games per match, unless ``--games`` says otherwise.
GAMES = 200
#: ... but these rows play more. The 4-player row plays 800 (deals 1-200, the 200 games' deals
#: 1-50 first): its target, a win share of 50 %, lies inside the 95 % interval of 200 games
#: (about ± 7 points), so 200 games cannot tell a level that meets it from one that misses it
#: by a few points. With 800 the interval is about ± 3.5. The other rows' results lie far from
#: their targets. The hard level against three greedy players, before it weighed the next
#: player's reply (one ply until the endgame): 49.1 % (45.7-52.6) over 800, 47.9 % over the
#: first 200; with the reply (:data:`ai.players.REPLY_TURNS`), 52.3 % (48.8-55.7) over 800.
#: The reply costs time: this row takes about 90 minutes with 2 jobs (25 before).
ROW_GAMES = {"hard-greedy-am-4p": 800}
TABLE: dict[str, tuple[Match, str]] = {
    "hard-greedy": (Match("hard", "greedy", 2, options=CLASSIC), ">= 88 %, CI low >= 82 %, +27"),
    "medium-greedy": (Match("medium", "greedy", 2, options=CLASSIC), ">= 70 %"),
    "easy-random": (Match("easy", "random", 2, options=CLASSIC), ">= 95 %"),
    "hard-medium": (Match("hard", "medium", 2, options=CLASSIC), ">= 60 %"),
    "medium-easy": (Match("medium", "easy", 2, options=CLASSIC), ">= 60 %"),
    "hard-greedy-3p": (Match("hard", "greedy", 3, options=CLASSIC), "win share >= 60 %"),
    "hard-greedy-am-4p": (
        Match("hard", "greedy", 4, expansions=("abbey_mayor",), options=CLASSIC),
        "win share >= 50 %",
    ),
    "hard-greedy-hunters": (Match("hard", "greedy", 2, game="hunters"), ">= 75 %"),
    "hard-greedy-castle": (Match("hard", "greedy", 2, game="castle"), ">= 75 %"),
    "expert-hard": (
        Match("expert", "hard", 2, options=CLASSIC),
        "win share >= 65 %, 95 % CI low >= 60 %",
    ),
    "expert-greedy": (Match("expert", "greedy", 2, options=CLASSIC), ">= 96 %"),
    "expert-greedy-am-4p": (
        Match("expert", "greedy", 4, expansions=("abbey_mayor",), options=CLASSIC),
        "win share >= 60 %",
    ),
    "expert-hard-bigbox-4p": (
        Match(
            "expert",
            "hard",
            4,
            expansions=("abbey_mayor", "inns_cathedrals", "traders_builders", "river"),
            options=CLASSIC,
        ),
        "win share >= 35 % (parity 25 %)",
    ),
    "expert-hard-hunters": (Match("expert", "hard", 2, game="hunters"), ">= 60 %"),
    "expert-hard-castle": (Match("expert", "hard", 2, game="castle"), ">= 60 %"),
}
#: The expert rows' games and the win share each stops early against (:func:`ai.arena.clear`).
EXPERT_GAMES = {
    "expert-hard": (400, 0.65),
    "expert-greedy": (200, 0.96),
    "expert-greedy-am-4p": (400, 0.60),
    "expert-hard-bigbox-4p": (200, 0.35),
    "expert-hard-hunters": (200, 0.60),
    "expert-hard-castle": (200, 0.60),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--games", type=int, help=f"games per match (default {GAMES}, or ROW_GAMES: {ROW_GAMES})"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", nargs="*", choices=sorted(TABLE), help="these matches only")
    parser.add_argument(
        "--log",
        type=Path,
        help="append each game to this file, and resume from the games in it (a long row that"
        " stopped halfway goes on where it stopped)",
    )
    parser.add_argument(
        "--no-guard",
        action="store_true",
        help="switch the expert's wall-time guard off (ai.arena.Match.unguarded): each decision"
        " searches its whole budget however loaded the machine, and its CPU time is still measured",
    )
    args = parser.parse_args()
    for name in args.only or TABLE:
        match, target = TABLE[name]
        if args.no_guard:
            match = dataclasses.replace(match, unguarded=True)
        started = time.perf_counter()
        full, stop_at = EXPERT_GAMES.get(name, (ROW_GAMES.get(name, GAMES), None))
        games = args.games or full
        result = run(match, games, args.seed, args.jobs, args.log, stop_at, games // 2)
        result.update(match=name, target=target, wall_seconds=round(time.perf_counter() - started))
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
