"""What a computer player may know: the board, scores, supplies, its own hand and the tile it
drew, and the tiles still unseen as a multiset, never their order, the seed or others' hands.

:func:`observe` turns a game into an observation: a fork whose hidden parts are replaced by a
canonical arrangement of the same unseen tiles (sorted), so that nothing hidden can leak into a
decision: two games that differ only in what is hidden give the same observation.
:func:`determinize` deals the unseen tiles at random again, for search.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from engine import Game
from engine.carcassonne.river import River
from engine.castle import CastleGame
from engine.castle.walls import WALL_POOL
from engine.hunters import HuntersGame


def observe(game: Game, seat: int) -> Game:
    """The game as seat ``seat`` sees it (a fork: playing on it never changes ``game``)."""
    obs = game.fork()
    setup = game.setup
    obs.setup = dataclasses.replace(setup, seed=0, draw=None, bonus_draw=None, wall_draw=None)
    _deal(obs, seat, None)
    for hide in HIDDEN.get(type(obs), ()):
        hide(obs, seat, None)
    return obs


def determinize(obs: Game, seat: int, rng: random.Random) -> Game:
    """A fork of an observation with the unseen tiles dealt again at random."""
    world = obs.fork()
    _deal(world, seat, rng)
    for hide in HIDDEN.get(type(world), ()):
        hide(world, seat, rng)
    return world


def unseen(obs: Game, seat: int) -> list[str]:
    """The tiles ``seat`` has not seen yet: the stack and the other players' hands."""
    pool = list(obs.stack)
    if obs.hand_mode:
        for player, hand in enumerate(obs.hands):
            if player != seat:
                pool.extend(hand)
    return pool


def layer(game: Game) -> Callable[[str], int]:
    """Which part of the stack a tile is known to lie in, drawn last first: The River's tiles
    come before every other tile and its lake after the other river tiles (everyone knows);
    only the order inside a part is hidden. Without The River, one part."""
    river = game.plugins.get(River.name)
    if not isinstance(river, River):
        return lambda name: 0
    kinds, lake = river.kinds, river.lake
    return lambda name: 0 if name not in kinds else (1 if name == lake else 2)


def _deal(game: Game, seat: int, rng: random.Random | None) -> None:
    """Other players' hands (same sizes) and the stack from the unseen tiles: sorted, or
    shuffled with ``rng``, within each part of the stack (:func:`layer`). The drawn tile of the
    player in turn is public (everyone sees it)."""
    part = layer(game)
    pool = sorted(unseen(game, seat))
    if rng is not None:
        rng.shuffle(pool)
    if game.hand_mode:
        for player, hand in enumerate(game.hands):
            if player != seat:
                size = len(hand)
                game.hands[player] = pool[:size]
                del pool[:size]
    if rng is None:
        pool.reverse()  # drawn from the end: the canonical order draws the sorted tiles in turn
    game.stack = sorted(pool, key=part)  # stable: each part keeps its order; river on top


def _hide_bonus(game: Game, seat: int, rng: random.Random | None) -> None:
    assert isinstance(game, HuntersGame)
    pool = sorted(game.bonus_stack)
    if rng is not None:
        rng.shuffle(pool)
    game.bonus_stack = pool


def _hide_walls(game: Game, seat: int, rng: random.Random | None) -> None:
    """The face-down wall tiles on the towers: any of those not seen face up."""
    assert isinstance(game, CastleGame)
    seen = [w for held in game.held for w, _ in held] + [w for p in game.played for w in p]
    pool = list(WALL_POOL)
    for wall_seen in seen:
        pool.remove(wall_seen)
    pool.sort()
    if rng is not None:
        rng.shuffle(pool)
    for tower, wall in game.towers.items():
        if wall is not None:
            game.towers[tower] = pool.pop(0)


Hide = Callable[[Game, int, "random.Random | None"], None]
#: What else a family hides, by game class.
HIDDEN: dict[type[Game], tuple[Hide, ...]] = {
    HuntersGame: (_hide_bonus,),
    CastleGame: (_hide_walls,),
}
