"""The live board under the conditions of a real game, in Debian's Chromium against the real bot
core on simcord: two bot processes on one PostgreSQL database (the board's moves through one, the
buttons through the other), a computer seat answering a board move on its own, a play-by-post
turn timing out while the board's player does nothing, an undo from the board (at once, and
asked of the others), the board's server restarting in the middle of a turn, and a stale tab's
play refused."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord
from board_input import free_square, tap
from conftest_ui import Table, close_bots, custom_ids, make_bot
from test_board_families_browser import FAMILIES, final_table
from test_live_board_browser import (
    SECOND,
    Live,
    as_engine,
    at,
    browser,
    close_tabs,
    live,
    on_tab,
    open_tab,
    play_by_buttons,
    play_on_the_board,
    run,
    state,
    wait_for,
)

from bot.activity.server import ActivityServer
from bot.activity.words import refusal_text
from bot.app import CarcassonneBot
from bot.manager import GameManager
from bot.ui.turn import board_acts
from engine import Game
from engine.cli import replay_output

__all__ = ["browser", "live"]  # the fixtures, shared with the other live board tests

#: Simulated time passes in these tests: give the bot room to settle on a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=120)

HOUR = 3600.0


@pytest.fixture
def wanted(request: pytest.FixtureRequest) -> dict[str, Any]:
    """What the test wants of its bot (``bot_with``)."""
    return dict(getattr(request, "param", {}))


@pytest.fixture
def bot_database(
    request: pytest.FixtureRequest, wanted: dict[str, Any], tmp_path: Path
) -> Iterator[Any]:
    """A SQLite file, or (``database="postgresql"``) a PostgreSQL database of its own on the
    run's server (started outside the event loop)."""
    if wanted.get("database") != "postgresql":
        yield tmp_path / "games.sqlite3"
        return
    cluster = request.getfixturevalue("postgres")
    name = cluster.fresh()
    yield cluster.server.url_of(name)
    cluster.drop(name)


@pytest_asyncio.fixture
async def simcord_bot(bot_database: Any, wanted: dict[str, Any]) -> AsyncIterator[CarcassonneBot]:
    """The bot under test on ``bot_database``; ``tick`` its scheduler's tick."""
    yield make_bot(bot_database, tick_seconds=wanted.get("tick"))
    await close_bots()


def bot_with(**wanted: Any) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("wanted", [wanted], indirect=True, ids=[""])


async def alices_turn(live: Live, game_id: int) -> None:
    """The others play by buttons until it is alice's turn."""
    manager = live.table.bot.manager
    while (await manager.decision(game_id)).user_id != live.table.players[0].id:
        await play_by_buttons(live, game_id)


async def next_post(table: Table, before: int, seconds: float = 10.0) -> Any:
    """The thread's first message after message ``before`` (waited for)."""
    end = time.monotonic() + seconds
    while table.last().id == before and time.monotonic() < end:
        await asyncio.sleep(0.05)
    posted = table.last()
    assert posted.id != before, "nothing was posted in the thread"
    return posted


