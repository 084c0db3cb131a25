"""A whole game played in each language: every public message and picture in the game's
language (the server's setting), private steps in each player's own Discord language."""

from __future__ import annotations

import random

import pytest
import simcord
from conftest_ui import Table, client_language, simcord_bot

from benchmarks.turn_ux import decide
from bot.ui.texts import tr

__all__ = ["simcord_bot"]

#: A sentence each language says at every turn, without its mention.
YOUR_TURN = {lang: tr("your_turn", lang, player="").strip(" ,") for lang in ("en", "fr", "de")}
GAME_OVER = {"en": "Game over", "fr": "Partie terminée !", "de": "Spielende!"}


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
async def test_a_whole_game_speaks_the_game_language(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    table = Table(simcord_env)
    manager = table.bot.manager
    await manager.records.update_guild_settings(table.guild.id, locale=lang)
    client_language(monkeypatch, "en-US")  # most clients send English without choosing it
    game_id = await table.new(seed=5)
    rng = random.Random(5)
    for _ in range(400):
        view = await manager.decision(game_id)
        if view.finished:
            break
        await decide(table.thread(), table.bot, game_id, table.actor(view.user_id), rng)
    assert (await manager.decision(game_id)).finished
    public = [m.content for m in table.thread().history() if m.content]
    others = [text for other, text in YOUR_TURN.items() if other != lang]
    assert any(YOUR_TURN[lang] in text for text in public)
    for text in public:
        assert not any(o in text for o in others), text
    assert any(GAME_OVER[lang] in text for text in public), public[-3:]


async def test_a_german_client_gets_its_private_steps_in_german_in_an_english_game(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    game_id = await table.new(seed=5)
    client_language(monkeypatch, "de")
    alice = table.players[0]
    prompt = table.last()
    assert YOUR_TURN["en"] in prompt.content
    from conftest_ui import pick

    step = await pick(table, game_id, alice, prompt)
    assert "Figur" in step.content or "Platz" in step.content, step.content
    refused = await table.players[1].slash(table.thread(), "carcassonne undo")
    texts = [m.content for m in [refused.response, *refused.followups] if m is not None]
    assert texts and all("the" not in t.split() for t in texts), texts


async def test_a_german_server_plays_in_german_until_an_admin_chooses_otherwise(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env, locale="de")
    client_language(monkeypatch, "en-US")
    await table.new()
    assert YOUR_TURN["de"] in table.last().content
    manager = table.bot.manager
    await manager.records.update_guild_settings(table.guild.id, locale="en")
    assert (await manager.records.guild_settings(table.guild.id)).locale_chosen
    await table.new()
    assert YOUR_TURN["en"] in table.last().content
