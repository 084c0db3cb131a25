"""Helpers for the renderer tests: hand-built boards, random games, pixel checks, references.

Run ``python tests/renderer/render_helpers.py`` to regenerate the reference images after an
intended change of the art (then look at them before committing).
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterable
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import Game, Setup  # noqa: E402
from engine.cli import play_random  # noqa: E402
from engine.core.board import Board, Figure  # noqa: E402
from engine.core.tiles import kinds_by_name  # noqa: E402
from renderer import RenderOptions, render_game_end, render_rotations  # noqa: E402
from renderer.board import draw_board  # noqa: E402
from renderer.encode import encode_png  # noqa: E402
from renderer.panel import draw_panel, panel_width  # noqa: E402
from renderer.render import panel_data  # noqa: E402

REFERENCE = Path(__file__).parent / "reference"
KINDS = kinds_by_name("base", "abbey_mayor")
RGB = tuple[int, int, int]


def build_board(placements: Iterable[tuple[str, int, int, int]]) -> Board:
    """A board from (kind, x, y, rotation) tuples, placed in order (legality not checked)."""
    board = Board()
    for turn, (name, x, y, rotation) in enumerate(placements):
        board.place(KINDS[name].oriented(rotation), (x, y), turn)
    return board


#: Every Abbey & Mayor shape on one board, with each figure kind of the expansion.
AM_BOARD = (
    ("D", 0, 0, 0),
    ("AM02", 1, 0, 0),
    ("AM03", 2, 0, 0),
    ("AM12", 0, 1, 0),
    ("AM11", 1, 1, 0),
    ("AM10", 2, 1, 0),
    ("ABBEY", 0, 2, 0),
    ("AM07", 1, 2, 0),
    ("AM09", 2, 2, 0),
)


def am_figures(board: Board) -> list[Figure]:
    def local(pos: tuple[int, int], at: int | str) -> int:
        return board.tiles[pos].oriented.feature_at(at)

    return [
        Figure(0, "mayor", (1, 0), local((1, 0), 0), 0),
        Figure(1, "follower", (2, 0), local((2, 0), "I1"), "I1"),
        Figure(2, "wagon", (0, 1), local((0, 1), 1), 1),
        Figure(3, "barn", (2, 1), -1, "NW"),
        Figure(4, "follower", (0, 2), local((0, 2), "C"), "C"),
        Figure(1, "follower", (1, 1), local((1, 1), 1), 1),
    ]


def random_game(players: int, seed: int, turns: int | None = None) -> Game:
    """A random base game, played to the end (or to ``turns`` turns)."""
    game = Game(Setup(players=tuple(f"Player {i + 1}" for i in range(players)), seed=seed))
    if turns is None:
        play_random(game, random.Random(seed))
        return game
    from engine import Pass, Phase

    rng = random.Random(seed)
    while game.phase is not Phase.OVER and game.turn < turns:
        if game.phase is Phase.TILE:
            options = list(game.legal_placements())
            game.play(rng.choice(options))
        else:
            figures = game.legal_figures()
            game.play(rng.choice(figures) if figures and rng.random() < 0.5 else Pass())
    return game


def expansion_game(
    expansions: tuple[str, ...], players: int, seed: int, turns: int | None = None
) -> Game:
    """A random game with ``expansions``, played to the end (or to ``turns`` turns): a random
    placement, then a random figure 7 times in 10."""
    from engine import Pass, Phase

    names = tuple(f"Player {i + 1}" for i in range(players))
    game = Game(Setup(players=names, seed=seed, expansions=expansions))
    rng = random.Random(seed)
    while game.phase is not Phase.OVER and (turns is None or game.turn < turns):
        if game.phase is Phase.TILE:
            game.play(rng.choice(list(game.legal_placements())))
        else:
            figures = game.legal_figures()
            game.play(rng.choice(figures) if figures and rng.random() < 0.7 else Pass())
    return game


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a: RGB, b: RGB, tolerance: int = 40) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def colours_near(image: Image.Image, centre: tuple[int, int], radius: int) -> list[RGB]:
    x, y = centre
    crop = image.crop((x - radius, y - radius, x + radius + 1, y + radius + 1)).convert("RGB")
    data = crop.tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def reference_images() -> dict[str, bytes]:
    """The images kept under reference/: small, deterministic, covering the main pictures."""
    options = RenderOptions(tile_size=64, coordinates=True)
    board = build_board(AM_BOARD)
    image, _ = draw_board(board.tiles, am_figures(board), options, last=(2, 2))
    end = random_game(2, seed=3)
    mid = random_game(3, seed=4, turns=6)
    strip = panel_data(expansion_game(("abbey_mayor",), 3, seed=5, turns=24))
    return {
        "am_board.png": encode_png(image),
        "end_2p.png": render_game_end(end, RenderOptions(tile_size=48)),
        "rotations.png": render_rotations(mid, RenderOptions(tile_size=64, lang="fr")),
        # The players' strip of the whole-board picture, without the Big Box's figures.
        "am_strip.png": encode_png(
            draw_panel(strip, panel_width(strip, 64), 64, RenderOptions(lang="de"))
        ),
    }


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0-255)."""
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / 3


if __name__ == "__main__":
    REFERENCE.mkdir(exist_ok=True)
    for name, png in reference_images().items():
        (REFERENCE / name).write_bytes(png)
        print(f"wrote {REFERENCE / name} ({len(png) // 1024} KB)")
