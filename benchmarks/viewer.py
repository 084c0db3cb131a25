"""Viewer links: the length of the game code of random games of every family.

Run: ``python -m benchmarks.viewer [--games 200] [--bigbox 100]``. The games are a mix
(:func:`random_record`): the base game with random rule options and the tactical hand, Abbey &
Mayor, Hunters & Gatherers, 2 to 6 players, and The Castle, played to the end by random players
(:func:`engine.cli.play_random`), with names of 3 to 12 letters, accents included. Then Big Box
games (:func:`bigbox_record`): half of them 6 players with all four expansions, the others a
random combination of Inns & Cathedrals, The River, Traders & Builders (and Abbey & Mayor) for 2
to 6 players; they are measured apart ("big box: ..."), as their links are longer. Prints JSON:
per family and over all games, the code's length (largest and median) against the 400
characters a link may use, and the time to code a game. With ``--address`` (the host's
``VIEWER_URL``), also how many of the games get a link button with that address: their code fits
in what the address leaves of Discord's 512 characters, names shortened if needed (as the bot
does).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bot.ui.watching.viewer import code_limit
from engine import Game, Setup
from engine.cli import play_random
from engine.core.setup import OPTIONS
from renderer.viewer.codec import CodeError, encode
from renderer.viewer.turns import game_turns

#: What a link may use of Discord's 512 characters, the host's address aside.
LINK_LIMIT = 400
NAMES = (
    "Alice",
    "Bob",
    "Chloé",
    "Dmitri",
    "Eve",
    "François",
    "Günther",
    "Hélène",
    "Isabella",
    "Jürgen",
    "Kai",
    "Léa",
    "Maximilian",
    "Noor",
    "Olek",
    "Pénélope",
    "Quinn",
    "Rosalind",
    "Søren",
    "Tomasz",
    "Ulrike",
    "Viktor_99",
    "Wen",
    "Xavier-Luc",
    "Yusuf",
    "Zoë",
)


def setup_for(seed: int) -> dict[str, Any]:
    """The setup of random game ``seed``: a family, its players, its options (a fixed mix in
    which one game in four is a 6-player Abbey & Mayor game)."""
    rng = random.Random(seed)
    family = ("carcassonne", "abbey_mayor6", "abbey_mayor", "hunters", "castle")[seed % 5]
    if family == "castle":
        return {"game": "castle", "players": 2}
    if family == "hunters":
        return {"game": "hunters", "players": rng.randint(2, 6)}
    options = {name: rng.choice(values) for name, (values, _) in OPTIONS["carcassonne"].items()}
    if family == "carcassonne":
        return {"players": rng.randint(2, 6), "options": options}
    players = 6 if family == "abbey_mayor6" else rng.randint(2, 5)
    return {"players": players, "expansions": ("abbey_mayor",), "options": options}


#: Carcassonne's expansions a Big Box game may have.
BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")


def bigbox_setup(seed: int) -> dict[str, Any]:
    """The setup of Big Box game ``seed``: even seeds 6 players with all four expansions, odd
    ones a random combination with at least one of the three new ones, 2 to 6 players."""
    rng = random.Random(seed)
    if seed % 2 == 0:
        return {"players": 6, "expansions": BIG_BOX}
    while True:
        chosen = tuple(e for e in BIG_BOX if rng.random() < 0.5)
        if set(chosen) - {"abbey_mayor"}:
            return {"players": rng.randint(2, 6), "expansions": chosen}


def bigbox_record(seed: int) -> dict[str, Any]:
    """Big Box game ``seed`` (see :func:`bigbox_setup`), played to the end."""
    return _played(seed, bigbox_setup(seed))


def random_record(seed: int) -> dict[str, Any]:
    """Random game ``seed`` of the mix (see :func:`setup_for`), played to the end."""
    return _played(seed, setup_for(seed))


def _played(seed: int, setup: dict[str, Any]) -> dict[str, Any]:
    names = tuple(random.Random(seed).sample(NAMES, setup.pop("players")))
    game = Game(Setup(players=names, seed=seed, **setup))
    play_random(game, random.Random(seed))
    return game.record()


def family_of(record: dict[str, Any]) -> str:
    name = record.get("game", "carcassonne")
    if record.get("expansions"):
        name += "+" + "+".join(record["expansions"])
    return f"{name}, {len(record['players'])} players" if name != "castle" else name


def fits(record: dict[str, Any], room: int) -> bool:
    """Whether the game gets a link button: its code within ``room`` characters, names
    shortened if needed."""
    try:
        return len(encode(game_turns(record), limit=room)) <= room
    except CodeError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bigbox", type=int, default=100)
    parser.add_argument("--address", default="https://example.org/carcassonne/viewer.html")
    args = parser.parse_args()
    room = code_limit(args.address)
    lengths: dict[str, list[int]] = {}
    buttons: dict[str, list[bool]] = {}
    times: list[float] = []
    for seed in range(args.games):
        record = random_record(seed)
        started = time.perf_counter()
        code = encode(game_turns(record))
        times.append(time.perf_counter() - started)
        family = family_of(record)
        family = (
            family
            if "abbey" not in family or family.endswith("6 players")
            else family.split(",")[0]
        )
        lengths.setdefault(family, []).append(len(code))
        lengths.setdefault("all games", []).append(len(code))
        buttons.setdefault(family, []).append(fits(record, room))
        buttons.setdefault("all games", []).append(fits(record, room))
    for seed in range(args.bigbox):
        record = bigbox_record(seed)
        started = time.perf_counter()
        code = encode(game_turns(record))
        times.append(time.perf_counter() - started)
        family = "big box: " + (
            "all four, 6 players" if seed % 2 == 0 else "other combinations, 2-6 players"
        )
        lengths.setdefault(family, []).append(len(code))
        lengths.setdefault("big box: all games", []).append(len(code))
        buttons.setdefault(family, []).append(fits(record, room))
        buttons.setdefault("big box: all games", []).append(fits(record, room))
    results: dict[str, Any] = {
        name: {
            "games": len(found),
            "longest": max(found),
            "median": statistics.median(found),
            "longest / limit": round(max(found) / LINK_LIMIT, 2),
            f"buttons with a {len(args.address)}-character address": (
                f"{sum(buttons[name])} of {len(found)}"
            ),
        }
        for name, found in sorted(lengths.items())
    }
    results["code_ms (median)"] = round(statistics.median(times) * 1000, 1)
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
