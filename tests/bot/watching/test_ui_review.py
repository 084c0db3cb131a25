"""``/carcassonne review`` on Discord: a finished game's review (computed once in the review
workers, stored, posted again from storage), who may see it, and ``hint: True`` in practice
games only."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
import re
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import simcord
from conftest import play_random, random_action, started_game
from conftest_ui import (
    PNG,
    REVIEW_BUDGET,
    UPLOAD_LIMIT,
    Table,
    at_once,
    attachment_bytes,
    said,
    simcord_bot,
)

from bot.app import Settings
from bot.manager import COMPUTER, GameManager
from bot.review_pool import ReviewWorkers
from bot.storage import LeagueGame
from bot.storage.faults import Faults, InjectedFault, Point
from bot.ui.watching import review_ui
from engine import Pass

#: The base game's short forced draw: the start tile and ten tiles (five turns each).
DRAW = ["D", "U", "V", "E", "K", "B", "L", "J", "A", "N", "W"]


async def short_game(table: Table, *, private: bool = False, seed: int = 7) -> int:
    """Alice and bob on the short forced draw, started (alice is in turn)."""
    alice, bob = table.players[:2]
    await alice.slash(table.channel, "carcassonne new", private=private)
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    await manager.storage.save_game(dataclasses.replace(row, setup_extra={"draw": DRAW}))
    manager.seeds = lambda: seed
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    return game_id


async def play_out(table: Table, game_id: int, seed: int = 3) -> None:
    """Every turn left, played at random through the manager, to the game's end."""
    manager = table.bot.manager
    rng = random.Random(seed)
    view = await manager.decision(game_id)
    while not view.finished:
        assert view.user_id is not None
        action = random_action(view, rng)
        result = await manager.play_turn(
            game_id, view.user_id, action, turn=view.turn, phase=view.phase
        )
        view = result.view
    assert (await manager.game(game_id)).status == "finished"


def pictures(env: simcord.Env, result: Any) -> list[bytes]:
    message = result.followups[-1] if result.followups else result.response
    found = [attachment_bytes(env, a) for a in message.attachments]
    for data in found:
        assert data.startswith(PNG)
        assert len(data) < UPLOAD_LIMIT
    return found


class Counted:
    """The review workers' ``review``, counted (each call is one computation of a review)."""

    def __init__(self, workers: Any) -> None:
        self.real = workers.review
        self.calls = 0
        workers.review = self

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return await self.real(*args, **kwargs)


