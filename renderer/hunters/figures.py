"""Hunters & Gatherers figures: the man in each role, and the hut, in player colours.

A man is the usual meeple, smaller, holding what his role needs, drawn in dark ink with a white
halo so it reads without colour: a hunter's spear, a gatherer's basket, a fisher's rod with a
fish on the line. A hut is a hide tent with crossed poles. The seat's mark is on every figure.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.core.board import Figure
from engine.core.tiles import Oriented
from engine.hunters.game import HuntersGame
from renderer import families
from renderer import palette as pal
from renderer.figures import _MEEPLE, FIGURE_SCALE, SUPERSAMPLE, mark

#: Scale of each role's icon (relative to a base follower).
SCALES = {"hunter": 1.1, "gatherer": 1.1, "fisher": 1.1, "hut": 1.0, "man": 1.0}

WHITE = (255, 255, 255, 255)
INK = (30, 28, 26, 255)
WOOD = (150, 100, 52, 255)
STONE = (200, 200, 196, 255)
WICKER = (196, 146, 70, 255)
FISH = (248, 150, 48, 255)


def role_of(figure: Figure, oriented: Oriented) -> str | None:
    """hunter, gatherer, fisher or hut for an H&G figure; None for other games' figures."""
    if figure.kind == "hut":
        return "hut"
    if figure.kind != "man":
        return None
    local = figure.local
    if 0 <= local < len(oriented.features):
        return HuntersGame.roles.get(oriented.features[local].type, "man")
    return "man"


def draw_figure(player: int, role: str, tile_size: int) -> Image.Image:
    side = max(14, round(tile_size * FIGURE_SCALE * SCALES.get(role, 1.0)))
    big = side * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = pal.player_colour(player)
    halo = max(2, round(big * 0.06))
    if role == "hut":
        _hut(draw, big, halo, colour, player)
    else:
        _man(draw, big, halo, colour, player, role)
    return image.resize((side, side), Image.Resampling.LANCZOS)


def _line(
    draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], width: int, halo: int
) -> None:
    """A dark stroke with a white halo (tools read on any ground)."""
    draw.line(points, fill=WHITE, width=width + 2 * halo, joint="curve")
    draw.line(points, fill=INK, width=width, joint="curve")


