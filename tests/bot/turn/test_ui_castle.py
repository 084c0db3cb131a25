"""The Castle through Discord: a two-player lobby, the wall-tile step, a whole game to the end.

The draw order and the wall tiles on the towers are forced (as a record's ``draw`` and
``wall_draw``), so that Alice lands on tower 12/13 and holds wall tile 1 on her fourth turn.
"""

from __future__ import annotations

import dataclasses
import random
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
    pick,
    put_options,
    said,
    shown,
    simcord_bot,
    spot_ids,
    step_of,
)

from engine import CastleGame, Game, Pass, PlaceTile, Setup, UseWallTile
from engine.cli import random_action
from engine.core.actions import Action
from engine.core.tiles import kinds_by_name

__all__ = ["simcord_bot"]

#: The tower of the castle notes' example E3, closed by Bob on turn 5: Alice scores 4 + 8 = 12.
OPENING = [
    ((5, 0), "K02", 0, "tower"),  # Alice: knight on a tower that closes at once with S3 (4)
    ((0, 5), "K22", 90, None),
    ((4, 0), "K07", 180, "tower"),  # Alice's knight on the next tower
    ((3, 0), "K08", 90, None),
    ((3, 1), "K07", 0, None),
    ((4, 1), "K17", 270, None),  # Bob closes it: Alice's marker stops on 12
]


def the_other_tiles() -> list[str]:
    """The 54 castle tiles after the opening, in a fixed shuffled order."""
    rest = [k.name for k in kinds_by_name("castle").values() if not k.start for _ in range(k.count)]
    for _, kind, _, _ in OPENING:
        rest.remove(kind)
    random.Random(8).shuffle(rest)
    return rest


MORE = the_other_tiles()
WALLS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4)


def opening_actions(walls: tuple[int, ...] = WALLS) -> list[Action]:
    """The opening's actions, with each subject's spot taken from the engine."""
    draw = tuple(kind for _, kind, _, _ in OPENING) + tuple(MORE)
    game = Game(Setup(players=("a", "b"), game="castle", draw=draw, wall_draw=walls))
    actions: list[Action] = []
    for (x, y), _, rotation, feature in OPENING:
        placed: list[Action] = [PlaceTile(x, y, rotation)]
        game.play(placed[0])
        if game.legal_figures():
            oriented = game.board.tiles[(x, y)].oriented
            chosen: Action = Pass()
            for figure in game.legal_figures():
                local = oriented.feature_at(figure.at)
                if oriented.features[local].type == feature:
                    chosen = figure
            game.play(chosen)
            placed.append(chosen)
        actions += placed
    assert isinstance(game, CastleGame) and game.wall_hand(0) == [walls[0]]
    return actions


async def castle_lobby(table: Table, **options: Any) -> tuple[int, Any]:
    await table.players[0].slash(table.channel, "carcassonne new", game="castle", **options)
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    return game_id, lobby


async def forced_castle(
    table: Table, walls: tuple[int, ...] = WALLS, more: list[str] = MORE
) -> int:
    """Alice and Bob in a castle game with the forced draw; the opening played."""
    game_id, lobby = await castle_lobby(table)
    await table.players[1].click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    draw = [kind for _, kind, _, _ in OPENING] + more
    extra = {"draw": draw, "wall_draw": list(walls)}
    await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    manager.seeds = lambda: 3
    await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    for action in opening_actions(walls):
        view = await manager.decision(game_id)
        assert view.user_id is not None
        await manager.play_turn(game_id, view.user_id, action, turn=view.turn, phase=view.phase)
    await table.players[0].slash(table.thread(), "carcassonne board")
    return game_id


