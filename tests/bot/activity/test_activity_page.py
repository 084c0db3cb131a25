"""The live board's page in a real browser (Debian's Chromium, driven by its chromedriver).

A small aiohttp app in this module serves what the bot's server serves (``docs/ACTIVITY.md``):
the page (:func:`bot.activity.page.page_html`), its static files, ``/art/{variant}.json``
(:func:`bot.activity.page.art_json`), a ``/api/token`` answering any code and a ``/ws`` that
welcomes the page and sends it boards written by :func:`bot.activity.views.table_view` from real
engine games of every family, played with random moves. The page signs in with the SDK's mock
(the SDK bundled by ``scripts/activity-sdk``) and must draw exactly the view's tiles, figures and
scores, follow new boards, pan and zoom, fit a phone and a desktop, speak the welcome's
language, reconnect after a dropped socket and offer to sign in again after a refused session.
Without Chromium or the bundled SDK the browser tests skip, except in CI, where they fail.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType, web
from chromium import chromium, needs

import catalogs
from bot.activity.page import art_json, page_html, sdk_bundled, static_file
from bot.activity.views import Timing, own_view, table_view
from bot.lobby import STYLES
from bot.storage import GameRow, SeatRow
from engine import Game, Phase, Setup
from engine.cli import random_action
from renderer.viewer.tables import VARIANTS, variant, variant_of
from renderer.viewer.turns import variant_key

#: What a page test needs beyond Chromium.
SDK_NEEDED = "the live board's page needs the SDK bundled by scripts/activity-sdk (Node.js, npm)"
CLIENT_ID = "123456789012345678"
GUILD, CHANNEL = "555000111", "555000222"
USER = {"id": "101", "name": "Ann"}
NAMES = ("Ann", "Björn", "Chloé", "Dev", "Eun-ji", "Femi")
#: One game per family (and the tactical hand), each a few turns in.
FAMILIES: dict[str, dict[str, Any]] = {
    "base": {"players": 2, "moves": 40},
    "abbey-mayor-hand": {
        "players": 3,
        "moves": 50,
        "expansions": ("abbey_mayor",),
        "options": {"hand": True},
    },
    "hunters": {"players": 4, "moves": 50, "game": "hunters"},
    "castle": {"players": 2, "moves": 40, "game": "castle"},
}
#: What the page shows, read from its DOM.
READ = """
const board = document.getElementById("board");
return {
  tiles: board.querySelectorAll(".tile").length,
  figures: board.querySelectorAll(".fig").length,
  squares: board.querySelectorAll(".square").length,
  kinds: [...board.querySelectorAll(".tile")].map((e) => e.dataset.kind).sort(),
  scores: [...document.querySelectorAll("#players li .score")].map((e) => Number(e.textContent)),
  names: [...document.querySelectorAll("#players li .name")].map((e) => e.textContent),
  current: [...document.querySelectorAll("#players li.current")].map((e) => Number(e.dataset.seat)),
  hand: [...document.querySelectorAll("#hand .hand-tile")].map((e) => e.dataset.kind),
  playTile: document.getElementById("play-tile").dataset.kind || null,
  turn: document.getElementById("turn-name").textContent,
  turnNumber: document.getElementById("turn-number").textContent,
  timer: document.getElementById("timer").textContent,
  tilesLeft: document.getElementById("tiles-left").textContent,
  held: [...document.querySelectorAll("#players li .tag.held")].map((e) => e.textContent),
  notice: document.getElementById("notice").hidden ? null
    : document.getElementById("notice-text").textContent,
  signIn: !document.getElementById("sign-in").hidden,
  picker: [...document.querySelectorAll("#picker button")].map((e) => Number(e.dataset.game)),
  winners: document.getElementById("final").hidden ? null
    : document.getElementById("winners").textContent,
};
"""


# --- Games -------------------------------------------------------------------------------------


def a_game(
    number: int, players: int, moves: int, seed: int = 1, **setup: Any
) -> tuple[GameRow, Game]:
    """Game ``number``: ``players`` seats (the last a computer), ``moves`` random moves in."""
    names = NAMES[:players]
    game = Game(Setup(players=names, seed=seed, **setup))
    rng = random.Random(seed)
    advance(game, rng, moves)
    colours = list(STYLES)
    seats = tuple(
        SeatRow(
            seat=i,
            user_id=-1 if i == players - 1 else 101 + i,
            name=name,
            colour=colours[(i * 2 + 1) % len(colours)],
            computer="easy" if i == players - 1 else None,
        )
        for i, name in enumerate(names)
    )
    row = GameRow(
        id=number,
        owner_id=101,
        created_at=0.0,
        updated_at=0.0,
        guild_id=int(GUILD),
        channel_id=int(CHANNEL),
        kind=game.setup.game,
        expansions=tuple(game.setup.expansions),
        options=dict(game.setup.options),
        status="finished" if game.finished else "active",
        seats=seats,
    )
    return row, game


def advance(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.phase is Phase.OVER:
            return
        game.play(random_action(game, rng))


def view_of(row: GameRow, game: Game, timing: Timing | None = None) -> dict[str, Any]:
    """The board message's view as the server sends it to Ann (seat 0)."""
    view = table_view(row, game, timing or Timing(now=time.time()))
    sent: dict[str, Any] = json.loads(json.dumps(own_view(view, row, game, int(USER["id"]))))
    return sent


