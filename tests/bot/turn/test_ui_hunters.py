"""Hunters & Gatherers through Discord: the lobby, a whole game with a bonus tile, the rules.

The draw order is forced (as a record's ``draw`` and ``bonus_draw``): Alice's gatherer sits in
the start tile's gold forest, Bob closes it on turn 1 and must place bonus tile B01 in the same
turn; then four land tiles finish the game.
"""

from __future__ import annotations

import dataclasses
import re
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
    live_step,
    put_options,
    said,
    shown,
    simcord_bot,
)

from bot.errors import WrongPlayerCount
from bot.manager import GameManager
from bot.ui.turn.hunters import turn as hunters_ui

__all__ = ["simcord_bot"]

DRAW = ["S", "L34", "L34", "L53", "L13", "L54", "L07"]
BONUS = ["B01", "B04"]


async def hunters_lobby(table: Table, **options: Any) -> tuple[int, Any]:
    await table.players[0].slash(table.channel, "carcassonne new", game="hunters", **options)
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    return game_id, lobby


async def forced_game(table: Table) -> int:
    """Alice and Bob in a Hunters & Gatherers game with the forced draw, started."""
    game_id, lobby = await hunters_lobby(table)
    summary = lobby.embeds[0].fields[0].value or ""
    assert "Hunters & Gatherers" in summary and "reconstructed" in summary
    await table.players[1].click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    assert row.kind == "hunters" and row.max_players == 5
    extra = {"draw": DRAW, "bonus_draw": BONUS}
    await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    manager.seeds = lambda: 5
    await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    return game_id


def menu(message: Any, prefix: str) -> dict[str, Any]:
    return next(c for c in components(message) if c.get("custom_id", "").startswith(prefix))


async def play_step(
    table: Table, game_id: int, cell: tuple[int, int], rotation: int, role: str | None
) -> Any:
    """The active player picks a square from the turn message, turns the tile, picks the role
    (by the word the menu shows) or no figure, and confirms; returns the new turn message."""
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    prompt = table.last()
    options = put_options(prompt)
    wanted = f"{cell[0]},{cell[1]},"
    mine = [(m, o) for m, o in options if o["value"].startswith(wanted)]
    assert mine, options
    exact = [(m, o) for m, o in mine if o["value"] == f"{wanted}{rotation}"]
    menu_id, option = (exact or mine)[0]
    await player.select(prompt, [option["value"]], custom_id=menu_id)
    step = await live_step(table, game_id, player)
    assert step.flags.ephemeral
    turn_to = [i for i in custom_ids(step, "cc:pl:") if i.split(":")[6] == str(rotation)]
    if turn_to and not exact:
        await player.click(step, custom_id=turn_to[0])
    if role is not None:
        # The step reminds where each role goes, and names each spot by its role.
        assert "hunter on a meadow" in step.content
        labels = {
            c.get("label", ""): c["custom_id"] for c in components(step) if c.get("type") == 2
        }
        target = next(i for label, i in labels.items() if role in label)
        await player.click(step, custom_id=target)
    else:
        await commit(player, step)
    return table.last()


