"""What the viewer shows of a game, turn by turn, read from the engine's replay of its record.

Each turn (:func:`engine.core.timeline.turn_ends`) says who played, the tiles laid (in order;
Hunters & Gatherers' bonus tile makes two), the pieces taken back and put down (a moved wagon or
palace is both), and everyone's score then; a finished game adds the final scores. The codec
encodes exactly this, and the browser tests compare the page against it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import Game
from engine.core.tiles import CORNERS
from engine.core.timeline import turn_ends
from renderer import families
from renderer.figures import role_of

#: A tile as laid: kind, x, y, rotation (degrees).
Laid = tuple[str, int, int, int]
#: Corner spots (a barn's) after the local feature indices: spot = CORNER_BASE + corner index.
CORNER_NAMES = tuple(CORNERS)
CORNER_BASE = 100


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: who played it (the start: seat 0), tiles laid, pieces returned and placed,
    the scores after it."""

    player: int
    tiles: tuple[Laid, ...]
    returned: tuple[families.Piece, ...]
    placed: tuple[families.Piece, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameTurns:
    """A whole game as the viewer shows it: ``turns[0]`` is the start (its tiles the start
    tiles); ``final`` the scores after the end-of-game scoring, None when not finished."""

    game: str
    expansions: tuple[str, ...]
    names: tuple[str, ...]
    turns: tuple[Turn, ...]
    final: tuple[int, ...] | None

    @property
    def variant(self) -> str:
        return variant_key(self.game, self.expansions)


def variant_key(game: str, expansions: tuple[str, ...]) -> str:
    """The page's name for a game family with its expansions (``carcassonne+abbey_mayor``)."""
    return "+".join((game, *sorted(expansions)))


def spot_of(figure: Any) -> int | str:
    """A figure's spot: its local feature, or its corner for a barn."""
    if isinstance(figure.at, str) and figure.at in CORNERS:
        return str(figure.at)
    return int(figure.local)


def pieces(game: Game) -> list[families.Piece]:
    """Every figure on the board as the viewer draws it (a family's own, or the common ones)."""
    own = families.PIECES.get(game.setup.game)
    if own is not None:
        return own.pieces(game)
    tiles = game.board.tiles
    return [
        families.Piece(f.player, role_of(f, tiles[f.pos].oriented), f.pos, spot_of(f))
        for f in game.figures()
        if f.pos in tiles
    ]


def spot_number(spot: int | str) -> int:
    """A spot as a number: the local feature, or :data:`CORNER_BASE` + the corner's index."""
    return CORNER_BASE + CORNER_NAMES.index(spot) if isinstance(spot, str) else spot


def game_turns(record: Mapping[str, Any]) -> GameTurns:
    """Replay ``record`` and read each turn (errors are the engine's, see ``turn_ends``)."""
    turns: list[Turn] = []
    standing: list[families.Piece] = []
    laid: set[tuple[int, int]] = set()
    final = None
    game: Game | None = None
    for end, game in turn_ends(record):
        new_tiles = tuple(
            (t.oriented.kind, x, y, t.oriented.rotation)
            for (x, y), t in game.board.tiles.items()
            if (x, y) not in laid
        )
        laid.update((x, y) for _, x, y, _ in new_tiles)
        now = pieces(game)
        left = Counter(now)
        kept: list[families.Piece] = []
        returned: list[families.Piece] = []
        for piece in standing:
            if left[piece] > 0:
                left[piece] -= 1
                kept.append(piece)
            else:
                returned.append(piece)
        placed: list[families.Piece] = []
        for piece in now:
            if left[piece] > 0:
                left[piece] -= 1
                placed.append(piece)
        standing = kept + placed
        player = end.player if end.player is not None else 0
        turns.append(Turn(player, new_tiles, tuple(returned), tuple(placed), end.scores))
        if end.final is not None:
            final = end.final
    assert game is not None
    setup = game.setup
    return GameTurns(setup.game, tuple(setup.expansions), tuple(setup.players), tuple(turns), final)
