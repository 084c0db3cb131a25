"""Matches between players: ``python -m ai arena --a hard --b greedy --games 200 --players 2``.

Each deal (a seed) is played from every seat arrangement: with 2 players twice, seats swapped;
with more, ``--a`` takes each seat in turn against ``--b`` in all the others. ``--games`` counts
games (200 games of 2 players = 100 deals x 2). A win shared by k players counts 1/k (a draw of
two is half a win). Printed: the win share of ``--a`` with its Wilson 95 % interval, the mean
score difference (``--a`` minus the best other seat) with its standard error, and ``--a``'s
seconds per decision (median, p95), measured in the same run, wall time and the CPU time of
its own thread (one core's work, what a loaded machine does not change much).

With ``--stop-at SHARE``, a long match stops early once the answer is clear: after at least
``--min-games`` games, as soon as the 99 % Wilson interval of ``--a``'s win share lies wholly
above or wholly below ``SHARE`` (checked after each whole deal; the stricter interval pays for
looking many times). The summary says whether it stopped early.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ai import review
from ai.levels import PLAYERS, make_player
from engine import Game, Setup
from engine.cli import parse_option


@dataclass(frozen=True)
class Match:
    a: str
    b: str
    players: int
    game: str = "carcassonne"
    expansions: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    #: Switch the players' wall-time guard off (the expert's): each decision then searches its
    #: whole budget, so a loaded machine cannot weaken it and strength is measured alike
    #: anywhere; the time a decision takes is still measured (its CPU time answers the target).
    unguarded: bool = False


@dataclass(frozen=True)
class Outcome:
    share: float  # --a's share of the win (1, 1/k, or 0)
    margin: int  # --a's score minus the best other seat's
    seconds: tuple[float, ...]  # --a's time per decision
    cpu: tuple[float, ...] = ()  # --a's CPU time per decision (its thread's)
    guarded: int = 0  # --a's decisions cut short by its wall-time guard (the expert's)


def seated(match: Match, deal: int, a_seat: int) -> list[Any]:
    """The players of deal ``deal``, ``--a`` in seat ``a_seat``, guards off if the match says so."""
    seats = [
        make_player(match.a if s == a_seat else match.b, seed=deal * 10 + s)
        for s in range(match.players)
    ]
    if match.unguarded:
        for player in seats:
            if hasattr(player, "guard_seconds"):
                player.guard_seconds = math.inf
    return seats


def play_one(match: Match, deal: int, a_seat: int) -> Outcome:
    """One game of deal ``deal`` with ``--a`` in seat ``a_seat``."""
    names = tuple(f"P{i + 1}" for i in range(match.players))
    setup = Setup(
        players=names,
        seed=deal,
        game=match.game,
        expansions=match.expansions,
        options=dict(match.options),
    )
    game = Game(setup)
    seats = seated(match, deal, a_seat)
    seconds: list[float] = []
    cpu: list[float] = []
    while not game.finished:
        seat = game.actor
        started, worked = time.perf_counter(), time.thread_time()
        action = seats[seat].choose(game, seat)
        if seat == a_seat:
            seconds.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - worked)
        game.play(action)
    winners = game.winners
    share = 1 / len(winners) if a_seat in winners else 0.0
    others = max(s for p, s in enumerate(game.scores) if p != a_seat)
    stats = getattr(seats[a_seat], "stats", None)
    guarded = int(getattr(stats, "guarded", 0))
    return Outcome(share, game.scores[a_seat] - others, tuple(seconds), tuple(cpu), guarded)


def wilson(successes: float, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if total == 0:
        return 0.0, 1.0
    p = successes / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    scale = 1 + z * z / total
    return (centre - spread) / scale, (centre + spread) / scale


def _job(args: tuple[Match, int, int]) -> Outcome:
    return play_one(*args)


def run(
    match: Match,
    games: int,
    seed: int,
    jobs: int = 1,
    log: Path | None = None,
    stop_at: float | None = None,
    min_games: int = 100,
) -> dict[str, Any]:
    """Play ``games`` games (whole deals from every seat) and summarise them. With ``log``,
    each game is appended to that file as it ends (one JSON line), and the games of this match
    already there are read back instead of played again: a long match stopped halfway
    resumes where it stopped. With ``stop_at``, the match ends early once the answer is clear
    (:func:`clear`), the deals played in order."""
    deals = max(1, games // match.players)
    tasks = [(match, seed + d, s) for d in range(deals) for s in range(match.players)]
    done = _logged(match, log) if log is not None else {}
    stopped = False
    with ExitStack() as stack:
        pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs)) if jobs > 1 else None
        out = stack.enter_context(log.open("a", encoding="utf-8")) if log is not None else None
        if log is not None and out is not None and out.tell() and not _ends_a_line(log):
            out.write("\n")  # after a line cut short
        pending: deque[tuple[tuple[Match, int, int], Future[Outcome] | None]] = deque()
        upcoming = iter(tasks)
        ahead = 2 * max(1, jobs)
        played: list[Outcome] = []
        while True:
            while len(pending) < ahead and (task := next(upcoming, None)) is not None:
                if task[1:] in done:
                    pending.append((task, None))
                else:
                    pending.append((task, pool.submit(_job, task) if pool else None))
            if not pending:
                break
            (_, deal, seat), future = pending.popleft()
            if (deal, seat) not in done:
                outcome = future.result() if future is not None else _job((match, deal, seat))
                done[deal, seat] = outcome
                if out is not None:
                    line = {"match": asdict(match), "deal": deal, "seat": seat, **asdict(outcome)}
                    out.write(json.dumps(line) + "\n")
                    out.flush()
            played.append(done[deal, seat])
            whole_deal = seat == match.players - 1
            if stop_at is not None and whole_deal and clear(played, stop_at, min_games):
                stopped = len(played) < len(tasks)
                for _, rest in pending:
                    if rest is not None:
                        rest.cancel()
                break
    result = summary(match, played)
    if stop_at is not None:
        result["stopped_early"] = stopped
    return result


def clear(outcomes: Sequence[Outcome], share: float, min_games: int) -> bool:
    """Whether ``outcomes`` (at least ``min_games``) tell a win share above ``share`` from one
    below it: the 99 % Wilson interval lies wholly on one side."""
    if len(outcomes) < min_games:
        return False
    low, high = wilson(sum(o.share for o in outcomes), len(outcomes), z=2.576)
    return low >= share or high < share


def _ends_a_line(log: Path) -> bool:
    with log.open("rb") as file:
        file.seek(-1, 2)
        return file.read(1) == b"\n"


def _logged(match: Match, log: Path) -> dict[tuple[int, int], Outcome]:
    """The games of ``match`` already in ``log`` (none if it does not exist yet). A line cut
    short (the run stopped while writing it) is skipped: that game is played again."""
    found: dict[tuple[int, int], Outcome] = {}
    if not log.exists():
        return found
    key = json.loads(json.dumps(asdict(match)))
    for text in log.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(line, dict) and line.get("match") == key:
            seconds, cpu = tuple(line["seconds"]), tuple(line.get("cpu", ()))
            found[line["deal"], line["seat"]] = Outcome(line["share"], line["margin"], seconds, cpu)
    return found


def summary(match: Match, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    total = len(outcomes)
    wins = sum(o.share for o in outcomes)
    low, high = wilson(wins, total)
    margins = [o.margin for o in outcomes]
    seconds = sorted(t for o in outcomes for t in o.seconds)
    cpu = sorted(t for o in outcomes for t in o.cpu)
    return {
        "a": match.a,
        "b": match.b,
        "game": match.game,
        "expansions": list(match.expansions),
        "options": dict(match.options),
        "players": match.players,
        "games": total,
        "win_share": round(wins / total, 4),
        "wilson_95": [round(low, 4), round(high, 4)],
        "mean_margin": round(statistics.fmean(margins), 2),
        "margin_stderr": round(statistics.stdev(margins) / math.sqrt(total), 2) if total > 1 else 0,
        "seconds_per_decision_median": _quantile(seconds, 0.5),
        "seconds_per_decision_p95": _quantile(seconds, 0.95),
        "cpu_per_decision_median": _quantile(cpu, 0.5),
        "cpu_per_decision_p95": _quantile(cpu, 0.95),
        "decisions": len(seconds),
        "guard_stops": sum(o.guarded for o in outcomes),
    }


def _quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of the sorted ``ordered`` (0 if empty), rounded."""
    if not ordered:
        return 0
    if q == 0.5:
        return round(statistics.median(ordered), 4)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 4)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    arena = commands.add_parser("arena", help="play matches between two players")
    arena.add_argument("--a", required=True, choices=PLAYERS)
    arena.add_argument("--b", required=True, choices=PLAYERS)
    arena.add_argument("--games", type=int, default=200)
    arena.add_argument("--players", type=int, default=2)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--game", default="carcassonne")
    arena.add_argument("--expansion", action="append", default=[])
    arena.add_argument("--option", action="append", type=parse_option, default=[])
    arena.add_argument("--jobs", type=int, default=1)
    arena.add_argument(
        "--log", type=Path, help="append each game to this file, and resume from the games in it"
    )
    arena.add_argument(
        "--stop-at", type=float, help="stop once the win share is clearly above or below this"
    )
    arena.add_argument("--min-games", type=int, default=100)
    arena.add_argument(
        "--no-guard",
        action="store_true",
        help="switch the expert's wall-time guard off: the whole budget searched at any load",
    )
    review.add_command(commands)
    args = parser.parse_args(argv)
    if args.command == "review":
        return review.run_command(args)
    match = Match(
        args.a,
        args.b,
        args.players,
        args.game,
        tuple(args.expansion),
        tuple(sorted(dict(args.option).items())),
        unguarded=args.no_guard,
    )
    result = run(match, args.games, args.seed, args.jobs, args.log, args.stop_at, args.min_games)
    print(json.dumps(result, indent=1))
    return 0
