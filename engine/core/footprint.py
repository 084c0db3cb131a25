"""What the board needs of a tile lying in one orientation, worked out once per orientation.

:meth:`engine.core.board.Board.place` runs for every tile of every game (and of every fork a
search plays), so the per-feature facts it needs (types, pennants, linked cities, how many edges
a feature must close, which features of an edge the open-edge counters concern, the features at
each edge's three positions) are read from here instead of being derived from the features again.
"""

from __future__ import annotations

from engine.core.tiles import CORNERS, Oriented

#: Feature types whose completion is counted by open edges.
CLOSABLE = frozenset({"road", "city", "river", "forest", "path", "tower", "house"})


class Footprint:
    """The precomputed facts of one :class:`Oriented` (see :func:`footprint`)."""

    __slots__ = (
        "backs",
        "by_type",
        "centres",
        "cities",
        "closable",
        "corners",
        "count",
        "edge_at",
        "edge_types",
        "ftypes",
        "labels",
        "linked",
        "locals",
        "meets",
        "opens",
        "pennants",
        "sides",
        "undone",
    )

    def __init__(self, oriented: Oriented) -> None:
        features = oriented.features
        at = oriented.at_position
        self.count = len(features)
        self.ftypes = tuple(f.type for f in features)
        self.pennants = tuple(f.pennants for f in features)
        #: Local indices of the centre features (a cloister, an abbey).
        self.centres = tuple(i for i, f in enumerate(features) if f.centre)
        #: Local indices of each feature's linked features (a field's cities).
        self.cities = tuple(f.cities for f in features)
        #: Whether some feature has linked features.
        self.linked = any(self.cities)
        #: The local indices, and a ``False`` for each (a new node's ``done``).
        self.locals = tuple(range(self.count))
        self.undone = (False,) * self.count
        #: Each feature's open edges when the tile lies alone (a centre's are counted on the
        #: board, from the tiles around it).
        self.opens = tuple(
            0 if f.centre or f.type not in CLOSABLE else len({p // 3 for p in f.positions})
            for f in features
        )
        #: Per edge: its features whose open-edge counter a neighbour there lowers.
        self.closable = tuple(
            tuple(local for local in locals_ if features[local].type in CLOSABLE)
            for locals_ in oriented.edge_features
        )
        #: Each feature's canonical ``at`` (:meth:`Oriented.at_label`).
        self.labels = tuple(oriented.at_label(i) for i in range(len(features)))
        #: Local indices by feature type, in order.
        self.by_type: dict[str, tuple[int, ...]] = {}
        for index, f in enumerate(features):
            self.by_type[f.type] = (*self.by_type.get(f.type, ()), index)
        #: Per edge: its local features by type, in position order.
        self.edge_types: tuple[dict[str, tuple[int, ...]], ...] = tuple(
            {t: tuple(i for i in locals_ if features[i].type == t) for t in self.ftypes}
            for locals_ in oriented.edge_features
        )
        #: Per corner (NW, NE, SE, SW): the feature holding both half-edges there, or -1.
        self.corners = {
            corner: at[a] if at[a] >= 0 and at[a] == at[b] else -1
            for corner, (a, b) in CORNERS.items()
        }
        #: Per edge: the local feature at each of its three positions (-1 where none).
        self.edge_at = tuple(tuple(at[3 * e + i] for i in range(3)) for e in range(4))
        #: Per edge, an id of what lies along it (its features and their types), as seen from
        #: this tile and as seen from the neighbour across it: :func:`joins` pairs two of them.
        typed = [
            tuple((local, self.ftypes[local] if local >= 0 else "") for local in row)
            for row in self.edge_at
        ]
        self.sides = tuple(_side_id(row) for row in typed)
        self.backs = tuple(_side_id(row[::-1]) for row in typed)
        #: Per edge: a neighbour's back id there -> :func:`joins` of them (filled as met).
        self.meets: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple({} for _ in range(4))


#: What lies along an edge, ((local, type) at each of its three positions), by id.
_SIDES: dict[tuple[tuple[int, str], ...], int] = {}
_SIDE_ROWS: list[tuple[tuple[int, str], ...]] = []
#: (side id, back id) -> the pairs of local features that join, see :func:`joins`.
JOINS: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


def _side_id(row: tuple[tuple[int, str], ...]) -> int:
    found = _SIDES.get(row)
    if found is None:
        found = _SIDES[row] = len(_SIDE_ROWS)
        _SIDE_ROWS.append(row)
    return found


def joins(side: int, back: int) -> tuple[tuple[int, int], ...]:
    """The (mine, theirs) local features that become one feature where my edge with ``side``
    meets a neighbour's edge with ``back`` (:attr:`Footprint.sides`, :attr:`Footprint.backs`):
    facing positions with the same type, each pair once, in position order."""
    found = JOINS.get((side, back))
    if found is None:
        pairs: list[tuple[int, int]] = []
        for (a, mine), (b, theirs) in zip(_SIDE_ROWS[side], _SIDE_ROWS[back], strict=True):
            if a >= 0 and b >= 0 and (a, b) not in pairs and mine == theirs:
                pairs.append((a, b))
        found = JOINS[(side, back)] = tuple(pairs)
    return found


#: id(oriented) -> (oriented, its footprint); holding the oriented keeps its id from being reused.
_FOOTPRINTS: dict[int, tuple[Oriented, Footprint]] = {}


def footprint(oriented: Oriented) -> Footprint:
    """The :class:`Footprint` of ``oriented``, computed at its first placement."""
    cached = _FOOTPRINTS.get(id(oriented))
    if cached is None:
        cached = _FOOTPRINTS[id(oriented)] = (oriented, Footprint(oriented))
    return cached[1]
