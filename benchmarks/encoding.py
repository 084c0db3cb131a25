"""What encoding a turn picture costs, by format and setting (run: python -m benchmarks.encoding
[--games 60]).

The pictures are the bot's turn pictures (drawn tile, lettered squares, crossed-out dead squares)
of random games of every family and expansion, at every stage of a game. For each way of writing
them: the CPU milliseconds a picture (this process's CPU time, so a figure that holds on a busy
machine), and the mean kilobytes. The "unfiltered" rows are the rows of the palette picture,
each behind its filter byte, deflated (without the few bytes of PNG's chunks around them).
Discord shows PNG, JPEG, GIF and WebP inline; a lossy format blurs the letters and digits, so
only lossless ones are compared.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import time
import zlib
from collections.abc import Callable

from isal import isal_zlib
from PIL import Image

from ai.players import RandomPlayer
from bot.turn_view import turn_screen
from engine import Game, Setup
from engine.core.game import new_game
from renderer.encode import palette_png, shared_palette, unfiltered_rows
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.phone import TileCard, turn_picture

#: Every family, and Carcassonne with each expansion and all of them.
VARIANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("carcassonne", ()),
    ("carcassonne", ("abbey_mayor",)),
    ("carcassonne", ("inns_cathedrals",)),
    ("carcassonne", ("traders_builders",)),
    ("carcassonne", ("river",)),
    ("carcassonne", ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")),
    ("hunters", ()),
    ("castle", ()),
)


def random_games(count: int, seed: int = 1, players: int = 2) -> list[Game]:
    """``count`` running games, the variants in turn, each a random number of moves in."""
    rng = random.Random(seed)
    games: list[Game] = []
    n = 0
    while len(games) < count:
        game_name, expansions = VARIANTS[n % len(VARIANTS)]
        names = tuple("ABCDE"[:players]) if game_name != "castle" else ("A", "B")
        game = new_game(Setup(names, seed=seed * 1000 + n, game=game_name, expansions=expansions))
        n += 1
        player = RandomPlayer(n)
        for _ in range(rng.randrange(0, 120)):
            if game.finished:
                break
            game.play(player.choose(game, game.current))
        if not game.finished:
            games.append(game)
    return games


def bot_turn_job(game: Game) -> Job:
    """The turn picture the bot posts for ``game``'s decision (see bot.ui.turn.post.prompt):
    the drawn tile and its rotations, the lettered squares, the dead squares crossed out."""
    screen = turn_screen(game)
    card = None
    if screen.tile is not None and screen.card:
        card = TileCard(screen.tile, {r: f"{r}°" for r in screen.card})
    labels = screen.labels if screen.phase in ("tile", "abbey_end") else {}
    return Job("turn", game.record(), RenderOptions(dead_squares=True), (), labels, card)


def bot_turn_picture(game: Game) -> Image.Image:
    """The picture of :func:`bot_turn_job`, not encoded."""
    job = bot_turn_job(game)
    return turn_picture(game, job.options, candidates=job.candidates, card=job.card).image


def _pillow(level: int) -> Callable[[Image.Image], bytes]:
    def write(image: Image.Image) -> bytes:
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=level)
        return out.getvalue()

    return write


def _webp(method: int) -> Callable[[Image.Image], bytes]:
    def write(image: Image.Image) -> bytes:
        out = io.BytesIO()
        image.convert("RGB").save(out, format="WEBP", lossless=True, method=method, quality=0)
        return out.getvalue()

    return write


WAYS: dict[str, Callable[[Image.Image], bytes]] = {
    "png pillow zlib 1": _pillow(1),
    "png pillow zlib 6": _pillow(6),
    "png unfiltered zlib 1": lambda image: zlib.compress(unfiltered_rows(image), 1),
    "png unfiltered isal 0": lambda image: isal_zlib.compress(unfiltered_rows(image), 0),
    "png unfiltered isal 1 (chosen)": palette_png,
    "png unfiltered isal 2": lambda image: isal_zlib.compress(unfiltered_rows(image), 2),
    "webp lossless method 0": _webp(0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    games = random_games(args.games)
    for game in games:  # the tile art and the palettes drawn once, as in a running worker
        bot_turn_picture(game).quantize(palette=shared_palette(game.setup.game))
    started = time.process_time()
    rgb = [bot_turn_picture(game) for game in games]
    drawn = (time.process_time() - started) * 1000 / len(games)
    started = time.process_time()
    quantized = [
        image.quantize(palette=shared_palette(game.setup.game), dither=Image.Dither.NONE)
        for game, image in zip(games, rgb, strict=True)
    ]
    quantize = (time.process_time() - started) * 1000 / len(games)
    print(json.dumps({"pictures": len(games), "draw_ms": round(drawn, 2)}))
    print(json.dumps({"step": "quantize to the palette", "cpu_ms": round(quantize, 2)}))
    for name, write in WAYS.items():
        write(quantized[0])  # warm
        started = time.process_time()
        sizes = [len(write(image)) for image in quantized]
        cpu = (time.process_time() - started) * 1000 / len(games)
        print(
            json.dumps(
                {
                    "way": name,
                    "cpu_ms": round(cpu, 2),
                    "kb": round(sum(sizes) / len(sizes) / 1024, 1),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
