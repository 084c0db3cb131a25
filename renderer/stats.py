"""A player's statistics as a picture: points by scoring category, one bar each, in the player's
colour (and mark), longest first. Drawn from plain data (no game): the ``stats`` job of
:mod:`renderer.jobs`.

The category words are the end table's (:mod:`renderer.families` ``categories`` of each game
family played, else the ``picture`` catalog), so one concept has one term everywhere. Drawn
800 px wide: the words' capitals stay 12 px tall when a phone shows it 400 px wide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from renderer import families
from renderer import palette as pal
from renderer.figures import mark
from renderer.options import RenderOptions

WIDTH = 800


def category_words(kinds: Sequence[str], options: RenderOptions) -> dict[str, str]:
    """Category -> its words for the game families ``kinds`` (the first family naming it)."""
    words: dict[str, str] = {}
    for kind in kinds:
        own = families.pictures(kind).categories
        if own is not None:
            _, labels = own(options)
            for key, label in labels.items():
                words.setdefault(key, label)
    return words


def category_label(key: str, words: Mapping[str, str], options: RenderOptions) -> str:
    return words.get(key) or options.text(key)


def stats_picture(data: Mapping[str, object], options: RenderOptions) -> Image.Image:
    """The chart of ``data``: ``name`` (the player), ``games`` (how many), ``categories``
    (``(key, points)`` pairs), ``kinds`` (the game families played) and ``style`` (the
    player's colour and mark, an index of :data:`renderer.palette.PLAYER_COLOURS`)."""
    name = str(data["name"])
    games = int(data["games"])  # type: ignore[call-overload]
    bars: list[tuple[str, int]] = [(str(k), int(v)) for k, v in data["categories"]]  # type: ignore[attr-defined]
    kinds = [str(k) for k in data.get("kinds", ())]  # type: ignore[attr-defined]
    style = int(data.get("style", 0)) % len(pal.PLAYER_COLOURS)  # type: ignore[call-overload]
    colour, symbol = pal.PLAYER_COLOURS[style], pal.PLAYER_MARKS[style]
    words = category_words(kinds, options)
    # Every word's capitals 12 px tall once a phone shows the picture 400 px wide.
    row_h, pad = 58, 28
    title_font, font, small = pal.font(38), pal.font(32), pal.font(32)
    head_h = 2 * pad + 44 + 44
    height = head_h + max(1, len(bars)) * (row_h + 12) + pad
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    r = 18
    cx, cy = pad + r, pad + 22
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=pal.INK, width=2)
    mark(draw, symbol, (cx, cy), r * 0.55, pal.ink_on(colour))
    title = options.text("stats_title", name=name if len(name) <= 24 else name[:23] + "…")
    draw.text((cx + r + 14, cy), title, font=title_font, fill=pal.INK, anchor="lm")
    draw.text(
        (pad, cy + 26 + 26),
        options.count("stats_games", games, games=games),
        font=small,
        fill=pal.MUTED,
        anchor="lm",
    )
    labels = [category_label(key, words, options) for key, _ in bars]
    label_w = max([draw.textlength(t, font=font) for t in labels] + [80.0]) + 16
    label_w = min(label_w, WIDTH * 0.4)
    value_w = max(draw.textlength("8888 · 88%", font=font) + 16, 150)
    plot_w = WIDTH - 2 * pad - label_w - value_w
    top = max([points for _, points in bars] + [1])
    total = sum(points for _, points in bars) or 1
    y = head_h
    for (_, points), label in zip(bars, labels, strict=True):
        mid = y + row_h / 2
        draw.text((pad + label_w - 16, mid), label, font=font, fill=pal.INK, anchor="rm")
        x0 = pad + label_w
        w = max(4.0, plot_w * points / top)
        draw.rectangle((x0, y, x0 + w, y + row_h), fill=colour, outline=pal.INK, width=2)
        share = f"{points} · {round(100 * points / total)}%"
        draw.text((x0 + w + 12, mid), share, font=font, fill=pal.INK, anchor="lm")
        y += row_h + 12
    if not bars:
        draw.text((pad, y + row_h / 2), options.text("stats_none"), font=font, fill=pal.MUTED,
                  anchor="lm")  # fmt: skip
    return image
