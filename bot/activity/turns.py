"""Playing on the live board: what the player in turn may choose, a placement tried, a decision
read back as one :class:`~bot.manager.Move`.

Everything is read off the turn view (:mod:`bot.turn_view`), as the buttons and
``/carcassonne place`` read it, so the board offers exactly what they offer in every family and
expansion: :func:`you` writes the ``you`` object of the player's VIEW (the tiles and where they
fit, the abbey's holes, the figures of a figure step, a freed wagon's targets, The Castle's wall
tiles, whether passing is legal), :func:`step` answers a ``try`` (the places of the figure step a
placement opens, each with where it stands on the tile as placed, the renderer's own
:func:`renderer.board.spot_point`), and :func:`move_of` reads a ``play`` message into the one
move the manager plays, refusing with :class:`NotLegal` anything the turn view does not offer.
Places name their spot as the board's pieces do (:func:`renderer.viewer.turns.spot_number`: a
local feature, or 100 + a barn's corner). ``docs/ACTIVITY.md`` documents the messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.manager import Move
from bot.spot_words import figure_name, spot_words
from bot.turn_view import (
    FigureChoice,
    SpotPlace,
    StepScreen,
    TurnScreen,
    WagonTarget,
    WallChoice,
    step_screen,
    turn_screen,
)
from engine import Game, MoveWagon, Pass, PlaceAbbey, PlaceFigure, PlaceTile
from engine.core.tiles import CORNERS, Oriented
from renderer.board import spot_point
from renderer.viewer.turns import spot_number


class NotLegal(ValueError):
    """A ``try`` or ``play`` that the turn view does not offer (refused ``not_legal``)."""


def you(game: Game, lang: str, screen: TurnScreen | None = None) -> dict[str, Any]:
    """The ``you`` object for the player in turn of ``game`` (the real game's copy: their own
    hand is theirs to see), in ``lang``."""
    screen = screen or turn_screen(game)
    phase = screen.phase
    tiles: list[dict[str, Any]] = []
    if phase == "tile":
        names = list(dict.fromkeys(screen.hand)) if screen.hand_mode else [screen.tile]
        for name in names:
            if name is None:
                continue
            cells = screen.cells(name if screen.hand_mode else None)
            squares = [{"x": x, "y": y, "rotations": list(rs)} for (x, y), rs in cells.items()]
            tiles.append({"tile": name, "squares": squares})
    figures: list[dict[str, Any]] = []
    if phase == "figure" and screen.figures:
        figures = step_places(step_screen(game, screen, None), lang)
    return {
        "turn": screen.turn,
        "phase": phase,
        "version": len(game.actions),
        "tiles": tiles,
        "holes": [{"x": x, "y": y} for x, y in screen.holes],
        "bonus": screen.bonus if phase == "tile" else None,
        "figures": figures,
        "wagons": [_wagon(game, w, lang) for w in screen.wagons],
        "walls": [_wall(game, w) for w in screen.walls],
        "pass": not game.finished and game.can_pass,
    }


def board_at(oriented: Oriented, at: int | str) -> int:
    """The board's number of an engine spot ``at`` on a tile: its local feature, or 100 + a
    barn's corner (as the VIEW's pieces name spots)."""
    if isinstance(at, str) and at in CORNERS:
        return spot_number(at)
    return spot_number(oriented.feature_at(at))


def place(oriented: Oriented, spot: SpotPlace, lang: str) -> dict[str, Any]:
    """A PLACE: one numbered place of a figure step, where to draw it, and its figures."""
    u, v = spot_point(oriented, spot.at)
    return {
        "at": board_at(oriented, spot.at),
        "number": spot.number,
        "feature": spot.feature,
        "words": spot_words(oriented, spot.at, lang),
        "u": round(u, 3),
        "v": round(v, 3),
        "choices": [_choice(c, lang) for c in spot.choices],
    }


def _choice(choice: FigureChoice, lang: str) -> dict[str, Any]:
    return {"figure": choice.figure, "role": choice.role, "name": figure_name(choice, lang)}


def step_places(shown: StepScreen, lang: str) -> list[dict[str, Any]]:
    """The PLACEs of a tried step (none when the square holds no tile)."""
    if shown.oriented is None:
        return []
    oriented = shown.oriented
    return [place(oriented, p, lang) for p in shown.places]


def _wagon(game: Game, target: WagonTarget, lang: str) -> dict[str, Any]:
    m = target.action
    oriented = game.board.tiles[(m.x, m.y)].oriented
    return {
        "value": wagon_value(m),
        "x": m.x,
        "y": m.y,
        "at": board_at(oriented, m.at),
        "label": target.label,
        "feature": target.feature,
        "words": spot_words(oriented, m.at, lang),
    }


def wagon_value(move: MoveWagon) -> str:
    """How a wagon target is named in a ``play``: ``x,y,at`` (the engine's spot)."""
    return f"{move.x},{move.y},{move.at}"


def _wall(game: Game, choice: WallChoice) -> dict[str, Any]:
    action = choice.action
    target = None
    if action.x is not None and action.y is not None and action.at is not None:
        placed = game.board.tiles.get((action.x, action.y))
        at = board_at(placed.oriented, action.at) if placed is not None else None
        target = {"x": action.x, "y": action.y, "at": at}
    return {
        "value": choice.value,
        "wall": action.wall,
        "label": choice.target,
        "target": target,
        "tiles": choice.tiles,
    }


# -- try and play ----------------------------------------------------------------------------


def first_of(game: Game, screen: TurnScreen, data: Any) -> PlaceTile | PlaceAbbey:
    """The tile or abbey a message names (``{"tile", "x", "y", "rotation"}`` or ``{"abbey":
    true, "x", "y"}``), once the turn view offers it."""
    if not isinstance(data, Mapping):
        raise NotLegal("no placement")
    x, y = _int(data.get("x")), _int(data.get("y"))
    if data.get("abbey") is True:
        if screen.phase not in ("tile", "abbey_end") or (x, y) not in screen.holes:
            raise NotLegal("no hole there")
        return PlaceAbbey(x, y)
    if screen.phase != "tile":
        raise NotLegal("not a tile phase")
    tile = data.get("tile")
    rotation = _int(data.get("rotation"))
    if screen.hand_mode:
        if not isinstance(tile, str) or tile not in screen.hand:
            raise NotLegal("not in the hand")
        cells = screen.cells(tile)
    else:
        if tile is not None and tile != screen.tile:
            raise NotLegal("not the tile in play")
        cells = screen.cells()
    if rotation not in cells.get((x, y), ()):
        raise NotLegal("does not fit there")
    return PlaceTile(x, y, rotation, tile if screen.hand_mode else None)


def step(game: Game, data: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The ``step`` answer to a ``try``: what the figure step of that placement would offer."""
    screen = turn_screen(game)
    first = first_of(game, screen, data)
    shown = step_screen(game, screen, first)
    return {
        "type": "step",
        "version": len(game.actions),
        "x": first.x,
        "y": first.y,
        "rotation": first.rotation if isinstance(first, PlaceTile) else None,
        "abbey": isinstance(first, PlaceAbbey),
        "places": step_places(shown, lang),
        "none": True,
        "open": shown.stays_open,
    }


def _figure(shown: StepScreen, data: Any) -> PlaceFigure:
    """The figure a ``play`` names (``{"figure", "at"}``, ``at`` the board's number) among the
    step's choices."""
    if not isinstance(data, Mapping) or shown.oriented is None:
        raise NotLegal("no such figure")
    oriented = shown.oriented
    for choice in shown.figures:
        if choice.figure == data.get("figure") and board_at(oriented, choice.action.at) == data.get(
            "at"
        ):
            return choice.action
    raise NotLegal("no such figure there")


def move_of(game: Game, data: Mapping[str, Any]) -> Move:
    """The one move a ``play`` message names, checked against the turn view (else
    :class:`NotLegal`): a tile or abbey with its figure or none, a figure alone (a figure
    phase), a wagon's target, a wall tile, or a pass."""
    screen = turn_screen(game)
    first, figure = data.get("first"), data.get("figure")
    wagon, wall = data.get("wagon"), data.get("wall")
    passing = data.get("pass") is True
    given = [k for k, v in (("first", first), ("wagon", wagon), ("wall", wall)) if v is not None]
    if len(given) > 1 or (passing and (given or figure is not None)):
        raise NotLegal("one decision at a time")
    if wall is not None:
        found = next((w for w in screen.walls if w.value == wall), None)
        if found is None:
            raise NotLegal("no such wall tile")
        return Move((found.action,))
    if wagon is not None:
        target = next((w for w in screen.wagons if wagon_value(w.action) == wagon), None)
        if target is None or figure is not None:
            raise NotLegal("no such wagon target")
        return Move((target.action,))
    if passing:
        if game.finished or not game.can_pass:
            raise NotLegal("no pass now")
        return Move((Pass(),))
    if first is not None:
        placed = first_of(game, screen, first)
        shown = step_screen(game, screen, placed)
        if figure is None:
            return Move((placed,), close=True)
        return Move((placed, _figure(shown, figure)))
    if figure is not None:
        if screen.phase != "figure":
            raise NotLegal("not a figure phase")
        return Move((_figure(step_screen(game, screen, None), figure),))
    raise NotLegal("nothing to play")


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotLegal("not a number")
    return value
