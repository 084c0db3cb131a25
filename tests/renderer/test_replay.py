"""The animated replay (renderer.replay) and the score-by-turn chart of the end picture."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from render_helpers import ROOT, close, colours_near, decode

from engine import Game, Setup
from engine.cli import play_random
from engine.core.timeline import score_series, turn_ends
from renderer import RenderOptions, render_game_end
from renderer import palette as pal
from renderer.endgame import game_end_picture
from renderer.replay import (
    FIRST_MS,
    LAST_MS,
    REPLAY_LIMIT,
    TURN_MS,
    frame_picture,
    plan,
    render_replay,
    replay_tile,
    text_unit,
)
from renderer.scorechart import nice_step, score_chart_picture

RECORDS = ROOT / "tests" / "engine" / "data" / "records"


def record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text("utf-8"))
    return data


def colours_of(image: Image.Image) -> set[Any]:
    return {colour for _count, colour in image.getcolors(1 << 24) or []}


def frames_of(webp: bytes) -> tuple[list[Image.Image], list[int]]:
    image = Image.open(io.BytesIO(webp))
    count = getattr(image, "n_frames", 1)
    assert image.format == "WEBP" and count > 1
    frames, durations = [], []
    for index in range(count):
        image.seek(index)
        frames.append(image.convert("RGB"))
        durations.append(image.info["duration"])
    return frames, durations


def test_a_finished_game_has_the_start_a_frame_per_turn_and_the_final_scoring() -> None:
    replay = render_replay(record("hand"))
    assert replay.webp[:4] == b"RIFF" and replay.webp[8:12] == b"WEBP"
    frames, durations = frames_of(replay.webp)
    assert replay.turns == 5
    assert len(frames) == replay.frames == replay.turns + 2
    assert {f.size for f in frames} == {replay.size}
    assert durations[0] == FIRST_MS and durations[1] == TURN_MS and durations[-1] == LAST_MS


def test_a_game_in_progress_ends_on_its_last_turn() -> None:
    replay = render_replay(record("unfinished"))
    frames, durations = frames_of(replay.webp)
    assert len(frames) == replay.turns + 1 == 3
    assert durations[-1] == TURN_MS


def test_each_frame_frames_the_tile_just_placed_in_gold_on_a_fixed_board() -> None:
    data = record("cloister")
    options = RenderOptions()
    layout = plan(Game.from_record(data), options)
    # The final board is 3 x 3 squares (x -1..1, y 0..2): every frame shows exactly those.
    assert layout.window == (-1, 0, 3, 3)
    assert layout.tile == replay_tile(3, 3)
    for end, game in turn_ends(data):
        image = frame_picture(game, end, layout, options, total=8)
        assert image.size == layout.size
        if end.placed is None:
            continue
        x, y = end.placed
        left = (layout.width - (3 * layout.tile + 8)) // 2 + 4 + (x + 1) * layout.tile
        top = layout.head_h + 4 + y * layout.tile
        edge = colours_near(image, (left + layout.tile // 2, top + 3), 1)
        assert any(close(c, pal.HIGHLIGHT, 60) for c in edge), (end.number, edge)


def test_tiles_shrink_for_big_boards_and_grow_for_small_ones() -> None:
    assert replay_tile(3, 3) == 80
    assert replay_tile(15, 13) == 64
    assert replay_tile(40, 12) == 24
    assert replay_tile(12, 40) == 24


LONG_GAMES = [
    Setup(players=("Alice", "Bob"), seed=21),
    Setup(players=tuple(f"Player {i}" for i in range(1, 7)), seed=22, expansions=("abbey_mayor",)),
    Setup(players=("A", "B", "C", "D", "E"), seed=23, game="hunters"),
    Setup(players=("Alice", "Bob"), seed=24, game="castle"),
]


@pytest.mark.parametrize("setup", LONG_GAMES, ids=lambda s: f"{s.game}-{len(s.players)}")
def test_whole_games_of_every_family_stay_under_the_limit_and_readable(setup: Setup) -> None:
    game = Game(setup)
    play_random(game, random.Random(setup.seed))
    replay = render_replay(game.record(), RenderOptions(lang="de"))
    assert len(replay.webp) <= REPLAY_LIMIT
    assert replay.frames == replay.turns + 2 and replay.turns >= 55
    # Phone width: shown 400 pixels wide, the words are drawn at least 12 pixels tall.
    width = replay.size[0]
    assert 640 <= width <= 1000
    assert text_unit(width) * 0.5 * 400 / width >= 12


def test_the_command_line_writes_the_replay(tmp_path: Path) -> None:
    out = tmp_path / "replay.webp"
    command = [sys.executable, "-m", "renderer", str(RECORDS / "hand.json")]
    command += ["--out", str(out), "--image", "replay", "--lang", "fr"]
    run = subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    frames, _ = frames_of(out.read_bytes())
    assert len(frames) == 7
    assert "7 frames" in run.stdout


# -- the score by turn ---------------------------------------------------------------------------


def test_round_steps() -> None:
    assert [nice_step(span, 4) for span in (3, 10, 40, 75, 130, 300)] == [1, 5, 10, 20, 50, 100]


def test_the_end_picture_ends_with_every_players_line() -> None:
    game = Game(Setup(players=("A", "B", "C"), seed=5))
    play_random(game, random.Random(5))
    options = RenderOptions()
    picture = game_end_picture(game, options)
    series = score_series(game.record())
    chart = score_chart_picture(series, game.setup.players, picture.width, options)
    bottom = picture.crop((0, picture.height - chart.height, picture.width, picture.height))
    assert bottom.tobytes() == chart.tobytes()
    colours = colours_of(chart)
    for player in range(3):
        assert pal.player_colour(player) in colours
    assert decode(render_game_end(game, options)).size == picture.size


def test_the_chart_draws_lines_only_up_to_the_turn_asked() -> None:
    series = score_series(record("cloister"))
    assert series.of(0) == [0] * 8 + [9, 9]
    options = RenderOptions()
    early = score_chart_picture(series, ("A",), 600, options, upto=2)
    whole = score_chart_picture(series, ("A",), 600, options)
    assert early.size == whole.size
    seat = pal.player_colour(0)
    # Right of the middle, only the whole game's line is drawn.
    right = (400, 0, 560, whole.height)
    assert seat not in colours_of(early.crop(right))
    assert seat in colours_of(whole.crop(right))


def test_a_replay_over_its_budget_is_encoded_again_smaller() -> None:
    whole = render_replay(record("hand"))
    budget = len(whole.webp) // 2
    small = render_replay(record("hand"), max_bytes=budget)
    assert len(small.webp) <= budget
    assert small.frames == whole.frames
    assert small.size[0] < whole.size[0]
