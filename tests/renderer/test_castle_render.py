"""The Castle's images: the wall and its track, towers, tile art from the data, figures, the
players' strip, reference pictures, the command line, and random games drawn at every turn.

Run ``python tests/renderer/test_castle_render.py`` to draw the reference images again after an
intended change of the art (then look at them before committing).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from render_helpers import REFERENCE, ROOT, close, decode, difference

from engine import CastleGame, Game, Pass, Phase, PlaceTile, Setup
from engine.castle.board import castle_geometry
from engine.cli import random_action
from engine.core.tiles import EDGE_STEPS
from renderer import (
    RenderOptions,
    render_board,
    render_figure_spots,
    render_game_end,
    render_preview,
    render_rotations,
)
from renderer.castle.icons import ROLES, WALL_BACK, WALL_FACE, subject_icon
from renderer.castle.layout import GRID, castle_kinds, castle_layout, region_at
from renderer.castle.picture import draw_castle
from renderer.castle.render import castle_picture, render_castle
from renderer.castle.track import castle_track
from renderer.geometry import edge_mid, position_point
from renderer.palette import player_colour
from renderer.tileart import tile_image

UPLOAD_LIMIT = 10 * 1024 * 1024
#: The opening of the castle notes' example E3: Alice's marker stops on 12 and takes tile 1.
OPENING = [
    ((5, 0), "K02", 0, "tower"),
    ((0, 5), "K22", 90, None),
    ((4, 0), "K07", 180, "tower"),
    ((3, 0), "K08", 90, None),
    ((3, 1), "K07", 0, None),
    ((4, 1), "K17", 270, None),
]
WALLS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4)


def scene(turns: int | None, seed: int = 4) -> CastleGame:
    """The opening, then random moves (seeded) to ``turns`` turns or to the end."""
    rest = [k.name for k in castle_kinds().values() if not k.start for _ in range(k.count)]
    for _, kind, _, _ in OPENING:
        rest.remove(kind)
    random.Random(5).shuffle(rest)
    draw = (*(kind for _, kind, _, _ in OPENING), *rest)
    game = Game(Setup(players=("Alice", "Bob"), game="castle", draw=draw, wall_draw=WALLS))
    assert isinstance(game, CastleGame)
    for (x, y), _, rotation, feature in OPENING:
        game.play(PlaceTile(x, y, rotation))
        if game.phase is Phase.FIGURE:
            oriented = game.board.tiles[(x, y)].oriented
            chosen = [
                f
                for f in game.legal_figures()
                if oriented.features[oriented.feature_at(f.at)].type == feature
            ]
            game.play(chosen[0] if chosen else Pass())
    rng = random.Random(seed)
    while not game.finished and (turns is None or game.turn < turns):
        game.play(random_action(game, rng))
    return game


def with_hands(game: CastleGame) -> CastleGame:
    """Wall tiles handed over as the track would (the engine tests do the same)."""
    game.held[0].append((5, -1))
    game.held[1] += [(2, -1), (7, -1)]
    return game


def pixel(image: Image.Image, at: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b = image.convert("RGB").getpixel(at)  # type: ignore[misc]
    return (r, g, b)


# -- the wall and the track -------------------------------------------------------------------


def test_the_track_runs_from_0_to_99_along_the_wall_without_a_jump() -> None:
    track = castle_track()
    assert sorted(track.spaces) == list(range(100))
    for n in range(100):
        (ax, ay), _ = track.spaces[n]
        (bx, by), _ = track.spaces[(n + 1) % 100]
        assert abs(ax - bx) + abs(ay - by) <= 1, f"spaces {n} and {n + 1} are not neighbours"
    geometry = castle_geometry()
    assert {t.cell: t.spaces for t in geometry.towers} == {
        c: t.spaces for c, t in track.towers.items()
    }
    assert track.spaces[33][0] == (7, -1)  # the rulebook's example: 31 + 2 lands on 32/33


def test_every_wall_cell_faces_the_interior_and_start_squares_sit_in_the_wall() -> None:
    track = castle_track()
    geometry = castle_geometry()
    for wall in track.walls.values():
        dx, dy = EDGE_STEPS[wall.side]
        assert (wall.cell[0] + dx, wall.cell[1] + dy) in geometry.interior
        assert wall.cell not in geometry.interior
    facing = {"S1": (0, 5), "S2": (1, 2), "S3": (5, 0), "S4": (8, 2), "S5": (9, 4)}
    facing |= {"S6": (8, 9), "S7": (3, 9)}
    for start in geometry.starts:
        wall = track.walls[start.cell]
        dx, dy = EDGE_STEPS[wall.side]
        assert (start.cell[0] + dx, start.cell[1] + dy) == facing[start.kind]


# -- tile art from the data -------------------------------------------------------------------


def _connected(cells: set[int]) -> bool:
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, deque([start])
    while todo:
        y, x = divmod(todo.popleft(), GRID)
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            near = ny * GRID + nx
            if 0 <= nx < GRID and 0 <= ny < GRID and near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == cells


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_each_castle_tile_draws_its_features_where_the_data_puts_them(rotation: int) -> None:
    """Every edge third shows its feature, every region is one piece, paths leave from their
    edges, and every figure spot stands on its own feature."""
    for kind in castle_kinds().values():
        if kind.start:
            continue
        oriented = kind.oriented(rotation)
        chosen = castle_layout(oriented)
        path_locals = {p.local for p in chosen.paths}
        for local, feature in enumerate(oriented.features):
            if local in path_locals:
                ends = {
                    e
                    for p in chosen.paths
                    if p.local == local
                    for ln in p.lines
                    for e in (ln[0], ln[-1])
                }
                for position in feature.positions:
                    mid = edge_mid(position // 3)
                    assert any(abs(e[0] - mid[0]) + abs(e[1] - mid[1]) < 1e-6 for e in ends)
                continue
            for position in feature.positions:
                point = position_point(position, inset=1.5 / GRID)
                assert region_at(chosen, point) == local, (kind.name, rotation, position)
            cells = {i for i, v in enumerate(chosen.regions) if v == local + 1}
            assert _connected(cells), f"{kind.name} r{rotation}: {feature.type} in pieces"
            assert region_at(chosen, chosen.spots[local]) == local, (kind.name, local)


def test_the_four_subjects_differ_in_shape_not_only_in_colour() -> None:
    masks = {
        role: subject_icon(0, role, 96).getchannel("A").point(lambda a: 255 if a > 128 else 0)
        for role in ROLES
    }
    for a in ROLES:
        for b in ROLES:
            if a < b:
                ma, mb = masks[a].tobytes(), masks[b].tobytes()
                differ = sum(x != y for x, y in zip(ma, mb, strict=True))
                assert differ > len(ma) * 0.03, f"{a} and {b} have the same silhouette"


def test_castle_tiles_in_the_turn_images_use_the_castle_art() -> None:
    oriented = castle_kinds()["K26"].oriented(90)
    assert tile_image(oriented, 80) is tile_image(oriented, 80)
    art = tile_image(oriented, 80)
    # A path N-S turned 90 degrees runs W-E through the middle: cobbles there, not grass.
    assert not close(pixel(art, (40, 40)), (121, 172, 76))


# -- the board --------------------------------------------------------------------------------


def test_markers_stand_on_their_spaces_and_wall_tiles_on_their_towers() -> None:
    game = scene(24)
    image, frame = draw_castle(game, RenderOptions())
    track = castle_track()
    for player, score in enumerate(game.scores):
        if game.scores.count(score) > 1:
            continue
        cell, unit = track.spaces[score % 100]
        x, y = frame.point(cell, unit)
        beside_mark = (x + round(frame.tile * 0.1), y)  # the seat mark is in the middle
        assert close(pixel(image, beside_mark), player_colour(player), 60)
    taken = [first for first, wall in game.towers.items() if wall is None and first != 0]
    assert taken == [12], "Alice took the wall tile of tower 12/13"
    for tower in track.towers.values():
        x0, y0, x1, y1 = frame.box(tower.cell)
        t = frame.tile
        corner = ((x0 + x1) // 2 - round(t * 0.12), (y0 + y1) // 2 + round(t * 0.12))
        face_down = game.towers[tower.spaces[0]] is not None
        assert close(pixel(image, corner), WALL_BACK, 30) is face_down, tower.spaces


def _face_up_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    data = image.crop(box).tobytes()
    return sum(
        close((data[i], data[i + 1], data[i + 2]), WALL_FACE, 12) for i in range(0, len(data), 3)
    )


def test_the_strip_lists_each_players_wall_tiles_under_their_name() -> None:
    game = scene(24)
    board, _ = draw_castle(game, RenderOptions())
    before = castle_picture(game, RenderOptions())
    after = castle_picture(with_hands(game), RenderOptions())
    assert _face_up_pixels(before, (0, board.height, before.width, before.height)) == 0
    # Side by side, or one under the other when a line is too long for half the width.
    half, middle = after.width // 2, (board.height + after.height) // 2
    halves = [
        ((0, board.height, half, after.height), (half, board.height, after.width, after.height)),
        ((0, board.height, after.width, middle), (0, middle, after.width, after.height)),
    ]
    counts = [(_face_up_pixels(after, a), _face_up_pixels(after, b)) for a, b in halves]
    # Alice holds tile 5; Bob holds 2 and 7.
    assert any(one > 0 and two > 1.5 * one for one, two in counts), counts


def test_previews_spots_and_labels_draw_on_the_castle() -> None:
    game = scene(10)
    placement = next(iter(game.legal_placements()))
    preview = decode(render_preview(game, placement, spot_labels={0: "1"}))
    board = decode(render_board(game))
    assert preview.size == board.size
    assert difference(preview, board) > 0.05
    game.play(placement)
    if game.legal_figures():
        labels = {f.at: str(i + 1) for i, f in enumerate(game.legal_figures())}
        spots = decode(render_figure_spots(game, labels))
        assert difference(spots, decode(render_board(game))) > 0.01


# -- references, command line, sizes ----------------------------------------------------------


def reference_images() -> dict[str, bytes]:
    """The castle's pictures kept under reference/ (small tiles, deterministic)."""
    mid = with_hands(scene(24))
    labels = {
        pos: chr(65 + i)
        for i, pos in enumerate(
            sorted({(p.x, p.y) for p in mid.legal_placements()}, key=lambda p: (p[1], p[0]))
        )
    }
    end = scene(None)
    return {
        "castle_board.png": render_castle(mid, RenderOptions(tile_size=64), candidates=labels),
        "castle_end.png": render_game_end(end, RenderOptions(tile_size=48, lang="fr")),
    }


