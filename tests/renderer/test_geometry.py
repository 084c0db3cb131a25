"""Tile layouts follow the tile data: fields split as listed, every figure spot on its feature."""

from __future__ import annotations

import pytest
from render_helpers import KINDS

from renderer.geometry import GRID, layout, matches_data, region_map
from renderer.tileart import tile_image

ORIENTED = [(name, rotation) for name in KINDS for rotation in (0, 90, 180, 270)]


@pytest.mark.parametrize(("name", "rotation"), ORIENTED)
def test_drawn_fields_split_the_edge_positions_as_the_data_says(name: str, rotation: int) -> None:
    assert matches_data(KINDS[name].oriented(rotation))


@pytest.mark.parametrize("name", list(KINDS))
def test_every_city_and_road_spot_lies_on_its_own_feature(name: str) -> None:
    oriented = KINDS[name].oriented(90)
    chosen = layout(oriented)
    regions = region_map(oriented, chosen.cities, chosen.roads, chosen.centre)
    for local, feature in enumerate(oriented.features):
        x, y = chosen.spots[local]
        assert 0.0 < x < 1.0 and 0.0 < y < 1.0
        if feature.type in ("city", "road"):
            value = regions.getpixel((min(GRID - 1, int(x * GRID)), min(GRID - 1, int(y * GRID))))
            assert value == local + 1, f"{name}: {feature.id} spot is not on it"


def test_the_crossing_tiles_draw_what_the_rules_describe() -> None:
    assert layout(KINDS["AM11"].oriented(0)).centre == "well"
    assert layout(KINDS["AM10"].oriented(0)).centre == "house"
    assert layout(KINDS["L"].oriented(0)).centre == "village"
    assert layout(KINDS["ABBEY"].oriented(0)).centre == "abbey"
    assert layout(KINDS["AM05"].oriented(0)).centre == "cloister"
    # The road under the AM12 city shows a gate on each wall it passes.
    assert len(layout(KINDS["AM12"].oriented(0)).gates) == 2


def test_tile_art_is_cached_per_kind_rotation_and_size() -> None:
    d = KINDS["D"]
    assert tile_image(d.oriented(0), 80) is tile_image(d.oriented(0), 80)
    assert tile_image(d.oriented(90), 80) is not tile_image(d.oriented(0), 80)
    assert tile_image(d.oriented(0), 64).size == (64, 64)


def test_a_rotated_tile_is_the_unrotated_art_turned() -> None:
    from render_helpers import difference

    kind = KINDS["J"]
    straight = tile_image(kind.oriented(0), 96)
    turned = tile_image(kind.oriented(90), 96)
    # PIL rotates counter-clockwise; the tile turns clockwise. Grass tufts differ, so compare
    # loosely: the roads and walls are where they should be.
    assert difference(straight.rotate(-90), turned) < 12
