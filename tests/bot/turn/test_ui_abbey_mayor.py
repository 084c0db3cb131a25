"""Abbey & Mayor and the tactical hand through Discord, from positions reached with a forced
draw order: the abbey instead of the tile, mayor, barn and wagon in the figure step, freed
wagons moving in turn order, the end-game abbey, and a hand only its owner sees."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import discord
import simcord
from conftest_ui import (
    Table,
    assert_png,
    commit,
    components,
    custom_ids,
    live_step,
    pick,
    put_options,
    said,
    shown,
    simcord_bot,
    spot_ids,
    step_of,
)
from PIL import Image
from ui_scenes import (
    RING,
    RING_LAST,
    abbey_scene,
    button_id,
    button_labels,
    forced_game,
    menu,
    option_labels,
    option_values,
    play,
    put,
    repost,
)

from engine import Pass, PlaceAbbey, PlaceFigure, PlaceTile

__all__ = ["simcord_bot"]


async def pick_cell(
    table: Table, game_id: int, player: Any, prompt: Any, x: int, y: int, rotation: str = ""
) -> Any:
    """Interaction 1: square (x, y) (in ``rotation`` if given) from a turn message's menus;
    returns the player's placement step."""
    wanted = f"{x},{y},{rotation}"
    for _, option in put_options(prompt):
        if option["value"].startswith(wanted):
            return await pick(table, game_id, player, prompt, value=option["value"])
    raise AssertionError(f"square {x},{y} is not offered")


def spot_labels_of(step: Any) -> list[str]:
    """The labels of the step's figure-spot buttons, in number order."""
    by_id = {c.get("custom_id"): c.get("label", "") for c in components(step)}
    return [by_id[i] for i in spot_ids(step)]


async def choose_figure(player: Any, step: Any, wanted: str) -> Any:
    """Interaction 2: the spot whose label contains ``wanted``; this plays the move."""
    target = next(
        i for i, label in zip(spot_ids(step), spot_labels_of(step), strict=True) if wanted in label
    )
    return await player.click(step, custom_id=target)


