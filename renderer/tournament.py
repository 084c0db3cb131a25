"""Tournament pictures: the Swiss standings and the knockout bracket, drawn from plain data.

The renderer knows nothing of the bot: the bot turns its standings and brackets
(``bot.tournaments``) into the dataclasses below, which cross to a render worker as the
``standings`` and ``bracket`` jobs of :mod:`renderer.jobs`. Every text players read comes from
the ``tournament_picture`` catalog context; names are user input, so they are cleaned of
control characters and cut with "…" to the room they have (a letter the font lacks is drawn as
the font's empty box, never an error).

Phone first: every picture is :data:`WIDTH` pixels wide and its smallest text is
:func:`renderer.legible.least_font` of it, so capitals stay 11 px tall or more once a phone
shows it 400 px wide. Long fields are split into pages rather than shrunk:

- standings: at most :data:`ROWS` rows a page (pages of even length: 64 players make 4 pages of
  16), the next round's tables listed after the last row (on pages of their own when they do
  not fit);
- a bracket of 2-player matches: two rounds side by side (the current round and the next), at
  most :data:`FIRST_COLUMN` matches in the first of them per page, each page a part of the
  tree with its connectors; the rounds after follow on further pages, and the rounds already
  played are summed up in a line each on the first page ("Round 1: 16 matches played");
- a bracket of 3-5-player tables: the current round's tables (and the later ones given), each a
  box of its players with who goes on, at most :data:`ROWS` lines a page; earlier rounds summed
  up as above.

A finished bracket shows its last two rounds and the champion.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from PIL import Image, ImageDraw

import catalogs
from renderer import legible
from renderer import palette as pal
from renderer.encode import encode_png
from renderer.figures import mark
from renderer.phone_rows import shortened

#: Every tournament picture's width; its smallest font follows (32 px: 11.5 px capitals at 400).
WIDTH = 800
#: Lines (standings rows, table lines) a page holds at most.
ROWS = 20
#: First-column matches a bracket page holds at most (8: a part of the tree of 16 players).
FIRST_COLUMN = 8
#: The longest name kept before measuring (names are cut to their room anyway).
NAME_LIMIT = 64

PAD = 24
SMALL = legible.least_font(WIDTH)
BODY = SMALL + 2
TITLE = SMALL + 12
LINE = 56
WIN_FILL: pal.RGB = (255, 236, 170)
STRIPE: pal.RGB = (238, 233, 222)
BOX_FILL = pal.WHITE
GOES_ON: pal.RGB = (0, 128, 92)


# -- the plain input ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One player of the standings: ``points`` and ``buchholz`` in halves (Fractions),
    ``score`` the total game score, ``style`` the player's colour (an index of
    :data:`renderer.palette.PLAYER_COLOURS`) when they chose one."""

    position: int
    name: str
    points: Fraction
    buchholz: Fraction
    score: int
    style: int | None = None
    dropped: bool = False


@dataclass(frozen=True)
class StandingsTable:
    """The standings after ``round`` of ``rounds`` (``final``: the tournament is over), in
    standings order; ``tables``: the next round's tables as the players' names, the top table
    first (one name: a bye), listed under the standings; ``tables_round`` their round (default
    ``round + 1``)."""

    name: str
    round: int
    rounds: int
    rows: tuple[StandingRow, ...]
    final: bool = False
    tables: tuple[tuple[str, ...], ...] = ()
    tables_round: int | None = None


@dataclass(frozen=True)
class BracketPlayer:
    seed: int
    name: str


@dataclass(frozen=True)
class MatchView:
    """One match (2 players) or table (3-5) of a round: ``table`` its place in the round (1 =
    the top of the bracket: for 2 players the classic draw's, byes included), its ``players``
    in seed order, ``wins`` the series score (best of 3 or 5) and ``scores`` the game scores
    (tables), both aligned with ``players``; ``advancing`` the seeds going on once decided;
    ``bye``: a player alone, going on without playing."""

    table: int
    players: tuple[BracketPlayer, ...]
    wins: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    advancing: tuple[int, ...] | None = None
    bye: bool = False

    @property
    def decided(self) -> bool:
        return self.bye or self.advancing is not None


