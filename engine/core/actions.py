"""Actions: small frozen values for what a player decides, with their record JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import MalformedError
from engine.core.values import quick_init

At = int | str
AT_NAMES = frozenset({"C", "I1", "I2", "NW", "NE", "SE", "SW"})
FIGURES = frozenset(
    {"follower", "mayor", "barn", "wagon", "large_follower", "man", "hut", "subject", "palace"}
)
#: Traders & Builders' figures (record names of the spec).
FIGURES |= {"builder", "pig"}
WALL_TILES = range(1, 10)


@dataclass(frozen=True, slots=True, init=False)
class PlaceTile:
    x: int
    y: int
    rotation: int
    tile: str | None = None

    def __init__(self, x: int, y: int, rotation: int, tile: str | None = None) -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "rotation", rotation)
        object.__setattr__(self, "tile", tile)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "place_tile", "x": self.x, "y": self.y}
        data["rotation"] = self.rotation
        if self.tile is not None:
            data["tile"] = self.tile
        return data


@dataclass(frozen=True, slots=True, init=False)
class PlaceAbbey:
    x: int
    y: int

    def __init__(self, x: int, y: int) -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)

    def to_json(self) -> dict[str, Any]:
        return {"type": "place_abbey", "x": self.x, "y": self.y}


@dataclass(frozen=True, slots=True, init=False)
class PlaceFigure:
    figure: str
    x: int
    y: int
    at: At

    def __init__(self, figure: str, x: int, y: int, at: At) -> None:
        object.__setattr__(self, "figure", figure)
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "at", at)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "place_figure",
            "figure": self.figure,
            "x": self.x,
            "y": self.y,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class MoveWagon:
    x: int
    y: int
    at: At

    def to_json(self) -> dict[str, Any]:
        return {"type": "move_wagon", "x": self.x, "y": self.y, "at": self.at}


@dataclass(frozen=True, slots=True)
class Pass:
    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Skip:
    """The player whose turn it is loses it; the drawn tile goes under the stack (timeouts)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "skip"}


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Seat ``player`` leaves the game: their figures stay, count for nothing and score nothing."""

    player: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "forfeit", "player": self.player}


@dataclass(frozen=True, slots=True)
class UseWallTile:
    """The Castle: play wall tile ``wall`` (1-9) from your hand.

    Tiles 2 and 3 name the tower or house they double by a square and an ``at`` position, like a
    figure's; tile 1 (two turns in a row) names nothing.
    """

    wall: int
    x: int | None = None
    y: int | None = None
    at: At | None = None

    @property
    def target(self) -> tuple[int, int, At] | None:
        if self.x is None or self.y is None or self.at is None:
            return None
        return (self.x, self.y, self.at)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "use_wall_tile", "wall": self.wall}
        if self.target is not None:
            data.update(x=self.x, y=self.y, at=self.at)
        return data


for _value in (PlaceTile, PlaceAbbey, PlaceFigure, MoveWagon, Pass, Skip, Forfeit, UseWallTile):
    quick_init(_value)

Action = PlaceTile | PlaceAbbey | PlaceFigure | MoveWagon | UseWallTile | Pass | Skip | Forfeit


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedError(f"'{name}' must be a whole number, got {value!r}")
    return value


def _at(data: dict[str, Any]) -> At:
    value = data.get("at")
    if isinstance(value, bool):
        raise MalformedError(
            f"'at' must be an edge position 0-11 or one of C, I1, I2, got {value!r}"
        )
    if isinstance(value, int) and 0 <= value < 12:
        return value
    if isinstance(value, str) and value in AT_NAMES:
        return value
    raise MalformedError(
        f"'at' must be an edge position 0-11, C, I1, I2 or a corner NW/NE/SE/SW, got {value!r}"
    )


def action_from_json(data: Any) -> Action:
    """Read one record action; raises :class:`MalformedError` with what is wrong."""
    if not isinstance(data, dict):
        raise MalformedError(f"an action must be a JSON object, got {data!r}")
    kind = data.get("type")
    if kind == "place_tile":
        rotation = _int(data, "rotation")
        if rotation not in (0, 90, 180, 270):
            raise MalformedError(f"'rotation' must be 0, 90, 180 or 270, got {rotation}")
        tile = data.get("tile")
        if tile is not None and not isinstance(tile, str):
            raise MalformedError(f"'tile' must be a tile name, got {tile!r}")
        return PlaceTile(_int(data, "x"), _int(data, "y"), rotation, tile)
    if kind == "place_abbey":
        return PlaceAbbey(_int(data, "x"), _int(data, "y"))
    if kind == "place_figure":
        figure = data.get("figure")
        if figure not in FIGURES:
            raise MalformedError(
                f"'figure' must be one of {', '.join(sorted(FIGURES))}, got {figure!r}"
            )
        return PlaceFigure(str(figure), _int(data, "x"), _int(data, "y"), _at(data))
    if kind == "move_wagon":
        return MoveWagon(_int(data, "x"), _int(data, "y"), _at(data))
    if kind == "use_wall_tile":
        return _use_wall_tile(data)
    if kind == "pass":
        return Pass()
    if kind == "skip":
        return Skip()
    if kind == "forfeit":
        return Forfeit(_int(data, "player"))
    raise MalformedError(
        f"unknown action type {kind!r}: expected place_tile, place_abbey, place_figure, "
        "move_wagon, use_wall_tile, pass, skip or forfeit"
    )


def _use_wall_tile(data: dict[str, Any]) -> UseWallTile:
    wall = _int(data, "wall")
    if wall not in WALL_TILES:
        raise MalformedError(f"'wall' must be a wall tile number 1-9, got {wall}")
    named = [name for name in ("x", "y", "at") if name in data]
    if not named:
        return UseWallTile(wall)
    if len(named) != 3:
        raise MalformedError(
            "a wall tile's target needs 'x', 'y' and 'at' together (the square and the position "
            "of the tower or house it applies to)"
        )
    return UseWallTile(wall, _int(data, "x"), _int(data, "y"), _at(data))
