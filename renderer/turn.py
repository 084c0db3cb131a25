"""Turn images: the tile to place shown in each rotation that fits somewhere on the board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from renderer import palette as pal
from renderer.encode import encode_png
from renderer.options import RenderOptions
from renderer.tileart import tile_image

if TYPE_CHECKING:
    from engine import Game


def legal_rotations(game: Game) -> dict[str, list[int]]:
    """Per tile kind the player may place now: the rotations that fit at least one square."""
    found: dict[str, set[int]] = {}
    for kind in game.placeable_kinds():
        found[kind.name] = set()
    for placement in game.legal_placements():
        name = placement.tile or game.decision.tile
        if name is not None:
            found.setdefault(name, set()).add(placement.rotation)
    return {name: sorted(rotations) for name, rotations in found.items()}


def rotations_picture(
    game: Game,
    options: RenderOptions | None = None,
    labels: Mapping[int, str] | None = None,
) -> Image.Image:
    """One row per placeable tile kind; each fitting rotation drawn large with its label.

    ``labels`` maps a rotation (0, 90, 180, 270) to the label the bot's buttons show; without it
    the rotation in degrees is printed.
    """
    options = options or RenderOptions()
    size = max(96, round(options.tile_size * 1.35))
    pad = size // 6
    text_h = round(size * 0.32)
    rows = legal_rotations(game) or {game.decision.tile or "?": []}
    width = pad + 4 * (size + pad)
    height = len(rows) * (text_h * 2 + size + pad) + pad
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = pal.font(round(text_h * 0.6))
    y = pad // 2
    for name, rotations in rows.items():
        title = options.text("rotations" if rotations else "no_rotation", tile=name)
        draw.text((pad, y + text_h // 2), title, font=font, fill=pal.INK, anchor="lm")
        y += text_h
        kind = game.kinds.get(name)
        for i, rotation in enumerate(rotations):
            x = pad + i * (size + pad)
            if kind is not None:
                image.paste(tile_image(kind.oriented(rotation), size), (x, y))
            draw.rectangle((x - 1, y - 1, x + size, y + size), outline=pal.INK, width=2)
            label = (labels or {}).get(rotation, f"{rotation}°")
            draw.text(
                (x + size / 2, y + size + text_h / 2), label, font=font, fill=pal.INK, anchor="mm"
            )
        y += size + text_h + pad
    return image


def render_rotations(
    game: Game,
    options: RenderOptions | None = None,
    *,
    labels: Mapping[int, str] | None = None,
) -> bytes:
    """PNG of :func:`rotations_picture`."""
    return encode_png(rotations_picture(game, options, labels), family=game.setup.game)
