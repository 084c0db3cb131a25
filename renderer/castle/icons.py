"""The Castle's small pictures: subjects by role, the palace, score markers and wall tiles.

The four roles of a subject share one body in the player's colour with the seat's mark, and each
has its own silhouette, so they read apart without colour: the knight wears a pointed helmet, the
burgher a tall hat, the messenger carries a flag and the merchant a sack. A white halo keeps every
figure visible on grey stone, red roofs and green grass alike.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from renderer import legible
from renderer import palette as pal
from renderer.figures import _MEEPLE, mark

SUPERSAMPLE = 3
FIGURE_SCALE = 0.46
ROLES = ("messenger", "knight", "burgher", "merchant")
WHITE = (255, 255, 255, 255)
INK = (30, 28, 26, 255)
WALL_BACK = (96, 70, 48)
WALL_FACE = (238, 226, 196)

_CACHE: dict[tuple[str, int, int], Image.Image] = {}
_LOCK = threading.Lock()


def _cached(key: tuple[str, int, int], make: object) -> Image.Image:
    # Cached per colour, not per seat: the same seat is drawn in other colours in other games.
    what, player, size = key
    if what != "wall":
        key = (what, pal.style_of(player), size)
    kind = "figure" if what in (*ROLES, "palace") else "token"
    if legible.active() is not None:  # drawn again, so its numbers are measured too
        assert callable(make)
        return legible.tag(make(), kind, what)
    found = _CACHE.get(key)
    if found is None:
        assert callable(make)
        image = make()
        with _LOCK:
            found = _CACHE.setdefault(key, image)
    return legible.tag(found, kind, what)


def subject_icon(player: int, role: str, tile: int) -> Image.Image:
    """A subject (``messenger``, ``knight``, ``burgher`` or ``merchant``) sized for ``tile``."""
    return _cached((role, player, tile), lambda: _draw_subject(player, role, tile))


def palace_icon(player: int, tile: int) -> Image.Image:
    """A player's palace: a small castle in their colour with their mark."""
    return _cached(("palace", player, tile), lambda: _draw_palace(player, tile))


def marker_icon(player: int, size: int) -> Image.Image:
    """A score marker: a disc in the player's colour with their mark, ringed in white."""
    return _cached(("marker", player, size), lambda: _draw_marker(player, size))


def wall_tile_icon(number: int | None, size: int) -> Image.Image:
    """A wall tile face up (its number) or face down (``None``: a stone back with a tower)."""
    face = -1 if number is None else number
    return _cached(("wall", face, size), lambda: _draw_wall_tile(number, size))


def _draw_subject(player: int, role: str, tile: int) -> Image.Image:
    side = max(14, round(tile * FIGURE_SCALE))
    big = side * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = pal.player_colour(player)
    halo = max(2, round(big * 0.06))
    line = max(2, halo // 2)
    half = big / 2 - halo * 1.4
    scale = 0.8
    cx, cy = big / 2, big / 2 + half * 0.14

    def at(x: float, y: float) -> tuple[float, float]:
        return (cx + x * half * scale, cy + y * half * scale)

    body = [at(x, y) for x, y in _MEEPLE]
    hx, hy = at(0.0, -0.64)
    hr = 0.3 * half * scale
    extras: list[tuple[list[tuple[float, float]], tuple[int, int, int] | tuple[int, ...]]] = []
    if role == "knight":  # a pointed helmet and a kite shield on the right arm
        extras.append(
            (
                [
                    (hx - hr * 1.15, hy + hr * 0.1),
                    (hx, hy - hr * 2.3),
                    (hx + hr * 1.15, hy + hr * 0.1),
                ],
                (190, 194, 204),
            )
        )
        sx, sy = at(0.95, 0.1)
        w = half * 0.34
        extras.append(
            (
                [
                    (sx - w, sy - w),
                    (sx + w, sy - w),
                    (sx + w, sy + w * 0.5),
                    (sx, sy + w * 1.6),
                    (sx - w, sy + w * 0.5),
                ],
                (190, 194, 204),
            )
        )
    elif role == "burgher":  # a tall hat with a wide brim
        extras.append(
            (
                [
                    (hx - hr * 2.0, hy - hr * 0.5),
                    (hx + hr * 2.0, hy - hr * 0.5),
                    (hx + hr * 2.0, hy - hr * 1.0),
                    (hx + hr * 0.9, hy - hr * 1.0),
                    (hx + hr * 0.9, hy - hr * 2.6),
                    (hx - hr * 0.9, hy - hr * 2.6),
                    (hx - hr * 0.9, hy - hr * 1.0),
                    (hx - hr * 2.0, hy - hr * 1.0),
                ],
                (40, 36, 34),
            )
        )
    elif role == "messenger":  # a flag on a pole held up on the right
        px = at(1.12, 0.0)[0]
        top = at(0.0, -1.55)[1]
        extras.append(
            (
                [(px - line, top), (px + line, top), (px + line, cy + half * 0.3), (px - line, cy)],
                (80, 60, 40),
            )
        )
        extras.append(
            (
                [
                    (px + line, top),
                    (px + half * 0.7, top + half * 0.2),
                    (px + line, top + half * 0.4),
                ],
                (250, 250, 250),
            ),
        )
    elif role == "merchant":  # a sack on the left
        sx, sy = at(-0.95, 0.55)
        r = half * 0.36
        extras.append(
            (
                [
                    (sx - r, sy),
                    (sx - r * 0.5, sy - r),
                    (sx + r * 0.5, sy - r),
                    (sx + r, sy),
                    (sx + r * 0.7, sy + r),
                    (sx - r * 0.7, sy + r),
                ],
                (176, 132, 80),
            )
        )
    # Halo first, then the figure, so every part is ringed in white.
    for poly, _ in [(body, None), *extras]:
        draw.polygon(poly, fill=WHITE, outline=WHITE, width=halo * 2)
    draw.ellipse((hx - hr - halo, hy - hr - halo, hx + hr + halo, hy + hr + halo), fill=WHITE)
    draw.polygon(body, fill=colour, outline=INK, width=line)
    draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=colour, outline=INK, width=line)
    for poly, fill in extras:
        draw.polygon(poly, fill=tuple(fill), outline=INK, width=line)
    mark(draw, pal.player_mark(player), at(0.0, 0.22), half * 0.24, pal.ink_on(colour))
    return image.resize((side, side), Image.Resampling.LANCZOS)


