"""What a game family adds to the common drawing, registered by the family's own modules.

The common modules (board, tile art, figures, phone pictures, end pictures, PNG encoding) ask
this registry and never import a family's module; The Castle's and Hunters & Gatherers' modules
register here when :mod:`renderer` is imported (its ``__init__`` imports them last). A new family
or expansion draws its own tiles, figures or pictures by registering the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.core.tiles import Oriented


@dataclass(frozen=True)
class FamilyPictures:
    """A family's own whole pictures, each replacing the common one when set."""

    board: Callable[..., Image.Image] | None = None
    phone: Callable[..., Any] | None = None
    end: Callable[..., Image.Image] | None = None
    palette_sheet: Callable[[], Image.Image] | None = None
    #: A reviewed move's part of the board (:mod:`renderer.review`): (game after the move's
    #: tile, figures to draw, the move's squares, window, options) -> the window's squares.
    review: Callable[..., Image.Image] | None = None
    #: The end table's categories in order, with their words: options -> (order, labels).
    categories: Callable[[Any], tuple[Sequence[str], Mapping[str, str]]] | None = None


_PICTURES: dict[str, FamilyPictures] = {}
Accepts = Callable[[Oriented], bool]
#: Tile art: the first family whose test accepts an oriented tile draws it, (family, test, draw);
#: the common code caches the result under the family's name.
TILE_ART: list[tuple[str, Accepts, Callable[[Oriented, int], Image.Image]]] = []
#: Tile images a family caches itself (test, image at a size), used before :data:`TILE_ART`.
TILE_IMAGES: list[tuple[Accepts, Callable[[Oriented, int], Image.Image]]] = []
#: Each family's in-memory cache of tile layouts (the shapes found by search), by family, for
#: the disk cache of :mod:`renderer.artcache`.
LAYOUT_CACHES: dict[str, dict[Any, Any]] = {}
#: Figure spots of a family's tiles (test, local feature -> point in tile units).
TILE_SPOTS: list[tuple[Accepts, Callable[[Oriented], Mapping[int, tuple[float, float]]]]] = []
#: How a figure kind is drawn on a tile (kind -> function of figure and tile -> role or None).
FIGURE_ROLES: dict[str, Callable[[Any, Oriented], str | None]] = {}
#: Figure drawers by role (role -> function of seat, role, tile size -> RGBA icon).
FIGURE_ART: dict[str, Callable[[int, str, int], Image.Image]] = {}


@dataclass(frozen=True, slots=True)
class Piece:
    """A figure as a picture drawn figure by figure shows it (the browser viewer): the seat,
    the role it is drawn as, its square and its spot there (a local feature index of the tile,
    or a corner name ``NW``... for a barn)."""

    player: int
    role: str
    pos: tuple[int, int]
    spot: int | str


@dataclass(frozen=True, slots=True)
class FamilyPieces:
    """A family's pieces when they are not the common figures (The Castle's palaces): every
    piece of a game, the role a figure on an oriented tile is drawn as, and the icon of a seat's
    role for a tile size."""

    pieces: Callable[[Any], list[Piece]]
    role: Callable[[Any, Oriented], str]
    icon: Callable[[int, str, int], Image.Image]


#: A family's own legend samples (:mod:`renderer.legend`): family -> a mark's head (``seat``,
#: ``figure``, ``palace``...) -> a function of the mark's rest (a seat, a role; "" for none) and
#: a size, giving the mark drawn in an RGBA square of that size.
LEGEND: dict[str, dict[str, Callable[[str, int], Image.Image]]] = {}

#: Family -> its own pieces; unset: :mod:`renderer.figures` draws the family's figures.
PIECES: dict[str, FamilyPieces] = {}


def register_pictures(family: str, **hooks: Any) -> None:
    """Set some of ``family``'s pictures (``board``, ``phone``, ``end``, ``palette_sheet``,
    ``review``...)."""
    _PICTURES[family] = dataclasses.replace(_PICTURES.get(family, FamilyPictures()), **hooks)


def pictures(family: str) -> FamilyPictures:
    """The pictures ``family`` draws itself (none set: the common ones)."""
    return _PICTURES.get(family, FamilyPictures())
