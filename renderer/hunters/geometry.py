"""Hunters & Gatherers tile geometry, derived from the tile data alone.

Water is laid out first (:mod:`renderer.hunters.water`), then the land left over is shared
between forests and meadows (:mod:`renderer.hunters.land`). The result is checked against the
data; a few lake, spring and forest-depth variants are tried and the best kept. Then figure spots
are placed, apart from each other so their number badges do not overlap, and the decorations
(animals, gold, mushrooms, the volcano) beside them.

Layouts are computed for the unrotated tile and turned, so a tile looks the same in every
rotation. Everything is in unit coordinates: the tile is [0, 1] x [0, 1], y grows south.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.core.tiles import Oriented, load_set
from renderer import families
from renderer.geometry import Point, _distances
from renderer.hunters.land import FOREST_REACH, LAND, check_land, grow_land
from renderer.hunters.water import (
    GRID,
    RIVER_WIDTH,
    SPRING_RADIUS,
    VARIANTS,
    Feat,
    LakeShape,
    RiverShape,
    lay_water,
    water_mask,
)

__all__ = [
    "GRID",
    "LAND",
    "RIVER_WIDTH",
    "SPRING_RADIUS",
    "WATER",
    "HuntersLayout",
    "base_layout",
    "decorations",
    "features_of",
    "is_hunters_tile",
    "marks",
    "spots",
    "tile_extra",
    "turn_point",
]

WATER = frozenset({"river", "lake"})


def is_hunters_tile(oriented: Oriented) -> bool:
    """Whether a tile belongs to the Hunters & Gatherers family (forests, meadows, water); The
    River's tiles have water too, but Carcassonne's fields, roads and cities around it."""
    types = {f.type for f in oriented.features}
    return bool(types & (LAND | WATER)) and not types & {"field", "road", "city"}


@dataclass(frozen=True, slots=True)
class HuntersLayout:
    """Everything drawn on a tile (unrotated) and where figures and decorations go (rotated)."""

    kind: str
    #: Land map of the unrotated tile, GRID x GRID: local + 1 of a forest/meadow, 0 for water.
    labels: bytes
    rivers: tuple[RiverShape, ...]
    lakes: tuple[LakeShape, ...]
    #: Figure spot per local feature, for the unrotated tile.
    spots: dict[int, Point]
    #: Decoration points per land feature (animals, nuggets, ...), for the unrotated tile.
    marks: dict[int, tuple[Point, ...]]
    #: Whether the drawing splits the land exactly as the data says.
    valid: bool
    #: Pixel pairs where two different meadows touch (drawn as a hedge).
    seams: int

    def label_at(self, point: Point) -> int:
        x = min(GRID - 1, max(0, int(point[0] * GRID)))
        y = min(GRID - 1, max(0, int(point[1] * GRID)))
        return self.labels[y * GRID + x] - 1


def turn_point(point: Point, turns: int) -> Point:
    """A point of the unrotated tile after ``turns`` quarter turns clockwise."""
    x, y = point
    for _ in range(turns % 4):
        x, y = 1.0 - y, x
    return (x, y)


def features_of(oriented: Oriented) -> list[Feat]:
    """The tile's features with their positions as on the unrotated tile."""
    turns = oriented.rotation // 90
    return [
        Feat(
            local,
            f.type,
            frozenset((p - 3 * turns) % 12 for p in f.positions),
            tuple(f.cities) if f.type == "river" else (),
            dict(f.extra),
        )
        for local, f in enumerate(oriented.features)
    ]


# -- spots ---------------------------------------------------------------------------------


def decorations(feat: Feat, volcano: bool = False) -> list[str]:
    """What is drawn on a land feature, in order (one entry per animal); ``volcano`` for the
    start tile, whose forest holds the volcano."""
    items: list[str] = ["volcano"] if volcano and feat.type == "forest" else []
    if feat.type == "forest":
        for name in ("nugget", "mushrooms"):
            if feat.extra.get(name):
                items.append(name)
    else:
        for name in ("shrine", "fire"):
            if feat.extra.get(name):
                items.append(name)
        for animal in ("mammoth", "aurochs", "deer", "tiger"):
            items.extend([animal] * int(feat.extra.get(animal, 0)))
    return items


