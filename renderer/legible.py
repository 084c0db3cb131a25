"""Sizes as drawn: every text, figure and token a picture shows, in the picture's own pixels.

A phone shows a Discord picture about 400 pixels wide: what matters is how tall each text and
figure ends up once the picture actually sent is shrunk to that width. While :func:`recording`
is active, every drawing leaves a :class:`Mark` on the image it draws on: each text drawn (its
inked box, its font's capital height), each figure and goods token pasted (its body's box, without
its white halo), each
inn, cathedral and goods token of the tile art. The marks follow the image they are on as the
picture is put together: pasted at an offset, cropped, scaled, copied, converted, until
:func:`renderer.encode.encode_png` encodes the picture sent (:attr:`Recording.sent`).

Nothing is recorded outside :func:`recording` (the bot never records): the drawings only tag
their figures and tokens (:func:`tag`), which costs a test of one global. The recording follows
Pillow's own calls (``ImageDraw.text``, ``Image.paste``, ``resize``...) for as long as it lasts,
so no text or figure escapes it whichever module draws it; it is meant for one thread at a time
(``python -m benchmarks.legibility`` and the tests).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageChops, ImageDraw

Box = tuple[float, float, float, float]

#: A phone shows a picture this many pixels wide.
PHONE = 400
#: The smallest text (a capital's height) and the smallest figure or token, in pixels once the
#: picture is shown :data:`PHONE` pixels wide.
MIN_TEXT = 11.0
MIN_FIGURE = 10.0


def least_font(width: int) -> int:
    """The smallest font size a picture ``width`` pixels wide may use: its capitals at least
    :data:`MIN_TEXT` pixels tall once the picture is shown :data:`PHONE` pixels wide (38 px
    in the phone pictures' 960, whose capitals are 28 px tall)."""
    return max(14, round(38 * width / 960))


@dataclass(frozen=True, slots=True)
class Mark:
    """One thing drawn: ``kind`` ``text`` (``what`` is the text), ``figure`` or ``token``
    (``what`` is its role or name); ``box`` its inked box in the image's pixels; ``size`` its
    size as read: a text's capital height (a digit's, whatever the letters), a figure's or
    token's inked height or length, the larger (a farmer lies down); ``colour`` its main
    colour (RGB), to find it among the pixels."""

    kind: str
    what: str
    box: Box
    size: float
    colour: tuple[int, int, int]

    def moved(self, dx: float, dy: float) -> Mark:
        x0, y0, x1, y1 = self.box
        return replace(self, box=(x0 + dx, y0 + dy, x1 + dx, y1 + dy))

    def scaled(self, sx: float, sy: float) -> Mark:
        x0, y0, x1, y1 = self.box
        return replace(self, box=(x0 * sx, y0 * sy, x1 * sx, y1 * sy), size=self.size * sy)

    def at_phone(self, width: int) -> float:
        """Its height once a picture ``width`` pixels wide is shown :data:`PHONE` wide."""
        return self.size * PHONE / width


@dataclass(slots=True)
class Recording:
    """The marks of every image drawn while recording, and the picture sent."""

    #: id(image) -> (the image, kept alive so that its id stays its own; its marks).
    images: dict[int, tuple[Image.Image, list[Mark]]] = field(default_factory=dict)
    #: id(icon) -> (the icon, its kind and name): what pasting it draws.
    tags: dict[int, tuple[Image.Image, str, str]] = field(default_factory=dict)
    #: id(icon) -> (the icon, the mark pasting it leaves), found once per icon.
    bodies: dict[int, tuple[Image.Image, Mark | None]] = field(default_factory=dict)
    #: Each picture encoded, in order: (its image, its marks inside it).
    sent: list[tuple[Image.Image, list[Mark]]] = field(default_factory=list)

    def marks(self, image: Image.Image) -> list[Mark]:
        found = self.images.get(id(image))
        return list(found[1]) if found is not None and found[0] is image else []

    def add(self, image: Image.Image, marks: list[Mark]) -> None:
        if not marks:
            return
        found = self.images.get(id(image))
        if found is None or found[0] is not image:
            found = self.images[id(image)] = (image, [])
        found[1].extend(marks)

    def set(self, image: Image.Image, marks: list[Mark]) -> None:
        self.images.pop(id(image), None)
        self.add(image, marks)

    def tag_of(self, image: Image.Image) -> tuple[str, str] | None:
        found = self.tags.get(id(image))
        return (found[1], found[2]) if found is not None and found[0] is image else None


_ACTIVE: Recording | None = None
_LOCK = threading.Lock()


def active() -> Recording | None:
    return _ACTIVE


def tag(icon: Image.Image, kind: str, what: str) -> Image.Image:
    """Mark ``icon`` as a ``figure`` or ``token`` named ``what``: pasting it leaves a mark.
    Returns ``icon`` (a no-op unless recording)."""
    rec = _ACTIVE
    if rec is not None:
        rec.tags[id(icon)] = (icon, kind, what)
    return icon


def note(image: Image.Image, kind: str, what: str, box: Box, colour: tuple[int, int, int]) -> None:
    """A mark for something drawn with lines and shapes rather than pasted (a tile's inn)."""
    rec = _ACTIVE
    if rec is not None:
        rec.add(image, [Mark(kind, what, box, box[3] - box[1], colour)])


def on_tile(image: Image.Image, marks: list[tuple[str, str, Box, tuple[int, int, int]]]) -> None:
    """The marks of a tile's art (``kind``, ``what``, box, colour), kept with its cached image."""
    rec = _ACTIVE
    if rec is not None and not rec.marks(image):
        rec.set(image, [Mark(k, w, b, b[3] - b[1], c) for k, w, b, c in marks])


def sent(image: Image.Image) -> None:
    """``image`` is the picture encoded and sent: keep its marks that lie inside it."""
    rec = _ACTIVE
    if rec is None:
        return
    w, h = image.size
    inside = [
        m
        for m in rec.marks(image)
        if m.box[2] > 0 and m.box[3] > 0 and m.box[0] < w and m.box[1] < h
    ]
    rec.sent.append((image, inside))


# -- following Pillow's calls ---------------------------------------------------------------


def _colour(fill: Any) -> tuple[int, int, int]:
    if isinstance(fill, tuple) and len(fill) >= 3:
        return (int(fill[0]), int(fill[1]), int(fill[2]))
    if isinstance(fill, int):
        return (fill, fill, fill)
    return (0, 0, 0)


def _icon_mark(rec: Recording, icon: Image.Image) -> Mark | None:
    """The mark pasting ``icon`` leaves (None if it is no figure or token): its body's box,
    outline included, without the white halo round it."""
    found = rec.tag_of(icon)
    if found is None:
        return None
    known = rec.bodies.get(id(icon))
    if known is not None and known[0] is icon:
        return known[1]
    kind, what = found
    rgba = icon.convert("RGBA")
    red, green, blue, alpha = rgba.split()
    opaque = alpha.point(lambda v: 255 if v > 128 else 0)
    palest = ImageChops.darker(ImageChops.darker(red, green), blue)
    halo = palest.point(lambda v: 255 if v > 225 else 0)
    box = ImageChops.subtract(opaque, halo).getbbox()
    mark = None
    if box:
        # The main colour: the commonest opaque colour that is neither the halo nor the ink.
        colours: list[tuple[int, tuple[int, int, int, int]]] = rgba.getcolors(1 << 20) or []  # type: ignore[assignment]
        body = [
            (n, (c[0], c[1], c[2]))
            for n, c in colours
            if c[3] > 200 and not all(v > 225 for v in c[:3]) and not all(v < 40 for v in c[:3])
        ]
        colour = max(body)[1] if body else (0, 0, 0)
        edges = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
        # A figure lying down (a farmer, a wagon, the pig) is as large as it is long.
        mark = Mark(kind, what, edges, float(max(box[2] - box[0], box[3] - box[1])), colour)
    rec.bodies[id(icon)] = (icon, mark)
    return mark


def _wrap(rec: Recording) -> dict[tuple[Any, str], Callable[..., Any]]:
    """The Pillow methods replaced while recording, each doing its work then moving marks."""
    originals: dict[tuple[Any, str], Callable[..., Any]] = {}

    def swap(
        owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        original = getattr(owner, name)
        originals[(owner, name)] = original
        setattr(owner, name, make(original))

    def text(original: Callable[..., Any]) -> Callable[..., Any]:
        def drawn(
            self: ImageDraw.ImageDraw,
            xy: Any,
            text: Any,
            fill: Any = None,
            font: Any = None,
            anchor: Any = None,
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            original(self, xy, text, fill, font, anchor, *args, **kwargs)
            if isinstance(text, str) and text.strip():
                font = font or self.getfont()
                spacing = args[0] if args else kwargs.get("spacing", 4)
                box = self.textbbox(xy, text, font=font, anchor=anchor, spacing=spacing)
                capital = font.getbbox("H")
                size = float(capital[3] - capital[1])
                rec.add(self._image, [Mark("text", text, box, size, _colour(fill))])

        return drawn

    def paste(original: Callable[..., Any]) -> Callable[..., Any]:
        def pasted(self: Image.Image, im: Any, box: Any = None, mask: Any = None) -> Any:
            original(self, im, box, mask)
            if not isinstance(im, Image.Image):
                return
            if box is None:
                dx, dy = 0, 0
            else:
                dx, dy = box[0], box[1]
            marks = rec.marks(im)
            icon = _icon_mark(rec, im)
            if icon is not None:
                marks.append(icon)
            rec.add(self, [m.moved(dx, dy) for m in marks])

        return pasted

    def derived(scale: Callable[..., tuple[float, float, float, float]]) -> Callable[..., Any]:
        """A method making a new image from ``self`` (its marks moved and scaled by
        ``scale(self, out, *args)``: dx, dy, sx, sy)."""

        def make(original: Callable[..., Any]) -> Callable[..., Any]:
            def done(self: Image.Image, *args: Any, **kwargs: Any) -> Any:
                out = original(self, *args, **kwargs)
                if isinstance(out, Image.Image) and out is not self:
                    dx, dy, sx, sy = scale(self, out, *args, **kwargs)
                    marks = [m.moved(dx, dy).scaled(sx, sy) for m in rec.marks(self)]
                    if marks:
                        rec.set(out, marks)
                    found = rec.tag_of(self)
                    if found is not None and (sx, sy) == (1, 1):
                        tag(out, *found)
                return out

            return done

        return make

    def same(
        self: Image.Image, out: Image.Image, *args: Any, **kwargs: Any
    ) -> tuple[float, float, float, float]:
        return (0, 0, 1, 1)

    def resized(
        self: Image.Image, out: Image.Image, *args: Any, **kwargs: Any
    ) -> tuple[float, float, float, float]:
        return (0, 0, out.width / self.width, out.height / self.height)

    def cropped(
        self: Image.Image, out: Image.Image, box: Any = None, *args: Any
    ) -> tuple[float, float, float, float]:
        return (0, 0, 1, 1) if box is None else (-box[0], -box[1], 1, 1)

    def alpha_composite(original: Callable[..., Any]) -> Callable[..., Any]:
        def composited(
            self: Image.Image, im: Image.Image, dest: Any = (0, 0), source: Any = (0, 0)
        ) -> Any:
            original(self, im, dest, source)
            marks = rec.marks(im)
            icon = _icon_mark(rec, im)
            if icon is not None:
                marks.append(icon)
            rec.add(self, [m.moved(dest[0] - source[0], dest[1] - source[1]) for m in marks])

        return composited

    def two(original: Callable[..., Any]) -> Callable[..., Any]:
        def made(im1: Image.Image, im2: Image.Image, *args: Any) -> Any:
            out = original(im1, im2, *args)
            rec.set(out, rec.marks(im1) + rec.marks(im2))
            return out

        return made

    swap(ImageDraw.ImageDraw, "text", text)
    swap(Image.Image, "paste", paste)
    swap(Image.Image, "alpha_composite", alpha_composite)
    for name in ("copy", "convert", "quantize"):
        swap(Image.Image, name, derived(same))
    swap(Image.Image, "resize", derived(resized))
    swap(Image.Image, "crop", derived(cropped))
    swap(Image, "blend", two)
    swap(Image, "alpha_composite", two)
    return originals


@contextlib.contextmanager
def recording() -> Iterator[Recording]:
    """Record the marks of everything drawn inside the block (one recording at a time)."""
    global _ACTIVE
    with _LOCK:
        rec = Recording()
        originals = _wrap(rec)
        _ACTIVE = rec
        try:
            yield rec
        finally:
            _ACTIVE = None
            for (owner, name), original in originals.items():
                setattr(owner, name, original)
