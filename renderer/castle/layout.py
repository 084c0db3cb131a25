"""The Castle's tile geometry, derived from the tile data: paths, building and courtyard regions.

A castle tile gives each of its 12 edge positions to a path, tower, house or courtyard. The
picture is computed from that alone, so a corrected tile list needs no drawing code:

- paths are drawn first, as strips from edge middles: straight, bent, to a junction, to a small
  square in the middle, or to the door of the building on the tile;
- every other position seeds its feature just inside its third of the edge, and the regions grow
  from there (a shortest-distance race on a small grid) without crossing a path. Towers and houses
  stop at a fixed depth, so they stand along their edges as blocks, and courtyards fill the rest;
  whatever no courtyard reaches goes to the nearest building. A building split in two by this
  race (a house on two opposite edges) is joined by a bar through the middle.

The layout is computed once per tile kind, unrotated, and rotated for each orientation; figure
spots (the widest point of each region, a point on each path) and market stalls come with it.
"""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from engine.core.tiles import Oriented, TileKind, kinds_by_name
from renderer import families
from renderer.geometry import Point, _distances, cubic, edge_mid

GRID = 40
PATH_WIDTH = 0.17
PLAZA_RADIUS = 0.16
#: How far a tower or house reaches in from its edge (a fraction of the tile side).
BUILD_DEPTH = 0.34
BUILDINGS = ("tower", "house")
INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
#: Neighbour steps of the chamfer distance: 3 along a side, 4 across a corner.
_STEPS = tuple((dx, dy, 3 if dx == 0 or dy == 0 else 4) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
_STEPS = tuple(s for s in _STEPS if s[:2] != (0, 0))
_FAR = 1 << 30


@dataclass(frozen=True, slots=True)
class PathShape:
    """One path of a tile: polylines from edge middles, and how it ends ("", square, door...)."""

    local: int
    lines: tuple[tuple[Point, ...], ...]
    end: str
    well: Point | None


@dataclass(frozen=True, slots=True)
class CastleLayout:
    """What a castle tile shows, in unit coordinates (x east, y south), for one rotation."""

    #: Per grid cell (row by row, GRID x GRID): the local feature index + 1 of the ground there.
    regions: bytes
    paths: tuple[PathShape, ...]
    #: The small square where paths end, if the tile has one (always the middle).
    plaza: Point | None
    #: The junction hub of paths that meet without ending (drawn as a wider paving).
    hub: Point | None
    #: Path ends at a building's door: (door point, direction the path arrives from).
    doors: tuple[tuple[Point, Point], ...]
    spots: dict[int, Point]
    #: Courtyard local index -> where its market stall stands.
    markets: dict[int, Point]


@cache
def castle_kinds() -> dict[str, TileKind]:
    """The castle tile kinds (castle tiles and start squares) by name."""
    return kinds_by_name("castle")


def is_castle_tile(oriented: Oriented) -> bool:
    """Whether an oriented tile is one of The Castle's (drawn by the castle art)."""
    kind = castle_kinds().get(oriented.kind)
    if kind is None:
        return False
    ours = kind.oriented(oriented.rotation)
    return ours is oriented or ours == oriented


# -- paths -------------------------------------------------------------------------------------


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _along(a: Point, direction: Point, k: float) -> Point:
    return (a[0] + direction[0] * k, a[1] + direction[1] * k)


def _door_target(kind: TileKind, edge: int) -> Point:
    """Where a path from ``edge`` meets the door of the tile's building (opposite edge first)."""
    buildings = [f for f in kind.features if f.type in BUILDINGS]
    opposite = (edge + 2) % 4
    chosen = next(
        (f for f in buildings if opposite in f.edges), buildings[0] if buildings else None
    )
    if chosen is None:
        return (0.5, 0.5)
    far = opposite if opposite in chosen.edges else min(chosen.edges)
    return _along(edge_mid(far), INWARD[far], BUILD_DEPTH)


def _paths(kind: TileKind) -> tuple[list[PathShape], Point | None, Point | None, list[Point]]:
    shapes: list[PathShape] = []
    plaza: Point | None = None
    hub: Point | None = None
    doors: list[Point] = []
    centre = (0.5, 0.5)
    for local, feat in enumerate(kind.features):
        if feat.type != "path":
            continue
        edges = sorted(p // 3 for p in feat.positions)
        end = str(feat.extra.get("end", ""))
        lines: list[tuple[Point, ...]]
        well: Point | None = None
        if end == "square":
            plaza = centre
            start = edge_mid(edges[0])
            lines = [(start, _along(centre, INWARD[edges[0]], -PLAZA_RADIUS * 0.5))]
        elif end == "door":
            start = edge_mid(edges[0])
            target = _door_target(kind, edges[0])
            doors.append(target)
            lines = [(start, target)]
        elif end == "wall":
            start = edge_mid(edges[0])
            lines = [(start, _along(start, INWARD[edges[0]], 0.5))]
        elif len(edges) == 2 and (edges[1] - edges[0]) % 2 == 0:
            a, b = edge_mid(edges[0]), edge_mid(edges[1])
            lines = [(a, _lerp(a, b, 0.5), b)]
            well = _lerp(a, b, 0.5)
        elif len(edges) == 2:
            a, b = edge_mid(edges[0]), edge_mid(edges[1])
            curve = cubic(
                a, _along(a, INWARD[edges[0]], 0.32), _along(b, INWARD[edges[1]], 0.32), b, 24
            )
            lines = [(a, *curve)]
            well = curve[11]
        else:
            hub = centre
            lines = [(edge_mid(e), centre) for e in edges]
            well = centre
        shapes.append(PathShape(local, tuple(lines), end, well if feat.extra.get("well") else None))
    return shapes, plaza, hub, doors


# -- regions -----------------------------------------------------------------------------------


def _barrier(paths: list[PathShape], plaza: Point | None) -> bytearray:
    image = Image.new("L", (GRID, GRID), 0)
    draw = ImageDraw.Draw(image)
    width = max(2, round(PATH_WIDTH * GRID))
    for path in paths:
        for line in path.lines:
            points = [(x * GRID, y * GRID) for x, y in line]
            draw.line(points, fill=255, width=width, joint="curve")
            for x, y in (points[0], points[-1]):
                r = width / 2
                draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    if plaza is not None:
        r = PLAZA_RADIUS * GRID
        cx, cy = plaza[0] * GRID, plaza[1] * GRID
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    return bytearray(image.tobytes())


def _edge_pixel(position: int, t: float) -> int:
    """The grid cell just inside the edge at fraction ``t`` along position ``position``'s side."""
    edge, third = divmod(position, 3)
    along = (third + t) / 3
    u = [(along, 0.0), (1.0, along), (1 - along, 1.0), (0.0, 1 - along)][edge]
    x = min(GRID - 1, max(0, int(u[0] * GRID)))
    y = min(GRID - 1, max(0, int(u[1] * GRID)))
    return y * GRID + x


def _seeds(kind: TileKind, barrier: bytearray) -> list[tuple[int, int]]:
    """(cell, local) pairs just inside the edges; a path's own third goes to its two sides."""
    owner = [-1] * 12
    for local, feat in enumerate(kind.features):
        for position in feat.positions:
            owner[position] = local
    path_at = {p for p in range(12) if owner[p] >= 0 and kind.features[owner[p]].type == "path"}
    seeds: list[tuple[int, int]] = []
    samples = [i / 16 for i in range(17)]
    for position in range(12):
        if owner[position] < 0:
            continue
        for t in samples:
            if position in path_at:
                side = position - 1 if t < 0.5 else position + 1
                local = owner[side % 12] if (side % 12) not in path_at else -1
            else:
                local = owner[position]
            cell = _edge_pixel(position, t)
            if local >= 0 and not barrier[cell]:
                seeds.append((cell, local))
    return seeds


def _race(
    seeds: list[tuple[int, int]], barrier: bytearray, limits: dict[int, int], labels: list[int]
) -> None:
    """Grow labelled regions from the seeds (chamfer distance), each up to its limit."""
    dist = [_FAR] * (GRID * GRID)
    done = bytearray(GRID * GRID)
    heap = [(0, cell, local) for cell, local in seeds]
    heapq.heapify(heap)
    while heap:
        d, cell, local = heapq.heappop(heap)
        if done[cell]:  # the first pop of a cell is its shortest distance
            continue
        done[cell] = 1
        labels[cell] = local
        y, x = divmod(cell, GRID)
        limit = limits.get(local, _FAR)
        for dx, dy, w in _STEPS:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < GRID and 0 <= ny < GRID):
                continue
            near = ny * GRID + nx
            nd = d + w
            if not done[near] and labels[near] < 0 and not barrier[near] and nd <= limit:
                if nd >= dist[near]:
                    continue
                dist[near] = nd
                heapq.heappush(heap, (nd, near, local))


def _components(labels: list[int], local: int) -> list[list[int]]:
    left = {i for i, v in enumerate(labels) if v == local}
    parts: list[list[int]] = []
    while left:
        start = left.pop()
        part, todo = [start], [start]
        while todo:
            cell = todo.pop()
            y, x = divmod(cell, GRID)
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                near = ny * GRID + nx
                if 0 <= nx < GRID and 0 <= ny < GRID and near in left:
                    left.discard(near)
                    part.append(near)
                    todo.append(near)
        parts.append(part)
    parts.sort(key=len, reverse=True)
    return parts


def _centroid(cells: list[int]) -> Point:
    xs = [c % GRID for c in cells]
    ys = [c // GRID for c in cells]
    return ((sum(xs) / len(xs) + 0.5) / GRID, (sum(ys) / len(ys) + 0.5) / GRID)


def _bridge(labels: list[int], barrier: bytearray, local: int) -> None:
    """Join the parts of a split feature with bars through the tile's middle."""
    parts = _components(labels, local)
    if len(parts) < 2:
        return
    image = Image.new("L", (GRID, GRID), 0)
    draw = ImageDraw.Draw(image)
    width = round(0.3 * GRID)
    main = _centroid(parts[0])
    for part in parts[1:]:
        a = _centroid(part)
        draw.line(
            [
                (a[0] * GRID, a[1] * GRID),
                (0.5 * GRID, 0.5 * GRID),
                (main[0] * GRID, main[1] * GRID),
            ],
            fill=255,
            width=width,
            joint="curve",
        )
    for cell, on in enumerate(image.tobytes()):
        if on and not barrier[cell]:
            labels[cell] = local


def _regions(kind: TileKind, barrier: bytearray) -> list[int]:
    labels = [-1] * (GRID * GRID)
    depth = round(BUILD_DEPTH * GRID * 3)
    limits: dict[int, int] = {}
    for local, feat in enumerate(kind.features):
        full_edges = sum(all(3 * e + i in feat.positions for i in range(3)) for e in range(4))
        if feat.type in BUILDINGS and full_edges < 3:
            limits[local] = depth
    seeds = _seeds(kind, barrier)
    _race(seeds, barrier, limits, labels)
    # Left over (beyond the buildings' depth, out of every courtyard's reach): nearest region.
    grown = [(cell, local) for cell, local in enumerate(labels) if local >= 0]
    if any(v < 0 and not b for v, b in zip(labels, barrier, strict=True)):
        _race(grown, barrier, {}, labels)
    for local, feat in enumerate(kind.features):
        if feat.type in BUILDINGS:
            _bridge(labels, barrier, local)
    # Ground under the paths (and anything walled off): the nearest region, paths ignored.
    if any(v < 0 for v in labels):
        grown = [(cell, local) for cell, local in enumerate(labels) if local >= 0]
        _race(grown, bytearray(GRID * GRID), {}, labels)
    return labels


# -- spots -------------------------------------------------------------------------------------


def _best(cells: list[int], dist: list[int], avoid: list[Point]) -> Point:
    def score(cell: int) -> tuple[float, float]:
        y, x = divmod(cell, GRID)
        point = ((x + 0.5) / GRID, (y + 0.5) / GRID)
        near = min((abs(point[0] - a[0]) + abs(point[1] - a[1]) for a in avoid), default=9.0)
        return (
            dist[cell] - (1000 if near < 0.28 else 0),
            -abs(point[0] - 0.5) - abs(point[1] - 0.5),
        )

    best = max(cells, key=score)
    y, x = divmod(best, GRID)
    return ((x + 0.5) / GRID, (y + 0.5) / GRID)


def _path_spot(path: PathShape) -> Point:
    line = path.lines[0]
    if path.end in ("square", "door", "wall") or len(path.lines) > 1:
        return _lerp(line[0], line[-1], 0.42)
    # A through path: a third of the way along, clear of a well in the middle.
    return line[len(line) // 3] if len(line) > 3 else _lerp(line[0], line[-1], 0.3)


def _spots(
    kind: TileKind, labels: list[int], barrier: bytearray, paths: list[PathShape]
) -> tuple[dict[int, Point], dict[int, Point]]:
    shown = bytes((0 if b else v + 1) for v, b in zip(labels, barrier, strict=True))
    dist = _distances(shown, GRID)
    spots: dict[int, Point] = {p.local: _path_spot(p) for p in paths}
    markets: dict[int, Point] = {}
    taken = list(spots.values())
    for local, feat in enumerate(kind.features):
        if feat.type == "path":
            continue
        cells = [i for i, v in enumerate(shown) if v == local + 1] or [GRID * GRID // 2]
        spots[local] = _best(cells, dist, taken)
        taken.append(spots[local])
    for local, feat in enumerate(kind.features):
        if feat.type == "courtyard" and feat.extra.get("market"):
            cells = [i for i, v in enumerate(shown) if v == local + 1] or [GRID * GRID // 2]
            markets[local] = _best(cells, dist, taken)
            taken.append(markets[local])
    return spots, markets


# -- the layout and its rotations --------------------------------------------------------------


def _unrotated(kind: TileKind) -> CastleLayout:
    paths, plaza, hub, doors = _paths(kind)
    barrier = _barrier(paths, plaza)
    labels = _regions(kind, barrier)
    spots, markets = _spots(kind, labels, barrier, paths)
    door_dirs = tuple(
        (door, INWARD[next(p // 3 for p in f.positions)])
        for door, f in zip(
            doors, [f for f in kind.features if f.extra.get("end") == "door"], strict=True
        )
    )
    return CastleLayout(
        regions=bytes(v + 1 for v in labels),
        paths=tuple(paths),
        plaza=plaza,
        hub=hub,
        doors=door_dirs,
        spots=spots,
        markets=markets,
    )


def _turn(point: Point, quarters: int) -> Point:
    x, y = point
    for _ in range(quarters):
        x, y = 1 - y, x
    return (x, y)


def _turn_dir(direction: Point, quarters: int) -> Point:
    x, y = direction
    for _ in range(quarters):
        x, y = -y, x
    return (x, y)


def _rotated(base: CastleLayout, quarters: int) -> CastleLayout:
    if quarters == 0:
        return base
    image = Image.frombytes("L", (GRID, GRID), base.regions)
    for _ in range(quarters):
        image = image.transpose(Image.Transpose.ROTATE_270)
    return CastleLayout(
        regions=image.tobytes(),
        paths=tuple(
            PathShape(
                p.local,
                tuple(tuple(_turn(q, quarters) for q in line) for line in p.lines),
                p.end,
                _turn(p.well, quarters) if p.well else None,
            )
            for p in base.paths
        ),
        plaza=_turn(base.plaza, quarters) if base.plaza else None,
        hub=_turn(base.hub, quarters) if base.hub else None,
        doors=tuple((_turn(d, quarters), _turn_dir(v, quarters)) for d, v in base.doors),
        spots={k: _turn(v, quarters) for k, v in base.spots.items()},
        markets={k: _turn(v, quarters) for k, v in base.markets.items()},
    )


_LAYOUTS: dict[tuple[str, int], CastleLayout] = {}
families.LAYOUT_CACHES["castle"] = _LAYOUTS
_LOCK = threading.Lock()


def castle_layout(oriented: Oriented) -> CastleLayout:
    """The cached layout of an oriented castle tile (thread-safe)."""
    key = (oriented.kind, oriented.rotation)
    found = _LAYOUTS.get(key)
    if found is None:
        with _LOCK:
            found = _LAYOUTS.get(key)
            if found is None:
                base = _LAYOUTS.get((oriented.kind, 0))
                if base is None:
                    base = _LAYOUTS[(oriented.kind, 0)] = _unrotated(castle_kinds()[oriented.kind])
                found = _LAYOUTS[key] = _rotated(base, oriented.rotation // 90)
    return found


def region_at(layout: CastleLayout, point: Point) -> int:
    """The local feature index of the ground at a unit point (-1 outside)."""
    x = min(GRID - 1, max(0, int(point[0] * GRID)))
    y = min(GRID - 1, max(0, int(point[1] * GRID)))
    return layout.regions[y * GRID + x] - 1
