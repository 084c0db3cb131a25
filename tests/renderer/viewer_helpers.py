"""Games for the viewer's tests: the benchmark's mix of random games (made once per test run),
what the engine says of each turn, and the game as the page's decoder must read it."""

from __future__ import annotations

from functools import cache
from typing import Any

from benchmarks.viewer import bigbox_record, random_record
from engine import Game
from engine.carcassonne.traders_builders import goods
from engine.core.timeline import turn_ends
from renderer.emblems import GOODS
from renderer.viewer.turns import GameTurns, pieces, spot_number

GAMES = 200
#: Big Box games (half of them 6 players with all four expansions, see ``benchmarks.viewer``).
BIG_BOX_GAMES = 40


@cache
def mixed_records() -> tuple[dict[str, Any], ...]:
    """:data:`GAMES` random finished games of every family (see ``benchmarks.viewer``)."""
    return tuple(random_record(seed) for seed in range(GAMES))


@cache
def bigbox_records() -> tuple[dict[str, Any], ...]:
    """:data:`BIG_BOX_GAMES` random finished Big Box games (see ``benchmarks.viewer``)."""
    return tuple(bigbox_record(seed) for seed in range(BIG_BOX_GAMES))


def goods_of(game: Game) -> list[list[int]] | None:
    """Each player's goods tokens (wine, grain, cloth), or None without Traders & Builders."""
    if "traders_builders" not in game.setup.expansions:
        return None
    tokens = [goods(game, p) for p in range(game.players)]
    return [[t[kind] for kind in GOODS] for t in tokens]


def engine_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per turn, then for the final scoring: tiles and figures on the board, the scores, the
    goods tokens (None without Traders & Builders)."""
    frames: list[dict[str, Any]] = []
    final = None
    for end, game in turn_ends(record):
        frames.append(
            {
                "tiles": len(game.board.tiles),
                "figures": len(pieces(game)),
                "scores": end.scores,
                "goods": goods_of(game),
            }
        )
        final = end.final
    if final is not None:
        frames.append({**frames[-1], "scores": final})
    return [{**f, "scores": list(f["scores"])} for f in frames]


def as_decoded(turns: GameTurns, styles: tuple[int, ...] = ()) -> dict[str, Any]:
    """The game as ``decodeGame`` in the page returns it (plain lists)."""

    def piece(p: Any) -> list[Any]:
        return [p.player, p.role, p.pos[0], p.pos[1], spot_number(p.spot)]

    return {
        "variant": turns.variant,
        "names": list(turns.names),
        "styles": list(styles or range(len(turns.names))),
        "turns": [
            {
                "player": t.player,
                "tiles": [list(tile) for tile in t.tiles],
                "returned": [piece(p) for p in t.returned],
                "placed": [piece(p) for p in t.placed],
                "scores": list(t.scores),
            }
            for t in turns.turns
        ],
        "final": None if turns.final is None else list(turns.final),
    }