def pick(
    candidates: Sequence[int],
    dist: Sequence[int],
    avoid: Sequence[Point] = (),
    room: float = 0.15,
    apart: float = 0.3,
    weight: float = 2.5,
) -> Point:
    """The candidate pixel with the most room around it (up to ``room``, counted ``weight``
    times), far from ``avoid`` (up to ``apart``), nearest the tile centre on ties. Distances in
    tile units."""

    def score(p: int) -> tuple[float, float]:
        y, x = divmod(p, GRID)
        point = ((x + 0.5) / GRID, (y + 0.5) / GRID)
        inside = min(dist[p] / (3 * GRID), room)
        away = min((math.dist(point, a) for a in avoid), default=apart)
        value = weight * inside + min(away, apart) - (0.2 if inside < 0.035 else 0.0)
        return (round(value, 3), -abs(point[0] - 0.5) - abs(point[1] - 0.5))

    # Every other pixel of a large region is plenty (and four times faster).
    sample = [p for p in candidates if not (p // GRID) % 2 and not p % 2] or list(candidates)
    best = max(sample if len(candidates) > 40 else candidates, key=score)
    y, x = divmod(best, GRID)
    return ((x + 0.5) / GRID, (y + 0.5) / GRID)


def _river_spot(path: Sequence[Point], lakes: Sequence[LakeShape], taken: Sequence[Point]) -> Point:
    """A point on a river, outside lakes, near its middle and away from other spots."""
    n = len(path) - 1
    best, best_score = path[n // 2], -1.0
    for i, (x, y) in enumerate(path):
        share = i / n
        if not 0.18 <= share <= 0.8:
            continue
        if any(math.hypot(x - k.centre[0], y - k.centre[1]) < k.radius * 1.15 for k in lakes):
            continue
        if min(x, y, 1 - x, 1 - y) < 0.12:
            continue
        away = min((math.dist((x, y), t) for t in taken), default=0.4)
        score = min(away, 0.28) - 0.1 * abs(share - 0.35)
        if score > best_score:
            best, best_score = (x, y), score
    return best


#: Spots closer than this are pushed apart (their number badges would overlap).
SPOT_GAP = 0.26


def _spread(
    spots: dict[int, Point],
    labels: Sequence[int],
    rivers: Sequence[RiverShape],
    lakes: Sequence[LakeShape],
) -> None:
    """Push crowded spots apart, each staying on its own feature and inside the tile."""
    paths = {r.local: r.path for r in rivers}
    pools = {k.local: k for k in lakes}

    def allowed(local: int, point: Point) -> bool:
        x, y = point
        if not (0.07 <= x <= 0.93 and 0.07 <= y <= 0.93):
            return False
        if local in paths:
            return min(math.dist(point, q) for q in paths[local]) < RIVER_WIDTH * 0.4 and all(
                math.dist(point, k.centre) > k.radius for k in lakes
            )
        if local in pools:
            return math.dist(point, pools[local].centre) < pools[local].radius * 0.75
        gx, gy = min(GRID - 1, int(x * GRID)), min(GRID - 1, int(y * GRID))
        return labels[gy * GRID + gx] == local + 1

    keys = sorted(spots)
    for _ in range(24):
        moved = False
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                (ax, ay), (bx, by) = spots[a], spots[b]
                gap = math.dist((ax, ay), (bx, by))
                if gap >= SPOT_GAP:
                    continue
                ux, uy = ((ax - bx) / gap, (ay - by) / gap) if gap > 1e-6 else (1.0, 0.0)
                step = min(0.03, (SPOT_GAP - gap) / 2)
                for key, sign in ((a, 1.0), (b, -1.0)):
                    x, y = spots[key]
                    for k in (1.0, 0.5):
                        target = (x + sign * ux * step * k, y + sign * uy * step * k)
                        if allowed(key, target):
                            spots[key] = target
                            moved = True
                            break
        if not moved:
            return


def _spots(
    feats: Sequence[Feat],
    labels: Sequence[int],
    rivers: Sequence[RiverShape],
    lakes: Sequence[LakeShape],
    volcano: bool,
) -> tuple[dict[int, Point], dict[int, tuple[Point, ...]]]:
    """Figure spots kept apart (their number badges must not overlap), then decorations."""
    image = bytes(labels)
    dist = _distances(image, GRID)
    spots: dict[int, Point] = {}
    marks: dict[int, tuple[Point, ...]] = {}
    for lake in lakes:
        spots[lake.local] = lake.spot
    for river in rivers:
        spots[river.local] = _river_spot(river.path, lakes, list(spots.values()))
    regions = {
        f.local: [p for p, v in enumerate(labels) if v == f.local + 1] or [GRID * GRID // 2]
        for f in feats
        if f.type in LAND
    }
    volcanoes: dict[int, Point] = {}
    for f in feats:
        if f.type in LAND and decorations(f, volcano)[:1] == ["volcano"]:
            # The volcano is the tile's landmark: it takes the best place first.
            volcanoes[f.local] = pick(regions[f.local], dist, room=0.2)
    # Small regions choose first: they have the fewest places to choose from.
    for f in sorted((f for f in feats if f.type in LAND), key=lambda f: len(regions[f.local])):
        taken = [*spots.values(), *volcanoes.values()]
        spots[f.local] = pick(regions[f.local], dist, taken, room=0.12, apart=0.28, weight=1.0)
    _spread(spots, labels, rivers, lakes)
    for f in feats:
        if f.type not in LAND:
            continue
        placed = [volcanoes[f.local]] if f.local in volcanoes else []
        for _ in decorations(f, volcano)[len(placed) :]:
            placed.append(pick(regions[f.local], dist, (spots[f.local], *placed)))
        marks[f.local] = tuple(placed)
    return spots, marks


# -- the search ----------------------------------------------------------------------------


#: Forest reach tried in turn: slim forests first, deeper ones when they part meadows better.
REACHES: tuple[float | None, ...] = (FOREST_REACH, 0.24, None)


def compute(kind: str, feats: Sequence[Feat], volcano: bool = False) -> HuntersLayout:
    """The layout of an unrotated tile: the variant that matches the data best."""
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(kind))
    has_water = any(f.type in WATER for f in feats)
    forests = {f.local + 1 for f in feats if f.type == "forest"}
    best: tuple[tuple[bool, int], list[int], list[RiverShape], list[LakeShape]] | None = None
    for depth, reach in enumerate(REACHES if forests else REACHES[:1]):
        prelim = grow_land(feats, None, reach)
        forest_map = [1 if v in forests else 0 for v in prelim]
        for variant in VARIANTS if has_water else VARIANTS[:1]:
            rng = random.Random(seed)
            rivers, lakes = lay_water(feats, forest_map, variant, rng)
            mask = water_mask(rivers, lakes, GRID).point(lambda v: 1 if v >= 128 else 0)
            labels = grow_land(feats, mask.tobytes(), reach)
            valid, seams = check_land(feats, labels)
            # Deeper forests only win when they part the meadows clearly better.
            score = (valid, -(seams + 8 * depth))
            if best is None or score > best[0]:
                best = (score, labels, rivers, lakes)
            if valid and seams == 0:
                break
        if best is not None and best[0] == (True, -8 * depth):
            break
    assert best is not None
    (valid, _), labels, rivers, lakes = best
    spots, marks = _spots(feats, labels, rivers, lakes, volcano)
    _, seams = check_land(feats, labels)
    return HuntersLayout(
        kind, bytes(labels), tuple(rivers), tuple(lakes), spots, marks, valid, seams
    )


_LAYOUTS: dict[str, HuntersLayout] = {}
families.LAYOUT_CACHES["hunters"] = _LAYOUTS
_LOCK = threading.Lock()


def base_layout(oriented: Oriented) -> HuntersLayout:
    """The cached layout of a tile kind, unrotated (thread-safe)."""
    key = oriented.kind
    found = _LAYOUTS.get(key)
    if found is None:
        with _LOCK:
            found = _LAYOUTS.get(key)
            if found is None:
                # The volcano is a tile attribute; the renderer only sees features, so the
                # start tile (the only tile with a lake fed from W and a nugget forest on E+S)
                # is recognised by the features it carries.
                feats = features_of(oriented)
                found = _LAYOUTS[key] = compute(oriented.kind, feats, volcano_tile(oriented))
    return found


@cache
def tile_extra(kind: str) -> dict[str, object]:
    """Tile-level data of a Hunters & Gatherers kind: ``bonus``, ``special``, ``volcano``.

    The renderer is handed oriented tiles, which carry only their features; these flags live on
    the tile kind in the set's data.
    """
    for tile in load_set("hunters"):
        if tile.name == kind:
            return dict(tile.extra)
    return {}


def volcano_tile(oriented: Oriented) -> bool:
    """Whether the tile is the start tile with the volcano."""
    return bool(tile_extra(oriented.kind).get("volcano"))


def spots(oriented: Oriented) -> dict[int, Point]:
    """Figure spot per local feature, in the tile's orientation."""
    turns = oriented.rotation // 90
    return {k: turn_point(p, turns) for k, p in base_layout(oriented).spots.items()}


def marks(oriented: Oriented) -> dict[int, tuple[Point, ...]]:
    """Decoration points per land feature, in the tile's orientation."""
    turns = oriented.rotation // 90
    return {
        k: tuple(turn_point(p, turns) for p in points)
        for k, points in base_layout(oriented).marks.items()
    }
