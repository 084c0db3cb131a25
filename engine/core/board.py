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

from bisect import bisect_right
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from engine.core.fits import KEYS, FitTable, fit_table, key_id
from engine.core.fits import distinct_rotations as distinct_rotations  # re-exported
from engine.core.footprint import Footprint, footprint, joins
from engine.core.tiles import EDGE_STEPS, Oriented, TileKind
from engine.core.values import quick_init

Pos = tuple[int, int]
#: A kind's placements on the frontier: (in all, [up to each key of ``by_key``], its fits).
Tally = tuple[int, list[int], FitTable]

NEIGHBOURS_8 = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)
#: Per edge: (edge, dx, dy, the edge facing back from the neighbour there).
_SIDES = tuple((edge, dx, dy, (edge + 2) % 4) for edge, (dx, dy) in enumerate(EDGE_STEPS))


#: Per place (the edge facing back): key -> letter -> the key a square reads once a tile shows
#: it ``letter`` there. Plain dicts, filled by :func:`_with` (compiled, setup.py, a lookup in a
#: dict subclass takes Python's slow generic path).
_WITH: tuple[dict[str, dict[str, str]], ...] = ({}, {}, {}, {})


def _with(place: int, key: str, letter: str) -> str:
    """``key`` reading ``letter`` at ``place`` (the strings are shared: kept in :data:`_WITH`)."""
    letters = _WITH[place].get(key)
    if letters is None:
        letters = _WITH[place][key] = {}
    found = letters.get(letter)
    if found is None:
        found = letters[letter] = key[:place] + letter + key[place + 1 :]
    return found


def find_root(parent: list[int], node: int) -> int:
    """Union-find root of ``node``, compressing the path on the way."""
    root = parent[node]
    if parent[root] == root:  # most nodes are a root or one step below it
        return root
    while parent[root] != root:
        root = parent[root]
    while parent[node] != root:
        parent[node], node = root, parent[node]
    return root


@dataclass(slots=True, init=False)
class Figure:
    """A figure on the board."""

    player: int
    kind: str  # follower, mayor, wagon, barn, ...
    pos: Pos
    local: int  # local feature index on the tile at pos (-1 for a barn's corner)
    at: int | str  # the record's `at` for it

    def __init__(self, player: int, kind: str, pos: Pos, local: int, at: int | str) -> None:
        self.player = player
        self.kind = kind
        self.pos = pos
        self.local = local
        self.at = at


@dataclass(frozen=True, slots=True, init=False)
class PlacedTile:
    pos: Pos
    oriented: Oriented
    first_node: int
    #: Turn number (0 for the start tile) at which the tile was placed.
    turn: int
    #: What the board precomputed about ``oriented``.
    shape: Footprint = field(repr=False, compare=False)

    def __init__(
        self,
        pos: Pos,
        oriented: Oriented,
        first_node: int,
        turn: int,
        shape: Footprint,
    ) -> None:
        object.__setattr__(self, "pos", pos)
        object.__setattr__(self, "oriented", oriented)
        object.__setattr__(self, "first_node", first_node)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "shape", shape)


quick_init(PlacedTile)


def edges_match(mine: str, theirs: str) -> bool:
    """Base matching: same letter; ``*`` (abbey) matches anything."""
    return mine == theirs or mine == "*" or theirs == "*"


