"""Abbey & Mayor's rules on the board: barns on corners, farmers joining a barn's field,
where a freed wagon may move, the barns' final scoring (RULES.md section 2).

The plug-in (:mod:`engine.carcassonne.abbey_mayor.plugin`) calls these at the game's hooks.
"""

from __future__ import annotations

from itertools import compress, count
from typing import TYPE_CHECKING

from engine.core.board import Board, Figure, Pos
from engine.core.events import FeatureScored, FigureReturned
from engine.core.footprint import Footprint, footprint
from engine.core.majority import majority
from engine.core.tiles import EDGE_STEPS, Oriented

if TYPE_CHECKING:
    from engine.core.game import Game

NAME = "abbey_mayor"
EXTRA_FIGURES = {"mayor": 1, "barn": 1, "wagon": 1}
ABBEY_KIND = "ABBEY"
WAGON_FEATURES = frozenset({"road", "city", "cloister"})
#: For each corner of a tile: the three other squares meeting there, and the corner each shows.
CORNER_NEIGHBOURS: dict[str, tuple[tuple[int, int, str], ...]] = {
    "NW": ((-1, -1, "SE"), (0, -1, "SW"), (-1, 0, "NE")),
    "NE": ((1, -1, "SW"), (0, -1, "SE"), (1, 0, "NW")),
    "SE": ((1, 1, "NW"), (0, 1, "NE"), (1, 0, "SW")),
    "SW": ((-1, 1, "NE"), (0, 1, "NW"), (-1, 0, "SE")),
}


def field_corner(oriented: Oriented, corner: str) -> int:
    """The local field at a tile corner if both half-edges there are that one field, else -1."""
    local = footprint(oriented).corners[corner]
    if local < 0 or oriented.features[local].type != "field":
        return -1
    return local


def _field_corners(shape: Footprint) -> dict[str, int]:
    """Corner -> the local field holding both half-edges there, for the corners that have one
    (worked out once per orientation)."""
    found = _FIELD_CORNERS.get(shape)
    if found is None:
        found = _FIELD_CORNERS[shape] = {
            corner: local
            for corner, local in shape.corners.items()
            if local >= 0 and shape.ftypes[local] == "field"
        }
    return found


_FIELD_CORNERS: dict[Footprint, dict[str, int]] = {}


def barn_corners(board: Board, pos: Pos) -> list[tuple[str, int]]:
    """Corners of the tile at ``pos`` where a barn may stand: (corner, field root)."""
    tiles = board.tiles
    placed = tiles[pos]
    mine = _FIELD_CORNERS.get(placed.shape)
    if mine is None:
        mine = _field_corners(placed.shape)
    if not mine:
        return []
    x, y = pos
    result = []
    for corner, local in mine.items():
        for dx, dy, their_corner in CORNER_NEIGHBOURS[corner]:
            other = tiles.get((x + dx, y + dy))
            if other is None or their_corner not in _field_corners(other.shape):
                break
        else:
            root = board.find(placed.first_node + local)
            if not has_barn(board, root):
                result.append((corner, root))
    return result


def completed_cities(board: Board, field_root: int) -> int:
    return len({c for c in (board.find(n) for n in board.cities[field_root]) if board.open[c] == 0})


def score_field_farmers(game: Game, root: int, per_city: int, final: bool) -> None:
    """Pay the farmer majority of a field ``per_city`` per completed city; farmers go home."""
    board = game.board
    cities = completed_cities(board, root)
    winners = majority(game.strengths(root))
    points = (
        {p: (per_city + game.farmer_bonus(p, [root])) * cities for p in winners} if cities else {}
    )
    for player, won in points.items():
        game.add_points(player, "field", won)
    game.emit(
        FeatureScored(
            feature="field",
            points=points,
            final=final,
            where=board.node_pos[root],
            details={"cities": cities, "barn": True},
        )
    )
    keep = []
    for figure in board.figures[root]:
        if figure.kind == "barn":
            keep.append(figure)
            continue
        game.supply[figure.player][figure.kind] += 1
        game.emit(FigureReturned(figure.player, figure.kind, figure.pos[0], figure.pos[1]))
    board.figures[root] = keep


def has_barn(board: Board, root: int) -> bool:
    return any(f.kind == "barn" for f in board.figures[root])


def has_farmers(board: Board, root: int) -> bool:
    return any(f.kind != "barn" for f in board.figures[root])


def score_barns_final(game: Game) -> None:
    """End: each barn scores 4 per completed city touching its field."""
    board = game.board
    figures, ftype, parent = board.figures, board.ftype, board.parent
    for root in compress(count(), figures):  # the nodes holding figures, in order
        if parent[root] != root or ftype[root] != "field":
            continue
        if not has_barn(board, root):
            continue
        cities = completed_cities(board, root)
        for figure in figures[root]:
            if figure.kind != "barn" or not cities:
                continue
            game.add_points(figure.player, "barn", 4 * cities)
            game.emit(
                FeatureScored(
                    feature="barn",
                    points={figure.player: 4 * cities},
                    final=True,
                    where=figure.pos,
                    details={"cities": cities},
                )
            )


def wagon_targets(board: Board, scored_root: int) -> list[tuple[Pos, int]]:
    """Where a wagon freed from ``scored_root`` may go: (square, local feature), one per feature.

    Touching (first edition): same-tile links from the tile data (a road ending at a city gate or
    a cloister, roads meeting at one crossing), and an abbey with every feature it closes.
    """
    found: dict[int, tuple[Pos, int]] = {}

    def consider(pos: Pos, local: int) -> None:
        placed = board.tiles[pos]
        if placed.oriented.features[local].type not in WAGON_FEATURES:
            return
        root = board.find(placed.first_node + local)
        if root == scored_root or root in found or board.open[root] == 0 or board.figures[root]:
            return
        found[root] = (pos, local)

    tiles = board.ftiles[scored_root]
    assert tiles is not None
    for pos in sorted(tiles):
        placed = board.tiles[pos]
        oriented = placed.oriented
        mine = [
            i
            for i in range(len(oriented.features))
            if board.find(placed.first_node + i) == scored_root
        ]
        for a, b in oriented.links:
            if a in mine:
                consider(pos, b)
        for edge, (dx, dy) in enumerate(EDGE_STEPS):
            other_pos = (pos[0] + dx, pos[1] + dy)
            other = board.tiles.get(other_pos)
            if other is None:
                continue
            if oriented.kind == ABBEY_KIND:
                for local in other.oriented.edge_features[(edge + 2) % 4]:
                    consider(other_pos, local)
            elif other.oriented.kind == ABBEY_KIND and any(
                i in oriented.edge_features[edge] for i in mine
            ):
                consider(other_pos, other.oriented.centre)
    return sorted(found.values())


def wagon_of(figures: list[Figure], player: int) -> Figure | None:
    return next((f for f in figures if f.kind == "wagon" and f.player == player), None)
