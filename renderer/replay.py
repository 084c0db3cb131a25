"""The animated replay: an animated WebP of a whole game, one frame per turn.

Frames: the start, then one per turn (:func:`engine.core.timeline.turn_ends`: the tile just
placed framed in gold, the figures then standing, whose turn it was and everyone's score), and
for a finished game a last one with the end-of-game scoring, held longer. Every frame has the
same size: the board is framed on the game's final extent, so tiles never move; the tile size
is chosen from that extent so that the picture stays readable at phone width and the file stays
under :data:`REPLAY_LIMIT` for any game (:func:`replay_tile`). Animated WebP because Discord
animates it and it is far smaller than GIF or APNG for this flat art; after the first frame,
libwebp stores only the part of each frame that changed.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine import Game
from engine.core.timeline import ScoreSeries, TurnEnd, score_series, turn_ends
from renderer import families
from renderer import palette as pal
from renderer.board import draw_board
from renderer.options import RenderOptions
from renderer.scorechart import seat_disc

#: Discord's upload limit for a bot without boosts is larger; the replay keeps under 3 MiB.
REPLAY_LIMIT = 3 * 1024 * 1024
#: How long each frame shows, in milliseconds: the start, a turn, the last frame.
FIRST_MS, TURN_MS, LAST_MS = 1200, 700, 4000
#: The board's longest side in pixels (the frame is this wide at most, plus a small margin).
BOARD_SIDE = 960
#: Tiles are never smaller than this (a big board), nor larger than that (a small one).
MIN_TILE, MAX_TILE = 24, 80
#: The frame's width at least, for the words and the scores.
MIN_WIDTH = 640


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in every frame: the board's window (min x, min y, columns, rows) and
    tile size, the frame's size, and the bands above (turn) and under (scores) the board."""

    window: tuple[int, int, int, int] | None
    tile: int
    width: int
    board_h: int
    head_h: int
    scores_h: int
    columns: int

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.head_h + self.board_h + self.scores_h)


