"""The checks of :mod:`benchmarks.cluster`, once its processes stopped: everything stored is
replayed through the engine and held against what the players were told and the notices posted.

- illegal: a stored game whose record no longer plays, or whose summary (action count, turn)
  is not its log's;
- lost: a move answered ``ok`` that is not stored; duplicated: one stored twice, or two answers
  ``ok`` for one position; misplaced: one stored elsewhere than the position it was answered at,
  or with another action;
- contradicted: a move answered as not played (a refusal, or an error: "nothing was played")
  that is stored; answers ``unsure`` are counted, either way is true for them;
- notices: posted twice; owed and never sent (claimed, not marked sent); deadlines due before
  the drain that never fired; a stored timeout not announced, or one announced that is not
  stored.

An attempt's action is found among the stored ones by its time (each attempt ran on a clock of
its own, see :mod:`benchmarks.cluster_players`), so nothing is matched by guess.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import asyncpg

from bot.live import replay
from bot.storage import TIMEOUT_POLICIES
from bot.storage.postgres import open_postgres

#: The counts that must be zero.
FAULTS = (
    "lost",
    "duplicated",
    "misplaced",
    "illegal",
    "contradicted",
    "notices_twice",
    "notices_missed",
)


async def verify(url: str, folder: Path, drained_at: float) -> dict[str, Any]:
    storage = await open_postgres(url)
    examples: dict[str, list[Any]] = defaultdict(list)
    counts: Counter[str] = Counter()
    stored: dict[tuple[int, float], list[tuple[int, int, int, dict[str, Any]]]] = {}
    timeouts: set[tuple[int, int]] = set()
    try:
        conn = await asyncpg.connect(url)
        try:
            ids = [r["id"] for r in await conn.fetch("SELECT id FROM games ORDER BY id")]
            notices = await conn.fetch("SELECT game_id, kind, turn, sent_at FROM notices")
            overdue = await conn.fetchval(
                "SELECT count(*) FROM deadlines d JOIN games g ON g.id = d.game_id "
                "WHERE d.done_at IS NULL AND d.paused_at IS NULL AND d.due_at < $1 "
                "AND g.status = 'active'",
                drained_at,
            )
        finally:
            await conn.close()
        for game_id in ids:
            row = await storage.get_game(game_id)
            actions = await storage.get_actions(game_id)
            if row is None or row.seed is None:
                continue
            counts["games"] += 1
            try:
                game = replay(row, actions)
                positions = [a.idx for a in actions] == list(range(len(actions)))
                if not positions or row.action_count != len(actions) or row.turn != game.turn:
                    raise ValueError("its summary and its log differ")
            except ValueError as error:
                counts["illegal"] += 1
                examples["illegal"].append([game_id, str(error)])
            for a in actions:
                if a.forced is None:
                    counts["stored_moves"] += 1
                    key = (game_id, a.created_at)
                    stored.setdefault(key, []).append((a.idx, a.turn, a.seat, a.action))
                elif a.forced in TIMEOUT_POLICIES:
                    timeouts.add((game_id, a.turn))
    finally:
        await storage.close()
    _answers(folder, stored, counts, examples)
    _notices(folder, notices, int(overdue), timeouts, counts, examples)
    report: dict[str, Any] = {name: counts[name] for name in FAULTS}
    report.update(
        games=counts["games"],
        stored_moves=counts["stored_moves"],
        timeouts=len(timeouts),
        answers={k.removeprefix("answer_"): v for k, v in counts.items() if k[:7] == "answer_"},
        resent=counts["resent"],
        unanswered=counts["unanswered"],
        acknowledged_by_process=dict(sorted(_by_process(folder).items())),
        notices_posted=counts["notices_posted"],
        examples={k: v[:5] for k, v in examples.items()},
    )
    return report


def _answers(
    folder: Path,
    stored: dict[tuple[int, float], list[tuple[int, int, int, dict[str, Any]]]],
    counts: Counter[str],
    examples: dict[str, list[Any]],
) -> None:
    """Every answer a player got, against the stored moves."""
    acked: Counter[tuple[int, int]] = Counter()
    moves: Counter[tuple[int, int, int, str]] = Counter()
    for log in sorted(folder.glob("attempts-*.log")):
        sent: set[str] = set()
        for line in log.read_text().splitlines():
            fields = json.loads(line)
            kind, name, game_id, turn, _, seat, _, data, at_time = fields[:9]
            if kind == "sent":
                sent.add(name)
                continue
            sent.discard(name)
            counts[f"answer_{kind}"] += 1
            move = (game_id, turn, seat, json.dumps(data, sort_keys=True))
            counts["resent"] += moves[move] > 0
            moves[move] += 1
            found = stored.get((game_id, at_time), [])
            if kind == "ok":
                at = fields[9]
                acked[(game_id, at)] += 1
                if not found:
                    counts["lost"] += 1
                    examples["lost"].append(fields)
                elif len(found) > 1:
                    counts["duplicated"] += 1
                    examples["duplicated"].append(fields)
                elif found[0] != (at, turn, seat, data):
                    counts["misplaced"] += 1
                    examples["misplaced"].append([fields, found[0]])
            elif kind in ("refused", "failed") and found:
                counts["contradicted"] += 1
                examples["contradicted"].append([fields, found])
        counts["unanswered"] += len(sent)  # in flight when their process was killed
    twice = sum(n - 1 for n in acked.values() if n > 1)
    counts["duplicated"] += twice


def _by_process(folder: Path) -> dict[str, int]:
    return {
        log.stem.removeprefix("attempts-"): sum(
            1 for line in log.read_text().splitlines() if line.startswith('["ok"')
        )
        for log in folder.glob("attempts-*.log")
    }


def _notices(
    folder: Path,
    notices: list[Any],
    overdue: int,
    timeouts: set[tuple[int, int]],
    counts: Counter[str],
    examples: dict[str, list[Any]],
) -> None:
    files = [f.name for f in (folder / "notices").iterdir()]
    twice = [name for name in files if name.startswith("duplicate-")]
    posted = set(files) - set(twice)
    counts["notices_posted"] = len(posted)
    counts["notices_twice"] = len(twice)
    examples["notices_twice"] = sorted(twice)
    never = sorted(f"{r['kind']}-{r['game_id']}-{r['turn']}" for r in notices if not r["sent_at"])
    announced = {
        (int(g), int(t)) for kind, g, t in (n.split("-") for n in posted) if kind == "timeout"
    }
    unannounced = sorted(timeouts - announced)
    untrue = sorted(announced - timeouts)
    counts["notices_missed"] = len(never) + overdue + len(unannounced) + len(untrue)
    examples["notices_missed"] = [*never, *unannounced, *untrue, *(["overdue"] * overdue)]