async def test_a_review_posts_accuracies_and_pictures_then_comes_from_storage(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    game_id = await short_game(table)
    running = await alice.slash(table.thread(), "carcassonne review")
    assert running.ephemeral
    assert any(f"Game #{game_id} is still being played" in t for t in said(running)), said(running)
    await play_out(table, game_id)
    manager = table.bot.manager
    counted = Counted(manager.reviews.workers)

    first, second = await at_once(
        simcord_env,
        lambda: alice.slash(table.thread(), "carcassonne review"),
        lambda: bob.slash(table.thread(), "carcassonne review"),
    )
    assert counted.calls == 1  # the two calls waited for one computation
    text = said(first)[-1]
    assert f"Review of game #{game_id}" in text, text
    for name in ("alice", "bob"):
        assert re.search(rf"\*\*{name}\*\*: accuracy \d+%, [\d.]+ points lost per turn", text)
    stored = await manager.storage.get_review(game_id)
    assert stored is not None and stored.budget == manager.reviews.budget("carcassonne")
    review = await manager.reviews.stored(game_id)
    assert review is not None
    assert len(pictures(simcord_env, first)) == len(review.costliest) > 0
    assert said(second)[-1] == text
    seats = await manager.storage.review_seats_of([game_id])
    assert [(s.seat, s.decisions) for s in seats] == [(p.seat, p.decisions) for p in review.players]

    again = await alice.slash(table.thread(), "carcassonne review")
    assert counted.calls == 1  # from storage
    assert said(again)[-1] == text
    assert len(pictures(simcord_env, again)) == len(review.costliest)

    stats = await alice.slash(table.channel, "carcassonne stats")
    message = stats.followups[-1] if stats.followups else stats.response
    assert message is not None
    fields = {f.name: f.value or "" for f in message.embeds[0].fields}
    assert re.match(
        r"Accuracy \d+%, [\d.]+ points lost per turn \(1 game reviewed\)", fields["Game reviews"]
    ), fields


async def test_a_private_games_review_only_to_its_players_and_none_to_another_server(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, _bob, carol = table.players
    game_id = await short_game(table, private=True)
    await play_out(table, game_id)
    refused = await carol.slash(table.channel, "carcassonne review", game=game_id)
    assert refused.ephemeral and any("is private" in t for t in said(refused)), said(refused)
    assert await table.bot.manager.storage.get_review(game_id) is None
    away = simcord_env.create_guild()
    channel = away.create_text_channel("elsewhere")
    admins = away.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    for person in (
        away.add_member(simcord_env.create_user("frank")),
        away.add_member(simcord_env.create_user("gina"), roles=[admins]),
    ):
        elsewhere = await person.slash(channel, "carcassonne review", game=game_id)
        assert elsewhere.ephemeral
        assert any(f"There is no game #{game_id} here" in t for t in said(elsewhere))
    assert await table.bot.manager.storage.get_review(game_id) is None
    allowed = await alice.slash(table.channel, "carcassonne review", game=game_id)
    assert allowed.ephemeral  # outside the private thread: for the asker alone
    assert f"Review of game #{game_id}" in said(allowed)[-1]


async def test_a_failing_write_stores_no_half_review(database: str) -> None:
    """The review and its seats' figures are one write: failing before it leaves neither,
    failing after it (the answer lost) leaves both (on every storage engine)."""
    manager = await GameManager.open(
        database, reviews=ReviewWorkers(workers=0), review_budget=REVIEW_BUDGET
    )
    try:
        view = await started_game(manager, seed=4)
        rng = random.Random(2)
        for _ in range(12):
            view = (await play_random(manager, view, rng)).view
        await manager.resign(view.game_id, view.user_id or 0)  # the other wins: finished
        game_id = view.game_id
        assert (await manager.game(game_id)).status == "finished"
        storage = manager.storage
        faults = Faults(storage)
        faults.arm()
        await manager.reviews.review(game_id)
        calls = faults.disarm()
        at = calls.index("save_review") + 1
        points: tuple[tuple[Point, bool], ...] = (("before", False), ("after", True))
        for point, landed in points:
            async with storage.engine.transaction() as db:
                await db.execute("DELETE FROM review_seats WHERE game_id = ?", (game_id,))
                await db.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))
            faults.arm(at, point)
            with pytest.raises(InjectedFault):
                await manager.reviews.review(game_id)
            faults.disarm()
            assert (await storage.get_review(game_id) is not None) is landed, point
            assert bool(await storage.review_seats_of([game_id])) is landed, point
        assert await manager.reviews.stored(game_id) is not None
    finally:
        await manager.close()


async def practice(table: Table) -> int:
    """Alice against one easy computer, started from ``/carcassonne practice``."""
    alice = table.players[0]
    table.bot.manager.seeds = lambda: 11
    await alice.slash(table.channel, "carcassonne practice", level="easy")
    rows = await table.bot.manager.records.games_in_channel(table.channel.id, ("active",))
    return max(r.id for r in rows)