async def test_a_two_player_game_with_a_bonus_tile_to_the_final_scores(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    game_id = await forced_game(table)
    manager = table.bot.manager
    first = table.last()
    assert "Tile to place: **" in first.content
    assert_png(simcord_env, first)

    # Turn 0: Alice puts a gatherer in the forest beside the start tile's gold.
    message = await play_step(table, game_id, (1, 0), 270, "gatherer")
    gatherer = "alice placed a tile (forest · meadow) at (1, 0) and put a gatherer on it."
    assert gatherer in message.content

    # Turn 1: Bob closes the forest: Alice's gatherer scores, Bob wins the bonus tile.
    message = await play_step(table, game_id, (0, 1), 0, None)
    text = message.content
    assert "alice scored 6 for the forest (3 tiles, gold)." in text
    assert "Gold! bob draws a bonus tile (" in text
    assert "Bonus tile: **" in text and "Place it now, it is still your turn." in text
    bob = table.players[1]
    assert text.count(f"<@{bob.id}>") == 1
    view = await manager.decision(game_id)
    assert (view.turn, view.phase, view.user_id, view.tile) == (1, "tile", bob.id, "B01")
    assert_png(simcord_env, message)

    # Still turn 1: Bob plays the bonus tile with one line, a hunter on the shrine's meadow.
    cell = put_options(message)[0][1]["label"].split(" ")[0]
    turns = await bob.autocomplete(table.thread(), "carcassonne place", "rotation", "", cell=cell)
    rotation = turns[0]["value"]
    figures = await bob.autocomplete(
        table.thread(), "carcassonne place", "figure", "", cell=cell, rotation=rotation
    )
    hunter = next(c["value"] for c in figures if "hunter" in c["name"])
    done = await bob.slash(
        table.thread(), "carcassonne place", cell=cell, rotation=rotation, figure=hunter
    )
    assert "Played." in said(done)
    view = await manager.decision(game_id)
    assert view.turn == 2 and view.user_id == table.players[0].id
    assert "bob placed a bonus tile (" in table.last().content
    assert "put a hunter on it" in table.last().content

    # The last land tiles, one line each; a hut goes on the lake of L13 when it comes.
    for _ in range(10):
        view = await manager.decision(game_id)
        if view.finished:
            break
        player = table.actor(view.user_id)
        offered = await player.autocomplete(table.thread(), "carcassonne place", "cell", "")
        cell = offered[0]["value"]
        place = {"cell": cell}
        turns = await player.autocomplete(
            table.thread(), "carcassonne place", "rotation", "", **place
        )
        place["rotation"] = turns[0]["value"]
        figures = await player.autocomplete(
            table.thread(), "carcassonne place", "figure", "", **place
        )
        hut = next((c["value"] for c in figures if c["value"].startswith("hut.I")), "none")
        result = await player.slash(table.thread(), "carcassonne place", figure=hut, **place)
        assert (await manager.decision(game_id)).turn > view.turn, said(result)
    final = table.last()
    assert (await manager.decision(game_id)).finished
    scores = shown(final)
    assert "Final scores" in scores
    assert re.search(r"alice( 🏆)? · \d+: .*Forests \(gatherers\) 6 · .*Gold 0", scores), scores
    assert re.search(r"bob( 🏆)? · \d+: .* · Gold 1", scores), scores
    assert not custom_ids(final)
    assert_png(simcord_env, final)


async def test_the_rules_say_the_deck_is_reconstructed_in_both_languages(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    anywhere = await table.players[0].slash(table.channel, "carcassonne rules")
    assert "/carcassonne new game: Hunters & Gatherers" in "\n".join(said(anywhere))
    await forced_game(table)
    result = await table.players[0].slash(table.thread(), "carcassonne rules")
    text = "\n".join(said(result))
    assert "**Hunters & Gatherers.**" in text
    assert "The deck is reconstructed" in text and "engine/hunters/hunters.toml" in text
    assert "**Carcassonne.**" not in text  # only this game's rules

    french = Table(simcord_env)
    admins = french.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = french.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    await admin.slash(french.channel, "carcassonne settings", language="fr")
    game_id, lobby = await hunters_lobby(french)
    assert "Chasseurs et Cueilleurs" in (lobby.embeds[0].fields[0].value or "")
    await french.players[1].click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    await french.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    assert "Tuile à poser : **" in french.last().content
    rules = "\n".join(said(await french.players[0].slash(french.thread(), "carcassonne rules")))
    assert "**Chasseurs et Cueilleurs.**" in rules and "La pioche est reconstituée" in rules


async def test_a_lobby_takes_two_to_five_hunters(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(1, "Alice", game="hunters")
    assert row.max_players == 5
    with pytest.raises(WrongPlayerCount, match="is for 2-5 players, and the lobby has 1"):
        await manager.lobbies.start(row.id, 1)
    for user in range(2, 6):
        row = await manager.lobbies.join(row.id, user, f"P{user}")
    assert len(row.seats) == 5
    with pytest.raises(Exception, match="full"):
        await manager.lobbies.join(row.id, 6, "Six")
    view = await manager.lobbies.start(row.id, 1)
    assert view.phase == "tile"


def test_the_bonus_prompt_and_breakdown_in_french() -> None:
    from bot.turn_view import turn_screen
    from engine import Game, Pass, PlaceFigure, PlaceTile, Setup

    game = Game(Setup(players=("A", "B"), game="hunters", draw=tuple(DRAW), bonus_draw=("B01",)))
    for action in (PlaceTile(1, 0, 270), PlaceFigure("man", 1, 0, 9), PlaceTile(0, 1, 0), Pass()):
        game.play(action)
    assert game.bonus_reason() == "gold"
    assert hunters_ui.place_key(turn_screen(game)) == "bonus_place"
    assert Game(Setup(players=("A",))).bonus_reason() is None


def test_hunters_events_read_as_sentences_in_both_languages() -> None:
    from bot.narrate import narrate
    from engine import Event, FeatureScored, FigurePlaced, TilePlaced
    from engine.core.events import BonusTileDrawn

    names = ["Alice", "Bob"]
    events: list[Event] = [
        TilePlaced(1, "L34", 0, 1, 0),
        FeatureScored("forest", {0: 8}, final=False, tiles=4, details={"nuggets": 1}),
        BonusTileDrawn(1, "B03"),
        TilePlaced(1, "B03", 2, 0, 90),
        FigurePlaced(1, "hut", "hut", 2, 0, "I1"),
        FeatureScored("river", {1: 6}, final=False, tiles=3, details={"fish": 3}),
        FeatureScored("hut", {1: 5}, final=True, details={"fish": 5}),
        FeatureScored(
            "meadow",
            {0: 8},
            final=True,
            tiles=5,
            details={"deer": 2, "mammoth": 2, "aurochs": 1, "tiger": 1, "fire": False},
        ),
    ]
    assert narrate(events, names, "en") == [
        "Bob placed a tile (L34) at (0, 1).",
        "Alice scored 8 for the forest (4 tiles, gold).",
        "Gold! Bob draws a bonus tile (B03) and plays it now.",
        "Bob placed a bonus tile (B03) at (2, 0) and put a hut on it.",
        "Bob scored 6 for the river (3 tiles, 3 fish).",
        "Bob scored 5 for the river system's huts at the end (5 fish in the river system).",
        "Alice scored 8 for the meadow at the end (2 deer, 2 mammoths, 1 aurochs, "
        "1 sabre-tooth tiger ate 1 deer).",
    ]
    french = narrate(events, names, "fr")
    assert french[3] == "Bob a posé une tuile bonus (B03) en (2, 0) et y a mis une hutte."
    assert french[6].endswith(
        "(2 cerfs, 2 mammouths, 1 aurochs, 1 tigre à dents de sabre a mangé 1 cerf)."
    )


def test_a_typed_spot_number_can_ask_for_the_hut() -> None:
    from bot.turn_view import figure_choices
    from bot.ui.turn.place_cmd import parse_figure
    from engine import Game, PlaceTile, Setup

    game = Game(Setup(players=("A", "B"), game="hunters", draw=("S", "L13", "L53")))
    game.play(PlaceTile(-1, 0, 0))  # L13: four rivers into a lake, beside the start tile's river
    figures = figure_choices(game)
    river = next(f for f in figures if f.figure == "hut" and f.action.at != "I1")
    assert parse_figure(figures, river.number) is not None
    assert parse_figure(figures, river.number).figure == "man"  # type: ignore[union-attr]
    assert parse_figure(figures, f"{river.number} hut") == river.action
    assert parse_figure(figures, f"{river.number} fisher").figure == "man"  # type: ignore[union-attr]


async def test_a_tile_with_nine_places_shows_its_meadows_a_tap_apart(
    simcord_env: simcord.Env,
) -> None:
    """L41 (two rivers into a lake between two forests) offers nine places: the forests, the
    rivers and the lake on the step's picture, the four meadows on a second page one button
    away; a hunter there still plays the whole move in one tap."""
    table = Table(simcord_env)
    game_id, lobby = await hunters_lobby(table)
    await table.players[1].click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    extra = {"draw": ["S", "L41", "L34", "L53"], "bonus_draw": BONUS}
    await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    manager.seeds = lambda: 5
    await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    view = await manager.decision(game_id)
    player = table.actor(view.user_id)
    prompt = table.last()
    menu_id, option = next((m, o) for m, o in put_options(prompt) if o["value"] == "1,0,0")
    await player.select(prompt, [option["value"]], custom_id=menu_id)
    step = await live_step(table, game_id, player)
    assert_png(simcord_env, step)
    captions = [c.get("label", "") for c in components(step) if c.get("type") == 2]
    assert "**5** lake" in step.content and "**6**" not in step.content, step.content
    assert "5 · hut" in captions and not any(c.startswith("6 ·") for c in captions)
    assert "**Spots 6\u20139** shows the others" in step.content, step.content
    page = next(i for i in custom_ids(step, "cc:pl:") if i.endswith(":p2"))
    await player.click(step, custom_id=page)
    fields = await live_step(table, game_id, player)
    assert_png(simcord_env, fields)
    labels = {c.get("label", ""): c["custom_id"] for c in components(fields) if c.get("type") == 2}
    assert {"6 · hunter", "7 · hunter", "8 · hunter", "9 · hunter", "Spots 1\u20135"} <= set(labels)
    assert "**6** meadow" in fields.content and "**1**" not in fields.content, fields.content
    assert any(i.endswith(":p1") for i in custom_ids(fields, "cc:pl:"))
    await player.click(fields, custom_id=labels["6 · hunter"])
    record = await manager.records.full_record(game_id)
    placed = record["actions"][-1]
    assert placed["type"] == "place_figure" and placed["figure"] == "man", placed
    assert "hunter" in table.last().content, table.last().content
