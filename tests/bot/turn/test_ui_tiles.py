"""``/carcassonne tiles``: the tiles not placed yet, privately; the dead squares on the turn
picture; the purist option (lobby button, ``/carcassonne new purist:``) that hides both."""

from __future__ import annotations

import simcord
from conftest_ui import Table, attachment_bytes, custom_ids, said, shown, simcord_bot, step_of
from ui_scenes import forced_game

from bot.ui.turn.state import snapshot
from renderer.jobs import Job, run
from renderer.options import RenderOptions

__all__ = ["simcord_bot"]


async def test_tiles_shows_the_tiles_not_placed_to_the_asker_only(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, _ = table.players
    game_id = await forced_game(table, None, expansion=None, seed=7, seated=2, hand=True)
    for player in (alice, bob):  # the player in turn and the one waiting
        result = await player.slash(table.thread(), "carcassonne tiles")
        assert result.ephemeral
        assert any(f"Game #{game_id}: the tiles not placed yet" in t for t in said(result))
        message = step_of(result)
        picture = attachment_bytes(simcord_env, message.attachments[0])
        game = (await snapshot(table.bot.manager, game_id)).require_game()
        pool = game.unplaced_tiles()
        # Stack and both hands of three (the tactical hand), never who holds what.
        assert sum(pool.values()) == game.tiles_left + 6
        expected, _ = run(Job("tiles", game.record(), RenderOptions(dead_squares=True)))
        assert picture == expected
    assert not simcord_env.errors


async def test_dead_squares_are_crossed_on_the_turn_picture_unless_purist(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=2)
    alice = table.players[0]
    # Start D, then cloisters only: the city and road sides of the start are dead.
    marked = await forced_game(table, "D B B B", expansion=None)
    marked_turn = attachment_bytes(simcord_env, table.last().attachments[0])
    game = (await snapshot(table.bot.manager, marked)).require_game()
    assert game.dead_squares() == {(0, -1), (1, 0), (-1, 0)}
    purist = await forced_game(table, "D B B B", expansion=None, purist=True)
    assert (await table.bot.manager.game(purist)).purist
    purist_turn = attachment_bytes(simcord_env, table.last().attachments[0])
    assert marked_turn != purist_turn
    refused = await alice.slash(table.thread(), "carcassonne tiles")
    assert refused.ephemeral
    assert said(refused) == [f"Game #{purist} is a purist game: the tiles left are not shown."], (
        said(refused)
    )
    shown_tiles = await alice.slash(table.thread(), "carcassonne tiles", game=marked)
    assert step_of(shown_tiles).attachments
    assert not simcord_env.errors


async def test_the_lobby_options_turn_purist_on_and_off(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=2)
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne new", game="castle")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = (await table.bot.manager.records.games_in_channel(table.channel.id))[0].id
    options = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:options")
    menu = options.response
    assert menu is not None
    assert f"cc:lobby:{game_id}:purist" in custom_ids(menu)
    await alice.click(menu, custom_id=f"cc:lobby:{game_id}:purist")
    assert (await table.bot.manager.game(game_id)).purist
    assert "purist" in shown(table.channel.last_message)
    await alice.click(menu, custom_id=f"cc:lobby:{game_id}:purist")
    assert not (await table.bot.manager.game(game_id)).purist
    assert not simcord_env.errors


async def test_in_the_castle_tiles_counts_the_castle_tiles(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=2)
    game_id = await forced_game(table, None, expansion=None, game="castle")
    result = await table.players[1].slash(table.thread(), "carcassonne tiles")
    assert result.ephemeral
    assert any("wall tiles are not counted" in t for t in said(result)), said(result)
    game = (await snapshot(table.bot.manager, game_id)).require_game()
    assert sum(game.unplaced_tiles().values()) == game.tiles_left + 1
    picture = attachment_bytes(simcord_env, step_of(result).attachments[0])
    assert picture == run(Job("tiles", game.record(), RenderOptions(dead_squares=True)))[0]
    assert not simcord_env.errors
