"""The animated replay: an animated WebP of a whole game, one frame per turn.

Frames: the start, then one per turn (:func:`engine.core.timeline.turn_ends`: the tile just
placed framed in gold, the figures then standing, whose turn it was and everyone's score), and
for a finished game a last one with the end-of-game scoring, held longer.

Made for a phone, where the picture shows about 400 pixels wide: every frame is
:data:`FRAME_WIDTH` pixels wide and shows at most :data:`VIEW` x :data:`VIEW` squares, so that
figures stay at least 10 pixels tall and words at least 11 once shown 400 wide
(:func:`replay_measures`). A board that fits is shown whole in every frame (tiles never move); a
larger one is shown through a window that follows the action (:func:`follow`: it moves only
when a tile is placed at its edge, centred on that tile), and the last frame shows the whole
board, its figures left out when they would be specks. The whole replay lasts at most
:data:`MAX_MS` (a Big Box game has about 140 turns): turns show shorter in a long game, and
above :data:`MAX_FRAMES` turns, several late turns share a frame (:func:`shown_turns`).

Animated WebP because Discord animates it and it is far smaller than GIF or APNG for this flat
art; after the first frame, libwebp stores only the part of each frame that changed.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine import Game
from engine.core.timeline import ScoreSeries, TurnEnd, score_series, turn_ends
from renderer import families
from renderer import palette as pal
from renderer.board import Measures, Window, draw_board, glyph_height
from renderer.options import RenderOptions
from renderer.scorechart import seat_disc

#: Discord's upload limit for a bot without boosts is 10 MiB; the replay keeps under 6 MiB (a
#: Big Box game whose window moves at most turns: about 3 MB).
REPLAY_LIMIT = 6 * 1024 * 1024
#: The WebP quality of a replay, and the lower one of a replay over its budget.
QUALITY, LOW_QUALITY = 70, 55
#: How long each frame shows, in milliseconds: the start, a turn (at most), the last frame.
FIRST_MS, TURN_MS, LAST_MS = 1200, 700, 4000
#: The whole replay lasts at most this long; a turn shows at least :data:`MIN_TURN_MS`.
MAX_MS, MIN_TURN_MS = 56_000, 250
#: The most turn frames a replay has: from this many turns on, late turns share frames.
MAX_FRAMES = (MAX_MS - FIRST_MS - LAST_MS) // MIN_TURN_MS - 1
#: Every frame's width in pixels (a phone shows it about 400 wide).
FRAME_WIDTH = 640
#: A frame shows at most this many columns and rows of squares: a larger board is followed.
VIEW = 10
#: Tiles are never larger than this (a small board).
MAX_TILE = 80
#: A family's own board (The Castle, drawn whole) draws its figures this much larger.
OWN_FIGURE_SCALE = 1.6
#: The width a phone shows a picture at, and the smallest sizes there: words (the height of a
#: capital) and figures, in pixels.
PHONE_WIDTH, MIN_TEXT, MIN_FIGURE = 400, 11, 10


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in every frame: the board's extent at the end (min x, min y, columns,
    rows; None for a family with its own board), the tile size, the frame's size, the bands
    above (turn) and under (scores) the board, and the columns of squares and rows a frame
    shows (``view``: the whole extent when it fits, else a window that follows the action)."""

    window: Window | None
    tile: int
    width: int
    board_h: int
    head_h: int
    scores_h: int
    columns: int
    view: tuple[int, int] | None = None

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.head_h + self.board_h + self.scores_h)

    @property
    def follows(self) -> bool:
        """Whether the frames show a window of the board that follows the action."""
        return (
            self.window is not None
            and self.view is not None
            and self.view != (self.window[2], self.window[3])
        )


