"""Every picture read on a phone: sizes as drawn, scaled to 400 px wide (issue 51).

Pictures are drawn as the bot sends them (:mod:`benchmarks.legibility`, which
``python -m benchmarks.legibility`` prints for every family) while :mod:`renderer.legible`
records every text, figure and token drawn. One test holds each picture kind to the targets
(capitals of text 11 px, figures and tokens 10 px, at 400 px wide), but for the whole board of
``/carcassonne board``, the overview a tap away from every phone picture (a board 30 squares
wide cannot show 10 px figures in 400 px), which may not get any smaller than it is. The other
tests read the pixels of the pictures sent, so that a size the recording declares is a size
drawn: each text and figure is found by its colour inside its box, as tall as declared.
"""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from benchmarks.legibility import Measured, families, help_picture, measure, pictures
from renderer.legible import MIN_FIGURE, MIN_TEXT, PHONE, Mark, recording

#: The whole board, drawn whole whatever its size (the overview one tap away from the phone
#: pictures, which show the part around the action): (text, figure) at 400 px it may not go
#: under (what it measured, a little rounded down).
FLOORS = {
    "board (whole)": (5.5, 4.5),
}
#: Families and languages of the fixed set (the benchmark draws every family in all three).
CHOSEN = {
    "tactical hand": "en",
    "Big Box 4p": "de",
    "Hunters & Gatherers 3p": "fr",
    "The Castle": "fr",
}


@cache
def measured() -> list[tuple[str, Measured]]:
    found: list[tuple[str, Measured]] = []
    for family in families(3):
        lang = CHOSEN.get(family.name)
        if lang is not None:
            found.extend((family.name, measure(p)) for p in pictures(family, lang))
    found.append(("help", measure(help_picture("de"))))
    return found


def test_every_picture_kind_meets_the_phone_targets() -> None:
    kinds = {m.kind for _, m in measured()}
    assert {"turn", "step", "end", "tiles left", "stats", "help", "hand"} - kinds == set()
    assert {"board (abbey)", "board (whole)", "wagon"} <= kinds
    misses = []
    for family, m in measured():
        text, figure = FLOORS.get(m.kind, (MIN_TEXT, MIN_FIGURE))
        if m.text is not None and m.text.size < text:
            misses.append(f"{m.kind} of {family}: text {m.text.what!r} {m.text.size:.1f} px")
        if m.figure is not None and m.figure.size < figure:
            misses.append(f"{m.kind} of {family}: {m.figure.what} {m.figure.size:.1f} px")
        assert m.bytes < 10 * 1024 * 1024
    assert not misses, misses


def test_every_picture_records_what_it_draws() -> None:
    """No picture is measured from nothing: each has its texts, and the board pictures their
    figures; every mark lies inside the picture sent."""
    for family, m in measured():
        if m.kind != "step":  # a step with one spot may have no word
            assert m.text is not None, f"{m.kind} of {family} recorded no text"
        if m.kind in ("turn", "end") and family != "The Castle":
            assert m.figure is not None, f"{m.kind} of {family} recorded no figure"
        w, h = m.image.size
        for mark in m.marks:
            x0, y0, x1, y1 = mark.box
            assert x1 > 0 and y1 > 0 and x0 < w and y0 < h


def _close(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int) -> bool:
    return max(abs(a - b) for a, b in zip(pixel[:3], colour, strict=True)) <= tolerance


def inked(image: Image.Image, mark: Mark, tolerance: int) -> tuple[int, int] | None:
    """How tall and how wide the pixels of ``mark``'s colour are inside its box grown by 1 px
    (None: none there)."""
    x0, y0, x1, y1 = mark.box
    box = (
        max(0, int(x0) - 1),
        max(0, int(y0) - 1),
        min(image.width, int(x1) + 2),
        min(image.height, int(y1) + 2),
    )
    region = image.crop(box).convert("RGB")
    pixels = region.load()
    assert pixels is not None
    found = [
        (x, y)
        for y in range(region.height)
        for x in range(region.width)
        if _close(pixels[x, y], mark.colour, tolerance)  # type: ignore[arg-type]
    ]
    if not found:
        return None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return (max(ys) - min(ys) + 1, max(xs) - min(xs) + 1)


