"""``/carcassonne replay``: the game again as an animated WebP, finished or in progress."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import random
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import Table, attachment_bytes, simcord_bot
from PIL import Image

from bot.app import Settings
from bot.ui import commands, images
from bot.ui.watching import viewer
from engine import Game, Setup
from engine.cli import random_action
from renderer.replay import REPLAY_LIMIT
from renderer.viewer import codec
from renderer.viewer.turns import game_turns

__all__ = ["simcord_bot"]  # the fixture simcord_env needs


def webp_frames(data: bytes) -> int:
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP", data[:16]
    assert len(data) <= REPLAY_LIMIT
    image = Image.open(io.BytesIO(data))
    count: int = getattr(image, "n_frames", 1)
    return count


async def play(table: Table, game_id: int, moves: int, seed: int = 3) -> None:
    """Random legal moves through the manager, as the players whose turn it is."""
    manager = table.bot.manager
    rng = random.Random(seed)
    for _ in range(moves):
        view = await manager.decision(game_id)
        if view.finished:
            return
        game = await manager.engine_copy(game_id)
        action = random_action(game, rng)
        assert view.user_id is not None
        await manager.play_turn(game_id, view.user_id, action, turn=view.turn, phase=view.phase)


def edits_of(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every edit of an interaction's reply, in order (the words before the picture)."""
    seen: list[dict[str, Any]] = []
    original = discord.Interaction.edit_original_response

    async def edit(self: discord.Interaction, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return await original(self, **kwargs)

    monkeypatch.setattr(discord.Interaction, "edit_original_response", edit)
    return seen


async def test_a_game_in_progress_is_replayed_in_its_thread_after_a_word_of_progress(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    game_id = await table.new(seed=5)
    await play(table, game_id, 12)
    view = await table.bot.manager.decision(game_id)
    assert not view.finished
    monkeypatch.setattr(commands, "LONG_REPLAY", 3)
    edits = edits_of(monkeypatch)
    bob = table.players[1]
    result = await bob.slash(table.thread(), "carcassonne replay")
    assert result.acknowledged and not result.ephemeral, "the replay is for everyone here"
    reply = result.response
    assert reply is not None and reply.attachments
    attached = reply.attachments[0]
    assert attached.filename == f"carcassonne-{game_id}-replay.webp"
    frames = webp_frames(attachment_bytes(simcord_env, attached))
    game = await table.bot.manager.engine_copy(game_id)
    turns = frames - 1  # the start, then one frame per turn
    assert turns >= 3 and turns in (game.turn, game.turn + 1)
    assert edits[0]["content"] == f"Drawing the replay of game #{game_id} ({turns} turns)…"
    assert "attachments" not in edits[0]
    assert reply.content == f"Game #{game_id} again, turn by turn ({turns} turns)."
    assert not simcord_env.errors


async def test_a_finished_game_is_replayed_from_the_channel_by_number_in_french(
    simcord_env: simcord.Env,
) -> None:
    # A whole game's replay takes seconds of drawing (in a thread here): let simcord wait.
    simcord_env.settle_timeout = 300.0
    table = Table(simcord_env, locale="fr")
    game_id = await table.new(seed=8)
    await play(table, game_id, 400)
    assert (await table.bot.manager.decision(game_id)).finished
    alice = table.players[0]
    result = await alice.slash(table.channel, "carcassonne replay", game=game_id)
    reply = result.response
    assert reply is not None and reply.attachments
    frames = webp_frames(attachment_bytes(simcord_env, reply.attachments[0]))
    # The start, every turn, then the final scoring.
    assert reply.content.startswith(f"La partie n°{game_id} rejouée, tour par tour (")
    turns = int(reply.content.split("(")[1].split(" ")[0])
    assert frames == turns + 2 and turns > 50
    assert not simcord_env.errors


async def test_replays_are_rate_limited_like_boards(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    game_id = await table.new(seed=5)
    await play(table, game_id, 4)
    alice = table.players[0]
    for _ in range(4):
        done = await alice.slash(table.thread(), "carcassonne replay")
        assert done.response is not None and done.response.attachments
    refused = await alice.slash(table.thread(), "carcassonne replay")
    texts = [m.content for m in ([refused.response] if refused.response else [])]
    texts += [m.content for m in refused.followups]
    assert refused.ephemeral and any("again" in t for t in texts), texts


async def test_one_replay_is_drawn_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two replays asked together are drawn one after the other: the other render workers
    stay free for everyone's turns."""
    from bot.ui import images
    from engine import Game, Setup
    from renderer import jobs

    running: list[int] = []
    most = 0
    original = jobs.draw

    def draw(game: Game, job: jobs.Job) -> tuple[bytes, tuple[str, ...]]:
        nonlocal most
        running.append(1)
        most = max(most, len(running))
        try:
            return original(game, job)
        finally:
            running.pop()

    monkeypatch.setattr(images, "POOL", None)
    monkeypatch.setattr(jobs, "draw", draw)
    game = Game(Setup(players=("a", "b"), seed=3))
    rng = random.Random(1)
    for _ in range(6):
        game.play(random_action(game, rng))
    files = await asyncio.gather(*(images.replay_file(game, "en", 7) for _ in range(3)))
    assert most == 1
    assert [f.filename for f in files] == ["carcassonne-7-replay.webp"] * 3


async def test_the_replay_attaches_the_viewer_page_and_links_the_hosted_one(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The page draws the tile art it embeds (seconds, in a thread here): let simcord wait.
    simcord_env.settle_timeout = 120.0
    table = Table(simcord_env)
    base = "https://viewer.example.org/carcassonne/viewer.html"
    settings = table.bot.settings
    monkeypatch.setattr(table.bot, "settings", dataclasses.replace(settings, viewer_url=base))
    game_id = await table.new(seed=5)
    await play(table, game_id, 10)
    alice = table.players[0]
    result = await alice.slash(table.thread(), "carcassonne replay", page=True)
    reply = result.response
    assert reply is not None and len(reply.attachments) == 2
    page = reply.attachments[1]
    assert page.filename == f"carcassonne-{game_id}-viewer.html"
    html = attachment_bytes(simcord_env, page).decode("utf-8")
    game = await table.bot.manager.engine_copy(game_id)
    code = codec.encode(
        game_turns(game.record()), images.seat_styles(await table.bot.manager.game(game_id))
    )
    embedded = html.split('<script type="text/plain" id="viewer-game">')[1].split("<")[0]
    assert embedded == code
    button: Any = reply.components[0]
    button = button["components"][0] if isinstance(button, dict) else button.children[0]
    url = button["url"] if isinstance(button, dict) else button.url
    assert url == f"{base}#{code}"
    assert len(url) <= viewer.MAX_LINK
    assert not simcord_env.errors


async def test_without_a_viewer_address_the_replay_has_no_button(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    game_id = await table.new(seed=5)
    await play(table, game_id, 4)
    result = await table.players[1].slash(table.thread(), "carcassonne replay")
    assert result.response is not None and len(result.response.attachments) == 1
    assert not result.response.components


def test_the_viewer_address_leaves_room_for_any_game_code() -> None:
    env = {"DISCORD_TOKEN": "x", "VIEWER_URL": "https://example.org/v.html"}
    assert Settings.from_env(env).viewer_url == "https://example.org/v.html"
    for wrong in (
        "example.org/v.html",
        "https://example.org/v.html#x",
        "https://e.org/" + "a" * 100,
    ):
        with pytest.raises(SystemExit, match="VIEWER_URL"):
            Settings.from_env({**env, "VIEWER_URL": wrong})
    assert viewer.MAX_BASE + 1 + viewer.CODE_LIMIT == viewer.MAX_LINK == 512


async def test_a_short_viewer_address_leaves_a_long_game_more_room() -> None:
    """A 6-player game with all four Carcassonne expansions codes in more than 400
    characters: with a short address, its link still fits Discord's 512."""
    expansions = ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")
    game = Game(
        Setup(players=("Ann", "Bea", "Cy", "Dan", "Eve", "Flo"), seed=8, expansions=expansions)
    )
    rng = random.Random(8)
    while not game.finished:
        game.play(random_action(game, rng))
    full = codec.encode(game_turns(game.record()))
    assert len(full) > viewer.CODE_LIMIT
    base = "https://e.org/v"
    url = await viewer.viewer_link(base, game)
    assert url == f"{base}#{full}" and len(url) <= viewer.MAX_LINK
    longest = "https://example.org/" + "v" * (viewer.MAX_BASE - 20)
    assert len(longest) == viewer.MAX_BASE
    url = await viewer.viewer_link(longest, game)  # names shortened to fit, or no button
    assert url is None or (len(url) <= viewer.MAX_LINK and url != f"{longest}#{full}")