@dataclass(slots=True)
class ReplayMeasures:
    """What a phone reader must read in the frames, in pixels at full size, filled while
    drawing: the capital height of every font words are drawn in, the heights of the figures
    drawn, the seats' discs' diameters; and the frames' width (see :meth:`at_phone`)."""

    width: int
    texts: list[int] = field(default_factory=list)
    figures: list[int] = field(default_factory=list)
    discs: list[int] = field(default_factory=list)

    def at_phone(self) -> dict[str, float]:
        """The smallest of each once the frame is shown :data:`PHONE_WIDTH` pixels wide (no
        figure drawn: no entry)."""
        scale = PHONE_WIDTH / self.width
        kinds = {"text": self.texts, "figure": self.figures, "disc": self.discs}
        return {kind: round(min(sizes) * scale, 1) for kind, sizes in kinds.items() if sizes}


def text_unit(width: int) -> int:
    """The frame's unit of text for a frame ``width`` pixels wide: a line of the scores is
    this tall, the names in it about 16 pixels once the frame is shown 400 pixels wide."""
    return max(32, width // 16)


def replay_tile(cols: int, rows: int) -> int:
    """Pixels per tile for a view of ``cols`` x ``rows`` squares (at most :data:`VIEW` each):
    it fills :data:`FRAME_WIDTH`, at most :data:`MAX_TILE`."""
    longest = max(1, min(cols, VIEW), min(rows, VIEW))
    return min(MAX_TILE, (FRAME_WIDTH - 8) // longest)


def plan(final: Game, options: RenderOptions) -> Layout:
    """The layout of every frame, from the game as it ends (or stands, unfinished)."""
    own = families.pictures(final.setup.game).board
    view: tuple[int, int] | None = None
    if own is not None:
        # A family with its own board (The Castle) has a fixed board: drawn once to measure,
        # then as wide as the frame, its figures as large as on the phone's turn picture.
        probe = own(final, _board_options(options, 100))
        tile = max(24, (FRAME_WIDTH - 8) * 100 // probe.width)
        board = own(final, _board_options(options, tile, own=True))
        width, board_h, window = board.width, board.height, None
    else:
        xs = [x for x, _ in final.board.tiles] or [0]
        ys = [y for _, y in final.board.tiles] or [0]
        cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        tile = replay_tile(cols, rows)
        window = (min(xs), min(ys), cols, rows)
        view = (min(cols, VIEW), min(rows, VIEW))
        width, board_h = view[0] * tile + 8, view[1] * tile + 8
    width = max(width, FRAME_WIDTH)
    unit = text_unit(width)
    columns = min(final.players, 2)
    lines = -(-final.players // columns)
    return Layout(
        window, tile, width, board_h, round(unit * 1.5), lines * unit + unit // 2, columns, view
    )


def follow(origin: tuple[int, int], placed: tuple[int, int] | None, layout: Layout) -> Window:
    """The window a frame shows once a tile is placed at ``placed``, the last frame's window
    at ``origin``: the same while the tile is inside it, else centred on the tile (a window
    that moves seldom keeps the replay small: a frame stores only what changed). Always inside
    the board's final extent."""
    assert layout.window is not None and layout.view is not None
    ex, ey, ec, er = layout.window
    out = []
    spans = zip(origin, placed or origin, (ex, ey), (ec, er), layout.view, strict=True)
    for o, p, e0, en, v in spans:
        if not o <= p < o + v:
            o = p - v // 2
        out.append(min(max(o, e0), e0 + en - v))
    return (out[0], out[1], *layout.view)


def _board_options(options: RenderOptions, tile: int, *, own: bool = False) -> RenderOptions:
    """A frame's board options: ``own`` for a family's own board (its figures larger)."""
    return dataclasses.replace(
        options,
        tile_size=tile,
        min_tile=min(tile, 24),
        max_side=100_000,
        coordinates=False,
        panel=False,
        figure_scale=OWN_FIGURE_SCALE if own else options.figure_scale,
    )


def _fitted(
    draw: ImageDraw.ImageDraw, words: str, size: int, room: float, smallest: int
) -> tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]:
    """``words`` in a font of ``size`` pixels, smaller down to ``smallest`` to fit ``room``,
    then cut short with an ellipsis."""
    font = pal.font(size)
    while size > smallest and draw.textlength(words, font=font) > room:
        size -= 1
        font = pal.font(size)
    while len(words) > 1 and draw.textlength(words, font=font) > room:
        words = words[:-2] + "…"
    return words, font


def _smallest_font(width: int) -> int:
    """The smallest font whose capitals are :data:`MIN_TEXT` pixels tall or more once a frame
    ``width`` wide is shown :data:`PHONE_WIDTH` wide."""
    size = 8
    while glyph_height("H", pal.font(size)) * PHONE_WIDTH < MIN_TEXT * width:
        size += 1
    return size


def frame_picture(
    game: Game,
    end: TurnEnd,
    layout: Layout,
    options: RenderOptions,
    *,
    total: int,
    final: bool = False,
    window: Window | None = None,
    measures: ReplayMeasures | None = None,
) -> Image.Image:
    """One frame: the turn's words, the board as it stands (``window`` of it: by default the
    layout's), everyone's score. ``final`` with a following layout shows the whole board."""
    image = Image.new("RGB", layout.size, pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    own = families.pictures(game.setup.game).board
    if own is not None:
        seen = Measures([], [], [])
        board = own(game, _board_options(options, layout.tile, own=True), measures=seen)
        if measures is not None:
            measures.figures.extend(seen.figures)
    elif final and layout.follows:
        board = _whole_board(game, layout, options, measures)
    else:
        shown = window or layout.window
        if shown is not None and layout.view is not None:
            shown = (shown[0], shown[1], *layout.view)
        seen = Measures([], [], [])
        board, _ = draw_board(
            game.board.tiles,
            game.figures(),
            _board_options(options, layout.tile),
            last=None if final else end.placed,
            window=shown,
            measures=seen,
        )
        if measures is not None:
            measures.figures.extend(seen.figures)
    top = layout.head_h + (layout.board_h - board.height) // 2
    image.paste(board, ((layout.width - board.width) // 2, top))
    unit = text_unit(layout.width)
    names = game.setup.players
    cy = layout.head_h / 2
    if final:
        winners = ", ".join(names[p] for p in game.leaders)
        key = "winner" if len(game.leaders) == 1 else "winners"
        words = f"{options.text('replay_final')} · {options.text(key, names=winners)}"
    elif end.number == 0:
        words = options.text("replay_start")
    else:
        who = names[end.player] if end.player is not None else ""
        shown_name = who if len(who) <= 16 else who[:15] + "…"
        words = options.text("replay_turn", n=end.number, total=total, name=shown_name)
    x = unit * 0.4
    if end.player is not None and not final:
        r = unit * 0.4
        seat_disc(draw, end.player, (x + r, cy), r)
        if measures is not None:
            measures.discs.append(round(2 * r))
        x += unit * 1.0
    smallest = _smallest_font(layout.width)
    words, font = _fitted(draw, words, round(unit * 0.72), layout.width - x - unit * 0.3, smallest)
    draw.text((x, cy), words, font=font, fill=pal.INK, anchor="lm")
    if measures is not None:
        measures.texts.append(glyph_height("H", font))
    _scores(image, game, end, layout, unit, final, measures)
    return image


def _whole_board(
    game: Game, layout: Layout, options: RenderOptions, measures: ReplayMeasures | None
) -> Image.Image:
    """The whole board in the board's band of a following layout: its figures drawn when
    they stay :data:`MIN_FIGURE` pixels tall at phone width, else the tiles alone."""
    assert layout.window is not None
    _, _, cols, rows = layout.window
    tile = max(4, min((layout.width - 8) // cols, (layout.board_h - 8) // rows))
    board_options = _board_options(options, tile)
    seen = Measures([], [], [])
    figures = game.figures()
    board, _ = draw_board(
        game.board.tiles, figures, board_options, window=layout.window, measures=seen
    )
    legible = all(h * PHONE_WIDTH >= MIN_FIGURE * layout.width for h in seen.figures)
    if not legible:
        board, _ = draw_board(game.board.tiles, [], board_options, window=layout.window)
    elif measures is not None:
        measures.figures.extend(seen.figures)
    return board


def _scores(
    image: Image.Image,
    game: Game,
    end: TurnEnd,
    layout: Layout,
    unit: int,
    final: bool,
    measures: ReplayMeasures | None = None,
) -> None:
    """Each seat's disc, name and score, ``layout.columns`` to a line; the seat that just
    played on a pale band."""
    draw = ImageDraw.Draw(image)
    font = pal.font(round(unit * 0.65))
    big = pal.font(round(unit * 0.75))
    scores = end.final if final and end.final is not None else end.scores
    top = layout.head_h + layout.board_h + unit // 4
    col_w = (layout.width - unit // 2) / layout.columns
    r = unit * 0.36
    for player, name in enumerate(game.setup.players):
        line, col = divmod(player, layout.columns)
        x0 = unit // 4 + col * col_w
        cy = top + line * unit + unit / 2
        if player == end.player and not final:
            band = (x0, cy - unit * 0.48, x0 + col_w - unit * 0.2, cy + unit * 0.48)
            draw.rounded_rectangle(band, unit // 5, fill=(255, 240, 190))
        seat_disc(draw, player, (x0 + unit * 0.45, cy), r)
        score = str(scores[player])
        score_x = x0 + col_w - unit * 0.4
        draw.text((score_x, cy), score, font=big, fill=pal.INK, anchor="rm")
        room = score_x - draw.textlength(score, font=big) - unit * 0.3 - (x0 + unit * 0.95)
        shown = name
        while shown and draw.textlength(shown, font=font) > room:
            shown = shown[:-2] + "…" if len(shown) > 2 else ""
        draw.text((x0 + unit * 0.95, cy), shown, font=font, fill=pal.INK, anchor="lm")
    if measures is not None:
        measures.texts.extend((glyph_height("H", font), glyph_height("0", big)))
        measures.discs.append(round(2 * r))


@dataclass(frozen=True, slots=True)
class Replay:
    """An encoded replay: the WebP bytes, how many frames and turns it shows, its frame size."""

    webp: bytes
    frames: int
    turns: int
    size: tuple[int, int]


def shown_turns(turns: int, most: int = MAX_FRAMES) -> list[int]:
    """The turns (1 to ``turns``) that get a frame: every one when there are at most
    ``most``, else the early ones one by one and the later ones by groups of the fewest
    turns that keep ``most`` frames (the frame of a group shows its last turn); the last turn
    always has one."""
    if turns <= most:
        return list(range(1, turns + 1))
    k = 2
    while math.ceil(turns / k) > most:
        k += 1
    single = (most * k - turns) // (k - 1)  # single + ceil((turns - single) / k) <= most
    single = max(0, min(single, turns))
    shown = list(range(1, single + 1))
    shown += list(range(turns, single, -k))[::-1]
    return shown


def turn_ms(frames: int) -> int:
    """How long each of ``frames`` turn frames shows: :data:`TURN_MS`, shorter when the whole
    (the start, the turns, the last turn's frame shown twice as long, the last frame) would
    last over :data:`MAX_MS`."""
    room = (MAX_MS - FIRST_MS - LAST_MS) // max(1, frames + 1)
    return max(MIN_TURN_MS, min(TURN_MS, room))


def replay_frames(
    record: Mapping[str, Any],
    options: RenderOptions | None = None,
    measures: ReplayMeasures | None = None,
) -> Iterator[tuple[Image.Image, int]]:
    """Each frame of the replay of ``record`` with how long it shows (milliseconds);
    ``measures`` collects what a phone reader must read in them."""
    options = options or RenderOptions()
    final_game = Game.from_record(dict(record))
    layout = plan(final_game, options)
    series: ScoreSeries = score_series(record)
    total = series.turns
    shown = set(shown_turns(total))
    ms = turn_ms(len(shown))
    window = layout.window
    if layout.follows:
        assert window is not None and layout.view is not None
        window = follow((0 - layout.view[0] // 2, 0 - layout.view[1] // 2), (0, 0), layout)
    for end, game in turn_ends(record):
        first = end.number == 0
        if layout.follows and window is not None and end.placed is not None:
            window = follow((window[0], window[1]), end.placed, layout)
        ending = end.final is not None
        if not first and end.number not in shown and not ending:
            continue
        image = frame_picture(
            game, end, layout, options, total=total, window=window, measures=measures
        )
        yield image, FIRST_MS if first else (ms if not ending else ms * 2)
        if ending:
            last = frame_picture(
                game, end, layout, options, total=total, final=True, measures=measures
            )
            yield last, LAST_MS


def replay_measures(
    record: Mapping[str, Any], options: RenderOptions | None = None
) -> ReplayMeasures:
    """What a phone reader must read in every frame of the replay of ``record``."""
    options = options or RenderOptions()
    measures = ReplayMeasures(plan(Game.from_record(dict(record)), options).width)
    for _ in replay_frames(record, options, measures):
        pass
    return measures


def encode_webp(
    frames: Sequence[Image.Image], durations: Sequence[int], quality: int = QUALITY
) -> bytes:
    """An animated WebP of ``frames`` (looping), each shown ``durations`` ms.

    Lossy, every frame after the first stored as the rectangle that changed (no key frames:
    Discord plays a replay from its start). For a 6-player Abbey & Mayor game at 960 pixels:
    0.69 MB in 2.9 s of CPU, where Pillow's default key frame every 5 frames took 4.1 s for
    0.73 MB with one every 40, lossless 0.8 to 1.1 MB in twice the time, and method 0 or 1
    (libwebp's lighter efforts) saved under a second for 13 to 33 % more bytes. Quality 70
    (:data:`QUALITY`): a 6-player Big Box replay of 640-pixel frames following the action is
    2.9 MB, 3.4 MB at 80, in the same 3 s.
    """
    out = io.BytesIO()
    frames[0].save(
        out,
        format="WEBP",
        save_all=True,
        append_images=list(frames[1:]),
        duration=list(durations),
        loop=0,
        quality=quality,
        method=2,
        kmin=0,
        kmax=0,
    )
    return out.getvalue()


def render_replay(
    record: Mapping[str, Any],
    options: RenderOptions | None = None,
    *,
    max_bytes: int = REPLAY_LIMIT,
) -> Replay:
    """The replay of ``record`` (a game finished or not) as an animated WebP.

    Above ``max_bytes`` (no game measured comes near :data:`REPLAY_LIMIT`: about 3 MB at most),
    it is encoded again at a lower quality, then with frames three quarters as wide (words
    and figures then smaller than a phone reader needs: a last resort).
    """
    frames: list[Image.Image] = []
    durations: list[int] = []
    for image, ms in replay_frames(record, options):
        frames.append(image)
        durations.append(ms)
    webp = encode_webp(frames, durations)
    if len(webp) > max_bytes:
        webp = encode_webp(frames, durations, quality=LOW_QUALITY)
    while len(webp) > max_bytes and frames[0].width > 240:
        size = (frames[0].width * 3 // 4, frames[0].height * 3 // 4)
        frames = [f.resize(size, Image.Resampling.LANCZOS) for f in frames]
        webp = encode_webp(frames, durations, quality=LOW_QUALITY)
    return Replay(webp, len(frames), score_series(record).turns, frames[0].size)