async def test_the_castle_lobby_takes_exactly_two_players(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    game_id, lobby = await castle_lobby(table)
    assert "The Castle" in lobby.embeds[0].fields[0].value
    assert "reconstructed" in lobby.embeds[0].fields[0].value
    alone = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    assert any("exactly 2" in t or "for 2 players" in t for t in said(alone)), said(alone)
    assert (await table.bot.manager.game(game_id)).status == "lobby"
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    full = await carol.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    assert any("full (2 players)" in t for t in said(full)), said(full)
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    view = await table.bot.manager.decision(game_id)
    assert view.phase == "tile" and view.user_id == alice.id
    assert_png(simcord_env, table.last())


async def test_rules_help_states_the_reconstruction_in_both_languages(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    game_id = await forced_castle(table)
    shown = await table.players[0].slash(table.thread(), "carcassonne rules", game=game_id)
    text = shown.response.content if shown.response else ""
    assert "The Castle" in text and "reconstruction" in text and "wall tile" in text
    french = Table(simcord_env)
    admins = french.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = french.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    await admin.slash(french.channel, "carcassonne settings", language="fr")
    french_id, lobby = await castle_lobby(french)
    assert "Le Château" in lobby.embeds[0].fields[0].value
    assert "reconstitués" in lobby.embeds[0].fields[0].value
    shown = await french.players[0].slash(french.channel, "carcassonne rules", game=french_id)
    text = "\n".join(said(shown))
    assert "Le Château" in text and "reconstitution" in text and "tuile Mur" in text


async def use_wall_tile_1(table: Table, game_id: int) -> None:
    """Alice plays wall tile 1 in two taps: its button on the turn message, then Confirm."""
    alice = table.players[0]
    prompt = table.last()
    button = next(c for c in components(prompt) if c.get("custom_id", "").startswith("cc:wall:"))
    assert button["label"] == "Play wall tile 1 · Two turns in a row"
    opened = await alice.click(prompt, custom_id=button["custom_id"])
    step = step_of(opened)
    assert step.ephemeral
    assert step.content == "Wall tile 1 · Two turns in a row. **Confirm** plays it."
    assert [c.get("label") for c in components(step)] == ["Confirm"]
    await alice.click(step, custom_id=next(i for i in custom_ids(step, "cc:wok:")))
    assert step_of(opened).content == "Played."


def bold_names(text: str) -> set[str]:
    return set(re.findall(r"\*\*(.+?)\*\*", text))


async def take_turn(table: Table, game_id: int) -> None:
    """Whoever decides: a placement by clicks (first square, first rotation, a subject on the
    first spot every other turn), or End my turn when the turn was left open."""
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    prompt = table.last()
    if view.phase == "figure":
        await player.click(prompt, custom_id=next(i for i in custom_ids(prompt, "cc:wend:")))
        return
    if view.turn % 5 == 4:  # now and then the one-line command, on the first lettered square
        offered = await player.autocomplete(
            table.thread(), "carcassonne place", "rotation", "", cell="A"
        )
        rotation = offered[0]["value"]
        await player.slash(table.thread(), "carcassonne place", cell="A", rotation=rotation)
        return
    step = await pick(table, game_id, player, prompt)
    assert_png(table.env, step)
    if spot_ids(step) and view.turn % 2 == 0:
        await commit(player, step, 1)
    else:
        await commit(player, step)


async def test_a_castle_game_with_a_wall_tile_played_to_the_final_scores(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await forced_castle(table)
    manager = table.bot.manager
    view = await manager.decision(game_id)
    assert view.turn == 6 and view.user_id == alice.id and view.phase == "tile"
    prompt = table.last()
    assert "Play wall tile 1 · Two turns in a row" in [c.get("label") for c in components(prompt)]
    assert not [c for c in components(prompt) if c.get("custom_id", "").startswith("cc:wsel:")]
    assert_png(simcord_env, prompt)
    await use_wall_tile_1(table, game_id)
    played = table.last()
    assert "alice plays wall tile 1" in played.content, played.content
    assert not custom_ids(played, "cc:wall:") and not custom_ids(played, "cc:wsel:")
    await take_turn(table, game_id)
    again = await manager.decision(game_id)
    assert again.user_id == alice.id and again.turn == 7, "wall tile 1: Alice plays again"
    for _ in range(200):
        view = await manager.decision(game_id)
        if view.finished:
            break
        await take_turn(table, game_id)
        after = await manager.decision(game_id)
        assert (after.turn, after.phase) != (view.turn, view.phase), table.last().content
    final = table.last()
    assert "Final scores" in shown(final), shown(final)
    assert "Game over!" in final.content
    assert not custom_ids(final)
    image = assert_png(simcord_env, final)
    assert len(image) < 10 * 1024 * 1024
    record = await manager.records.export_record(game_id)
    assert {"type": "use_wall_tile", "wall": 1} in record["actions"]
    assert UseWallTile(1).to_json() in record["actions"]


async def test_a_wall_tile_is_played_once_and_only_by_its_owner(simcord_env: simcord.Env) -> None:
    """Bob cannot open Alice's confirm; two confirms opened for one tile play it once."""
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await forced_castle(table)
    prompt = table.last()
    button = next(i for i in custom_ids(prompt, "cc:wall:"))
    refused = await bob.click(prompt, custom_id=button)
    assert any("alice" in t and "turn" in t for t in said(refused)), said(refused)
    first = await alice.click(prompt, custom_id=button)
    second = await alice.click(prompt, custom_id=button)
    confirms = [next(i for i in custom_ids(step_of(o), "cc:wok:")) for o in (first, second)]
    await alice.click(step_of(first), custom_id=confirms[0])
    late = await alice.click(step_of(second), custom_id=confirms[1])
    assert any("no wall tile 1" in t for t in said(late)), said(late)
    record = await table.bot.manager.records.export_record(game_id)
    assert [a for a in record["actions"] if a["type"] == "use_wall_tile"] == [
        {"type": "use_wall_tile", "wall": 1}
    ]


async def test_wall_tile_2_after_a_knight_doubles_that_tower(simcord_env: simcord.Env) -> None:
    """Alice holds wall tile 2 and puts a knight on an open tower: before her turn is scored
    the turn message offers the tile on that tower, lettered on the board."""
    table = Table(simcord_env)
    alice = table.players[0]
    more = ["K03", *(k for k in MORE if k != "K03")]
    game_id = await forced_castle(table, walls=(2, 1, 3, 4, 5, 6, 7, 8, 9, 1, 3, 4, 5), more=more)
    prompt = table.last()
    assert not custom_ids(prompt, "cc:wall:"), "no tower of Alice's to double yet"
    value = next(o["value"] for _, o in put_options(prompt) if o["value"].startswith("6,0,"))
    step = await pick(table, game_id, alice, prompt, value=value)
    assert "keeps your turn open" not in step.content  # no target before the knight
    knight = next(c for c in components(step) if c.get("custom_id", "").endswith(":subject.6"))
    assert "knight" in knight["label"]
    await alice.click(step, custom_id=knight["custom_id"])
    view = await table.bot.manager.decision(game_id)
    assert (view.turn, view.phase) == (6, "figure")
    wall_step = table.last()
    assert "put a knight on it" in wall_step.content
    assert "Before your turn is scored" in wall_step.content
    labels = [c.get("label") for c in components(wall_step)]
    assert "End my turn" in labels
    # One wall tile and one target: a button naming both, lettered after the squares (none
    # are lettered in this phase: A).
    button = next(c for c in components(wall_step) if c.get("custom_id", "").startswith("cc:wall:"))
    assert button["label"] == "Play wall tile 2 · Tower A scores double for you"
    assert_png(simcord_env, wall_step)
    opened = await alice.click(wall_step, custom_id=button["custom_id"])
    step = step_of(opened)
    assert step.content.startswith("Wall tile 2 · Tower A scores double for you. **Confirm**")
    assert "The tower of 1 tile lettered A in the turn picture." in step.content, step.content
    assert bold_names(step.content) <= {c.get("label") for c in components(step)}
    await alice.click(step, custom_id=next(i for i in custom_ids(step, "cc:wok:")))
    played = table.last()
    assert "alice plays wall tile 2: the tower at (6, 0) will score double" in played.content
    assert not custom_ids(played, "cc:wall:")
    await alice.click(played, custom_id=next(i for i in custom_ids(played, "cc:wend:")))
    view = await table.bot.manager.decision(game_id)
    assert (view.turn, view.phase) == (7, "tile") and view.user_id == table.players[1].id
    record = await table.bot.manager.records.export_record(game_id)
    assert {"type": "use_wall_tile", "wall": 2, "x": 6, "y": 0, "at": 6} in record["actions"]


async def test_a_typed_turn_with_no_subject_keeps_the_turn_open_as_the_buttons_do(
    simcord_env: simcord.Env,
) -> None:
    """One path per turn: ``/carcassonne place ... figure: none`` plays the decision the buttons
    play. Alice holds wall tile 1: her tile placed with no subject leaves her turn open for it
    (before, the typed command passed at once and her wall tile waited for her next turn)."""
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await forced_castle(table)
    prompt = table.last()
    assert custom_ids(prompt, "cc:wall:"), "Alice may play her wall tile now"
    label, option = put_options(prompt)[0][1]["label"], put_options(prompt)[0][1]
    cell, _, rotation = label.partition(" · ")
    typed: dict[str, Any] = {"cell": cell, "figure": "none"}
    if rotation:
        typed["rotation"] = int(rotation.rstrip("°"))
    before = await table.bot.manager.decision(game_id)
    await alice.slash(table.thread(), "carcassonne place", **typed)
    view = await table.bot.manager.decision(game_id)
    assert (view.turn, view.phase, view.user_id) == (before.turn, "figure", alice.id), option
    labels = [c.get("label") for c in components(table.last())]
    assert "End my turn" in labels and "Play wall tile 1 · Two turns in a row" in labels
    record = await table.bot.manager.records.full_record(game_id)
    assert record["actions"][-1]["type"] == "place_tile"  # no pass after it


def test_what_a_step_played_names_a_subject_by_its_role_as_its_button_does() -> None:
    """The one rule for a figure's name: a subject on a tower is a knight, in the step's button
    and in the private "Played: ..." line alike (the line said "subject" before)."""
    from bot.spot_words import figure_name
    from bot.turn_view import step_screen, turn_screen
    from bot.ui.turn.flow import played_words

    draw = tuple(kind for _, kind, _, _ in OPENING) + tuple(MORE)
    game = Game(Setup(players=("a", "b"), game="castle", draw=draw, wall_draw=WALLS))
    step = step_screen(game, turn_screen(game), PlaceTile(5, 0, 0))
    tower = next(f for f in step.figures if f.feature == "tower")
    assert tower.figure == "subject" and tower.role == "knight"
    assert figure_name(tower, "en") == "knight"
    words = played_words(step, tower, "en")
    assert "knight on the tower" in words and "subject" not in words
    assert "chevalier" in played_words(step, tower, "fr")


PIC = "picture"


def test_several_wall_tiles_are_one_menu_entry_each_and_one_alone_is_a_button() -> None:
    """The wall tiles on the turn message: a menu naming each tile and its target in words
    (no menu of a single entry: one tile alone is a button naming it)."""
    from types import SimpleNamespace

    from bot.turn_view import WallChoice
    from bot.ui.turn.castle.turn import wall_control

    one = WallChoice("1", UseWallTile(1), "")
    two = WallChoice("2,6,0,6", UseWallTile(2, 6, 0, 6), "C", 3)
    three = WallChoice("3,2,1,0", UseWallTile(3, 2, 1, 0), "D", 1)

    def snap(*walls: WallChoice) -> Any:
        return SimpleNamespace(
            row=SimpleNamespace(id=4),
            view=SimpleNamespace(turn=9),
            screen=SimpleNamespace(walls=walls),
        )

    menu = wall_control(snap(one, two, three), "tile", row=2, locale="en").to_component_dict()
    assert menu["custom_id"] == "cc:wsel:4:9:t" and menu["placeholder"] == "Play a wall tile…"
    assert [(o["label"], o.get("description")) for o in menu["options"]] == [
        ("1 · Two turns in a row", None),
        (
            "2 · Tower C scores double for you",
            "the tower of 3 tiles lettered C in the turn picture",
        ),
        ("3 · House D scores double for you", "the house of 1 tile lettered D in the turn picture"),
    ]
    alone = wall_control(snap(two), "figure", row=1, locale="de").to_component_dict()
    assert alone["custom_id"] == "cc:wall:4:9:f"
    assert alone["label"] == "Mauerplättchen 2 · Turm C bringt dir doppelte Punkte spielen"


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_castle_texts_name_only_buttons_that_exist(lang: str) -> None:
    """Every bold name in The Castle's texts (turn, step, wall tiles, help, rules) is the label
    of a button The Castle's turn shows, in each language."""
    import catalogs
    from bot.ui.texts import tr
    from bot.ui.turn.castle.turn import step_lines

    labels = {
        tr(key, lang)
        for key in (
            "confirm",
            "no_figure",
            "place_tile",
            "castle_choose_subject",
            "castle_end_turn",
        )
    }
    texts = [
        tr("castle_wall_confirm", lang, what="1", button=tr("confirm", lang)),
        tr("castle_walls_now", lang),
        tr("castle_wall_intro", lang),
        tr("castle_subject_or_wall", lang),
        tr("castle_wall_step", lang),
        catalogs.text("rules", "castle", lang).split("**", 2)[2],  # after its bold heading
        *(catalogs.text("help", f"castle.{n}.text", lang) for n in range(1, 5)),
    ]
    draw = tuple(kind for _, kind, _, _ in OPENING) + tuple(MORE)
    game = Game(Setup(players=("a", "b"), game="castle", draw=draw, wall_draw=WALLS))
    for action in opening_actions():
        game.play(action)
    game.play(game.legal_placements()[0])
    texts += step_lines(game, lang)
    assert step_lines(game, lang), "the step's hint is shown: a wall tile stays playable"
    named = {name for text in texts for name in re.findall(r"\*\*(.+?)\*\*", text)}
    assert named <= labels, named - labels


#: A castle deal and the moves (wall tiles kept) to a turn where the player holds wall tiles 1
#: and 2, tile 2 with a tower to double: the wall tiles are a menu of two entries.
TWO_WALLS = (1, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 4)
TWO_WALLS_SEED = 22


def two_walls_actions() -> list[Action]:
    """Random moves of seed 22, never a wall tile, until one player may play two."""
    game = Game(Setup(players=("a", "b"), game="castle", seed=TWO_WALLS_SEED, wall_draw=TWO_WALLS))
    rng = random.Random(TWO_WALLS_SEED)
    actions: list[Action] = []
    while len({(a.wall, a.target) for a in game.legal(UseWallTile)}) < 2:
        action = random_action(game, rng)
        while isinstance(action, UseWallTile):
            action = random_action(game, rng)
        game.play(action)
        actions.append(action)
    return actions


async def test_two_wall_tiles_are_a_menu_and_each_is_two_taps(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    game_id, lobby = await castle_lobby(table)
    await table.players[1].click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    extra = {"wall_draw": list(TWO_WALLS)}
    await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    manager.seeds = lambda: TWO_WALLS_SEED
    await table.players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    for action in two_walls_actions():
        view = await manager.decision(game_id)
        assert view.user_id is not None
        await manager.play_turn(game_id, view.user_id, action, turn=view.turn, phase=view.phase)
    await table.players[0].slash(table.thread(), "carcassonne board")
    view = await manager.decision(game_id)
    player = table.actor(view.user_id)
    prompt = table.last()
    menu = next(c for c in components(prompt) if c.get("custom_id", "").startswith("cc:wsel:"))
    assert [o["label"] for o in menu["options"]] == [
        "1 · Two turns in a row",
        "2 · Tower A scores double for you",
    ]
    assert not custom_ids(prompt, "cc:wall:")
    assert_png(simcord_env, prompt)
    value = menu["options"][1]["value"]
    chosen = await player.select(prompt, [value], custom_id=menu["custom_id"])  # tap 1
    step = step_of(chosen)
    assert step.ephemeral and "**Confirm** plays it." in step.content
    await player.click(step, custom_id=next(i for i in custom_ids(step, "cc:wok:")))  # tap 2
    played = table.last()
    assert "plays wall tile 2" in played.content, played.content
    after = next(c for c in components(played) if c.get("custom_id", "").startswith("cc:wall:"))
    assert after["label"] == "Play wall tile 1 · Two turns in a row", "one left: a button"
