"""Helpers for Discord-layer tests that need a chosen position: a forced draw order, moves
played straight through the manager to reach it, then the turn message posted again.

Imported by bare name (``from ui_scenes import forced_game``) like ``conftest_ui``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from conftest_ui import Table, components

from engine import Action, Pass, PlaceAbbey, PlaceFigure, PlaceTile


async def forced_game(
    table: Table,
    draw: str | None,
    *,
    expansion: str | None = "abbey_mayor",
    seed: int = 1,
    seated: int | None = None,
    **options: Any,
) -> int:
    """A game opened and started through the lobby buttons, its tiles drawn in ``draw`` order
    (tile kind names, the first is the start tile; None: shuffled from ``seed``), played by
    the table's first ``seated`` players (all by default)."""
    if expansion is not None:
        options["expansion"] = expansion
    await table.players[0].slash(table.channel, "carcassonne new", **options)
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    for player in table.players[1:seated]:
        await player.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    if draw is not None:
        row = await manager.game(game_id)
        extra = {"draw": draw.split()}
        await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    manager.seeds = lambda: seed
    await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    return game_id


async def play(table: Table, game_id: int, *actions: Action) -> None:
    """Play ``actions`` for whoever must decide, straight through the manager (no messages)."""
    manager = table.bot.manager
    for action in actions:
        view = await manager.decision(game_id)
        assert view.user_id is not None
        await manager.play_turn(game_id, view.user_id, action, turn=view.turn, phase=view.phase)


async def put(
    table: Table,
    game_id: int,
    x: int,
    y: int,
    rotation: int,
    figure: str | None = None,
    at: int | str | None = None,
) -> None:
    """Place the drawn tile, then ``figure`` at ``at`` or no figure (like the engine tests)."""
    await play(table, game_id, PlaceTile(x, y, rotation))
    view = await table.bot.manager.decision(game_id)
    if figure is not None:
        assert at is not None
        await play(table, game_id, PlaceFigure(figure, x, y, at))
    elif view.phase == "figure":
        await play(table, game_id, Pass())


async def put_abbey(table: Table, game_id: int, x: int, y: int) -> None:
    await play(table, game_id, PlaceAbbey(x, y), Pass())


#   y=0    U  U  D  U        roads west-east; the hole (0, 1) gets tiles on its four sides
#   y=1    A  U  .  U        bob's thief on the road ending at the hole from the west
#   y=2          N  B
Move = tuple[int, int, int, str | None, int | None]
RING: list[Move] = [
    (-1, 0, 0, None, None),
    (-1, 1, 0, "follower", 4),
    (-2, 1, 270, None, None),
    (1, 0, 0, None, None),
    (1, 1, 0, None, None),
    (1, 2, 0, None, None),
]
RING_LAST: Move = (0, 2, 0, None, None)


async def abbey_scene(table: Table, last: str) -> int:
    """The ring around the hole (0, 1) with ``last`` to place (E does not fit the hole, D
    does)."""
    game_id = await forced_game(table, f"D U U A U U B N U {last}")
    for move in [*RING, RING_LAST, (-2, 0, 0, None, None)]:
        await put(table, game_id, *move)
    return game_id


async def repost(table: Table, game_id: int) -> Any:
    """Post the turn message again (``/carcassonne board``) and return it."""
    view = await table.bot.manager.decision(game_id)
    player = table.players[0] if view.user_id is None else table.actor(view.user_id)
    await player.slash(table.thread(), "carcassonne board", game=game_id)
    return table.last()


def menu(message: Any, prefix: str) -> dict[str, Any]:
    """The first select menu whose custom id starts with ``prefix``."""
    found = [c for c in components(message) if c.get("custom_id", "").startswith(prefix)]
    assert found, f"no menu {prefix!r} in {[c.get('custom_id') for c in components(message)]}"
    return found[0]


def option_values(message: Any, prefix: str) -> list[str]:
    return [o["value"] for o in menu(message, prefix)["options"]]


def option_labels(message: Any, prefix: str) -> list[str]:
    return [o["label"] for o in menu(message, prefix)["options"]]


def button_labels(message: Any) -> list[str]:
    return [c.get("label", "") for c in components(message) if c.get("type") == 2]


def button_id(message: Any, label: str) -> str:
    """The custom id of the button showing ``label``."""
    for c in components(message):
        if c.get("type") == 2 and c.get("label") == label:
            return str(c["custom_id"])
    raise AssertionError(f"no button {label!r} in {button_labels(message)}")