class Board:
    """Placed tiles, frontier and the feature forest."""

    def __new__(cls, match: Callable[[str, str], bool] = edges_match) -> Board:
        # ``cls.__new__(cls)`` makes a board without running __init__ (:meth:`clone`), compiled
        # (setup.py) too, where the class's own allocation would run it.
        return super().__new__(cls)

    def __init__(self, match: Callable[[str, str], bool] = edges_match) -> None:
        self.tiles: dict[Pos, PlacedTile] = {}
        self.frontier: dict[Pos, str] = {}
        self.by_key: dict[str, set[Pos]] = {}
        #: The ids (:func:`key_id`) of the keys of :attr:`by_key`, in the same order, and how
        #: many squares read each: lists, so that counting placements reads no dict. A key
        #: that leaves the frontier leaves a slot of size 0 behind (removed when they pile up:
        #: :meth:`_compact`); ``_slot`` gives the slot of each key on the frontier.
        self._keys: list[int] = []
        self._sizes: list[int] = []
        self._slot: dict[str, int] = {}
        self._match = match
        #: Whether :meth:`in_bounds` may refuse a square (The Castle's board overrides it).
        self._bounded = type(self).in_bounds is not Board.in_bounds
        #: Tile kind name -> its fit table under this board's rule (shared with clones).
        self._tables: dict[str, FitTable] = {}
        #: Placements per kind for the current frontier (cleared when it changes).
        self._counts: dict[str, Tally] = {}
        #: The holes (squares closed on four sides), sorted; replaced, never changed in place.
        self._holes: list[Pos] = []
        # Union-find arrays, one entry per node.
        self.parent: list[int] = []
        self.ftype: list[str] = []
        self.node_pos: list[Pos] = []
        self.node_local: list[int] = []
        # Root data (None on non-roots).
        self.ftiles: list[AbstractSet[Pos] | None] = []
        self.pennants: list[int] = []
        self.open: list[int] = []
        self.figures: list[list[Figure]] = []
        self.cities: list[list[int]] = []
        self.done: list[bool] = []
        #: The empty lists every new feature starts with (see :meth:`place`).
        self._no_figures: list[Figure] = []
        self._no_cities: list[int] = []
        #: Empty squares next to a centre feature (cloister, abbey): (rank among the square's
        #: eight neighbours, node) of each, whose open count drops when a tile lands there.
        self._watch: dict[Pos, tuple[tuple[int, int], ...]] = {}
        #: See :attr:`merge_hooks`; ``_bare_hooks`` are those called when no figure is involved.
        self._merge_hooks: tuple[Callable[[int, int], None], ...] = ()
        self._bare_hooks: tuple[Callable[[int, int], None], ...] = ()

    # -- union-find -------------------------------------------------------------------------

    def find(self, node: int) -> int:
        return find_root(self.parent, node)

    def _union(self, a: int, b: int) -> None:
        parent = self.parent
        ra = parent[a]
        if parent[ra] != ra:
            ra = find_root(parent, a)
        rb = parent[b]
        if parent[rb] != rb:
            rb = find_root(parent, b)
        if ra == rb:
            return
        ftiles = self.ftiles
        tiles_a, tiles_b = ftiles[ra], ftiles[rb]
        assert tiles_a is not None and tiles_b is not None
        if len(tiles_a) < len(tiles_b):
            ra, rb = rb, ra
            tiles_a, tiles_b = tiles_b, tiles_a
        figures = self.figures
        figures_b = figures[rb]
        # Most merges join features nobody stands on: only the hooks that care are called.
        for hook in self._merge_hooks if figures_b or figures[ra] else self._bare_hooks:
            hook(ra, rb)
        # Root data is replaced, never changed in place, so that a clone may share it.
        parent[rb] = ra
        ftiles[ra] = tiles_a | tiles_b
        ftiles[rb] = None
        pennants, opens, cities = self.pennants, self.open, self.cities
        pennants[ra] += pennants[rb]
        opens[ra] += opens[rb]
        if figures_b:
            figures[ra] = figures[ra] + figures_b
            figures[rb] = []
        cities_b = cities[rb]
        if cities_b:
            cities[ra] = cities[ra] + cities_b
            cities[rb] = []
        done = self.done
        if done[rb]:
            done[ra] = True

    @property
    def merge_hooks(self) -> tuple[Callable[[int, int], None], ...]:
        """Hooks called in order as ``hook(root_kept, root_absorbed)`` before data is combined."""
        return self._merge_hooks

    @merge_hooks.setter
    def merge_hooks(self, hooks: tuple[Callable[[int, int], None], ...]) -> None:
        self._merge_hooks = self._bare_hooks = tuple(hooks)

    def set_merge_hooks(
        self,
        hooks: tuple[Callable[[int, int], None], ...],
        bare: tuple[Callable[[int, int], None], ...],
    ) -> None:
        """Set :attr:`merge_hooks`, and ``bare``: those of them to call when neither feature
        holds a figure (the others do nothing then)."""
        self._merge_hooks = hooks
        self._bare_hooks = bare

    def add_figure(self, root: int, figure: Figure) -> None:
        """Put ``figure`` on feature ``root`` (its list is replaced: clones share lists)."""
        self.figures[root] = [*self.figures[root], figure]

    def clone(self) -> Board:
        """An independent copy, in about the time of copying a dozen lists.

        The per-root sets and lists (tiles of a feature, figures, cities) are shared: the board
        replaces them instead of changing them in place (:meth:`_union`, :meth:`add_figure`).
        Whoever holds the clone sets its ``merge_hooks`` again.
        """
        cls = type(self)
        new = cls.__new__(cls)  # no __init__
        # Attribute by attribute (compiled, setup.py, each is a direct store); a subclass
        # copies its own after (a test checks that a clone has every attribute).
        new.tiles = self.tiles.copy()
        new.frontier = self.frontier.copy()
        new.by_key = {key: cells.copy() for key, cells in self.by_key.items()}
        new._keys = self._keys.copy()
        new._sizes = self._sizes.copy()
        new._slot = self._slot.copy()
        new._match = self._match
        new._bounded = self._bounded
        new._tables = self._tables
        new._counts = self._counts.copy()
        new._holes = self._holes
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
        new._no_figures = self._no_figures
        new._no_cities = self._no_cities
        new._watch = self._watch.copy()
        new._merge_hooks = new._bare_hooks = ()
        return new

    def root_of(self, pos: Pos, local: int) -> int:
        return self.find(self.tiles[pos].first_node + local)

    # -- placement --------------------------------------------------------------------------

    @property
    def match(self) -> Callable[[str, str], bool]:
        """This board's edge-matching rule (which edge letters may face which)."""
        return self._match

    def _table(self, kind: TileKind) -> FitTable:
        table = self._tables.get(kind.name)
        if table is None:
            table = self._tables[kind.name] = fit_table(self._match, kind)
        return table

    def fits(self, kind: TileKind, key: str) -> tuple[int, ...]:
        """The rotations of ``kind`` that may lie on a square whose neighbours read ``key``."""
        return self._table(kind)[key][0]

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
        # Squares are ``Any`` here so that, compiled (setup.py), each is boxed into a tuple once:
        # a ``Pos`` is kept unboxed in C and boxed again at every use as a dict or set key.
        here: Any = pos
        x, y = pos
        shape = footprint(oriented)
        parent = self.parent
        first = len(parent)
        count = shape.count
        tiles: dict[Any, PlacedTile] = self.tiles
        tiles[here] = PlacedTile(pos, oriented, first, turn, shape)
        touched = [first + local for local in shape.locals]
        parent.extend(touched)
        self.ftype.extend(shape.ftypes)
        self.node_pos.extend([here] * count)
        self.node_local.extend(shape.locals)
        self.pennants.extend(shape.pennants)
        self.done.extend(shape.undone)
        opens = self.open
        opens.extend(shape.opens)
        # The tile's features share one frozen set of their tile, one empty figures list and one
        # empty cities list: root data is replaced, never changed in place, so sharing is safe
        # and spares the collector.
        self.ftiles.extend([frozenset((here,))] * count)
        self.figures.extend([self._no_figures] * count)
        cities = self.cities
        if shape.linked:
            no_cities = self._no_cities
            for near in shape.cities:
                if not near:
                    cities.append(no_cities)
                elif len(near) == 1:
                    cities.append([first + near[0]])
                else:
                    cities.append([first + local for local in near])
        else:
            cities.extend([self._no_cities] * count)
        if shape.centres:
            around = 8
            for dx, dy in NEIGHBOURS_8:
                if (x + dx, y + dy) in tiles:
                    around -= 1
            for index in shape.centres:
                opens[first + index] = around
        # The square leaves the frontier before its empty neighbours join it or read one more
        # letter (the order of the keys is the order of the placements).
        self._counts.clear()
        frontier: dict[Any, str] = self.frontier
        by_key: dict[str, set[Any]] = self.by_key
        keys, sizes, slots = self._keys, self._sizes, self._slot
        old = frontier.pop(here, None)
        if old is not None:
            cells = by_key[old]
            if len(cells) == 1:
                del by_key[old]
                sizes[slots.pop(old)] = 0
            else:
                cells.discard(here)
                sizes[slots[old]] -= 1
            if "?" not in old:
                self._holes = [hole for hole in self._holes if hole != pos]
        bounded = self._bounded
        edges = oriented.edges
        closable, sides = shape.closable, shape.sides
        for edge, dx, dy, back in _SIDES:
            cell: Any = (x + dx, y + dy)
            other = tiles.get(cell)
            if other is None:
                if bounded and not self.in_bounds(cell):
                    continue
                key = frontier.get(cell)
                if key is None:
                    key = _with(back, "????", edges[edge])
                else:
                    cells = by_key[key]
                    if len(cells) == 1:
                        del by_key[key]
                        sizes[slots.pop(key)] = 0
                    else:
                        cells.discard(cell)
                        sizes[slots[key]] -= 1
                    key = _with(back, key, edges[edge])
                    if "?" not in key:
                        self._holes = sorted([*self._holes, cell])
                frontier[cell] = key
                joined = by_key.get(key)
                if joined is None:
                    by_key[key] = {cell}
                    slots[key] = len(keys)
                    keys.append(key_id(key))
                    sizes.append(1)
                else:
                    joined.add(cell)
                    sizes[slots[key]] += 1
                continue
            theirs = other.shape
            other_first = other.first_node
            # Roots found inline when a node is a root or one step below it (most are).
            for local in closable[edge]:
                root = parent[first + local]
                if parent[root] != root:
                    root = find_root(parent, first + local)
                opens[root] -= 1
            for local in theirs.closable[back]:
                node = other_first + local
                root = parent[node]
                if parent[root] != root:
                    root = find_root(parent, node)
                opens[root] -= 1
                # Closed without merging (an abbey, a castle building): still touched.
                touched.append(node)
            meets = shape.meets[edge]
            their_back = theirs.backs[back]
            pairs = meets.get(their_back)
            if pairs is None:
                pairs = meets[their_back] = joins(sides[edge], their_back)
            for a, b in pairs:
                self._union(first + a, other_first + b)
                touched.append(other_first + b)
        if len(keys) > len(slots) + len(slots) // 4 + 8:
            self._compact()
        watch: dict[Any, tuple[tuple[int, int], ...]] = self._watch
        if watch:
            watching = watch.pop(here, None)
            if watching is not None:
                for _, node in sorted(watching):
                    opens[node] -= 1
                    touched.append(node)
        if oriented.centre >= 0:
            node = first + oriented.centre
            for index, (dx, dy) in enumerate(NEIGHBOURS_8):
                cell = (x + dx, y + dy)
                if cell not in tiles:
                    # Seen from that square, this tile is the (7 - index)-th neighbour.
                    watch[cell] = (*watch.get(cell, ()), (7 - index, node))
        return touched

    def _compact(self) -> None:
        """Drop the empty slots of :attr:`_keys` (keys that left the frontier)."""
        self._keys = [key_id(key) for key in self.by_key]
        self._sizes = [len(cells) for cells in self.by_key.values()]
        self._slot = {key: slot for slot, key in enumerate(self.by_key)}

    def in_bounds(self, cell: Pos) -> bool:
        """Whether a square may ever hold a tile (unbounded here; The Castle overrides)."""
        return True

    # -- queries ----------------------------------------------------------------------------

    def placements(self, kind: TileKind) -> Iterator[tuple[Pos, int]]:
        """Every (square, rotation) where ``kind`` may lie, distinct orientations only."""
        table = self._table(kind)
        for key, cells in self.by_key.items():
            distinct = table[key][1]
            if distinct:
                for cell in sorted(cells):
                    for rotation in distinct:
                        yield cell, rotation

    def placements_on(self, kind: TileKind, squares: AbstractSet[Pos]) -> Iterator[tuple[Pos, int]]:
        """The items of :meth:`placements` on ``squares``, in the same order, looking at no
        other square."""
        frontier = self.frontier
        found = [cell for cell in squares if cell in frontier]
        if len(found) > 1:
            rank = {key: index for index, key in enumerate(self.by_key)}
            found.sort(key=lambda cell: (rank[frontier[cell]], cell))
        table = self._table(kind)
        for cell in found:
            for rotation in table[frontier[cell]][1]:
                yield cell, rotation

    def _tally(self, kind: TileKind) -> Tally:
        """How many placements ``kind`` has up to each key of :attr:`by_key` (in order; the
        last is the total), and its fit table; worked out once per frontier."""
        cached = self._counts.get(kind.name)
        if cached is None:
            table = self._table(kind)
            counts = table.by_id
            known = len(counts)
            keys, sizes = self._keys, self._sizes
            ends: list[int] = []
            total = 0
            # A plain loop over lists: compiled (setup.py), it beats map and accumulate, and
            # dict lookups, several times over.
            for slot in range(len(keys)):
                kid = keys[slot]
                count = counts[kid] if kid < known else -1
                if count < 0:
                    count = table.count_id(kid)
                    known = len(counts)
                total += count * sizes[slot]
                ends.append(total)
            cached = self._counts[kind.name] = (total, ends, table)
        return cached

    def count_placements(self, kind: TileKind) -> int:
        return self._tally(kind)[0]

    def placement_at(self, kind: TileKind, index: int) -> tuple[Pos, int]:
        """The ``index``-th item of :meth:`placements`, found without listing the others."""
        total, ends, table = self._tally(kind)
        if index >= total:
            raise IndexError("placement index out of range")
        if index < 0:  # counted from the first key with placements, as Python indexes it
            group = bisect_right(ends, 0)
            if group == len(ends):
                raise IndexError("placement index out of range")
        else:
            group = bisect_right(ends, index)
            if group:
                index -= ends[group - 1]
        key = KEYS[self._keys[group]]
        distinct = table[key][1]
        return sorted(self.by_key[key])[index // len(distinct)], distinct[index % len(distinct)]

    def has_placement(self, kind: TileKind) -> bool:
        # A rotation that fits has a distinct-looking twin that fits (same edges), so this is
        # "some placement counts"; the count is wanted next anyway (legal placements).
        return self._tally(kind)[0] > 0

    def holes(self) -> list[Pos]:
        """Empty squares with a tile on all four sides."""
        return self._holes.copy()

    @property
    def hole_list(self) -> list[Pos]:
        """:meth:`holes` without a copy: read only, and the same list until the holes change
        (so that a caller may keep what it derives from it while it is the same list)."""
        return self._holes

    def is_complete(self, root: int) -> bool:
        return self.open[root] == 0
