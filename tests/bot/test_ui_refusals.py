"""Who may click what: the active player only, the current prompt only, once only."""

from __future__ import annotations

import simcord
from conftest_ui import Table, components, custom_ids, said, simcord_bot, step_of

__all__ = ["simcord_bot"]


def cell_menu(message: object) -> tuple[str, str]:
    menu = next(c for c in components(message) if c.get("custom_id", "").startswith("cc:cell:"))
    return menu["custom_id"], menu["options"][0]["value"]


async def test_another_player_is_told_whose_turn_it_is(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    bob = table.players[1]
    game_id = await table.new()
    prompt = table.last()
    menu, cell = cell_menu(prompt)
    refused = await bob.select(prompt, [cell], custom_id=menu)
    assert refused.ephemeral
    assert refused.response is not None
    assert "alice" in refused.response.content and "turn" in refused.response.content
    assert (await table.bot.manager.decision(game_id)).turn == 0


async def confirm_of(player: object, opened: object) -> str:
    step = step_of(opened)
    nofig = [i for i in custom_ids(step, "cc:pl:") if i.endswith(":none")]
    if nofig:
        await player.click(step, custom_id=nofig[0])  # type: ignore[attr-defined]
        step = step_of(opened)
    return custom_ids(step, "cc:ok:")[0]


async def test_a_second_confirm_for_the_same_turn_is_refused(simcord_env: simcord.Env) -> None:
    """Two prompts opened for one turn (or a double click): the first confirm plays, the
    second is refused politely and plays nothing."""
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await table.new()
    prompt = table.last()
    menu, cell = cell_menu(prompt)
    first = await alice.select(prompt, [cell], custom_id=menu)
    second = await alice.select(prompt, [cell], custom_id=menu)
    first_ok, second_ok = await confirm_of(alice, first), await confirm_of(alice, second)
    await alice.click(step_of(first), custom_id=first_ok)
    assert (await table.bot.manager.decision(game_id)).turn == 1
    assert step_of(first).content == "Played."
    late = await alice.click(step_of(second), custom_id=second_ok)
    assert any("out of date" in t for t in said(late)), said(late)
    assert late.ephemeral
    assert (await table.bot.manager.decision(game_id)).turn == 1
    # The previous turn message lost its menus; the new one has them.
    history = table.thread().history()
    assert not custom_ids(history[-2]) and custom_ids(history[-1], "cc:cell:")
