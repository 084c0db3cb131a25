"""The palette PNG writer: every pixel as quantized, read back by Pillow, on real pictures."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from ai.players import RandomPlayer
from engine import Setup
from engine.core.game import new_game
from renderer.encode import encode_png, palette_png, shared_palette
from renderer.phone import turn_picture


def _picture(game_name: str, moves: int) -> Image.Image:
    game = new_game(Setup(players=("A", "B"), seed=3, game=game_name))
    player = RandomPlayer(5)
    for _ in range(moves):
        if game.finished:
            break
        game.play(player.choose(game, game.current))
    return turn_picture(game).image


@pytest.mark.parametrize("game_name", ["carcassonne", "hunters", "castle"])
def test_png_holds_every_pixel_as_quantized(game_name: str) -> None:
    image = _picture(game_name, 30)
    data = encode_png(image, family=game_name)
    back = Image.open(io.BytesIO(data))
    back.load()
    expected = image.quantize(palette=shared_palette(game_name), dither=Image.Dither.NONE)
    assert back.mode == "P" and back.size == image.size
    assert back.tobytes() == expected.tobytes()
    assert back.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def test_png_chunks_are_well_formed() -> None:
    image = Image.new("P", (7, 3), 2)
    image.putpalette([i % 256 for i in range(768)])
    image.putpixel((6, 2), 9)
    data = palette_png(image)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, kinds = 8, []
    while at < len(data):
        (length,) = struct.unpack("!I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack("!I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        if kind == b"IDAT":
            rows = zlib.decompress(body)
            assert len(rows) == 3 * 8
            assert all(rows[r * 8] == 0 for r in range(3))  # each row unfiltered
            assert rows[-1] == 9
        at += 12 + length
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


def test_png_refuses_an_image_without_palette() -> None:
    with pytest.raises(ValueError, match="palette"):
        palette_png(Image.new("RGB", (2, 2)))


def test_random_palette_images_round_trip() -> None:
    rng = random.Random(1)
    for _ in range(20):
        w, h = rng.randrange(1, 40), rng.randrange(1, 40)
        image = Image.new("P", (w, h))
        image.putpalette([rng.randrange(256) for _ in range(768)])
        image.putdata([rng.randrange(256) for _ in range(w * h)])
        back = Image.open(io.BytesIO(palette_png(image)))
        back.load()
        assert back.tobytes() == image.tobytes()
        assert back.getpalette() == image.getpalette()