def text_unit(width: int) -> int:
    """The frame's unit of text for a frame ``width`` pixels wide: names are drawn half as tall,
    about 12 pixels once the frame is shown 400 pixels wide on a phone (like the end chart)."""
    return max(32, width // 16)


def replay_tile(cols: int, rows: int) -> int:
    """Pixels per tile for a board of ``cols`` x ``rows`` squares: the board's longest side
    fits :data:`BOARD_SIDE`, within :data:`MIN_TILE` and :data:`MAX_TILE`."""
    return max(MIN_TILE, min(MAX_TILE, BOARD_SIDE // max(1, cols, rows)))


def plan(final: Game, options: RenderOptions) -> Layout:
    """The layout of every frame, from the game as it ends (or stands, unfinished)."""
    own = families.pictures(final.setup.game).board
    if own is not None:
        # A family with its own board (The Castle) has a fixed board: draw it once to measure.
        tile = MAX_TILE
        board = own(final, _board_options(options, tile))
        width, board_h, window = board.width, board.height, None
    else:
        xs = [x for x, _ in final.board.tiles] or [0]
        ys = [y for _, y in final.board.tiles] or [0]
        cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        tile = replay_tile(cols, rows)
        window = (min(xs), min(ys), cols, rows)
        width, board_h = cols * tile + 8, rows * tile + 8
    width = max(width, MIN_WIDTH)
    unit = text_unit(width)
    columns = min(final.players, 3)
    lines = -(-final.players // columns)
    return Layout(
        window, tile, width, board_h, round(unit * 1.5), lines * unit + unit // 2, columns
    )


def _board_options(options: RenderOptions, tile: int) -> RenderOptions:
    return dataclasses.replace(
        options, tile_size=tile, min_tile=MIN_TILE, coordinates=False, panel=False
    )


def frame_picture(
    game: Game,
    end: TurnEnd,
    layout: Layout,
    options: RenderOptions,
    *,
    total: int,
    final: bool = False,
) -> Image.Image:
    """One frame: the turn's words, the board as it stands, everyone's score."""
    image = Image.new("RGB", layout.size, pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    board_options = _board_options(options, layout.tile)
    own = families.pictures(game.setup.game).board
    if own is not None:
        board = own(game, board_options)
    else:
        board, _ = draw_board(
            game.board.tiles,
            game.figures(),
            board_options,
            last=None if final else end.placed,
            window=layout.window,
        )
    image.paste(board, ((layout.width - board.width) // 2, layout.head_h))
    unit = text_unit(layout.width)
    font = pal.font(round(unit * 0.62))
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
        shown = who if len(who) <= 16 else who[:15] + "…"
        words = options.text("replay_turn", n=end.number, total=total, name=shown)
    x = unit * 0.5
    if end.player is not None and not final:
        seat_disc(draw, end.player, (x + unit * 0.35, cy), unit * 0.35)
        x += unit * 0.95
    draw.text((x, cy), words, font=font, fill=pal.INK, anchor="lm")
    _scores(image, game, end, layout, unit, final)
    return image


def _scores(
    image: Image.Image, game: Game, end: TurnEnd, layout: Layout, unit: int, final: bool
) -> None:
    """Each seat's disc, name and score, ``layout.columns`` to a line; the seat that just
    played on a pale band."""
    draw = ImageDraw.Draw(image)
    font = pal.font(round(unit * 0.5))
    big = pal.font(round(unit * 0.62))
    scores = end.final if final and end.final is not None else end.scores
    top = layout.head_h + layout.board_h + unit // 4
    col_w = (layout.width - unit // 2) / layout.columns
    for player, name in enumerate(game.setup.players):
        line, col = divmod(player, layout.columns)
        x0 = unit // 4 + col * col_w
        cy = top + line * unit + unit / 2
        if player == end.player and not final:
            band = (x0, cy - unit * 0.46, x0 + col_w - unit * 0.2, cy + unit * 0.46)
            draw.rounded_rectangle(band, unit // 5, fill=(255, 240, 190))
        seat_disc(draw, player, (x0 + unit * 0.45, cy), unit * 0.32)
        score = str(scores[player])
        score_x = x0 + col_w - unit * 0.4
        draw.text((score_x, cy), score, font=big, fill=pal.INK, anchor="rm")
        room = score_x - draw.textlength(score, font=big) - unit * 0.3 - (x0 + unit * 0.9)
        shown = name
        while shown and draw.textlength(shown, font=font) > room:
            shown = shown[:-2] + "…" if len(shown) > 2 else ""
        draw.text((x0 + unit * 0.9, cy), shown, font=font, fill=pal.INK, anchor="lm")


@dataclass(frozen=True, slots=True)
class Replay:
    """An encoded replay: the WebP bytes, how many frames and turns it shows, its frame size."""

    webp: bytes
    frames: int
    turns: int
    size: tuple[int, int]


def replay_frames(
    record: Mapping[str, Any], options: RenderOptions | None = None
) -> Iterator[tuple[Image.Image, int]]:
    """Each frame of the replay of ``record`` with how long it shows (milliseconds)."""
    options = options or RenderOptions()
    final_game = Game.from_record(dict(record))
    layout = plan(final_game, options)
    series: ScoreSeries = score_series(record)
    total = series.turns
    for end, game in turn_ends(record):
        first = end.number == 0
        image = frame_picture(game, end, layout, options, total=total)
        ending = end.final is not None
        yield image, FIRST_MS if first else (TURN_MS if not ending else TURN_MS * 2)
        if ending:
            yield frame_picture(game, end, layout, options, total=total, final=True), LAST_MS


def encode_webp(
    frames: Sequence[Image.Image], durations: Sequence[int], quality: int = 80
) -> bytes:
    """An animated WebP of ``frames`` (looping), each shown ``durations`` ms.

    Lossy, every frame after the first stored as the rectangle that changed (no key frames:
    Discord plays a replay from its start). For a 6-player Abbey & Mayor game at 960 pixels:
    0.69 MB in 2.9 s of CPU, where Pillow's default key frame every 5 frames took 4.1 s for
    0.73 MB with one every 40, lossless 0.8 to 1.1 MB in twice the time, and method 0 or 1
    (libwebp's lighter efforts) saved under a second for 13 to 33 % more bytes.
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

    Above ``max_bytes`` (no game measured comes near :data:`REPLAY_LIMIT`: about 1 MB at most),
    it is encoded again at a lower quality, then with frames three quarters as wide.
    """
    frames: list[Image.Image] = []
    durations: list[int] = []
    for image, ms in replay_frames(record, options):
        frames.append(image)
        durations.append(ms)
    webp = encode_webp(frames, durations)
    if len(webp) > max_bytes:
        webp = encode_webp(frames, durations, quality=60)
    while len(webp) > max_bytes and frames[0].width > 240:
        size = (frames[0].width * 3 // 4, frames[0].height * 3 // 4)
        frames = [f.resize(size, Image.Resampling.LANCZOS) for f in frames]
        webp = encode_webp(frames, durations, quality=60)
    return Replay(webp, len(frames), score_series(record).turns, frames[0].size)
