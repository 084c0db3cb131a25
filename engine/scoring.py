"""Scoring rules of the Carcassonne base game: completed features, final scoring, farmers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.events import FeatureScored, FigureReturned

if TYPE_CHECKING:
    from engine.board import Board
    from engine.game import Game

SCORED_DURING_PLAY = frozenset({"road", "city", "cloister"})


def strengths(board: Board, root: int, players: int, out: Sequence[bool] = ()) -> list[int]:
    """Each player's weight in a feature (a follower counts 1; a player who left counts 0)."""
    weights = [0] * players
    for figure in board.figures[root]:
        if out and out[figure.player]:
            continue
        weights[figure.player] += figure_strength(board, root, figure.kind)
    return weights


def figure_strength(board: Board, root: int, kind: str) -> int:
    if kind == "mayor":
        return board.pennants[root]
    if kind == "barn":
        return 0
    return 1


def majority(weights: list[int]) -> list[int]:
    """The players with the most weight (ties all win); nobody if everyone has 0."""
    best = max(weights, default=0)
    if best <= 0:
        return []
    return [p for p, w in enumerate(weights) if w == best]


def feature_value(game: Game, root: int, complete: bool) -> int:
    """Points a feature is worth to its majority, by the game's options."""
    board = game.board
    kind = board.ftype[root]
    tiles_set = board.ftiles[root]
    assert tiles_set is not None
    tiles = len(tiles_set)
    half = game.options["incomplete"] == "half"
    if kind == "road":
        return tiles if complete or not half else tiles // 2
    if kind == "city":
        pennants = board.pennants[root]
        if complete:
            if tiles == 2 and game.options["small_city"] == "classic":
                return tiles + pennants
            return 2 * tiles + 2 * pennants
        return pennants if half else tiles + pennants
    if kind == "cloister":
        around = 9 - board.open[root]
        return 9 if complete else (around // 2 if half else around)
    return 0


def score_feature(game: Game, root: int, final: bool) -> None:
    """Score one road, city or cloister for its majority and return its figures."""
    board = game.board
    complete = board.open[root] == 0
    weights = strengths(board, root, game.players, game.out)
    winners = majority(weights)
    value = feature_value(game, root, complete)
    kind = board.ftype[root]
    points = {p: value for p in winners}
    for player, won in points.items():
        game.add_points(player, kind, won)
    tiles_set = board.ftiles[root]
    assert tiles_set is not None
    game.emit(
        FeatureScored(
            feature=kind,
            points=points,
            final=final,
            tiles=len(tiles_set),
            pennants=board.pennants[root],
            complete=complete,
            where=board.node_pos[root],
        )
    )
    board.done[root] = True
    if not final:
        return_figures(game, root)


def return_figures(game: Game, root: int) -> None:
    board = game.board
    for figure in board.figures[root]:
        if figure.kind == "wagon":
            game.free_wagon(figure.player, root)
            continue
        game.supply[figure.player][figure.kind] += 1
        x, y = figure.pos
        game.emit(FigureReturned(figure.player, figure.kind, x, y))
    board.figures[root] = []


def score_completed(game: Game, touched: list[int]) -> None:
    """Score every road, city and cloister the last placement completed."""
    board = game.board
    seen: set[int] = set()
    for node in touched:
        root = board.find(node)
        if root in seen:
            continue
        seen.add(root)
        if (
            board.ftype[root] in SCORED_DURING_PLAY
            and board.open[root] == 0
            and not board.done[root]
        ):
            score_feature(game, root, final=False)


def score_final(game: Game) -> list[int]:
    """End of game: incomplete roads, cities and cloisters, then farmers; returns the roots."""
    board = game.board
    roots = [n for n, parent in enumerate(board.parent) if parent == n]
    for root in roots:
        if board.ftype[root] in SCORED_DURING_PLAY and not board.done[root] and board.figures[root]:
            score_feature(game, root, final=True)
    score_farmers(game, roots)
    return roots


def _complete_cities(board: Board, field_root: int) -> list[int]:
    cities = {board.find(c) for c in board.cities[field_root]}
    return sorted(c for c in cities if board.open[c] == 0)


def score_farmers(game: Game, roots: list[int]) -> None:
    board = game.board
    fields = [r for r in roots if board.ftype[r] == "field" and board.figures[r]]
    mode = game.options["farmers"]
    if mode == "modern":
        for field in fields:
            cities = _complete_cities(board, field)
            winners = majority(strengths(board, field, game.players, game.out))
            if not cities or not winners:
                continue
            value = 3 * len(cities)
            _award_field(game, winners, value, field, len(cities))
        return
    # classic / classic4: each completed city once, all farmers on fields touching it compete.
    per_city: dict[int, list[int]] = {}
    for field in fields:
        for city in _complete_cities(board, field):
            per_city.setdefault(city, []).append(field)
    value = 4 if mode == "classic4" else 3
    for city in sorted(per_city):
        weights = [0] * game.players
        for field in per_city[city]:
            for p, w in enumerate(strengths(board, field, game.players, game.out)):
                weights[p] += w
        winners = majority(weights)
        if winners:
            _award_field(game, winners, value, city, 1)


def _award_field(game: Game, winners: list[int], value: int, where: int, cities: int) -> None:
    for player in winners:
        game.add_points(player, "field", value)
    game.emit(
        FeatureScored(
            feature="field",
            points={p: value for p in winners},
            final=True,
            where=game.board.node_pos[where],
            details={"cities": cities},
        )
    )
