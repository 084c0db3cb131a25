"""A whole game through Discord: clicks from the lobby to the final board, then ``place``."""

from __future__ import annotations

import time
from typing import Any

import simcord
from conftest_ui import Table, assert_png, components, custom_ids, simcord_bot

__all__ = ["simcord_bot"]


def first_option(message: Any, prefix: str) -> tuple[str, str]:
    menu = next(c for c in components(message) if c.get("custom_id", "").startswith(prefix))
    return menu["custom_id"], menu["options"][0]["value"]


async def play_by_clicks(table: Table, game_id: int, *, figure: bool) -> None:
    """The active player picks the first square, keeps the rotation, places a figure or not."""
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    prompt = table.last()
    menu, cell = first_option(prompt, "cc:cell:")
    opened = await player.select(prompt, [cell], custom_id=menu)
    step = opened.followups[-1] if opened.followups else opened.response
    assert step is not None and step.ephemeral
    assert_png(table.env, step)
    figures = [c for c in components(step) if c.get("custom_id", "").startswith("cc:fs:")]
    if figure and figures:
        chosen = await player.select(
            step, [figures[0]["options"][0]["value"]], custom_id=figures[0]["custom_id"]
        )
        assert chosen.acknowledged
    elif figures:
        await player.click(step, custom_id=custom_ids(step, "cc:pl:")[-1])
    step = opened.followups[-1] if opened.followups else opened.response  # as edited
    assert step is not None
    confirm = next(i for i in custom_ids(step, "cc:ok:"))
    await player.click(step, custom_id=confirm)


async def test_a_two_player_game_from_new_to_the_final_board(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    game_id = await table.new(seed=11)
    started = time.perf_counter()
    for turn in range(6):
        before = (await table.bot.manager.decision(game_id)).turn
        await play_by_clicks(table, game_id, figure=turn % 2 == 0)
        after = await table.bot.manager.decision(game_id)
        assert after.turn == before + 1
        message = table.last()
        assert f"<@{after.user_id}>" in message.content
        assert message.content.count(f"<@{after.user_id}>") == 1
        assert "placed tile" in message.content
        assert_png(simcord_env, message)
    for _ in range(200):
        view = await table.bot.manager.decision(game_id)
        if view.finished:
            break
        player = table.actor(view.user_id)
        offered = await player.autocomplete(
            table.thread(), "carcassonne place", "rotation", "", cell="A"
        )
        assert offered, "autocomplete offers the legal rotations"
        rotation = offered[0]["value"]
        result = await player.slash(
            table.thread(), "carcassonne place", cell="A", rotation=rotation
        )
        said = [m.content for m in result.followups]
        assert (await table.bot.manager.decision(game_id)).turn > view.turn, said
    final = table.last()
    assert "Game over!" in final.content or "Final scores" in final.content
    assert "Final scores" in final.content
    assert not custom_ids(final)
    assert_png(simcord_env, final)
    assert time.perf_counter() - started < 300