async def test_the_abbey_is_played_into_a_hole_instead_of_the_drawn_tile(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await forced_game(table, "D U U A U U B N U E")
    assert not any(o["value"].endswith(",a") for _, o in put_options(table.last())), "no hole"
    for move in [*RING, RING_LAST, (-2, 0, 0, None, None)]:
        await put(table, game_id, *move)
    prompt = await repost(table, game_id)
    assert "Tile to place: **" in prompt.content
    abbey = next(o for _, o in put_options(prompt) if o["value"].endswith(",a"))
    assert abbey["value"] == "0,1,a" and abbey["label"].startswith("Abbey in hole ")
    menu_id = next(m for m, o in put_options(prompt) if o is abbey or o == abbey)
    refused = await bob.select(prompt, [abbey["value"]], custom_id=menu_id)
    assert refused.ephemeral and "alice" in said(refused)[0], said(refused)
    step = await pick(table, game_id, alice, prompt, value="0,1,a")
    assert step.flags.ephemeral and "Your abbey in hole" in step.content
    assert_png(simcord_env, step)
    # One place, numbered once: the monk and the wagon are two buttons of the same number.
    assert spot_labels_of(step) == ["1 · monk", "1 · wagon"]
    assert "**1** cloister" in step.content
    assert not custom_ids(step, "cc:pl:"), "an abbey has no rotation buttons"
    played = await choose_figure(alice, step, "monk")
    assert said(played) == ["Played: your abbey in hole F, monk."], said(played)
    turn = table.last()
    assert "alice placed their abbey at (0, 1) and put a monk on it." in turn.content
    assert "bob scored 2 for the road (2 tiles)." in turn.content
    assert f"<@{bob.id}>, your turn!" in turn.content and "Tile to place" in turn.content
    assert not any(o["value"].endswith(",a") for _, o in put_options(turn)), "hole filled"
    record = await table.bot.manager.records.full_record(game_id)
    assert record["actions"][-2:] == [
        PlaceAbbey(0, 1).to_json(),
        PlaceFigure("follower", 0, 1, "C").to_json(),
    ]


async def test_mayor_and_wagon_are_offered_on_a_city_and_the_barn_on_a_field_corner(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await forced_game(table, "D E B B B B E")
    step = await pick_cell(table, game_id, alice, table.last(), 0, -1)
    assert_png(simcord_env, step)
    assert not custom_ids(step, "cc:pl:"), "only one rotation fits: none is asked about"
    labels = spot_labels_of(step)
    assert {"1 · knight", "1 · mayor", "1 · wagon"} <= set(labels), labels
    assert "**1** city, south" in step.content, step.content
    await choose_figure(alice, step, "mayor")
    mayor = "alice placed a tile (city on 1 side) at (0, -1) and put the mayor on it."
    assert mayor in table.last().content
    # Three cloisters south of D; the fourth lets alice build a barn where all four meet.
    await put(table, game_id, 0, 1, 0)
    await put(table, game_id, 1, 1, 0)
    await put(table, game_id, 0, 2, 0)
    prompt = await repost(table, game_id)
    step = await pick_cell(table, game_id, alice, prompt, 1, 2)
    assert not custom_ids(step, "cc:pl:"), "a cloister: one look"
    assert any("barn" in label for label in spot_labels_of(step))
    await choose_figure(alice, step, "barn")
    assert "at (1, 2) and built the barn on its north-west corner." in (table.last().content)


async def test_freed_wagons_move_one_after_the_other_in_turn_order(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    game_id = await forced_game(table, "D E B A A X E")
    await put(table, game_id, 0, -1, 180)
    await put(table, game_id, 0, 1, 0)
    await put(table, game_id, -1, 0, 270, "wagon", 4)  # carol's wagon on the road A -> D
    await put(table, game_id, 1, -1, 0, "wagon", 7)  # alice's wagon on A's road south
    prompt = await repost(table, game_id)
    step = await pick_cell(table, game_id, bob, prompt, 1, 0)  # X ends both roads
    await commit(bob, step)
    first = table.last()
    assert "carol scored 3 for the road (3 tiles)." in first.content
    assert "alice scored 2 for the road (2 tiles)." in first.content
    assert f"<@{carol.id}>, your wagon is free" in first.content
    assert_png(simcord_env, first)
    labels = option_labels(first, "cc:wag:")
    assert labels == [  # lettered on their spots in the picture, named in words
        "A · cloister · 2 squares west of the last tile",
        "B · road, east · on the last tile",
        "C · road, south · on the last tile",
        "Take the wagon back",
    ]
    wagons = menu(first, "cc:wag:")["custom_id"]
    refused = await alice.select(first, ["1,0,4"], custom_id=wagons)
    assert "carol" in said(refused)[0], "alice's wagon waits for carol's"
    chosen = await carol.select(first, ["1,0,4"], custom_id=wagons)
    assert chosen.ephemeral and said(chosen) == [
        "Chosen: wagon to B, road, east, on the last tile.",
    ]
    assert chosen.response is not None
    await carol.click(chosen.response, custom_id=custom_ids(chosen.response, "cc:ok:")[0])
    second = table.last()
    assert "carol moved the wagon on to (1, 0)." in second.content
    assert f"<@{alice.id}>, your wagon is free" in second.content
    assert option_values(second, "cc:wag:") == ["1,-1,C", "1,0,7", "back"]
    back = await alice.select(second, ["back"], custom_id=menu(second, "cc:wag:")["custom_id"])
    assert said(back) == ["Chosen: take the wagon back."]
    assert back.response is not None
    await alice.click(back.response, custom_id=custom_ids(back.response, "cc:ok:")[0])
    view = await table.bot.manager.decision(game_id)
    assert (view.phase, view.user_id) == ("tile", carol.id)
    assert f"<@{carol.id}>, your turn!" in table.last().content


async def test_the_end_game_abbey_is_offered_to_the_next_players_in_turn(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    _, bob, carol = table.players
    game_id = await forced_game(table, "D U U A U U B N")
    for move in [*RING, RING_LAST]:
        await put(table, game_id, *move)
    prompt = await repost(table, game_id)
    assert f"<@{bob.id}>, the last tile is down" in prompt.content
    assert option_values(prompt, "cc:hole:") == ["0,1"]
    (hole,) = menu(prompt, "cc:hole:")["options"]
    assert re.fullmatch(r"A · 1 square [a-z-]+ of the last tile", hole["label"]), hole["label"]
    declined = await bob.click(prompt, custom_id=button_id(prompt, "No abbey"))
    assert declined.acknowledged
    kept = table.thread().history()[-2]
    assert kept.id == prompt.id and kept.attachments, "the public prompt keeps its board"
    prompt = table.last()
    assert f"<@{carol.id}>, the last tile is down" in prompt.content
    await carol.select(prompt, ["0,1"], custom_id=menu(prompt, "cc:hole:")["custom_id"])
    step = await live_step(table, game_id, carol)
    assert_png(simcord_env, step)
    await choose_figure(carol, step, "monk")
    final = table.last()
    assert "carol placed their abbey at (0, 1) and put a monk on it." in final.content
    assert "Final scores" in shown(final) and not custom_ids(final)
    assert_png(simcord_env, final)
    view = await table.bot.manager.decision(game_id)
    assert view.finished
    record = await table.bot.manager.records.full_record(game_id)
    assert Pass().to_json() in record["actions"][-4:]


async def test_the_tactical_hand_is_shown_only_to_its_owner(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    game_id = await table.new(seed=3, hand=True)
    prompt = table.last()
    assert not put_options(prompt), "the squares depend on the tile chosen"
    mine = button_id(prompt, "My tiles")
    seen = await bob.click(prompt, custom_id=mine)
    assert seen.ephemeral
    text = said(seen)[-1]
    assert text.startswith("Your tiles: 1. ") and "alice's turn" in text
    assert not put_options(step_of(seen)), "bob cannot play on alice's turn"
    assert_png(simcord_env, step_of(seen))
    opened = await alice.click(prompt, custom_id=mine)
    hand = step_of(opened)
    assert hand.ephemeral and hand.content.startswith("Your tiles: 1. ")
    assert len(hand.attachments) == 2, "the hand and the board"
    options = put_options(hand)
    assert options and all(o["label"].startswith("Tile ") for _, o in options)
    value = options[-1][1]["value"]
    chosen = value.split(",")[3]
    step = await pick(table, game_id, alice, hand, value=value)
    await commit(alice, step)
    record = await table.bot.manager.records.full_record(game_id)
    assert record["actions"][0]["type"] == "place_tile" and record["actions"][0]["tile"] == chosen
    assert "alice placed a tile (" in table.last().content
    # The public turn message never names anybody's tiles.
    assert all(chosen not in json.dumps(c) for c in [custom_ids(table.last())])


async def test_the_rotation_step_offers_each_fitting_look_with_its_picture(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await forced_game(table, "D L B", expansion=None)
    view = await table.bot.manager.decision(game_id)
    fits: dict[tuple[int, int], set[int]] = {}
    for p in view.placements:
        fits.setdefault((p.x, p.y), set()).add(p.rotation)
    (x, y), legal = max(fits.items(), key=lambda item: len(item[1]))
    assert len(legal) >= 2
    step = await pick_cell(table, game_id, alice, table.last(), x, y, str(max(legal)))
    buttons = [b for b in button_labels(step) if b.endswith("°")]
    assert buttons == [f"↻ {r}°" for r in sorted(legal)], "L has no symmetry: every fit is a look"
    picture = Image.open(io.BytesIO(assert_png(simcord_env, step)))
    assert picture.height > picture.width, "the close-up stands above the row of rotations"
    for rotation in sorted(legal, reverse=True):
        await alice.click(step, custom_id=button_id(step, f"↻ {rotation}°"))
        step = await live_step(table, game_id, alice)
        assert f"tile turned {rotation}°" in step.content
        chosen = [c for c in components(step) if c.get("label") == f"↻ {rotation}°"]
        assert chosen[0]["style"] == discord.ButtonStyle.primary.value
    await commit(alice, step)
    record = await table.bot.manager.records.full_record(game_id)
    assert record["actions"][0] == PlaceTile(x, y, min(legal)).to_json()


# -- /carcassonne place and its autocomplete: exactly what the menus offer ----------------------

SQUARE = re.compile(r"\((-?\d+), (-?\d+)\)$")


def menu_offers(prompt: Any) -> dict[tuple[int, int, bool], set[int]]:
    """The turn message's menus: (x, y, abbey) -> the rotations offered (none for an abbey)."""
    found: dict[tuple[int, int, bool], set[int]] = {}
    for _, option in put_options(prompt):
        x, y, what = option["value"].split(",")[:3]
        abbey = what == "a"
        found.setdefault((int(x), int(y), abbey), set()).update(() if abbey else {int(what)})
    return found


async def place_offers(
    table: Table, player: Any, thread: Any
) -> dict[tuple[int, int, bool], tuple[str, set[int]]]:
    """The ``place`` autocomplete: (x, y, abbey) -> (the cell value, the rotations offered)."""
    found: dict[tuple[int, int, bool], tuple[str, set[int]]] = {}
    for choice in await player.autocomplete(thread, "carcassonne place", "cell", ""):
        square = SQUARE.search(choice["name"])
        assert square is not None, choice
        abbey = choice["value"].endswith(" abbey")
        assert abbey == choice["name"].startswith("⛪"), choice
        rotations = await player.autocomplete(
            thread, "carcassonne place", "rotation", "", cell=choice["value"]
        )
        key = (int(square[1]), int(square[2]), abbey)
        found[key] = (choice["value"], {r["value"] for r in rotations})
    return found


async def test_place_offers_and_plays_the_abbey_in_a_hole_as_the_menus_do(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await abbey_scene(table, "E")
    prompt = await repost(table, game_id)
    menus = menu_offers(prompt)
    assert (0, 1, True) in menus and (0, 1, False) not in menus, "the tile does not fit F"
    offered = await place_offers(table, alice, table.thread())
    assert {k: v[1] for k, v in offered.items()} == menus
    assert offered[(0, 1, True)][0] == "F abbey"
    # The spots offered for the abbey are those of the step the menu opens.
    figures = await alice.autocomplete(
        table.thread(), "carcassonne place", "figure", "", cell="F abbey"
    )
    step = await pick(table, game_id, alice, prompt, value="0,1,a")
    assert [f["value"] for f in figures] == ["none", "follower.C", "wagon.C"]
    assert len(figures) - 1 == len(spot_ids(step))
    # An abbey is not turned: a rotation is refused, clearly and privately.
    turned = await alice.slash(table.thread(), "carcassonne place", cell="F", rotation=90)
    assert turned.ephemeral and said(turned) == [
        "Square F takes your abbey, which is not turned: leave `rotation` empty to play it "
        "there, or pick a square where your tile fits."
    ]
    # The hole's letter alone plays the abbey (the tile does not fit there), with the monk.
    played = await alice.slash(table.thread(), "carcassonne place", cell="F", figure="1")
    assert said(played) == ["Played."], said(played)
    record = await table.bot.manager.records.full_record(game_id)
    assert record["actions"][-2:] == [
        PlaceAbbey(0, 1).to_json(),
        PlaceFigure("follower", 0, 1, "C").to_json(),
    ]
    assert "alice placed their abbey at (0, 1) and put a monk on it." in table.last().content


async def test_a_hole_the_tile_fits_is_offered_twice_and_abbey_picks_the_abbey(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice = table.players[0]
    game_id = await abbey_scene(table, "D")
    prompt = await repost(table, game_id)
    menus = menu_offers(prompt)
    assert (0, 1, True) in menus and (0, 1, False) in menus
    offered = await place_offers(table, alice, table.thread())
    assert {k: v[1] for k, v in offered.items()} == menus
    letter = offered[(0, 1, False)][0]
    assert offered[(0, 1, True)][0] == f"{letter} abbey"
    nowhere = await alice.slash(table.thread(), "carcassonne place", cell="A abbey")
    assert said(nowhere) == [
        f"Square A is not a hole for your abbey: the holes this turn are {letter}."
    ], said(nowhere)
    # Any language's word asks for the abbey, in any case.
    played = await alice.slash(table.thread(), "carcassonne place", cell=f"{letter.lower()} Abtei")
    assert said(played) == ["Played."], said(played)
    record = await table.bot.manager.records.full_record(game_id)
    assert record["actions"][-2:] == [PlaceAbbey(0, 1).to_json(), Pass().to_json()]


async def test_place_takes_each_move_its_autocomplete_offers_in_a_four_player_game(
    simcord_env: simcord.Env,
) -> None:
    """Turn after turn of a 4-player Abbey & Mayor game: the autocomplete offers what the
    menus offer, and the command plays a random pick of it (abbeys included)."""
    table = Table(simcord_env, players=4)
    manager = table.bot.manager
    game_id = await forced_game(table, None, seed=11)
    rng = random.Random(4)
    abbeys = 0
    for _ in range(24):
        view = await manager.decision(game_id)
        if view.finished:
            break
        if view.phase != "tile":  # a freed wagon, or the end-game abbey: not place's
            await play(table, game_id, Pass())
            continue
        player = table.actor(view.user_id)
        table.bot.cooldowns.clear()  # /carcassonne board is rate limited
        prompt = await repost(table, game_id)
        offered = await place_offers(table, player, table.thread())
        assert {k: v[1] for k, v in offered.items()} == menu_offers(prompt)
        key = rng.choice(sorted(offered))
        if any(k[2] for k in offered) and rng.random() < 0.5:
            key = next(k for k in sorted(offered) if k[2])
        cell, rotations = offered[key]
        options: dict[str, Any] = {"cell": cell}
        if rotations:
            options["rotation"] = rng.choice(sorted(rotations))
        figures = await player.autocomplete(
            table.thread(), "carcassonne place", "figure", "", **options
        )
        options["figure"] = rng.choice(figures)["value"]
        played = await player.slash(table.thread(), "carcassonne place", **options)
        assert said(played) == ["Played."], (options, said(played))
        abbeys += key[2]
    assert abbeys >= 1, "an abbey was played with place"
