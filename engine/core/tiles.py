"""Tile kinds as data: loading the TOML tile sets and precomputing the four rotations.

Edge positions follow the project's 12-position notation: 0, 1, 2 on the north edge (west to
east), 3, 4, 5 on the east edge (north to south), 6, 7, 8 on the south edge (east to west) and
9, 10, 11 on the west edge (south to north). Rotating a tile 90 degrees clockwise moves position
``p`` to ``(p + 3) % 12`` and edge ``e`` (0 = N, 1 = E, 2 = S, 3 = W) to ``(e + 1) % 4``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

ROTATIONS = (0, 90, 180, 270)
EDGE_NAMES = ("N", "E", "S", "W")
#: Unit steps (dx, dy) towards each edge's neighbour; y grows south.
EDGE_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
CORNERS = {"NW": (11, 0), "NE": (2, 3), "SE": (5, 6), "SW": (8, 9)}


def facing(position: int) -> int:
    """The position of the neighbouring tile that touches ``position`` across the edge."""
    return 8 - position if (position // 3) % 2 == 0 else 14 - position


def rotate_position(position: int, rotation: int) -> int:
    return (position + 3 * (rotation // 90)) % 12


_FEATURE_KEYS = frozenset({"id", "type", "at", "pennants", "cities", "lakes"})


class TileDataError(ValueError):
    """A tile set file is inconsistent."""


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature of a tile kind, in a given orientation."""

    id: str
    type: str
    positions: frozenset[int]
    #: True for a cloister/abbey (a figure stands at "C").
    centre: bool = False
    #: Index among the tile's edge-less fields (0 for "I1", 1 for "I2"), or -1.
    inner: int = -1
    pennants: int = 0
    #: Indices (in the tile's feature list) of linked features: the cities a field touches, the
    #: lakes a river ends in.
    cities: tuple[int, ...] = ()
    #: Extra per-set attributes (animals, fish, nuggets, ...), read by the game modules.
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def edges(self) -> frozenset[int]:
        """The edges (0-3) this feature touches."""
        return frozenset(p // 3 for p in self.positions)


@dataclass(frozen=True, slots=True)
class Oriented:
    """A tile kind lying with a given rotation; everything the engine needs precomputed."""

    kind: str
    rotation: int
    edges: str
    features: tuple[Feature, ...]
    #: Local feature index at each of the 12 positions (-1 where none).
    at_position: tuple[int, ...]
    #: Per edge: the distinct local features touching it, in position order.
    edge_features: tuple[tuple[int, ...], ...]
    #: Index of the centre feature (cloister, abbey) or -1.
    centre: int
    #: Local feature indices linked for the wagon (pairs, both directions listed).
    links: tuple[tuple[int, int], ...]

    def feature_at(self, at: int | str) -> int:
        """The local feature index named by a record's ``at`` value, or -1 if none."""
        if isinstance(at, int):
            return self.at_position[at] if 0 <= at < 12 else -1
        if at == "C":
            return self.centre
        if at in ("I1", "I2"):
            wanted = int(at[1]) - 1
            for index, feat in enumerate(self.features):
                if feat.inner == wanted:
                    return index
        return -1

    def at_label(self, index: int) -> int | str:
        """The canonical ``at`` value naming local feature ``index`` (smallest position)."""
        feat = self.features[index]
        if feat.centre:
            return "C"
        if feat.inner >= 0:
            return f"I{feat.inner + 1}"
        return min(feat.positions)


@dataclass(frozen=True, slots=True)
class TileKind:
    """A tile kind as printed, unrotated, with its four orientations precomputed."""

    name: str
    count: int
    edges: str
    features: tuple[Feature, ...]
    links: tuple[tuple[int, int], ...]
    start: bool = False
    abbey: bool = False
    set_name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    orientations: tuple[Oriented, ...] = ()

    def oriented(self, rotation: int) -> Oriented:
        return self.orientations[rotation // 90]


def _orient(kind: TileKind, rotation: int) -> Oriented:
    turns = rotation // 90
    edges = "".join(kind.edges[(e - turns) % 4] for e in range(4))
    feats = tuple(
        Feature(
            id=f.id,
            type=f.type,
            positions=frozenset(rotate_position(p, rotation) for p in f.positions),
            centre=f.centre,
            inner=f.inner,
            pennants=f.pennants,
            cities=f.cities,
            extra=f.extra,
        )
        for f in kind.features
    )
    at_position = [-1] * 12
    for index, feat in enumerate(feats):
        for p in feat.positions:
            at_position[p] = index
    edge_features: list[tuple[int, ...]] = []
    for e in range(4):
        seen: list[int] = []
        for p in range(3 * e, 3 * e + 3):
            index = at_position[p]
            if index >= 0 and index not in seen:
                seen.append(index)
        edge_features.append(tuple(seen))
    centre = next((i for i, f in enumerate(feats) if f.centre), -1)
    return Oriented(
        kind=kind.name,
        rotation=rotation,
        edges=edges,
        features=feats,
        at_position=tuple(at_position),
        edge_features=tuple(edge_features),
        centre=centre,
        links=kind.links,
    )


def _parse_kind(raw: Mapping[str, Any], set_name: str) -> TileKind:
    name = str(raw["kind"])
    edges = str(raw["edges"])
    if len(edges) != 4:
        raise TileDataError(f"tile {name}: edges must have 4 letters, got {edges!r}")
    raw_features = list(raw.get("features", []))
    ids = [str(f["id"]) for f in raw_features]
    if len(set(ids)) != len(ids):
        raise TileDataError(f"tile {name}: duplicate feature ids {ids}")
    feats: list[Feature] = []
    inner_count = 0
    used: set[int] = set()
    for f in raw_features:
        at = f["at"]
        centre = at == "C"
        inner = -1
        positions: frozenset[int] = frozenset()
        if at == "inner":
            inner = inner_count
            inner_count += 1
        elif not centre:
            positions = frozenset(int(p) for p in at)
            if not positions or any(not 0 <= p < 12 for p in positions) or positions & used:
                raise TileDataError(f"tile {name}: bad or overlapping positions for {f['id']}")
            used |= positions
        # Linked features on the tile: the cities a field touches, the lakes a river ends in.
        linked = list(f.get("cities", [])) + list(f.get("lakes", []))
        cities = tuple(ids.index(str(c)) for c in linked)
        extra = {k: v for k, v in f.items() if k not in _FEATURE_KEYS}
        feats.append(
            Feature(
                id=str(f["id"]),
                type=str(f["type"]),
                positions=positions,
                centre=centre,
                inner=inner,
                pennants=int(f.get("pennants", 0)),
                cities=cities,
                extra=extra,
            )
        )
    links: list[tuple[int, int]] = []
    for group in raw.get("links", []):
        members = [ids.index(str(m)) for m in group]
        links.extend((a, b) for a in members for b in members if a != b)
    extra = {
        k: v
        for k, v in raw.items()
        if k not in {"kind", "count", "edges", "features", "links", "start", "abbey"}
    }
    kind = TileKind(
        name=name,
        count=int(raw["count"]),
        edges=edges,
        features=tuple(feats),
        links=tuple(links),
        start=bool(raw.get("start", False)),
        abbey=bool(raw.get("abbey", False)),
        set_name=set_name,
        extra=extra,
    )
    object.__setattr__(kind, "orientations", tuple(_orient(kind, r) for r in ROTATIONS))
    return kind


#: Where each tile set's data lives: set name -> package holding ``<set name>.toml``. Each game
#: family and expansion registers its own set when its package is imported.
TILE_SETS: dict[str, str] = {}


def register_tile_set(set_name: str, package: str) -> None:
    """Declare that tile set ``set_name`` is the file ``<set_name>.toml`` of ``package``."""
    TILE_SETS[set_name] = package


@cache
def load_set(set_name: str) -> tuple[TileKind, ...]:
    """The tile kinds of one set (``base``, ``abbey_mayor``, ...), in file order."""
    if set_name not in TILE_SETS:
        raise TileDataError(f"unknown tile set {set_name!r}: no package registered it")
    package = TILE_SETS[set_name]
    text = resources.files(package).joinpath(f"{set_name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    kinds = tuple(_parse_kind(raw, set_name) for raw in data.get("tile", []))
    names = [k.name for k in kinds]
    if len(set(names)) != len(names):
        raise TileDataError(f"tile set {set_name}: duplicate kind names")
    return kinds


def kinds_by_name(*set_names: str) -> dict[str, TileKind]:
    return {k.name: k for s in set_names for k in load_set(s)}
