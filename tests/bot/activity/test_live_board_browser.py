"""The live board end to end: Debian's Chromium against the real bot core.

The bot runs on simcord (the real discord.py against a fake Discord); its game manager serves the
live board (:class:`bot.activity.server.ActivityServer`), which signs the pages in through a
local fake of Discord's OAuth2 endpoints (:mod:`bot.activity.fake_discord`). Pages open with the
SDK's mock, as outside Discord. Players move with simcord's buttons; every open board must show
each move as the engine has it, within a second; a restarted server is reconnected to; a private
game shows nothing to a member who does not play it; a phone and a desktop both show the board.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import simcord
from board_input import free_square, tap
from chromium import chromium, needs
from conftest_ui import Table, commit, pick, simcord_bot

from bot.activity.fake_discord import FakeDiscord
from bot.activity.page import sdk_bundled
from bot.activity.server import ActivityServer
from bot.activity.settings import ActivitySettings
from bot.ui.turn import board_acts
from engine import Game

__all__ = ["simcord_bot"]  # the fixture simcord_env needs

CLIENT_ID, SECRET = "4242424242", "live board secret"
#: The longest a stored move may take to show on an open board.
SECOND = 1.0


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    needs(
        [] if sdk_bundled() else ["bot/activity/static/sdk.js"],
        "the live board's page needs the SDK bundled by scripts/activity-sdk (Node.js, npm)",
    )
    with chromium("live-board") as driver:
        yield driver


@dataclass
class Live:
    """The table (a simcord server with alice and bob), its live board and the fake Discord."""

    table: Table
    server: ActivityServer
    discord: FakeDiscord
    settings: ActivitySettings
    now: list[float]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    def address(self, member: Any, channel: Any) -> str:
        """The page as Discord would open it in ``channel``, signing ``member`` in (the mock's
        code, good again for a new sign-in)."""
        self.discord.add_user(member.id, member.name, {self.table.guild.id: 0})
        code = self.discord.code_for(member.id, again=True)
        return f"{self.url}?mock=1&guild={self.table.guild.id}&channel={channel.id}&code={code}"

    async def restart(self) -> None:
        """The board's server stops (every socket closed) and starts again on the same port."""
        port = self.server.port
        await self.server.close()
        settings = ActivitySettings(port, "127.0.0.1", CLIENT_ID, SECRET, self.discord.base)
        self.server = ActivityServer(
            self.table.bot.manager,
            settings,
            clock=lambda: self.now[0],
            announce=partial(board_acts.announce, self.table.bot),
        )
        await self.server.start()


@asynccontextmanager
async def served(simcord_env: simcord.Env, players: int) -> AsyncIterator[Live]:
    """``players`` members on simcord, the live board served for them, the fake Discord."""
    table = Table(simcord_env, players=players)
    discord = FakeDiscord(CLIENT_ID, SECRET)
    await discord.start()
    now = [time.time()]
    settings = ActivitySettings(0, "127.0.0.1", CLIENT_ID, SECRET, discord.base)
    announce = partial(board_acts.announce, table.bot)
    server = ActivityServer(table.bot.manager, settings, clock=lambda: now[0], announce=announce)
    await server.start()
    found = Live(table, server, discord, settings, now)
    try:
        yield found
    finally:
        await found.server.close()
        await discord.close()


@pytest.fixture
async def live(simcord_env: simcord.Env) -> AsyncIterator[Live]:
    async with served(simcord_env, 3) as found:
        yield found


# -- the browser, from the event loop (the server answers on it meanwhile) ----------------------


