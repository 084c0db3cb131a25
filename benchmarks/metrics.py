"""What the metrics cost a move, in CPU (run: ``python -m benchmarks.metrics [--runs 2]``).

A child process plays moves through the game manager on a SQLite file, as the bot does (each
move one ``play_turn``: the game's lock, the rules, the write), with metrics recorded
(:func:`bot.metrics.enable`) or not; per move it also records the picture metric of its turn
message (the same code as :mod:`bot.ui.images` runs around a drawing, without the drawing).

By instruction count (valgrind's callgrind, when installed): each variant runs under callgrind
with ``--short`` moves and with ``--long`` moves; the difference divided by the moves between
cancels the start-up, so instructions per move are exact up to the machine's noise. The metrics'
instructions per move (with minus without) are turned into microseconds with this machine's
speed on the same moves, measured natively (CPU time per instruction). Each variant runs
``--runs`` times; the figures are the range over the runs.

Without valgrind (or ``--timer``): CPU time (``time.process_time``) of the moves in runs with and
without metrics, interleaved, giving the range of the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: What the issue allows the metrics per move, in microseconds of CPU.
BUDGET_US = 50.0


async def play(moves: int, on: bool, folder: Path) -> float:
    """Play ``moves`` moves (new games as games end); the CPU seconds of the moves alone."""
    from bot import metrics
    from bot.manager import GameManager
    from engine import Pass

    metrics.enable(on)
    manager = await GameManager.open(str(folder / "games.sqlite3"))
    rng = random.Random(1)
    seeds = iter(range(1, 1 << 20))

    async def new_game() -> object:
        row = await manager.lobbies.create_lobby(1, "A", channel_id=1)
        await manager.lobbies.join(row.id, 2, "B")
        return await manager.lobbies.start(row.id, 1, seed=next(seeds))

    try:
        view = await new_game()
        await asyncio.sleep(0)
        start = time.process_time()
        for _ in range(moves):
            if view.finished:  # type: ignore[attr-defined]
                view = await new_game()
            if view.phase == "tile":  # type: ignore[attr-defined]
                placements = view.placements  # type: ignore[attr-defined]
                action = placements[rng.randrange(len(placements))]
            else:
                figures = view.figures  # type: ignore[attr-defined]
                pick = rng.randrange(len(figures) + 1)
                action = figures[pick] if pick < len(figures) else Pass()
            result = await manager.play_turn(
                view.game_id,  # type: ignore[attr-defined]
                view.user_id,  # type: ignore[attr-defined]
                action,
                turn=view.turn,  # type: ignore[attr-defined]
            )
            with metrics.picture("turn"):
                pass
            view = result.view
        return time.process_time() - start
    finally:
        await manager.close()


def child(moves: int, on: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        seconds = asyncio.run(play(moves, on, Path(folder)))
    print(json.dumps({"cpu": seconds}))


def run_child(moves: int, on: bool, valgrind: bool) -> tuple[float, int | None]:
    """(CPU seconds of the moves, instructions of the whole process under callgrind or None)."""
    command = [sys.executable, "-m", "benchmarks.metrics", "--child", str(moves)]
    command += ["--on"] if on else []
    if not valgrind:
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        return json.loads(done.stdout.splitlines()[-1])["cpu"], None
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])["cpu"], int(found[1])


def by_instructions(short: int, long: int, runs: int) -> None:
    between = long - short
    per_move: dict[bool, list[float]] = {False: [], True: []}
    for run in range(runs):
        for on in (False, True):
            counts = [run_child(n, on, valgrind=True)[1] for n in (short, long)]
            assert counts[0] is not None and counts[1] is not None
            per_move[on].append((counts[1] - counts[0]) / between)
            print(
                f"  run {run + 1}, metrics {'on ' if on else 'off'}: "
                f"{per_move[on][-1]:,.0f} instructions per move",
                flush=True,
            )
    # This machine's speed on the same moves, without valgrind: CPU seconds per instruction.
    native = [run_child(long, False, valgrind=False)[0] / long for _ in range(3)]
    seconds_per_instruction = min(native) / min(per_move[False])
    extra = [on - off for on in per_move[True] for off in per_move[False]]
    low, high = min(extra), max(extra)
    us = [x * seconds_per_instruction * 1e6 for x in (low, high)]
    print(f"moves between the short and the long runs: {between}, {runs} run(s) per variant")
    print(f"a move without metrics: {min(per_move[False]):,.0f} instructions, ", end="")
    print(f"{min(native) * 1e6:.0f} µs of CPU natively")
    counted = f"{low:,.0f} to {high:,.0f} instructions"
    print(f"metrics per move: {counted} = {us[0]:.1f} to {us[1]:.1f} µs")
    verdict = "within" if us[1] <= BUDGET_US else "OVER"
    print(f"budget {BUDGET_US:.0f} µs per move: {verdict}")


def by_timer(moves: int, runs: int) -> None:
    off: list[float] = []
    on: list[float] = []
    for _ in range(runs):
        off.append(run_child(moves, False, valgrind=False)[0] / moves)
        on.append(run_child(moves, True, valgrind=False)[0] / moves)
    diffs = sorted(b - a for a, b in zip(off, on, strict=True))
    print(f"{moves} moves per run, {runs} interleaved runs per variant (CPU time)")
    print(f"a move without metrics: {min(off) * 1e6:.0f} to {max(off) * 1e6:.0f} µs")
    print(f"a move with metrics: {min(on) * 1e6:.0f} to {max(on) * 1e6:.0f} µs")
    print(
        f"metrics per move: {diffs[0] * 1e6:.1f} to {diffs[-1] * 1e6:.1f} µs "
        f"(median {diffs[len(diffs) // 2] * 1e6:.1f}); budget {BUDGET_US:.0f} µs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--on", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--short", type=int, default=50, help="moves of the short runs")
    parser.add_argument("--long", type=int, default=250, help="moves of the long runs")
    parser.add_argument("--runs", type=int, default=2, help="runs of each variant")
    parser.add_argument("--timer", action="store_true", help="CPU time, not instructions")
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.on)
        return
    if not 0 < args.short < args.long:
        parser.error("--short must be a positive number of moves below --long")
    if args.timer or shutil.which("valgrind") is None:
        if not args.timer:
            print("valgrind is not installed: measuring CPU time instead of instructions")
        by_timer(args.long * 4, max(args.runs, 5))
        return
    print("instructions counted by valgrind's callgrind (each run takes a minute or more)")
    by_instructions(args.short, args.long, args.runs)


if __name__ == "__main__":
    main()
