"""Inns & Cathedrals as a plug-in of Carcassonne: the large follower, inn roads, cathedral cities.

RULES.md section 5: the large follower stands wherever a follower may (road, city, cloister,
field) and weighs 2 in every majority, farmers' included, but its owner scores the feature once;
a road with an inn is worth 2 per tile when completed and nothing when unfinished at the end, a
city with a cathedral 3 per tile and 3 per pennant when completed and nothing when unfinished (also
under ``incomplete=half``). Several inns (cathedrals) in one feature count once. Farmers, barns and
the mayor see a cathedral city as any other city.
"""

from __future__ import annotations

from typing import ClassVar

from engine.core.board import Board
from engine.core.expansion import Expansion
from engine.core.footprint import Footprint

NAME = "inns_cathedrals"
LARGE_FOLLOWER = "large_follower"
#: The feature mark that changes a feature's value, per feature type.
MARKS = {"road": "inn", "city": "cathedral"}
#: Points per tile (and per pennant, for a city) of a completed marked feature.
PER_TILE = {"road": 2, "city": 3}


def has_mark(board: Board, root: int, mark: str) -> bool:
    """Whether a segment of feature ``root`` on any of its tiles carries ``mark``."""
    tiles = board.ftiles[root]
    assert tiles is not None
    table = _MARKED[mark]
    on = board.tiles
    for pos in tiles:
        placed = on[pos]
        marked = table.get(placed.shape)
        if marked is None:
            features = placed.oriented.features
            marked = table[placed.shape] = tuple(
                local for local, feat in enumerate(features) if feat.extra.get(mark)
            )
        for local in marked:
            if board.find(placed.first_node + local) == root:
                return True
    return False


#: Per mark: footprint -> its local features carrying the mark (most tiles: none).
_MARKED: dict[str, dict[Footprint, tuple[int, ...]]] = {mark: {} for mark in MARKS.values()}


def marked_value(board: Board, root: int, complete: bool) -> int | None:
    """The value of an inn road or a cathedral city; None if ``root`` is neither."""
    ftype = board.ftype[root]
    mark = MARKS.get(ftype)
    if mark is None or not has_mark(board, root, mark):
        return None
    if not complete:
        return 0
    tiles = board.ftiles[root]
    assert tiles is not None
    return PER_TILE[ftype] * (len(tiles) + (board.pennants[root] if ftype == "city" else 0))


class InnsCathedrals(Expansion):
    """The expansion in one game: it keeps no state of its own; the board holds the marks."""

    name: ClassVar[str] = NAME
    tile_set: ClassVar[str | None] = NAME
    figures: ClassVar[dict[str, int]] = {LARGE_FOLLOWER: 1}
    weights: ClassVar[dict[str, int]] = {LARGE_FOLLOWER: 2}

    def may_stand(self, figure: str, ftype: str) -> bool | None:
        if figure == LARGE_FOLLOWER:
            return ftype in self.game.roles
        return None

    def feature_value(self, root: int, complete: bool, value: int) -> int:
        marked = marked_value(self.game.board, root, complete)
        return value if marked is None else marked

    def feature_marks(self, root: int) -> tuple[str, ...]:
        mark = MARKS.get(self.game.board.ftype[root])
        return (mark,) if mark is not None and has_mark(self.game.board, root, mark) else ()
