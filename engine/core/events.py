"""Events: facts the engine reports after each action, for narration, rendering and tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.values import quick_init


@dataclass(frozen=True, slots=True, init=False)
class TilePlaced:
    player: int
    kind: str
    x: int
    y: int
    rotation: int

    def __init__(self, player: int, kind: str, x: int, y: int, rotation: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "rotation", rotation)


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    """A drawn tile had no legal placement anywhere and left the game."""

    player: int
    kind: str


@dataclass(frozen=True, slots=True, init=False)
class FigurePlaced:
    player: int
    figure: str
    role: str  # knight, thief, monk, farmer, mayor, wagon, barn, ...
    x: int
    y: int
    at: int | str

    def __init__(self, player: int, figure: str, role: str, x: int, y: int, at: int | str) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "figure", figure)
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "at", at)


@dataclass(frozen=True, slots=True, init=False)
class FigureReturned:
    player: int
    figure: str
    x: int
    y: int

    def __init__(self, player: int, figure: str, x: int, y: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "figure", figure)
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


@dataclass(frozen=True, slots=True)
class WagonMoved:
    """A freed wagon moved on to a touching unfinished feature (Abbey & Mayor)."""

    player: int
    x: int
    y: int
    at: int | str


@dataclass(frozen=True, slots=True)
class GoodsTaken:
    """Traders & Builders: the player who completed a city took its trade-goods tokens
    (``goods``: wine, grain, cloth -> tokens), whoever owned the city."""

    player: int
    goods: dict[str, int]
    #: Where the city is (one of its tiles).
    where: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True, init=False)
class FeatureScored:
    """A feature (or a barn, a field...) was scored; ``points`` maps player -> points won.

    ``marks`` names what on the feature changed its value, as the expansion that owns it calls
    it (Inns & Cathedrals: ``("inn",)`` on a road, ``("cathedral",)`` on a city); empty otherwise.
    """

    feature: str
    points: dict[int, int]
    final: bool
    tiles: int = 0
    pennants: int = 0
    complete: bool = True
    #: Where the feature is (one of its tiles), for narration and highlighting.
    where: tuple[int, int] = (0, 0)
    details: dict[str, Any] = field(default_factory=dict)
    marks: tuple[str, ...] = ()

    def __init__(
        self,
        feature: str,
        points: dict[int, int],
        final: bool,
        tiles: int = 0,
        pennants: int = 0,
        complete: bool = True,
        where: tuple[int, int] = (0, 0),
        details: dict[str, Any] | None = None,
        marks: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "feature", feature)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "final", final)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "pennants", pennants)
        object.__setattr__(self, "complete", complete)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "details", dict() if details is None else details)
        object.__setattr__(self, "marks", marks)


@dataclass(frozen=True, slots=True, init=False)
class TurnStarted:
    player: int
    turn: int

    def __init__(self, player: int, turn: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "turn", turn)


@dataclass(frozen=True, slots=True)
class BonusTileDrawn:
    """Hunters & Gatherers: a gold forest earned the placer a bonus tile, to play now."""

    player: int
    kind: str


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """The player lost their turn (a timeout); the tile went back under the stack."""

    player: int
    kind: str | None


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The player forfeited: their figures stay on the board but count and score nothing."""

    player: int


@dataclass(frozen=True, slots=True)
class WallTileTaken:
    """The Castle: a score marker stopped exactly on a corner tower and took its wall tile."""

    player: int
    wall: int
    #: The track space the marker stopped on (0-99).
    space: int


@dataclass(frozen=True, slots=True)
class WallTileUsed:
    """The Castle: a wall tile was played (``where`` names the tower or house for tiles 2, 3)."""

    player: int
    wall: int
    where: tuple[int, int] | None = None
    at: int | str | None = None


@dataclass(frozen=True, slots=True)
class PalacePlaced:
    """The Castle: a player's palace went to (or moved to) a completed house of ``tiles`` tiles."""

    player: int
    x: int
    y: int
    tiles: int
    moved: bool


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


for _value in (
    TilePlaced,
    TileDiscarded,
    FigurePlaced,
    FigureReturned,
    WagonMoved,
    GoodsTaken,
    FeatureScored,
    TurnStarted,
    BonusTileDrawn,
    TurnSkipped,
    PlayerLeft,
    WallTileTaken,
    WallTileUsed,
    PalacePlaced,
    GameEnded,
):
    quick_init(_value)

Event = (
    TilePlaced
    | TileDiscarded
    | FigurePlaced
    | FigureReturned
    | WagonMoved
    | GoodsTaken
    | FeatureScored
    | TurnStarted
    | BonusTileDrawn
    | TurnSkipped
    | PlayerLeft
    | WallTileTaken
    | WallTileUsed
    | PalacePlaced
    | GameEnded
)
