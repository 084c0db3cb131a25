"""Small pictures drawn on Hunters & Gatherers tiles: animals, gold, mushrooms, the volcano...

Each icon is drawn in a unit box (x and y from -0.5 to 0.5, y south) scaled to ``size`` pixels,
on its own transparent layer, then given a pale halo so it reads on grass and on trees alike.
Silhouettes are told apart by shape first (antlers, tusks and trunk, horns, stripes and tail),
colour second.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageFilter

RGB = tuple[int, int, int]
Pt = tuple[float, float]

INK: RGB = (38, 30, 24)
HALO = (255, 252, 232, 235)
DEER: RGB = (176, 112, 58)
DEER_LIGHT: RGB = (236, 214, 178)
MAMMOTH: RGB = (112, 72, 46)
MAMMOTH_DARK: RGB = (78, 48, 30)
IVORY: RGB = (246, 238, 214)
AUROCHS: RGB = (58, 42, 36)
TIGER: RGB = (236, 142, 38)
TIGER_LIGHT: RGB = (252, 228, 196)
GOLD: RGB = (246, 196, 46)
GOLD_LIGHT: RGB = (255, 244, 170)
GOLD_DARK: RGB = (156, 104, 12)
EARTH: RGB = (140, 104, 64)
CAP: RGB = (210, 44, 38)
STONE: RGB = (170, 166, 156)
STONE_DARK: RGB = (96, 92, 86)
LAVA: RGB = (250, 96, 24)
FLAME: RGB = (255, 196, 40)
ASH: RGB = (120, 110, 104)
SMOKE: RGB = (206, 200, 194)
OCHRE: RGB = (180, 60, 40)
CLEARING: RGB = (176, 206, 118)


class _Pen:
    """Maps unit-box coordinates to pixels of one icon layer."""

    def __init__(self, draw: ImageDraw.ImageDraw, size: float, pad: float) -> None:
        self.draw = draw
        self.size = size
        self.pad = pad
        self.w = max(1, round(size * 0.035))

    def p(self, x: float, y: float) -> Pt:
        return (self.pad + (x + 0.5) * self.size, self.pad + (y + 0.5) * self.size)

    def pts(self, points: Sequence[Pt]) -> list[Pt]:
        return [self.p(x, y) for x, y in points]

    def ellipse(
        self, x0: float, y0: float, x1: float, y1: float, fill: RGB, ink: bool = True
    ) -> None:
        a, b = self.p(x0, y0), self.p(x1, y1)
        self.draw.ellipse((a, b), fill=fill, outline=INK if ink else None, width=self.w)

    def poly(self, points: Sequence[Pt], fill: RGB, ink: bool = True) -> None:
        self.draw.polygon(self.pts(points), fill=fill, outline=INK if ink else None, width=self.w)

    def line(self, points: Sequence[Pt], fill: RGB, width: float) -> None:
        self.draw.line(
            self.pts(points), fill=fill, width=max(1, round(width * self.size)), joint="curve"
        )


def _legs(
    pen: _Pen, xs: Sequence[float], top: float, bottom: float, colour: RGB, width: float
) -> None:
    for x in xs:
        pen.line([(x, top), (x + 0.01, bottom)], INK, width + 0.03)
        pen.line([(x, top), (x + 0.01, bottom - 0.015)], colour, width)


def deer(pen: _Pen) -> None:
    _legs(pen, (-0.2, -0.1, 0.1, 0.2), 0.08, 0.4, DEER, 0.05)
    pen.ellipse(-0.3, -0.08, 0.28, 0.16, DEER)
    pen.poly([(0.14, 0.0), (0.24, -0.24), (0.34, -0.2), (0.26, 0.04)], DEER)
    pen.ellipse(0.22, -0.32, 0.42, -0.18, DEER)
    pen.ellipse(0.36, -0.28, 0.44, -0.22, INK, ink=False)
    pen.ellipse(-0.34, -0.08, -0.24, 0.02, DEER_LIGHT)
    # Antlers: the deer's mark.
    for side in (-1, 1):
        base = (0.3 + side * 0.03, -0.3)
        tip = (0.3 + side * 0.12, -0.5)
        pen.line([base, tip], INK, 0.05)
        pen.line([(0.3 + side * 0.07, -0.4), (0.3 + side * 0.17, -0.42)], INK, 0.04)


def mammoth(pen: _Pen) -> None:
    _legs(pen, (-0.24, -0.1, 0.08, 0.2), 0.14, 0.42, MAMMOTH_DARK, 0.1)
    pen.poly(
        [(-0.4, 0.2), (-0.42, -0.05), (-0.28, -0.26), (0.02, -0.32), (0.22, -0.3), (0.3, 0.2)],
        MAMMOTH,
    )
    pen.ellipse(0.1, -0.36, 0.42, -0.02, MAMMOTH)
    # Trunk curling down, and the white tusk in front of it.
    pen.line([(0.38, -0.12), (0.46, 0.08), (0.42, 0.3), (0.34, 0.34)], INK, 0.11)
    pen.line([(0.38, -0.12), (0.46, 0.08), (0.42, 0.3), (0.35, 0.33)], MAMMOTH, 0.07)
    pen.line([(0.3, -0.02), (0.4, 0.16), (0.5, 0.14), (0.54, 0.02)], INK, 0.08)
    pen.line([(0.3, -0.02), (0.4, 0.15), (0.49, 0.13), (0.53, 0.03)], IVORY, 0.05)
    pen.ellipse(0.12, -0.26, 0.24, -0.08, MAMMOTH_DARK)
    pen.ellipse(0.3, -0.24, 0.36, -0.18, INK, ink=False)


def aurochs(pen: _Pen) -> None:
    _legs(pen, (-0.26, -0.14, 0.1, 0.2), 0.1, 0.4, AUROCHS, 0.07)
    pen.ellipse(-0.36, -0.14, 0.28, 0.18, AUROCHS)
    pen.poly([(-0.2, -0.14), (0.1, -0.2), (0.24, -0.12), (-0.1, -0.08)], (120, 98, 80))
    pen.poly([(0.16, -0.1), (0.46, -0.06), (0.46, 0.14), (0.24, 0.12)], AUROCHS)
    pen.ellipse(0.36, 0.02, 0.5, 0.16, (150, 128, 110))
    # Lyre-shaped pale horns: the aurochs' mark.
    pen.line([(0.3, -0.08), (0.24, -0.26), (0.3, -0.38)], INK, 0.08)
    pen.line([(0.3, -0.08), (0.24, -0.26), (0.3, -0.37)], IVORY, 0.05)
    pen.line([(0.4, -0.08), (0.46, -0.26), (0.42, -0.38)], INK, 0.08)
    pen.line([(0.4, -0.08), (0.46, -0.26), (0.42, -0.37)], IVORY, 0.05)
    pen.line([(-0.36, -0.04), (-0.46, 0.1)], INK, 0.04)


def tiger(pen: _Pen) -> None:
    _legs(pen, (-0.24, -0.12, 0.1, 0.22), 0.08, 0.36, TIGER, 0.07)
    pen.line([(-0.36, 0.0), (-0.48, -0.14), (-0.44, -0.3)], INK, 0.07)
    pen.line([(-0.36, 0.0), (-0.48, -0.14), (-0.44, -0.29)], TIGER, 0.04)
    pen.ellipse(-0.4, -0.1, 0.3, 0.14, TIGER)
    for x in (-0.26, -0.14, -0.02, 0.1):
        pen.line([(x, -0.09), (x + 0.04, 0.03)], INK, 0.035)
    pen.ellipse(0.18, -0.22, 0.46, 0.06, TIGER)
    pen.poly([(0.2, -0.16), (0.22, -0.28), (0.3, -0.2)], TIGER)
    pen.poly([(0.36, -0.2), (0.42, -0.28), (0.44, -0.16)], TIGER)
    pen.ellipse(0.3, -0.12, 0.36, -0.06, INK, ink=False)
    pen.ellipse(0.34, -0.06, 0.48, 0.06, TIGER_LIGHT, ink=False)
    # Sabre teeth.
    pen.poly([(0.36, 0.03), (0.385, 0.18), (0.405, 0.03)], (255, 255, 255))
    pen.poly([(0.42, 0.03), (0.445, 0.16), (0.465, 0.03)], (255, 255, 255))


def nugget(pen: _Pen) -> None:
    pen.ellipse(-0.42, -0.16, 0.42, 0.3, EARTH, ink=False)
    pen.poly(
        [
            (-0.3, 0.1),
            (-0.24, -0.16),
            (-0.04, -0.3),
            (0.2, -0.22),
            (0.32, 0.0),
            (0.2, 0.2),
            (-0.1, 0.22),
        ],
        GOLD,
    )
    pen.poly([(-0.16, -0.1), (-0.02, -0.2), (0.08, -0.12), (-0.06, -0.04)], GOLD_LIGHT, ink=False)
    pen.poly([(0.08, 0.06), (0.22, 0.0), (0.18, 0.14)], GOLD_DARK, ink=False)
    for x, y, r in ((0.34, -0.32, 0.09), (-0.36, -0.26, 0.06)):
        pen.line([(x - r, y), (x + r, y)], (255, 255, 255), 0.03)
        pen.line([(x, y - r), (x, y + r)], (255, 255, 255), 0.03)


def mushrooms(pen: _Pen) -> None:
    pen.ellipse(-0.48, -0.3, 0.48, 0.4, CLEARING, ink=False)
    for x, y, s in ((-0.2, 0.08, 1.0), (0.16, 0.16, 0.8), (0.02, -0.12, 0.7)):
        pen.poly(
            [
                (x - 0.05 * s, y),
                (x + 0.05 * s, y),
                (x + 0.06 * s, y + 0.2 * s),
                (x - 0.06 * s, y + 0.2 * s),
            ],
            IVORY,
        )
        pen.poly(
            [
                (x - 0.18 * s, y + 0.02),
                (x - 0.12 * s, y - 0.12 * s),
                (x, y - 0.17 * s),
                (x + 0.12 * s, y - 0.12 * s),
                (x + 0.18 * s, y + 0.02),
            ],
            CAP,
        )
        pen.ellipse(
            x - 0.08 * s, y - 0.09 * s, x - 0.03 * s, y - 0.04 * s, (255, 255, 255), ink=False
        )
        pen.ellipse(
            x + 0.04 * s, y - 0.07 * s, x + 0.09 * s, y - 0.02 * s, (255, 255, 255), ink=False
        )


def volcano(pen: _Pen) -> None:
    for x, y, r in ((0.02, -0.36, 0.1), (0.12, -0.44, 0.08), (-0.08, -0.46, 0.07)):
        pen.ellipse(x - r, y - r, x + r, y + r, SMOKE)
    pen.poly([(-0.48, 0.4), (-0.12, -0.22), (0.12, -0.22), (0.48, 0.4)], ASH)
    pen.poly([(-0.12, -0.22), (0.12, -0.22), (0.06, -0.12), (-0.06, -0.12)], LAVA)
    pen.line([(0.02, -0.16), (0.08, 0.04), (0.02, 0.2)], LAVA, 0.06)
    pen.line([(-0.04, -0.16), (-0.12, 0.0), (-0.1, 0.12)], LAVA, 0.05)
    pen.poly([(-0.48, 0.4), (-0.3, 0.1), (-0.22, 0.4)], (96, 88, 84), ink=False)


def fire(pen: _Pen) -> None:
    pen.line([(-0.34, 0.3), (0.34, 0.12)], INK, 0.14)
    pen.line([(-0.34, 0.3), (0.34, 0.12)], (130, 84, 44), 0.1)
    pen.line([(-0.34, 0.12), (0.34, 0.3)], INK, 0.14)
    pen.line([(-0.34, 0.12), (0.34, 0.3)], (150, 98, 52), 0.1)
    pen.poly(
        [
            (-0.24, 0.16),
            (-0.16, -0.2),
            (-0.04, -0.06),
            (0.02, -0.42),
            (0.12, -0.1),
            (0.2, -0.24),
            (0.26, 0.16),
        ],
        LAVA,
    )
    pen.poly(
        [(-0.12, 0.16), (-0.06, -0.04), (0.02, 0.02), (0.06, -0.2), (0.14, 0.16)], FLAME, ink=False
    )


def shrine(pen: _Pen) -> None:
    """A dolmen: two standing stones and a capstone, with an ochre spiral."""
    pen.ellipse(-0.46, 0.26, 0.46, 0.44, (120, 150, 80), ink=False)
    pen.poly([(-0.34, 0.36), (-0.36, -0.14), (-0.2, -0.16), (-0.16, 0.36)], STONE)
    pen.poly([(0.16, 0.36), (0.2, -0.16), (0.36, -0.14), (0.34, 0.36)], STONE)
    pen.poly([(-0.46, -0.14), (-0.4, -0.34), (0.38, -0.38), (0.46, -0.14)], STONE)
    points = []
    for i in range(18):
        a = i * 0.6
        r = 0.012 + 0.005 * i
        points.append((r * math.cos(a), -0.26 + r * math.sin(a) * 0.6))
    pen.line(points, OCHRE, 0.035)
    pen.poly([(-0.16, 0.36), (-0.14, -0.14), (0.16, -0.14), (0.16, 0.36)], (70, 64, 58), ink=False)


def star(pen: _Pen) -> None:
    """The bonus tiles' mark."""
    points = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = 0.46 if i % 2 == 0 else 0.2
        points.append((r * math.cos(a), r * math.sin(a) + 0.03))
    pen.poly(points, GOLD)
    pen.poly([(x * 0.45, y * 0.45 - 0.02) for x, y in points], GOLD_LIGHT, ink=False)


