"""The Big Box's figures: the large follower, the builder and the pig, told apart by outline.

At phone width a figure is a dozen pixels, so each has a silhouette of its own rather than a
detail: the large follower is a follower a third bigger wearing a second ring (its colour, then
dark) round the white halo; the builder is a follower holding a big hammer up to one side; the
pig stands on four legs, wider than tall, with a snout, ears and a curly tail. Every one carries
its seat's colour and mark like the common figures (:mod:`renderer.figures`).
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFilter

from renderer import families, figures
from renderer import palette as pal

WHITE = (255, 255, 255, 255)
OUTLINE = (30, 28, 26, 255)


def large(player: int, role: str, tile_size: int) -> Image.Image:
    """A follower (standing, or lying on a field) a third bigger, ringed twice."""
    plain = "farmer" if role == "large_farmer" else "follower"
    side = max(14, round(tile_size * figures.FIGURE_SCALE * figures.ROLE_SCALE[role]))
    ring = max(1, round(side / 32))
    inner = side - 4 * ring
    # The common follower drawn at the size that makes it ``inner`` pixels wide.
    base = figures.draw_figure(player, plain, max(8, round(inner / figures.FIGURE_SCALE)))
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    at = ((side - base.width) // 2, (side - base.height) // 2)
    image.paste(base, at, base)
    alpha = image.getchannel("A").point(lambda a: 255 if a > 60 else 0)
    band = alpha.filter(ImageFilter.MaxFilter(2 * ring + 1))
    rim = band.filter(ImageFilter.MaxFilter(2 * ring + 1))
    out = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    out.paste(Image.new("RGBA", (side, side), OUTLINE), (0, 0), rim)
    out.paste(Image.new("RGBA", (side, side), (*pal.player_colour(player), 255)), (0, 0), band)
    out.alpha_composite(image)
    return out


def _canvas(tile_size: int, role: str) -> tuple[Image.Image, ImageDraw.ImageDraw, int, float, int]:
    side = max(12, round(tile_size * figures.FIGURE_SCALE * figures.ROLE_SCALE[role]))
    big = side * figures.SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    halo = max(2, round(big * 0.07))
    return image, ImageDraw.Draw(image), big, big / 2 - halo * 1.2, halo


def builder(player: int, role: str, tile_size: int) -> Image.Image:
    """A slim follower raising a big hammer over its right shoulder."""
    image, draw, big, half, halo = _canvas(tile_size, role)
    colour = pal.player_colour(player)
    line = max(2, halo // 2)
    c = big / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return (c + x * half, c + y * half)

    body = [at(x * 0.82 - 0.22, y * 0.9 + 0.1) for x, y in figures._MEEPLE]
    head = (-0.22, -0.5)
    hr = 0.27 * half
    hx, hy = at(*head)
    handle = (at(0.35, 0.0), at(0.72, -0.72))
    hammer = [at(0.38, -0.98), at(1.0, -0.62), at(0.86, -0.38), at(0.24, -0.74)]
    # Halo first (hammer included), then dark outlines, then fills.
    draw.line(handle, fill=WHITE, width=round(half * 0.2) + halo * 2)
    draw.polygon(hammer, fill=WHITE, outline=WHITE, width=halo * 2)
    draw.polygon(body, fill=WHITE, outline=WHITE, width=halo * 2)
    draw.ellipse((hx - hr - halo, hy - hr - halo, hx + hr + halo, hy + hr + halo), fill=WHITE)
    draw.line(handle, fill=OUTLINE, width=round(half * 0.2))
    draw.line(handle, fill=(150, 100, 50), width=max(1, round(half * 0.2) - 2 * line))
    draw.polygon(hammer, fill=(90, 90, 100), outline=OUTLINE, width=line)
    draw.polygon(body, fill=colour, outline=OUTLINE, width=line)
    draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=colour, outline=OUTLINE, width=line)
    figures.mark(draw, pal.player_mark(player), at(-0.22, 0.3), half * 0.25, pal.ink_on(colour))
    side = big // figures.SUPERSAMPLE
    return image.resize((side, side), Image.Resampling.LANCZOS)


def pig(player: int, role: str, tile_size: int) -> Image.Image:
    """A pig side on: a round body on four legs, snout and ear to the right, a curly tail."""
    image, draw, big, half, halo = _canvas(tile_size, role)
    colour = pal.player_colour(player)
    line = max(2, halo // 2)
    c = big / 2

    def box(x0: float, y0: float, x1: float, y1: float, grow: float = 0) -> tuple[float, ...]:
        return (
            c + x0 * half - grow,
            c + y0 * half - grow,
            c + x1 * half + grow,
            c + y1 * half + grow,
        )

    legs = [box(x, 0.25, x + 0.2, 0.78) for x in (-0.72, -0.4, 0.2, 0.5)]
    body = box(-0.92, -0.45, 0.62, 0.42)
    head = box(0.3, -0.6, 0.98, 0.12)
    snout = box(0.78, -0.32, 1.0, -0.02)
    ear = [
        (c + 0.42 * half, c - 0.5 * half),
        (c + 0.55 * half, c - 0.9 * half),
        (c + 0.72 * half, c - 0.52 * half),
    ]
    tail = box(-1.0, -0.62, -0.7, -0.32)
    for leg in legs:
        draw.rectangle(box_grow(leg, halo), fill=WHITE)
    draw.ellipse(box_grow(body, halo), fill=WHITE)
    draw.ellipse(box_grow(head, halo), fill=WHITE)
    draw.polygon(ear, fill=WHITE, outline=WHITE, width=halo * 2)
    draw.arc(box_grow(tail, 0), 90, 400, fill=WHITE, width=line * 2 + halo * 2)
    draw.arc(tail, 90, 400, fill=OUTLINE, width=line * 2)
    for leg in legs:
        draw.rectangle(leg, fill=colour, outline=OUTLINE, width=line)
    draw.ellipse(body, fill=colour, outline=OUTLINE, width=line)
    draw.polygon(ear, fill=colour, outline=OUTLINE, width=line)
    draw.ellipse(head, fill=colour, outline=OUTLINE, width=line)
    draw.ellipse(snout, fill=(240, 170, 180), outline=OUTLINE, width=line)
    ex, ey = c + 0.62 * half, c - 0.3 * half
    draw.ellipse((ex - line, ey - line, ex + line, ey + line), fill=OUTLINE)
    figures.mark(
        draw, pal.player_mark(player), (c - 0.2 * half, c), half * 0.25, pal.ink_on(colour)
    )
    side = big // figures.SUPERSAMPLE
    return image.resize((side, side), Image.Resampling.LANCZOS)


def box_grow(b: tuple[float, ...], by: float) -> tuple[float, float, float, float]:
    return (b[0] - by, b[1] - by, b[2] + by, b[3] + by)


families.FIGURE_ART.update(
    {"large_follower": large, "large_farmer": large, "builder": builder, "pig": pig}
)
