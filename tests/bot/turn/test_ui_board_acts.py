"""Acts made on the live board, told in the game's thread as the same acts made in Discord: a
move (the next turn message with its picture, the old one's menus taken off and refused as
stale, a computer set playing, the end with the final table), an undo (done, or asked with
Agree / Refuse) and a resignation. One player plays on the board, the other with the buttons.

The board's server plays through the manager and hands the act to
:func:`bot.ui.turn.board_acts.announce`; these tests do both steps themselves (a server started
in the bot's setup hook would never let simcord settle).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import (
    Table,
    assert_png,
    commit,
    components,
    custom_ids,
    make_bot,
    pick,
    put_options,
    said,
    shown,
    simcord_bot,
)
from ui_scenes import forced_game

from bot.activity import page
from bot.activity.acts import BoardAct
from bot.activity.settings import ActivitySettings
from bot.manager import GameManager, Move
from bot.turn_view import step_screen
from bot.ui import ids
from bot.ui.components import select
from bot.ui.texts import tr
from bot.ui.turn import board_acts
from bot.ui.turn.state import snapshot
from engine import PlaceTile

__all__ = ["simcord_bot"]  # the fixture simcord_env needs

#: How the board's moves come to the manager, as the board's server plays them.
VIA = "board"
STALE = tr("stale", "en")


def serve(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host serves the live board (its turn messages carry Play on the board)."""
    activity = ActivitySettings(0, "127.0.0.1", "42", "secret")
    settings = dataclasses.replace(table.bot.settings, activity=activity)
    monkeypatch.setattr(table.bot, "settings", settings)


async def board_move(table: Table, game_id: int, *, figure: bool = False) -> BoardAct:
    """The player in turn plays on the board: the first placement the turn offers (with the
    first figure it offers there, if ``figure``), then the act is announced."""
    manager = table.bot.manager
    snap = await snapshot(manager, game_id)
    view = snap.view
    assert view.phase == "tile" and view.user_id is not None
    entry = snap.screen.placements()[0]
    first = PlaceTile(entry.pos[0], entry.pos[1], entry.rotation)
    move = Move((first,), close=True)
    if figure:
        figures = step_screen(snap.require_game(), snap.screen, first).figures
        if figures:
            move = Move((first, figures[0].action))
    result = await manager.play_turn(
        game_id, view.user_id, move, turn=view.turn, phase=view.phase, via=VIA
    )
    act = BoardAct("move", game_id, view.user_id, result)
    await board_acts.announce(table.bot, act)
    return act


def now(table: Table, message: Any) -> Any:
    """A message of the thread as it reads now (after edits)."""
    return next(m for m in table.thread().history() if m.id == message.id)


async def copy_of_menus(table: Table, game_id: int, message: Any) -> Any:
    """The placement menus of ``message`` as the bot made them, posted again in the thread (a
    client that had not seen them taken off: the bot answers a menu by its id alone)."""
    view = discord.ui.View(timeout=None)
    for component in components(message):
        custom = component.get("custom_id", "")
        if not custom.startswith("cc:put:"):
            continue
        menu = ids.decode(custom)
        assert isinstance(menu, ids.PutMenu)
        options = [
            discord.SelectOption(label=o["label"], value=o["value"]) for o in component["options"]
        ]
        view.add_item(select(menu, "copy", options))
    thread = table.bot.get_channel(table.thread().id)
    assert isinstance(thread, discord.Thread)
    await thread.send("copy", view=view)
    return table.last()


