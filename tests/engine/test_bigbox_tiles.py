"""Tile data of Inns & Cathedrals and The River: the engine's TOML matches the shared tables."""

from __future__ import annotations

import pytest
from bigbox_helpers import RefTile, reference_tiles

from engine.core.tiles import TileKind, load_set

IC_REF = reference_tiles("inns_cathedrals_tiles.md")
RIVER_REF = reference_tiles("river_tiles.md")
IC_KINDS = {k.name: k for k in load_set("inns_cathedrals")}
RIVER_KINDS = {k.name: k for k in load_set("river")}
MARKS = ("inn", "cathedral", "spring", "lake")


def tiles_with(kinds: dict[str, TileKind], test: str, value: object = True) -> int:
    """How many tiles (counts included) have a feature with ``test`` set to ``value``."""
    return sum(
        k.count for k in kinds.values() if any(f.extra.get(test) == value for f in k.features)
    )


def count_features(kinds: dict[str, TileKind], ftype: str) -> int:
    return sum(k.count * sum(f.type == ftype for f in k.features) for k in kinds.values())


def test_inns_cathedrals_has_18_tiles_in_17_kinds_ic01_twice() -> None:
    assert len(IC_KINDS) == 17
    assert sum(k.count for k in IC_KINDS.values()) == 18
    assert [n for n, k in IC_KINDS.items() if k.count == 2] == ["IC01"]
    assert sum(t.count for t in IC_REF.values()) == 18 and sorted(IC_REF) == sorted(IC_KINDS)


def test_inns_cathedrals_totals_2_cathedrals_6_inns_3_pennants_1_cloister() -> None:
    assert tiles_with(IC_KINDS, "cathedral") == 2
    assert tiles_with(IC_KINDS, "inn") == 6
    inn_kinds = sorted(
        n for n, k in IC_KINDS.items() if any(f.extra.get("inn") for f in k.features)
    )
    assert inn_kinds == ["IC11", "IC12", "IC13", "IC14", "IC15", "IC16"]
    assert sum(k.count * sum(f.pennants for f in k.features) for k in IC_KINDS.values()) == 3
    assert count_features(IC_KINDS, "cloister") == 1
    assert not any(k.start for k in IC_KINDS.values())


def test_inns_sit_on_roads_and_cathedrals_in_cities_only() -> None:
    for kind in IC_KINDS.values():
        for feat in kind.features:
            assert not feat.extra.get("inn") or feat.type == "road"
            assert not feat.extra.get("cathedral") or feat.type == "city"


def test_the_river_has_12_tiles_in_10_kinds_spring_lake_and_10_river_tiles() -> None:
    assert len(RIVER_KINDS) == 10
    assert sum(k.count for k in RIVER_KINDS.values()) == 12
    assert sorted(RIVER_REF) == sorted(RIVER_KINDS)
    assert tiles_with(RIVER_KINDS, "spring") == 1
    assert tiles_with(RIVER_KINDS, "lake") == 1
    flowing = [k for k in RIVER_KINDS.values() if k.edges.count("W") == 2]
    assert sum(k.count for k in flowing) == 10
    assert {n for n, k in RIVER_KINDS.items() if k.count == 2} == {"R07", "R10"}


def test_every_river_tile_has_one_river_feature_on_its_w_edges_and_no_pennant() -> None:
    for kind in RIVER_KINDS.values():
        rivers = [f for f in kind.features if f.type == "river"]
        assert len(rivers) == 1
        assert {p // 3 for p in rivers[0].positions} == {
            e for e, letter in enumerate(kind.edges) if letter == "W"
        }
        assert all(p % 3 == 1 for p in rivers[0].positions)  # edge middles, like a road
        assert sum(f.pennants for f in kind.features) == 0
    assert count_features(RIVER_KINDS, "cloister") == 1
    assert count_features(RIVER_KINDS, "city") == 4
    assert sorted(n for n, k in RIVER_KINDS.items() if "R" in k.edges) == [
        "R04",
        "R05",
        "R06",
        "R09",
    ]


def _shape(kind: TileKind) -> set[tuple[object, ...]]:
    ids = [f.id for f in kind.features]
    return {
        (
            f.type,
            f.positions,
            f.inner >= 0,
            f.centre,
            f.pennants,
            frozenset(m for m in MARKS if f.extra.get(m)),
            frozenset(ids[c] for c in f.cities),
        )
        for f in kind.features
    }


def _ref_shape(ref: RefTile) -> set[tuple[object, ...]]:
    return {
        (f.type, f.positions, f.inner, f.centre, f.pennants, f.marks, f.linked)
        for f in ref.features
    }


def _links(kind: TileKind) -> frozenset[frozenset[str]]:
    ids = [f.id for f in kind.features]
    return frozenset(frozenset({ids[a], ids[b]}) for a, b in kind.links)


def _ref_links(ref: RefTile) -> frozenset[frozenset[str]]:
    """Pairs of a table's link groups ("c1-c2-r1-r2" links each pair)."""
    pairs = set()
    for group in ref.links:
        members = sorted(group)
        pairs |= {frozenset({a, b}) for a in members for b in members if a != b}
    return frozenset(pairs)


@pytest.mark.parametrize(
    ("kinds", "ref", "name"),
    [(IC_KINDS, IC_REF, n) for n in sorted(IC_REF)]
    + [(RIVER_KINDS, RIVER_REF, n) for n in sorted(RIVER_REF)],
)
def test_each_kind_matches_the_shared_table(
    kinds: dict[str, TileKind], ref: dict[str, RefTile], name: str
) -> None:
    kind, table = kinds[name], ref[name]
    assert (kind.count, kind.edges) == (table.count, table.edges)
    assert _shape(kind) == _ref_shape(table)
    assert _links(kind) == _ref_links(table)
