"""PNG encoding against one shared 256-colour palette: small files, fast enough per turn.

Encoding a full-colour board spends most of its time filtering RGB rows; mapping it first to a
fixed palette (learned once from a sheet of every tile, figure and interface colour) makes the
PNG about three times smaller and the whole encode several times faster, with no visible loss
on this flat, procedural art.
"""

from __future__ import annotations

import io
import threading

from PIL import Image, ImageDraw

from engine.core.tiles import kinds_by_name
from renderer import emblems, families, legible
from renderer import palette as pal
from renderer.figures import ROLE_SCALE, figure_icon
from renderer.tileart import tile_image

#: zlib level 1: the fastest; a palette image compresses well even so.
PNG_LEVEL = 1
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
    out = io.BytesIO()
    legible.sent(image)
    if not full_colour:
        palette = shared_palette(family)
        if image.mode != "RGB":
            image = image.convert("RGB")
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()