@pytest.mark.parametrize("name", ["castle_board.png", "castle_end.png"])
def test_castle_images_match_their_reference(name: str) -> None:
    made = decode(reference_images()[name])
    kept = decode((REFERENCE / name).read_bytes())
    assert made.size == kept.size
    assert difference(made, kept) < 2.0, f"regenerate with python {Path(__file__)}"


def test_the_command_line_draws_castle_records(tmp_path: Path) -> None:
    record = tmp_path / "castle.json"
    record.write_text(json.dumps(scene(None).record()))
    for image in ("board", "end", "rotations"):
        out = tmp_path / f"{image}.png"
        run = subprocess.run(
            [sys.executable, "-m", "renderer", str(record), "--out", str(out), "--image", image]
            + (["--turn", "20"] if image == "rotations" else []),
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        assert decode(out.read_bytes()).width > 300


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**32))
def test_random_castle_games_draw_at_every_turn(seed: int) -> None:
    game = Game(Setup(players=("Black", "White"), game="castle", seed=seed))
    rng = random.Random(seed)
    options = RenderOptions()
    while not game.finished:
        png = render_board(game, options)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < UPLOAD_LIMIT
        if game.turn % 15 == 0 and game.phase is Phase.TILE:
            placement = next(iter(game.legal_placements()))
            assert len(render_preview(game, placement, options, spot_labels={})) < UPLOAD_LIMIT
            assert len(render_rotations(game, options)) < UPLOAD_LIMIT
        game.play(random_action(game, rng))
    end = render_game_end(game, options)
    assert len(end) < UPLOAD_LIMIT
    # The castle and its strip, the breakdown, then the score by turn under them.
    assert max(decode(end).size) <= options.max_side + 1200


if __name__ == "__main__":
    REFERENCE.mkdir(exist_ok=True)
    for name, png in reference_images().items():
        (REFERENCE / name).write_bytes(png)
        print(f"wrote {REFERENCE / name} ({len(png) // 1024} KB)")


def test_castle_icons_follow_the_seats_colours_not_a_cache_of_seats() -> None:
    # A seat is drawn in other colours in other games: the icons are cached per colour.
    from renderer import palette as pal
    from renderer.castle import icons

    default = [icons.subject_icon(0, "knight", 48), icons.palace_icon(0, 48)]
    default += [icons.marker_icon(0, 30)]
    with pal.seat_styles((1, 0)):
        swapped = [icons.subject_icon(0, "knight", 48), icons.palace_icon(0, 48)]
        swapped += [icons.marker_icon(0, 30)]
    second = [icons.subject_icon(1, "knight", 48), icons.palace_icon(1, 48)]
    second += [icons.marker_icon(1, 30)]
    for before, after, other in zip(default, swapped, second, strict=True):
        assert after.tobytes() != before.tobytes()
        assert after.tobytes() == other.tobytes()
