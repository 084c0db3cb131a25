"""The score over time: one line per player, turn by turn, then the end-of-game scoring.

Each line is drawn in its seat's colour on a dark casing (the yellow seat stays visible on the
light background), and carries its seat's mark in a disc at its end and at a few turns along
the way, so players are told apart without relying on hue. Sized for phone width: its words
are about 12 px tall once the picture is shown 400 px wide.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.core.timeline import ScoreSeries
from renderer import palette as pal
from renderer.figures import mark
from renderer.options import RenderOptions


def nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 5, 10, 20, 25, 50...) giving about ``ticks`` ticks over ``span``."""
    raw = max(1.0, span / max(1, ticks))
    magnitude = 1
    while magnitude * 10 <= raw:
        magnitude *= 10
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw and step == int(step):
            return int(step)
    return 10 * magnitude


def seat_disc(
    draw: ImageDraw.ImageDraw, player: int, centre: tuple[float, float], r: float
) -> None:
    """The seat's disc: its colour with its mark, outlined in ink."""
    colour = pal.player_colour(player)
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=pal.INK, width=2)
    mark(draw, pal.player_mark(player), (cx, cy), r * 0.55, pal.ink_on(colour))


def score_chart_picture(
    series: ScoreSeries,
    names: Sequence[str],
    width: int,
    options: RenderOptions,
    *,
    upto: int | None = None,
    height: int | None = None,
    title: bool = True,
) -> Image.Image:
    """The chart of ``series`` for players ``names``, ``width`` pixels wide.

    ``upto`` draws the lines only up to that turn (the axes stay those of the whole game: an
    animation keeps its scale); ``height`` sets the picture's height (default: from the width).
    """
    # Every word's capitals 11 px tall or more once the chart is shown 400 px wide.
    least = max(14, round(width * 38 / 960))
    unit = max(34, width // 16, round(least * 1.6))
    font = pal.font(max(least, round(unit * 0.5)))
    small = pal.font(max(least, round(unit * 0.4)))
    pad = unit // 2
    height = height or max(unit * 6, round(width * 0.42))
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    turns = series.turns
    top_score = max(1, series.best)
    step_y = nice_step(top_score, 4)
    top_score = -(-top_score // step_y) * step_y
    label_w = max(draw.textlength(str(top_score), font=small), unit * 0.6) + pad * 0.6
    end_w = unit * 1.9
    head = pad + (unit if title else 0)
    left, right = pad + label_w, width - pad - end_w
    bottom = height - pad - unit * 0.7
    if title:
        draw.text(
            (pad, pad + unit * 0.4),
            options.text("score_by_turn"),
            font=font,
            fill=pal.INK,
            anchor="lm",
        )
    # The end-of-game scoring gets its own column after the last turn.
    final_gap = max(1.0, turns * 0.08) if series.final is not None else 0.0
    span_x = max(1.0, turns + final_gap)

    def px(turn: float) -> float:
        return left + (right - left) * turn / span_x

    def py(score: float) -> float:
        return bottom - (bottom - head) * score / top_score

    for value in range(0, top_score + 1, step_y):
        y = py(value)
        draw.line((left, y, right, y), fill=pal.EMPTY_LINE, width=2)
        draw.text((left - pad * 0.4, y), str(value), font=small, fill=pal.MUTED, anchor="rm")
    step_x = nice_step(turns, max(2, round((right - left) / (unit * 2.2))))
    for turn in range(0, turns + 1, step_x):
        x = px(turn)
        draw.line((x, bottom, x, bottom + pad * 0.3), fill=pal.MUTED, width=2)
        draw.text((x, bottom + pad * 0.4), str(turn), font=small, fill=pal.MUTED, anchor="mt")
    if series.final is not None:
        x = px(turns)
        for y0 in range(round(head), round(bottom), max(6, unit // 5)):
            draw.line((x, y0, x, min(bottom, y0 + unit // 10)), fill=pal.MUTED, width=2)
        draw.text(
            (px(turns + final_gap), bottom + pad * 0.4),
            options.text("chart_end"),
            font=small,
            fill=pal.MUTED,
            anchor="mt",
        )
    shown = turns if upto is None else max(0, min(turns, upto))
    with_final = series.final is not None and (upto is None or upto > turns)
    line_w = max(3, round(unit * 0.12))
    r = unit * 0.26
    every = max(1, turns // 4)
    ends: list[tuple[float, float, int]] = []
    for player in range(len(names)):
        points = series.of(player)
        xy = [(px(t), py(points[t])) for t in range(shown + 1)]
        if with_final:
            xy.append((px(turns + final_gap), py(points[-1])))
        if len(xy) > 1:
            draw.line(xy, fill=pal.INK, width=line_w + 4, joint="curve")
            draw.line(xy, fill=pal.player_colour(player), width=line_w, joint="curve")
        last_score = points[-1] if with_final else points[shown]
        ends.append((xy[-1][1], last_score, player))
        for t in range(every, shown, every):
            if t < shown - every // 2:
                seat_disc(draw, player, (xy[t][0], xy[t][1]), r * 0.8)
    # The end discs with the score beside each, nudged apart where scores are close.
    placed: list[float] = []
    for y, score, player in sorted(ends):
        for other in placed:
            if abs(y - other) < r * 2.1:
                y = other + r * 2.1
        placed.append(y)
        x = px(turns + final_gap) if with_final else px(shown)
        seat_disc(draw, player, (x, y), r)
        at = (x + r + pad * 0.25, y)
        draw.text(at, str(score), font=small, fill=pal.INK, anchor="lm")
    return image
