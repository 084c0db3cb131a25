"""Scoring rules of the Carcassonne base game: completed features, final scoring, farmers."""

from __future__ import annotations

from itertools import compress, count
from operator import eq
from typing import TYPE_CHECKING

from engine.core.board import find_root
from engine.core.events import FeatureScored, FigureReturned
from engine.core.majority import majority

if TYPE_CHECKING:
    from engine.core.board import Board
    from engine.core.game import Game

SCORED_DURING_PLAY = frozenset({"road", "city", "cloister"})


def feature_value(game: Game, root: int, complete: bool) -> int:
    """Points a feature is worth to its majority, by the game's options."""
    board = game.board
    kind = board.ftype[root]
    tiles_set = board.ftiles[root]
    assert tiles_set is not None
    tiles = len(tiles_set)
    half = game.options["incomplete"] == "half"
    value = 0
    if kind == "road":
        value = tiles if complete or not half else tiles // 2
    elif kind == "city":
        pennants = board.pennants[root]
        if complete:
            if tiles == 2 and game.options["small_city"] == "classic":
                value = tiles + pennants
            else:
                value = 2 * tiles + 2 * pennants
        else:
            value = pennants if half else tiles + pennants
    elif kind == "cloister":
        around = 9 - board.open[root]
        value = 9 if complete else (around // 2 if half else around)
    return game.feature_value(root, complete, value)


def score_feature(game: Game, root: int, final: bool) -> None:
    """Score one road, city or cloister for its majority and return its figures."""
    board = game.board
    complete = board.open[root] == 0
    weights = game.strengths(root)
    winners = majority(weights)
    value = feature_value(game, root, complete)
    kind = board.ftype[root]
    points = {p: value for p in winners}
    for player, won in points.items():
        game.add_points(player, kind, won)
    tiles_set = board.ftiles[root]
    assert tiles_set is not None
    if game.recording:
        game.emit(
            FeatureScored(
                feature=kind,
                points=points,
                final=final,
                tiles=len(tiles_set),
                pennants=board.pennants[root],
                complete=complete,
                where=board.node_pos[root],
                marks=game.feature_marks(root),
            )
        )
    board.done[root] = True
    if not final:
        return_figures(game, root)


def return_figures(game: Game, root: int) -> None:
    board = game.board
    for figure in board.figures[root]:
        if game.figure_scored(figure, root):
            continue
        game.supply[figure.player][figure.kind] += 1
        x, y = figure.pos
        game.emit(FigureReturned(figure.player, figure.kind, x, y))
    board.figures[root] = []


def score_completed(game: Game, touched: list[int]) -> None:
    """Score every road, city and cloister the last placement completed."""
    board = game.board
    parent, ftype, open_, done = board.parent, board.ftype, board.open, board.done
    # A feature scored is marked done: a second node of it is passed over without a ``seen``.
    for node in touched:
        root = parent[node]
        if parent[root] != root:
            root = find_root(parent, node)
        if open_[root] or done[root] or ftype[root] not in SCORED_DURING_PLAY:
            continue
        score_feature(game, root, final=False)


def score_final(game: Game) -> list[int]:
    """End of game: incomplete roads, cities and cloisters, then farmers; returns the roots."""
    board = game.board
    roots = list(compress(count(), map(eq, board.parent, count())))
    figures, ftype, done = board.figures, board.ftype, board.done
    for root in roots:
        if figures[root] and ftype[root] in SCORED_DURING_PLAY and not done[root]:
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
            winners = majority(game.strengths(field))
            if not cities or not winners:
                continue
            points = {p: (3 + game.farmer_bonus(p, [field])) * len(cities) for p in winners}
            _award_field(game, points, field, len(cities))
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
            for p, w in enumerate(game.strengths(field)):
                weights[p] += w
        winners = majority(weights)
        if winners:
            fields = per_city[city]
            points = {p: value + game.farmer_bonus(p, fields) for p in winners}
            _award_field(game, points, city, 1)


def _award_field(game: Game, points: dict[int, int], where: int, cities: int) -> None:
    for player, won in points.items():
        game.add_points(player, "field", won)
    if not game.recording:
        return
    game.emit(
        FeatureScored(
            feature="field",
            points=points,
            final=True,
            where=game.board.node_pos[where],
            details={"cities": cities},
        )
    )
