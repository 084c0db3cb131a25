"""A game's squares kept drawn between its pictures, so that a move redraws only what it changed.

A turn picture's board is the squares (empty ones, dead ones crossed out, the tiles), then what
is drawn over them (the last tile's frame, the figures, the lettered squares). Between two
pictures of a game only a tile or two and a few dead squares change, so a render worker keeps,
per game it drew lately (:class:`Canvas`), the squares of a part of the board a little larger
than the part shown (:class:`Squares`); the next picture adds the new tiles and dead squares,
cuts its part out and draws the figures and letters over it. The picture is the same bytes as
the whole picture drawn afresh (``tests/renderer/test_layers.py`` plays whole games of every
family and compares after every move).

Only the drawing is saved: the picture is still mapped to the palette whole. Pillow maps a
picture through a cache of the colours met that it builds afresh at each call, so mapping the
changed boxes one by one costs more than mapping the picture once.

What the kept squares show is checked against the board each time, not trusted: a tile gone or
changed, a dead square alive again, a part outside the one kept, another tile size, and the
squares are drawn again from the board (as for a game seen for the first time).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.core.board import PlacedTile
from engine.core.tiles import Oriented
from renderer import palette as pal
from renderer.board import Box, Frame, Pos, cross_out, grid
from renderer.tileart import tile_image

#: Squares kept around the part shown, on every side: the part moves with the last tile.
MARGIN = 2
#: The bytes of kept squares a worker holds at most, all games together (least recently drawn
#: games dropped first): about 5 games with a part of 13 by 16 squares of 73 pixels, more of
#: smaller boards. Enough for the live games of a quiet bot, whose moves come seconds apart; on
#: a busy one a game's next move comes after hundreds of others' (play-by-post games after
#: thousands) and is drawn whole whatever the budget (``python -m benchmarks.load`` prints the
#: share of pictures that found their squares), so more memory would buy nothing.
BUDGET = 32 * 1024 * 1024


class Squares:
    """The squares of a part of one board at one tile size, as drawn, with the tiles and dead
    squares they show."""

    def __init__(self, tile: int) -> None:
        self.tile = tile
        self.area: tuple[int, int, int, int] = (0, 0, 0, 0)  # min x, min y, columns, rows
        self.rgb: Image.Image | None = None
        self.tiles: dict[Pos, Oriented] = {}
        self.dead: set[Pos] = set()
        self.drawn = 0  # times drawn whole
        self.reused = 0  # times brought up to date

    @property
    def nbytes(self) -> int:
        # Pillow keeps an RGB pixel in 4 bytes.
        return 0 if self.rgb is None else self.rgb.width * self.rgb.height * 4

    def __call__(
        self, frame: Frame, tiles: Mapping[Pos, PlacedTile], dead: Sequence[Pos]
    ) -> Image.Image:
        """The picture of ``frame``'s squares (as :func:`renderer.board.draw_board` draws them
        for that frame) from every tile and dead square of the board."""
        if frame.tile != self.tile:
            raise ValueError(f"squares of {self.tile} px asked for {frame.tile} px")
        want = (frame.min_x, frame.min_y, frame.cols, frame.rows)
        if self._holds(want) and self._update(tiles, dead):
            self.reused += 1
        else:
            self._draw(want, tiles, dead)
            self.drawn += 1
        return self._cut(frame)

    def _holds(self, want: tuple[int, int, int, int]) -> bool:
        ax, ay, ac, ar = self.area
        wx, wy, wc, wr = want
        inside = ax <= wx and ay <= wy and wx + wc <= ax + ac and wy + wr <= ay + ar
        return self.rgb is not None and inside

    def _inside(self, pos: Pos) -> bool:
        ax, ay, ac, ar = self.area
        return ax <= pos[0] < ax + ac and ay <= pos[1] < ay + ar

    def _box(self, pos: Pos) -> Box:
        t = self.tile
        x0, y0 = (pos[0] - self.area[0]) * t, (pos[1] - self.area[1]) * t
        return (x0, y0, x0 + t, y0 + t)

    def _draw(
        self, want: tuple[int, int, int, int], tiles: Mapping[Pos, PlacedTile], dead: Sequence[Pos]
    ) -> None:
        wx, wy, wc, wr = want
        self.area = (wx - MARGIN, wy - MARGIN, wc + 2 * MARGIN, wr + 2 * MARGIN)
        t, (_, _, cols, rows) = self.tile, self.area
        self.rgb = Image.new("RGB", (cols * t + 1, rows * t + 1), pal.BACKGROUND)
        draw = ImageDraw.Draw(self.rgb)
        grid(draw, 0, 0, cols, rows, t)
        self.dead = {pos for pos in dead if self._inside(pos)}
        for pos in self.dead:
            cross_out(draw, self._box(pos), t)
        self.tiles = {}
        for pos, placed in tiles.items():
            if self._inside(pos):
                self.rgb.paste(tile_image(placed.oriented, t), self._box(pos)[:2])
                self.tiles[pos] = placed.oriented

    def _update(self, tiles: Mapping[Pos, PlacedTile], dead: Sequence[Pos]) -> bool:
        """Bring the kept squares up to ``tiles`` and ``dead``; False if they cannot be (a tile
        gone or changed, a dead square neither dead nor a tile any more)."""
        for pos, oriented in self.tiles.items():
            placed = tiles.get(pos)
            if placed is None or not (placed.oriented is oriented or placed.oriented == oriented):
                return False
        now_dead = {pos for pos in dead if self._inside(pos)}
        if any(pos not in now_dead and pos not in tiles for pos in self.dead):
            return False
        assert self.rgb is not None
        draw = ImageDraw.Draw(self.rgb)
        for pos in now_dead - self.dead:
            if pos not in tiles:
                cross_out(draw, self._box(pos), self.tile)
        self.dead = now_dead
        for pos, placed in tiles.items():
            if pos not in self.tiles and self._inside(pos):
                # A tile covers its whole square, a dead square's cross included.
                self.rgb.paste(tile_image(placed.oriented, self.tile), self._box(pos)[:2])
                self.tiles[pos] = placed.oriented
        return True

    def _cut(self, frame: Frame) -> Image.Image:
        """The frame's squares out of the kept ones, in a frame's margins, closed by the lines
        right of and under them (a tile beyond the frame covers those in the kept squares)."""
        assert self.rgb is not None
        t = self.tile
        left = (frame.min_x - self.area[0]) * t
        top = (frame.min_y - self.area[1]) * t
        # One copy: the frame's margins come out of the kept squares too (MARGIN squares of
        # them round the part), then are blanked.
        width, height = frame.size
        x, y = left - frame.left, top - frame.top
        image = self.rgb.crop((x, y, x + width, y + height))
        draw = ImageDraw.Draw(image)
        right, bottom = frame.left + frame.cols * t, frame.top + frame.rows * t
        for blank in (
            (0, 0, width - 1, frame.top - 1),
            (0, bottom + 1, width - 1, height - 1),
            (0, 0, frame.left - 1, height - 1),
            (right + 1, 0, width - 1, height - 1),
        ):
            draw.rectangle(blank, fill=pal.BACKGROUND)
        draw.line((right, frame.top, right, bottom), fill=pal.EMPTY_LINE)
        draw.line((frame.left, bottom, right, bottom), fill=pal.EMPTY_LINE)
        return image


class Canvas:
    """What a worker keeps of one game between its pictures: its squares, by tile size (the
    part shown and the close-ups of far squares may differ), the last two sizes used."""

    def __init__(self, key: str | None = None) -> None:
        #: The game it is kept for in :class:`Canvases` (None: a canvas of its own).
        self.key = key
        self._squares: OrderedDict[int, Squares] = OrderedDict()
        #: Held while a picture draws on the canvas (pictures of one game may come from two
        #: threads of the bot when it has no workers).
        self.lock = threading.Lock()
        #: The bytes :class:`Canvases` counted for this canvas when it last trimmed.
        self.counted = 0

    def squares(self, tile: int) -> Squares:
        found = self._squares.pop(tile, None) or Squares(tile)
        self._squares[tile] = found
        while len(self._squares) > 2:
            self._squares.popitem(last=False)
        return found

    def sizes(self) -> tuple[int, ...]:
        """The tile sizes whose squares are kept, least recently used first."""
        return tuple(self._squares)

    @property
    def nbytes(self) -> int:
        return sum(s.nbytes for s in self._squares.values())


class Canvases:
    """The canvases of the games a worker drew lately, by game (a record's setup), least recently
    drawn dropped first past :data:`BUDGET` bytes; with how often a picture found its game's."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self._kept: OrderedDict[str, Canvas] = OrderedDict()
        self._lock = threading.Lock()
        self._total = 0  # the bytes counted of the kept canvases
        self.found = 0
        self.missed = 0

    def canvas(self, key: str) -> Canvas:
        """The canvas of game ``key`` (a new one if none is kept), kept as the most recent."""
        with self._lock:
            found = self._kept.pop(key, None)
            if found is None:
                found = Canvas(key)
                self.missed += 1
            else:
                self.found += 1
            self._kept[key] = found
            return found

    def trim(self, drawn: Canvas) -> None:
        """Count the bytes of canvas ``drawn`` as they are now, then drop the least recently
        drawn canvases until the rest fit in the budget (the last one is always kept)."""
        with self._lock:
            if drawn.key is not None and self._kept.get(drawn.key) is drawn:
                self._total += drawn.nbytes - drawn.counted
                drawn.counted = drawn.nbytes
            while self._total > self.budget and len(self._kept) > 1:
                _, dropped = self._kept.popitem(last=False)
                self._total -= dropped.counted
                dropped.counted = 0

    @property
    def nbytes(self) -> int:
        """The bytes of the kept canvases, as counted when each was last drawn."""
        return self._total

    def __len__(self) -> int:
        return len(self._kept)
