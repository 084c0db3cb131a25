"""What the game waits for: the phases, the decision at hand, and the lazy legal-placement view."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.core.actions import PlaceTile
from engine.core.errors import IllegalActionError
from engine.core.fits import distinct_rotations
from engine.core.tiles import TileKind
from engine.core.values import quick_init

if TYPE_CHECKING:
    from engine.core.game import Game


class Phase(StrEnum):
    TILE = "tile"  # place the drawn tile (or one from the hand), or an abbey
    FIGURE = "figure"  # place a figure on the tile just placed, or pass
    WAGON = "wagon"  # move a freed wagon, or pass to take it back
    ABBEY_END = "abbey_end"  # after the last tile: place your abbey, or pass
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits for: who decides, what kind of decision, with which tile(s)."""

    phase: Phase
    player: int
    turn: int
    tile: str | None = None
    hand: tuple[str, ...] = ()


quick_init(Decision)


class LegalPlacements:
    """A lazy view of the legal tile placements: iterate, ``len`` and ``in`` without a list."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self._kinds = game.placeable_kinds()
        #: With an expansion's placement rule (a river), the board's counts no longer apply:
        #: the placements are listed once.
        self._listed: list[PlaceTile] | None = None
        for kind in self._kinds if game.restricts_placement else ():
            if game.restricts(kind):
                self._listed = list(self._iterate())
                break

    def _iterate(self) -> Iterator[PlaceTile]:
        with_name = self._game.hand_mode
        for kind in self._kinds:
            name = kind.name if with_name else None
            for (x, y), rotation in self._game.placements(kind):
                yield PlaceTile(x, y, rotation, name)

    def __iter__(self) -> Iterator[PlaceTile]:
        if self._listed is not None:
            return iter(self._listed)
        return self._iterate()

    def __len__(self) -> int:
        if self._listed is not None:
            return len(self._listed)
        board = self._game.board
        total = 0
        for kind in self._kinds:
            total += board.count_placements(kind)
        return total

    def __getitem__(self, index: int) -> PlaceTile:
        """The ``index``-th legal placement in iteration order, without listing the others."""
        if self._listed is not None:
            return self._listed[index]
        if index < 0:
            index += len(self)
        board = self._game.board
        with_name = self._game.hand_mode
        for kind in self._kinds:
            count = board.count_placements(kind)
            if index < count:
                (x, y), rotation = board.placement_at(kind, index)
                return PlaceTile(x, y, rotation, kind.name if with_name else None)
            index -= count
        raise IndexError("placement index out of range")

    def __bool__(self) -> bool:
        return any(self._game.has_placement(kind) for kind in self._kinds)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, PlaceTile):
            return False
        try:
            self._game.check_place_tile(action)
        except IllegalActionError:
            return False
        return True


def distinct_orientations(kind: TileKind) -> list[int]:
    """Rotations of a kind that look different (for rotation buttons)."""
    return sorted(distinct_rotations(kind))
