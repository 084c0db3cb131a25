"""The greedy baseline is pinned: the strength targets of the expert level are set against greedy
as it plays at this commit, so its decisions on fixed deals must not change. If this fails, greedy
(or the rules under it) changed: the expert's figures against greedy no longer compare with the
table's, so measure them again before changing the fingerprints."""

from __future__ import annotations

import hashlib
import json

import pytest

from ai import make_player
from engine import Game, Setup

#: (players, expansions, seed) -> the SHA-256 of the game's actions as record JSON.
PINNED = {
    (2, (), 11): "682e63ed67df930c6dfb8ad73df4c02e04582ce4b8427632182e485fc2787170",
    (4, ("abbey_mayor",), 12): "88e2c56db473f391b01af8cf20dbb8df7e2e3e7a779730756c842819b173b10f",
}


def fingerprint(players: int, expansions: tuple[str, ...], seed: int) -> str:
    names = tuple(f"P{i + 1}" for i in range(players))
    setup = Setup(players=names, seed=seed, expansions=expansions, options={"farmers": "classic"})
    game = Game(setup)
    seats = [make_player("greedy", seed=seed * 10 + s) for s in range(players)]
    while not game.finished:
        game.play(seats[game.actor].choose(game, game.actor))
    actions = json.dumps([a.to_json() for a in game.actions], sort_keys=True)
    return hashlib.sha256(actions.encode()).hexdigest()


@pytest.mark.parametrize(("players", "expansions", "seed"), sorted(PINNED))
def test_greedy_plays_fixed_deals_as_it_did_when_pinned(
    players: int, expansions: tuple[str, ...], seed: int
) -> None:
    assert fingerprint(players, expansions, seed) == PINNED[players, expansions, seed]
