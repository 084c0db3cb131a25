"""The lobby: open, join, leave, start; the game gets its own thread and a first turn."""

from __future__ import annotations

import simcord
from conftest_ui import Table, assert_png, custom_ids, simcord_bot

__all__ = ["simcord_bot"]


async def test_a_lobby_fills_and_starts_in_its_own_thread(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    result = await alice.slash(table.channel, "carcassonne new")
    assert result.ephemeral
    lobby = table.channel.last_message
    assert lobby is not None and lobby.embeds
    game_id = int((lobby.embeds[0].title or "").split("#")[1])
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    await carol.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    left = await carol.click(lobby, custom_id=f"cc:lobby:{game_id}:leave")
    assert left.followups and left.followups[0].ephemeral
    lobby = table.channel.last_message
    assert lobby is not None
    players = lobby.embeds[0].fields[1].value or ""
    assert str(bob.id) in players and str(carol.id) not in players
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    turn = table.last()
    assert f"<@{alice.id}>" in turn.content
    assert custom_ids(turn, "cc:cell:")
    assert_png(simcord_env, turn)
