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
from PIL import Image, ImageChops
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
    MAX_FRAMES,
    MAX_MS,
    MIN_TURN_MS,
    REPLAY_LIMIT,
    TURN_MS,
    VIEW,
    ReplayMeasures,
    follow,
    frame_picture,
    plan,
    render_replay,
    replay_frames,
    replay_measures,
    replay_tile,
    shown_turns,
    turn_ms,
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


def test_tiles_fill_the_frame_for_small_boards_and_a_view_of_large_ones() -> None:
    assert replay_tile(3, 3) == 80
    assert replay_tile(8, 5) == 79
    # A larger board is followed through a window of VIEW x VIEW squares: tiles never shrink.
    assert replay_tile(15, 13) == replay_tile(40, 12) == replay_tile(12, 40) == 632 // VIEW


LONG_GAMES = [
    Setup(players=("Alice", "Bob"), seed=21),
    Setup(players=tuple(f"Player {i}" for i in range(1, 7)), seed=22, expansions=("abbey_mayor",)),
    Setup(players=("A", "B", "C", "D", "E"), seed=23, game="hunters"),
    Setup(players=("Alice", "Bob"), seed=24, game="castle"),
]


def phone_sizes_ok(measures: ReplayMeasures) -> None:
    """Shown 400 pixels wide, the words' capitals are 11 pixels tall or more, the figures and
    seats' discs 10 or more."""
    sizes = measures.at_phone()
    assert sizes["text"] >= 11 and sizes["figure"] >= 10 and sizes["disc"] >= 10, sizes


@pytest.mark.parametrize("setup", LONG_GAMES, ids=lambda s: f"{s.game}-{len(s.players)}")
def test_whole_games_of_every_family_stay_under_the_limit_and_readable(setup: Setup) -> None:
    game = Game(setup)
    play_random(game, random.Random(setup.seed))
    replay = render_replay(game.record(), RenderOptions(lang="de"))
    assert len(replay.webp) <= REPLAY_LIMIT
    assert replay.frames == replay.turns + 2 and replay.turns >= 55
    _, durations = frames_of(replay.webp)
    assert sum(durations) <= MAX_MS
    assert replay.size[0] == 640
    phone_sizes_ok(replay_measures(game.record(), RenderOptions(lang="de")))


BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")


@pytest.fixture(scope="module")
def big_box() -> dict[str, Any]:
    """A 6-player Big Box game, played to the end (about 140 turns)."""
    names = ("Ann", "Björn", "Chloé", "Dev", "Eun-ji", "Femi")
    game = Game(Setup(players=names, seed=31, expansions=BIG_BOX))
    play_random(game, random.Random(31))
    return game.record()


def test_a_big_box_game_plays_under_a_minute_with_legible_frames(big_box: dict[str, Any]) -> None:
    turns = score_series(big_box).turns
    assert turns > 120
    options = RenderOptions(lang="fr")
    measures = ReplayMeasures(plan(Game.from_record(big_box), options).width)
    drawn = list(replay_frames(big_box, options, measures))
    durations = [ms for _, ms in drawn]
    # One frame per turn, each shorter than a short game's, the last frame held as long.
    assert len(drawn) == turns + 2
    assert MIN_TURN_MS <= durations[1] < TURN_MS and durations[-1] == LAST_MS
    assert sum(durations) <= MAX_MS < 60_000
    phone_sizes_ok(measures)
    assert {image.size for image, _ in drawn} == {drawn[0][0].size}


def test_the_frames_follow_the_action_on_a_big_board(big_box: dict[str, Any]) -> None:
    layout = plan(Game.from_record(big_box), RenderOptions())
    assert layout.follows and layout.view == (VIEW, VIEW)
    assert layout.window is not None
    ex, ey, ec, er = layout.window
    window = follow((0, 0), None, layout)
    moves = 0
    for end, _ in turn_ends(big_box):
        if end.placed is None:
            continue
        before, window = window, follow(window[:2], end.placed, layout)
        x, y = end.placed
        wx, wy, wc, wr = window
        # The tile just placed is in the frame, and the frame inside the final board.
        assert wx <= x < wx + wc and wy <= y < wy + wr, (end.number, window)
        assert ex <= wx and wx + wc <= ex + ec and ey <= wy and wy + wr <= ey + er
        if before[:2] != window[:2]:
            moves += 1
            # Moved because the tile was out of sight: then it is centred (unless at an edge).
            assert not (before[0] <= x < before[0] + wc and before[1] <= y < before[1] + wr)
    assert 0 < moves < turns_of(big_box)


def turns_of(record: dict[str, Any]) -> int:
    return score_series(record).turns


def test_the_declared_sizes_are_the_drawn_ones(big_box: dict[str, Any]) -> None:
    """The words' capital height the measures declare is what the pixels show: the start's
    words in the top band ("Start": a capital, no descender) are inked that tall."""
    options = RenderOptions()
    layout = plan(Game.from_record(big_box), options)
    measures = ReplayMeasures(layout.width)
    end, game = next(iter(turn_ends(big_box)))
    image = frame_picture(game, end, layout, options, total=140, measures=measures)
    band = image.crop((0, 0, layout.width, layout.head_h))
    data = band.tobytes()
    rows = [
        y
        for y in range(band.height)
        if any(
            close(tuple(data[i : i + 3]), pal.INK, 40)  # type: ignore[arg-type]
            for i in range(y * band.width * 3, (y + 1) * band.width * 3, 3)
        )
    ]
    inked = rows[-1] - rows[0] + 1
    head = measures.texts[0]
    assert head <= inked <= head + 1, (head, inked)
    assert head * 400 / layout.width >= 11


def test_long_games_show_late_turns_together_to_keep_under_the_cap() -> None:
    assert shown_turns(40) == list(range(1, 41))
    assert shown_turns(MAX_FRAMES) == list(range(1, MAX_FRAMES + 1))
    for turns in (MAX_FRAMES + 1, 300, 700):
        shown = shown_turns(turns)
        assert len(shown) <= MAX_FRAMES and shown[-1] == turns
        steps = [b - a for a, b in zip([0, *shown], shown, strict=False)]
        # One by one first, then in even groups.
        assert steps[0] == 1 and steps == sorted(steps) and len(set(steps)) <= 3
        ms = turn_ms(len(shown))
        assert FIRST_MS + (len(shown) + 1) * ms + LAST_MS <= MAX_MS
    assert turn_ms(10) == TURN_MS and turn_ms(140) < TURN_MS


def test_a_big_board_ends_on_the_whole_board(big_box: dict[str, Any]) -> None:
    final = Game.from_record(big_box)
    options = RenderOptions()
    layout = plan(final, options)
    assert layout.window is not None
    *_, (end, game) = turn_ends(big_box)
    measures = ReplayMeasures(layout.width)
    last = frame_picture(game, end, layout, options, total=140, final=True, measures=measures)
    # The whole board is in the picture: it spans the frame's width or the board's band's
    # height; the figures, too small to read at phone width, are left out.
    board = last.crop((0, layout.head_h, layout.width, layout.head_h + layout.board_h))
    drawn = Image.new("RGB", board.size, pal.BACKGROUND)
    left, top, right, bottom = ImageChops.difference(board, drawn).getbbox() or (0, 0, 0, 0)
    assert right - left > 0.9 * layout.width or bottom - top > 0.9 * layout.board_h
    assert measures.figures == []


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
