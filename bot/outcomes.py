"""What the game manager hands back to the Discord layer: the decision at hand, move results.

Plain frozen values built from the engine state, so a command or a button can read them after
the game's lock is released without touching the live game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage import GameRow
from engine import Event, Game, PlaceFigure, PlaceTile


@dataclass(frozen=True, slots=True)
class TurnView:
    """The decision the game waits for, with every legal answer.

    ``turn`` and ``phase`` are the stamp a prompt carries (e.g. in a button's ``custom_id``) and
    gives back to :meth:`bot.manager.GameManager.play_turn`, which refuses stale stamps.
    """

    game: GameRow
    turn: int
    phase: str  # 'tile', 'figure', or 'over'; other games may add phases
    seat: int | None
    user_id: int | None
    tile: str | None
    hand: tuple[str, ...]
    placements: tuple[PlaceTile, ...]
    figures: tuple[PlaceFigure, ...]
    scores: tuple[int, ...]
    tiles_left: int
    finished: bool

    @property
    def game_id(self) -> int:
        return self.game.id

    def cells(self, tile: str | None = None) -> dict[tuple[int, int], tuple[int, ...]]:
        """Legal cells -> legal rotations (of ``tile`` when choosing from a hand)."""
        found: dict[tuple[int, int], list[int]] = {}
        for p in self.placements:
            if tile is None or p.tile in (None, tile):
                found.setdefault((p.x, p.y), []).append(p.rotation)
        return {cell: tuple(rotations) for cell, rotations in found.items()}

    @classmethod
    def of(cls, row: GameRow, game: Game | None) -> TurnView:
        if game is None or row.status in ("lobby", "abandoned"):
            return cls(row, row.turn, "over", None, None, None, (), (), (), (), 0, False)
        decision = game.decision
        over = row.status == "finished" or game.finished
        seat = None if over else decision.player
        return cls(
            game=row,
            turn=decision.turn,
            phase="over" if over else decision.phase.value,
            seat=seat,
            user_id=None if seat is None else row.seats[seat].user_id,
            tile=decision.tile,
            hand=decision.hand,
            placements=() if over else tuple(game.legal_placements()),
            figures=() if over else tuple(game.legal_figures()),
            scores=tuple(game.scores),
            tiles_left=game.tiles_left,
            finished=over,
        )


@dataclass(frozen=True, slots=True)
class Played:
    """One action that was applied, with the events it caused."""

    seat: int
    action: dict[str, object]
    events: tuple[Event, ...]
    forced: str | None = None


@dataclass(frozen=True, slots=True)
class MoveResult:
    """The outcome of a move: what happened (the player's action, then any the bot played for
    resigned seats), the next decision, the board image if one was asked for, and a private
    copy of the game after the move (a fork, to draw the next turn message on)."""

    played: tuple[Played, ...]
    view: TurnView
    image: bytes | None = None
    game: Game | None = None

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for p in self.played for e in p.events)


@dataclass(frozen=True, slots=True)
class AbandonVote:
    """Where a request to abandon a game stands: ``done`` once everyone agreed (``row`` is then
    the abandoned game)."""

    done: bool
    votes: frozenset[int]
    needed: frozenset[int]
    row: GameRow


@dataclass(frozen=True, slots=True)
class UndoResult:
    """``undone`` is True when the action was taken back; otherwise votes are still missing."""

    undone: bool
    action_idx: int
    votes: frozenset[int] = field(default_factory=frozenset)
    needed: frozenset[int] = field(default_factory=frozenset)
    view: TurnView | None = None
    #: Who played the turn being taken back.
    by: int | None = None
