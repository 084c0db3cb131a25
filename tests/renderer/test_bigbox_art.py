"""The Big Box's tile art and figures: inns, cathedrals, goods and The River drawn from the data,
the large follower, builder and pig told apart by outline, their colours kept by the PNG palette."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

from engine.core.tiles import kinds_by_name
from renderer import emblems
from renderer import palette as pal
from renderer.encode import encode_png
from renderer.figures import figure_icon
from renderer.geometry import GRID, layout, matches_data, region_map
from renderer.tileart import tile_image

BIG_BOX = kinds_by_name("inns_cathedrals", "traders_builders", "river")
ORIENTED = [(name, rotation) for name in BIG_BOX for rotation in (0, 90, 180, 270)]


def _rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b = image.convert("RGB").getpixel(xy)  # type: ignore[misc]
    return r, g, b


@pytest.mark.parametrize(("name", "rotation"), ORIENTED)
def test_drawn_fields_split_as_the_big_box_data_says(name: str, rotation: int) -> None:
    # Including the rarer shapes: a corner city reaching the far corner (TB07, TB12, TB22), two
    # gates on one wall (TB08), two cities meeting where two roads end (IC05), a field between
    # two corner cities (TB14).
    assert matches_data(BIG_BOX[name].oriented(rotation))


@pytest.mark.parametrize(("name", "rotation"), ORIENTED)
def test_every_inn_cathedral_and_goods_mark_is_drawn_on_its_feature(
    name: str, rotation: int
) -> None:
    oriented = BIG_BOX[name].oriented(rotation)
    chosen = layout(oriented)
    wanted = {}
    for local, feat in enumerate(oriented.features):
        if feat.extra.get("inn"):
            wanted[local] = "inn"
        elif feat.extra.get("cathedral"):
            wanted[local] = "cathedral"
        elif feat.extra.get("goods"):
            wanted[local] = feat.extra["goods"]
    assert {local: mark for local, (mark, _) in chosen.emblems.items()} == wanted
    regions = region_map(oriented, chosen.cities, chosen.roads, chosen.centre, rivers=chosen.rivers)
    for local, (mark, (x, y)) in chosen.emblems.items():
        value = regions.getpixel((min(GRID - 1, int(x * GRID)), min(GRID - 1, int(y * GRID))))
        # A city's mark lies in the city; an inn stands beside its road, on open field.
        assert value == (0 if mark == "inn" else local + 1), f"{name}: {mark} misplaced"


@pytest.mark.parametrize("name", [n for n in BIG_BOX if n.startswith("R")])
def test_the_river_is_drawn_blue_and_has_no_figure_spot(name: str) -> None:
    oriented = BIG_BOX[name].oriented(90)
    chosen = layout(oriented)
    rivers = [i for i, f in enumerate(oriented.features) if f.type == "river"]
    assert [r.local for r in chosen.rivers] == rivers
    assert not set(rivers) & set(chosen.spots)
    image = tile_image(oriented, 96)
    for river in chosen.rivers:
        x, y = river.path[len(river.path) // 3]
        r, _, b = _rgb(image, (int(x * 95), int(y * 95)))
        assert b > 150 and b > r + 60, f"{name}: no water at {x:.2f},{y:.2f}"
    ends = {r.end for r in chosen.rivers}
    assert (
        ends == {"spring"} if name == "R01" else ends == {"lake"} if name == "R02" else ends == {""}
    )


def test_a_road_over_the_river_crosses_on_a_bridge() -> None:
    # R06: the road runs west-east, the river north-south; the crossing is road, not water.
    oriented = BIG_BOX["R06"].oriented(0)
    r, g, b = _rgb(tile_image(oriented, 96), (48, 48))
    assert (r, g, b) == pytest.approx(pal.ROAD, abs=30)


def _mask(player: int, role: str, size: int = 48) -> Image.Image:
    icon = figure_icon(player, role, size)
    box = icon.getchannel("A").point(lambda a: 255 if a > 128 else 0)
    bbox = box.getbbox()
    assert bbox is not None
    return box.crop(bbox).resize((24, 24))


def _overlap(a: Image.Image, b: Image.Image) -> float:
    both = ImageChops.multiply(a, b).histogram()[255]
    either = ImageChops.lighter(a, b).histogram()[255]
    return both / either


ROLES = ("follower", "farmer", "large_follower", "builder", "pig", "mayor", "barn", "wagon")


@pytest.mark.parametrize("player", range(6))
def test_the_new_figures_have_silhouettes_of_their_own(player: int) -> None:
    masks = {role: _mask(player, role) for role in ROLES}
    for new, other in itertools.product(("large_follower", "builder", "pig"), ROLES):
        if new != other:
            assert _overlap(masks[new], masks[other]) < 0.8, f"{new} looks like {other}"


def test_the_large_follower_is_clearly_bigger_than_a_follower() -> None:
    small = figure_icon(0, "follower", 64).getchannel("A").histogram()
    large = figure_icon(0, "large_follower", 64).getchannel("A").histogram()
    assert sum(large[129:]) > 1.5 * sum(small[129:])


@pytest.mark.parametrize(
    "name",
    ["IC01", "IC13", "TB02", "TB05", "TB06", "R02", "R06"],
)
def test_the_shared_palette_keeps_the_big_box_colours(name: str) -> None:
    image = tile_image(BIG_BOX[name].oriented(0), 120)
    back = Image.open(io.BytesIO(encode_png(image))).convert("RGB")
    diff = ImageChops.difference(image, back).convert("L")
    mean = sum(i * n for i, n in enumerate(diff.histogram())) / (120 * 120)
    assert mean < 4.0, f"{name}: mean colour error {mean:.1f}"


@pytest.mark.parametrize("kind", emblems.GOODS)
def test_goods_tokens_keep_their_colour_through_the_palette(kind: str) -> None:
    colour = {"wine": pal.GOODS_WINE, "grain": pal.GOODS_GRAIN_DARK, "cloth": pal.GOODS_CLOTH}[kind]
    image = Image.new("RGB", (80, 80), pal.BACKGROUND)
    icon = emblems.goods_icon(kind, 80)
    image.paste(icon, (0, 0), icon)
    back = Image.open(io.BytesIO(encode_png(image))).convert("RGB")

    def near(picture: Image.Image) -> int:
        data = picture.tobytes()
        pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
        return sum(1 for p in pixels if max(abs(p[i] - colour[i]) for i in range(3)) <= 12)

    assert near(image) > 20
    assert near(back) >= 0.7 * near(image)


def test_the_three_goods_differ_in_shape() -> None:
    def ink(kind: str) -> Image.Image:
        # The inside of the token (its rim is the same for all three), dark strokes and fills.
        grey = emblems.goods_icon(kind, 48).convert("L").crop((10, 10, 38, 38))
        return grey.point(lambda v: 255 if v < 170 else 0)

    for a, b in itertools.combinations(emblems.GOODS, 2):
        assert _overlap(ink(a), ink(b)) < 0.75, f"{a} and {b} look alike"


def test_the_three_goods_differ_in_colour() -> None:
    def mean(kind: str) -> tuple[float, ...]:
        icon = emblems.goods_icon(kind, 48).convert("RGB").crop((12, 12, 36, 36))
        data = icon.tobytes()
        return tuple(sum(data[i::3]) / (len(data) / 3) for i in range(3))

    for a, b in itertools.combinations(emblems.GOODS, 2):
        assert sum(abs(x - y) for x, y in zip(mean(a), mean(b), strict=True)) > 60


def test_the_cut_off_corner_fields_get_a_figure_spot_each() -> None:
    # TB07: four fields, each with its own spot on open field.
    oriented = BIG_BOX["TB07"].oriented(0)
    chosen = layout(oriented)
    regions = region_map(oriented, chosen.cities, chosen.roads, chosen.centre)
    fields = [i for i, f in enumerate(oriented.features) if f.type == "field"]
    spots = [chosen.spots[f] for f in fields]
    assert len(set(spots)) == 4
    for x, y in spots:
        assert regions.getpixel((min(GRID - 1, int(x * GRID)), min(GRID - 1, int(y * GRID)))) == 0
