"""The viewer's game code: a whole game in a few hundred URL-safe characters.

The code is one big number written in base64url after a version character and two characters of
the fingerprint of the tables it was made with (:func:`checksum`). It is built with
range coding on big integers (rANS without renormalisation: exact, as Python's and JavaScript's
integers are unbounded): each decision is a symbol coded with the frequencies the decoder can
compute too, so a likely symbol costs little. What is coded, turn by turn, is what the viewer
shows (:mod:`renderer.viewer.turns`): who played (a builder's second tile is a turn of the same
player); each tile's kind, against the tiles left (river tiles first while any is left); its
square and rotation, as one of the placements that fit the board's edges (the tables of
:mod:`renderer.viewer.tables`); the pieces taken back, as places in the list of pieces standing;
the pieces put down, as options of their tile (large followers, builders, pigs too); the score
changes (Traders & Builders' goods majorities at the end among them). Models of small choices adapt
as the game goes (how many pieces a turn places, who scores, how much). ``viewer.js`` decodes
the same symbols in the same order: the two must change together (bump :data:`VERSION`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from renderer import families
from renderer import palette as pal
from renderer.viewer.tables import VARIANTS, Variant, fingerprint, variant, variant_of
from renderer.viewer.turns import GameTurns, spot_number

#: The code's format; its character leads every code (``ALPHABET[VERSION]``).
VERSION = 2
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
#: The fingerprint of the page's tables is coded below this (12 bits).
CHECK_SPACE = 4096
#: Fingerprints of earlier tables whose codes this page reads the same: 3651, the tables of
#: the first Big Box pages (their figure spots were still fingerprinted; nothing else differs).
EARLIER = (3651,)
MAX_PLAYERS = 8
MAX_NAME = 32
MAX_TURNS = 4096
#: Characters of names with their weights; any other character is coded as a code point.
NAME_CHARS = (
    ("abcdefghijklmnopqrstuvwxyz", 6),
    ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 3),
    ("0123456789", 2),
    (" _-.'", 1),
)
#: How many more counts an adaptive model gives a symbol each time it is seen.
STEP = 8
#: A tile kind's weight per tile left (plus one, so that any kind can be coded).
KIND_WEIGHT = 16
#: While river tiles are left, a river tile kind's weight is this many times more (The River:
#: the river is laid first; the other kinds keep a little weight for an abbey or a closed river).
RIVER_BOOST = 256
#: A fitting placement's weight against the one of "elsewhere" (coded square by square).
FIT_WEIGHT = 32
#: Squares coded raw (a placement that fits nothing known) lie within this many of (0, 0).
RAW_SPAN = 256
#: Pieces a turn may take back or put down (more: the code refuses the game).
MAX_PIECES = 64
#: Score changes: buckets of magnitude (bit length), positive then negative.
BUCKETS = 24
#: The game's fingerprint is folded modulo this prime.
HASH_MOD = 65521
#: Seat styles (colour and mark) a seat may be drawn in.
STYLES = len(pal.PLAYER_COLOURS)


def constants() -> dict[str, Any]:
    """The codec's constants as the page reads them."""
    return {
        "version": VERSION,
        "alphabet": ALPHABET,
        "checkSpace": CHECK_SPACE,
        "maxPlayers": MAX_PLAYERS,
        "maxName": MAX_NAME,
        "maxTurns": MAX_TURNS,
        "nameChars": [list(group) for group in NAME_CHARS],
        "step": STEP,
        "kindWeight": KIND_WEIGHT,
        "riverBoost": RIVER_BOOST,
        "fitWeight": FIT_WEIGHT,
        "rawSpan": RAW_SPAN,
        "maxPieces": MAX_PIECES,
        "buckets": BUCKETS,
        "hashMod": HASH_MOD,
        "styles": STYLES,
    }


@cache
def checksum() -> int:
    """The fingerprint of the tables and constants a code was made with."""
    return fingerprint(constants(), CHECK_SPACE)


class CodeError(ValueError):
    """A game the code cannot carry (too many players, pieces or turns)."""


