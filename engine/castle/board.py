"""The Castle's geometry and board: interior squares, start squares, the score track's towers.

The castle is data (``engine/castle/castle.toml``, a documented reconstruction of the original):
76 interior squares, 7 start squares built into the wall, 14 corner towers on a 100-space track.
:class:`CastleBoard` is the shared union-find board bounded to the interior, with two castle
rules:

- only paths must continue across a side (``P`` faces ``P``, anything else faces anything else);
- a side facing the castle wall closes every tower, house or path touching it, as a side facing
  another tile does. Start squares are real tiles on the board (laid at setup, in the wall), so a
  feature that runs into one joins it and counts it as a tile; a tile side facing a start
  square's wall part is closed like any side facing a placed tile.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.core.board import Board, Pos
from engine.core.footprint import CLOSABLE
from engine.core.tiles import EDGE_STEPS, Oriented

TRACK_SPACES = 100


@dataclass(frozen=True, slots=True)
class StartSquare:
    """A start square: a tile kind (``S1``...) lying unrotated in the wall at ``cell``."""

    kind: str
    cell: Pos


@dataclass(frozen=True, slots=True)
class CornerTower:
    """A corner tower of the score track: two spaces; a face-down wall tile at setup or not."""

    spaces: tuple[int, int]
    #: The outline corner point it stands at, and the outside cell it is drawn in.
    corner: Pos
    cell: Pos
    inner: bool
    wall_tile: bool


@dataclass(frozen=True, slots=True)
class CastleGeometry:
    interior: frozenset[Pos]
    starts: tuple[StartSquare, ...]
    towers: tuple[CornerTower, ...]

    def tower_at(self, space: int) -> CornerTower | None:
        """The corner tower holding track space ``space`` (0-99), if any."""
        return _TOWER_BY_SPACE.get(space)


_TOWER_BY_SPACE: dict[int, CornerTower] = {}


@cache
def castle_geometry() -> CastleGeometry:
    """The castle as the data file describes it (read once)."""
    text = resources.files("engine.castle").joinpath("castle.toml").read_text("utf-8")
    data = tomllib.loads(text)["castle"]
    interior = frozenset(
        (x, y) for y, first, last in data["interior"] for x in range(first, last + 1)
    )
    starts = tuple(StartSquare(s["kind"], (s["cell"][0], s["cell"][1])) for s in data["start"])
    towers = tuple(
        CornerTower(
            spaces=(t["spaces"][0], t["spaces"][1]),
            corner=(t["corner"][0], t["corner"][1]),
            cell=(t["cell"][0], t["cell"][1]),
            inner=bool(t["inner"]),
            wall_tile=bool(t["wall_tile"]),
        )
        for t in data["towers"]
    )
    for tower in towers:
        for space in tower.spaces:
            _TOWER_BY_SPACE[space] = tower
    return CastleGeometry(interior, starts, towers)


def paths_match(mine: str, theirs: str) -> bool:
    """The Castle's matching: a path side faces a path side; other sides face anything."""
    return (mine == "P") == (theirs == "P")


class CastleBoard(Board):
    """The union-find board bounded to the castle interior, with the wall closing features."""

    def __init__(self, geometry: CastleGeometry) -> None:
        super().__init__(match=paths_match)
        self.geometry = geometry
        self.interior = geometry.interior

    def clone(self) -> Board:
        new = super().clone()
        assert isinstance(new, CastleBoard)
        new.geometry = self.geometry
        new.interior = self.interior
        return new

    def in_bounds(self, cell: Pos) -> bool:
        return cell in self.interior

    def place(self, oriented: Oriented, pos: Pos, turn: int) -> list[int]:
        touched = super().place(oriented, pos, turn)
        first = self.tiles[pos].first_node
        x, y = pos
        for edge, (dx, dy) in enumerate(EDGE_STEPS):
            cell = (x + dx, y + dy)
            if cell in self.tiles or cell in self.interior:
                continue
            # The castle wall: whatever touches this side is closed here.
            for local in oriented.edge_features[edge]:
                if oriented.features[local].type in CLOSABLE:
                    self.open[self.find(first + local)] -= 1
        return touched

    def empty_squares(self) -> set[Pos]:
        return {cell for cell in self.interior if cell not in self.tiles}

    def empty_regions(self) -> list[set[Pos]]:
        """The connected groups (by sides) of empty interior squares, largest first."""
        left = self.empty_squares()
        regions: list[set[Pos]] = []
        while left:
            seed = min(left)
            left.discard(seed)
            region = {seed}
            todo = [seed]
            while todo:
                x, y = todo.pop()
                for dx, dy in EDGE_STEPS:
                    cell = (x + dx, y + dy)
                    if cell in left:
                        left.discard(cell)
                        region.add(cell)
                        todo.append(cell)
            regions.append(region)
        regions.sort(key=lambda r: (-len(r), min(r)))
        return regions

    def largest_empty_region(self) -> int:
        regions = self.empty_regions()
        return len(regions[0]) if regions else 0

    def parts(self, root: int) -> Iterator[tuple[Pos, int]]:
        """Every (square, local feature) making up feature ``root``."""
        tiles = self.ftiles[root]
        assert tiles is not None
        for pos in sorted(tiles):
            placed = self.tiles[pos]
            for local in range(len(placed.oriented.features)):
                if self.find(placed.first_node + local) == root:
                    yield pos, local

    def count_mark(self, root: int, mark: str) -> int:
        """How many parts of feature ``root`` carry ``mark`` (``market``, ``well``)."""
        total = 0
        for pos, local in self.parts(root):
            if self.tiles[pos].oriented.features[local].extra.get(mark):
                total += 1
        return total