async def run(call: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(call, *args)


async def state(driver: Any) -> dict[str, Any]:
    found = await run(driver.execute_script, "return window.activityState || {}")
    return dict(found or {})


async def wait_for(
    driver: Any, test: Callable[[dict[str, Any]], Any], seconds: float = 20.0
) -> dict[str, Any]:
    end = time.monotonic() + seconds
    last: dict[str, Any] = {}
    while time.monotonic() < end:
        last = await state(driver)
        if test(last):
            return last
        await asyncio.sleep(0.02)
    raise AssertionError(f"the page never got there: {last}")


async def open_tab(driver: Any, address: str, first: bool = False) -> str:
    """Open ``address`` in a new tab (or the current one); the tab's handle."""
    if not first:
        await run(driver.switch_to.new_window, "tab")
    await run(driver.get, address)
    return str(driver.current_window_handle)


async def on_tab(driver: Any, handle: str) -> None:
    await run(driver.switch_to.window, handle)


async def close_tabs(driver: Any) -> None:
    handles = list(driver.window_handles)
    for handle in handles[1:]:
        await run(driver.switch_to.window, handle)
        await run(driver.close)
    await run(driver.switch_to.window, handles[0])
    await run(driver.get, "about:blank")


def at(game: Game) -> Callable[[dict[str, Any]], bool]:
    """Whether the page shows ``game``'s latest state."""
    version = len(game.actions)
    return lambda shown: shown.get("version") == version


def as_engine(shown: dict[str, Any], game: Game) -> None:
    """The page shows what the engine has: the same tiles, figures, scores, player in turn."""
    assert shown["version"] == len(game.actions), shown
    assert shown["tiles"] == len(game.board.tiles)
    assert shown["figures"] == sum(1 for f in game.figures() if f.pos in game.board.tiles)
    assert shown["scores"] == list(game.scores)
    assert shown["turnSeat"] == (None if game.finished else game.decision.player)
    assert shown["tilesLeft"] == game.tiles_left


async def play_by_buttons(live: Live, game_id: int) -> Game:
    """The player in turn plays a turn with simcord's buttons: a square, then No figure."""
    table = live.table
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    step = await pick(table, game_id, player, table.last())
    await commit(player, step)
    return await table.bot.manager.engine_copy(game_id)


# -- the tests ---------------------------------------------------------------------------------


async def test_moves_by_buttons_reach_two_open_boards_within_a_second(
    live: Live, browser: Any
) -> None:
    table = live.table
    alice, _bob, carol = table.players
    game_id = await table.new(seed=5)
    for _ in range(2):
        await play_by_buttons(live, game_id)  # a board opened mid-game
    thread = table.thread()
    try:
        tabs = [
            await open_tab(browser, live.address(alice, thread), first=True),
            await open_tab(browser, live.address(carol, thread)),  # a member who watches
        ]
        game = await table.bot.manager.engine_copy(game_id)
        for tab in tabs:
            await on_tab(browser, tab)
            as_engine(await wait_for(browser, at(game)), game)
        for _ in range(3):
            game = await play_by_buttons(live, game_id)
            stored = time.monotonic()
            for tab in tabs:
                await on_tab(browser, tab)
                shown = await wait_for(browser, at(game), seconds=5)
                as_engine(shown, game)
            assert time.monotonic() - stored < 2 * SECOND * len(tabs)
    finally:
        await close_tabs(browser)


async def test_a_restarted_server_is_reconnected_to_and_shows_the_latest_board(
    live: Live, browser: Any
) -> None:
    table = live.table
    game_id = await table.new(seed=6)
    try:
        await open_tab(browser, live.address(table.players[0], table.thread()), first=True)
        await wait_for(browser, lambda s: s.get("game") == game_id)
        await live.restart()
        game = await play_by_buttons(live, game_id)  # played while the page reconnects
        shown = await wait_for(browser, lambda s: bool(s.get("connected")) and at(game)(s))
        assert shown["reconnects"] >= 1
        as_engine(shown, game)
        # A sign-in past its hours is refused at the next reconnection: the page signs in again.
        live.now[0] += live.settings.session_seconds + 60
        await live.restart()
        await wait_for(browser, lambda s: s.get("error") == "session_expired")
        await run(browser.find_element("id", "sign-in").click)
        live.now[0] = time.time() + live.settings.session_seconds + 60
        game = await play_by_buttons(live, game_id)
        as_engine(await wait_for(browser, at(game)), game)
    finally:
        await close_tabs(browser)


async def test_a_private_game_shows_nothing_to_a_member_who_does_not_play_it(
    live: Live, browser: Any
) -> None:
    table = live.table
    alice = table.players[0]
    outsider = table.guild.add_member(live.table.env.create_user("olga"))
    game_id = await table.new(seed=7, private=True)
    thread = table.thread()
    try:
        await open_tab(browser, live.address(outsider, thread), first=True)
        shown = await wait_for(browser, lambda s: s.get("signedIn") and s.get("connected"))
        await asyncio.sleep(0.5)
        shown = await state(browser)
        assert shown["games"] == [] and shown["game"] is None and shown["tiles"] == 0
        text = await run(browser.execute_script, "return document.body.innerText")
        assert "alice" not in text.lower() and "bob" not in text.lower()
        await open_tab(browser, live.address(alice, thread))
        game = await table.bot.manager.engine_copy(game_id)
        as_engine(await wait_for(browser, at(game)), game)
    finally:
        await close_tabs(browser)


@pytest.mark.parametrize(("width", "height"), [(400, 800), (1280, 800)])
async def test_a_phone_and_a_desktop_show_the_board_and_the_players(
    live: Live, browser: Any, width: int, height: int
) -> None:
    table = live.table
    game_id = await table.new(seed=8)
    for _ in range(8):
        await play_by_buttons(live, game_id)
    phone = width < 600
    await run(
        browser.execute_cdp_cmd,
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone},
    )
    try:
        await open_tab(browser, live.address(table.players[1], table.thread()), first=True)
        game = await table.bot.manager.engine_copy(game_id)
        as_engine(await wait_for(browser, at(game)), game)
        page = await run(
            browser.execute_script,
            """
            const names = [...document.querySelectorAll('#players li .name')];
            return {
              overflow: document.documentElement.scrollWidth - window.innerWidth,
              names: names.map((e) => e.textContent),
              visible: names.every((e) => e.getBoundingClientRect().width > 0),
            };
            """,
        )
        assert page["overflow"] <= 0, page
        assert page["names"] == ["alice", "bob", "carol"] and page["visible"], page
        folder = os.environ.get("ACTIVITY_SCREENSHOTS")
        if folder:
            await run(browser.save_screenshot, str(Path(folder) / f"live-{width}x{height}.png"))
    finally:
        await run(browser.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        await close_tabs(browser)


async def play_on_the_board(live: Live, browser: Any, game_id: int) -> Game:
    """The player on the board plays their turn with two taps: a lit square, then No figure."""
    manager = live.table.bot.manager
    version = len((await manager.engine_copy(game_id)).actions)
    shown = await wait_for(browser, lambda s: bool(s.get("you")) and s.get("version") == version)
    squares = shown["you"]["tiles"][0]["squares"]
    _square, point = await run(free_square, browser, squares)
    await run(tap, browser, point)
    await wait_for(browser, lambda s: s.get("step") is not None)
    await run(browser.find_element("id", "no-figure").click)
    await wait_for(browser, lambda s: (s.get("version") or 0) > version)
    return await manager.engine_copy(game_id)


async def test_one_player_on_the_board_the_others_on_buttons_in_the_same_game(
    live: Live, browser: Any
) -> None:
    """Alice plays on the board, bob and carol with simcord's buttons, turn after turn: each
    board move is announced in the thread with its picture, and the buttons play on from it."""
    table = live.table
    alice = table.players[0]
    game_id = await table.new(seed=9)
    manager = table.bot.manager
    try:
        await open_tab(browser, live.address(alice, table.thread()), first=True)
        board_moves = 0
        for _ in range(6):
            view = await manager.decision(game_id)
            if view.user_id == alice.id:
                before = table.last().id
                game = await play_on_the_board(live, browser, game_id)
                board_moves += 1
                end = time.monotonic() + 10
                while table.last().id == before and time.monotonic() < end:
                    await asyncio.sleep(0.05)  # the announcement follows the board's answer
                posted = table.last()
                assert posted.id != before, "the board's move was not announced in the thread"
                assert posted.attachments, "the announced turn has no picture"
                assert f"<@{table.players[1].id}>" in (posted.content or "")
            else:
                game = await play_by_buttons(live, game_id)
            as_engine(await wait_for(browser, at(game)), game)
        assert board_moves == 2
    finally:
        await close_tabs(browser)