def sent_picture(m: Measured) -> Image.Image:
    """The picture as sent: the PNG's pixels, not the image it was encoded from."""
    png = io.BytesIO()
    m.image.save(png, format="PNG")
    return Image.open(io.BytesIO(png.getvalue()))


MEEPLES = ("follower", "farmer", "large_follower", "large_farmer", "mayor")
#: Capitals as tall as a digit, with nothing under the line.
TALL = "ABCDEFHIKLMNTXZ"
#: Five pictures whose pixels are read: (family, kind).
READ = (
    ("tactical hand", "turn"),
    ("Big Box 4p", "end"),
    ("tactical hand", "stats"),
    ("Big Box 4p", "tiles left"),
    ("The Castle", "turn"),
    ("Hunters & Gatherers 3p", "end"),
)


@pytest.mark.parametrize(("family", "kind"), READ)
def test_declared_sizes_are_the_sizes_drawn(family: str, kind: str) -> None:
    """The smallest text and the smallest figure of a picture, and a few more marks, found by
    their colour in the picture's pixels: a text's capital height is the height of its inked
    capitals or digits, a figure's the height of its body in the player's colour."""
    m = next(m for f, m in measured() if f == family and m.kind == kind)
    image = sent_picture(m)
    width = image.width
    checked = 0
    texts = sorted((t for t in m.marks if t.kind == "text"), key=lambda t: t.size)
    # Texts of digits and capitals (and signs no taller), whose ink is one capital tall.
    capitals = [
        t
        for t in texts
        if any(c.isdigit() or c in TALL for c in t.what)
        and all(c.isdigit() or c in TALL or c in " ·%\N{MULTIPLICATION SIGN}" for c in t.what)
    ]
    for mark in capitals[:3] + capitals[-1:]:
        ink = inked(image, mark, tolerance=10)
        assert ink is not None, f"{mark.what!r} is not drawn where it is declared"
        drawn = ink[0]
        assert abs(drawn - mark.size) <= 2, f"{mark.what!r}: {drawn} px drawn, {mark.size} declared"
        checked += 1
    # The meeples (filled with their player's colour, unlike a wagon's wheels or a gatherer's
    # basket): the colour's extent is the body's, inside its dark outline.
    figures = sorted(
        (f for f in m.marks if f.kind == "figure" and f.what in MEEPLES), key=lambda f: f.size
    )
    for mark in figures[:2] + figures[-1:]:
        ink = inked(image, mark, tolerance=30)
        assert ink is not None, f"the {mark.what} is not drawn where it is declared"
        drawn = max(ink)
        assert 0.8 * mark.size <= drawn <= mark.size + 1, (mark.what, drawn, mark.size)
        checked += 1
    assert checked >= 1
    smallest = min(t.size for t in texts)
    assert smallest * PHONE / width == pytest.approx(m.text.size if m.text else 0)


def test_a_text_drawn_smaller_is_measured_smaller() -> None:
    """The recording follows scaling: a picture halved leaves marks half as tall, where its
    pixels are."""
    from PIL import ImageDraw

    from renderer import palette as pal
    from renderer.encode import encode_png

    with recording() as rec:
        image = Image.new("RGB", (400, 200), pal.BACKGROUND)
        ImageDraw.Draw(image).text((20, 40), "H 42", font=pal.font(60), fill=pal.INK)
        half = image.resize((200, 100))
        page = Image.new("RGB", (300, 150), pal.BACKGROUND)
        page.paste(half, (50, 25))
        encode_png(page)
    _, marks = rec.sent[-1]
    (mark,) = marks
    full = pal.font(60).getbbox("H")
    assert mark.size == pytest.approx((full[3] - full[1]) / 2)
    ink = inked(page, mark, tolerance=10)
    assert ink is not None and abs(ink[0] - mark.size) <= 2
