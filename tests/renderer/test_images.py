"""Whole images: reference pictures, size bounds on full games, CLI, threads, languages."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from render_helpers import REFERENCE, ROOT, decode, difference, random_game, reference_images

from renderer import RenderOptions, render_board, render_game_end, render_rotations
from renderer.turn import legal_rotations

LIMIT = 1_500_000  # bytes: well under Discord's 10 MB, and the target


@pytest.mark.parametrize("name", ["am_board.png", "end_2p.png", "rotations.png"])
def test_images_match_their_reference_within_tolerance(name: str) -> None:
    made = decode(reference_images()[name])
    kept = decode((REFERENCE / name).read_bytes())
    assert made.size == kept.size
    assert difference(made, kept) < 2.0, (
        f"regenerate with python {Path(__file__).parent}/render_helpers.py"
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_full_game_images_stay_small_and_phone_sized(players: int) -> None:
    game = random_game(players, seed=10 + players)
    assert game.finished
    options = RenderOptions()
    board = render_board(game, options)
    end = render_game_end(game, options)
    for png, allowance in ((board, 600), (end, options.max_side)):
        assert len(png) < LIMIT
        image = decode(png)
        # The end picture adds the score chart under the board, sized to read at phone width.
        assert max(image.size) <= options.max_side + allowance


def test_a_sprawling_board_shrinks_its_tiles_to_fit() -> None:
    game = random_game(2, seed=1)
    small = RenderOptions(max_side=900)
    image = decode(render_board(game, RenderOptions(max_side=900, panel=False)))
    assert max(image.size) <= small.max_side + 4


def test_rotations_show_each_fitting_rotation() -> None:
    game = random_game(2, seed=8, turns=5)
    rotations = legal_rotations(game)
    assert rotations and all(rotations.values())
    image = decode(render_rotations(game))
    assert image.width > 4 * 96


def test_renders_in_threads_give_identical_bytes() -> None:
    game = random_game(3, seed=9, turns=30)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: render_board(game), range(8)))
    assert len(set(results)) == 1


def test_every_language_has_every_label() -> None:
    assert RenderOptions(lang="fr").text("tiles_left", n=3) == "Tuiles dans la pioche : 3"
    assert RenderOptions(lang="xx").text("tiles_left", n=3) == "Tiles in the stack: 3"


def test_command_line_draws_the_board_at_a_turn(tmp_path: Path) -> None:
    game = random_game(2, seed=4)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game.record()))
    out = tmp_path / "board.png"
    run = subprocess.run(
        [sys.executable, "-m", "renderer", str(record), "--out", str(out), "--turn", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "turn 5" in run.stdout
    assert decode(out.read_bytes()).width > 0
    missing = subprocess.run(
        [sys.executable, "-m", "renderer", str(tmp_path / "none.json"), "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2 and "cannot read" in missing.stderr


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_end_chart_legend_wraps_inside_the_picture(lang: str) -> None:
    from renderer import palette
    from renderer.endgame import legend_lines
    from renderer.hunters import end as hunters_end

    options = RenderOptions(lang=lang)
    named = list(hunters_end.category_names(options).items())
    font = palette.font(24)
    lines = legend_lines(named, 640, 48, 24, font)
    assert [cat for line in lines for cat, _, _ in line] == [cat for cat, _ in named]
    for line in lines:
        _, label, x = line[-1]
        assert x + 48 * 0.75 + font.getlength(label) <= 640 - 24, (lang, label)
