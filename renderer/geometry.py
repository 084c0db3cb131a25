"""Tile geometry derived from feature data: city outlines, road paths, regions and figure spots.

Everything is computed in unit coordinates (the tile is the square [0, 1] x [0, 1], y south) from
an oriented tile's features, so a new tile set needs data, not drawing code. A few shapes cannot
be told from edge letters alone (a road touching a city wall, a city passing over another, a city
whose walls reach the far corners); for those, the layout tries a short list of shape variants
and keeps the first one whose drawn field regions split the edge positions exactly as the tile's
field data says. Rarer shapes (a corner city reaching the far corner, two gates on one wall, two
cities meeting where roads end, a field between two corner cities) are tried only after the
usual ones fail. The chosen layout is cached per (kind, rotation).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.core.tiles import Oriented
from renderer import emblems, families
from renderer.river import RiverShape, draw_region, river_variants

Point = tuple[float, float]
CORNER_POINTS: tuple[Point, ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
CENTRE: Point = (0.5, 0.5)
#: Where the figure of a barn stands for each corner name.
CORNER_SPOTS: dict[str, Point] = {
    "NW": (0.0, 0.0),
    "NE": (1.0, 0.0),
    "SE": (1.0, 1.0),
    "SW": (0.0, 1.0),
}
ROAD_WIDTH = 0.13
CENTRE_RADIUS = 0.17
GRID = 64  # resolution of the region map used to check layouts and find spots


def position_point(position: int, inset: float = 0.0) -> Point:
    """The point of one of the 12 edge positions (on the edge, moved ``inset`` inwards)."""
    edge, third = divmod(position, 3)
    (ax, ay), (bx, by) = CORNER_POINTS[edge], CORNER_POINTS[(edge + 1) % 4]
    t = (1 / 6, 1 / 2, 5 / 6)[third]
    nx, ny = INWARD[edge]
    return (ax + (bx - ax) * t + nx * inset, ay + (by - ay) * t + ny * inset)


def edge_mid(edge: int) -> Point:
    return position_point(3 * edge + 1)


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def quad(a: Point, c: Point, b: Point, steps: int = 16) -> list[Point]:
    """Points of a quadratic Bezier curve from a to b (control c), a excluded."""
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        out.append(_lerp(_lerp(a, c, t), _lerp(c, b, t), t))
    return out


def cubic(a: Point, c1: Point, c2: Point, b: Point, steps: int = 20) -> list[Point]:
    """Points of a cubic Bezier curve from a to b, a excluded."""
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u**3 * a[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t**3 * b[0],
                u**3 * a[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t**3 * b[1],
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class CityShape:
    """A city's outline: the polygon, and the wall runs (the parts not on the tile's edge)."""

    local: int
    polygon: tuple[Point, ...]
    walls: tuple[tuple[Point, ...], ...]


@dataclass(frozen=True, slots=True)
class RoadShape:
    """A road as one or more paths (polylines from an edge towards their end)."""

    local: int
    paths: tuple[tuple[Point, ...], ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything drawn on one oriented tile, plus where each feature's figure stands."""

    cities: tuple[CityShape, ...]
    roads: tuple[RoadShape, ...]
    #: What stands in the middle: "cloister", "abbey", "village", "well", "house" or "".
    centre: str
    #: Points where a road passes a city wall (drawn as gates).
    gates: tuple[Point, ...]
    spots: dict[int, Point]
    #: Per city: where its coats of arms go (one point per pennant).
    pennants: dict[int, tuple[Point, ...]]
    #: The River's water (drawn under roads, which cross it on bridges).
    rivers: tuple[RiverShape, ...] = ()
    #: Per feature: a symbol drawn on it and where ("inn", "cathedral", "wine", "grain", "cloth").
    emblems: dict[int, tuple[str, Point]] = field(default_factory=dict)


# -- cities ------------------------------------------------------------------------------------


