"""A fingerprint of many random games, the same whether the engine runs compiled or not.

``python tests/engine/engine_digest.py`` prints it (and whether the engine is compiled):
``test_compiled`` runs it with ``ENGINE_PURE=1`` and compares with the compiled engine's.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import COMPILED, Game, Phase, Setup
from engine.cli import random_action

EXPANSIONS = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
OPTIONS = {
    "small_city": ("classic", "modern"),
    "farmers": ("classic", "classic4", "modern"),
    "incomplete": ("standard", "half"),
    "hand": (False, True),
}


def setups(count: int) -> list[Setup]:
    """Random setups: Carcassonne with any expansions and options, Hunters, The Castle."""
    rng = random.Random(20261126)
    names = ("A", "B", "C", "D", "E", "F")
    chosen = []
    for index in range(count):
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
    return chosen


def digest(count: int = 40) -> str:
    """The hash of each game's record, events, final scores and mid-game forks' projections."""
    hashed = hashlib.sha256()
    for setup in setups(count):
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
        hashed.update(repr((game.scores, game.breakdown)).encode())
    return hashed.hexdigest()


if __name__ == "__main__":
    print(json.dumps({"compiled": COMPILED, "digest": digest(int(sys.argv[1]))}))
