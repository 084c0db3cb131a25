"""Figure icons in player colours: each role has its own silhouette, each seat its own mark.

Roles read at a glance: a standing meeple (thief, knight, monk), the same meeple lying down
(farmer), a taller meeple with a crown (mayor), a cart (wagon), a barn. A white halo keeps every
figure visible on any tile, and the seat's mark (see :mod:`renderer.palette`) is drawn on it.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from engine.core.board import Figure
from engine.core.tiles import Oriented
from renderer import families, legible
from renderer import palette as pal

SUPERSAMPLE = 3
#: Size of a figure relative to the tile side.
FIGURE_SCALE = 0.36
ROLE_SCALE = {
    "follower": 1.0,
    "farmer": 1.0,
    "mayor": 1.2,
    "wagon": 1.05,
    "barn": 0.9,
    # The Big Box's figures, drawn by renderer.bigbox_figures.
    "large_follower": 1.35,
    "large_farmer": 1.35,
    "builder": 1.1,
    "pig": 1.15,
}

_MEEPLE_WIDE: tuple[tuple[float, float], ...] = (
    (-0.3, -0.42),
    (0.3, -0.42),
    (0.92, -0.2),
    (0.95, 0.1),
    (0.42, 0.1),
    (0.68, 0.95),
    (0.16, 0.95),
    (0.0, 0.58),
    (-0.16, 0.95),
    (-0.68, 0.95),
    (-0.42, 0.1),
    (-0.95, 0.1),
    (-0.92, -0.2),
)

#: Narrower than tall, so a lying farmer is told from a standing figure by its outline alone.
_MEEPLE = tuple((x * 0.78, y) for x, y in _MEEPLE_WIDE)

_CACHE: dict[tuple[int, str, int], Image.Image] = {}
_LOCK = threading.Lock()


def role_of(figure: Figure, oriented: Oriented) -> str:
    """How a figure is drawn: follower, farmer (a follower on a field), mayor, wagon or barn;
    the large follower (standing or lying), builder and pig;
    in Hunters & Gatherers hunter, gatherer, fisher or hut."""
    family_role = families.FIGURE_ROLES.get(figure.kind)
    if family_role is not None:  # Hunters & Gatherers' men and huts
        return family_role(figure, oriented) or "man"
    if figure.kind in ("follower", "large_follower"):
        local = figure.local
        if 0 <= local < len(oriented.features) and oriented.features[local].type == "field":
            return "farmer" if figure.kind == "follower" else "large_farmer"
        return figure.kind
    return figure.kind if figure.kind in ROLE_SCALE else "follower"


def figure_icon(player: int, role: str, tile_size: int) -> Image.Image:
    """The RGBA icon of a figure, sized for tiles of ``tile_size`` pixels (cached)."""
    key = (pal.style_of(player), role, tile_size)  # cached per colour, not per seat
    found = _CACHE.get(key)
    if found is None:
        icon = draw_figure(player, role, tile_size)
        with _LOCK:
            found = _CACHE.setdefault(key, icon)
    return legible.tag(found, "figure", role)


def draw_figure(player: int, role: str, tile_size: int) -> Image.Image:
    family_art = families.FIGURE_ART.get(role)
    if family_art is not None:
        return family_art(player, role, tile_size)
    side = max(12, round(tile_size * FIGURE_SCALE * ROLE_SCALE.get(role, 1.0)))
    big = side * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = pal.player_colour(player)
    halo = max(2, round(big * 0.07))
    half = big / 2 - halo * 1.2

    def shape(
        points: tuple[tuple[float, float], ...], turn: bool = False
    ) -> list[tuple[float, float]]:
        out = []
        for x, y in points:
            if turn:
                x, y = -y, x
            out.append((big / 2 + x * half, big / 2 + y * half))
        return out

    outline = (30, 28, 26, 255)
    if role in ("follower", "farmer", "mayor"):
        turn = role == "farmer"
        scale = 0.86 if role == "mayor" else 1.0
        body = tuple((x * scale, y * scale + (0.1 if role == "mayor" else 0.0)) for x, y in _MEEPLE)
        head_at = (0.0, -0.64 * scale + (0.1 if role == "mayor" else 0.0))
        hx, hy = (-head_at[1], head_at[0]) if turn else head_at
        hr = 0.3 * half * scale
        cx, cy = big / 2 + hx * half, big / 2 + hy * half
        poly = shape(body, turn)
        # Halo, then outline, then fill: legible on city, road and grass alike.
        draw.polygon(poly, fill=(255, 255, 255, 255), outline=(255, 255, 255, 255), width=halo * 2)
        draw.ellipse(
            (cx - hr - halo, cy - hr - halo, cx + hr + halo, cy + hr + halo),
            fill=(255, 255, 255, 255),
        )
        draw.polygon(poly, fill=colour, outline=outline, width=max(2, halo // 2))
        draw.ellipse(
            (cx - hr, cy - hr, cx + hr, cy + hr),
            fill=colour,
            outline=outline,
            width=max(2, halo // 2),
        )
        if role == "mayor":
            crown = [
                (cx - hr, cy - hr * 0.6),
                (cx - hr, cy - hr * 1.9),
                (cx - hr * 0.5, cy - hr * 1.2),
                (cx, cy - hr * 2.1),
                (cx + hr * 0.5, cy - hr * 1.2),
                (cx + hr, cy - hr * 1.9),
                (cx + hr, cy - hr * 0.6),
            ]
            draw.polygon(crown, fill=pal.SHIELD_MARK, outline=outline, width=max(2, halo // 2))
        mx, my = (
            (big / 2 - 0.22 * half, big / 2) if turn else (big / 2, big / 2 + 0.22 * half * scale)
        )
        mark(draw, pal.player_mark(player), (mx, my), half * 0.28, pal.ink_on(colour))
    elif role == "wagon":
        box = (big / 2 - half, big / 2 - half * 0.55, big / 2 + half, big / 2 + half * 0.35)
        grow = (box[0] - halo, box[1] - halo, box[2] + halo, box[3] + halo * 3)
        draw.rounded_rectangle(grow, halo, fill=(255, 255, 255, 255))
        draw.rounded_rectangle(
            box, halo // 2, fill=colour, outline=outline, width=max(2, halo // 2)
        )
        wr = half * 0.3
        for wx in (big / 2 - half * 0.55, big / 2 + half * 0.55):
            wy = big / 2 + half * 0.45
            draw.ellipse(
                (wx - wr, wy - wr, wx + wr, wy + wr),
                fill=(60, 50, 40),
                outline=(255, 255, 255),
                width=max(2, halo // 2),
            )
        mark(
            draw,
            pal.player_mark(player),
            (big / 2, big / 2 - half * 0.12),
            half * 0.25,
            pal.ink_on(colour),
        )
    else:  # barn
        roof = [
            (big / 2 - half, big / 2 - half * 0.1),
            (big / 2, big / 2 - half * 0.95),
            (big / 2 + half, big / 2 - half * 0.1),
        ]
        walls = (
            big / 2 - half * 0.8,
            big / 2 - half * 0.2,
            big / 2 + half * 0.8,
            big / 2 + half * 0.9,
        )
        draw.polygon(roof, fill=(255, 255, 255, 255), outline=(255, 255, 255, 255), width=halo * 2)
        draw.rectangle(
            (walls[0] - halo, walls[1], walls[2] + halo, walls[3] + halo), fill=(255, 255, 255, 255)
        )
        draw.rectangle(walls, fill=colour, outline=outline, width=max(2, halo // 2))
        draw.polygon(roof, fill=(120, 40, 30), outline=outline, width=max(2, halo // 2))
        mark(
            draw,
            pal.player_mark(player),
            (big / 2, big / 2 + half * 0.35),
            half * 0.28,
            pal.ink_on(colour),
        )
    return image.resize((side, side), Image.Resampling.LANCZOS)


def mark(
    draw: ImageDraw.ImageDraw,
    name: str,
    centre: tuple[float, float],
    r: float,
    ink: tuple[int, int, int],
) -> None:
    """Draw a seat mark (dot, bar, cross, ring, diamond, slash) of radius ``r``."""
    x, y = centre
    w = max(2, round(r * 0.45))
    if name == "dot":
        draw.ellipse((x - r * 0.75, y - r * 0.75, x + r * 0.75, y + r * 0.75), fill=ink)
    elif name == "bar":
        draw.rectangle((x - r, y - w / 2, x + r, y + w / 2), fill=ink)
    elif name == "cross":
        draw.rectangle((x - r, y - w / 2, x + r, y + w / 2), fill=ink)
        draw.rectangle((x - w / 2, y - r, x + w / 2, y + r), fill=ink)
    elif name == "ring":
        draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=w)
    elif name == "diamond":
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=ink)
    else:
        draw.line((x - r, y + r, x + r, y - r), fill=ink, width=w + 1)