# --- The server --------------------------------------------------------------------------------


class Site:
    """The page's server on loopback, in a thread of its own: ``games`` maps a game's number to
    its GAME (``docs/ACTIVITY.md``) and view; ``default`` is the game a hello naming none gets."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.games: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.default: int | None = None
        self.lang = "en"
        self.refuse: str | None = None
        self.private: set[int] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.received: list[dict[str, Any]] = []
        self.tokens: list[dict[str, Any]] = []
        self.sessions = 0
        self.runner: web.AppRunner | None = None
        self.url = ""

    def start(self) -> None:
        self.thread.start()
        self.call(self._start())

    def stop(self) -> None:
        self.call(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    def call(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(10)

    def reset(self, lang: str = "en") -> None:
        self.call(self._close_all())
        self.games.clear()
        self.default = None
        self.lang = lang
        self.refuse = None
        self.private.clear()
        self.received.clear()
        self.tokens.clear()

    def put(self, row: GameRow, view: dict[str, Any], *, default: bool = True) -> None:
        game = {
            "id": row.id,
            "title": f"Game #{row.id}",
            "status": row.status,
            "players": [s.name for s in row.seats],
            "private": False,
        }
        self.games[row.id] = (game, view)
        if default:
            self.default = row.id

    def broadcast(self, game: int) -> None:
        """Send every open socket game ``game``'s board."""

        async def send() -> None:
            for ws in list(self.sockets):
                await ws.send_json(self.board(game))

        self.call(send())

    def drop(self) -> None:
        """Close every socket, as a restarting server does."""
        self.call(self._close_all())

    def board(self, game: int) -> dict[str, Any]:
        return {"type": "board", "game": game, "view": self.games[game][1]}

    async def _close_all(self) -> None:
        for ws in list(self.sockets):
            await ws.close(code=1012, message=b"restart")

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self.page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/art/{variant}.json", self.art)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/ws", self.socket)
        self.runner = web.AppRunner(app, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = self.runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/"

    async def _stop(self) -> None:
        await self._close_all()
        if self.runner is not None:
            await self.runner.cleanup()

    async def page(self, request: web.Request) -> web.Response:
        return web.Response(text=page_html(CLIENT_ID), content_type="text/html")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        try:
            body = static_file(name)
        except (KeyError, FileNotFoundError):
            raise web.HTTPNotFound() from None
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(body=body, content_type=kind)

    async def art(self, request: web.Request) -> web.Response:
        try:
            body = await asyncio.to_thread(art_json, request.match_info["variant"])
        except ValueError:
            raise web.HTTPNotFound() from None
        return web.Response(body=body, content_type="application/json")

    async def token(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.tokens.append(body)
        self.sessions += 1
        session = f"session-{self.sessions}"
        return web.json_response({"access_token": "token", "session": session, "user": USER})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                data = json.loads(message.data)
                self.received.append(data)
                if data["type"] == "hello":
                    if self.refuse is not None:
                        text = catalogs.text("activity", "sign_in_failed", self.lang)
                        await ws.send_json({"type": "refused", "reason": self.refuse, "text": text})
                        await ws.close(code=4001)
                        break
                    game = data.get("game") or self.default
                    welcome = {
                        "type": "welcome",
                        "user": USER,
                        "lang": self.lang,
                        "games": [g for g, _ in self.games.values()],
                        "game": game,
                    }
                    await ws.send_json(welcome)
                    if game is not None:
                        await ws.send_json(self.board(game))
                elif data["type"] == "watch" and data["game"] in self.private:
                    text = catalogs.text("activity", "no_game", self.lang)
                    await ws.send_json({"type": "refused", "reason": "private_only", "text": text})
                elif data["type"] == "watch":
                    await ws.send_json(self.board(data["game"]))
                elif data["type"] == "ping":
                    await ws.send_json({"type": "pong"})
        finally:
            self.sockets.discard(ws)
        return ws


# --- Fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    needs([] if sdk_bundled() else ["bot/activity/static/sdk.js"], SDK_NEEDED)
    with chromium("activity") as driver:
        yield driver


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    served = Site()
    served.start()
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def server(site: Site) -> Site:
    site.reset()
    return site


def screen(driver: Any, width: int, height: int) -> None:
    """The page's viewport ``width`` by ``height`` CSS pixels (a phone: touch, 2 pixels each)."""
    phone = width < 600
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone},
    )


