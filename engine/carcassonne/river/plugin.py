"""The River as a plug-in of Carcassonne: the spring to start, the river tiles first, the lake.

RULES.md section 5. The stack is arranged once (:meth:`River.arrange_stack`): the spring on top as
the start tile, then the 10 river tiles in their shuffled order, then the lake, then the normal
stack with the base start tile shuffled into it. A river tile must continue the river: it goes on
the square where the river flows out, with its river edge facing it (the edges see to that); the
river may not turn twice in a row the same way (a U-turn), nor flow into a placed tile. The river
is a feature nobody stands on and nothing scores (it splits fields in the tile data).

The plug-in follows the river on the board lazily: the open end advances whenever a tile lies on
it, so its state needs no hook of its own and forks and replays rebuild it from the board.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.errors import IllegalActionError
from engine.core.expansion import Expansion
from engine.core.tiles import EDGE_NAMES, EDGE_STEPS, TileKind, load_set

if TYPE_CHECKING:
    from engine.core.board import Pos
    from engine.core.game import Game

NAME = "river"
WATER = "W"
STRAIGHT, RIGHT, LEFT = 0, 1, 3
TURN_WORDS = {RIGHT: "right", LEFT: "left"}


def _marked(mark: str) -> str:
    kinds = load_set(NAME)
    return next(k.name for k in kinds if any(f.extra.get(mark) for f in k.features))


def _outflow(edges: str, back: int) -> int | None:
    """The edge through which the river leaves a tile entered through ``back``, if any."""
    key = (edges, back)
    if key not in _OUTFLOWS:
        _OUTFLOWS[key] = next((e for e in range(4) if e != back and edges[e] == WATER), None)
    return _OUTFLOWS[key]


#: (edges, edge entered) -> :func:`_outflow`.
_OUTFLOWS: dict[tuple[str, int], int | None] = {}


class River(Expansion):
    """The river in one game: its open end, the way it flows there, its last turn."""

    name: ClassVar[str] = NAME
    tile_set: ClassVar[str | None] = NAME

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.kinds = frozenset(k.name for k in load_set(NAME))
        self.spring = _marked("spring")
        self.lake = _marked("lake")
        #: The empty square the river flows into, or None once it ends (or never started).
        self.end: Pos | None = None
        #: The edge (0-3, N E S W) through which the river leaves the tile before ``end``.
        self.heading = 0
        #: How the last river tile turned: STRAIGHT, RIGHT or LEFT.
        self.last_turn = STRAIGHT
        self._started = False

    # -- setup ------------------------------------------------------------------------------

    def arrange_stack(self, stack: list[str]) -> list[str]:
        """Spring on top (the start tile), river tiles, lake, then the rest with the base start
        tile shuffled in. A forced ``draw`` is kept as it is."""
        if self.game.setup.draw is not None or not stack:
            return stack
        start, pool = stack[-1], stack[:-1]
        rest = [name for name in pool if name not in self.kinds]
        flowing = [
            name for name in pool if name in self.kinds and name not in (self.spring, self.lake)
        ]
        lakes = [name for name in pool if name == self.lake]
        springs = [name for name in pool if name == self.spring]
        rng = random.Random(f"{NAME}:{self.game.setup.seed}")
        rest.insert(rng.randrange(len(rest) + 1), start)
        return rest + lakes + flowing + springs[:1]

    def first_kinds(self) -> tuple[str, ...]:
        flowing = [k.name for k in load_set(NAME) if k.name not in (self.spring, self.lake)]
        return (self.spring, *flowing, self.lake)

    # -- placement --------------------------------------------------------------------------

    def restricts(self, kind: TileKind) -> bool:
        return kind.name in self.kinds

    def placement_squares(self, kind: TileKind) -> tuple[Pos, ...] | None:
        if kind.name not in self.kinds:
            return None
        self._follow()
        return () if self.end is None else (self.end,)

    def placement_refusal(
        self, kind: TileKind, rotation: int, pos: Pos
    ) -> IllegalActionError | None:
        if kind.name not in self.kinds:
            return None
        self._follow()
        if self.end is None:
            return IllegalActionError(
                f"the river has no open end any more: tile {kind.name} cannot be placed",
                "river_closed",
                tile=kind.name,
            )
        x, y = self.end
        if pos != self.end or kind.name == self.spring:
            return IllegalActionError(
                f"a river tile must continue the river: place it at ({x}, {y}), "
                f"its river edge facing the river",
                "river_elsewhere",
                x=x,
                y=y,
            )
        edges = kind.oriented(rotation).edges
        back = (self.heading + 2) % 4
        if edges[back] != WATER:
            return IllegalActionError(
                f"turn tile {kind.name} so that its river meets the river on its "
                f"{EDGE_NAMES[back]} edge",
                "river_not_continued",
                side=EDGE_NAMES[back],
            )
        out = _outflow(edges, back)
        if out is None:
            return None
        turn = (out - self.heading) % 4
        if turn != STRAIGHT and turn == self.last_turn:
            return IllegalActionError(
                f"the river may not turn {TURN_WORDS[turn]} twice in a row (no U-turn): "
                "turn this tile the other way or keep it straight",
                "river_u_turn",
                turn=TURN_WORDS[turn],
            )
        dx, dy = EDGE_STEPS[out]
        if (x + dx, y + dy) in self.game.board.tiles:
            return IllegalActionError(
                "the river may never meet itself or run into a placed tile: "
                "turn this tile so that the river flows to an empty square",
                "river_meets_itself",
            )
        return None

    def _follow(self) -> None:
        """Move the open end along the tiles placed on it since the last look."""
        tiles = self.game.board.tiles
        if not self._started:
            self._started = True
            start = tiles.get((0, 0))
            if start is None or start.oriented.kind != self.spring:
                return
            self.heading = start.oriented.edges.index(WATER)
            dx, dy = EDGE_STEPS[self.heading]
            self.end = (dx, dy)
        while self.end is not None and self.end in tiles:
            edges = tiles[self.end].oriented.edges
            back = (self.heading + 2) % 4
            out = _outflow(edges, back)
            if edges[back] != WATER or out is None:
                self.end = None  # the lake, or an abbey closing the river
                return
            self.last_turn = (out - self.heading) % 4
            self.heading = out
            dx, dy = EDGE_STEPS[out]
            self.end = (self.end[0] + dx, self.end[1] + dy)

    def snapshot(self) -> dict[str, Any]:
        self._follow()
        return {"river_end": self.end, "river_heading": self.heading}
