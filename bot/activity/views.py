"""What the live board shows of a game: the table's view, and nothing hidden.

:func:`table_view` writes a running game's view from its *position* (``engine.core.position``:
what every player has seen, no seed, no stack, no face-down tile, no hand) and the game rebuilt
from it, so nothing drawn from the real game's hidden state can reach a browser; a finished
game shows itself as it ended. :func:`own_view` adds what only one user may see: their own tiles
in hand. ``docs/ACTIVITY.md`` documents the fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.lobby import seat_styles
from bot.storage import GameRow
from engine import Game, PlaceAbbey, PlaceTile
from engine.core.position import game_from_position, position_of
from renderer.viewer.turns import pieces, spot_number, variant_key


@dataclass(frozen=True, slots=True)
class Timing:
    """The game's clocks as the board shows them: a chess clock's banks (seconds left per seat
    at ``now``, the running one ``seat``), or a play-by-post ``deadline``."""

    now: float
    banks: tuple[float | None, ...] | None = None
    seat: int | None = None
    paused: bool = False
    deadline: float | None = None


def table_view(row: GameRow, game: Game, timing: Timing) -> dict[str, Any]:
    """The view of game ``row`` for everyone at its table: ``game`` is the real game (a copy);
    a running one is shown through its position only."""
    if game.finished or row.status in ("finished", "abandoned"):
        shown, position = game, None
    else:
        position = position_of(game)
        shown = game_from_position(position)
    return _view(row, shown, position, timing)


def own_view(view: Mapping[str, Any], row: GameRow, game: Game, user_id: int) -> dict[str, Any]:
    """``view`` for ``user_id`` alone: their ``seat`` when they play, and the tiles they hold
    in hand (the tactical hand)."""
    seat = row.seat_of(user_id)
    if seat is None or seat.seat >= game.players:
        return dict(view)
    mine = {**view, "seat": seat.seat}
    if game.hand_mode and not game.finished:
        mine["hand"] = list(game.hands[seat.seat])
    return mine


def _view(
    row: GameRow, game: Game, position: dict[str, Any] | None, timing: Timing
) -> dict[str, Any]:
    styles = seat_styles(row) or tuple(range(game.players))
    scores = list(game.scores)
    final = list(row.result["scores"]) if row.result and "scores" in row.result else None
    if game.finished and final is None:
        final = scores
    players = []
    for index in range(game.players):
        seat = row.seats[index] if index < len(row.seats) else None
        players.append(
            {
                "name": seat.name if seat is not None else game.setup.players[index],
                "style": styles[index] if index < len(styles) else index,
                "score": scores[index],
                "supply": dict(game.pieces(index)),
                "held": len(game.hands[index]) if game.hand_mode else 0,
                "computer": seat.computer if seat is not None else None,
                "left": seat is not None and seat.status != "playing",
            }
        )
    tiles = [[t.oriented.kind, x, y, t.oriented.rotation] for (x, y), t in game.board.tiles.items()]
    placed = [[p.player, p.role, p.pos[0], p.pos[1], spot_number(p.spot)] for p in pieces(game)]
    over = game.finished or row.status in ("finished", "abandoned")
    decision = game.decision
    turn = None
    if not over:
        turn = {
            "seat": decision.player,
            "number": decision.turn,
            "phase": decision.phase.value,
            "tile": decision.tile,
        }
    clock = None
    if timing.banks is not None:
        clock = {
            "banks": list(timing.banks),
            "seat": timing.seat,
            "running": timing.seat is not None and not timing.paused,
            "paused": timing.paused,
        }
    view: dict[str, Any] = {
        "game": row.id,
        "status": row.status,
        "variant": variant_key(game.setup.game, tuple(game.setup.expansions)),
        "version": len(game.actions),
        "players": players,
        "turn": turn,
        "tiles": tiles,
        "pieces": placed,
        "last": _last(game, tiles),
        "tilesLeft": game.tiles_left,
        "tilesTotal": _total(game, position),
        "clock": clock,
        "deadline": None if over else timing.deadline,
        "now": timing.now,
        "final": final if over else None,
    }
    if position is not None:
        view["position"] = position
    return view


def _last(game: Game, tiles: list[list[Any]]) -> list[Any] | None:
    """The tile placed last (none before the first turn): where the latest tile or abbey went."""
    for action in reversed(game.actions):
        if isinstance(action, PlaceTile | PlaceAbbey):
            return next((t for t in tiles if t[1] == action.x and t[2] == action.y), None)
    return None


def _total(game: Game, position: Mapping[str, Any] | None) -> int:
    if position is not None and "tiles_total" in position:
        return int(position["tiles_total"])
    return len(game.board.tiles) + game.tiles_left
