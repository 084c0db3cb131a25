"""Who may click what: the active player only, the current prompt only, once only."""

from __future__ import annotations

import simcord
from conftest_ui import Table, commit, custom_ids, pick, put_options, said, simcord_bot

__all__ = ["simcord_bot"]


def cell_menu(message: object) -> tuple[str, str]:
    menu, option = put_options(message)[0]
    return menu, option["value"]


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


async def test_a_second_confirm_for_the_same_turn_is_refused(simcord_env: simcord.Env) -> None:
    """A double click on a spot, or a step kept from before: the first click plays, the
    second is refused politely, names the turns right and plays nothing."""
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await table.new()
    prompt = table.last()
    step = await pick(table, game_id, alice, prompt)
    # The same move played another way first (a second device, /carcassonne place)...
    played = await alice.slash(table.thread(), "carcassonne place", cell="A", rotation=0)
    assert played.acknowledged
    assert (await table.bot.manager.decision(game_id)).turn == 1
    # ...then the step's button: refused, nothing played twice.
    late = await commit(alice, step)
    assert any("out of date" in t for t in said(late)), said(late)
    assert late.ephemeral
    assert (await table.bot.manager.decision(game_id)).turn == 1
    # The previous turn message lost its menus; the new one has them.
    history = table.thread().history()
    assert not custom_ids(history[-2]) and put_options(history[-1])
