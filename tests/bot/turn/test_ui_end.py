"""The end of a game: winners after resignations, the final table by rank, nothing ever cut."""

from __future__ import annotations

import random
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
    custom_ids,
    pick,
    put_options,
    said,
    shown,
    simcord_bot,
    spot_ids,
)
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import GameRow, SeatRow
from bot.ui.texts import tr
from bot.ui.turn import final
from bot.ui.turn.state import Snapshot
from engine import Game, Pass, PlaceFigure, PlaceTile
from engine.cli import random_action
from engine.core.game import Phase
from engine.core.setup import Setup


async def test_players_who_resigned_never_win_and_are_listed_last(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    game_id = await table.new()
    manager = table.bot.manager
    for _ in range(3):  # a few turns so that scores may differ
        view = await manager.decision(game_id)
        player = table.actor(view.user_id)
        step = await pick(table, game_id, player, table.last())
        await commit(player, step)
    alice, bob = table.players[:2]
    await alice.slash(table.thread(), "carcassonne resign")
    said = shown(table.last())
    assert "alice resigned" in said and "Game over" not in said
    await bob.slash(table.thread(), "carcassonne resign")
    end = table.last()
    text = shown(end)
    assert (await manager.decision(game_id)).finished
    assert "Game over! 🏆 carol wins with" in text, text
    assert "🏆 \n" not in text and not text.rstrip().endswith("🏆")
    lines = [line for line in text.splitlines() if "·" in line and line[:2] in ("1.", "- ")]
    assert lines[0].startswith("1. carol 🏆 · "), text
    assert {line.split(" ")[1] for line in lines[1:]} == {"alice", "bob"}, text
    assert all("(left the game)" in line and "🏆" not in line for line in lines[1:]), text
    assert_png(simcord_env, end)


__all__ = ["simcord_bot"]  # the fixture simcord_env needs


def finished_snapshot(
    game: str, players: int, seed: int, **setup: Any
) -> tuple[Snapshot, list[Any]]:
    names = tuple(f"{'a very long player name '[: 20 + i]}{i}" for i in range(players))
    engine = Game(Setup(players=names, game=game, seed=seed, **setup))
    rng = random.Random(seed)
    events = []
    while engine.phase is not Phase.OVER:
        events = engine.play(random_action(engine, rng))
    seats = tuple(SeatRow(i, 1000 + i, n, "blue") for i, n in enumerate(names))
    row = GameRow(id=1, owner_id=1000, created_at=0, updated_at=0, kind=game, seats=seats)
    return Snapshot(row, None, engine), events  # type: ignore[arg-type]


def test_the_end_fits_discord_limits_without_cutting_anything() -> None:
    for game, players, extra in (
        ("hunters", 5, {}),
        ("carcassonne", 6, {"expansions": ("abbey_mayor",)}),
        ("castle", 2, {}),
    ):
        snap, events = finished_snapshot(game, players, 3, **extra)
        parts = final.messages(snap, events)
        everything = ""
        for content, embeds in parts:
            assert len(content) <= final.CONTENT
            assert len(embeds) <= final.EMBEDS_PER_MESSAGE
            assert sum(len(e) for e in embeds) <= final.EMBEDS_TOTAL
            for embed in embeds:
                assert len(embed.description or "") <= final.DESCRIPTION
                assert all(len(f.value or "") <= final.FIELD for f in embed.fields)
            everything += content + "".join(shown_embed(e) for e in embeds)
        engine = snap.require_game()
        for name, score in zip(snap.names, engine.scores, strict=True):
            assert f"{name}" in everything and f"· {score}" in everything
        # One line per category of the end scoring, in the chart's words and order.
        labels = [label for _, label in final.columns(engine, "en")]
        scored = [line for line in everything.splitlines() if line.startswith("**")]
        heads = [line[2 : line.index("**", 2)] for line in scored if "Game over" not in line]
        assert heads == [label for label in labels if label in heads], (heads, labels)
        assert len(heads) == len(set(heads))


@pytest.mark.parametrize(
    ("locale", "cathedral"),
    [
        ("en", "Unfinished cities with a cathedral score nothing: Alice"),
        ("fr", "Les villes inachevées avec une cathédrale ne rapportent rien : Alice"),
        ("de", "Unfertige Städte mit Kathedrale bringen nichts: Alice"),
    ],
)
def test_the_end_says_who_an_unfinished_cathedral_city_left_with_nothing(
    locale: str, cathedral: str
) -> None:
    # incomplete=half: Alice's knight in the open cathedral city scores 0, and nothing else scores.
    names = ("Alice", "Bob")
    engine = Game(Setup(players=names, seed=1, expansions=("inns_cathedrals",),
                        options={"incomplete": "half"}, draw=("IC01", "E", "M")))  # fmt: skip
    engine.play(PlaceTile(0, 1, 0))
    engine.play(PlaceFigure("follower", 0, 1, 1))
    events = engine.play(PlaceTile(0, -1, 270)) + engine.play(Pass())
    assert engine.finished
    seats = tuple(SeatRow(i, 1000 + i, n, "blue") for i, n in enumerate(names))
    row = GameRow(id=1, owner_id=1000, created_at=0, updated_at=0, seats=seats, locale=locale)
    snap = Snapshot(row, None, engine)  # type: ignore[arg-type]
    _, scored = final.split_events(events)
    assert final.end_scoring_lines(snap, scored) == [cathedral]
    everything = "".join(
        shown_embed(e) for _, embeds in final.messages(snap, events) for e in embeds
    )
    assert cathedral in everything


def test_the_end_lists_each_player_once_per_mark_inns_before_cathedrals() -> None:
    from engine.core.events import FeatureScored

    snap, _ = finished_snapshot("carcassonne", 3, 1, expansions=("inns_cathedrals",))
    final_events = [
        FeatureScored("city", {2: 0}, final=True, tiles=2, complete=False, marks=("cathedral",)),
        FeatureScored("road", {1: 0, 0: 0}, final=True, tiles=2, complete=False, marks=("inn",)),
        FeatureScored("road", {1: 0}, final=True, tiles=3, complete=False, marks=("inn",)),
        FeatureScored("road", {2: 6}, final=False, tiles=3, marks=("inn",)),  # completed: no note
    ]
    a, b, c = snap.names
    assert final.unfinished_mark_lines(snap, final_events) == [
        f"Unfinished roads with an inn score nothing: {a} and {b}",
        f"Unfinished cities with a cathedral score nothing: {c}",
    ]


def shown_embed(embed: Any) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n" + "\n".join(parts)


@given(st.lists(st.text(min_size=0, max_size=300), max_size=40), st.integers(50, 400))
def test_chunks_keep_every_word_within_the_limit(lines: list[str], limit: int) -> None:
    parts = final.chunks(lines, limit)
    assert all(len(part) <= limit for part in parts)
    assert "".join("".join(parts).split()) == "".join("".join(lines).split())


async def test_undo_is_a_vote_in_the_thread_and_takes_back_the_whole_turn(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    game_id = await table.new()
    manager = table.bot.manager
    alice, bob, carol = table.players
    # Alice takes back her own turn alone while nobody has acted since: tile and figure.
    step = await pick(table, game_id, alice, table.last())
    await commit(player=alice, step=step, spot=1 if spot_ids(step) else None)
    assert (await manager.decision(game_id)).user_id == bob.id
    mine = await alice.slash(table.thread(), "carcassonne undo")
    assert said_text(mine) == ["Undone: your last turn is back in your hands."]
    assert await manager.storage.get_actions(game_id) == []
    assert "The last turn was taken back" in table.last().content
    assert (await manager.decision(game_id)).user_id == alice.id
    # Once Bob has played, Carol asks for Bob's turn back: a public request with buttons.
    for _ in range(2):
        view = await manager.decision(game_id)
        player = table.actor(view.user_id)
        await commit(player, await pick(table, game_id, player, table.last()))
    before = await manager.storage.get_actions(game_id)
    asked = await carol.slash(table.thread(), "carcassonne undo")
    assert said_text(asked)[0].startswith("Undo asked in the thread; waiting for")
    request = table.last()
    assert f"<@{carol.id}> asks to take back the last turn (bob's)" in request.content
    assert f"<@{alice.id}>" in request.content and f"<@{bob.id}>" in request.content
    agree = next(i for i in custom_ids(request, "cc:undo:") if i.endswith(":yes"))
    refuse = next(i for i in custom_ids(request, "cc:undo:") if i.endswith(":no"))
    await alice.click(request, custom_id=refuse)
    request = now(table, request)
    assert "alice refused" in request.content and not custom_ids(request)
    assert await manager.storage.get_actions(game_id) == before
    # Asked again, everyone agrees: Bob's whole turn goes back, and Bob plays again.
    await carol.slash(table.thread(), "carcassonne undo")
    request = table.last()
    agree = next(i for i in custom_ids(request, "cc:undo:") if i.endswith(":yes"))
    await alice.click(request, custom_id=agree)
    request = now(table, request)
    assert "Waiting for: " in request.content and f"<@{bob.id}>" in request.content
    await bob.click(request, custom_id=agree)
    after = await manager.storage.get_actions(game_id)
    assert after == [r for r in before if r.turn < before[-1].turn]
    view = await manager.decision(game_id)
    assert view.user_id == bob.id
    assert "The last turn was taken back" in table.last().content
    assert put_options(table.last()), "Bob's turn message offers his tile again"
    assert not custom_ids(now(table, request)), "an answered request keeps no buttons"
    # A request's buttons are stale once the game has moved on.
    await commit(bob, await pick(table, game_id, bob, table.last()))
    await alice.slash(table.thread(), "carcassonne undo")
    request = table.last()
    agree = next(i for i in custom_ids(request, "cc:undo:") if i.endswith(":yes"))
    view = await manager.decision(game_id)
    assert view.user_id == carol.id
    turn_message = next(m for m in reversed(table.thread().history()) if put_options(m))
    await commit(carol, await pick(table, game_id, carol, turn_message))
    stale = await bob.click(request, custom_id=agree)
    assert any("moved on" in t for t in said_text(stale)), said_text(stale)


def said_text(result: Any) -> list[str]:
    messages = ([result.response] if result.response else []) + list(result.followups)
    return [m.content for m in messages if m is not None]


def now(table: Table, message: Any) -> Any:
    """A message as it reads now (after edits)."""
    return next(m for m in table.thread().history() if m.id == message.id)


async def test_help_shows_a_turn_picture_the_commands_and_the_rules_in_two_languages(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    result = await table.players[0].slash(table.channel, "carcassonne help")
    messages = [m for m in [result.response, *result.followups] if m is not None]
    assert all(m.ephemeral for m in messages)
    embeds = [e for m in messages for e in m.embeds]
    titles = [e.title for e in embeds]
    assert titles == [
        "How a turn works",
        "Commands",
        "Rules: Carcassonne + Abbey & Mayor + Inns & Cathedrals + Traders & Builders + The River",
    ]
    assert all(len(e) <= 6000 for e in embeds)
    picture = assert_png(simcord_env, messages[0])
    assert len(picture) < 10 * 1024 * 1024
    commands = shown_embed(embeds[1])
    for name in ("new", "place", "undo", "resign", "help", "board", "status", "games"):
        assert f"`/carcassonne {name}`" in commands, commands
    assert "`/league " in commands
    rules = [f.name for f in embeds[2].fields]
    assert rules == ["Your turn", "Scoring during the game", "End of the game", "Abbey",
                     "Mayor, wagon, barn", "Large follower, inns, cathedrals", "Goods",
                     "Builder and pig", "The River"]  # fmt: skip
    # In a game's thread: that game's rules; in French for a French server.
    hunters_id = await table.new(game="hunters")
    assert table.thread().name == f"Hunters & Gatherers #{hunters_id}"
    here = await table.players[0].slash(table.thread(), "carcassonne help")
    texts = [e.title for m in [here.response, *here.followups] if m for e in m.embeds]
    assert "Rules: Hunters & Gatherers" in texts
    french = Table(simcord_env)
    admins = french.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = french.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    await admin.slash(french.channel, "carcassonne settings", language="fr")
    said_fr = await french.players[0].slash(french.channel, "carcassonne help")
    embeds_fr = [e for m in [said_fr.response, *said_fr.followups] if m for e in m.embeds]
    assert [e.title for e in embeds_fr][:2] == ["Comment se joue un tour", "Commandes"]
    assert "`/carcassonne nouvelle`" in shown_embed(embeds_fr[1])
    assert tr("help_turn", "fr") == embeds_fr[0].title


async def test_a_solo_start_asks_for_confirmation_first(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=1)
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = (await table.bot.manager.records.games_in_channel(table.channel.id, ("lobby",)))[0].id
    asked = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    question = asked.response
    assert question is not None and question.ephemeral
    assert "Nobody has joined game" in question.content and "solo game" in question.content
    assert (await table.bot.manager.game(game_id)).status == "lobby", "nothing started yet"
    await alice.click(question, custom_id=f"cc:lobby:{game_id}:solo")
    row = await table.bot.manager.game(game_id)
    assert row.status == "active" and row.thread_id is not None
    assert table.channel.threads[-1].name == f"Carcassonne #{game_id}"
    assert "Game #" in table.last().content and put_options(table.last())
    edited = next(m for m in table.channel.history() if m.id == lobby.id)
    assert "started" in edited.content.lower() or not custom_ids(edited)


async def test_start_up_logs_the_invite_link_and_no_voice_warning(
    simcord_env: simcord.Env, caplog: Any
) -> None:
    import logging
    from urllib.parse import parse_qs, urlparse

    from bot.app import PERMISSIONS, CarcassonneBot, Settings, invite_link

    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True  # as in a new process
    with caplog.at_level(logging.INFO):
        CarcassonneBot(Settings(token="t", database=":memory:", log_level="INFO", dev_guild=None))
        await table_bot(simcord_env).on_ready()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "voice will NOT be supported" not in logged
    assert "invite the bot to a server with: https://discord.com/oauth2/authorize?" in logged
    query = parse_qs(urlparse(invite_link(42)).query)
    assert query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == PERMISSIONS and not granted.administrator and not granted.manage_guild
    for needed in ("send_messages_in_threads", "create_private_threads", "attach_files"):
        assert getattr(granted, needed), needed
    readme = (Path(__file__).parents[3] / "README.md").read_text()
    assert str(PERMISSIONS.value) in readme and "applications.commands" in readme


def table_bot(env: simcord.Env) -> Any:
    return env.bot


async def test_a_lobby_is_cancelled_by_its_creator_and_a_game_abandoned_by_an_admin(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    manager = table.bot.manager
    game_id = (await manager.records.games_in_channel(table.channel.id, ("lobby",)))[0].id
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    refused = await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:cancel")
    assert refused.ephemeral and any("Only the creator" in t for t in said_text(refused))
    assert (await manager.game(game_id)).status == "lobby"
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:cancel")
    assert (await manager.game(game_id)).status == "abandoned"
    edited = next(m for m in table.channel.history() if m.id == lobby.id)
    assert f"Game #{game_id} was cancelled by" in edited.content and not custom_ids(edited)
    # A started game with two players: the creator asks, bob must agree; an admin needs nobody.
    started = await table.new()
    refused = await bob.slash(table.thread(), "carcassonne abandon")
    assert refused.ephemeral and any("Only the creator" in t for t in said_text(refused))
    asked = await alice.slash(table.thread(), "carcassonne abandon")
    assert asked.ephemeral and any("once <@" in t for t in said_text(asked)), said_text(asked)
    request = table.last()
    assert f"asks to abandon game #{started}" in request.content
    assert f"Waiting for: <@{bob.id}>" in request.content
    no = await bob.click(request, custom_id=f"cc:abandon:{started}:no")
    assert no.acknowledged and (await manager.game(started)).status == "active"
    request = next(m for m in table.thread().history() if m.id == request.id)
    assert "refused to abandon" in request.content and not custom_ids(request)
    await alice.slash(table.thread(), "carcassonne abandon")
    request = table.last()
    outsider = await admin_free_click(simcord_env, table, request, started)
    assert outsider.ephemeral and any("not playing" in t for t in said_text(outsider))
    await bob.click(request, custom_id=f"cc:abandon:{started}:yes")
    assert (await manager.game(started)).status == "abandoned"
    assert f"Game #{started} was abandoned by" in table.last().content
    request = next(m for m in table.thread().history() if m.id == request.id)
    assert "Everyone agreed" in request.content and not custom_ids(request)
    other = await table.new()
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    done = await admin.slash(table.thread(), "carcassonne abandon", game=other)
    assert done.ephemeral and said_text(done)[-1] == f"Game #{other} is abandoned."
    assert (await manager.game(other)).status == "abandoned"
    assert f"Game #{other} was abandoned by" in table.last().content
    status = await bob.slash(table.thread(), "carcassonne status", game=other)
    assert said_text(status)[0].startswith(f"Game #{other} abandoned.\nalice: 0")
    turn_messages = [m for m in table.thread().history() if put_options(m)]
    assert not turn_messages, "the last turn message lost its menus"


async def admin_free_click(env: simcord.Env, table: Table, message: Any, game_id: int) -> Any:
    """A member who is not in the game presses Agree."""
    carol = table.guild.add_member(env.create_user("carol"))
    return await carol.click(message, custom_id=f"cc:abandon:{game_id}:yes")


async def test_the_board_command_cools_down_per_user_and_says_when(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    game_id = await table.new()
    alice, bob = table.players
    for _ in range(4):
        answered = await alice.slash(table.thread(), "carcassonne board")
        assert all("try again" not in t for t in said_text(answered))
    slowed = await alice.slash(table.thread(), "carcassonne board")
    assert slowed.ephemeral and any(
        re.search(r"try again in \d+ s", t) for t in said_text(slowed)
    ), said_text(slowed)
    other = await bob.slash(table.thread(), "carcassonne board")
    assert all("try again" not in t for t in said_text(other)), "the limit is per user"
    # The turn itself is never slowed.
    await commit(alice, await pick(table, game_id, alice, table.last()))
    assert (await table.bot.manager.decision(game_id)).user_id == bob.id


async def test_the_rules_of_a_game_with_every_expansion_span_messages_in_every_language(
    simcord_env: simcord.Env,
) -> None:
    for lang, words in (
        ("en", "**Inns & Cathedrals.**"),
        ("fr", "**Marchands et Bâtisseurs.**"),
        ("de", "**Der Fluss.**"),
    ):
        table = Table(simcord_env, players=2)
        if lang != "en":
            admins = table.guild.create_role(
                "admins", permissions=discord.Permissions(manage_guild=True)
            )
            admin = table.guild.add_member(simcord_env.create_user(f"a{lang}"), roles=[admins])
            await admin.slash(table.channel, "carcassonne settings", language=lang)
        await table.new(expansion="all")
        result = await table.players[0].slash(table.thread(), "carcassonne rules")
        texts = said(result)
        assert len(texts) >= 2 and all(len(t) <= 2000 for t in texts)
        assert words in "\n".join(texts)
