"""Which rotations of a tile kind fit an empty square, by the letters of the edges facing it.

A square's key reads its neighbours' edges (N, E, S, W; ``?`` where there is none). Which
rotations of a kind fit a key is worked out once, when first asked, and kept for good in a table
shared by every board with the same matching rule and by the kinds with the same edges and the
same different-looking rotations (which rotations fit depends on nothing else). A second table
per kind gives how many different-looking placements one square with that key offers, so that
counting a kind's placements on a whole frontier is a sum of products.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.tiles import TileKind

#: (fitting rotations, fitting rotations that look different).
Fit = tuple[tuple[int, ...], tuple[int, ...]]
Match = Callable[[str, str], bool]


class FitTable(dict[str, Fit]):
    """key -> :data:`Fit` for one kind (and its twins), filled as keys are looked up."""

    def __init__(self, kind: TileKind, match: Match) -> None:
        super().__init__()
        self.kind = kind
        self.match = match
        #: Key id (:func:`key_id`) -> how many different-looking placements a square with that
        #: key offers, -1 where not worked out yet (a list: counting a kind's placements over
        #: a frontier reads it once per key, which compiled code does without a dict lookup).
        self.by_id: list[int] = []

    def __missing__(self, key: str) -> Fit:
        match = self.match
        rotations = tuple(
            o.rotation
            for o in self.kind.orientations
            if all(k == "?" or match(o.edges[s], k) for s, k in enumerate(key))
        )
        distinct = distinct_rotations(self.kind)
        fit = self[key] = (rotations, tuple(r for r in rotations if r in distinct))
        return fit

    def count_id(self, kid: int) -> int:
        """How many different-looking rotations of the kind fit the key of id ``kid`` (kept in
        :attr:`by_id`)."""
        by_id = self.by_id
        if kid >= len(by_id):
            by_id.extend([-1] * (kid + 1 - len(by_id)))
        found = by_id[kid]
        if found < 0:
            found = by_id[kid] = len(self[KEYS[kid]][1])
        return found


#: Every square key met so far (any board), and the id of each: its index here.
KEYS: list[str] = []
_KEY_IDS: dict[str, int] = {}


def key_id(key: str) -> int:
    """The id of a square key (its index in :data:`KEYS`), given when first asked."""
    found = _KEY_IDS.get(key)
    if found is None:
        found = _KEY_IDS[key] = len(KEYS)
        KEYS.append(key)
    return found


_BY_KIND: dict[tuple[Match, str], FitTable] = {}
_BY_SHAPE: dict[tuple[Match, str, frozenset[int]], FitTable] = {}
_DISTINCT: dict[str, frozenset[int]] = {}


def fit_table(match: Match, kind: TileKind) -> FitTable:
    """The table of ``kind`` under the matching rule ``match``."""
    table = _BY_KIND.get((match, kind.name))
    if table is None:
        shape = (match, kind.edges, distinct_rotations(kind))
        table = _BY_SHAPE.get(shape)
        if table is None:
            table = _BY_SHAPE[shape] = FitTable(kind, match)
        _BY_KIND[(match, kind.name)] = table
    return table


def distinct_rotations(kind: TileKind) -> frozenset[int]:
    """Rotations that give a different-looking tile (C has one, U two, D four)."""
    cached = _DISTINCT.get(kind.name)
    if cached is not None:
        return cached
    seen: set[object] = set()
    keep: set[int] = set()
    for o in kind.orientations:
        shape = (
            o.edges,
            frozenset(
                (f.type, f.positions, f.pennants, f.centre, f.inner, tuple(sorted(f.cities)))
                for f in o.features
            ),
        )
        if shape not in seen:
            seen.add(shape)
            keep.add(o.rotation)
    result = frozenset(keep)
    _DISTINCT[kind.name] = result
    return result
