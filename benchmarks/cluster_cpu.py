"""The CPU time per stored move of ``benchmarks.cluster --fast``, this build against another.

    python -m benchmarks.cluster_cpu --before OTHER_CHECKOUT [--runs 5] [--games 300]
                                     [--moves 10000]

Runs the fast mode of the cluster benchmark in this checkout and in ``--before`` (a checkout of
another build, its engine compiled as this one's), in turn, ``--runs`` times each, and measures
the CPU time of each run's whole process tree (the driver, the bot processes, the PostgreSQL
server: everything a stored move costs), divided by the moves it stored. A build whose cluster
benchmark has no ``--fast`` runs its equivalent, ``--seconds 0 --kill-every 0``. Prints each
run, then the medians and their ratio (this build's over the other's).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def command(checkout: Path, games: int, moves: int) -> list[str]:
    base = [sys.executable, "-m", "benchmarks.cluster"]
    shown = subprocess.run(
        [*base, "--help"], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout
    fast = ["--fast"] if "--fast" in shown else ["--seconds", "0", "--kill-every", "0"]
    return [*base, *fast, "--games", str(games), "--moves", str(moves)]


def once(checkout: Path, games: int, moves: int) -> tuple[float, int]:
    """CPU seconds of one run's process tree, and the moves it stored."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        command(checkout, games, moves), cwd=checkout, capture_output=True, text=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"the run in {checkout} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    out = done.stdout
    report = json.loads(out[out.index("\n{") + 1 : out.rindex("}") + 1])
    seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, int(report["stored_moves"])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", type=Path, required=True, help="the other build's checkout")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=10_000)
    args = parser.parse_args()
    builds = {"before": args.before.resolve(), "this": HERE}
    per_move: dict[str, list[float]] = {name: [] for name in builds}
    for run in range(args.runs):
        for name, checkout in builds.items():
            seconds, moves = once(checkout, args.games, args.moves)
            per_move[name].append(1000 * seconds / moves)
            print(
                f"run {run + 1} {name:6} {seconds:6.1f} s CPU, {moves} moves stored: "
                f"{per_move[name][-1]:.3f} ms a move",
                flush=True,
            )
    medians = {name: statistics.median(values) for name, values in per_move.items()}
    print(
        f"median ms of CPU per stored move: before {medians['before']:.3f}, "
        f"this {medians['this']:.3f}, ratio {medians['this'] / medians['before']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
