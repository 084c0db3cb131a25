"""Perft for the placement generator: (seed, actions) -> number of legal placements.

A position is fixed by the test alone: ``seed`` shuffles the 71 non-start tiles of the
reference table into a forced draw order (start tile D first), then a seeded policy places each
tile at a random spot chosen from the brute-force list and never places a figure. After
``actions`` actions (placements and passes) the expected count is the brute-force count for the
tile to place. ``data/perft.json`` holds those counts; regenerate it with
``python tests/engine/test_perft.py`` (it prints the file) only if the reference table changes.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import DATA, REF, brute_force_placements

from engine import Game, Pass, Phase, PlaceTile, Setup

PERFT = DATA / "perft.json"


def draw_order(seed: int) -> tuple[str, ...]:
    pool = sorted(kind for kind, tile in REF.items() for _ in range(tile.count))
    pool.remove("D")
    random.Random(seed).shuffle(pool)
    return ("D", *pool)


def position(seed: int, actions: int) -> Game:
    """Play ``actions`` actions of the fixed policy, then go on to the next tile to place."""
    game = Game(Setup(players=("A", "B"), seed=seed, draw=draw_order(seed)))
    rng = random.Random(f"perft:{seed}")
    played = 0
    while not game.finished and (played < actions or game.decision.phase is not Phase.TILE):
        if game.decision.phase is Phase.TILE:
            tile = game.decision.tile
            assert tile is not None
            x, y, rotation = rng.choice(sorted(brute_force_placements(game, tile)))
            game.play(PlaceTile(x, y, rotation))
        else:
            game.play(Pass())
        played += 1
    return game


def brute_count(game: Game) -> int:
    tile = game.decision.tile
    assert tile is not None
    return len(brute_force_placements(game, tile))


def perft_entries() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(PERFT.read_text("utf-8"))
    return data


def regenerate() -> list[dict[str, Any]]:
    entries = []
    for seed in range(1, 9):
        for actions in (0, 9, 30, 61, 100, 131):
            game = position(seed, actions)
            if game.finished:
                continue
            entries.append(
                {
                    "seed": seed,
                    "actions": actions,
                    "tile": game.decision.tile,
                    "placements": brute_count(game),
                }
            )
    return entries


@pytest.mark.parametrize(
    "entry", perft_entries(), ids=lambda e: f"seed{e['seed']}-actions{e['actions']}"
)
def test_perft_the_engine_counts_the_placements_of_the_data_file(entry: dict[str, Any]) -> None:
    game = position(entry["seed"], entry["actions"])
    assert game.decision.tile == entry["tile"]
    assert len(game.legal_placements()) == entry["placements"]
    assert sum(1 for _ in game.legal_placements()) == entry["placements"]


def test_perft_the_data_file_agrees_with_the_brute_force_counter() -> None:
    entries = perft_entries()
    assert len(entries) >= 30
    for entry in entries[::5]:
        assert brute_count(position(entry["seed"], entry["actions"])) == entry["placements"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), actions=st.integers(0, 140))
def test_legal_placements_equal_the_brute_force_on_random_positions(
    seed: int, actions: int
) -> None:
    game = position(seed, actions)
    if game.finished:
        return
    tile = game.decision.tile
    assert tile is not None
    listed = {(a.x, a.y, a.rotation) for a in game.legal_placements()}
    expected = brute_force_placements(game, tile)
    assert listed == expected
    assert len(game.legal_placements()) == len(expected)
    for x, y, rotation in list(expected)[:10]:
        assert PlaceTile(x, y, rotation) in game.legal_placements()


if __name__ == "__main__":
    lines = ",\n".join(" " + json.dumps(entry) for entry in regenerate())
    sys.stdout.write(f"[\n{lines}\n]\n")
