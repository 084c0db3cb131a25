"""A whole game through Discord: clicks from the lobby to the final board, then ``place``."""

from __future__ import annotations

import time

import simcord
from conftest_ui import Table, assert_png, commit, custom_ids, pick, simcord_bot, spot_ids

__all__ = ["simcord_bot"]


async def play_by_clicks(table: Table, game_id: int, *, figure: bool) -> None:
    """The active player picks the first square and rotation, then a spot or No figure:
    exactly two interactions, and the second plays the move."""
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    prompt = table.last()
    assert_png(table.env, prompt)
    step = await pick(table, game_id, player, prompt)
    assert step.flags.ephemeral
    assert step.attachments, "the step shows the tile in place"
    if figure and spot_ids(step):
        await commit(player, step, 1)
    else:
        await commit(player, step)


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
