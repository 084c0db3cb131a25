"""Traders & Builders' rules on the board: where a builder or a pig may go, the trade goods of
a city, the end-of-game goods majorities (RULES.md section 5).

The plug-in (:mod:`engine.carcassonne.traders_builders.plugin`) calls these at the game's hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.board import Board, Figure, Pos, find_root
from engine.core.events import Event, FeatureScored
from engine.core.footprint import Footprint
from engine.core.majority import majority
from engine.core.tiles import EDGE_STEPS

if TYPE_CHECKING:
    from engine.core.game import Game

NAME = "traders_builders"
EXTRA_FIGURES = {"builder": 1, "pig": 1}
#: The three kinds of trade goods, in the order they are scored.
GOODS = ("wine", "grain", "cloth")
GOODS_POINTS = 10
#: The feature types each new figure joins.
STANDS_ON = {"builder": frozenset({"road", "city"}), "pig": frozenset({"field"})}
#: Figures that are not followers: they never make a feature "hold one of the player's".
HELPERS = frozenset({"builder", "pig", "barn"})


def may_join(figures: list[Figure], player: int, figure: str) -> bool:
    """Whether ``player``'s ``figure`` (builder or pig) may join a feature holding ``figures``:
    one of their followers is there (a wagon, a mayor, a farmer...) and not their ``figure``."""
    follower = False
    for placed in figures:
        if placed.player == player:
            if placed.kind == figure:
                return False
            if placed.kind not in HELPERS:
                follower = True
    return follower


def options(game: Game, figure: str, pos: Pos) -> list[tuple[int, int | str]]:
    """(local feature, its ``at``) on the tile at ``pos`` where the player in turn may put their
    ``figure``: a builder on an unfinished road or city, a pig in a field."""
    board = game.board
    placed = board.tiles[pos]
    shape = placed.shape
    parent, first, on = board.parent, placed.first_node, board.figures
    builder = figure == "builder"
    found = []
    for local in _candidates(shape, figure):
        root = parent[first + local]
        if parent[root] != root:
            root = find_root(parent, first + local)
        figures = on[root]
        if not figures or (builder and board.open[root] == 0):
            continue
        if may_join(figures, game.current, figure):
            found.append((local, shape.labels[local]))
    return found


#: Per figure: footprint -> its local features of the types that figure stands on, in order.
_CANDIDATES: dict[str, dict[Footprint, tuple[int, ...]]] = {f: {} for f in STANDS_ON}


def _candidates(shape: Footprint, figure: str) -> tuple[int, ...]:
    table = _CANDIDATES[figure]
    found = table.get(shape)
    if found is None:
        wanted = STANDS_ON[figure]
        found = table[shape] = tuple(
            local for local, ftype in enumerate(shape.ftypes) if ftype in wanted
        )
    return found


def holds(board: Board, root: int, player: int, figure: str) -> bool:
    return any(f.kind == figure and f.player == player for f in board.figures[root])


def city_scored(events: list[Event]) -> bool:
    """Whether ``events`` score a city during play (every city a tile completes is scored)."""
    for event in events:
        if type(event) is FeatureScored and event.feature == "city" and not event.final:
            return True
    return False


def cities_at(board: Board, pos: Pos) -> list[int]:
    """The cities the tile at ``pos`` belongs to or closes (an abbey closes its neighbours')."""
    x, y = pos
    tiles = board.tiles
    placed = tiles[pos]
    edges = placed.oriented.edges
    first = placed.first_node
    nodes = [first + local for local in placed.shape.by_type.get("city", ())]
    for edge, (dx, dy) in enumerate(EDGE_STEPS):
        if edges[edge] == "C":
            continue  # a city meeting a city edge joins this tile's city: listed above
        other = tiles.get((x + dx, y + dy))
        if other is None:
            continue
        their_first = other.first_node
        for local in other.shape.edge_types[(edge + 2) % 4].get("city", ()):
            nodes.append(their_first + local)
    if not nodes:
        return []
    parent = board.parent
    return list(dict.fromkeys([find_root(parent, n) for n in nodes]))


def goods_in(board: Board, root: int) -> dict[str, int]:
    """The trade-goods symbols of city ``root``, by kind (kinds with none left out)."""
    tiles = board.ftiles[root]
    assert tiles is not None
    found: dict[str, int] = {}
    for pos in tiles:
        placed = board.tiles[pos]
        for local, feat in enumerate(placed.oriented.features):
            good = feat.extra.get("goods")
            if good and board.find(placed.first_node + local) == root:
                found[str(good)] = found.get(str(good), 0) + 1
    return {good: found[good] for good in GOODS if good in found}


def score_goods(game: Game, tokens: list[dict[str, int]]) -> None:
    """End: for each good, the player(s) with the most tokens (at least one) score 10 each.
    A seat that left the game counts nothing."""
    for good in GOODS:
        counts = [0 if game.out[p] else tokens[p][good] for p in range(game.players)]
        winners = majority(counts)
        if not winners:
            continue
        for player in winners:
            game.add_points(player, "goods", GOODS_POINTS)
        game.emit(
            FeatureScored(
                feature="goods",
                points=dict.fromkeys(winners, GOODS_POINTS),
                final=True,
                details={"good": good, "tokens": max(counts)},
            )
        )
