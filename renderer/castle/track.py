"""Where The Castle's wall cells and its 100 score-track spaces are, derived from the castle data.

The wall is the ring of cells around the interior. A wall cell beside an interior square carries
two track spaces (one per half of its side, in walking order); a corner tower holds two spaces
split by a diagonal; the start squares lie on the inner half of their wall cells. The track runs
clockwise (the interior on the walker's right) from tower 0/1, following the rule of the castle
notes: two spaces per tile edge of wall, none along an edge under an inner-corner tower.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.castle.board import TRACK_SPACES, CastleGeometry, castle_geometry
from engine.core.tiles import EDGE_STEPS

Pos = tuple[int, int]
Point = tuple[float, float]
#: Unit corners of a cell: NW, NE, SE, SW.
_CORNERS: tuple[Point, ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
#: Depth of the part of a wall cell that faces the interior (start squares, wall walk).
INNER_DEPTH = 0.54


@dataclass(frozen=True, slots=True)
class WallCell:
    """A straight wall cell: the side facing the interior (0 N, 1 E, 2 S, 3 W), its two spaces."""

    cell: Pos
    side: int
    spaces: tuple[int, int]
    #: The direction the track runs along this cell (dx, dy).
    heading: Pos


@dataclass(frozen=True, slots=True)
class TowerCell:
    """A corner tower: its two spaces, each with the triangle it fills (unit coordinates)."""

    cell: Pos
    spaces: tuple[int, int]
    triangles: tuple[tuple[Point, Point, Point], tuple[Point, Point, Point]]
    #: The diagonal splitting the tower (from one cell corner to the opposite one).
    diagonal: tuple[Point, Point]


@dataclass(frozen=True, slots=True)
class Track:
    walls: dict[Pos, WallCell]
    towers: dict[Pos, TowerCell]
    #: Space number -> (cell, unit point where a marker on it stands).
    spaces: dict[int, tuple[Pos, Point]]

    @property
    def cells(self) -> list[Pos]:
        return [*self.walls, *self.towers]


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _side(frm: Pos, to: Pos) -> int:
    step = (to[0] - frm[0], to[1] - frm[1])
    return EDGE_STEPS.index(step)


def space_box(wall: WallCell, index: int) -> tuple[float, float, float, float]:
    """Unit box (x0, y0, x1, y1) of the ``index``-th (0 or 1) space of a straight wall cell."""
    side = wall.side
    depth = 1 - INNER_DEPTH
    # The track band lies on the outer part of the cell, away from the interior.
    if side == 0:
        band = (0.0, 1 - depth, 1.0, 1.0)
    elif side == 2:
        band = (0.0, 0.0, 1.0, depth)
    elif side == 1:
        band = (0.0, 0.0, depth, 1.0)
    else:
        band = (1 - depth, 0.0, 1.0, 1.0)
    x0, y0, x1, y1 = band
    dx, dy = wall.heading
    first = index == 0
    if dx:
        west = (dx > 0) == first
        return (x0, y0, 0.5, y1) if west else (0.5, y0, x1, y1)
    north = (dy > 0) == first
    return (x0, y0, x1, 0.5) if north else (x0, 0.5, x1, y1)


def inner_box(side: int) -> tuple[float, float, float, float]:
    """Unit box of the part of a wall cell facing the interior across ``side``."""
    d = INNER_DEPTH
    return [(0.0, 0.0, 1.0, d), (1 - d, 0.0, 1.0, 1.0), (0.0, 1 - d, 1.0, 1.0), (0.0, 0.0, d, 1.0)][
        side
    ]


def _centroid(tri: tuple[Point, Point, Point]) -> Point:
    return (sum(p[0] for p in tri) / 3, sum(p[1] for p in tri) / 3)


@cache
def castle_track(geometry: CastleGeometry | None = None) -> Track:
    """The wall cells, towers and track spaces of the castle (computed once)."""
    geometry = geometry or castle_geometry()
    interior = geometry.interior
    towers = geometry.towers
    walls: dict[Pos, WallCell] = {}
    for i, tower in enumerate(towers):
        following = towers[(i + 1) % len(towers)]
        (ax, ay), (bx, by) = tower.corner, following.corner
        dx, dy = _sign(bx - ax), _sign(by - ay)
        length = abs(bx - ax) + abs(by - ay)
        steps = list(range(length))
        if tower.inner:
            steps = steps[1:]
        if following.inner:
            steps = steps[:-1]
        number = tower.spaces[1] + 1
        for k in steps:
            px, py = ax + dx * k, ay + dy * k
            if dx == 0:
                y = min(py, py + dy)
                pair = ((px - 1, y), (px, y))
            else:
                x = min(px, px + dx)
                pair = ((x, py - 1), (x, py))
            inside = pair[0] if pair[0] in interior else pair[1]
            wall = pair[1] if inside == pair[0] else pair[0]
            walls[wall] = WallCell(wall, _side(wall, inside), (number, number + 1), (dx, dy))
            number += 2
        if number % TRACK_SPACES != following.spaces[0]:
            raise ValueError(
                f"the track between towers {tower.spaces} and {following.spaces} does not add up"
            )
    spaces: dict[int, tuple[Pos, Point]] = {}
    for straight in walls.values():
        for index, number in enumerate(straight.spaces):
            x0, y0, x1, y1 = space_box(straight, index)
            spaces[number] = (straight.cell, ((x0 + x1) / 2, (y0 + y1) / 2))
    cell_of = {n: cell for n, (cell, _) in spaces.items()}
    for tower in towers:
        for n in tower.spaces:
            cell_of[n] = tower.cell
    tower_cells: dict[Pos, TowerCell] = {}
    for tower in towers:
        first, second = tower.spaces
        arrive = _side(tower.cell, cell_of[(first - 1) % TRACK_SPACES])
        leave = _side(tower.cell, cell_of[(second + 1) % TRACK_SPACES])
        # Side k runs from corner k to corner k+1 (N: NW-NE, E: NE-SE, ...).
        shared = ({arrive, (arrive + 1) % 4} & {leave, (leave + 1) % 4}).pop()
        opposite = (shared + 2) % 4
        c, o = _CORNERS[shared], _CORNERS[opposite]

        def third(side: int, c_index: int = shared) -> Point:
            ends = {side, (side + 1) % 4}
            return _CORNERS[(ends - {c_index}).pop()]

        tri_in = (c, third(arrive), o)
        tri_out = (c, third(leave), o)
        tower_cells[tower.cell] = TowerCell(tower.cell, tower.spaces, (tri_in, tri_out), (c, o))
        for number, tri in zip(tower.spaces, (tri_in, tri_out), strict=True):
            spaces[number] = (tower.cell, _label_point(tri, c, o))
    return Track(walls, tower_cells, spaces)


def _label_point(tri: tuple[Point, Point, Point], c: Point, o: Point) -> Point:
    """A point well inside a tower's half, away from the diagonal and the wall tile on it."""
    k = next(p for p in tri if p not in (c, o))
    return (0.5 + (k[0] - 0.5) * 0.56, 0.5 + (k[1] - 0.5) * 0.56)
