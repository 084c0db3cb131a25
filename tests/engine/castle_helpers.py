"""Helpers for The Castle tests: lay a worked example tile by tile, put subjects by feature type."""

from __future__ import annotations

from engine import CastleGame, FeatureScored, Game, Pass, Phase, PlaceFigure, PlaceTile, Setup
from engine.core.events import Event

#: ((x, y), kind, rotation) as castle.md writes its examples.
Placement = tuple[tuple[int, int], str, int]
PLAYERS = ("Black", "White")


def castle(
    draw: tuple[str, ...] = (), walls: tuple[int, ...] | None = None, seed: int = 0
) -> CastleGame:
    game = Game(Setup(players=PLAYERS, game="castle", seed=seed, draw=draw, wall_draw=walls))
    assert isinstance(game, CastleGame)
    return game


def subject_on(game: Game, x: int, y: int, ftype: str | int) -> PlaceFigure:
    """The legal subject placement on the new tile's feature of that type (or at that position)."""
    placed = game.board.tiles[(x, y)].oriented
    for option in game.legal_figures():
        local = placed.feature_at(option.at)
        if placed.features[local].type == ftype or local == placed.feature_at(ftype):
            return option
    raise AssertionError(f"no subject spot on {ftype} at ({x}, {y})")


def lay(
    placements: list[Placement],
    subjects: dict[int, str | int] | None = None,
    walls: tuple[int, ...] | None = None,
    extra: tuple[str, ...] = (),
) -> tuple[CastleGame, list[Event]]:
    """Place the tiles in order (Black, White, Black, ...); ``subjects[i]`` on the i-th tile.

    ``extra`` tiles stay in the stack so that the game does not end (and score) after the last.
    """
    game = castle(tuple(kind for _, kind, _ in placements) + extra, walls)
    events: list[Event] = []
    for index, ((x, y), _, rotation) in enumerate(placements):
        events += game.play(PlaceTile(x, y, rotation))
        if game.phase is Phase.FIGURE:
            wanted = (subjects or {}).get(index)
            events += game.play(subject_on(game, x, y, wanted) if wanted is not None else Pass())
        else:
            assert index not in (subjects or {}), f"no figure step after tile {index}"
    return game, events


def scored(events: list[Event], final: bool | None = None) -> list[tuple[str, int, dict[int, int]]]:
    """(feature, tiles, points) of every scoring, in order (only final or only not, if asked)."""
    return [
        (e.feature, e.tiles, e.points)
        for e in events
        if isinstance(e, FeatureScored) and (final is None or e.final is final)
    ]
