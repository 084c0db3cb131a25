"""Fixed random games of every family and expansion, as played by the engine that runs here.

``python tests/engine/engine_digest.py COUNT`` prints, as JSON, whether the engine runs compiled
(and how: ``engine.BUILD``) and, for each game, its setup, its final scores and a hash of its
record, its events and its mid-game forks' projections: the same whether the engine runs
compiled or not (``test_compiled`` runs it both ways and compares).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import BUILD, COMPILED, Game, Phase, Setup
from engine.cli import random_action

EXPANSIONS = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
OPTIONS = {
    "small_city": ("classic", "modern"),
    "farmers": ("classic", "classic4", "modern"),
    "incomplete": ("standard", "half"),
    "hand": (False, True),
}


def setups(count: int) -> list[Setup]:
    """The base game, each expansion alone and all together, Hunters and The Castle first; then
    random ones: Carcassonne with any expansions and options, Hunters, The Castle."""
    rng = random.Random(20261126)
    names = ("A", "B", "C", "D", "E", "F")
    chosen = [
        Setup(players=names[:3], seed=1),
        *(Setup(players=names[:4], seed=2, expansions=(e,)) for e in EXPANSIONS),
        Setup(players=names[:6], seed=3, expansions=EXPANSIONS),
        Setup(players=names[:3], seed=4, game="hunters"),
        Setup(players=names[:2], seed=5, game="castle"),
    ]
    for index in range(len(chosen), count):
        if index % 10 == 8:
            chosen.append(Setup(players=names[: rng.randint(2, 5)], seed=index, game="hunters"))
        elif index % 10 == 9:
            chosen.append(Setup(players=names[:2], seed=index, game="castle"))
        else:
            expansions = tuple(e for e in EXPANSIONS if rng.random() < 0.5)
            options = {name: rng.choice(values) for name, values in OPTIONS.items()}
            players = names[: rng.randint(2, 6 if expansions else 5)]
            chosen.append(
                Setup(players=players, seed=index, options=options, expansions=expansions)
            )
    return chosen[:count]


def play(setup: Setup) -> dict[str, Any]:
    """One random game to its end: its setup, final scores, and the hash of its record, its
    events and the projections and next snapshot of a fork every 17 turns."""
    hashed = hashlib.sha256()
    game = Game(setup)
    rng = random.Random(setup.seed)
    while game.phase is not Phase.OVER:
        events = game.play(random_action(game, rng))
        hashed.update(repr(events).encode())
        if game.turn % 17 == 0 and game.phase is Phase.TILE:
            fork = game.fork()
            hashed.update(repr(fork.projected_scores()).encode())
            fork.play(random_action(fork, random.Random(game.turn)))
            hashed.update(repr(fork.snapshot()).encode())
    hashed.update(json.dumps(game.record(), sort_keys=True).encode())
    hashed.update(repr(game.breakdown).encode())
    return {"setup": setup.to_json(), "scores": list(game.scores), "digest": hashed.hexdigest()}


if __name__ == "__main__":
    games = [play(setup) for setup in setups(int(sys.argv[1]))]
    print(json.dumps({"compiled": COMPILED, "build": BUILD, "games": games}))
