"""Hunters & Gatherers land: the tile's forests and meadows shared out on a small grid.

Every forest and meadow grows inwards from the edge positions it owns, all at once, with water
as a barrier. Forests grow more slowly and at first only a little way (less near the corners, so
a forest on one edge bulges in like a city cap; a forest joining two opposite edges gets a spine
across the tile); the meadows take the rest. :func:`check_land` says whether the result matches
the data: every feature in one piece, touching exactly its own edge positions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from renderer.geometry import _lerp, edge_mid
from renderer.hunters.water import GRID, Feat

LAND = frozenset({"forest", "meadow"})
#: Growth cost per step: forests grow slower than meadows, so they stay near their edges.
FOREST_COST, MEADOW_COST = 12, 10
#: Head start taken away from a forest's spine, so a band across the tile stays slim.
SPINE_DELAY = 5 * FOREST_COST
#: How deep a forest grows while meadows still can (share of the tile side).
FOREST_REACH = 0.34


def border_pixels(position: int) -> list[int]:
    """Grid pixels along the tile border for one of the 12 edge positions."""
    edge, third = divmod(position, 3)
    n = GRID // 3
    span = range(third * n, (third + 1) * n if third < 2 else GRID)
    if edge == 0:
        return list(span)
    if edge == 1:
        return [y * GRID + GRID - 1 for y in span]
    if edge == 2:
        return [(GRID - 1) * GRID + GRID - 1 - x for x in span]
    return [(GRID - 1 - y) * GRID for y in span]


def _spine(feat: Feat) -> list[int]:
    """Pixels on the straight line between a forest's two opposite edges (keeps it one piece)."""
    edges = sorted({p // 3 for p in feat.positions})
    if len(edges) != 2 or (edges[1] - edges[0]) % 2:
        return []
    a, b = edge_mid(edges[0]), edge_mid(edges[1])
    pixels = []
    for i in range(GRID * 2):
        x, y = _lerp(a, b, i / (GRID * 2 - 1))
        pixels.append(min(GRID - 1, int(y * GRID)) * GRID + min(GRID - 1, int(x * GRID)))
    return pixels


def _neighbour_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per grid pixel: its 8 neighbours with the step length (10 straight, 14 diagonal)."""
    table = []
    for p in range(GRID * GRID):
        y, x = divmod(p, GRID)
        around = []
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < GRID and 0 <= ny < GRID:
                around.append((ny * GRID + nx, 14 if dx and dy else 10))
        table.append(tuple(around))
    return tuple(table)


def _side_table() -> tuple[tuple[int, ...], ...]:
    """Per grid pixel: its 4 side neighbours."""
    table = []
    for p in range(GRID * GRID):
        y, x = divmod(p, GRID)
        around = []
        if x > 0:
            around.append(p - 1)
        if x < GRID - 1:
            around.append(p + 1)
        if y > 0:
            around.append(p - GRID)
        if y < GRID - 1:
            around.append(p + GRID)
        table.append(tuple(around))
    return tuple(table)


_AROUND = _neighbour_table()
_SIDES = _side_table()


def _reach_along(feat: Feat, position: int, pixel_index: int) -> float:
    """How deep a forest grows from one border pixel: most in the middle of its edge, less
    towards a corner (a cap, like a city's wall), unless the forest turns that corner too."""
    edge = position // 3
    s = (pixel_index + 0.5) / GRID
    edges = {p // 3 for p in feat.positions}
    if (s < 0.5 and (edge - 1) % 4 in edges) or (s > 0.5 and (edge + 1) % 4 in edges):
        s = 0.5
    return 0.4 + 0.6 * math.sin(math.pi * s)


def _sources(feat: Feat) -> list[tuple[int, float]]:
    """Border pixels of a land feature with the share of the reach each may grow."""
    out: list[tuple[int, float]] = []
    n = GRID // 3
    for position in feat.positions:
        third = position % 3
        for i, p in enumerate(border_pixels(position)):
            out.append((p, _reach_along(feat, position, third * n + i)))
    return out


def grow_land(
    feats: Sequence[Feat], water: bytes | None, forest_reach: float | None = FOREST_REACH
) -> list[int]:
    """Share the land between forests and meadows: every pixel goes to the feature that reaches
    it first, growing from its edge positions, never across water.

    Forests grow at first only up to ``forest_reach`` from their edges (less near the corners, so
    they bulge in like a city cap); the meadows take the rest, and land no meadow can reach goes
    to the forests afterwards.
    """
    size = GRID * GRID
    blocked = water or bytes(size)
    cost = {f.local + 1: FOREST_COST if f.type == "forest" else MEADOW_COST for f in feats}
    unlimited = 1 << 30
    full = unlimited if forest_reach is None else forest_reach * GRID * FOREST_COST
    # A bucket queue (distances are small integers): cheaper than a heap in pure Python.
    buckets: dict[int, list[tuple[int, int, int]]] = {}
    for f in feats:
        if f.type not in LAND:
            continue
        forest = f.type == "forest"
        for p, share in _sources(f):
            if not blocked[p]:
                limit = min(unlimited, round(full * share)) if forest else unlimited
                buckets.setdefault(0, []).append((p, f.local + 1, limit))
        if forest:
            for p in _spine(f):
                if not blocked[p]:
                    entry = (p, f.local + 1, min(unlimited, round(full)))
                    buckets.setdefault(SPINE_DELAY, []).append(entry)
    labels = [0] * size
    best = [unlimited] * size
    deferred: list[tuple[int, int, int]] = []
    around = _AROUND
    while buckets:
        d = min(buckets)
        for p, label, limit in buckets.pop(d):
            if labels[p]:
                continue
            if d > limit:
                deferred.append((d, p, label))
                continue
            labels[p] = label
            k = cost[label]
            for q, step in around[p]:
                if labels[q] or blocked[q]:
                    continue
                nd = d + step * k // 10
                if nd < best[q]:
                    best[q] = nd
                    buckets.setdefault(nd, []).append((q, label, limit))
        if not buckets and deferred:
            # The meadows have taken all they can reach: the forests may now fill the rest.
            for dd, p, label in deferred:
                buckets.setdefault(dd, []).append((p, label, unlimited))
            deferred = []
    return _tidy(labels)


def _pieces(labels: Sequence[int]) -> dict[int, list[list[int]]]:
    """4-connected pieces of every label (0 included), largest first per label."""
    seen = bytearray(len(labels))
    pieces: dict[int, list[list[int]]] = {}
    for start, value in enumerate(labels):
        if seen[start]:
            continue
        seen[start] = 1
        piece, stack = [start], [start]
        while stack:
            p = stack.pop()
            for q in _SIDES[p]:
                if not seen[q] and labels[q] == value:
                    seen[q] = 1
                    piece.append(q)
                    stack.append(q)
        pieces.setdefault(value, []).append(piece)
    for found in pieces.values():
        found.sort(key=len, reverse=True)
    return pieces


def _tidy(labels: list[int]) -> list[int]:
    """Give crumbs (a few pixels cut off from their feature by diagonal growth) to a neighbour."""
    crumb = GRID * GRID // 200
    for value, pieces in _pieces(labels).items():
        if value == 0:
            continue
        for piece in pieces[1:]:
            if len(piece) > crumb:
                continue
            around: dict[int, int] = {}
            for p in piece:
                for q in _SIDES[p]:
                    if labels[q] not in (0, value):
                        around[labels[q]] = around.get(labels[q], 0) + 1
            other = max(around, key=lambda v: around[v]) if around else 0
            for p in piece:
                labels[p] = other
    return labels


def check_land(feats: Sequence[Feat], labels: Sequence[int]) -> tuple[bool, int]:
    """(every land feature is one piece touching its own positions, meadow seam length)."""
    ok = True
    pieces = _pieces(labels)
    for f in feats:
        if f.type not in LAND:
            continue
        if len(pieces.get(f.local + 1, [])) != 1:
            ok = False
        for position in f.positions:
            if not any(labels[p] == f.local + 1 for p in border_pixels(position)):
                ok = False
    meadows = {f.local + 1 for f in feats if f.type == "meadow"}
    seams = 0
    for p, v in enumerate(labels):
        if v not in meadows:
            continue
        for q in _SIDES[p]:
            if q > p and labels[q] != v and labels[q] in meadows:
                seams += 1
    return ok, seams