@dataclass(frozen=True)
class BracketView:
    """A knockout: ``size`` players per table, ``rounds_total`` rounds in all, the ``rounds``
    paired so far (the matches not given of a 2-player round are drawn from the previous
    round's winners, still to play), ``best_of`` games per 2-player match, ``advance`` players
    going on per table, and the ``champion`` once finished."""

    name: str
    size: int
    rounds_total: int
    rounds: tuple[tuple[MatchView, ...], ...]
    best_of: int = 1
    advance: int = 1
    champion: BracketPlayer | None = None


# -- shared drawing ----------------------------------------------------------------------------


def _text(key: str, lang: str, **values: object) -> str:
    return catalogs.text("tournament_picture", key, lang, **values)


def _count(key: str, n: int, lang: str, **values: object) -> str:
    return catalogs.plural("tournament_picture", key, n, lang, **values)


def clean_name(name: str) -> str:
    """A player's name as drawn: no control or format characters (bidirectional overrides,
    zero-width joiners), spaces collapsed, at most :data:`NAME_LIMIT` characters."""
    kept = "".join(
        " " if c.isspace() else c
        for c in str(name)[: NAME_LIMIT * 2]
        if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf", "Cs")
    )
    return " ".join(kept.split())[:NAME_LIMIT] or "?"


def fitted(draw: ImageDraw.ImageDraw, text: str, font: Any, room: float) -> str:
    """``text`` (a name: cleaned first) cut with "…" to fit ``room`` pixels."""
    return shortened(draw, clean_name(text), font, max(0.0, room))


def halves(value: Fraction | int | float) -> str:
    """Points as read: 3, ½, 2½ (other fractions, never made by the rules, to one decimal)."""
    f = Fraction(value)
    if (f * 2).denominator != 1:
        return f"{float(f):.1f}"
    whole, rest = divmod(f, 1)
    if not rest:
        return str(int(whole))
    return ("" if whole == 0 else str(int(whole))) + "½"


def _disc(draw: ImageDraw.ImageDraw, style: int, centre: tuple[float, float], r: float) -> None:
    colour = pal.PLAYER_COLOURS[style % len(pal.PLAYER_COLOURS)]
    symbol = pal.PLAYER_MARKS[style % len(pal.PLAYER_MARKS)]
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=pal.INK, width=2)
    mark(draw, symbol, (cx, cy), r * 0.55, pal.ink_on(colour))


def _heading(draw: ImageDraw.ImageDraw, title: str, lines: Sequence[str], page: str) -> float:
    """The tournament's name, the lines under it (muted), the page number at the right: the
    ``y`` below them."""
    title_font, small = pal.font(TITLE), pal.font(SMALL)
    y = PAD + TITLE / 2
    draw.text((PAD, y), fitted(draw, title, title_font, WIDTH - 2 * PAD), font=title_font,
              fill=pal.INK, anchor="lm")  # fmt: skip
    y += TITLE / 2 + 14
    for i, line in enumerate(lines):
        room: float = WIDTH - 2 * PAD
        if i == 0 and page:
            width = draw.textlength(page, font=small)
            draw.text((WIDTH - PAD, y + SMALL / 2), page, font=small, fill=pal.MUTED, anchor="rm")
            room -= width + 24
        shown = shortened(draw, line, small, room)
        draw.text((PAD, y + SMALL / 2), shown, font=small, fill=pal.MUTED, anchor="lm")
        y += SMALL + 14
    if not lines and page:
        draw.text((WIDTH - PAD, y + SMALL / 2), page, font=small, fill=pal.MUTED, anchor="rm")
        y += SMALL + 14
    return y + 6


def _page_label(page: int, pages: int, lang: str) -> str:
    return _text("page", lang, page=page + 1, pages=pages) if pages > 1 else ""


def _measure() -> ImageDraw.ImageDraw:
    return ImageDraw.Draw(Image.new("RGB", (1, 1)))