def _city_edges(positions: frozenset[int]) -> list[int]:
    return [e for e in range(4) if any(p // 3 == e for p in positions)]


def city_cap(
    local: int, edges: Sequence[int], depth: float = 1.1, reach: float = 1.15, bow: float = 0.3
) -> CityShape:
    """The usual city: straight along its edges, a curved wall across the rest.

    ``depth`` sets how far a wall across a single free edge bows in (a narrow band when high),
    ``reach`` how deep a one-edge city's wall goes (1.88: nearly to the centre), and ``bow``
    how a two-edge corner city's wall bends (towards the far corner; negative: away from it,
    leaving room for a field between it and another corner city).
    """
    covered = set(edges)
    if len(covered) == 4:
        square = tuple(CORNER_POINTS)
        return CityShape(local, square, ())
    start = next(e for e in range(4) if e in covered and (e - 1) % 4 not in covered)
    points: list[Point] = [CORNER_POINTS[start]]
    walls: list[tuple[Point, ...]] = []
    e = start
    for _ in range(4):
        if e in covered:
            points.append(CORNER_POINTS[(e + 1) % 4])
            e = (e + 1) % 4
            if e == start:
                break
            continue
        run = 0
        while (e + run) % 4 not in covered:
            run += 1
        a, b = CORNER_POINTS[e], CORNER_POINTS[(e + run) % 4]
        if run == 2:
            corner = CORNER_POINTS[(e + 1) % 4]
            control = _lerp(CENTRE, corner, bow)
        else:
            middle = _lerp(a, b, 0.5)
            control = _lerp(middle, CENTRE, depth if run == 1 else reach)
        curve = quad(a, control, b)
        walls.append((a, *curve))
        points.extend(curve)
        e = (e + run) % 4
        if e == start:
            break
    return CityShape(local, tuple(points[:-1]), tuple(walls))


def city_tongue(local: int, edge: int) -> CityShape:
    """A one-edge city reaching deep into the tile (it passes over another city)."""
    a, b = CORNER_POINTS[edge], CORNER_POINTS[(edge + 1) % 4]
    inward = INWARD[edge]
    along = (b[0] - a[0], b[1] - a[1])
    mid = edge_mid(edge)
    right = _add(_add(mid, inward, 0.3), along, 0.17)
    tip = _add(mid, inward, 0.8)
    left = _add(_add(mid, inward, 0.3), along, -0.17)
    wall = [b, *cubic(b, _add(b, inward, 0.12), _add(right, inward, -0.1), right, 8)]
    wall += cubic(right, _add(right, inward, 0.12), _add(tip, along, 0.2), tip, 10)
    wall += cubic(tip, _add(tip, along, -0.2), _add(left, inward, 0.12), left, 10)
    wall += cubic(left, _add(left, inward, -0.1), _add(a, inward, 0.12), a, 8)
    return CityShape(local, (a, *wall[:-1]), (tuple(wall),))


def city_fan(local: int, edge: int) -> CityShape:
    """A one-edge city whose walls reach the two far corners (three fields around it)."""
    c = [CORNER_POINTS[(edge + i) % 4] for i in range(4)]
    side1 = _lerp(c[1], c[2], 0.5)
    far = _lerp(c[2], c[3], 0.5)
    side2 = _lerp(c[3], c[0], 0.5)
    wall = [c[1], *quad(c[1], _lerp(side1, CENTRE, 0.6), c[2])]
    wall += quad(c[2], _lerp(far, CENTRE, 0.75), c[3])
    wall += quad(c[3], _lerp(side2, CENTRE, 0.6), c[0])
    return CityShape(local, (c[0], *wall[:-1]), (tuple(wall),))


def city_to_corner(local: int, edges: Sequence[int]) -> CityShape:
    """A two-edge corner city whose wall reaches the far corner: the tile's two other edges
    keep only a strip of field each, cut apart at that corner."""
    start = next(e for e in edges if (e - 1) % 4 not in edges)
    c = [CORNER_POINTS[(start + i) % 4] for i in range(4)]
    side1 = _lerp(c[2], c[3], 0.5)
    side2 = _lerp(c[3], c[0], 0.5)
    wall = [c[2], *quad(c[2], _lerp(side1, CENTRE, 1.2), c[3])]
    wall += quad(c[3], _lerp(side2, CENTRE, 1.2), c[0])
    return CityShape(local, (c[0], c[1], *wall[:-1]), (tuple(wall),))


def _city_variants(
    local: int, positions: frozenset[int], extended: bool = False
) -> list[CityShape]:
    edges = _city_edges(positions)
    variants = [city_cap(local, edges)]
    if len(edges) == 2 and (edges[1] - edges[0]) % 2 == 0:
        variants.append(city_cap(local, edges, 1.7))
    if len(edges) == 1:
        variants += [city_tongue(local, edges[0]), city_fan(local, edges[0])]
    if extended and len(edges) == 1:
        variants.append(city_cap(local, edges, reach=1.88))
    if extended and len(edges) == 2 and (edges[1] - edges[0]) % 2 == 1:
        variants += [city_cap(local, edges, bow=-0.3), city_to_corner(local, edges)]
    return variants


# -- roads -------------------------------------------------------------------------------------


def _towards(a: Point, b: Point, k: float) -> Point:
    return _lerp(a, b, k)


def road_through(ends: Sequence[int], via: Point | None) -> tuple[Point, ...]:
    """A road crossing the tile between two edges, optionally bent through ``via``."""
    a, b = edge_mid(ends[0]), edge_mid(ends[1])
    ia, ib = INWARD[ends[0]], INWARD[ends[1]]
    if via is None:
        return (a, *cubic(a, _add(a, ia, 0.3), _add(b, ib, 0.3), b))
    # Arrive at the via point running along the wall (perpendicular to the centre-to-via line),
    # so the road grazes the wall instead of diving into the city.
    nx, ny = via[0] - 0.5, via[1] - 0.5
    tx, ty = -ny, nx
    if tx * (b[0] - a[0]) + ty * (b[1] - a[1]) < 0:
        tx, ty = -tx, -ty
    norm = max((tx * tx + ty * ty) ** 0.5, 1e-6)
    t = (tx / norm * 0.2, ty / norm * 0.2)
    first = cubic(a, _add(a, ia, 0.25), _add(via, t, -1), via)
    second = cubic(via, _add(via, t), _add(b, ib, 0.25), b)
    return (a, *first, *second)


def road_to(edge: int, target: Point, approach: Point | None = None) -> tuple[Point, ...]:
    """A road from an edge's middle to ``target`` (arriving along ``approach`` if given)."""
    a = edge_mid(edge)
    c1 = _add(a, INWARD[edge], 0.25)
    c2 = _add(target, approach, 0.25) if approach is not None else _lerp(target, c1, 0.3)
    return (a, *cubic(a, c1, c2, target))


def _wall_point(city: CityShape, near: Point = CENTRE) -> Point:
    """The point of a city's wall nearest ``near`` (the tile centre), pushed a little into the
    city."""
    points = [p for wall in city.walls for p in wall] or list(city.polygon)
    best = min(points, key=lambda p: (p[0] - near[0]) ** 2 + (p[1] - near[1]) ** 2)
    inside = _lerp(best, _polygon_centroid(city.polygon), 0.15)
    return inside


def _beside_wall(city: CityShape) -> Point:
    """A point just outside a city's wall: a road bent through it touches the wall."""
    best = _wall_point(city)
    return _lerp(best, _polygon_centroid(city.polygon), -0.35)


def _polygon_centroid(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _city_approach(city: CityShape) -> Point:
    """The direction a road arrives from when it runs into a city gate (out of the city)."""
    wall = _wall_point(city)
    cx, cy = _polygon_centroid(city.polygon)
    dx, dy = wall[0] - cx, wall[1] - cy
    norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    return (dx / norm, dy / norm)


# -- layout search -----------------------------------------------------------------------------


def _centre_kind(oriented: Oriented, single_ends: int, branched: bool) -> str:
    if oriented.centre >= 0:
        return "abbey" if set(oriented.edges) == {"*"} else "cloister"
    if branched:
        return "well"
    if single_ends >= 2:
        return "village"
    if single_ends == 1:
        return "house"
    return ""


def _scaled(points: Sequence[Point], size: float) -> list[tuple[float, float]]:
    return [(x * size, y * size) for x, y in points]


def region_map(
    oriented: Oriented,
    cities: Sequence[CityShape],
    roads: Sequence[RoadShape],
    centre: str,
    size: int = GRID,
    rivers: Sequence[RiverShape] = (),
) -> Image.Image:
    """An L image: 0 for field, local + 1 for a road/city/centre/river feature, 255 for
    decorations."""
    image = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(image)
    for river in rivers:
        draw_region(draw, river, size, river.local + 1)
    width = max(2, round(ROAD_WIDTH * size))
    for road in roads:
        for path in road.paths:
            draw.line(_scaled(path, size), fill=road.local + 1, width=width, joint="curve")
    if centre:
        r = CENTRE_RADIUS * size
        value = oriented.centre + 1 if oriented.centre >= 0 else 255
        draw.ellipse((size / 2 - r, size / 2 - r, size / 2 + r, size / 2 + r), fill=value)
    for city in cities:
        draw.polygon(_scaled(city.polygon, size), fill=city.local + 1)
    return image


def _components(pixels: bytearray, size: int) -> tuple[list[int], int]:
    """Connected 0-valued regions (4-neighbour): per pixel its component id (-1 elsewhere)."""
    comp = [-1] * (size * size)
    count = 0
    for start in range(size * size):
        if pixels[start] != 0 or comp[start] >= 0:
            continue
        comp[start] = count
        stack = [start]
        while stack:
            p = stack.pop()
            y, x = divmod(p, size)
            for q, ok in (
                (p - 1, x > 0),
                (p + 1, x < size - 1),
                (p - size, y > 0),
                (p + size, y < size - 1),
            ):
                if ok and pixels[q] == 0 and comp[q] < 0:
                    comp[q] = count
                    stack.append(q)
        count += 1
    return comp, count


def _sample(position: int, size: int) -> int:
    x, y = position_point(position, 1.5 / size)
    return min(size - 1, int(y * size)) * size + min(size - 1, int(x * size))


def field_regions(
    oriented: Oriented, image: Image.Image
) -> tuple[dict[int, list[int]], list[int], int] | None:
    """Map each field to its components if the drawing splits the edge positions as the data does.

    Returns (field local -> component ids, per-pixel component ids, component count), or None
    when some component touches positions of two different fields, a field with edge positions
    has no component, or there are fewer enclosed pockets than inner fields.
    """
    size = image.width
    pixels = bytearray(image.tobytes())
    comp, count = _components(pixels, size)
    owner: dict[int, int] = {}
    fields: dict[int, list[int]] = {}
    for local, feat in enumerate(oriented.features):
        if feat.type != "field" or feat.inner >= 0:
            continue
        for position in feat.positions:
            c = comp[_sample(position, size)]
            if c < 0:
                continue
            if owner.setdefault(c, local) != local:
                return None
            if c not in fields.setdefault(local, []):
                fields[local].append(c)
        if not fields.get(local):
            return None
    sizes = [0] * count
    touching: list[set[int]] = [set() for _ in range(count)]
    for p, c in enumerate(comp):
        if c < 0:
            continue
        sizes[c] += 1
        y, x = divmod(p, size)
        for q, ok in (
            (p - 1, x > 0),
            (p + 1, x < size - 1),
            (p - size, y > 0),
            (p + size, y < size - 1),
        ):
            if ok and pixels[q]:
                touching[c].add(pixels[q] - 1)
    smallest = size * size // 60
    pockets = sorted(
        (c for c in range(count) if c not in owner and sizes[c] >= smallest),
        key=lambda c: -sizes[c],
    )
    inner = sorted(
        (f.inner, local)
        for local, f in enumerate(oriented.features)
        if f.type == "field" and f.inner >= 0
    )
    if len(pockets) < len(inner):
        return None
    for (_, local), c in zip(inner, pockets, strict=False):
        fields[local] = [c]
    city_locals = {i for i, f in enumerate(oriented.features) if f.type == "city"}
    for local, comps in fields.items():
        touched = set().union(*(touching[c] for c in comps)) & city_locals
        if touched != set(oriented.features[local].cities):
            return None
    return fields, comp, count


def _road_variants(
    oriented: Oriented, cities: Sequence[CityShape], extended: bool = False
) -> tuple[list[list[RoadShape]], int, bool]:
    """Per road its shape variants, the number of roads ending on the tile (not at a city or
    cloister) and whether roads branch. ``extended`` adds the rarer shapes: a road running into
    the part of the wall facing its own edge, and roads ending between two cities."""
    by_local = {c.local: c for c in cities}
    linked = dict(oriented.links)
    to_cities = {
        road: [city for other, city in oriented.links if other == road and city in by_local]
        for road in range(len(oriented.features))
    }
    options: list[list[RoadShape]] = []
    single_ends = 0
    branched = False
    for local, feat in enumerate(oriented.features):
        if feat.type != "road":
            continue
        edges = sorted({p // 3 for p in feat.positions})
        if len(edges) == 2:
            vias: list[Point | None] = [None, *(_beside_wall(c) for c in cities if c.walls)]
            options.append([RoadShape(local, (road_through(edges, v),)) for v in vias])
        elif len(edges) == 1:
            city = by_local.get(linked.get(local, -1))
            if extended and len(to_cities[local]) >= 2:
                # Two cities meeting in the middle (IC05): the road ends where they touch.
                options.append([RoadShape(local, (road_to(edges[0], CENTRE),))])
                continue
            if city is not None:
                path = road_to(edges[0], _wall_point(city), _city_approach(city))
                if extended:
                    # Nearly straight in from its edge to the wall in front of it.
                    mid = edge_mid(edges[0])
                    facing = _wall_point(city, _lerp(mid, CENTRE, 0.5))
                    back = (mid[0] - facing[0], mid[1] - facing[1])
                    norm = max((back[0] ** 2 + back[1] ** 2) ** 0.5, 1e-6)
                    straight = road_to(edges[0], facing, (back[0] / norm, back[1] / norm))
                    options.append([RoadShape(local, (straight,)), RoadShape(local, (path,))])
                    continue
            else:
                if oriented.centre < 0:
                    single_ends += 1
                path = road_to(edges[0], CENTRE)
            options.append([RoadShape(local, (path,))])
        else:
            branched = True
            options.append([RoadShape(local, tuple(road_to(e, CENTRE) for e in edges))])
    return options, single_ends, branched


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def _gates(cities: Sequence[CityShape], roads: Sequence[RoadShape]) -> list[Point]:
    """Where a road runs into a city (at least a few steps deep): there is a gate in the wall."""
    gates: list[Point] = []
    for road in roads:
        for path in road.paths:
            for city in cities:
                flags = [_inside(p, city.polygon) for p in path]
                for i in range(1, len(path)):
                    if flags[i] and not flags[i - 1] and all(flags[i : i + 5]):
                        gates.append(path[i])
                    if not flags[i] and flags[i - 1] and all(flags[max(0, i - 5) : i]):
                        gates.append(path[i - 1])
    return gates


def _distances(pixels: bytes, size: int) -> list[int]:
    """Chamfer distance (3-4 weights) from each pixel to the nearest pixel of another value."""
    big = 1 << 20
    dist = [big] * (size * size)
    for p in range(size * size):
        y, x = divmod(p, size)
        if x in (0, size - 1) or y in (0, size - 1):
            dist[p] = 0
            continue
        v = pixels[p]
        if (
            pixels[p - 1] != v
            or pixels[p + 1] != v
            or pixels[p - size] != v
            or pixels[p + size] != v
        ):
            dist[p] = 0
    forward = ((-1, 3), (-size, 3), (-size - 1, 4), (-size + 1, 4))
    for p in range(size + 1, size * size - size - 1):
        best = dist[p]
        for off, w in forward:
            d = dist[p + off] + w
            if d < best:
                best = d
        dist[p] = best
    for p in range(size * size - size - 2, size, -1):
        best = dist[p]
        for off, w in forward:
            d = dist[p - off] + w
            if d < best:
                best = d
        dist[p] = best
    return dist


def _best_pixel(
    candidates: Sequence[int], dist: Sequence[int], size: int, avoid: Sequence[Point] = ()
) -> Point:
    def score(p: int) -> tuple[float, float]:
        y, x = divmod(p, size)
        point = ((x + 0.5) / size, (y + 0.5) / size)
        near = min((abs(point[0] - a[0]) + abs(point[1] - a[1]) for a in avoid), default=9.0)
        penalty = 1000 if near < 0.3 else 0
        return (dist[p] - penalty, -abs(point[0] - 0.5) - abs(point[1] - 0.5))

    best = max(candidates, key=score)
    y, x = divmod(best, size)
    return ((x + 0.5) / size, (y + 0.5) / size)


def _finish(
    oriented: Oriented,
    cities: Sequence[CityShape],
    roads: Sequence[RoadShape],
    centre: str,
    image: Image.Image,
    fields: dict[int, list[int]],
    comp: list[int],
    rivers: Sequence[RiverShape] = (),
) -> Layout:
    size = image.width
    pixels = image.tobytes()
    dist = _distances(pixels, size)
    spots: dict[int, Point] = {}
    pennants: dict[int, tuple[Point, ...]] = {}
    marks: dict[int, tuple[str, Point]] = {}
    for road in roads:
        path = road.paths[0]
        wanted = 0.25 if len(path) > 30 else 0.45
        # The visible part of the road nearest the wanted point (a road may pass under a city).
        order = sorted(range(len(path)), key=lambda i: abs(i / len(path) - wanted))
        visible = [i for i in order if not any(_inside(path[i], c.polygon) for c in cities)]
        spots[road.local] = path[(visible or order)[0]]
    for city in cities:
        mine = [p for p in range(size * size) if pixels[p] == city.local + 1]
        if not mine:
            mine = [size * (size // 2) + size // 2]
        extra = oriented.features[city.local].extra
        church: tuple[Point, ...] = ()
        if extra.get("cathedral"):
            # The cathedral takes the roomiest spot; the figure stands beside it.
            church = (_best_pixel(mine, dist, size),)
            marks[city.local] = ("cathedral", church[0])
        spots[city.local] = _best_pixel(mine, dist, size, church)
        shields: list[Point] = []
        for _ in range(oriented.features[city.local].pennants):
            shields.append(_best_pixel(mine, dist, size, (spots[city.local], *shields)))
        pennants[city.local] = tuple(shields)
        goods = extra.get("goods")
        if isinstance(goods, str):
            marks[city.local] = (
                goods,
                _best_pixel(mine, dist, size, (spots[city.local], *shields)),
            )
    for road in roads:
        if oriented.features[road.local].extra.get("inn"):
            at = emblems.inn_place(road.paths[0], spots[road.local], pixels, dist, size)
            marks[road.local] = ("inn", at)
    for local, comps in fields.items():
        members: dict[int, list[int]] = {c: [] for c in comps}
        for p, c in enumerate(comp):
            if c in members:
                members[c].append(p)
        biggest = max(members.values(), key=len)
        spots[local] = _best_pixel(biggest, dist, size)
    if oriented.centre >= 0:
        spots[oriented.centre] = CENTRE
    return Layout(
        cities=tuple(cities),
        roads=tuple(roads),
        centre=centre,
        gates=tuple(_gates(cities, roads)),
        spots=spots,
        pennants=pennants,
        rivers=tuple(rivers),
        emblems=marks,
    )


def _search(oriented: Oriented) -> Layout:
    city_feats = [
        (local, f) for local, f in enumerate(oriented.features) if f.type == "city" and f.positions
    ]
    # Later features are drawn first, so the first city (the one with the pennant on the
    # crossing tiles) lies on top of the others.
    city_feats.reverse()
    fallback: Layout | None = None
    river_options = river_variants(oriented)
    # The rarer shapes are tried only when the usual ones fail, so that they never replace a
    # tile's usual picture.
    for extended in (False, True):
        city_options = [_city_variants(local, f.positions, extended) for local, f in city_feats]
        for cities in itertools.product(*city_options):
            road_options, single_ends, branched = _road_variants(oriented, cities, extended)
            centre = _centre_kind(oriented, single_ends, branched)
            for rivers, roads in itertools.product(
                itertools.product(*river_options), itertools.product(*road_options)
            ):
                image = region_map(oriented, cities, roads, centre, rivers=rivers)
                found = field_regions(oriented, image)
                if found is not None:
                    fields, comp, _ = found
                    return _finish(oriented, cities, roads, centre, image, fields, comp, rivers)
                if fallback is None:
                    fallback = _finish(oriented, cities, roads, centre, image, {}, [], rivers)
    # No variant matches the data: draw the plainest shape rather than fail (and tests flag it).
    assert fallback is not None
    return fallback


_LAYOUTS: dict[tuple[str, int], Layout] = {}
families.LAYOUT_CACHES["carcassonne"] = _LAYOUTS
_LOCK = threading.Lock()


def layout(oriented: Oriented) -> Layout:
    """The cached layout of an oriented tile (thread-safe)."""
    key = (oriented.kind, oriented.rotation)
    found = _LAYOUTS.get(key)
    if found is None:
        with _LOCK:
            found = _LAYOUTS.get(key)
            if found is None:
                found = _LAYOUTS[key] = _search(oriented)
    return found


def matches_data(oriented: Oriented) -> bool:
    """Whether the drawn layout splits the fields exactly as the tile data says (for tests)."""
    chosen = layout(oriented)
    image = region_map(oriented, chosen.cities, chosen.roads, chosen.centre, rivers=chosen.rivers)
    return field_regions(oriented, image) is not None