ICONS: dict[str, Callable[[_Pen], None]] = {
    "deer": deer,
    "mammoth": mammoth,
    "aurochs": aurochs,
    "tiger": tiger,
    "nugget": nugget,
    "mushrooms": mushrooms,
    "volcano": volcano,
    "fire": fire,
    "shrine": shrine,
    "star": star,
}
#: Icon size relative to the tile side.
SIZES = {
    "deer": 0.27,
    "mammoth": 0.31,
    "aurochs": 0.28,
    "tiger": 0.28,
    "nugget": 0.22,
    "mushrooms": 0.26,
    "volcano": 0.34,
    "fire": 0.26,
    "shrine": 0.28,
    "star": 0.17,
}


def icon(name: str, size: int) -> Image.Image:
    """The RGBA icon ``name`` at ``size`` pixels, with its halo (not cached: the tile is)."""
    pad = max(2, round(size * 0.08))
    side = size + 2 * pad
    layer = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    ICONS[name](_Pen(ImageDraw.Draw(layer), size, pad))
    alpha = layer.getchannel("A").point(lambda v: 255 if v else 0)
    grow = max(3, (pad // 2) * 2 + 1)
    halo_alpha = alpha.filter(ImageFilter.MaxFilter(grow)).point(lambda v: HALO[3] if v else 0)
    halo = Image.new("RGBA", (side, side), (*HALO[:3], 0))
    halo.putalpha(halo_alpha)
    return Image.alpha_composite(halo, layer)