def _pill(draw: ImageDraw.ImageDraw, right: float, cy: float, text: str) -> float:
    """A muted word in a rounded box ending at ``right``: its left edge."""
    font = pal.font(SMALL)
    w = draw.textlength(text, font=font) + 20
    draw.rounded_rectangle((right - w, cy - SMALL * 0.62, right, cy + SMALL * 0.62), 10,
                           fill=pal.EMPTY_LINE)  # fmt: skip
    draw.text((right - w / 2, cy), text, font=font, fill=pal.INK, anchor="mm")
    return right - w


# -- the standings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    kind: str  # "row", "head" (the tables' title) or "table" (one line of a table)
    row: StandingRow | None = None
    text: str = ""


def _table_lines(table: StandingsTable, lang: str) -> list[_Line]:
    """The next round's tables as lines: a title, then each table (wrapped by names)."""
    if not table.tables:
        return []
    draw, font = _measure(), pal.font(BODY)
    room = WIDTH - 2 * PAD
    lines = [_Line("head", text=_text("tables_title", lang, round=table.tables_round
                                     or table.round + 1))]  # fmt: skip
    for n, names in enumerate(table.tables):
        label = _text("bye", lang) if len(names) == 1 else _text("table", lang, n=n + 1)
        line = f"{label}:"
        for name in names:
            shown = fitted(draw, name, font, room * 0.6)
            candidate = f"{line} {shown}" if line.endswith(":") else f"{line} · {shown}"
            if draw.textlength(candidate, font=font) <= room:
                line = candidate
            else:
                lines.append(_Line("table", text=line))
                line = f"    {shown}"
        lines.append(_Line("table", text=line))
    return lines


def _standings_pages(table: StandingsTable, lang: str) -> list[list[_Line]]:
    rows = [_Line("row", row=r) for r in table.rows]
    pages: list[list[_Line]] = []
    if rows:
        count = math.ceil(len(rows) / ROWS)
        per = math.ceil(len(rows) / count)
        pages = [rows[i : i + per] for i in range(0, len(rows), per)]
    extra = _table_lines(table, lang)
    if extra:
        if pages and len(pages[-1]) + len(extra) <= ROWS + 2:
            pages[-1] = pages[-1] + extra
        else:
            pages += [extra[i : i + ROWS] for i in range(0, len(extra), ROWS)]
    return pages or [[]]


def standings_page_count(table: StandingsTable, locale: str) -> int:
    """How many pictures :func:`standings_pictures` makes of ``table``."""
    return len(_standings_pages(table, catalogs.language(locale)))


