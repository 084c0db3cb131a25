"""Records with planted mistakes, for the game review's tests: short games of the greedy
baseline with a fixed tile order, where one seat once plays a chosen mistake instead."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ai import make_player
from ai.players import options
from ai.review import stranded_feature
from engine import Action, FeatureScored, Game, Phase, PlaceFigure, Setup

Turn = tuple[Action, ...]
#: A whole turn, the points it scores to each player now and the tiles of the largest city it
#: scores for each.
Scored = tuple[Turn, dict[int, int], dict[int, int]]
#: A planted mistake: given the game at a tile decision, its seat, and each whole turn scored,
#: the turn to play instead, or None where there is none.
Plant = Callable[[Game, int, list[Scored]], Turn | None]


def draw_order(seed: int, tiles: int) -> tuple[str, ...]:
    """The start tile and ``tiles`` tiles of the base game, shuffled by ``seed``."""
    pool = sorted(Game(Setup(players=("A", "B"), seed=seed)).drawn_pool().elements())
    random.Random(seed).shuffle(pool)
    return ("D", *pool[:tiles])


def scored_turns(game: Game, seat: int) -> list[Scored]:
    """Each whole turn of ``seat`` now, with the points each player scores by it and, for each
    player, the tiles of the largest city that scores for them."""
    found: list[Scored] = []
    for action in options(game):
        after = game.fork()
        events = list(after.play(action))
        steps: list[tuple[Turn, list[Any]]] = []
        if after.phase is Phase.FIGURE and after.actor == seat:
            for step in options(after):
                last = after.fork()
                steps.append(((action, step), events + list(last.play(step))))
        else:
            steps.append(((action,), events))
        for turn, happened in steps:
            points: dict[int, int] = {}
            cities: dict[int, int] = {}
            for event in happened:
                if isinstance(event, FeatureScored) and not event.final:
                    for player, won in event.points.items():
                        points[player] = points.get(player, 0) + won
                        if event.feature == "city" and won > 0:
                            cities[player] = max(cities.get(player, 0), event.tiles)
            found.append((turn, points, cities))
    return found


def planted(seed: int, tiles: int, plant: Plant, seat: int = 0) -> tuple[dict[str, Any], int]:
    """A 2-player game of greedy players on ``draw_order(seed, tiles)`` where ``seat`` plays
    ``plant``'s turn at the first tile decision it offers one; the record and the index of the
    planted turn's first action. Raises if ``plant`` never found a turn."""
    game = Game(Setup(players=("Ann", "Bob"), seed=seed, draw=draw_order(seed, tiles)))
    players = [make_player("greedy", seed=seed * 10 + s) for s in range(2)]
    index: int | None = None
    while not game.finished:
        actor = game.actor
        if index is None and actor == seat and game.phase is Phase.TILE:
            turn = plant(game, seat, scored_turns(game, seat))
            if turn is not None:
                index = len(game.actions)
                for action in turn:
                    game.play(action)
                continue
        game.play(players[actor].choose(game, actor))
    if index is None:
        raise AssertionError(f"no turn to plant in the game of seed {seed}")
    return game.record(), index


def declines_own_city(game: Game, seat: int, turns: list[Scored]) -> Turn | None:
    """Where ``seat`` may complete its own city for 12 points or more: a turn scoring nothing."""
    if not any(points.get(seat, 0) >= 12 and seat in cities for _, points, cities in turns):
        return None
    quiet = [turn for turn, points, _ in turns if not points and len(turn) == 2]
    return quiet[0] if quiet else None


def gives_a_city(game: Game, seat: int, turns: list[Scored]) -> Turn | None:
    """A turn completing the opponent's 3-tile city (and scoring nothing for ``seat``)."""
    for turn, points, cities in turns:
        if cities.get(1 - seat) == 3 and not points.get(seat):
            return turn
    return None


def strands_a_follower(game: Game, seat: int, turns: list[Scored]) -> Turn | None:
    """A turn putting a follower on a feature no tile left can complete."""
    for turn, points, _ in turns:
        if len(turn) == 2 and isinstance(turn[1], PlaceFigure) and not points:
            after = game.fork()
            after.play(turn[0])
            after.play(turn[1])
            if stranded_feature(after, turn[1]) is not None:
                return turn
    return None