class Seen:
    """When the page first showed each version, polled in the background (the tab not changed
    meanwhile). Times by ``perf_counter``: simcord's simulated clock moves ``monotonic`` in the
    bot's own tasks."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.at: dict[int, float] = {}
        self.task = asyncio.get_running_loop().create_task(self._poll())

    async def _poll(self) -> None:
        while True:
            version = (await state(self.driver)).get("version")
            if isinstance(version, int):
                self.at.setdefault(version, time.perf_counter())
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def stored_times(*managers: GameManager) -> dict[int, float]:
    """When each version (action count) of a game was stored, by any of ``managers``."""
    found: dict[int, float] = {}

    async def heard(row: Any, turn_started: bool) -> None:
        found.setdefault(row.action_count, time.perf_counter())

    for manager in managers:
        manager.on_game_change(heard)
    return found


# -- 1. two bot processes on PostgreSQL ------------------------------------------------------


@bot_with(database="postgresql")
async def test_two_processes_on_postgresql_the_board_on_one_the_buttons_on_the_other(
    live: Live, browser: Any
) -> None:
    """Alice plays on a board served by a second process's manager; bob and carol play with the
    simcord bot's buttons: every move reaches the board within a second of being stored, and
    the thread gets each turn message."""
    table = live.table
    first = table.bot.manager
    second = await GameManager.open(table.bot.settings.database)
    server = ActivityServer(
        second,
        live.settings,
        clock=lambda: live.now[0],
        announce=partial(board_acts.announce, table.bot),
    )
    await server.start()
    other = dataclasses.replace(live, server=server)
    seen: Seen | None = None
    try:
        assert first.storage.shared and second.storage.shared
        game_id = await short_game(table, seed=21)
        stored = stored_times(first, second)
        await open_tab(browser, other.address(table.players[0], table.thread()), first=True)
        await wait_for(browser, at(await first.engine_copy(game_id)))
        seen = Seen(browser)
        board_moves = button_moves = 0
        while not (await first.engine_copy(game_id)).finished:
            view = await first.decision(game_id)
            before = table.last().id
            if view.user_id == table.players[0].id:
                game = await play_on_the_board(other, browser, game_id)
                board_moves += 1
                posted = await next_post(table, before)
                assert posted.attachments, "the board's move was announced without its picture"
            else:
                game = await play_by_buttons(other, game_id)
                button_moves += 1
                assert table.last().id != before, "the button's move was not posted"
            as_engine(await wait_for(browser, at(game), seconds=5), game)
            # Both managers see the same game.
            assert len((await second.engine_copy(game_id)).actions) == len(game.actions)
            version = len(game.actions)
            # The poller may not have sampled it yet: then now, later than it was shown, stands.
            shown_at = seen.at.get(version, time.perf_counter())
            assert shown_at - stored[version] < SECOND, (version, seen.at, stored)
        assert board_moves >= 2 and button_moves >= 2, (board_moves, button_moves)
        # Played to its end: the board's final scores are the thread's final table's and the
        # record's replay's.
        game = await first.engine_copy(game_id)
        scores = list(game.scores)
        end = await wait_for(browser, lambda s: s.get("final") is not None)
        assert end["final"] == scores
        told = final_table(table.thread().history())
        assert [told[name] for name in game.setup.players] == scores, (told, scores)
        status, replayed = replay_output(await first.records.full_record(game_id))
        assert status == 0 and replayed["finished"]
        assert [replayed["scores"][name] for name in game.setup.players] == scores
    finally:
        if seen is not None:
            await seen.close()
        await close_tabs(browser)
        await server.close()
        await second.close()


async def short_game(table: Table, seed: int) -> int:
    """Alice, bob and carol on the base game's short forced draw (eleven tiles)."""
    players = table.players
    await players[0].slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    for player in players[1:]:
        await player.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    draw = next(f for f in FAMILIES if f.name == "base").draw.split()
    await manager.storage.save_game(dataclasses.replace(row, setup_extra={"draw": draw}))
    manager.seeds = lambda: seed
    await players[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    return game_id


# -- 2. a computer seat ------------------------------------------------------------------------


async def with_a_computer(table: Table, seed: int) -> int:
    """Alice opens a game, seats an easy computer and starts it."""
    alice = table.players[0]
    await alice.slash(table.channel, "carcassonne new")
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    opened = await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:computer")
    assert opened.response is not None
    await alice.select(opened.response, ["easy"], custom_id=f"cc:lopt:{game_id}:computer_add")
    table.bot.manager.seeds = lambda: seed
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    assert table.bot.computer_turns is not None
    await table.bot.computer_turns.idle()
    return game_id


def yours_at(game: Game) -> Callable[[dict[str, Any]], bool]:
    """Whether the page shows ``game``'s latest state with the user's choices."""
    return lambda shown: at(game)(shown) and bool(shown.get("you"))


async def test_the_computers_move_shows_on_the_board_on_its_own(live: Live, browser: Any) -> None:
    table = live.table
    manager = table.bot.manager
    game_id = await with_a_computer(table, seed=22)
    row = await manager.game(game_id)
    assert [s.computer for s in row.seats] == [None, "easy"]
    try:
        await open_tab(browser, live.address(table.players[0], table.thread()), first=True)
        for _ in range(3):
            turn = (await manager.decision(game_id)).turn
            assert (await manager.engine_copy(game_id)).decision.player == 0
            await play_on_the_board(live, browser, game_id)
            # The announcement set the computer playing: its turn follows on its own.
            end = time.monotonic() + 15
            view = await manager.decision(game_id)
            while view.turn < turn + 2 and time.monotonic() < end:
                await asyncio.sleep(0.05)
                view = await manager.decision(game_id)
            assert view.turn == turn + 2 and view.user_id == table.players[0].id, view
            game = await manager.engine_copy(game_id)
            shown = await wait_for(browser, yours_at(game))
            as_engine(shown, game)
            assert shown["turnSeat"] == 0
    finally:
        await close_tabs(browser)


# -- 3. a turn's time running out -----------------------------------------------------------


def deadline_text(seconds: float) -> str:
    total = int(seconds)
    return f"{total // 3600} h {total % 3600 // 60} min left to play"


async def turn_deadline(manager: GameManager, game_id: int) -> float:
    row = await manager.game(game_id)
    dues = [
        d.due_at
        for d in await manager.storage.deadlines(game_id)
        if d.kind == "turn" and d.done_at is None and d.turn == row.turn
    ]
    assert len(dues) == 1, dues
    return float(dues[0])


async def timer_shown(driver: Any) -> str:
    return str(
        await run(driver.execute_script, "return document.getElementById('timer').textContent")
    )


@bot_with(tick=1800.0)
async def test_a_turn_timing_out_plays_the_timeouts_move_and_the_board_follows(
    live: Live, browser: Any, simcord_env: simcord.Env
) -> None:
    table = live.table
    manager = table.bot.manager
    game_id = await table.new(seed=23, turn_hours=24)
    await alices_turn(live, game_id)
    # The board's server started again from the test itself, where simcord's simulated time
    # reigns (the fixture's context knows only the real time), as the bot's own tasks do.
    await live.restart()
    try:
        await open_tab(browser, live.address(table.players[0], table.thread()), first=True)
        game = await manager.engine_copy(game_id)
        shown = await wait_for(browser, lambda s: at(game)(s) and bool(s.get("you")))
        due = await turn_deadline(manager, game_id)
        left = due - manager.clock()
        assert 23 * HOUR < left <= 24 * HOUR
        text = await timer_shown(browser)
        assert text in (deadline_text(left), deadline_text(left - 60)), text
        before = table.last().id
        waited = 0.0
        while (
            waited < 25 * HOUR and (await manager.decision(game_id)).user_id == table.players[0].id
        ):
            await simcord_env.advance_time(3 * HOUR)
            waited += 3 * HOUR
        assert waited <= 25 * HOUR, "the turn never timed out"
        record = await manager.records.full_record(game_id)
        assert any(a.get("forced") for a in record["actions"]), "no move of the timeout"
        game = await manager.engine_copy(game_id)
        shown = await wait_for(browser, at(game), seconds=10)
        as_engine(shown, game)
        assert shown["turnSeat"] != 0 and shown["you"] is None
        assert table.last().id != before, "the thread was not told"
        # The next turn's deadline on the board.
        due = await turn_deadline(manager, game_id)
        left = due - manager.clock()
        text = await timer_shown(browser)
        assert text in (deadline_text(left), deadline_text(left - 60)), text
    finally:
        await close_tabs(browser)


# -- 4. an undo from the board -----------------------------------------------------------------


async def toast_shown(driver: Any, expected: str, seconds: float = 5.0) -> str:
    """The toast's text once it is ``expected`` (or the last one seen after ``seconds``): the
    answer that sets it may come after the pushed state the test waited for, as it does on a
    loaded machine."""
    end = time.monotonic() + seconds
    text = ""
    while time.monotonic() < end:
        text = await run(
            driver.execute_script,
            "const t = document.getElementById('toast'); return t.hidden ? '' : t.textContent",
        )
        if text == expected:
            return str(text)
        await asyncio.sleep(0.02)
    return str(text)


async def test_an_undo_from_the_board_at_once_and_asked_of_the_others(
    live: Live, browser: Any
) -> None:
    table = live.table
    alice = table.players[0]
    manager = table.bot.manager
    game_id = await table.new(seed=24)
    await alices_turn(live, game_id)
    try:
        await open_tab(browser, live.address(alice, table.thread()), first=True)
        start = await manager.engine_copy(game_id)
        before = table.last().id
        await play_on_the_board(live, browser, game_id)
        before = (await next_post(table, before)).id  # the move's announcement
        # Her own turn, nobody acted since: taken back at once.
        await run(browser.find_element("id", "undo").click)
        shown = await wait_for(browser, lambda s: at(start)(s) and bool(s.get("you")), seconds=5)
        as_engine(shown, await manager.engine_copy(game_id))
        assert shown["you"]["version"] == len(start.actions)
        toast = await toast_shown(browser, refusal_text("undo_done", "en"))
        assert toast == refusal_text("undo_done", "en"), toast
        posted = await next_post(table, before)
        assert "The last turn was taken back (alice)." in (posted.content or ""), posted.content
        # She plays, bob answers by buttons: her undo now asks the others.
        before = table.last().id
        before_bob = await play_on_the_board(live, browser, game_id)
        await next_post(table, before)
        game = await play_by_buttons(live, game_id)
        await wait_for(browser, at(game))
        asked_at = len(game.actions)
        before = table.last().id
        await run(browser.find_element("id", "undo").click)
        request = await next_post(table, before)
        yes = [i for i in custom_ids(request, "cc:undo:") if i.endswith(":yes")]
        assert yes, f"the thread got no request to agree to: {request.content}"
        toast = await toast_shown(browser, refusal_text("undo_asked", "en"))
        assert toast == refusal_text("undo_asked", "en"), toast
        assert len((await manager.engine_copy(game_id)).actions) == asked_at  # nothing yet
        for player in table.players[1:]:
            current = next(m for m in table.thread().history() if m.id == request.id)
            if not custom_ids(current, "cc:undo:"):
                break
            await player.click(current, custom_id=yes[0])
        game = await manager.engine_copy(game_id)
        assert len(game.actions) == len(before_bob.actions), "the others agreed, nothing taken back"
        assert game.decision.player == before_bob.decision.player
        as_engine(await wait_for(browser, at(game), seconds=5), game)
    finally:
        await close_tabs(browser)


# -- 5. the board's server restarting mid-turn ------------------------------------------------


async def test_a_restart_in_the_middle_of_a_turn_and_the_move_is_stored_once(
    live: Live, browser: Any
) -> None:
    table = live.table
    manager = table.bot.manager
    game_id = await table.new(seed=25)
    await alices_turn(live, game_id)
    try:
        await open_tab(browser, live.address(table.players[0], table.thread()), first=True)
        start = await manager.engine_copy(game_id)
        turn = (await manager.decision(game_id)).turn
        shown = await wait_for(browser, lambda s: at(start)(s) and bool(s.get("you")))
        squares = shown["you"]["tiles"][0]["squares"]
        _square, point = await run(free_square, browser, squares)
        await run(tap, browser, point)
        await wait_for(browser, lambda s: s.get("step") is not None)
        before = table.last().id
        await live.restart()
        shown = await wait_for(
            browser, lambda s: s.get("reconnects", 0) >= 1 and s.get("connected") and at(start)(s)
        )
        if shown.get("step") is None:  # the lost socket dropped the choice: tap again
            squares = shown["you"]["tiles"][0]["squares"]
            _square, point = await run(free_square, browser, squares)
            await run(tap, browser, point)
            shown = await wait_for(browser, lambda s: s.get("step") is not None)
        await run(browser.find_element("id", "no-figure").click)
        shown = await wait_for(browser, lambda s: (s.get("version") or 0) > len(start.actions))
        await next_post(table, before)
        await asyncio.sleep(0.5)  # a second play, were one sent, would be stored by now
        game = await manager.engine_copy(game_id)
        as_engine(await state(browser), game)
        assert (await manager.decision(game_id)).turn == turn + 1
        assert (await state(browser))["sentPlays"] == 1
        assert game.decision.player != start.decision.player
        posts = [m for m in table.thread().history() if m.id > before]
        assert len(posts) == 1, [m.content for m in posts]
    finally:
        await close_tabs(browser)


# -- 6. a stale tab ----------------------------------------------------------------------------

#: Boards for this tab wait while ``window.heldBoards`` is on (a slow network): the tab's
#: choice is then made on a turn that moved on.
HOLD_BOARDS = """
(() => {
  const held = [];
  window.heldBoards = false;
  const own = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    configurable: true,
    get() { return own.get.call(this); },
    set(handler) {
      if (!handler) return own.set.call(this, handler);
      const ws = this;
      own.set.call(this, (event) => {
        let kind = null;
        try { kind = JSON.parse(event.data).type; } catch (e) {}
        if (window.heldBoards && kind === "board") {
          held.push(() => handler.call(ws, event));
          return;
        }
        handler.call(ws, event);
      });
    },
  });
  window.releaseBoards = () => {
    window.heldBoards = false;
    for (const deliver of held.splice(0)) deliver();
  };
})();
"""


async def test_a_stale_tabs_play_is_refused_with_its_reason_and_changes_nothing(
    live: Live, browser: Any
) -> None:
    table = live.table
    manager = table.bot.manager
    alice = table.players[0]
    game_id = await table.new(seed=26)
    await alices_turn(live, game_id)
    address = live.address(alice, table.thread())
    try:
        one = await open_tab(browser, address, first=True)
        await run(browser.switch_to.new_window, "tab")
        await run(
            browser.execute_cdp_cmd,
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": HOLD_BOARDS},
        )
        two = await open_tab(browser, live.address(alice, table.thread()), first=True)
        start = await manager.engine_copy(game_id)
        shown = await wait_for(browser, lambda s: at(start)(s) and bool(s.get("you")))
        # The second tab: a square tapped, its step shown; then its network is slow.
        squares = shown["you"]["tiles"][0]["squares"]
        _square, point = await run(free_square, browser, squares)
        await run(tap, browser, point)
        await wait_for(browser, lambda s: s.get("step") is not None)
        await run(browser.execute_script, "window.heldBoards = true")
        # The first tab plays the turn.
        await on_tab(browser, one)
        before = table.last().id
        played = await play_on_the_board(live, browser, game_id)
        before = (await next_post(table, before)).id  # its announcement
        # The second tab's play is of the turn gone by: refused, its reason shown.
        await on_tab(browser, two)
        await run(browser.find_element("id", "no-figure").click)
        shown = await wait_for(browser, lambda s: s.get("step") is None and not s.get("sending"))
        toast = await run(
            browser.execute_script,
            "const t = document.getElementById('toast'); return t.hidden ? null : t.textContent",
        )
        assert toast == refusal_text("turn_moved_on", "en"), toast
        assert shown["version"] == len(start.actions)  # the late board is still on its way
        await asyncio.sleep(0.3)
        game = await manager.engine_copy(game_id)
        assert len(game.actions) == len(played.actions), "the stale play changed the game"
        assert table.last().id == before, "the stale play was announced"
        await run(browser.execute_script, "window.releaseBoards()")
        as_engine(await wait_for(browser, at(game)), game)
    finally:
        await close_tabs(browser)