def standings_image(table: StandingsTable, locale: str, page: int = 0) -> Image.Image:
    """Page ``page`` of the standings (see the module's docstring)."""
    lang = catalogs.language(locale)
    pages = _standings_pages(table, lang)
    lines = pages[page]
    font, small = pal.font(BODY), pal.font(SMALL)
    draw = _measure()
    headers = [_text(k, lang) for k in ("points", "buchholz", "score")]
    values = [
        [halves(r.points) for r in table.rows],
        [halves(r.buchholz) for r in table.rows],
        [str(r.score) for r in table.rows],
    ]
    widths = [
        max([draw.textlength(h, font=small)] + [draw.textlength(v, font=font) for v in vs])
        for h, vs in zip(headers, values, strict=True)
    ]
    rights: list[float] = []
    right = WIDTH - PAD - 8.0
    for w in reversed(widths):
        rights.insert(0, right)
        right -= w + 26
    name_end = right - 6
    longest = max([len(str(r.position)) for r in table.rows] + [1])
    pos_right = PAD + 8 + draw.textlength("8" * longest, font=font)
    styled = any(r.style is not None for r in table.rows)
    r_disc = 15
    name_x = pos_right + 18 + (2 * r_disc + 12 if styled else 0)
    sub = _text("final_standings", lang) if table.final else _text(
        "round_of", lang, round=table.round, rounds=table.rounds)  # fmt: skip
    with_rows = any(line.kind == "row" for line in lines)
    height = PAD + TITLE + 14 + SMALL + 20 + (LINE if with_rows else 0) + LINE * len(lines) + PAD
    image = Image.new("RGB", (WIDTH, round(height)), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = _heading(draw, table.name, [sub], _page_label(page, len(pages), lang))
    if with_rows:
        cy = y + LINE / 2
        draw.text((pos_right, cy), "#", font=small, fill=pal.MUTED, anchor="rm")
        for head, x in zip(headers, rights, strict=True):
            draw.text((x, cy), head, font=small, fill=pal.MUTED, anchor="rm")
        y += LINE
        draw.line((PAD, y, WIDTH - PAD, y), fill=pal.EMPTY_LINE, width=2)
    dropped = _text("dropped", lang)
    for i, line in enumerate(lines):
        cy = y + LINE / 2
        row = line.row
        if row is not None:
            if i % 2:
                draw.rectangle((PAD, y, WIDTH - PAD, y + LINE), fill=STRIPE)
            ink = pal.MUTED if row.dropped else pal.INK
            draw.text((pos_right, cy), str(row.position), font=font, fill=ink, anchor="rm")
            if row.style is not None:
                _disc(draw, row.style, (pos_right + 18 + r_disc, cy), r_disc)
            end = name_end
            if row.dropped:
                end = _pill(draw, name_end, cy, dropped) - 10
            shown = fitted(draw, row.name, font, end - name_x)
            draw.text((name_x, cy), shown, font=font, fill=ink, anchor="lm")
            cells = (halves(row.points), halves(row.buchholz), str(row.score))
            for text, x in zip(cells, rights, strict=True):
                draw.text((x, cy), text, font=font, fill=ink, anchor="rm")
        elif line.kind == "head":
            draw.text((PAD, cy + 6), line.text, font=font, fill=pal.INK, anchor="lm")
        else:
            draw.text((PAD + 8, cy), line.text, font=font, fill=pal.INK, anchor="lm")
        y += LINE
    return image


def standings_pictures(table: StandingsTable, locale: str) -> list[bytes]:
    """Every page of the standings as PNG bytes (one page up to :data:`ROWS` players)."""
    count = standings_page_count(table, locale)
    return [encode_png(standings_image(table, locale, p), full_colour=True) for p in range(count)]


# -- the bracket -------------------------------------------------------------------------------


def round_name(bracket: BracketView, index: int, lang: str) -> str:
    """Round ``index`` (0 = the first) by its name: the final, the semi-finals and the
    quarter-finals of a 2-player bracket, the final of tables, else "Round 2"."""
    left = bracket.rounds_total - 1 - index
    if left == 0:
        return _text("final", lang)
    if bracket.size == 2 and left == 1:
        return _text("semi_finals", lang)
    if bracket.size == 2 and left == 2:
        return _text("quarter_finals", lang)
    return _text("round", lang, n=index + 1)


@dataclass(frozen=True)
class _Box:
    """A 2-player match as drawn: its players (None: not known yet), their wins, who won."""

    players: tuple[BracketPlayer | None, ...]
    wins: tuple[int, ...] = ()
    winner: int | None = None  # the winner's seed
    bye: bool = False
    played: bool = False


def _winner(box: _Box) -> BracketPlayer | None:
    if box.bye:
        return box.players[0]
    return next((p for p in box.players if p is not None and p.seed == box.winner), None)


def _grid(bracket: BracketView) -> list[list[_Box]]:
    """Every 2-player match of every round in its place: given, or still to play with the
    players known so far."""
    grid: list[list[_Box]] = []
    for r in range(bracket.rounds_total):
        count = 1 << (bracket.rounds_total - 1 - r)
        given = {m.table: m for m in bracket.rounds[r]} if r < len(bracket.rounds) else {}
        boxes: list[_Box] = []
        for t in range(count):
            match = given.get(t + 1)
            if match is not None:
                winner = match.advancing[0] if match.advancing else None
                boxes.append(_Box(match.players, match.wins, winner, match.bye,
                                  any(match.wins) or winner is not None))  # fmt: skip
            elif r == 0:
                boxes.append(_Box((None, None)))
            else:
                above = grid[r - 1]
                boxes.append(_Box((_winner(above[2 * t]), _winner(above[2 * t + 1]))))
        grid.append(boxes)
    return grid


def _current(bracket: BracketView) -> int:
    """The first round with a match to play (the last round once finished)."""
    for r, matches in enumerate(bracket.rounds):
        if any(not m.decided for m in matches):
            return r
    if bracket.champion is not None or len(bracket.rounds) >= bracket.rounds_total:
        return max(0, bracket.rounds_total - 1)
    return len(bracket.rounds)


@dataclass(frozen=True)
class _Page:
    columns: tuple[int, ...]  # the rounds side by side
    block: int  # which part of the first column (FIRST_COLUMN matches each)
    items: tuple[tuple[int, int], ...] = ()  # tables: (round, table index) on this page


def _bracket_pages(bracket: BracketView) -> list[_Page]:
    if bracket.size != 2:
        return _table_pages(bracket)
    current = _current(bracket)
    finished = bracket.champion is not None
    start = max(0, bracket.rounds_total - 2) if finished else current
    rounds = list(range(start, bracket.rounds_total))
    pages: list[_Page] = []
    for i in range(0, len(rounds), 2):
        columns = tuple(rounds[i : i + 2])
        first = 1 << (bracket.rounds_total - 1 - columns[0])
        for block in range(math.ceil(first / FIRST_COLUMN)):
            pages.append(_Page(columns, block))
    return pages or [_Page((0,), 0)]


def _table_pages(bracket: BracketView) -> list[_Page]:
    start = min(_current(bracket), len(bracket.rounds) - 1) if bracket.rounds else 0
    pages: list[list[tuple[int, int]]] = [[]]
    used = 0
    for r in range(start, len(bracket.rounds)):
        for t, match in enumerate(bracket.rounds[r]):
            lines = len(match.players) + 2
            if used and used + lines > ROWS:
                pages.append([])
                used = 0
            pages[-1].append((r, t))
            used += lines
    return [_Page((), 0, tuple(items)) for items in pages]


def bracket_page_count(bracket: BracketView) -> int:
    """How many pictures :func:`bracket_pictures` makes of ``bracket``."""
    return len(_bracket_pages(bracket))


def _summary(bracket: BracketView, upto: int, lang: str) -> list[str]:
    """A line for each round before ``upto``: how many matches or tables were played."""
    key = "matches_played" if bracket.size == 2 else "tables_played"
    lines = []
    for r in range(min(upto, len(bracket.rounds))):
        played = sum(1 for m in bracket.rounds[r] if not m.bye)
        lines.append(_count(key, played, lang, round=round_name(bracket, r, lang)))
    return lines


def _about(bracket: BracketView, lang: str) -> str:
    if bracket.size == 2:
        return _text("best_of", lang, n=bracket.best_of) if bracket.best_of > 1 else ""
    return _text("advance", lang, n=bracket.advance)


def bracket_image(bracket: BracketView, locale: str, page: int = 0) -> Image.Image:
    """Page ``page`` of the bracket (see the module's docstring)."""
    lang = catalogs.language(locale)
    pages = _bracket_pages(bracket)
    shown = pages[page]
    first = shown.columns[0] if shown.columns else (shown.items[0][0] if shown.items else 0)
    lines = [t for t in [_about(bracket, lang)] if t]
    if page == 0:
        lines += _summary(bracket, first, lang)
    last = page == len(pages) - 1
    champion = bracket.champion if last else None
    label = _page_label(page, len(pages), lang)
    if bracket.size == 2:
        return _tree_page(bracket, shown, lines, label, champion, lang)
    return _tables_page(bracket, shown, lines, label, champion, lang)


def _champion_height(champion: BracketPlayer | None) -> int:
    return LINE + 24 if champion is not None else 0


def _draw_champion(draw: ImageDraw.ImageDraw, y: float, champion: BracketPlayer, lang: str) -> None:
    font = pal.font(TITLE - 4)
    box = (PAD, y + 8, WIDTH - PAD, y + 8 + LINE)
    draw.rounded_rectangle(box, 14, fill=WIN_FILL, outline=pal.INK, width=2)
    room = WIDTH - 2 * PAD - 40 - draw.textlength(_text("champion", lang, name=""), font=font)
    name = fitted(draw, champion.name, font, room)
    draw.text((WIDTH / 2, y + 8 + LINE / 2), _text("champion", lang, name=name), font=font,
              fill=pal.INK, anchor="mm")  # fmt: skip


def _head_height(lines: Sequence[str], label: str) -> float:
    count = len(lines) or (1 if label else 0)
    return PAD + TITLE + 14 + count * (SMALL + 14) + 6


def _tree_page(
    bracket: BracketView,
    page: _Page,
    lines: list[str],
    label: str,
    champion: BracketPlayer | None,
    lang: str,
) -> Image.Image:
    grid = _grid(bracket)
    columns = page.columns
    gap = 48
    col_w = (WIDTH - 2 * PAD - gap * (len(columns) - 1)) / len(columns)
    first = grid[columns[0]]
    lo = page.block * FIRST_COLUMN
    count = min(FIRST_COLUMN, len(first) - lo)
    row_h = 52
    box_h = 2 * row_h + 8
    unit = box_h + 28
    top = _head_height(lines, label)
    body = top + LINE + unit * count
    height = body + _champion_height(champion) + PAD
    image = Image.new("RGB", (WIDTH, round(height)), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    _heading(draw, bracket.name, lines, label)
    small = pal.font(SMALL)
    for c, r in enumerate(columns):
        x0 = PAD + c * (col_w + gap)
        name = round_name(bracket, r, lang)
        draw.text((x0, top + LINE / 2), shortened(draw, name, small, col_w), font=small,
                  fill=pal.MUTED, anchor="lm")  # fmt: skip
        span = unit * (1 << c)
        first_t = lo >> c
        for i in range(max(1, count >> c)):
            t = first_t + i
            if t >= len(grid[r]):
                break
            cy = top + LINE + span * (i + 0.5)
            box = grid[r][t]
            _match_box(draw, box, (x0, cy - box_h / 2, x0 + col_w, cy + box_h / 2), lang)
            if c + 1 < len(columns):
                # The connector to the next round's match.
                x1, xm = x0 + col_w, x0 + col_w + gap / 2
                ny = top + LINE + span * 2 * (i // 2 + 0.5)
                draw.line((x1, cy, xm, cy), fill=pal.MUTED, width=3)
                draw.line((xm, cy, xm, ny), fill=pal.MUTED, width=3)
                if i % 2 == 0:
                    draw.line((xm, ny, x1 + gap, ny), fill=pal.MUTED, width=3)
    if champion is not None:
        _draw_champion(draw, body, champion, lang)
    return image


def _match_box(
    draw: ImageDraw.ImageDraw, box: _Box, rect: tuple[float, float, float, float], lang: str
) -> None:
    x0, y0, x1, y1 = rect
    draw.rounded_rectangle(rect, 12, fill=BOX_FILL, outline=pal.INK, width=2)
    font, small = pal.font(BODY), pal.font(SMALL)
    row_h = (y1 - y0 - 8) / 2
    seed_w = draw.textlength("88", font=small) + 14
    entries: list[BracketPlayer | None] = list(box.players)
    if box.bye:
        entries = entries[:1]
    while len(entries) < 2 and not box.bye:
        entries.append(None)
    for i in range(2):
        top = y0 + 4 + i * row_h
        cy = top + row_h / 2
        if box.bye and i == 1:
            draw.text((x0 + 14 + seed_w, cy), _text("bye", lang), font=small, fill=pal.MUTED,
                      anchor="lm")  # fmt: skip
            continue
        player = entries[i]
        if player is None:
            draw.text((x0 + 14 + seed_w, cy), "—", font=font, fill=pal.MUTED, anchor="lm")
            continue
        won = box.winner == player.seed or box.bye
        lost = box.winner is not None and not won
        if won and not box.bye:
            draw.rounded_rectangle((x0 + 4, top + 2, x1 - 4, top + row_h - 2), 9, fill=WIN_FILL)
        ink = pal.MUTED if lost else pal.INK
        draw.text((x0 + 12 + seed_w - 14, cy), str(player.seed), font=small, fill=pal.MUTED,
                  anchor="rm")  # fmt: skip
        right = x1 - 14
        if box.wins and box.played and i < len(box.wins):
            wins = str(box.wins[i])
            draw.text((right, cy), wins, font=font, fill=ink, anchor="rm")
            right -= draw.textlength("8", font=font) + 14
        shown = fitted(draw, player.name, font, right - (x0 + 14 + seed_w))
        draw.text((x0 + 14 + seed_w, cy), shown, font=font, fill=ink, anchor="lm")
    if not box.bye:
        mid = y0 + 4 + row_h
        draw.line((x0 + 10, mid, x1 - 10, mid), fill=pal.EMPTY_LINE, width=2)


def _tables_page(
    bracket: BracketView,
    page: _Page,
    lines: list[str],
    label: str,
    champion: BracketPlayer | None,
    lang: str,
) -> Image.Image:
    top = _head_height(lines, label)
    rounds_on = sorted({r for r, _ in page.items})
    heights = sum(LINE * (len(bracket.rounds[r][t].players) + 1) + 20 for r, t in page.items)
    height = top + LINE * len(rounds_on) + heights + _champion_height(champion) + PAD
    image = Image.new("RGB", (WIDTH, round(height)), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    _heading(draw, bracket.name, lines, label)
    font, small = pal.font(BODY), pal.font(SMALL)
    y = top
    shown_round = None
    seed_w = draw.textlength("88", font=small) + 14
    for r, t in page.items:
        if r != shown_round:
            draw.text((PAD, y + LINE / 2), round_name(bracket, r, lang), font=font, fill=pal.INK,
                      anchor="lm")  # fmt: skip
            y += LINE
            shown_round = r
        match = bracket.rounds[r][t]
        box_h = LINE * (len(match.players) + 1)
        draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + box_h), 12, fill=BOX_FILL,
                               outline=pal.INK, width=2)  # fmt: skip
        draw.text((PAD + 16, y + LINE / 2), _text("table", lang, n=match.table), font=small,
                  fill=pal.MUTED, anchor="lm")  # fmt: skip
        going = set(match.advancing or ())
        final = r == bracket.rounds_total - 1
        players = list(match.players)
        scores = list(match.scores)
        if final and match.advancing:
            # The final table: its players in their places, the winner alone emphasised.
            place = {seed: i for i, seed in enumerate(match.advancing)}
            order = sorted(range(len(players)), key=lambda i: place.get(players[i].seed, 99))
            players = [players[i] for i in order]
            scores = [scores[i] for i in order] if len(scores) == len(order) else scores
            going = {match.advancing[0]}
        for i, player in enumerate(players):
            row_top = y + LINE * (i + 1)
            cy = row_top + LINE / 2
            won = player.seed in going
            lost = match.advancing is not None and player.seed not in match.advancing
            if won:
                draw.rounded_rectangle((PAD + 4, row_top + 3, WIDTH - PAD - 4, row_top + LINE - 3),
                                       9, fill=WIN_FILL)  # fmt: skip
            if won and not final:
                # An arrow: this player goes on.
                ax = WIDTH - PAD - 22
                draw.polygon([(ax - 14, cy - 12), (ax + 2, cy), (ax - 14, cy + 12)], fill=GOES_ON)
            ink = pal.MUTED if lost else pal.INK
            draw.text((PAD + seed_w, cy), str(player.seed), font=small, fill=pal.MUTED,
                      anchor="rm")  # fmt: skip
            right: float = WIDTH - PAD - 52
            if scores and i < len(scores):
                draw.text((right, cy), str(scores[i]), font=font, fill=ink, anchor="rm")
                right -= draw.textlength("888", font=font) + 20
            name_x = PAD + seed_w + 16
            shown = fitted(draw, player.name, font, right - name_x)
            draw.text((name_x, cy), shown, font=font, fill=ink, anchor="lm")
        y += box_h + 20
    if champion is not None:
        _draw_champion(draw, y - 12, champion, lang)
    return image


def bracket_pictures(bracket: BracketView, locale: str) -> list[bytes]:
    """Every page of the bracket as PNG bytes."""
    count = bracket_page_count(bracket)
    return [encode_png(bracket_image(bracket, locale, p), full_colour=True) for p in range(count)]