def _man(
    draw: ImageDraw.ImageDraw,
    big: int,
    halo: int,
    colour: tuple[int, int, int],
    player: int,
    role: str,
) -> None:
    # The man stands left of centre; his tool takes the right side.
    shift = -0.14 if role != "man" else 0.0
    half = big / 2 * (0.72 if role != "man" else 0.84)
    cx, cy = big / 2 + shift * big, big / 2 + big * 0.06

    def at(x: float, y: float) -> tuple[float, float]:
        return (cx + x * half, cy + y * half)

    w = max(2, halo // 2)
    if role == "hunter":
        # A spear held upright, stone point at the top right.
        _line(draw, [at(0.95, 1.0), at(1.25, -1.15)], max(3, round(big * 0.045)), halo)
        tip = [at(1.29, -1.62), at(1.12, -1.1), at(1.4, -1.08)]
        draw.polygon(tip, fill=STONE, outline=INK, width=w)
    elif role == "fisher":
        # A rod leaning out, its line hanging with a fish.
        _line(draw, [at(0.7, 0.2), at(1.2, -0.8), at(1.55, -1.2)], max(3, round(big * 0.04)), halo)
        draw.line([at(1.55, -1.2), at(1.6, 0.3)], fill=INK, width=max(2, round(big * 0.015)))
        fx, fy = at(1.6, 0.55)
        r = half * 0.22
        draw.ellipse(
            (fx - r * 0.6 - halo, fy - r - halo, fx + r * 0.6 + halo, fy + r + halo), fill=WHITE
        )
        draw.ellipse((fx - r * 0.6, fy - r, fx + r * 0.6, fy + r), fill=FISH, outline=INK, width=w)
        draw.polygon(
            [(fx, fy + r * 0.8), (fx - r * 0.6, fy + r * 1.5), (fx + r * 0.6, fy + r * 1.5)],
            fill=FISH,
            outline=INK,
            width=w,
        )
    elif role == "gatherer":
        # A wicker basket on the arm, full of berries.
        x0, y0 = at(0.62, 0.05)
        x1, y1 = at(1.55, 0.85)
        draw.rounded_rectangle((x0 - halo, y0 - halo, x1 + halo, y1 + halo), halo, fill=WHITE)
        draw.arc(
            (
                x0 + (x1 - x0) * 0.15,
                y0 - (y1 - y0) * 0.7,
                x1 - (x1 - x0) * 0.15,
                y0 + (y1 - y0) * 0.5,
            ),
            180,
            360,
            fill=INK,
            width=max(2, round(big * 0.03)),
        )
        for bx in (0.3, 0.55, 0.8):
            r = (x1 - x0) * 0.13
            px, py = x0 + (x1 - x0) * bx, y0 + r * 0.2
            draw.ellipse(
                (px - r, py - r, px + r, py + r),
                fill=(170, 30, 60, 255),
                outline=INK,
                width=max(1, w // 2),
            )
        draw.polygon(
            [(x0, y0), (x1, y0), (x1 - (x1 - x0) * 0.12, y1), (x0 + (x1 - x0) * 0.12, y1)],
            fill=WICKER,
            outline=INK,
            width=w,
        )
        for k in (0.35, 0.65):
            y = y0 + (y1 - y0) * k
            draw.line(
                [(x0 + (x1 - x0) * 0.06, y), (x1 - (x1 - x0) * 0.06, y)],
                fill=INK,
                width=max(1, w // 2),
            )
    body = [at(x, y) for x, y in _MEEPLE]
    hr = 0.3 * half
    hx, hy = at(0.0, -0.64)
    draw.polygon(body, fill=WHITE, outline=WHITE, width=halo * 2)
    draw.ellipse((hx - hr - halo, hy - hr - halo, hx + hr + halo, hy + hr + halo), fill=WHITE)
    draw.polygon(body, fill=colour, outline=INK, width=w)
    draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=colour, outline=INK, width=w)
    if role == "hunter":
        # His hand on the spear, over the body.
        _line(draw, [at(0.55, 0.0), at(1.08, -0.05)], max(3, round(big * 0.05)), 0)
    mark(draw, pal.player_mark(player), at(0.0, 0.22), half * 0.28, pal.ink_on(colour))


def _hut(
    draw: ImageDraw.ImageDraw, big: int, halo: int, colour: tuple[int, int, int], player: int
) -> None:
    c = big / 2
    half = big / 2 - halo * 1.4
    w = max(2, halo // 2)
    top = c - half * 0.95
    base = c + half * 0.8
    left, right = c - half * 0.92, c + half * 0.92
    # Poles crossing above the tent: the hut's outline, even in grey.
    for dx in (-1, 1):
        _line(
            draw,
            [(c - dx * half * 0.2, top + half * 0.35), (c + dx * half * 0.32, top - half * 0.08)],
            max(3, round(big * 0.04)),
            halo,
        )
    tent = [(c, top + half * 0.2), (right, base), (left, base)]
    draw.polygon(tent, fill=WHITE, outline=WHITE, width=halo * 2)
    draw.polygon(tent, fill=colour, outline=INK, width=w)
    # Hide seams and a dark doorway.
    for k in (-0.45, 0.45):
        draw.line(
            [(c, top + half * 0.2), (c + k * half * 0.92, base)], fill=INK, width=max(1, w // 2)
        )
    door = [(c, base - half * 0.72), (c + half * 0.26, base), (c - half * 0.26, base)]
    draw.polygon(door, fill=(50, 36, 26, 255), outline=INK, width=max(1, w // 2))
    mark(
        draw,
        pal.player_mark(player),
        (c - half * 0.5, base - half * 0.28),
        half * 0.2,
        pal.ink_on(colour),
    )


families.FIGURE_ROLES.update({"man": role_of, "hut": role_of})
families.FIGURE_ART.update({role: draw_figure for role in SCALES})
