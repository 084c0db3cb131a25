"""PNG encoding against one shared 256-colour palette: small files, fast enough per turn.

Encoding a full-colour board spends most of its time filtering RGB rows; mapping it first to a
fixed palette (learned once from a sheet of every tile, figure and interface colour) makes the
PNG about three times smaller and the whole encode several times faster, with no visible loss
on this flat, procedural art.

The palette image's PNG is written here (:func:`palette_png`): its rows unfiltered (a palette
image gains little from PNG's filters) and deflated by ISA-L (``isal``), which at its level 1
compresses these pictures 4 times faster than zlib's fastest level and a little smaller (on the
turn pictures of ``python -m benchmarks.encoding``: 2.3 ms of CPU and 112 KB a picture, against
9.8 ms and 119 KB for zlib, 11.3 ms and 120 KB for Pillow's own PNG writer, and 50 ms and
121 KB for lossless WebP). The file is an ordinary 8-bit palette PNG that every client reads.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib

from isal import isal_zlib
from PIL import Image, ImageDraw

from engine.core.tiles import kinds_by_name
from renderer import emblems, families, legible
from renderer import palette as pal
from renderer.figures import ROLE_SCALE, figure_icon
from renderer.tileart import tile_image

#: zlib level 1: the fastest; a palette image compresses well even so (full-colour pictures).
PNG_LEVEL = 1
#: ISA-L's deflate level for palette pictures (0 to 3): 1 is as fast as 0 and 13 % smaller.
ISAL_LEVEL = 1
SIGNATURE = b"\x89PNG\r\n\x1a\n"
SAMPLE_SETS = ("base", "abbey_mayor", "inns_cathedrals", "traders_builders", "river")

#: One palette per game family: a game drawn in other colours (Hunters & Gatherers' woods and
#: water) gets its own, so its images keep their colours; the base games' palette is unchanged.
_PALETTES: dict[str, Image.Image] = {}
_LOCK = threading.Lock()


def _sample_sheet() -> Image.Image:
    """Every colour the images use: tiles, figures of every seat, interface colours, greys."""
    kinds = list(kinds_by_name(*SAMPLE_SETS).values())
    size = 96
    tiles = -(-len(kinds) // 10)
    sheet = Image.new("RGB", (size * 10, size * (tiles + 10)), pal.BACKGROUND)
    for i, kind in enumerate(kinds):
        sheet.paste(tile_image(kind.oriented(0), size), ((i % 10) * size, (i // 10) * size))
    y = size * tiles
    for player in range(len(pal.PLAYER_COLOURS)):
        for j, role in enumerate(ROLE_SCALE):
            icon = figure_icon(player, role, size)
            for k, ground in enumerate((pal.FIELD, pal.CITY, pal.EMPTY, pal.BACKGROUND)):
                x = (j * 4 + k) * 40 % (size * 10)
                row = y + player * 80 + ((j * 4 + k) * 40 // (size * 10)) * 40
                sheet.paste(ground, (x, row, x + 40, row + 40))
                sheet.paste(icon.resize((36, 36)), (x + 2, row + 2), icon.resize((36, 36)))
    draw = ImageDraw.Draw(sheet)
    named = [v for v in vars(pal).values() if isinstance(v, tuple) and len(v) == 3]
    named += list(pal.CATEGORY_COLOURS.values())
    y = size * (tiles + 5)
    # The goods tokens at the sizes of the players' strips (their rims blend into the ground).
    for i, kind_name in enumerate(emblems.GOODS):
        for j, (side, ground) in enumerate(((36, pal.BACKGROUND), (20, pal.WHITE))):
            icon = emblems.goods_icon(kind_name, side)
            sheet.paste(ground, (i * 80 + j * 40, y + 240, i * 80 + j * 40 + 40, y + 280))
            sheet.paste(icon, (i * 80 + j * 40 + 2, y + 242), icon)
    for i, colour in enumerate(named):
        x = (i % 24) * 40
        row = y + (i // 24) * 40
        draw.rectangle((x, row, x + 39, row + 39), fill=colour)
        # Text edges blend into the background: keep those in-between shades too.
        for ground in (pal.BACKGROUND, pal.WHITE, pal.LABEL_FILL):
            draw.text((x + 2, row + 20), "Ag", font=pal.font(14), fill=ground, anchor="lm")
    for i in range(64):
        shade = i * 4
        bottom = size * (tiles + 9)
        draw.rectangle((i * 15, bottom, i * 15 + 14, bottom + size), fill=(shade, shade, shade))
    return sheet


def _family_sheet(family: str) -> Image.Image:
    own = families.pictures(family).palette_sheet
    return own() if own is not None else _sample_sheet()


def shared_palette(family: str = "carcassonne") -> Image.Image:
    """The palette image (mode P) of a game family, built once per process."""
    key = family if family == "hunters" else "carcassonne"
    found = _PALETTES.get(key)
    if found is None:
        with _LOCK:
            found = _PALETTES.get(key)
            if found is None:
                # The seats' default styles, whatever picture asks first: the palette of a
                # process never depends on which game it drew first.
                with pal.seat_styles(()):
                    sheet = _family_sheet(key)
                found = _PALETTES[key] = sheet.quantize(
                    256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
                )
    return found


def encode_png(
    image: Image.Image, *, full_colour: bool = False, family: str = "carcassonne"
) -> bytes:
    """PNG bytes of ``image``; mapped to its game family's palette unless ``full_colour``."""
    legible.sent(image)
    if not full_colour:
        palette = shared_palette(family)
        if image.mode != "RGB":
            image = image.convert("RGB")
        return palette_png(image.quantize(palette=palette, dither=Image.Dither.NONE))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data))


def unfiltered_rows(image: Image.Image) -> bytes:
    """The rows of a palette image as PNG's image data holds them before deflating: each behind
    its filter byte, 0 (none)."""
    # One column more on the left, index 0 everywhere: each row's filter byte comes out of the
    # same copy as its pixels.
    framed = Image.new("P", (image.width + 1, image.height), 0)
    framed.paste(image, (1, 0))
    return framed.tobytes()


def palette_png(image: Image.Image) -> bytes:
    """The PNG of a palette image (mode P, no transparency): 8 bits a pixel, each row unfiltered
    (filter byte 0), deflated by ISA-L."""
    if image.mode != "P":
        raise ValueError(f"a palette image is needed, not {image.mode}")
    width, height = image.size
    colours = bytes(image.getpalette("RGB") or ())
    header = struct.pack("!IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours[: 3 * 256]),
            _chunk(b"IDAT", isal_zlib.compress(unfiltered_rows(image), ISAL_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )
