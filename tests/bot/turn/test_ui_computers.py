"""Computer players in Discord: seated from the lobby by its creator, playing their turns at
once and posting them like anyone else's, named (never pinged) everywhere, in the record, and
still playing after a restart."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import simcord
from conftest_ui import (
    Table,
    attachment_bytes,
    commit,
    components,
    make_bot,
    pick,
    said,
    shown,
    simcord_bot,
)

from bot.storage import SeatRow

__all__ = ["simcord_bot"]


async def lobby_with_computers(table: Table, *levels: str) -> tuple[int, Any]:
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    opened = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    menu = opened.response
    assert menu is not None
    for level in levels:
        await alice.select(menu, [level], custom_id=f"cc:lopt:{game_id}:computer_add")
    return game_id, lobby


async def start(table: Table, game_id: int, lobby: Any, seed: int = 7) -> None:
    table.bot.manager.seeds = lambda: seed
    await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    assert table.bot.computer_turns is not None
    await table.bot.computer_turns.idle()


async def test_the_creator_seats_and_removes_computer_players(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    game_id, lobby = await lobby_with_computers(table, "easy", "hard")
    row = await table.bot.manager.game(game_id)
    assert [(s.name, s.computer) for s in row.seats[1:]] == [
        ("Bot 1 (Easy)", "easy"),
        ("Bot 2 (Hard)", "hard"),
    ]
    assert all(s.user_id < 0 for s in row.seats[1:])
    current = [m for m in table.channel.history() if m.id == lobby.id]
    text = shown(current[0])
    assert "**Bot 2 (Hard)**" in text and "<@-" not in text
    # Another player may not seat computers.
    bob = table.players[1]
    refused = await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    assert any("options" in line.lower() or "<@" in line for line in said(refused))
    # The creator takes one out again.
    opened = await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    assert opened.response is not None
    await table.players[0].select(
        opened.response, ["1"], custom_id=f"cc:lopt:{game_id}:computer_remove"
    )
    row = await table.bot.manager.game(game_id)
    assert [s.computer for s in row.seats] == [None, "hard"]


async def test_a_computer_plays_its_turn_at_once_and_posts_it_with_the_board(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=1)
    alice = table.players[0]
    game_id, lobby = await lobby_with_computers(table, "medium")
    await start(table, game_id, lobby)
    for turn in range(3):
        prompt = table.last()
        assert alice.mention in prompt.content
        await commit(alice, await pick(table, game_id, alice, prompt))
        assert table.bot.computer_turns is not None
        await table.bot.computer_turns.idle()
        view = await table.bot.manager.decision(game_id)
        assert view.seat == 0 and view.turn == 2 * (turn + 1)
    messages = table.thread().history()[-4:]
    computer_move = next(m for m in messages if "Bot 1 (Medium)" in m.content)
    assert "<@-" not in computer_move.content
    assert attachment_bytes(simcord_env, computer_move.attachments[0]).startswith(b"\x89PNG")
    record = await table.bot.manager.records.export_record(game_id)
    assert record["computer"] == {"Bot 1 (Medium)": "medium"}
    assert json.loads(json.dumps(record))["players"][1] == "Bot 1 (Medium)"


async def test_computers_play_each_other_until_a_person_decides(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=1)
    alice = table.players[0]
    game_id, lobby = await lobby_with_computers(table, "easy", "hard")
    await start(table, game_id, lobby)
    await commit(alice, await pick(table, game_id, alice, table.last()))
    assert table.bot.computer_turns is not None
    await table.bot.computer_turns.idle()
    view = await table.bot.manager.decision(game_id)
    assert view.seat == 0 and view.turn == 3


async def test_a_computer_whose_turn_came_before_a_restart_plays_after_it(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    table = Table(simcord_env, players=1)
    alice = table.players[0]
    game_id, lobby = await lobby_with_computers(table, "easy")
    await start(table, game_id, lobby)
    # Alice plays straight through the manager: no turn message, so no computer started.
    manager = table.bot.manager
    view = await manager.decision(game_id)
    await manager.play_turn(game_id, alice.id, view.placements[0], turn=view.turn)
    if (await manager.decision(game_id)).seat == 0:
        from engine import Pass

        await manager.play_turn(game_id, alice.id, Pass(), turn=view.turn)
    assert (await manager.decision(game_id)).seat == 1
    await simcord_env.restart_bot(make_bot(tmp_path / "games.sqlite3"))
    assert table.bot.computer_turns is not None
    await table.bot.computer_turns.idle()
    view = await table.bot.manager.decision(game_id)
    assert view.seat == 0 and view.turn == 2


def test_a_computer_seat_is_named_not_mentioned() -> None:
    person = SeatRow(0, 42, "alice", "blue")
    computer = SeatRow(1, -1, "Bot 1 (Hard)", "red", computer="hard")
    assert person.mention == "<@42>"
    assert computer.mention == "**Bot 1 (Hard)**"


async def test_practice_starts_a_game_against_computers_at_once(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=1)
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne practice", level="easy", opponents=2)
    assert table.bot.computer_turns is not None
    await table.bot.computer_turns.idle()
    game_id = (await table.bot.manager.records.games_of_user(alice.id))[0].id
    row = await table.bot.manager.game(game_id)
    assert [s.computer for s in row.seats] == [None, "easy", "easy"]
    assert row.status == "active"
    prompt = table.last()
    assert alice.mention in prompt.content
    await commit(alice, await pick(table, game_id, alice, prompt))
    await table.bot.computer_turns.idle()
    assert (await table.bot.manager.decision(game_id)).turn == 3


async def test_a_short_game_against_an_expert_is_played_to_its_end(
    simcord_env: simcord.Env,
) -> None:
    """An expert seat plays its turns at once (a worker's second at most each) until the end of
    a game of six tiles, and the final scores are posted."""
    import dataclasses

    table = Table(simcord_env, players=1)
    alice = table.players[0]
    game_id, lobby = await lobby_with_computers(table, "expert")
    manager = table.bot.manager
    row = await manager.game(game_id)
    await manager.storage.save_game(
        dataclasses.replace(row, setup_extra={"draw": ["D", "U", "U", "A", "U", "B", "N"]})
    )
    await start(table, game_id, lobby)
    assert table.bot.computer_turns is not None
    for _ in range(6):
        view = await manager.decision(game_id)
        if view.finished:
            break
        assert view.seat == 0, "the expert plays its turns on its own"
        await commit(alice, await pick(table, game_id, alice, table.last()))
        await table.bot.computer_turns.idle()
    assert (await manager.game(game_id)).status == "finished"
    log = await manager.storage.get_actions(game_id)
    tiles = [a for a in log if a.action["type"] == "place_tile"]
    assert [a.seat for a in tiles].count(1) == 3 and len(tiles) == 6
    assert all(a.forced is None for a in log)
    assert any("Game over" in m.content for m in table.thread().history())


@pytest.mark.parametrize(("lang", "word"), [("en", "Expert"), ("fr", "Expert"), ("de", "Experte")])
async def test_the_expert_level_is_offered_in_every_language(
    simcord_env: simcord.Env, lang: str, word: str
) -> None:
    """The lobby's menu of levels offers the expert in the game's language, and the commands'
    level choices carry its name in French and German."""
    table = Table(simcord_env, players=1)
    await table.bot.manager.records.update_guild_settings(table.guild.id, locale=lang)
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    opened = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    assert opened.response is not None
    menu = next(
        c for c in components(opened.response) if c.get("custom_id", "").endswith("computer_add")
    )
    options = {o["value"]: o["label"] for o in menu["options"]}
    assert list(options) == ["easy", "medium", "hard", "expert"]
    assert options["expert"] == word
    assert "**" + word + "**" in shown(opened.response)
    await alice.select(opened.response, ["expert"], custom_id=f"cc:lopt:{game_id}:computer_add")
    row = await table.bot.manager.game(game_id)
    assert [s.computer for s in row.seats] == [None, "expert"]
    assert row.seats[1].name == f"Bot 1 ({word})"
    synced = [r for r in simcord_env.http_requests if r.method == "PUT" and "commands" in r.path]
    commands = synced[-1].json
    assert isinstance(commands, list)
    choices = [
        choice
        for command in commands
        for choice in _choices(command)
        if choice["value"] == "expert"
    ]
    assert len(choices) >= 2  # practice's level, a league's computers
    for choice in choices:
        assert choice["name"] == "expert"
        assert choice["name_localizations"] == {"fr": "expert", "de": "experte"}


def _choices(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every choice of a synced command's options, at any depth."""
    found = list(node.get("choices") or ())
    for option in node.get("options") or ():
        found += _choices(option)
    return found
