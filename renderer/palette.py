"""Colours, player markings and fonts shared by every image.

Player colours come from the Okabe-Ito palette (chosen to stay apart for the common forms of
colour blindness), and each seat also gets its own mark drawn on its figures and beside its name
(dot, bar, cross, ring, diamond, slash), so no one has to tell players apart by hue alone.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import ImageFont

RGB = tuple[int, int, int]

FIELD: RGB = (121, 172, 76)
FIELD_DARK: RGB = (96, 146, 58)
FIELD_LIGHT: RGB = (146, 192, 96)
ROAD: RGB = (240, 232, 212)
ROAD_EDGE: RGB = (112, 96, 78)
CITY: RGB = (226, 202, 156)
CITY_SHADE: RGB = (206, 178, 130)
ROOF: RGB = (190, 86, 58)
ROOF_DARK: RGB = (150, 62, 42)
WALL: RGB = (150, 142, 130)
WALL_DARK: RGB = (64, 58, 52)
SHIELD: RGB = (36, 78, 168)
SHIELD_MARK: RGB = (250, 214, 72)
WHITE: RGB = (255, 255, 255)
STONE: RGB = (214, 208, 196)
WATER: RGB = (70, 140, 210)
#: The River (a brighter blue than a well, with sandy banks) and the Big Box's marks.
RIVER: RGB = (58, 128, 206)
RIVER_LIGHT: RGB = (150, 200, 240)
RIVER_BANK: RGB = (196, 180, 120)
INN_WALL: RGB = (246, 236, 206)
INN_ROOF: RGB = (92, 58, 40)
CATHEDRAL: RGB = (176, 184, 200)
CATHEDRAL_DARK: RGB = (124, 134, 156)
CATHEDRAL_DOME: RGB = (96, 150, 140)
TOKEN: RGB = (252, 246, 228)
GOODS_WINE: RGB = (120, 40, 130)
GOODS_LEAF: RGB = (70, 150, 50)
GOODS_GRAIN: RGB = (236, 186, 40)
GOODS_GRAIN_DARK: RGB = (170, 120, 20)
GOODS_CLOTH: RGB = (30, 130, 150)
GOODS_CLOTH_LIGHT: RGB = (130, 200, 210)
EMPTY: RGB = (236, 232, 222)
EMPTY_LINE: RGB = (214, 208, 196)
BACKGROUND: RGB = (246, 243, 236)
INK: RGB = (40, 36, 32)
#: A dead square (no tile left can fill it): a darker empty square with a cross.
DEAD_SQUARE: RGB = (206, 200, 190)
DEAD_MARK: RGB = (88, 80, 72)
MUTED: RGB = (120, 112, 100)
HIGHLIGHT: RGB = (255, 200, 0)
LABEL_FILL: RGB = (30, 30, 30)

#: Seat colours (Okabe-Ito: vermillion, blue, yellow, bluish green, reddish purple, black).
PLAYER_COLOURS: tuple[RGB, ...] = (
    (213, 94, 0),
    (0, 114, 178),
    (240, 228, 66),
    (0, 158, 115),
    (204, 121, 167),
    (40, 40, 40),
)
#: Seat marks, drawn on every figure and beside the player's name.
PLAYER_MARKS: tuple[str, ...] = ("dot", "bar", "cross", "ring", "diamond", "slash")
#: Category colours of the end-of-game chart (same hues for everyone, one per category).
CATEGORY_COLOURS: dict[str, RGB] = {
    "road": (200, 186, 150),
    "city": (190, 86, 58),
    "cloister": (120, 90, 160),
    "field": (96, 156, 60),
    "barn": (150, 110, 60),
    "goods": (222, 170, 40),
}
CATEGORY_FALLBACK: RGB = (150, 150, 150)


#: Seat -> style (an index into the colours and marks above) while drawing; empty: seat i
#: draws in style i. Set with :func:`seat_styles` when players chose their colours.
_STYLES: ContextVar[tuple[int, ...]] = ContextVar("seat_styles", default=())


@contextmanager
def seat_styles(styles: Sequence[int]) -> Iterator[None]:
    """Draw seat ``i`` in style ``styles[i]`` (colour and mark together) inside the block."""
    token = _STYLES.set(tuple(styles))
    try:
        yield
    finally:
        _STYLES.reset(token)


def style_of(player: int) -> int:
    """The style seat ``player`` is drawn in (see :func:`seat_styles`)."""
    styles = _STYLES.get()
    return styles[player] if player < len(styles) else player


def player_colour(player: int) -> RGB:
    return PLAYER_COLOURS[style_of(player) % len(PLAYER_COLOURS)]


def player_mark(player: int) -> str:
    return PLAYER_MARKS[style_of(player) % len(PLAYER_MARKS)]


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


_FONT_LOCK = threading.Lock()


class _TextCacheFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the masks of the texts it rendered lately.

    The same short texts come back in every picture (column titles, names, scores, square
    letters) and FreeType renders each in about half a millisecond, a quarter of a turn
    picture's drawing. Pillow only reads a mask (``draw_bitmap``), so one is reused as is: the
    pictures are the same bytes, drawn faster. Measuring a text (its length, its inked box: every
    badge and every score measures its text) is kept the same way.
    """

    def getmask2(self, text: Any, mode: str = "", *args: Any, **kwargs: Any) -> Any:
        try:
            key = (text, mode, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # a list argument (features): not cached
            return super().getmask2(text, mode, *args, **kwargs)
        return _mask(self, key)

    def getlength(self, text: Any, *args: Any, **kwargs: Any) -> float:
        try:
            return _length(self, text, args, tuple(sorted(kwargs.items())))
        except TypeError:
            return super().getlength(text, *args, **kwargs)

    def getbbox(self, text: Any, *args: Any, **kwargs: Any) -> tuple[float, float, float, float]:
        try:
            return _bbox(self, text, args, tuple(sorted(kwargs.items())))
        except TypeError:
            return super().getbbox(text, *args, **kwargs)


@lru_cache(maxsize=4096)
def _mask(font: _TextCacheFont, key: tuple[Any, str, tuple[Any, ...], tuple[Any, ...]]) -> Any:
    text, mode, args, kwargs = key
    return ImageFont.FreeTypeFont.getmask2(font, text, mode, *args, **dict(kwargs))


@lru_cache(maxsize=4096)
def _length(
    font: _TextCacheFont, text: Any, args: tuple[Any, ...], kwargs: tuple[Any, ...]
) -> float:
    return ImageFont.FreeTypeFont.getlength(font, text, *args, **dict(kwargs))


@lru_cache(maxsize=4096)
def _bbox(
    font: _TextCacheFont, text: Any, args: tuple[Any, ...], kwargs: tuple[Any, ...]
) -> tuple[float, float, float, float]:
    return ImageFont.FreeTypeFont.getbbox(font, text, *args, **dict(kwargs))


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's built-in font has no accented letters (é shows as a box), so French needs a real
    # font. Lato (SIL Open Font License) ships as a pinned package, so every machine draws the
    # same letters and the reference images hold everywhere.
    try:
        path = resources.files("font_lato").joinpath("files", "Lato-Bold.ttf")
        with resources.as_file(path) as ttf:
            return _TextCacheFont(str(ttf), size)
    except (ModuleNotFoundError, OSError):
        return ImageFont.load_default(size=size)


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Lato Bold at ``size`` pixels (accents for French); Pillow's built-in font if missing."""
    with _FONT_LOCK:
        return _font(max(6, size))
