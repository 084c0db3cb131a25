"""A whole game through Discord: clicks from the lobby to the final board, then ``place``."""

from __future__ import annotations

import time

import simcord
from conftest_ui import (
    Table,
    assert_png,
    at_once,
    commit,
    custom_ids,
    live_step,
    pick,
    put_options,
    said,
    shown,
    simcord_bot,
    spot_ids,
)

from bot.ui.texts import tr

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
        assert "placed a tile (" in message.content
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
        told = [m.content for m in result.followups]
        assert (await table.bot.manager.decision(game_id)).turn > view.turn, told
    final = table.last()
    assert "Game over! 🏆" in final.content
    assert "Final scores" in shown(final)
    assert not custom_ids(final)
    assert_png(simcord_env, final)
    # The finished game stays reachable from its thread and in the lists.
    alice = table.players[0]
    status = await alice.slash(table.thread(), "carcassonne status")
    assert any(f"Game #{game_id}" in t for t in said(status)), said(status)
    board = await alice.slash(table.thread(), "carcassonne board")
    # The final picture, then the whole board (the final picture shows a large board's part).
    assert any("final scores, then its whole board" in t for t in said(board)), said(board)
    sent = board.response
    assert sent is not None and len(sent.attachments) == 2, sent
    exported = await alice.slash(table.thread(), "carcassonne export")
    assert exported.response is not None and exported.response.attachments
    listed = await alice.slash(table.channel, "carcassonne games", which="finished")
    assert any(f"#{game_id}" in t for t in said(listed)), said(listed)
    playing = await alice.slash(table.channel, "carcassonne games", which="playing")
    assert not any(f"#{game_id} " in t for t in said(playing)), said(playing)
    assert time.perf_counter() - started < 300


async def test_each_turn_shows_its_tile_and_a_player_keeps_one_live_step(
    simcord_env: simcord.Env,
) -> None:
    """The turn message shows the drawn tile in words and in its picture; a second square
    picked edits the same private step (no second message) while Discord allows it; past
    that, a new step replaces the old one, which is deleted."""
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await table.new(seed=11)
    prompt = table.last()
    assert "Tile to place: **" in prompt.content
    assert prompt.attachments[0].filename == "turn.png"
    options = put_options(prompt)
    assert len(options) >= 2
    first = await pick(table, game_id, alice, prompt, index=0)
    before = (first.id, first.content)
    again = await alice.select(prompt, [options[1][1]["value"]], custom_id=options[1][0])
    assert again.acknowledged and not again.followups, "no second private message"
    second = await live_step(table, game_id, alice)
    assert second.id == before[0] and second.content != before[1], "the same step, edited"
    await simcord_env.advance_time(15 * 60)
    third = await pick(table, game_id, alice, prompt, index=0)
    assert third.id != second.id, "an old step is replaced, not edited"
    # Two interactions played the turn.
    await commit(alice, third)
    assert (await table.bot.manager.decision(game_id)).turn == 1


async def test_the_same_square_picked_twice_at_once_opens_one_step_and_plays_once(
    simcord_env: simcord.Env,
) -> None:
    """A double click that Discord delivers as two interactions at the same instant: both are
    answered without an error, the player keeps one live step, and its spot plays once."""
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await table.new(seed=11)
    prompt = table.last()
    menu_id, option = put_options(prompt)[0]

    async def same() -> object:
        return await alice.select(prompt, [option["value"]], custom_id=menu_id)

    for _ in range(2):  # without a step yet, then with the step they opened
        results = await at_once(simcord_env, same, same)
        assert all(r.acknowledged for r in results)
        texts = [t for r in results for t in said(r)]
        assert not any(tr("unexpected", "en") in t for t in texts), texts
        assert not simcord_env.errors
        step = await live_step(table, game_id, alice)
        assert step.content.startswith("Square "), step.content
    target = custom_ids(step, "cc:ok:")[-1]

    async def ok() -> object:
        return await alice.click(step, custom_id=target)

    played, again = await at_once(simcord_env, ok, ok)
    assert played.acknowledged and again.acknowledged
    texts = said(played) + said(again)
    assert not any(tr("unexpected", "en") in t for t in texts), texts
    assert not simcord_env.errors
    view = await table.bot.manager.decision(game_id)
    assert (
        view.turn == 1
        and len((await table.bot.manager.records.export_record(game_id))["actions"]) <= 2
    )
