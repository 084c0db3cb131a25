"""Tile data: the engine's base set matches the shared tile table, totals and rotations."""

from __future__ import annotations

import pytest
from support import REF, ref_distinct_rotations, rotated_edges, rotated_positions

from engine.core.board import distinct_rotations
from engine.core.tiles import load_set

BASE = {kind.name: kind for kind in load_set("base")}


def test_the_base_game_has_72_tiles_of_24_kinds() -> None:
    assert len(BASE) == 24
    assert sum(kind.count for kind in BASE.values()) == 72


def test_the_reference_table_itself_totals_72_tiles() -> None:
    assert sum(tile.count for tile in REF.values()) == 72
    assert sorted(REF) == sorted(BASE)


def test_there_are_10_pennants_in_all() -> None:
    pennants = sum(k.count * sum(f.pennants for f in k.features) for k in BASE.values())
    assert pennants == 10


def test_there_are_6_cloisters_in_all() -> None:
    cloisters = sum(
        k.count * sum(1 for f in k.features if f.type == "cloister") for k in BASE.values()
    )
    assert cloisters == 6


def test_the_start_tile_is_one_of_the_four_d() -> None:
    starts = [k.name for k in BASE.values() if k.start]
    assert starts == ["D"]
    assert BASE["D"].count == 4


@pytest.mark.parametrize("name", sorted(REF))
def test_each_kind_has_the_count_and_edges_of_the_table(name: str) -> None:
    assert BASE[name].count == REF[name].count
    assert BASE[name].edges == REF[name].edges


@pytest.mark.parametrize("name", sorted(REF))
def test_each_kind_has_the_features_of_the_table(name: str) -> None:
    kind = BASE[name]
    ref = REF[name]

    def shape(type_: str, positions: frozenset[int], pennants: int) -> tuple[str, str, int]:
        return type_, "C" if type_ == "cloister" else str(sorted(positions)), pennants

    engine_features = sorted(shape(f.type, f.positions, f.pennants) for f in kind.features)
    table_features = sorted(shape(f.type, f.positions, f.pennants) for f in ref.features)
    assert engine_features == table_features


@pytest.mark.parametrize("name", sorted(REF))
def test_each_field_touches_the_cities_of_the_table(name: str) -> None:
    kind = BASE[name]
    ref = REF[name]
    ref_by_id = {f.id: f for f in ref.features}
    expected = sorted(
        (sorted(f.positions), sorted(sorted(ref_by_id[c].positions) for c in f.cities))
        for f in ref.features
        if f.type == "field"
    )
    actual = sorted(
        (sorted(f.positions), sorted(sorted(kind.features[c].positions) for c in f.cities))
        for f in kind.features
        if f.type == "field"
    )
    assert actual == expected


@pytest.mark.parametrize("name", sorted(REF))
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_turning_a_tile_clockwise_moves_its_edges_and_positions(name: str, rotation: int) -> None:
    oriented = BASE[name].oriented(rotation)
    assert oriented.rotation == rotation
    assert oriented.edges == rotated_edges(REF[name].edges, rotation)
    expected = sorted(
        (f.type, sorted(rotated_positions(f.positions, rotation))) for f in REF[name].features
    )
    actual = sorted((f.type, sorted(f.positions)) for f in oriented.features)
    assert actual == expected


def test_a_quarter_turn_moves_the_north_edge_to_the_east() -> None:
    # D: city north, road east-west. Turned 90 degrees clockwise: city east, road north-south.
    turned = BASE["D"].oriented(90)
    assert turned.edges == "RCRF"
    city = next(f for f in turned.features if f.type == "city")
    assert city.positions == {3, 4, 5}


@pytest.mark.parametrize(
    ("name", "looks"),
    [("B", 1), ("C", 1), ("X", 1), ("U", 2), ("H", 2), ("F", 2), ("G", 2), ("D", 4), ("V", 4)],
)
def test_symmetric_tiles_have_fewer_distinct_rotations(name: str, looks: int) -> None:
    assert len(ref_distinct_rotations(name)) == looks
    assert sorted(distinct_rotations(BASE[name])) == ref_distinct_rotations(name)


@pytest.mark.parametrize("name", sorted(REF))
def test_roads_that_end_inside_the_tile_are_single_edge_roads(name: str) -> None:
    # "·ends" roads stop at a cloister, crossing or city gate: one edge position only.
    for feature in REF[name].features:
        if feature.type == "road":
            assert (len(feature.positions) == 1) == feature.ends