def open_page(driver: Any, site: Site, code: str = "abc") -> None:
    driver.get(f"{site.url}?mock=1&guild={GUILD}&channel={CHANNEL}&code={code}")


def state(driver: Any) -> dict[str, Any]:
    return driver.execute_script("return window.activityState || {}") or {}


def wait_for(driver: Any, test: Callable[[dict[str, Any]], Any], seconds: float = 20) -> Any:
    end = time.monotonic() + seconds
    last: dict[str, Any] = {}
    while time.monotonic() < end:
        last = state(driver)
        if test(last):
            return last
        time.sleep(0.05)
    logs = driver.get_log("browser") if hasattr(driver, "get_log") else []
    raise AssertionError(f"the page never got there: {last} {logs}")


def shown(driver: Any, view: dict[str, Any]) -> dict[str, Any]:
    """Wait until the page shows ``view`` (its game and version), then what it shows."""
    wanted = (view["game"], view["version"])
    wait_for(driver, lambda s: (s.get("game"), s.get("version")) == wanted)
    return dict(driver.execute_script(READ))


def expect_drawn(page: dict[str, Any], view: dict[str, Any]) -> None:
    assert page["tiles"] == len(view["tiles"])
    assert page["kinds"] == sorted(t[0] for t in view["tiles"])
    assert page["figures"] == len(view["pieces"])
    scores = view["final"] or [p["score"] for p in view["players"]]
    assert page["scores"] == scores
    assert page["names"] == [p["name"] for p in view["players"]]
    turn = view["turn"]
    assert page["current"] == ([] if turn is None else [turn["seat"]])
    assert page["playTile"] == (turn["tile"] if turn else None)
    assert page["hand"] == view.get("hand", [])


# --- The page ----------------------------------------------------------------------------------


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_page_signs_in_and_draws_the_board_of_each_family(
    browser: Any, server: Site, family: str
) -> None:
    spec = dict(FAMILIES[family])
    players, moves = spec.pop("players"), spec.pop("moves")
    row, game = a_game(7, players, moves, **spec)
    view = view_of(row, game)
    server.put(row, view)
    screen(browser, 1280, 800)
    open_page(browser, server)
    page = shown(browser, view)
    expect_drawn(page, view)
    assert server.tokens == [{"code": "abc", "guild": GUILD, "channel": CHANNEL}]
    hello = server.received[0]
    assert hello == {"type": "hello", "session": "session-" + str(server.sessions), "game": None}
    now = state(browser)
    assert now["signedIn"] and now["connected"] and now["error"] is None
    assert now["tiles"] == len(view["tiles"]) and now["figures"] == len(view["pieces"])
    assert now["scores"] == [p["score"] for p in view["players"]]
    if variant(variant_of(view["variant"])).bounds:
        assert page["squares"] > 0  # The Castle's squares
    if game.hand_mode:
        assert page["hand"] and page["hand"] == view["hand"]
        if view["turn"]["tile"] is None:
            assert page["turnNumber"].endswith(catalogs.text("activity", "tile_choosing", "en"))
        held = [catalogs.text("activity", "in_hand", "en", n=p["held"]) for p in view["players"]]
        assert page["held"] == held
    else:
        assert page["held"] == []
    # A move later, the next board is drawn as it is.
    advance(game, random.Random(99), 3)
    later = view_of(row, game)
    assert later["version"] > view["version"]
    server.games[row.id] = (server.games[row.id][0], later)
    server.broadcast(row.id)
    expect_drawn(shown(browser, later), later)


