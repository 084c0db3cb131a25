"""The legend of a picture: every mark it draws, each with a sample and its words.

The help draws its example turn while :func:`renderer.marks.noting`, then :func:`legend_picture`
under it, from what the drawing noted: the legend is read off the drawing, never from a list kept
beside it, so a mark drawn with no words in the catalogs (context ``legend``, one key per mark)
or no sample fails to draw (:class:`MissingLegend`) rather than going unexplained. A family's own
marks are drawn by the samples it registers in :data:`renderer.families.LEGEND`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

import catalogs
from renderer import emblems, families
from renderer import palette as pal
from renderer.board import badge, cross_out
from renderer.figures import figure_icon
from renderer.options import RenderOptions

#: The legend's text size at the phone pictures' 960 pixels: capitals 28 px tall, 11.7 px on a
#: phone showing it 400 px wide.
TEXT = 38
#: A sample mark's box, and a row's height.
SAMPLE = 64
ROW = 76
PAD = 18
#: The players' highlight (the row of the player to move in the players' table).
TO_MOVE: pal.RGB = (255, 236, 170)
#: The style figure kinds are shown in (as the players' table's column icons are).
NEUTRAL = 5


class MissingLegend(ValueError):
    """A mark was drawn that the catalogs do not explain."""


#: The order of the legend: the board's marks, the players, then the figures.
ORDER = (
    "letter",
    "target",
    "dead",
    "last",
    "to_move",
    "seat",
    "marker",
    "figure",
    "palace",
    "wall_tile",
    "abbey",
    "goods",
)


def key(mark: str) -> str:
    """The catalog key (context ``legend``) of a mark (see :mod:`renderer.marks`):
    ``figure:farmer`` -> ``figure_farmer``; every seat shares ``seat``."""
    head = mark.partition(":")[0]
    return head if head == "seat" else mark.replace(":", "_")


#: Figures in the order the players' table lists them, each family's together.
FIGURES = (
    "follower",
    "farmer",
    "large_follower",
    "large_farmer",
    "mayor",
    "wagon",
    "barn",
    "builder",
    "pig",
    "man",
    "hunter",
    "gatherer",
    "fisher",
    "hut",
    "subject",
    "messenger",
    "knight",
    "burgher",
    "merchant",
)


def sort_key(mark: str) -> tuple[int, int, str]:
    head, _, rest = mark.partition(":")
    rank = ORDER.index(head) if head in ORDER else len(ORDER)
    if rest.isdigit():
        return (rank, int(rest), "")
    within = (FIGURES if head == "figure" else emblems.GOODS) + (rest,)
    return (rank, within.index(rest), rest)


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the legend: the mark, its sample and its words."""

    mark: str
    sample: Image.Image
    words: str


def words(mark: str, players: Sequence[str], lang: str) -> str:
    """A mark in words (:class:`MissingLegend` if the catalogs have none)."""
    name = key(mark)
    if not catalogs.has("legend", name):
        raise MissingLegend(f"the mark {mark!r} has no words (catalogs, context 'legend')")
    if name == "seat":
        seat = int(mark.partition(":")[2])
        return catalogs.text("legend", name, lang, player=players[seat])
    return catalogs.text("legend", name, lang)


def sample(mark: str, family: str, size: int = SAMPLE) -> Image.Image:
    """The mark drawn as the pictures draw it, in a ``size`` square (transparent around it)."""
    own = families.LEGEND.get(family, {})
    head, _, rest = mark.partition(":")
    drawer = own.get(head)
    if drawer is not None:
        return drawer(rest, size)
    return _common(head, rest, size)


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def centred(icon: Image.Image, size: int) -> Image.Image:
    image, _ = _canvas(size)
    scale = min(1.0, size / max(icon.size))
    if scale < 1:
        icon = icon.resize(
            (max(1, round(icon.width * scale)), max(1, round(icon.height * scale))),
            Image.Resampling.LANCZOS,
        )
    image.paste(icon, ((size - icon.width) // 2, (size - icon.height) // 2), icon)
    return image


def _common(head: str, rest: str, size: int) -> Image.Image:
    image, draw = _canvas(size)
    if head == "letter":
        badge(draw, (size / 2, size / 2), "A", size * 0.44, pal.LABEL_FILL, size=round(size * 0.62))
    elif head == "dead":
        draw.rectangle((0, 0, size - 1, size - 1), fill=pal.EMPTY, outline=pal.EMPTY_LINE)
        cross_out(draw, (0, 0, size - 1, size - 1), size)
    elif head == "last":
        w = max(3, size // 12)
        draw.rectangle((0, 0, size - 1, size - 1), fill=pal.FIELD, outline=pal.INK, width=w + 2)
        draw.rectangle((2, 2, size - 3, size - 3), outline=pal.HIGHLIGHT, width=w)
    elif head == "to_move":
        draw.rounded_rectangle((0, size * 0.2, size - 1, size * 0.8), size // 6, fill=TO_MOVE)
    elif head == "seat":
        return centred(figure_icon(int(rest), "follower", round(size * 2.2)), size)
    elif head == "figure":
        return centred(figure_icon(NEUTRAL, rest, round(size * 2.2)), size)
    elif head == "abbey":
        from renderer.phone_rows import abbey_icon

        abbey_icon(draw, (size // 2, size // 2), round(size * 0.4))
    elif head == "goods":
        return centred(emblems.goods_icon(rest, round(size * 0.8)), size)
    else:
        raise MissingLegend(f"the mark {head}:{rest} has no sample")
    return image


def entries(marks: Iterable[str], family: str, players: Sequence[str], lang: str) -> list[Entry]:
    """The legend's lines for ``marks``, in :data:`ORDER`."""
    return [
        Entry(mark, sample(mark, family), words(mark, players, lang))
        for mark in sorted(set(marks), key=sort_key)
    ]


def _lines(text: str, font: object, room: float) -> list[str]:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and measure.textlength(trial, font=font) > room:  # type: ignore[arg-type]
            out.append(line)
            line = word
        else:
            line = trial
    return [*out, line] if line else out


def legend_picture(
    marks: Iterable[str],
    family: str,
    players: Sequence[str],
    options: RenderOptions,
    width: int,
) -> tuple[Image.Image, list[Entry]]:
    """The legend of ``marks``, ``width`` pixels wide: a title, then one row per mark (its
    sample at the left, its words at the right, wrapped); and its entries."""
    shown = entries(marks, family, players, options.lang)
    font = pal.font(TEXT)
    room = width - 3 * PAD - SAMPLE
    rows = [_lines(e.words, font, room) for e in shown]
    line_h = TEXT + 8
    heights = [max(ROW, len(lines) * line_h + 12) for lines in rows]
    top = PAD + TEXT + 16
    image = Image.new("RGB", (width, top + sum(heights) + PAD), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.line((0, 1, width, 1), fill=pal.EMPTY_LINE, width=2)
    title = catalogs.text("legend", "title", options.lang)
    draw.text((PAD, PAD), title, font=font, fill=pal.INK, anchor="lt")
    y = top
    for entry, lines, height in zip(shown, rows, heights, strict=True):
        cy = y + height // 2
        image.paste(entry.sample, (PAD, cy - SAMPLE // 2), entry.sample)
        ty = cy - len(lines) * line_h / 2 + line_h / 2
        for n, line in enumerate(lines):
            at = (PAD * 2 + SAMPLE, round(ty + n * line_h))
            draw.text(at, line, font=font, fill=pal.INK, anchor="lm")
        y += height
    return image, shown