async def test_a_hint_shows_the_player_in_turn_a_move_in_a_practice_game_only(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    game_id = await practice(table)
    manager = table.bot.manager
    view = await manager.decision(game_id)
    assert view.user_id == alice.id
    before = (await manager.game(game_id)).action_count
    hint = await alice.slash(table.thread(), "carcassonne review", hint=True)
    assert hint.ephemeral
    assert any(f"Game #{game_id}, turn" in t and "Only you see" in t for t in said(hint))
    assert len(pictures(simcord_env, hint)) == 1
    assert (await manager.game(game_id)).action_count == before  # nothing was played
    other = await bob.slash(table.thread(), "carcassonne review", game=game_id, hint=True)
    assert other.ephemeral and any(f"not playing in game #{game_id}" in t for t in said(other))

    # Once the tile is down, the turn is half played: no hint for the rest of it.
    placed = await manager.play_turn(
        game_id, alice.id, view.placements[0], turn=view.turn, phase=view.phase
    )
    assert placed.view.user_id == alice.id and placed.view.phase == "figure"
    late = await alice.slash(table.thread(), "carcassonne review", hint=True)
    assert any("A hint is a whole turn, tile first" in t for t in said(late)), said(late)
    await manager.play_turn(game_id, alice.id, Pass(), turn=view.turn, phase="figure")

    # The same table as a league's game: rated, no hint (asked on alice's next turn).
    now = await manager.decision(game_id)
    while now.user_id != alice.id:
        assert not now.finished
        now = (await manager.play_turn(game_id, COMPUTER, turn=now.turn)).view
    league = await manager.leagues.create_league(
        table.guild.id, table.channel.id, alice.id, "Spring", admin=True
    )
    await manager.storage.link_league_game(LeagueGame(game_id, league.id, 1, alice.id, 0.0))
    rated = await alice.slash(table.thread(), "carcassonne review", hint=True)
    assert rated.ephemeral and any("Hints are for practice games only" in t for t in said(rated))


async def test_a_hint_is_refused_in_a_game_between_people(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    game_id = await short_game(table)
    refused = await alice.slash(table.thread(), "carcassonne review", hint=True)
    assert refused.ephemeral
    assert any(f"game #{game_id} is not one" in t for t in said(refused)), said(refused)
    waiting = await bob.slash(table.thread(), "carcassonne review", hint=True)
    assert any("It is not your turn" in t for t in said(waiting)), said(waiting)


__all__ = ["simcord_bot"]  # the fixture simcord_env needs


class Answer:
    """An interaction's answer as the review edits it: each edit's text and when it came."""

    def __init__(self, manager: Any) -> None:
        self.client = SimpleNamespace(manager=manager)
        self.edits: list[tuple[float, str]] = []

    async def edit_original_response(self, *, content: str) -> None:
        self.edits.append((asyncio.get_running_loop().time(), content))


async def test_the_progress_is_edited_at_most_every_few_seconds(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decisions done every 10 ms for 0.3 s: the answer says at once that the review started,
    then shows its progress, edited no more often than PROGRESS_EVERY (here 0.1 s), never
    twice the same."""
    every = 0.1
    monkeypatch.setattr(review_ui, "PROGRESS_EVERY", every)
    view = await started_game(manager, seed=2)
    rng = random.Random(1)
    while not view.finished:
        view = (await play_random(manager, view, rng)).view

    async def slow(record: Any, budget: int, progress: Any) -> tuple[()]:
        for done in range(31):
            progress(done, 30)
            await asyncio.sleep(0.01)
        return ()

    monkeypatch.setattr(manager.reviews.workers, "review", slow)
    answer = Answer(manager)
    row = await manager.game(view.game_id)
    review = await review_ui._computed(cast(Any, answer), row, "en")
    assert review.moments == ()
    times = [t for t, _ in answer.edits]
    texts = [text for _, text in answer.edits]
    assert texts[0] == f"📋 Reviewing game #{row.id}: counting its decisions…"
    texts = texts[1:]
    assert 2 <= len(texts) <= 4, texts
    assert all(b - a >= every * 0.9 for a, b in itertools.pairwise(times)), times
    assert len(set(texts)) == len(texts)
    assert all(
        re.search(rf"Reviewing game #{row.id}: \d+ of 30 decisions valued", t) for t in texts
    )


def test_the_review_workers_and_budget_are_read_from_the_environment() -> None:
    base = {"DISCORD_TOKEN": "token"}
    default = Settings.from_env(base)
    assert (default.review_workers, default.review_budget) == (1, None)
    chosen = Settings.from_env({**base, "REVIEW_WORKERS": "2", "REVIEW_BUDGET": "500"})
    assert (chosen.review_workers, chosen.review_budget) == (2, 500)
    for name, bad in (("REVIEW_WORKERS", "65"), ("REVIEW_WORKERS", "two"), ("REVIEW_BUDGET", "0")):
        with pytest.raises(SystemExit, match=f"{name} must be a number"):
            Settings.from_env({**base, name: bad})