def test_a_finished_game_shows_its_final_scores_and_winners(browser: Any, server: Site) -> None:
    row, game = a_game(8, 3, 10_000, seed=4)
    assert game.finished
    view = view_of(row, game)
    assert view["final"] is not None and view["turn"] is None
    server.put(row, view)
    open_page(browser, server)
    page = shown(browser, view)
    expect_drawn(page, view)
    best = max(view["final"])
    names = [p["name"] for p, s in zip(view["players"], view["final"], strict=True) if s == best]
    key = "winner" if len(names) == 1 else "winners"
    assert page["winners"] == catalogs.text("picture", key, "en", names=", ".join(names))
    assert page["turn"] == catalogs.text("activity", "game_over", "en")


def test_the_clocks_count_down(browser: Any, server: Site) -> None:
    row, game = a_game(9, 2, 20)
    now = time.time()
    seat = game.decision.player
    banks = (600.0, 540.5)
    view = view_of(row, game, Timing(now=now, banks=banks, seat=seat))
    server.put(row, view)
    open_page(browser, server)
    shown(browser, view)
    read = "return [...document.querySelectorAll('#players .clock')].map((e) => e.textContent)"
    first = browser.execute_script(read)
    assert first[1 - seat] == ("10:00" if seat == 1 else "9:01")
    time.sleep(2.2)
    second = browser.execute_script(read)
    assert second[1 - seat] == first[1 - seat]  # the waiting seat's clock stands
    assert second[seat] != first[seat]  # the running one counts down
    # Play-by-post: the turn's deadline, 4 h 12 min away.
    deadline = view_of(row, game, Timing(now=now, deadline=now + 4 * 3600 + 12 * 60 + 30))
    server.games[row.id] = (server.games[row.id][0], {**deadline, "version": view["version"] + 1})
    server.broadcast(row.id)
    wait_for(browser, lambda s: s.get("version") == view["version"] + 1)
    timer = browser.execute_script("return document.getElementById('timer').textContent")
    left = catalogs.text("activity", "hours_minutes", "en", h=4, m=12)
    assert timer == catalogs.text("activity", "deadline", "en", time=left)


def transform(driver: Any) -> dict[str, float]:
    return dict(state(driver)["transform"])


def test_the_board_pans_and_zooms_and_keeps_the_users_view(browser: Any, server: Site) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
    from selenium.webdriver.common.by import By

    row, game = a_game(10, 2, 30)
    view = view_of(row, game)
    server.put(row, view)
    screen(browser, 1280, 800)
    open_page(browser, server)
    shown(browser, view)
    start = transform(browser)
    assert not state(browser)["moved"]
    viewport = browser.find_element(By.ID, "viewport")
    # Drag with the mouse: the board moves, its scale stays.
    ActionChains(browser).move_to_element(viewport).click_and_hold().move_by_offset(
        120, 70
    ).release().perform()
    dragged = transform(browser)
    assert dragged["s"] == start["s"]
    assert abs(dragged["x"] - start["x"] - 120) < 2 and abs(dragged["y"] - start["y"] - 70) < 2
    # The wheel zooms in where the pointer is.
    ActionChains(browser).scroll_to_element(viewport).scroll_from_origin(
        _origin(viewport), 0, -300
    ).perform()
    wheeled = wait_for(browser, lambda s: s["transform"]["s"] > dragged["s"] * 1.05)["transform"]
    # The buttons zoom in and out.
    browser.find_element(By.ID, "zoom-out").click()
    assert transform(browser)["s"] == pytest.approx(wheeled["s"] / 1.4)
    browser.find_element(By.ID, "zoom-in").click()
    assert transform(browser)["s"] == pytest.approx(wheeled["s"])
    # Two fingers spread apart zoom in.
    before = transform(browser)
    box = browser.execute_script(
        "const r = document.getElementById('viewport').getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];"
    )
    cx, cy = int(box[0]), int(box[1])
    builder = ActionBuilder(browser)
    one = builder.add_pointer_input(POINTER_TOUCH, "one")
    two = builder.add_pointer_input(POINTER_TOUCH, "two")
    _pinch(one, two, cx, cy)
    builder.perform()
    pinched = wait_for(browser, lambda s: s["transform"]["s"] > before["s"] * 1.3)["transform"]
    assert state(browser)["moved"]
    # A new move keeps the user's view.
    advance(game, random.Random(5), 3)
    later = view_of(row, game)
    server.games[row.id] = (server.games[row.id][0], later)
    server.broadcast(row.id)
    shown(browser, later)
    assert transform(browser) == pinched
    # Fit: the board fitted again, and refitted at the next move.
    browser.find_element(By.ID, "zoom-fit").click()
    fitted = transform(browser)
    assert not state(browser)["moved"] and fitted != pinched
    advance(game, random.Random(6), 20)
    latest = view_of(row, game)
    server.games[row.id] = (server.games[row.id][0], latest)
    server.broadcast(row.id)
    shown(browser, latest)
    assert not state(browser)["moved"]
    refit = browser.execute_script(
        "document.getElementById('zoom-fit').click(); return window.activityState.transform"
    )
    assert transform(browser) == refit


