"""The metrics on ``METRICS_PORT``, scraped during a game through Discord (simcord): the moves
by who decided them (buttons, ``/carcassonne place``, a computer seat, a timeout), refusals by
reason, pictures, storage calls, notices, games, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
import simcord
from conftest_ui import OPENED, Table, close_bots, commit, pick
from prometheus_client.parser import text_string_to_metric_families

from bot.app import CarcassonneBot, Settings
from bot.storage import ActionRow

HOUR = 3600.0
#: The scheduler's tick (simulated seconds): a turn's hour runs out within one more tick.
TICK = 600.0
pytestmark = pytest.mark.simcord(settle_timeout=120)


def monitored_bot(database: str, **settings: Any) -> CarcassonneBot:
    """A bot on ``database`` serving its metrics on a free port of the loopback."""
    bot = CarcassonneBot(
        Settings(
            token="test",
            database=database,
            log_level="INFO",
            dev_guild=None,
            computer_workers=0,
            computer_pace=0.0,
            shard_count=1,
            render_workers=0,
            metrics_port=0,
            metrics_host="127.0.0.1",
            **settings,
        )
    )
    OPENED.append(bot)
    return bot


@pytest_asyncio.fixture
async def simcord_bot(database: str) -> AsyncIterator[CarcassonneBot]:
    yield monitored_bot(database, tick_seconds=TICK)
    await close_bots()


async def get(bot: CarcassonneBot, path: str) -> tuple[int, str, str]:
    """The status, content type and text of ``path`` on the bot's endpoint."""
    assert bot.monitor_port is not None, "the bot serves no metrics"
    url = f"http://127.0.0.1:{bot.monitor_port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, answer.headers["Content-Type"], await answer.text()


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(bot: CarcassonneBot) -> Samples:
    status, kind, text = await get(bot, "/metrics")
    assert status == 200 and kind.startswith("text/plain"), (status, kind)
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def grown(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """How much a counter grew between two scrapes (the registry is the process's: other tests
    of this process count too)."""
    return value(after, name, **labels) - value(before, name, **labels)


def moves_by_kind(log: list[ActionRow], computers: set[int], typed: set[int]) -> Counter[str]:
    """Each turn of the stored log as the move that played it: a timeout's (forced), a computer
    seat's, or a player's, typed (``typed``: the turns played with ``/carcassonne place``) or by
    buttons."""
    kinds: dict[int, str] = {}
    for row in log:
        if row.forced is not None:
            kinds[row.turn] = "timeout"
        elif row.seat in computers:
            kinds[row.turn] = "computer"
        else:
            kinds[row.turn] = "place" if row.turn in typed else "button"
    return Counter(kinds.values())


async def test_the_metrics_count_what_happened_in_a_game(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    bot = table.bot
    alice, bob = table.players
    assert (await get(bot, "/healthz"))[::2] == (200, "ok\n")
    before = await scrape(bot)
    await alice.slash(table.channel, "carcassonne new", turn_hours=1, timeout="skip")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    opened = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    assert opened.response is not None
    await alice.select(opened.response, ["easy"], custom_id=f"cc:lopt:{game_id}:computer_add")
    bot.manager.seeds = lambda: 5
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    assert bot.computer_turns is not None
    await bot.computer_turns.idle()

    typed: set[int] = set()
    refusals = 0
    for move in range(6):
        view = await bot.manager.decision(game_id)
        player = table.actor(view.user_id)
        other = bob if player is alice else alice
        if move % 2 == 0:
            step = await pick(table, game_id, player, table.last())
            await commit(player, step)
        else:
            if move == 1:  # the player not in turn tries first: refused, not played
                await other.slash(table.thread(), "carcassonne place", cell="A", rotation=0)
                refusals += 1
            offered = await player.autocomplete(
                table.thread(), "carcassonne place", "rotation", "", cell="A"
            )
            typed.add(view.turn)
            await player.slash(
                table.thread(), "carcassonne place", cell="A", rotation=offered[0]["value"]
            )
        await bot.computer_turns.idle()
        assert (await bot.manager.decision(game_id)).turn > view.turn
    # Nobody plays for two hours: the scheduler skips the turns whose hour ran out.
    for _ in range(4):
        await simcord_env.advance_time(HOUR / 2)
        await bot.computer_turns.idle()

    row = await bot.manager.game(game_id)
    computers = {seat.seat for seat in row.seats if seat.computer is not None}
    log = await bot.manager.storage.get_actions(game_id)
    expected = moves_by_kind(log, computers, typed)
    assert expected["timeout"] >= 1 and expected["computer"] >= 3, expected
    assert expected["button"] == 3 and expected["place"] == 3, expected
    after = await scrape(bot)
    for kind in ("button", "place", "computer", "timeout"):
        counted = grown(before, after, "carcassonne_move_seconds_count", kind=kind)
        assert counted == expected[kind], (kind, counted, expected)
    assert grown(before, after, "carcassonne_move_seconds_sum", kind="button") > 0
    # The refusal, by the key of the message the player read.
    assert grown(before, after, "carcassonne_interactions_refused_total", reason="not_your_turn")
    assert refusals == grown(
        before, after, "carcassonne_interactions_refused_total", reason="not_your_turn"
    )
    failed = {k: v for k, v in after.items() if k[0] == "carcassonne_interactions_failed_total"}
    assert all(before.get(k, 0.0) == v for k, v in failed.items()), failed
    # Every turn message has its picture; every move its storage calls.
    pictures = grown(before, after, "carcassonne_picture_seconds_count", kind="turn")
    assert pictures >= sum(expected.values())
    assert value(after, "carcassonne_pictures_in_progress") == 0
    writes = grown(before, after, "carcassonne_db_call_seconds_count", call="append_actions")
    assert writes >= sum(expected.values()) - expected["timeout"]
    assert grown(before, after, "carcassonne_db_errors_total", call="append_actions") == 0
    # The turn starts announced, the timeouts' announcements, and how late the deadlines were.
    assert (
        grown(before, after, "carcassonne_notices_sent_total", kind="timeout")
        == expected["timeout"]
    )
    assert grown(before, after, "carcassonne_notices_sent_total", kind="start") >= 1
    lag = grown(before, after, "carcassonne_scheduler_lag_seconds_count")
    assert lag >= expected["timeout"]
    # The bot's state when scraped.
    assert value(after, "carcassonne_active_games") == 1
    assert value(after, "carcassonne_live_games") >= 1
    assert value(after, "carcassonne_shard_connected", shard="0") == 1
    assert value(after, "carcassonne_render_queue_depth") == 0
    # Each computer turn waited for its worker (here none waited long), none was refused.
    waited = grown(before, after, "carcassonne_computer_wait_seconds_count", level="easy")
    assert waited == expected["computer"], (waited, expected)
    assert grown(before, after, "carcassonne_computer_refused_total") == 0
    assert value(after, "carcassonne_computer_queue_depth") == 0
    assert value(after, "carcassonne_computer_decisions_in_progress") == 0
    assert value(after, "process_resident_memory_bytes") > 0
    assert value(after, "process_cpu_seconds_total") > 0
    # No label names a user, a guild or a game.
    ids = {str(game_id), str(alice.id), str(bob.id), str(table.guild.id)}
    labels = {v for _, pairs in after for _, v in pairs}
    assert not labels & ids, labels & ids


def test_a_histogram_counts_each_value_in_the_first_bucket_it_fits() -> None:
    from prometheus_client import CollectorRegistry, generate_latest

    from bot import metrics

    registry = CollectorRegistry()
    histogram = metrics.LoopHistogram("test_seconds", "A test", "kind", (0.1, 1.0))
    metrics.REGISTRY.unregister(histogram)
    registry.register(histogram)
    for seconds in (0.05, 0.1, 0.5, 3.0):
        histogram.labels("a").observe(seconds)
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for s in family.samples
    }
    assert samples == {
        ("test_seconds_bucket", (("kind", "a"), ("le", "0.1"))): 2.0,  # a bound is "at most"
        ("test_seconds_bucket", (("kind", "a"), ("le", "1.0"))): 3.0,
        ("test_seconds_bucket", (("kind", "a"), ("le", "+Inf"))): 4.0,
        ("test_seconds_count", (("kind", "a"),)): 4.0,
        ("test_seconds_sum", (("kind", "a"),)): 3.65,
    }
