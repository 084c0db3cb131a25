"""The 3-second rule on a late-game board: every interaction is acknowledged before any picture
is drawn, so a slow render can never make Discord drop the click.

Simcord enforces Discord's deadline on its virtual clock: an interaction not answered within
3 seconds of its creation is refused ("Unknown interaction"). Here every render first checks
that all interactions so far were answered, then moves that clock 3.5 seconds on, as a slow
render on a busy machine would; a handler that drew before deferring would fail its reply.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import (
    UPLOAD_LIMIT,
    Table,
    assert_png,
    commit,
    custom_ids,
    put_options,
    said,
    simcord_bot,
    step_of,
)

from bot.ui import images
from engine import Pass

__all__ = ["simcord_bot"]

#: A late-game board: this many turns played before the clicks.
TURNS = 64


async def replay_turns(table: Table, game_id: int, turns: int, seed: int = 5) -> None:
    """Random legal moves straight through the manager (no messages) until ``turns`` turns."""
    manager = table.bot.manager
    rng = random.Random(seed)
    while True:
        view = await manager.decision(game_id)
        if view.turn >= turns or view.tiles_left <= 2 or view.finished:
            return
        assert view.user_id is not None
        if view.phase == "tile":
            action: Any = view.placements[rng.randrange(len(view.placements))]
        else:
            options = [*view.figures, Pass()]
            action = options[rng.randrange(len(options))] if rng.random() < 0.4 else Pass()
        await manager.play_turn(game_id, view.user_id, action, turn=view.turn, phase=view.phase)


def slow_renders(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, sizes: list[int], late: list[str]
) -> list[str]:
    """Make every picture slow (3.5 s on simcord's clock) and note in ``late`` each one that
    starts while an interaction still waits for its first answer. Returns the pictures drawn."""
    drawn: list[str] = []
    original: Callable[..., Any] = images._sized

    async def draw(name: str, *args: Any, **kwargs: Any) -> tuple[discord.File, Any]:
        waiting = [i.id for i in env.backend.interactions.values() if not i.responded]
        if waiting:
            late.append(f"{name} drawn before interactions {waiting} were acknowledged")
        env.backend.advance_clock(3.5)
        file, hidden = await original(name, *args, **kwargs)
        data = file.fp.read()
        file.fp.seek(0)
        sizes.append(len(data))
        drawn.append(name)
        return file, hidden

    monkeypatch.setattr(images, "_sized", draw)
    return drawn


async def test_every_click_on_a_full_board_is_acknowledged_before_rendering(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    game_id = await table.new(seed=21, expansion="abbey_mayor")
    await replay_turns(table, game_id, TURNS)
    view = await table.bot.manager.decision(game_id)
    assert view.turn >= TURNS and not view.finished
    sizes: list[int] = []
    late: list[str] = []
    drawn = slow_renders(simcord_env, monkeypatch, sizes, late)
    results = []
    player = table.actor(view.user_id)
    # The board again, then a whole turn by clicks: square, rotation, figure, confirm.
    results.append(await player.slash(table.thread(), "carcassonne board"))
    prompt = table.last()
    assert_png(simcord_env, prompt)
    if view.phase != "tile":  # a wagon or figure step is pending: answer it by command
        pytest.skip("the replay stopped outside a tile step")
    options = put_options(prompt)
    menu, option = options[-1]
    opened = await player.select(prompt, [option["value"]], custom_id=menu)
    results.append(opened)
    step = step_of(opened)
    assert_png(simcord_env, step)
    rotations = custom_ids(step, "cc:pl:")
    if rotations:
        results.append(await player.click(step, custom_id=rotations[-1]))
    results.append(await commit(player, step))
    assert (await table.bot.manager.decision(game_id)).turn == view.turn + 1
    assert_png(simcord_env, table.last())
    # The next player uses the one-line command; then everyone's read-only commands.
    nxt = await table.bot.manager.decision(game_id)
    other = table.actor(nxt.user_id)
    offered = await other.autocomplete(
        table.thread(), "carcassonne place", "rotation", "", cell="A"
    )
    results.append(
        await other.slash(
            table.thread(), "carcassonne place", cell="A", rotation=offered[0]["value"]
        )
    )
    assert (await table.bot.manager.decision(game_id)).turn == nxt.turn + 1, said(results[-1])
    results.append(await player.slash(table.thread(), "carcassonne status"))
    results.append(await player.slash(table.thread(), "carcassonne export"))
    assert not late
    for result in results:
        assert result.acknowledged, result
        assert not any("went wrong" in text for text in said(result)), said(result)
    assert not simcord_env.errors
    assert {"turn.png", "step.png"} <= set(drawn)
    assert sizes and max(sizes) < UPLOAD_LIMIT, f"largest upload {max(sizes)} bytes"


async def test_the_board_command_shows_every_square_where_the_turn_picture_shows_a_part(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn picture shows the board near the action; /carcassonne board shows all of it
    (the turn picture says so when squares are left out)."""
    table = Table(simcord_env)
    game_id = await table.new(seed=21)
    await replay_turns(table, game_id, TURNS)
    view = await table.bot.manager.decision(game_id)
    asked: list[bool] = []
    original: Callable[..., Any] = images.turn_file

    async def turn_file(*args: Any, **kwargs: Any) -> Any:
        asked.append(bool(kwargs.get("whole")))
        return await original(*args, **kwargs)

    monkeypatch.setattr(images, "turn_file", turn_file)
    player = table.actor(view.user_id)
    await player.slash(table.thread(), "carcassonne board")
    assert asked == [True], "the board command draws the whole board"
    whole = assert_png(simcord_env, table.last())
    game = await table.bot.manager.engine_copy(game_id)
    part, _ = await original(game, "en", {})
    assert whole != part.fp.read(), "the whole board is not the turn picture's part of it"
