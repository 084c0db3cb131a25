"""Command line: ``python -m engine replay RECORD.json`` (a record, or a running game's position)
and ``python -m engine simulate``."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from engine.core.actions import Action, MoveWagon, Pass, PlaceAbbey, UseWallTile
from engine.core.errors import GameError, IllegalActionError
from engine.core.events import FeatureScored
from engine.core.game import Game, new_game
from engine.core.position import game_from_position, is_position
from engine.core.record import MAX_RECORD_BYTES, RecordError, read_record
from engine.core.setup import OPTIONS, Setup
from engine.core.turn import Phase

#: The command's description (a compiled module keeps no ``__doc__``).
DESCRIPTION = "Replay a game record or a running game's position, or play random legal games."


def replay_output(record: Any) -> tuple[int, dict[str, Any]]:
    """Replay a record, or rebuild a running game's position (format 2); return (exit status,
    the JSON object to print)."""
    if is_position(record):
        return position_output(record)
    try:
        setup = Setup.from_json(record)
        game = new_game(setup)
    except GameError as error:
        return 2, {"error": str(error), "action": None}
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        return 2, {"error": "'actions' must be a list", "action": None}
    from engine.core.actions import action_from_json

    names = setup.players
    events: list[dict[str, Any]] = []
    for index, raw in enumerate(actions):
        try:
            action = action_from_json(raw)
        except GameError as error:
            return 2, {"error": str(error), "action": index}
        try:
            happened = game.play(action)
        except IllegalActionError as error:
            return 1, {"error": str(error), "action": index}
        except GameError as error:
            return 2, {"error": str(error), "action": index}
        events.extend(score_events(happened, names))
    scores = {names[p]: s for p, s in enumerate(game.scores)}
    return 0, {"scores": scores, "finished": game.finished, "events": events}


def position_output(position: Any) -> tuple[int, dict[str, Any]]:
    """Rebuild a position's public state (never drawing a tile, never scoring the end): the
    scores, ``"finished": false`` and its scoring events, as :func:`replay_output` prints."""
    events: list[Any] = []
    try:
        game = game_from_position(position, events)
    except IllegalActionError as error:
        return 1, {"error": str(error), "action": getattr(error, "action_index", None)}
    except GameError as error:
        return 2, {"error": str(error), "action": getattr(error, "action_index", None)}
    names = game.setup.players
    scores = {names[p]: s for p, s in enumerate(game.scores)}
    return 0, {"scores": scores, "finished": game.finished, "events": score_events(events, names)}


def score_events(events: list[Any], names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The record contract's score events; a feature's marks follow as fields set to true
    (``"inn": true``, ``"cathedral": true``), only when it has some, so that the output of a
    game without them keeps the contract's shape byte for byte."""
    out = []
    for event in events:
        if isinstance(event, FeatureScored):
            for player, points in sorted(event.points.items()):
                scored: dict[str, Any] = {
                    "type": "score",
                    "player": names[player],
                    "feature": event.feature,
                    "points": points,
                    "final": event.final,
                }
                scored.update(dict.fromkeys(event.marks, True))
                out.append(scored)
    return out


def random_action(game: Game, rng: random.Random) -> Action:
    """One uniformly random legal action for the decision at hand."""
    if game.phase is Phase.TILE:
        view = game.legal_placements()
        others: list[Action] = [*game.legal(PlaceAbbey), *game.legal(UseWallTile)]
        count = len(view)
        pick = rng.randrange(count + len(others))
        return view[pick] if pick < count else others[pick - count]
    options: list[Action] = []
    if game.phase is Phase.FIGURE:
        options.extend(game.legal_figures())
        options.extend(game.legal(UseWallTile))
    elif game.phase is Phase.WAGON:
        options.extend(game.legal(MoveWagon))
    elif game.phase is Phase.ABBEY_END:
        options.extend(game.legal(PlaceAbbey))
    pick = rng.randrange(len(options) + 1)
    return options[pick] if pick < len(options) else Pass()


def play_random(game: Game, rng: random.Random) -> int:
    """Play random legal moves (random placement, random figure or pass) to the end."""
    actions = 0
    while game.phase is not Phase.OVER:
        game.play(random_action(game, rng))
        actions += 1
    return actions


def parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"options are written NAME=VALUE, got {text!r}")
    name, value = text.split("=", 1)
    lowered = value.lower()
    if lowered in ("true", "false"):
        return name, lowered == "true"
    return name, value


def simulate(args: argparse.Namespace) -> dict[str, Any]:
    names = tuple(f"P{i + 1}" for i in range(args.players))
    options = dict(args.option or [])
    totals: list[int] = []
    times: list[float] = []
    turns: list[int] = []
    discarded = 0
    first_record: dict[str, Any] | None = None
    for index in range(args.games):
        setup = Setup(
            players=names,
            game=args.game,
            seed=args.seed + index,
            expansions=tuple(args.expansion or ()),
            options=options,
        )
        rng = random.Random(f"simulate:{args.seed + index}")
        started = time.perf_counter()
        game = new_game(setup)
        play_random(game, rng)
        times.append((time.perf_counter() - started) * 1000)
        totals.extend(game.scores)
        turns.append(game.turn)
        discarded += len(game.discarded)
        if first_record is None:
            first_record = game.record()
    if args.record and first_record is not None:
        with open(args.record, "w", encoding="utf-8") as out:
            json.dump(first_record, out, indent=1)
    return {
        "games": args.games,
        "game": args.game,
        "players": args.players,
        "seed": args.seed,
        "expansions": list(args.expansion or []),
        "options": options,
        "mean_score": round(statistics.fmean(totals), 2) if totals else 0,
        "max_score": max(totals, default=0),
        "mean_turns": round(statistics.fmean(turns), 2) if turns else 0,
        "discarded_tiles": discarded,
        "median_ms_per_game": round(statistics.median(times), 3) if times else 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay", help="replay a game record, or a running game's position, and print the scores"
    )
    replay.add_argument("record", help="path to a game record (or position) JSON file")
    sim = commands.add_parser("simulate", help="play random legal games")
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--game", default="carcassonne", help="carcassonne, hunters or castle")
    sim.add_argument("--expansion", action="append", help="e.g. abbey_mayor")
    sim.add_argument(
        "--option",
        action="append",
        type=parse_option,
        help=f"NAME=VALUE, e.g. farmers=modern (known: {', '.join(OPTIONS['carcassonne'])})",
    )
    sim.add_argument("--record", help="write the first game's record to this file")
    args = parser.parse_args(argv)
    if args.command == "replay":
        try:
            with open(args.record, "rb") as source:
                record = read_record(source.read(MAX_RECORD_BYTES + 1), positions=True)
        except OSError as error:
            print(json.dumps({"error": f"cannot read the record: {error}", "action": None}))
            return 2
        except RecordError as error:
            print(json.dumps({"error": f"cannot read the record: {error}", "action": None}))
            return 2
        status, output = replay_output(record)
        print(json.dumps(output))
        return status
    if args.games < 1 or not 1 <= args.players <= 6:
        print(json.dumps({"error": "need --games >= 1 and --players between 1 and 6"}))
        return 2
    try:
        summary = simulate(args)
    except GameError as error:
        print(json.dumps({"error": str(error)}))
        return 2
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