def _draw_palace(player: int, tile: int) -> Image.Image:
    side = max(16, round(tile * 0.46))
    big = side * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = pal.player_colour(player)
    halo = max(2, round(big * 0.05))
    line = max(2, halo // 2)
    u = big / 10
    parts = [
        [(2 * u, 4 * u), (8 * u, 4 * u), (8 * u, 9 * u), (2 * u, 9 * u)],  # hall
        [(1 * u, 2.2 * u), (3 * u, 2.2 * u), (3 * u, 9 * u), (1 * u, 9 * u)],  # left tower
        [(7 * u, 2.2 * u), (9 * u, 2.2 * u), (9 * u, 9 * u), (7 * u, 9 * u)],  # right tower
        [(1 * u, 2.2 * u), (2 * u, 0.6 * u), (3 * u, 2.2 * u)],  # left spire
        [(7 * u, 2.2 * u), (8 * u, 0.6 * u), (9 * u, 2.2 * u)],  # right spire
        [(4 * u, 4 * u), (5 * u, 2.4 * u), (6 * u, 4 * u)],  # gable
    ]
    for poly in parts:
        draw.polygon(poly, fill=WHITE, outline=WHITE, width=halo * 2)
    for i, poly in enumerate(parts):
        fill = colour if i < 3 else (250, 214, 72)
        draw.polygon(poly, fill=fill, outline=INK, width=line)
    draw.rectangle((4.3 * u, 6.4 * u, 5.7 * u, 9 * u), fill=(50, 40, 32), outline=INK)
    mark(draw, pal.player_mark(player), (5 * u, 5.2 * u), u * 0.8, pal.ink_on(colour))
    return image.resize((side, side), Image.Resampling.LANCZOS)


def _draw_marker(player: int, size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = pal.player_colour(player)
    ring = max(3, big // 9)
    draw.ellipse((0, 0, big - 1, big - 1), fill=WHITE)
    draw.ellipse((ring, ring, big - 1 - ring, big - 1 - ring), fill=colour, outline=INK, width=3)
    mark(draw, pal.player_mark(player), (big / 2, big / 2), big * 0.2, pal.ink_on(colour))
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _draw_wall_tile(number: int | None, size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(3, big // 14)
    fill = WALL_BACK if number is None else WALL_FACE
    draw.rounded_rectangle((0, 0, big - 1, big - 1), big // 8, fill=INK)
    draw.rounded_rectangle((edge, edge, big - 1 - edge, big - 1 - edge), big // 10, fill=fill)
    if number is None:
        # The back: a little wall with battlements, like the wall it lies on.
        u = big / 10
        light = (150, 116, 84)
        draw.rectangle((2.6 * u, 4 * u, 7.4 * u, 7.6 * u), fill=light)
        for i in range(3):
            x = 2.6 * u + i * 1.9 * u
            draw.rectangle((x, 2.8 * u, x + u, 4 * u), fill=light)
        draw.rectangle((4.4 * u, 5.6 * u, 5.6 * u, 7.6 * u), fill=WALL_BACK)
    else:
        font = pal.font(round(big * 0.62))
        draw.text((big / 2, big / 2 + big * 0.02), str(number), font=font, fill=INK, anchor="mm")
    return image.resize((size, size), Image.Resampling.LANCZOS)