async def test_one_player_on_the_board_the_other_with_buttons_turn_after_turn(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    serve(table, monkeypatch)
    game_id = await table.new()
    manager = table.bot.manager
    alice, bob = table.players
    for turn in range(3):
        before = table.last()
        view = await manager.decision(game_id)
        assert view.user_id == alice.id and put_options(before)
        # Alice looks at a placement in Discord, then plays on the board instead.
        step = await pick(table, game_id, alice, before)
        await board_move(table, game_id, figure=turn == 1)
        after = table.last()
        assert after.id != before.id
        assert f"<@{bob.id}>" in after.content, after.content
        assert put_options(after) and custom_ids(after, "cc:live:")
        assert len(assert_png(simcord_env, after)) > 1000
        assert (await manager.game(game_id)).message_id == after.id
        # The old turn message lost its menus, as after a button move ...
        assert not components(now(table, before))
        # ... and what a client still shows of it is refused: the step, a copy of the menus.
        assert STALE in said(await commit(alice, step))
        copy = await copy_of_menus(table, game_id, before)
        for player in (alice, bob):
            menu_id, option = put_options(copy)[0]
            refused = await player.select(copy, [option["value"]], custom_id=menu_id)
            assert STALE in said(refused), said(refused)
        assert (await manager.decision(game_id)).turn == view.turn + 1
        # Bob plays with the buttons on the message the board's move posted.
        await commit(bob, await pick(table, game_id, bob, after))
        assert not components(now(table, after))
        assert f"<@{alice.id}>" in table.last().content
    moves = await manager.storage.get_actions(game_id)
    assert {r.user_id for r in moves} == {alice.id, bob.id}
    assert len({r.turn for r in moves}) == 6


async def test_a_move_on_the_board_sets_the_computer_in_turn_playing(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=1)
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    opened = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    assert opened.response is not None
    await alice.select(opened.response, ["easy"], custom_id=f"cc:lopt:{game_id}:computer_add")
    table.bot.manager.seeds = lambda: 7
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    assert table.bot.computer_turns is not None
    await table.bot.computer_turns.idle()
    manager = table.bot.manager
    view = await manager.decision(game_id)
    assert view.user_id == alice.id
    posted = len(table.thread().history())
    await board_move(table, game_id)
    await table.bot.computer_turns.idle()
    # The computer played its turn at once and posted it: Alice is in turn again.
    assert (await manager.decision(game_id)).user_id == alice.id
    computer = [r for r in await manager.storage.get_actions(game_id) if r.turn == view.turn + 1]
    assert computer and all(r.user_id is not None and r.user_id < 0 for r in computer)
    assert len(table.thread().history()) == posted + 2  # the board's move, then the computer's
    assert put_options(table.last()) and f"<@{alice.id}>" in table.last().content
    assert_png(simcord_env, table.last())


async def test_an_undo_on_the_board_is_done_or_asked_in_the_thread(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    game_id = await table.new()
    manager = table.bot.manager
    alice, bob = table.players
    # Alice plays on the board and takes it back there while nobody has acted since.
    await board_move(table, game_id)
    moved = table.last()
    result = await manager.undo(game_id, alice.id)
    assert result.undone
    await board_acts.announce(table.bot, BoardAct("undo", game_id, alice.id, result))
    again = table.last()
    assert "The last turn was taken back" in again.content and "alice" in again.content
    assert f"<@{alice.id}>" in again.content and put_options(again)
    assert_png(simcord_env, again)
    assert not components(now(table, moved))
    assert await manager.storage.get_actions(game_id) == []
    # Alice plays on the board, Bob with the buttons; Alice asks for Bob's turn back.
    await board_move(table, game_id)
    await commit(bob, await pick(table, game_id, bob, table.last()))
    before = await manager.storage.get_actions(game_id)
    result = await manager.undo(game_id, alice.id)
    assert not result.undone
    await board_acts.announce(table.bot, BoardAct("undo", game_id, alice.id, result))
    request = table.last()
    assert f"<@{alice.id}> asks to take back the last turn (bob's)" in request.content
    assert f"<@{bob.id}>" in request.content
    agree = next(i for i in custom_ids(request, "cc:undo:") if i.endswith(":yes"))
    assert any(i.endswith(":no") for i in custom_ids(request, "cc:undo:"))
    # Bob agrees with the button: his turn goes back and he plays again.
    await bob.click(request, custom_id=agree)
    assert await manager.storage.get_actions(game_id) == [
        r for r in before if r.turn < before[-1].turn
    ]
    assert (await manager.decision(game_id)).user_id == bob.id
    assert "The last turn was taken back" in table.last().content
    assert put_options(table.last())


async def test_resignations_on_the_board_are_told_and_the_last_ends_the_game(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    game_id = await table.new()
    manager = table.bot.manager
    alice, bob, _ = table.players
    await board_move(table, game_id)  # alice
    await commit(bob, await pick(table, game_id, bob, table.last()))
    turn_message = table.last()
    result = await manager.resign(game_id, alice.id)
    await board_acts.announce(table.bot, BoardAct("resign", game_id, alice.id, result))
    told = shown(table.last())
    assert "alice resigned" in told and "Game over" not in told
    assert put_options(table.last()) and not components(now(table, turn_message))
    assert_png(simcord_env, table.last())
    result = await manager.resign(game_id, bob.id)
    await board_acts.announce(table.bot, BoardAct("resign", game_id, bob.id, result))
    end = table.last()
    text = shown(end)
    assert (await manager.decision(game_id)).finished
    assert "Game over! 🏆 carol wins with" in text, text
    lines = [line for line in text.splitlines() if "·" in line and line[:2] in ("1.", "- ")]
    assert lines[0].startswith("1. carol 🏆 · "), text
    assert all("(left the game)" in line for line in lines[1:]) and len(lines) == 3, text
    assert_png(simcord_env, end)


async def test_the_last_move_made_on_the_board_posts_the_end_with_the_final_table(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    serve(table, monkeypatch)
    game_id = await forced_game(table, "D U U", expansion=None)
    manager = table.bot.manager
    alice, bob = table.players
    await commit(alice, await pick(table, game_id, alice, table.last()))
    last_turn = table.last()
    assert f"<@{bob.id}>" in last_turn.content and put_options(last_turn)
    await board_move(table, game_id)  # bob's, the last tile
    assert (await manager.decision(game_id)).finished
    end = table.last()
    text = shown(end)
    assert "Game over!" in text, text
    lines = [line for line in text.splitlines() if "·" in line and line[:2] in ("1.", "2.")]
    assert {line.split(" ")[1] for line in lines} == {"alice", "bob"}, text
    assert len(assert_png(simcord_env, end)) > 1000
    assert not components(now(table, last_turn))
    assert not custom_ids(end, "cc:live:")
    row = await manager.game(game_id)
    assert row.status == "finished"
    assert row.message_id in {m.id for m in table.thread().history()}


async def test_the_bot_gives_its_board_server_this_announce(
    tmp_path: Path, manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    activity = ActivitySettings(0, "127.0.0.1", "42", "secret")
    bot = make_bot(tmp_path / "games.sqlite3", activity=activity)
    monkeypatch.setattr(page, "sdk_bundled", lambda: True)  # the bundle is built by npm
    monkeypatch.setattr(bot, "_manager", manager)
    await bot.start_activity()
    try:
        assert bot.activity_port
        server = bot._activity
        assert server is not None and server.manager is manager
        told = server.announce
        assert isinstance(told, functools.partial)
        assert told.func is board_acts.announce and told.args == (bot,)
    finally:
        await bot.close_database()