def _origin(element: Any) -> Any:
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

    return ScrollOrigin.from_element(element)


def _pinch(one: Any, two: Any, cx: int, cy: int) -> None:
    """Two fingers from 40 px apart to 160 px apart around (cx, cy)."""
    one.create_pointer_move(x=cx - 20, y=cy)
    two.create_pointer_move(x=cx + 20, y=cy)
    one.create_pointer_down()
    two.create_pointer_down()
    for step in range(1, 7):
        one.create_pointer_move(x=cx - 20 - 10 * step, y=cy, duration=30)
        two.create_pointer_move(x=cx + 20 + 10 * step, y=cy, duration=30)
    one.create_pointer_up(0)
    two.create_pointer_up(0)


@pytest.mark.parametrize(("width", "height"), [(400, 800), (1280, 800)])
def test_phone_and_desktop_layouts_fit_and_show_the_players(
    browser: Any, server: Site, width: int, height: int, tmp_path: Path
) -> None:
    row, game = a_game(11, 5, 80, expansions=("abbey_mayor",), options={"hand": True})
    now = time.time()
    view = view_of(row, game, Timing(now=now, deadline=now + 3 * 3600))
    server.put(row, view)
    screen(browser, width, height)
    open_page(browser, server)
    shown(browser, view)
    layout = browser.execute_script(
        """
        const panel = document.getElementById("panel");
        const page = document.documentElement;
        const items = [...document.querySelectorAll("#players li")].map((li) => {
          const r = li.getBoundingClientRect();
          return [r.left, r.right, r.width, r.height];
        });
        return {
          pageOverflow: page.scrollWidth - page.clientWidth,
          panelOverflow: panel.scrollWidth - panel.clientWidth,
          width: page.clientWidth,
          items,
          names: [...document.querySelectorAll("#players .name")].map((e) => e.scrollWidth > 0),
        };
        """
    )
    assert layout["pageOverflow"] <= 0 and layout["panelOverflow"] <= 0, layout
    assert len(layout["items"]) == 5
    for left, right, w, h in layout["items"]:
        assert left >= 0 and right <= layout["width"] and w > 200 and h > 30, layout
    tile = state(browser)["transform"]["s"] * 64
    assert tile >= 40, f"squares of {tile:.0f} px at fit"
    shots = Path(os.environ.get("ACTIVITY_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(shots / f"activity-{width}x{height}.png"))


def test_the_words_are_the_welcomes_language(browser: Any, server: Site) -> None:
    row, game = a_game(12, 3, 30)
    view = view_of(row, game)
    server.put(row, view)
    server.lang = "fr"
    screen(browser, 1280, 800)
    open_page(browser, server)
    page = shown(browser, view)
    name = view["players"][view["turn"]["seat"]]["name"]
    assert page["turn"] == f"Au tour de {name}"
    left = catalogs.text(
        "activity", "tiles_left", "fr", n=view["tilesLeft"], total=view["tilesTotal"]
    )
    assert page["tilesLeft"] == left
    assert browser.execute_script("return document.documentElement.lang") == "fr"
    assert browser.title == catalogs.text("activity", "title", "fr")
    zoom = browser.execute_script("return document.getElementById('zoom-fit').title")
    assert zoom == "Voir tout le plateau"


def test_a_dropped_socket_reconnects_and_shows_the_newer_board(browser: Any, server: Site) -> None:
    row, game = a_game(13, 2, 20)
    view = view_of(row, game)
    server.put(row, view)
    open_page(browser, server)
    shown(browser, view)
    # The server restarts (the sockets close) while a move is played.
    advance(game, random.Random(7), 4)
    later = view_of(row, game)
    server.games[row.id] = (server.games[row.id][0], later)
    server.drop()
    page = shown(browser, later)
    expect_drawn(page, later)
    now = wait_for(browser, lambda s: s["connected"])
    assert now["reconnects"] >= 1 and now["error"] is None
    hellos = [m for m in server.received if m["type"] == "hello"]
    assert len(hellos) >= 2 and hellos[-1]["game"] == row.id  # the game shown asked for again
    assert len(server.tokens) == 1  # no new sign-in


def test_an_expired_session_shows_why_and_signs_in_again(browser: Any, server: Site) -> None:
    from selenium.webdriver.common.by import By

    row, game = a_game(14, 2, 20)
    view = view_of(row, game)
    server.put(row, view)
    server.refuse = "session_expired"
    open_page(browser, server)
    wait_for(browser, lambda s: s.get("error") == "session_expired")
    page = browser.execute_script(READ)
    assert page["notice"] == catalogs.text("activity", "sign_in_failed", "en")
    assert page["signIn"]
    time.sleep(1.5)  # no reconnection after a refused session
    assert len([m for m in server.received if m["type"] == "hello"]) == 1
    assert not state(browser)["connected"]
    server.refuse = None
    button = browser.find_element(By.ID, "sign-in")
    assert button.text == catalogs.text("activity", "sign_in_again", "en")
    button.click()
    expect_drawn(shown(browser, view), view)
    assert len(server.tokens) == 2 and state(browser)["error"] is None


def test_several_games_are_picked_from(browser: Any, server: Site) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    first_row, first = a_game(21, 2, 10)
    second_row, second = a_game(22, 4, 30, game="hunters")
    server.put(first_row, view_of(first_row, first), default=False)
    server.put(second_row, view_of(second_row, second), default=False)
    open_page(browser, server)
    wait_for(browser, lambda s: s.get("games") == [21, 22])
    page = browser.execute_script(READ)
    assert page["picker"] == [21, 22] and page["notice"]
    browser.find_element(By.CSS_SELECTOR, "#picker button[data-game='22']").click()
    view = server.games[22][1]
    expect_drawn(shown(browser, view), view)
    assert {"type": "watch", "game": 22} in server.received
    chooser = Select(browser.find_element(By.ID, "game-select"))
    assert browser.find_element(By.ID, "chooser").is_displayed()
    chooser.select_by_value("21")
    other = server.games[21][1]
    expect_drawn(shown(browser, other), other)
    # A game that may not be watched: the refusal is shown, the game shown stays.
    server.private.add(22)
    Select(browser.find_element(By.ID, "game-select")).select_by_value("22")
    toast = browser.find_element(By.ID, "toast")
    wait_for(browser, lambda s: toast.is_displayed())
    assert toast.text == catalogs.text("activity", "no_game", "en")
    assert state(browser)["game"] == 21
    assert Select(browser.find_element(By.ID, "game-select")).first_selected_option.text.startswith(
        "Game #21"
    )


# --- The art -----------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(VARIANTS)))
def test_the_art_of_every_variant_carries_every_picture(index: int) -> None:
    key = variant_key(*VARIANTS[index])
    data = json.loads(art_json(key))
    tables = data["variants"][key]
    assert tables["kinds"] == [k.name for k in variant(index).kinds]
    assert len(tables["art"]) == len(tables["kinds"])
    for name in tables["art"]:
        assert data["pictures"][name].startswith("data:image/webp;base64,")
    for role in tables["roles"]:
        sprites = data["figures"][tables["sprites"][role]]
        assert len(sprites) == len(data["colours"]) and all(s["w"] > 0 for s in sprites)
    assert len(tables["spots"]) == len(tables["kinds"])
    assert data["cornerBase"] == 100 and len(data["corners"]) == 4


def test_an_unknown_variant_has_no_art() -> None:
    with pytest.raises(ValueError):
        art_json("carcassonne+dragons")


def test_a_welcome_naming_no_game_of_one_watches_it_or_says_there_is_none(
    browser: Any, server: Site
) -> None:
    open_page(browser, server)
    wait_for(browser, lambda s: s.get("connected") and s.get("games") == [])
    page = wait_for_notice(browser)
    assert page["notice"] == catalogs.text("activity", "no_game", "en") and not page["picker"]
    server.reset()
    row, game = a_game(23, 2, 10)
    server.put(row, view_of(row, game), default=False)
    open_page(browser, server)
    view = server.games[23][1]
    expect_drawn(shown(browser, view), view)
    assert {"type": "watch", "game": 23} in server.received


def wait_for_notice(driver: Any) -> dict[str, Any]:
    wait_for(driver, lambda s: driver.execute_script(READ)["notice"])
    return dict(driver.execute_script(READ))
