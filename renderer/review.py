"""The picture of one reviewed decision: the move played beside the best move (issue 56).

A game's review (``ai.review``, which this module never imports) values each tile decision
against the best the expert finds. One decision's picture shows, made for a phone
(:data:`renderer.phone.WIDTH` wide, every text and figure sized as the phone pictures are):

- the turn and the player (their seat's mark and name);
- a panel per move, the move played then the best one, one under the other: its words and its
  value (points of expected final margin), then the board around the placement as it was
  before the decision with the move's tile framed and its figures on it. Both panels show the
  same squares (when they are near enough), so that the eye compares them in place;
- the points lost, and one sentence of why (given by the caller, in the player's language).

A hint is the same picture without the move played (``played`` empty): the best move alone
on the position now.

The board before the decision is the record replayed up to the moment's first action; each
move is played on a copy of it for its tiles, and its figures are drawn from its own actions
(the figures an immediate scoring would send home stay in the picture). A family drawing its
own board (The Castle) draws the part through its ``review`` hook
(:func:`renderer.families.pictures`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

import catalogs
from engine import Game
from engine.core.actions import PlaceAbbey, PlaceFigure, PlaceTile, action_from_json
from engine.core.board import Figure
from engine.core.game import Phase
from renderer import families, legend
from renderer import palette as pal
from renderer.board import Pos, Window, draw_board
from renderer.encode import encode_png
from renderer.legible import least_font
from renderer.options import RenderOptions
from renderer.phone import MAX_TILE, TEXT, WIDTH, board_options, wrapped

#: The catalogs' context of the picture's words.
CONTEXT = "review_picture"
#: The squares shown around the placements: at least this many across and down; both panels
#: show the same squares while the two moves fit within :data:`SHARED` (across, down), each
#: its own otherwise (a taller picture would push the second panel off a phone's screen).
LEAST = (5, 3)
SHARED = (7, 5)
#: The sign of a negative value.
MINUS = "\N{MINUS SIGN}"


class MomentLike(Protocol):
    """What the picture reads of a reviewed decision (``ai.review.Moment`` has it)."""

    @property
    def index(self) -> int: ...  # the index in the record's actions of the turn's first action
    @property
    def turn(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def played(self) -> Sequence[Mapping[str, Any]]: ...  # record actions; empty for a hint
    @property
    def best(self) -> Sequence[Mapping[str, Any]]: ...
    @property
    def played_value(self) -> float: ...
    @property
    def best_value(self) -> float: ...
    @property
    def loss(self) -> float: ...


@dataclass(frozen=True)
class MomentData:
    """A decision as plain data (a picture job's ``extra["moment"]``, :func:`moment_extra`)."""

    index: int
    turn: int
    seat: int
    played: tuple[Mapping[str, Any], ...]
    best: tuple[Mapping[str, Any], ...]
    played_value: float
    best_value: float
    loss: float

    @classmethod
    def of(cls, moment: MomentLike) -> MomentData:
        return cls(
            int(moment.index),
            int(moment.turn),
            int(moment.seat),
            tuple(dict(a) for a in moment.played),
            tuple(dict(a) for a in moment.best),
            float(moment.played_value),
            float(moment.best_value),
            float(moment.loss),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "turn": self.turn,
            "seat": self.seat,
            "played": [dict(a) for a in self.played],
            "best": [dict(a) for a in self.best],
            "played_value": self.played_value,
            "best_value": self.best_value,
            "loss": self.loss,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MomentData:
        return cls(
            int(data["index"]),
            int(data["turn"]),
            int(data["seat"]),
            tuple(dict(a) for a in data.get("played", ())),
            tuple(dict(a) for a in data["best"]),
            float(data.get("played_value", 0.0)),
            float(data["best_value"]),
            float(data.get("loss", 0.0)),
        )


def moment_extra(
    moment: MomentLike, *, why: str, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The ``extra`` of a ``review`` picture job (:mod:`renderer.jobs`): plain, picklable."""
    extra: dict[str, Any] = {"moment": MomentData.of(moment).to_json(), "why": why}
    if names is not None:
        extra["names"] = list(names)
    return extra


def word(lang: str, key: str, **values: object) -> str:
    return catalogs.text(CONTEXT, key, lang, **values)


def points(value: float, lang: str, *, signed: bool = True) -> str:
    """A value in points with one decimal, as the language writes it (3.2, 3,2), signed."""
    shown = format_decimal(abs(value), format="0.0", locale=catalogs.language(lang))
    if not signed or shown.strip("0.,") == "":
        return shown
    return f"+{shown}" if value > 0 else f"{MINUS}{shown}"


# -- the moves ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A move drawn: the game after its tile (or abbey), its squares and its figures."""

    game: Game
    squares: tuple[Pos, ...]
    figures: tuple[Figure, ...]


def game_before(record: Mapping[str, Any], index: int) -> Game:
    """The game of ``record`` replayed up to its action ``index`` (not played)."""
    actions = list(record.get("actions", []))
    if not 0 <= index <= len(actions):
        raise ValueError(f"no action {index} in a record of {len(actions)} actions")
    return Game.from_record({**record, "actions": actions[:index]})


def play_move(before: Game, seat: int, actions: Sequence[Mapping[str, Any]]) -> Move:
    """``actions`` played on a copy of ``before``: the tiles once placed, and the figures of
    ``before`` with the move's own figures (as its actions place them)."""
    game = before.fork()
    squares: list[Pos] = []
    placed: list[Figure] = []
    tiles = game
    for raw in actions:
        action = action_from_json(dict(raw))
        if isinstance(action, PlaceFigure):
            under = tiles.board.tiles.get((action.x, action.y))
            local = under.oriented.feature_at(action.at) if under is not None else -1
            placed.append(Figure(seat, action.figure, (action.x, action.y), local, action.at))
        if game.phase is Phase.OVER:
            break
        game.play(action)
        if isinstance(action, PlaceTile | PlaceAbbey):
            squares.append((action.x, action.y))
            # The tiles as they lie once placed, before the turn's end may score anything.
            tiles = game.fork()
    if not squares:
        raise ValueError("a reviewed move places a tile")
    return Move(tiles, tuple(squares), (*before.figures(), *placed))


def window_around(squares: Sequence[Pos]) -> Window:
    """The squares around ``squares``: one more each way, at least :data:`LEAST`."""
    xs, ys = [p[0] for p in squares], [p[1] for p in squares]
    cols, rows = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    grow_x, grow_y = max(0, LEAST[0] - cols), max(0, LEAST[1] - rows)
    return (
        min(xs) - 1 - grow_x // 2,
        min(ys) - 1 - grow_y // 2,
        cols + grow_x,
        rows + grow_y,
    )


def windows_for(squares: Sequence[Pos]) -> list[Window]:
    """The parts of the board a move shows: one around all its squares when they fit within
    :data:`SHARED`, else one around each (a bonus tile placed far from the turn's tile)."""
    whole = window_around(squares)
    if whole[2] <= SHARED[0] and whole[3] <= SHARED[1]:
        return [whole]
    return [window_around([pos]) for pos in squares]


def board_region(move: Move, window: Window, options: RenderOptions) -> Image.Image:
    """The squares of ``window`` with ``move`` on them, :data:`renderer.phone.WIDTH` wide at
    most (the family's own board through its ``review`` hook)."""
    tile = max(24, min(MAX_TILE, (WIDTH - 8) // window[2]))
    opts = board_options(options, window, tile)
    own = families.pictures(move.game.setup.game).review
    if own is not None:
        image: Image.Image = own(move.game, move.figures, move.squares, window, opts)
        return image
    image, frame = draw_board(
        move.game.board.tiles,
        move.figures,
        opts,
        last=move.squares[-1],
        window=window,
    )
    draw = ImageDraw.Draw(image)
    for pos in move.squares[:-1]:  # a turn's other tile (a bonus tile): framed the same way
        frame_square(draw, frame.box(pos), tile)
    return image


def frame_square(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tile: int) -> None:
    """The frame the board draws round the last tile."""
    w = max(3, tile // 22)
    x0, y0, x1, y1 = box
    draw.rectangle((x0 - 1, y0 - 1, x1, y1), outline=pal.INK, width=w + 2)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=pal.HIGHLIGHT, width=w)


# -- the picture --------------------------------------------------------------------------------

PAD = 18
#: Colours of the two panels' headings: the move played, the best move.
PLAYED_INK: pal.RGB = (150, 40, 30)
BEST_INK: pal.RGB = (20, 100, 40)


def _lines(text: str, size: int) -> list[str]:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return wrapped(measure, text, pal.font(size), WIDTH - 2 * PAD)


def _text_part(
    lines: Sequence[str], size: int, ink: pal.RGB = pal.INK, *, gap: int = 10
) -> Image.Image:
    step = round(size * 1.25)
    image = Image.new("RGB", (WIDTH, gap + step * len(lines) + gap), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        at = (PAD, gap + i * step + step // 2)
        draw.text(at, line, font=pal.font(size), fill=ink, anchor="lm")
    return image


def _title(family: str, seat: int, name: str, turn: int, lang: str) -> Image.Image:
    """The seat's mark, then the turn and the player's name."""
    size = round(TEXT * 1.15)
    mark = legend.sample(f"seat:{seat}", family, round(size * 1.9))
    height = mark.height + 2 * PAD
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    image.paste(mark, (PAD, PAD), mark)
    draw = ImageDraw.Draw(image)
    x = PAD + mark.width + PAD
    lines = wrapped(draw, word(lang, "title", turn=turn, player=name), pal.font(size), WIDTH - x)
    step = round(size * 1.2)
    top = height // 2 - (len(lines) - 1) * step // 2
    for i, line in enumerate(lines):
        draw.text((x, top + i * step), line, font=pal.font(size), fill=pal.INK, anchor="lm")
    draw.line((0, height - 2, WIDTH, height - 2), fill=pal.EMPTY_LINE, width=2)
    return image


def _boards(move: Move, windows: Sequence[Window], options: RenderOptions) -> Image.Image:
    """The parts of the board ``move`` shows, one under the other."""
    drawn = [board_region(move, window, options) for window in windows]
    width = max(d.width for d in drawn)
    height = sum(d.height for d in drawn) + PAD * (len(drawn) - 1)
    image = Image.new("RGB", (width, height), pal.BACKGROUND)
    y = 0
    for part in drawn:
        image.paste(part, ((width - part.width) // 2, y))
        y += part.height + PAD
    return image


def _panel(heading: str, ink: pal.RGB, board: Image.Image) -> Image.Image:
    size = round(TEXT * 1.1)
    head = _text_part(_lines(heading, size), size, ink, gap=12)
    image = Image.new("RGB", (WIDTH, head.height + board.height + PAD), pal.BACKGROUND)
    image.paste(head, (0, 0))
    image.paste(board, ((WIDTH - board.width) // 2, head.height))
    return image


def moment_image(
    record: Mapping[str, Any],
    moment: MomentLike,
    locale: str,
    *,
    why: str,
    names: Sequence[str] | None = None,
    options: RenderOptions | None = None,
) -> Image.Image:
    """The picture of :func:`moment_picture`, as an image."""
    lang = catalogs.language(locale)
    options = dataclasses.replace(options or RenderOptions(), lang=lang)
    before = game_before(record, moment.index)
    players = list(names) if names is not None else list(before.setup.players)
    name = players[moment.seat] if 0 <= moment.seat < len(players) else str(moment.seat + 1)
    best = play_move(before, moment.seat, moment.best)
    played = play_move(before, moment.seat, moment.played) if moment.played else None
    family = before.setup.game
    parts = [_title(family, moment.seat, name, moment.turn + 1, lang)]
    small = max(TEXT, least_font(WIDTH))
    if played is None:
        heading = word(lang, "hint")  # a hint is the computer's choice: no value to show
        parts.append(_panel(heading, BEST_INK, _boards(best, windows_for(best.squares), options)))
    else:
        shared = window_around([*played.squares, *best.squares])
        fits = shared[2] <= SHARED[0] and shared[3] <= SHARED[1]
        heading = word(lang, "played", value=points(moment.played_value, lang))
        seen = [shared] if fits else windows_for(played.squares)
        parts.append(_panel(heading, PLAYED_INK, _boards(played, seen, options)))
        heading = word(lang, "best", value=points(moment.best_value, lang))
        seen = [shared] if fits else windows_for(best.squares)
        parts.append(_panel(heading, BEST_INK, _boards(best, seen, options)))
        lost = word(lang, "lost", value=points(moment.loss, lang, signed=False))
        parts.append(_text_part(_lines(lost, round(TEXT * 1.1)), round(TEXT * 1.1)))
    if why.strip():
        parts.append(_text_part(_lines(why, TEXT), TEXT))
    if played is not None:
        parts.append(_text_part(_lines(word(lang, "scale"), small), small, pal.MUTED, gap=PAD))
    height = sum(p.height for p in parts)
    image = Image.new("RGB", (WIDTH, height), pal.BACKGROUND)
    y = 0
    for part in parts:
        image.paste(part, (0, y))
        y += part.height
    return image


def moment_picture(
    record: Mapping[str, Any],
    moment: MomentLike,
    locale: str,
    *,
    why: str,
    names: Sequence[str] | None = None,
    options: RenderOptions | None = None,
) -> bytes:
    """PNG of one reviewed decision of the game of ``record`` (see the module's text), in the
    language of ``locale``: ``why`` is the sentence saying why the best move is better,
    already in that language; ``names`` the players' names by seat (the record's without)."""
    image = moment_image(record, moment, locale, why=why, names=names, options=options)
    family = str(record.get("game", "carcassonne"))
    return encode_png(image, family=family)