class Writer:
    """Collects symbols (cumulative frequency, frequency, total), then writes the number."""

    def __init__(self) -> None:
        self.symbols: list[tuple[int, int, int]] = []

    def weighted(self, value: int, freqs: Sequence[int]) -> None:
        if not 0 <= value < len(freqs) or freqs[value] <= 0:
            raise CodeError(f"symbol {value} cannot be coded with {len(freqs)} frequencies")
        self.symbols.append((sum(freqs[:value]), freqs[value], sum(freqs)))

    def uniform(self, value: int, n: int) -> None:
        if not 0 <= value < n:
            raise CodeError(f"{value} is out of range 0..{n - 1}")
        if n > 1:
            self.symbols.append((value, 1, n))

    def finish(self, check: int) -> str:
        """The code: version letter, two letters of the tables' fingerprint, the number."""
        x = 0
        for cum, freq, total in reversed(self.symbols):
            x = (x // freq) * total + cum + x % freq
        digits: list[str] = []
        while x:
            x, digit = divmod(x, 64)
            digits.append(ALPHABET[digit])
        head = ALPHABET[VERSION] + ALPHABET[check // 64] + ALPHABET[check % 64]
        return head + "".join(reversed(digits))


class Adaptive:
    """A choice among ``n`` whose frequencies follow what was coded so far."""

    def __init__(self, n: int) -> None:
        self.counts = [1] * n

    def write(self, writer: Writer, value: int) -> None:
        writer.weighted(value, self.counts)
        self.counts[value] += STEP


Square = tuple[int, int]
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


class BoardModel:
    """The board as the decoder knows it: tiles by square, in the order they were laid."""

    def __init__(self, tables: Variant) -> None:
        self.tables = tables
        self.edges = [k.edges for k in tables.kinds]
        self.tiles: dict[Square, tuple[int, int]] = {}
        self.order: list[Square] = []
        self.bounds = None if tables.bounds is None else set(tables.bounds)

    def lay(self, kind: int, square: Square, rotation: int) -> None:
        self.tiles[square] = (kind, rotation)
        self.order.append(square)

    def letter(self, square: Square, side: int) -> str | None:
        """The edge letter of the tile at ``square`` on ``side`` (0 N, 1 E, 2 S, 3 W)."""
        found = self.tiles.get(square)
        if found is None:
            return None
        kind, rotation = found
        return self.edges[kind][(side - rotation // 90) % 4]

    def matches(self, mine: str, theirs: str) -> bool:
        if self.tables.match == "paths":
            return (mine == "P") == (theirs == "P")
        return mine == theirs or "*" in (mine, theirs)

    def frontier(self) -> list[Square]:
        """Empty squares beside a tile (inside the castle's interior), north to south."""
        found = {
            (x + dx, y + dy)
            for x, y in self.tiles
            for dx, dy in STEPS
            if (x + dx, y + dy) not in self.tiles
        }
        if self.bounds is not None:
            found &= self.bounds
        return sorted(found, key=lambda s: (s[1], s[0]))

    def fits(self, kind: int) -> list[tuple[Square, int]]:
        """Every (square, rotation) where a ``kind`` tile's edges match its neighbours'."""
        edges = self.edges[kind]
        out: list[tuple[Square, int]] = []
        for square in self.frontier():
            x, y = square
            around = [
                self.letter((x + dx, y + dy), (side + 2) % 4) for side, (dx, dy) in enumerate(STEPS)
            ]
            for turns in range(4):
                if all(
                    theirs is None or self.matches(edges[(side - turns) % 4], theirs)
                    for side, theirs in enumerate(around)
                ):
                    out.append((square, turns * 90))
        return out


class GameWriter:
    """Writes one game's symbols in the order ``viewer.js`` reads them."""

    def __init__(self, turns: GameTurns, styles: Sequence[int]) -> None:
        self.turns = turns
        self.index = variant_of(turns.variant)
        self.tables = variant(self.index)
        self.players = len(turns.names)
        if not 1 <= self.players <= MAX_PLAYERS:
            raise CodeError(f"the viewer shows 1 to {MAX_PLAYERS} players, not {self.players}")
        self.styles = tuple(styles) or tuple(range(self.players))
        self.w = Writer()
        self.board = BoardModel(self.tables)
        n = self.players
        self.left = [k.count * (n if k.abbey else 1) for k in self.tables.kinds]
        self.river = [self.tables.river(k) for k in range(len(self.tables.kinds))]
        self.standing: list[families.Piece] = []
        self.hash = 0
        self.m_player, self.m_tiles = Adaptive(2), Adaptive(8)
        self.m_returns, self.m_placed = Adaptive(16), Adaptive(8)
        self.m_target, self.m_owner = Adaptive(2), Adaptive(2)
        self.m_scored, self.m_amount = Adaptive(n + 1), Adaptive(BUCKETS)
        self.m_final, self.m_final_amount = Adaptive(n + 1), Adaptive(BUCKETS)

    def write(self, names: Sequence[str]) -> str:
        w, n = self.w, self.players
        w.uniform(self.index, len(VARIANTS))
        w.uniform(n - 1, MAX_PLAYERS)
        default = self.styles == tuple(range(n))
        w.uniform(0 if default else 1, 2)
        if not default:
            for style in self.styles:
                w.uniform(style % STYLES, STYLES)
        for name in names:
            self.name(name[:MAX_NAME])
        w.uniform(1 if self.turns.final is not None else 0, 2)
        turns = self.turns.turns
        w.uniform(len(turns) - 1, MAX_TURNS)
        self.start(turns[0])
        expected = 0
        previous = turns[0].scores
        self.pieces(turns[0].returned, turns[0].placed, 0, 0)
        self.scores(turns[0].scores, [0] * n, self.m_scored, self.m_amount)
        for turn in turns[1:]:
            self.m_player.write(w, 0 if turn.player == expected else 1)
            if turn.player != expected:
                w.uniform(turn.player, n)
            expected = (turn.player + 1) % n
            if len(turn.tiles) >= 8:
                raise CodeError("a turn lays at most 7 tiles")
            self.m_tiles.write(w, len(turn.tiles))
            for kind, x, y, rotation in turn.tiles:
                self.tile(self.tables.kind_index(kind), (x, y), rotation)
            self.pieces(turn.returned, turn.placed, turn.player, len(turn.tiles))
            self.scores(turn.scores, previous, self.m_scored, self.m_amount)
            previous = turn.scores
        if self.turns.final is not None:
            self.scores(self.turns.final, previous, self.m_final, self.m_final_amount)
        # Read last: a damaged or cut code decodes to a game whose fingerprint differs.
        w.uniform(self.hash % CHECK_SPACE, CHECK_SPACE)
        return w.finish(checksum())

    def name(self, name: str) -> None:
        self.w.uniform(len(name), MAX_NAME + 1)
        chars = "".join(group for group, _ in NAME_CHARS)
        freqs = [weight for group, weight in NAME_CHARS for _ in group] + [1]
        for char in name:
            at = chars.find(char)
            self.w.weighted(len(chars) if at < 0 else at, freqs)
            if at < 0:
                self.w.uniform(ord(char), 0x110000)

    def start(self, turn: Any) -> None:
        """The start tiles: the variant's own (one symbol), or each written out."""
        laid = tuple((self.tables.kind_index(k), x, y, r) for k, x, y, r in turn.tiles)
        default = laid == self.tables.setup
        self.w.uniform(0 if default else 1, 2)
        if not default:
            self.w.uniform(len(laid), 64)
            for kind, x, y, rotation in laid:
                self.w.uniform(kind, len(self.tables.kinds))
                self.raw(x, y, rotation)
        for kind, x, y, rotation in laid:
            self.lay(kind, (x, y), rotation)

    def lay(self, kind: int, square: Square, rotation: int) -> None:
        self.board.lay(kind, square, rotation)
        self.left[kind] -= 1
        x, y = square
        self.mix(kind + (x + 128) * 64 + (y + 128) * 16384 + rotation // 90)

    def mix(self, value: int) -> None:
        """Fold a decoded fact into the game's fingerprint (``viewer.js`` folds the same)."""
        self.hash = (self.hash * 31 + value) % HASH_MOD

    def raw(self, x: int, y: int, rotation: int) -> None:
        half = RAW_SPAN // 2
        if not (-half <= x < half and -half <= y < half):
            raise CodeError(f"square ({x}, {y}) is too far from the start")
        self.w.uniform(x + half, RAW_SPAN)
        self.w.uniform(y + half, RAW_SPAN)
        self.w.uniform(rotation // 90, 4)

    def tile(self, kind: int, square: Square, rotation: int) -> None:
        self.w.weighted(kind, self.kind_freqs())
        fits = self.board.fits(kind)
        freqs = [FIT_WEIGHT] * len(fits) + [1]
        if (square, rotation) in fits:
            self.w.weighted(fits.index((square, rotation)), freqs)
        else:
            self.w.weighted(len(fits), freqs)
            self.raw(*square, rotation)
        self.lay(kind, square, rotation)

    def kind_freqs(self) -> list[int]:
        """Each tile kind's weight: by the tiles left, river tiles first while any is left."""
        flowing = any(c > 0 for c, r in zip(self.left, self.river, strict=True) if r)
        return [
            (KIND_WEIGHT * max(c, 0) + 1) * (RIVER_BOOST if flowing and r else 1)
            for c, r in zip(self.left, self.river, strict=True)
        ]

    def pieces(
        self,
        returned: Sequence[families.Piece],
        placed: Sequence[families.Piece],
        player: int,
        laid: int,
    ) -> None:
        w = self.w
        if len(returned) > MAX_PIECES or len(placed) > MAX_PIECES:
            raise CodeError(f"a turn moves at most {MAX_PIECES} pieces")
        count = len(returned)
        self.m_returns.write(w, min(count, 15))
        if count >= 15:
            w.uniform(count - 15, MAX_PIECES)
        for piece in returned:
            at = self.standing.index(piece)
            w.uniform(at, len(self.standing))
            del self.standing[at]
        self.m_placed.write(w, min(len(placed), 7))
        if len(placed) >= 7:
            w.uniform(len(placed) - 7, MAX_PIECES)
        for piece in placed:
            self.piece(piece, player, laid)
            self.standing.append(piece)

    def piece(self, piece: families.Piece, player: int, laid: int) -> None:
        w = self.w
        order = self.board.order
        if piece.pos not in self.board.tiles:
            raise CodeError(f"a piece stands on an empty square {piece.pos}")
        on_last = laid > 0 and piece.pos == order[-1]
        if laid > 0:
            self.m_target.write(w, 0 if on_last else 1)
        if not on_last:
            w.uniform(order.index(piece.pos), len(order))
        kind = self.board.tiles[piece.pos][0]
        options = self.tables.options[kind]
        roles = self.tables.roles
        option = (spot_number(piece.spot), roles.index(piece.role) if piece.role in roles else -1)
        if option in options:
            w.uniform(options.index(option), len(options) + 1)
        else:
            w.uniform(len(options), len(options) + 1)
            if option[1] < 0:
                raise CodeError(f"the viewer does not draw {piece.role!r} pieces")
            w.uniform(option[0], 128)
            w.uniform(option[1], len(roles))
        self.m_owner.write(w, 0 if piece.player == player else 1)
        if piece.player != player:
            w.uniform(piece.player, self.players)

    def scores(
        self,
        now: Sequence[int],
        before: Sequence[int],
        count: Adaptive,
        amounts: Adaptive,
    ) -> None:
        """Who scored and how much: the seats in order among those left, then each change."""
        w = self.w
        changed = [seat for seat in range(self.players) if now[seat] != before[seat]]
        count.write(w, len(changed))
        seats = list(range(self.players))
        for seat in changed:
            w.uniform(seats.index(seat), len(seats))
            seats.remove(seat)
        for seat in changed:
            delta = now[seat] - before[seat]
            size = abs(delta).bit_length()
            if size > BUCKETS // 2:
                raise CodeError(f"a score changed by {delta}")
            amounts.write(w, size - 1 + (BUCKETS // 2 if delta < 0 else 0))
            w.uniform(abs(delta) - (1 << (size - 1)), 1 << (size - 1))
        for score in now:
            self.mix(score + 100_000)


def encode(turns: GameTurns, styles: Sequence[int] = (), limit: int | None = None) -> str:
    """The code of a game; with ``limit``, names are shortened (longest first) until it fits.

    Raises :class:`CodeError` when the game cannot be coded (or not within ``limit`` even with
    one letter per name), ValueError for a family the viewer does not show.
    """
    names = [name[:MAX_NAME] for name in turns.names]
    while True:
        code = GameWriter(turns, styles).write(names)
        if limit is None or len(code) <= limit:
            return code
        longest = max(range(len(names)), key=lambda i: len(names[i]))
        if len(names[longest]) <= 1:
            raise CodeError(f"the game's code is {len(code)} characters, over {limit}")
        names[longest] = names[longest][:-1]
