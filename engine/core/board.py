"""The board: placed tiles, the frontier of empty squares, and features kept incrementally.

Features are nodes of a union-find forest, one node per (placed tile, local feature). Each root
carries the feature's data: the set of tiles it covers (so a tile counts once), pennants, open
edges (so "is it complete" is a comparison with 0), figures, and for fields the city nodes they
touch. A centre feature (cloister, abbey) keeps in ``open`` the number of empty squares around it.

The frontier maps each empty square next to a tile to a 4-letter key: the letters of the
neighbouring edges facing it (N, E, S, W), ``?`` where there is no neighbour. Which rotations of a
tile kind fit a key is computed once per (kind, key), so listing legal placements costs one dict
look-up per distinct key on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.core.footprint import footprint
from engine.core.tiles import EDGE_STEPS, Oriented, TileKind

Pos = tuple[int, int]
Fit = tuple[tuple[int, ...], tuple[int, ...]]
#: A kind's placements on the frontier: (count, [(squares of one key, distinct rotations)]).
Groups = tuple[int, list[tuple[set[Pos], tuple[int, ...]]]]

NEIGHBOURS_8 = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


def find_root(parent: list[int], node: int) -> int:
    """Union-find root of ``node``, compressing the path on the way."""
    root = node
    while parent[root] != root:
        root = parent[root]
    while parent[node] != root:
        parent[node], node = root, parent[node]
    return root


@dataclass(slots=True)
class Figure:
    """A figure on the board."""

    player: int
    kind: str  # follower, mayor, wagon, barn, ...
    pos: Pos
    local: int  # local feature index on the tile at pos (-1 for a barn's corner)
    at: int | str  # the record's `at` for it


@dataclass(frozen=True, slots=True)
class PlacedTile:
    pos: Pos
    oriented: Oriented
    first_node: int
    #: Turn number (0 for the start tile) at which the tile was placed.
    turn: int


def edges_match(mine: str, theirs: str) -> bool:
    """Base matching: same letter; ``*`` (abbey) matches anything."""
    return mine == theirs or mine == "*" or theirs == "*"


class Board:
    """Placed tiles, frontier and the feature forest."""

    def __init__(self, match: Callable[[str, str], bool] = edges_match) -> None:
        self.tiles: dict[Pos, PlacedTile] = {}
        self.frontier: dict[Pos, str] = {}
        self.by_key: dict[str, set[Pos]] = {}
        self._match = match
        #: Whether :meth:`in_bounds` may refuse a square (The Castle's board overrides it).
        self._bounded = type(self).in_bounds is not Board.in_bounds
        #: Placements per kind for the current frontier (cleared when it changes).
        self._counts: dict[str, Groups] = {}
        #: The holes (squares closed on four sides), sorted, until the frontier changes there.
        self._holes: list[Pos] | None = None
        # Union-find arrays, one entry per node.
        self.parent: list[int] = []
        self.ftype: list[str] = []
        self.node_pos: list[Pos] = []
        self.node_local: list[int] = []
        # Root data (None on non-roots).
        self.ftiles: list[set[Pos] | None] = []
        self.pennants: list[int] = []
        self.open: list[int] = []
        self.figures: list[list[Figure]] = []
        self.cities: list[list[int]] = []
        self.done: list[bool] = []
        #: Hook called as ``on_merge(root_kept, root_absorbed)`` before data is combined.
        self.on_merge: Callable[[int, int], None] | None = None

    # -- union-find -------------------------------------------------------------------------

    def find(self, node: int) -> int:
        return find_root(self.parent, node)

    def _union(self, a: int, b: int) -> None:
        parent = self.parent
        ra, rb = find_root(parent, a), find_root(parent, b)
        if ra == rb:
            return
        tiles_a, tiles_b = self.ftiles[ra], self.ftiles[rb]
        assert tiles_a is not None and tiles_b is not None
        if len(tiles_a) < len(tiles_b):
            ra, rb = rb, ra
            tiles_a, tiles_b = tiles_b, tiles_a
        if self.on_merge is not None:
            self.on_merge(ra, rb)
        # Root data is replaced, never changed in place, so that a clone may share it.
        parent[rb] = ra
        self.ftiles[ra] = tiles_a | tiles_b
        self.ftiles[rb] = None
        self.pennants[ra] += self.pennants[rb]
        self.open[ra] += self.open[rb]
        if self.figures[rb]:
            self.figures[ra] = self.figures[ra] + self.figures[rb]
            self.figures[rb] = []
        if self.cities[rb]:
            self.cities[ra] = self.cities[ra] + self.cities[rb]
            self.cities[rb] = []
        self.done[ra] = self.done[ra] or self.done[rb]

    def add_figure(self, root: int, figure: Figure) -> None:
        """Put ``figure`` on feature ``root`` (its list is replaced: clones share lists)."""
        self.figures[root] = [*self.figures[root], figure]

    def clone(self) -> Board:
        """An independent copy, in about the time of copying a dozen lists.

        The per-root sets and lists (tiles of a feature, figures, cities) are shared: the board
        replaces them instead of changing them in place (:meth:`_union`, :meth:`add_figure`).
        Whoever holds the clone sets its ``on_merge`` again.
        """
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.tiles = self.tiles.copy()
        new.frontier = self.frontier.copy()
        new.by_key = {key: cells.copy() for key, cells in self.by_key.items()}
        new._counts = {}  # its groups hold this board's sets of squares
        new.parent = self.parent.copy()
        new.ftype = self.ftype.copy()
        new.node_pos = self.node_pos.copy()
        new.node_local = self.node_local.copy()
        new.ftiles = self.ftiles.copy()
        new.pennants = self.pennants.copy()
        new.open = self.open.copy()
        new.figures = self.figures.copy()
        new.cities = self.cities.copy()
        new.done = self.done.copy()
        new.on_merge = None
        return new

    def root_of(self, pos: Pos, local: int) -> int:
        return self.find(self.tiles[pos].first_node + local)

    # -- placement --------------------------------------------------------------------------

    def fits(self, kind: TileKind, key: str) -> tuple[int, ...]:
        """The rotations of ``kind`` that may lie on a square whose neighbours read ``key``."""
        return self._fit(kind, key)[0]

    def _table(self, kind: TileKind) -> dict[str, Fit]:
        """Per kind, key -> (fitting rotations, fitting rotations that look different).

        Shared by every board with the same matching rule, filled lazily, kept for good: there
        are at most 6**4 keys per kind. Kinds with the same edges and the same distinct-looking
        rotations share one table (which rotations fit depends on nothing else).
        """
        table = _FIT_TABLES.get((self._match, kind.name))
        if table is None:
            shape = (self._match, kind.edges, _distinct_rotations(kind))
            table = _FIT_TABLES[(self._match, kind.name)] = _EDGE_TABLES.setdefault(shape, {})
        return table

    def _fit(self, kind: TileKind, key: str) -> Fit:
        table = self._table(kind)
        cached = table.get(key)
        return cached if cached is not None else self._compute_fit(kind, key, table)

    def _compute_fit(self, kind: TileKind, key: str, table: dict[str, Fit]) -> Fit:
        match = self._match
        rotations = tuple(
            o.rotation
            for o in kind.orientations
            if all(k == "?" or match(o.edges[s], k) for s, k in enumerate(key))
        )
        distinct = _distinct_rotations(kind)
        result = (rotations, tuple(r for r in rotations if r in distinct))
        table[key] = result
        return result

    def edge_fits(self, mine: str, theirs: str) -> bool:
        """Whether an edge letter may face a neighbour's edge letter (this board's rule)."""
        return self._match(mine, theirs)

    def can_place(self, oriented: Oriented, pos: Pos) -> bool:
        key = self.frontier.get(pos)
        if key is None:
            return False
        match = self._match
        return all(k == "?" or match(oriented.edges[s], k) for s, k in enumerate(key))

    def place(self, oriented: Oriented, pos: Pos, turn: int) -> list[int]:
        """Put a tile down (legality is the caller's business); return the touched roots."""
        x, y = pos
        shape = footprint(oriented)
        parent = self.parent
        first = len(parent)
        count = shape.count
        tiles = self.tiles
        tiles[pos] = PlacedTile(pos, oriented, first, turn)
        parent.extend(range(first, first + count))
        self.ftype.extend(shape.ftypes)
        self.node_pos.extend([pos] * count)
        self.node_local.extend(range(count))
        self.pennants.extend(shape.pennants)
        self.done.extend([False] * count)
        opens = self.open
        opens.extend(shape.opens)
        # Plain loops: comprehensions cost a call each on Python 3.11.
        ftiles, figures, cities = self.ftiles, self.figures, self.cities
        for near in shape.cities:
            ftiles.append({pos})
            figures.append([])
            cities.append(list(map(first.__add__, near)) if near else [])
        for index in shape.centres:
            around = 0
            for dx, dy in NEIGHBOURS_8:
                if (x + dx, y + dy) in tiles:
                    around += 1
            opens[first + index] = 8 - around
        touched = list(range(first, first + count))
        ftypes = shape.ftypes
        for edge, (dx, dy) in enumerate(EDGE_STEPS):
            other = tiles.get((x + dx, y + dy))
            if other is None:
                continue
            theirs = footprint(other.oriented)
            back = (edge + 2) % 4
            other_first = other.first_node
            for local in shape.closable[edge]:
                opens[find_root(parent, first + local)] -= 1
            for local in theirs.closable[back]:
                opens[find_root(parent, other_first + local)] -= 1
                # Closed without merging (an abbey, a castle building): still touched.
                touched.append(other_first + local)
            mine_at = shape.edge_at[edge]
            their_at = theirs.back_at[back]
            their_types = theirs.ftypes
            linked: list[tuple[int, int]] = []
            for i in (0, 1, 2):
                a = mine_at[i]
                b = their_at[i]
                if a < 0 or b < 0 or (a, b) in linked:
                    continue
                linked.append((a, b))
                if ftypes[a] == their_types[b]:
                    self._union(first + a, other_first + b)
                    touched.append(other_first + b)
        for dx, dy in NEIGHBOURS_8:
            other = tiles.get((x + dx, y + dy))
            if other is not None and other.oriented.centre >= 0:
                node = other.first_node + other.oriented.centre
                opens[node] -= 1
                touched.append(node)
        self._update_frontier(oriented, pos)
        return touched

    def _update_frontier(self, oriented: Oriented, pos: Pos) -> None:
        self._counts.clear()
        x, y = pos
        frontier, by_key, tiles = self.frontier, self.by_key, self.tiles
        old = frontier.pop(pos, None)
        if old is not None:
            self._unindex(old, pos)
            if "?" not in old:
                self._holes = None
        bounded = self._bounded
        edges = oriented.edges
        for edge, (dx, dy) in enumerate(EDGE_STEPS):
            cell = (x + dx, y + dy)
            if cell in tiles or (bounded and not self.in_bounds(cell)):
                continue
            key = frontier.get(cell)
            if key is not None:
                self._unindex(key, cell)
            else:
                key = "????"
            back = (edge + 2) % 4
            key = key[:back] + edges[edge] + key[back + 1 :]
            frontier[cell] = key
            if "?" not in key:
                self._holes = None
            cells = by_key.get(key)
            if cells is None:
                by_key[key] = {cell}
            else:
                cells.add(cell)

    def _unindex(self, key: str, cell: Pos) -> None:
        cells = self.by_key[key]
        cells.discard(cell)
        if not cells:
            del self.by_key[key]

    def in_bounds(self, cell: Pos) -> bool:
        """Whether a square may ever hold a tile (unbounded here; The Castle overrides)."""
        return True

    # -- queries ----------------------------------------------------------------------------

    def placements(self, kind: TileKind) -> Iterator[tuple[Pos, int]]:
        """Every (square, rotation) where ``kind`` may lie, distinct orientations only."""
        table = self._table(kind)
        for key, cells in self.by_key.items():
            fit = table.get(key) or self._compute_fit(kind, key, table)
            if fit[1]:
                for cell in sorted(cells):
                    for rotation in fit[1]:
                        yield cell, rotation

    def _groups(self, kind: TileKind) -> Groups:
        """How many placements ``kind`` has, and its fitting squares grouped by key with their
        distinct rotations, in :meth:`placements` order; worked out once per frontier."""
        cached = self._counts.get(kind.name)
        if cached is not None:
            return cached
        table = self._table(kind)
        total = 0
        groups: list[tuple[set[Pos], tuple[int, ...]]] = []
        for key, cells in self.by_key.items():
            fit = table.get(key) or self._compute_fit(kind, key, table)
            distinct = fit[1]
            if distinct:
                total += len(distinct) * len(cells)
                groups.append((cells, distinct))
        result = self._counts[kind.name] = (total, groups)
        return result

    def count_placements(self, kind: TileKind) -> int:
        return self._groups(kind)[0]

    def placement_at(self, kind: TileKind, index: int) -> tuple[Pos, int]:
        """The ``index``-th item of :meth:`placements`, skipping whole groups of squares."""
        for cells, distinct in self._groups(kind)[1]:
            size = len(distinct) * len(cells)
            if index < size:
                cell = sorted(cells)[index // len(distinct)]
                return cell, distinct[index % len(distinct)]
            index -= size
        raise IndexError("placement index out of range")

    def has_placement(self, kind: TileKind) -> bool:
        # A rotation that fits has a distinct-looking twin that fits (same edges), so this is
        # "some placement counts"; the count is wanted next anyway (legal placements).
        return self._groups(kind)[0] > 0

    def holes(self) -> list[Pos]:
        """Empty squares with a tile on all four sides."""
        if self._holes is None:
            self._holes = sorted(c for c, key in self.frontier.items() if "?" not in key)
        return self._holes.copy()

    def is_complete(self, root: int) -> bool:
        return self.open[root] == 0


_DISTINCT: dict[str, frozenset[int]] = {}
_FIT_TABLES: dict[tuple[Callable[[str, str], bool], str], dict[str, Fit]] = {}
_EDGE_TABLES: dict[tuple[Callable[[str, str], bool], str, frozenset[int]], dict[str, Fit]] = {}


def _distinct_rotations(kind: TileKind) -> frozenset[int]:
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


def distinct_rotations(kind: TileKind) -> frozenset[int]:
    return _distinct_rotations(kind)
