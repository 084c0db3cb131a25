"""Hunters & Gatherers pictures: drawn from the tile data, every feature where the data says.

Run ``python tests/renderer/test_hunters_render.py`` to regenerate the H&G reference images after
an intended change of the art (then look at them before committing).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from render_helpers import REFERENCE, ROOT, close, decode, difference

from engine import Game, Pass, Phase, PlaceFigure, PlaceTile, Setup
from engine.core.board import Board, Figure
from engine.core.tiles import TileKind, kinds_by_name, load_set
from renderer import (
    RenderOptions,
    render_board,
    render_figure_spots,
    render_game_end,
    render_preview,
    render_rotations,
)
from renderer import palette as pal
from renderer.board import draw_board, figure_point
from renderer.encode import encode_png
from renderer.figures import figure_icon, role_of
from renderer.hunters.art import BONUS_FRAME, FISH, is_bonus
from renderer.hunters.end import bonus_tiles_by_player, game_end_picture
from renderer.hunters.geometry import (
    LAND,
    base_layout,
    decorations,
    features_of,
    marks,
    spots,
    turn_point,
)
from renderer.tileart import tile_image

KINDS: dict[str, TileKind] = kinds_by_name("hunters")
NAMES = [k.name for k in load_set("hunters")]
UPLOAD_LIMIT = 10 * 1024 * 1024
REFERENCES = ("hunters_board.png", "hunters_end.png", "hunters_rotations.png")


def rgb(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def land_label(oriented_kind: str, rotation: int, point: tuple[float, float]) -> int:
    """The land feature (local index) under a point of a turned tile, -1 on water."""
    chosen = base_layout(KINDS[oriented_kind].oriented(0))
    return chosen.label_at(turn_point(point, -(rotation // 90)))


# -- geometry follows the data -----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_every_forest_and_meadow_is_one_piece_touching_exactly_its_positions(name: str) -> None:
    assert base_layout(KINDS[name].oriented(0)).valid


@pytest.mark.parametrize("name", NAMES)
def test_every_figure_spot_lies_on_its_own_feature_in_every_rotation(name: str) -> None:
    for rotation in (0, 90, 180, 270):
        oriented = KINDS[name].oriented(rotation)
        chosen = base_layout(oriented)
        found = spots(oriented)
        assert set(found) == set(range(len(oriented.features)))
        lakes = {lake.local: lake for lake in chosen.lakes}
        rivers = {river.local: river for river in chosen.rivers}
        for local, feature in enumerate(oriented.features):
            x, y = found[local]
            assert 0.05 < x < 0.95 and 0.05 < y < 0.95, (name, rotation, feature.id)
            straight = turn_point((x, y), -(rotation // 90))
            if feature.type in LAND:
                assert land_label(name, rotation, (x, y)) == local, (name, rotation, feature.id)
            elif feature.type == "lake":
                lake = lakes[local]
                gap = (straight[0] - lake.centre[0]) ** 2 + (straight[1] - lake.centre[1]) ** 2
                assert gap**0.5 < lake.radius, (name, rotation, feature.id)
            else:
                path = rivers[local].path
                near = min(
                    ((straight[0] - a) ** 2 + (straight[1] - b) ** 2) ** 0.5 for a, b in path
                )
                assert near < 0.06, (name, rotation, feature.id)


@pytest.mark.parametrize("name", NAMES)
def test_every_animal_nugget_and_mushroom_of_the_data_is_drawn_on_its_feature(name: str) -> None:
    oriented = KINDS[name].oriented(90)
    volcano = bool(KINDS[name].extra.get("volcano"))
    placed = marks(oriented)
    for feat in features_of(oriented):
        if feat.type not in LAND:
            continue
        wanted = decorations(feat, volcano)
        assert len(placed[feat.local]) == len(wanted), (name, feat.local, wanted)
        for point in placed[feat.local]:
            assert land_label(name, 90, point) == feat.local, (name, feat.local)


def test_a_lake_shows_one_fish_per_fish_in_the_data() -> None:
    for name in NAMES:
        chosen = base_layout(KINDS[name].oriented(0))
        for lake in chosen.lakes:
            fish = KINDS[name].features[lake.local].extra.get("fish", 0)
            assert len(lake.fish) == fish, name
    # ...and they are drawn: the 4-fish lake of B06 holds the most fish colour of any lake tile.
    orange = {
        name: sum(1 for c in rgb(tile_image(KINDS[name].oriented(0), 96)) if close(c, FISH))
        for name in ("B06", "L13", "L05")
    }
    assert orange["B06"] > orange["L13"] > orange["L05"] > 0


def test_the_start_tile_draws_its_volcano_and_the_bonus_tiles_their_gold_frame() -> None:
    start = KINDS["S"].oriented(0)
    forest = next(f for f in features_of(start) if f.type == "forest")
    assert decorations(forest, True)[:2] == ["volcano", "nugget"]
    for name in NAMES:
        art = tile_image(KINDS[name].oriented(0), 96)
        edge = art.getpixel((48, 3))
        assert is_bonus(KINDS[name].oriented(0)) == bool(KINDS[name].extra.get("bonus"))
        if KINDS[name].extra.get("bonus"):
            assert close(edge, BONUS_FRAME, 60), name  # type: ignore[arg-type]
        else:
            assert not close(edge, BONUS_FRAME, 60), name  # type: ignore[arg-type]


def test_a_turned_tile_is_the_same_landscape_turned() -> None:
    # Icons stay upright, so compare a tile without any: the rivers and forests must match.
    kind = KINDS["L26"]
    straight = tile_image(kind.oriented(0), 96)
    for rotation in (90, 180, 270):
        turned = tile_image(kind.oriented(rotation), 96)
        assert difference(straight.rotate(-rotation), turned) < 6


def test_tile_sets_sharing_a_kind_name_keep_their_own_art() -> None:
    base_s = kinds_by_name("base")["S"].oriented(0)
    hunters_s = KINDS["S"].oriented(0)
    assert base_s.kind == hunters_s.kind
    assert difference(tile_image(base_s, 64), tile_image(hunters_s, 64)) > 20


# -- figures -----------------------------------------------------------------------------------


def test_each_role_has_its_own_silhouette_not_just_a_colour() -> None:
    oriented = KINDS["L15"].oriented(0)  # meadow, river
    forest_tile = KINDS["L29"].oriented(0)
    meadow = oriented.feature_at(0)
    river = oriented.feature_at(4)
    forest = forest_tile.feature_at(6)
    assert role_of(Figure(0, "man", (0, 0), meadow, 0), oriented) == "hunter"
    assert role_of(Figure(0, "man", (0, 0), river, 4), oriented) == "fisher"
    assert role_of(Figure(0, "man", (0, 0), forest, 6), forest_tile) == "gatherer"
    assert role_of(Figure(0, "hut", (0, 0), river, 4), oriented) == "hut"
    shapes = {
        role: figure_icon(2, role, 96).getchannel("A").point(lambda v: 255 if v > 128 else 0)
        for role in ("hunter", "gatherer", "fisher", "hut", "man")
    }
    roles = list(shapes)
    for i, a in enumerate(roles):
        for b in roles[i + 1 :]:
            assert difference(shapes[a], shapes[b]) > 8, (a, b)


def hunters_board() -> tuple[Board, list[Figure]]:
    """A hand-built board: the start tile, lakes, a spring, bonus tiles and every role."""
    board = Board()
    for turn, (name, x, y, rotation) in enumerate(
        (
            ("S", 0, 0, 0),
            ("L34", 1, 0, 270),
            ("L34", 0, 1, 0),
            ("L13", -1, 0, 0),
            ("B01", 1, 1, 0),
            ("L14", -1, -1, 0),
            ("B08", -2, 0, 0),
            ("L53", 0, -1, 0),
            ("B02", 1, -1, 0),
        )
    ):
        board.place(KINDS[name].oriented(rotation), (x, y), turn)

    def figure(player: int, kind: str, pos: tuple[int, int], at: int | str) -> Figure:
        return Figure(player, kind, pos, board.tiles[pos].oriented.feature_at(at), at)

    figures = [
        figure(0, "man", (1, 1), 0),  # hunter on the shrine's meadow
        figure(1, "man", (-1, 0), 1),  # fisher
        figure(2, "hut", (-1, 0), "I1"),  # hut on the lake
        figure(3, "man", (1, 0), 0),  # gatherer
        figure(4, "man", (0, -1), 0),  # hunter with the mammoth
        figure(1, "hut", (-2, 0), 1),
    ]
    return board, figures


def test_every_figure_stands_on_its_spot_in_its_seat_colour() -> None:
    board, figures = hunters_board()
    image, frame = draw_board(board.tiles, figures, RenderOptions(tile_size=96))
    for figure in figures:
        x, y = frame.point(figure.pos, figure_point(figure, board.tiles[figure.pos]))
        crop = image.crop((x - 14, y - 14, x + 15, y + 15))
        colour = pal.player_colour(figure.player)
        assert any(close(c, colour) for c in rgb(crop)), figure


# -- whole games -------------------------------------------------------------------------------


def random_hunters(players: int, seed: int, turns: int | None = None) -> Game:
    game = Game(
        Setup(players=tuple(f"P{i + 1}" for i in range(players)), game="hunters", seed=seed)
    )
    rng = random.Random(seed)
    while not game.finished and (turns is None or game.turn < turns):
        if game.phase is Phase.TILE:
            game.play(rng.choice(list(game.legal_placements())))
        else:
            figures = game.legal_figures()
            game.play(rng.choice(figures) if figures and rng.random() < 0.6 else Pass())
    return game


#: A short deck: the second L34 closes the start tile's forest (gold) and earns B01.
GOLD_DECK = ("S", "L34", "L34", "L53", "L13", "L54")
GOLD_OPENING = (PlaceTile(1, 0, 270), PlaceFigure("man", 1, 0, 9), PlaceTile(0, 1, 0), Pass())


def test_the_end_image_breaks_scores_into_hunters_categories_and_counts_the_gold() -> None:
    game = Game(
        Setup(players=("Red", "Blue"), game="hunters", draw=GOLD_DECK, bonus_draw=("B01", "B04"))
    )
    for action in GOLD_OPENING:
        game.play(action)
    assert game.decision.tile == "B01" and game.decision.player == 1
    while not game.finished:
        game.play(next(iter(game.legal_placements())) if game.phase is Phase.TILE else Pass())
    assert bonus_tiles_by_player(game) == [0, 1]
    assert game.breakdown[0] == {"forest": 6}
    end = decode(render_game_end(game, RenderOptions(tile_size=64)))
    plain = decode(render_board(game, RenderOptions(tile_size=64, panel=False)))
    assert end.width >= plain.width and end.height > plain.height + 200
    # The gold strip ends the family's own picture; the score by turn comes under it.
    own = game_end_picture(game, RenderOptions(tile_size=64))
    assert difference(end.crop((0, 0, *own.size)), own) < 2.0
    strip = own.crop((0, own.height - 250, own.width, own.height))
    gold = sum(1 for c in rgb(strip) if close(c, (246, 196, 46), 30))
    assert gold > 20  # Blue's star


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (5, 2)])
def test_every_turn_of_a_random_game_renders_within_the_upload_limit(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(
        Setup(players=tuple(f"P{i + 1}" for i in range(players)), game="hunters", seed=seed)
    )
    options = RenderOptions(tile_size=64)
    while not game.finished:
        assert len(render_board(game, options)) < UPLOAD_LIMIT
        if game.phase is Phase.TILE:
            placements = list(game.legal_placements())
            placement = rng.choice(placements)
            if game.turn % 7 == 0:
                png = render_preview(game, placement, options, spot_labels={0: "1", "I1": "2"})
                assert decode(png).width > 0
                assert len(render_rotations(game, options)) < UPLOAD_LIMIT
            game.play(placement)
        else:
            figures = game.legal_figures()
            labels: dict[int | str, str] = {f.at: str(i + 1) for i, f in enumerate(figures)}
            assert len(render_figure_spots(game, labels, options)) < UPLOAD_LIMIT
            game.play(rng.choice(figures) if figures and rng.random() < 0.6 else Pass())
    png = render_game_end(game, RenderOptions())
    assert len(png) < UPLOAD_LIMIT
    assert max(decode(png).size) < 4000


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), turn=st.integers(0, 90))
def test_any_turn_of_any_random_game_draws_every_picture(
    seed: int, players: int, turn: int
) -> None:
    game = random_hunters(players, seed, turns=turn)
    options = RenderOptions(tile_size=48)
    pictures = [render_board(game, options), render_rotations(game, options)]
    if game.phase is Phase.TILE:
        placement = next(iter(game.legal_placements()))
        pictures.append(render_preview(game, placement, options, spot_labels={"I1": "1"}))
    if game.finished:
        pictures.append(render_game_end(game, options))
    for png in pictures:
        assert len(png) < UPLOAD_LIMIT
        assert decode(png).width > 0


def test_images_keep_their_hunters_colours() -> None:
    game = random_hunters(2, seed=5, turns=20)
    png = render_board(game, RenderOptions(tile_size=96))
    image = decode(png)
    # The palette of this family holds the forest, water and fish colours exactly.
    colours = set(rgb(image))
    assert any(close(c, (52, 112, 56), 12) for c in colours)
    assert any(close(c, (62, 140, 212), 12) for c in colours)


def test_command_line_draws_a_hunters_record(tmp_path: Path) -> None:
    game = random_hunters(3, seed=6)
    record = tmp_path / "hunters.json"
    record.write_text(json.dumps(game.record()))
    for image in ("board", "end", "rotations"):
        out = tmp_path / f"{image}.png"
        run = subprocess.run(
            [sys.executable, "-m", "renderer", str(record), "--out", str(out), "--image", image]
            + (["--turn", "10"] if image == "rotations" else []),
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        assert decode(out.read_bytes()).width > 0


# -- reference pictures ------------------------------------------------------------------------


def hunters_references() -> dict[str, bytes]:
    board, figures = hunters_board()
    image, _ = draw_board(board.tiles, figures, RenderOptions(tile_size=72), last=(1, 1))
    end = random_hunters(2, seed=3)
    mid = random_hunters(3, seed=4, turns=9)
    return {
        "hunters_board.png": encode_png(image, family="hunters"),
        "hunters_end.png": render_game_end(end, RenderOptions(tile_size=40)),
        "hunters_rotations.png": render_rotations(mid, RenderOptions(tile_size=64, lang="fr")),
    }


@pytest.mark.parametrize("name", REFERENCES)
def test_hunters_images_match_their_reference_within_tolerance(name: str) -> None:
    made = decode(hunters_references()[name])
    kept = decode((REFERENCE / name).read_bytes())
    assert made.size == kept.size
    assert difference(made, kept) < 2.0, f"regenerate with python {Path(__file__)}"


if __name__ == "__main__":
    for file, png in hunters_references().items():
        (REFERENCE / file).write_bytes(png)
        print(f"wrote {REFERENCE / file} ({len(png) // 1024} KB)")
        Image.open(REFERENCE / file).verify()
