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
from board_input import FREE_POINT, free_square, tap
from chromium import chromium, needs

import catalogs
from bot.activity.page import art_json, page_html, sdk_bundled, static_file
from bot.activity.views import Timing, own_view, table_view
from bot.lobby import STYLES
from bot.spot_words import figure_name
from bot.storage import GameRow, SeatRow
from bot.turn_view import spot_places, step_screen, turn_screen
from engine import Game, Pass, Phase, PlaceAbbey, PlaceTile, Setup, UseWallTile
from engine.cli import random_action
from renderer.board import spot_point
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


# --- Playing: the turn's choices as the server sends them (docs/ACTIVITY.md) -------------------


def playing_view(row: GameRow, game: Game) -> dict[str, Any]:
    """Ann's view of ``game``, with ``you`` when it is her turn (seat 0)."""
    view = view_of(row, game)
    if not game.finished and game.decision.player == 0:
        view["you"] = you_of(game)
    return view


def place_of(game: Game, pos: tuple[int, int], place: Any) -> dict[str, Any]:
    """A PLACE: a numbered place on the tile at ``pos`` and its figures."""
    u, v = spot_point(game.board.tiles[pos].oriented, place.at)
    return {
        "at": place.at,
        "number": place.number,
        "feature": place.feature,
        "words": place.feature or "",
        "u": round(u, 3),
        "v": round(v, 3),
        "choices": [
            {"figure": c.figure, "role": c.role, "name": figure_name(c, "en")}
            for c in place.choices
        ],
    }


def you_of(game: Game) -> dict[str, Any]:
    """``you``: the turn view's choices (``bot.turn_view.turn_screen``)."""
    screen = turn_screen(game)
    names = list(dict.fromkeys(screen.hand)) if screen.hand_mode else [screen.tile]
    tiles = []
    if screen.phase == "tile":
        for name in names:
            if name is None:
                continue
            squares = [
                {"x": x, "y": y, "rotations": list(rotations)}
                for (x, y), rotations in screen.cells(name).items()
            ]
            tiles.append({"tile": name, "squares": squares})
    figures = []
    if screen.phase == "figure" and game.last_pos is not None:
        figures = [place_of(game, game.last_pos, p) for p in spot_places(screen.figures)]
    return {
        "turn": screen.turn,
        "phase": screen.phase,
        "version": len(game.actions),
        "tiles": tiles,
        "holes": [{"x": x, "y": y} for x, y in screen.holes],
        "figures": figures,
        "wagons": [
            {
                "value": f"{w.action.x},{w.action.y},{w.action.at}",
                "x": w.action.x,
                "y": w.action.y,
                "at": w.action.at,
                "label": w.label,
                "feature": w.feature,
            }
            for w in screen.wagons
        ],
        "walls": [{"value": w.value, "target": w.target, "label": w.value} for w in screen.walls],
        "pass": game.can_pass,
    }


def first_action(first: dict[str, Any] | None) -> PlaceTile | PlaceAbbey | None:
    if first is None:
        return None
    if first.get("abbey"):
        return PlaceAbbey(first["x"], first["y"])
    return PlaceTile(first["x"], first["y"], first["rotation"], first["tile"])


def step_message(game: Game, data: dict[str, Any]) -> dict[str, Any]:
    """The ``step`` answering a ``try``."""
    first: PlaceTile | PlaceAbbey
    if data.get("abbey"):
        first = PlaceAbbey(data["x"], data["y"])
    else:
        first = PlaceTile(data["x"], data["y"], data["rotation"], data["tile"])
    step = step_screen(game, turn_screen(game), first)
    places = [place_of(step.after, step.pos, p) for p in step.places]
    return {
        "type": "step",
        "version": data["version"],
        "x": data["x"],
        "y": data["y"],
        "rotation": data.get("rotation", 0),
        "places": places,
        "none": True,
        "open": step.stays_open,
    }


def at_turn_of_ann(game: Game, rng: random.Random) -> None:
    """Random moves until Ann (seat 0) has a tile to place."""
    for _ in range(400):
        if game.phase is Phase.TILE and game.decision.player == 0:
            return
        game.play(random_action(game, rng))
    raise AssertionError("Ann never got a turn")


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
        #: Games played on the board: their boards are written anew at every request, with
        #: ``you`` for Ann in her turn; a ``try`` is answered by its step, a ``play`` played
        #: (or refused with ``refuse_play``).
        self.live: dict[int, tuple[GameRow, Game]] = {}
        self.refuse_play: str | None = None
        #: Plays left unanswered (the page waits for the answer).
        self.hold = False
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
        self.live.clear()
        self.refuse_play = None
        self.hold = False
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

    def push(self, message: dict[str, Any]) -> None:
        """Send every open socket ``message``."""

        async def send() -> None:
            for ws in list(self.sockets):
                await ws.send_json(message)

        self.call(send())

    def drop(self) -> None:
        """Close every socket, as a restarting server does."""
        self.call(self._close_all())

    def board(self, game: int) -> dict[str, Any]:
        if game in self.live:
            row, real = self.live[game]
            return {"type": "board", "game": game, "view": playing_view(row, real)}
        return {"type": "board", "game": game, "view": self.games[game][1]}

    def sent(self, kind: str) -> list[dict[str, Any]]:
        """The messages of type ``kind`` the page sent."""
        return [m for m in list(self.received) if m["type"] == kind]

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
                elif data["type"] in ("try", "play"):
                    await self.answer(ws, data)
        finally:
            self.sockets.discard(ws)
        return ws

    async def answer(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        """A ``try`` answered by the step ``step_screen`` writes; a ``play`` played on the game
        (or refused), then every board told."""
        if not self.live:  # a board written by hand: nothing to play it on
            await ws.send_json({"type": "refused", "reason": "not_legal", "text": "Not legal."})
            return
        row, game = next(iter(self.live.values()))
        if data["version"] != len(game.actions) or self.refuse_play is not None:
            reason = self.refuse_play or "turn_moved_on"
            await ws.send_json({"type": "refused", "reason": reason, "text": "Refused: " + reason})
            return
        if data["type"] == "try":
            try:
                answer = step_message(game, data)
            except Exception:  # not a legal placement: refused, as the server does
                await ws.send_json({"type": "refused", "reason": "not_legal", "text": "Not legal."})
                return
            await ws.send_json(answer)
            return
        if self.hold:
            return
        first = first_action(data["first"])
        if first is not None:
            game.play(first)
        if data["figure"] is not None:
            wanted = data["figure"]
            game.play(
                next(
                    f
                    for f in game.legal_figures()
                    if f.figure == wanted["figure"] and f.at == wanted["at"]
                )
            )
        elif game.phase is Phase.FIGURE and not game.legal(UseWallTile):
            game.play(Pass())
        await ws.send_json({"type": "played", "version": len(game.actions)})
        for socket in list(self.sockets):
            await socket.send_json(self.board(row.id))


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


# --- Playing on the board ----------------------------------------------------------------------

#: Where square (x, y) is on the screen (page pixels), at (u, v) of it.
SQUARE_POINT = """
const [x, y, u, v] = arguments;
const r = document.getElementById("viewport").getBoundingClientRect();
const t = window.activityState.transform;
return [r.left + t.x + (x + u) * 64 * t.s, r.top + t.y + (y + v) * 64 * t.s];
"""


def wait_sent(server: Site, kind: str, count: int, seconds: float = 10) -> list[dict[str, Any]]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = server.sent(kind)
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"the page sent {server.sent(kind)}, not {count} {kind}")


def ann_playing(number: int, players: int = 2, seed: int = 3, **setup: Any) -> tuple[GameRow, Game]:
    """Game ``number`` at Ann's tile turn, played on the board."""
    row, game = a_game(number, players, 8, seed=seed, **setup)
    at_turn_of_ann(game, random.Random(seed))
    return row, game


def serve(server: Site, row: GameRow, game: Game) -> dict[str, Any]:
    server.live[row.id] = (row, game)
    view = playing_view(row, game)
    server.put(row, view)
    return view


def test_a_lit_square_places_the_tile_a_tap_turns_it_a_silhouette_plays(
    browser: Any, server: Site
) -> None:
    from selenium.webdriver.common.by import By

    row, game = ann_playing(31)
    view = serve(server, row, game)
    you = view["you"]
    squares = you["tiles"][0]["squares"]
    screen(browser, 1280, 800)
    open_page(browser, server)
    now = wait_for(browser, lambda s: s.get("you") and s.get("lit"))
    assert sorted(map(tuple, now["lit"])) == sorted((q["x"], q["y"], "square") for q in squares)
    assert now["transform"]["s"] * 64 >= 44  # the squares big enough to tap
    square, point = free_square(browser, squares, rotations=2)
    first, second = square["rotations"][:2]
    tap(browser, point)
    tried = wait_sent(server, "try", 1)[0]
    expected = {"type": "try", "version": view["version"], "x": square["x"], "y": square["y"]}
    assert tried == {**expected, "tile": you["tiles"][0]["tile"], "rotation": first}
    wait_for(browser, lambda s: s["step"] is not None and not s["trying"])
    assert browser.find_elements(By.CSS_SELECTOR, "#play-layer .ghost")
    # The tile tapped again: its next legal rotation.
    again = browser.execute_script(FREE_POINT, square["x"], square["y"])
    tap(browser, again)
    assert wait_sent(server, "try", 2)[1]["rotation"] == second
    now = wait_for(browser, lambda s: s["step"] is not None and s["pending"]["rotation"] == second)
    # Undo, and resign after a second tap only.
    browser.find_element(By.ID, "undo").click()
    assert wait_sent(server, "undo", 1) == [{"type": "undo"}]
    browser.find_element(By.ID, "resign").click()
    assert wait_for(browser, lambda s: s["resignArmed"]) and server.sent("resign") == []
    browser.find_element(By.ID, "resign").click()
    assert wait_sent(server, "resign", 1) == [{"type": "resign"}]
    # A silhouette: the whole decision, played.
    spots = browser.find_elements(By.CSS_SELECTOR, "#marks .spot")
    assert len(spots) == now["step"]["places"] > 0
    box = spots[0].find_element(By.XPATH, "..")
    figure, at = spots[0].get_attribute("data-figure"), box.get_attribute("data-at")
    spots[0].click()
    played = wait_sent(server, "play", 1)[0]
    assert played["first"] == {
        "tile": you["tiles"][0]["tile"],
        "x": square["x"],
        "y": square["y"],
        "rotation": second,
    }
    assert played["figure"]["figure"] == figure and str(played["figure"]["at"]) == at
    assert (played["wagon"], played["wall"], played["pass"]) == (None, None, False)
    # The next board: the computer's turn, nothing lit, nothing half-made.
    after = wait_for(browser, lambda s: s["version"] == len(game.actions))
    assert after["you"] is None and after["lit"] == [] and after["pending"] is None
    assert len(server.sent("play")) == 1
    assert not browser.find_element(By.ID, "actions").is_displayed()


def test_on_a_phone_a_rotation_a_role_and_no_figure_are_one_tap_and_a_refusal_resets(
    browser: Any, server: Site, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    row, game = ann_playing(32, seed=6, expansions=("inns_cathedrals",))
    assert dict(game.pieces(0))["large_follower"] == 1
    view = serve(server, row, game)
    squares = view["you"]["tiles"][0]["squares"]
    server.hold = True
    screen(browser, 400, 800)
    open_page(browser, server)
    wait_for(browser, lambda s: s.get("you") and s.get("lit"))
    square, point = free_square(browser, squares, rotations=2)
    tap(browser, point, touch=True)
    wait_sent(server, "try", 1)
    wait_for(browser, lambda s: s["step"] is not None)
    # The rotation buttons under the tile: the last one, at once.
    looks = browser.find_elements(By.CSS_SELECTOR, "#marks .look")
    assert len(looks) == len(square["rotations"])
    last = square["rotations"][-1]
    assert looks[-1].get_attribute("data-look") == str(last)
    box = looks[-1].rect
    tap(browser, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), touch=True)
    assert wait_sent(server, "try", 2)[1]["rotation"] == last
    now = wait_for(browser, lambda s: s["step"] is not None and s["pending"]["rotation"] == last)
    # The tile tried is shown large enough to pick its places with a finger.
    assert now["focused"] and now["transform"]["s"] * 64 >= 160
    spots = browser.find_elements(By.CSS_SELECTOR, "#marks .spot")
    assert len(spots) == now["step"]["places"] > 0
    assert all(m.rect["width"] >= 36 and m.rect["height"] >= 36 for m in spots)
    # A place with a follower and a large follower: a tap lists them, a button each.
    several = browser.find_elements(By.CSS_SELECTOR, "#marks .spot.several")
    assert several
    rect = several[0].rect
    at = several[0].find_element(By.XPATH, "..").get_attribute("data-at")
    tap(browser, (rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2), touch=True)
    assert wait_for(browser, lambda s: s["menu"] is not None)["menu"] == at
    answer = step_message(game, server.sent("try")[-1])
    offered = next(p for p in answer["places"] if str(p["at"]) == at)
    menu = browser.find_elements(By.CSS_SELECTOR, "#marks .choices .choice")
    assert [m.text for m in menu] == [c["name"] for c in offered["choices"]]
    assert all(m.rect["height"] >= 44 for m in menu)
    large = browser.find_elements(By.CSS_SELECTOR, "#marks .choice[data-figure='large_follower']")
    shots = Path(os.environ.get("ACTIVITY_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(shots / "activity-playing-400x800.png"))
    rect = large[0].rect
    tap(browser, (rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2), touch=True)
    played = wait_sent(server, "play", 1)[0]
    assert played["figure"]["figure"] == "large_follower"
    # While it is on its way, nothing else is sent.
    assert wait_for(browser, lambda s: s["sending"])
    tap(browser, point, touch=True)
    time.sleep(0.4)
    assert len(server.sent("try")) == 2 and len(server.sent("play")) == 1
    # A stale tab's play refused: its text shown, the choice dropped.
    server.push({"type": "refused", "reason": "turn_moved_on", "text": "The turn moved on."})
    reset = wait_for(browser, lambda s: not s["sending"] and s["pending"] is None)
    assert reset["step"] is None and reset["lit"]
    toast = browser.find_element(By.ID, "toast")
    assert toast.is_displayed() and toast.text == "The turn moved on."
    point = browser.execute_script(FREE_POINT, square["x"], square["y"])
    tap(browser, point, touch=True)
    wait_sent(server, "try", 3)
    wait_for(browser, lambda s: s["step"] is not None)
    # No figure: the placement played with none.
    no_figure = browser.find_element(By.ID, "no-figure")
    assert no_figure.text == catalogs.text("activity", "no_figure", "en")
    plays = len(server.sent("play"))
    no_figure.click()
    played = wait_sent(server, "play", plays + 1)[-1]
    assert played["figure"] is None and played["first"]["x"] == square["x"]
    assert played["first"]["y"] == square["y"]


def test_a_spectator_has_nothing_to_tap(browser: Any, server: Site) -> None:
    from selenium.webdriver.common.by import By

    row, game = ann_playing(33, seed=7)
    rng = random.Random(1)
    while game.decision.player == 0:
        game.play(random_action(game, rng))
    # As a member who does not play sees it: no seat of theirs, nothing to choose.
    view = {k: v for k, v in playing_view(row, game).items() if k != "seat"}
    assert "you" not in view
    server.put(row, view)
    screen(browser, 1280, 800)
    open_page(browser, server)
    now = shown(browser, view)
    expect_drawn(now, view)
    now = state(browser)
    assert now["you"] is None and now["lit"] == [] and not now["player"]
    assert not browser.find_element(By.ID, "actions").is_displayed()
    assert not browser.find_element(By.ID, "seat-actions").is_displayed()
    for _kind, x, y, _rotation in view["tiles"][:3]:
        tap(browser, browser.execute_script(SQUARE_POINT, x, y, 0.5, 0.5))
        tap(browser, browser.execute_script(SQUARE_POINT, x + 1, y, 0.5, 0.5))
    time.sleep(0.3)
    assert server.sent("try") == [] and server.sent("play") == []


def test_the_tactical_hand_picks_a_tile_first_and_a_new_board_drops_the_choice(
    browser: Any, server: Site
) -> None:
    from selenium.webdriver.common.by import By

    row, game = ann_playing(
        34, players=3, seed=2, expansions=("abbey_mayor",), options={"hand": True}
    )
    view = serve(server, row, game)
    you = view["you"]
    assert len(you["tiles"]) > 1
    screen(browser, 1280, 800)
    open_page(browser, server)
    now = wait_for(browser, lambda s: s.get("you"))
    assert now["pick"] is None and all(kind == "hole" for _, _, kind in now["lit"])
    picks = browser.find_elements(By.CSS_SELECTOR, "#tray .pick")
    assert [p.get_attribute("data-kind") for p in picks] == [e["tile"] for e in you["tiles"]]
    k = next(i for i, e in enumerate(you["tiles"]) if e["squares"])
    picks[k].click()
    now = wait_for(browser, lambda s: s["pick"] == k)
    squares = you["tiles"][k]["squares"]
    lit = {(x, y) for x, y, kind in now["lit"] if kind == "square"}
    assert lit == {(q["x"], q["y"]) for q in squares}
    square, point = free_square(browser, squares)
    tap(browser, point)
    tried = wait_sent(server, "try", 1)[0]
    assert tried["tile"] == you["tiles"][k]["tile"] and tried["rotation"] == square["rotations"][0]
    wait_for(browser, lambda s: s["step"] is not None)
    # A move made elsewhere: the new board drops the half-made choice.
    newer = {**view, "version": view["version"] + 1, "you": {**you, "version": view["version"] + 1}}
    server.push({"type": "board", "game": row.id, "view": newer})
    now = wait_for(browser, lambda s: s["version"] == newer["version"])
    assert now["pending"] is None and now["step"] is None and now["pick"] is None


def test_wagons_wall_tiles_holes_and_pass_have_their_own_marks_and_buttons(
    browser: Any, server: Site
) -> None:
    """A ``you`` written by hand over a real board: each decision that is no tile is one tap."""
    from selenium.webdriver.common.by import By

    row, game = ann_playing(35, seed=9)
    view = view_of(row, game)
    _kind, x, y, _rotation = view["tiles"][0]
    taken = {(t[1], t[2]) for t in view["tiles"]}
    hole = next((a + 1, b) for a, b in sorted(taken) if (a + 1, b) not in taken)
    you = {
        "turn": view["turn"]["number"],
        "phase": "wagon",
        "version": view["version"],
        "tiles": [],
        "holes": [],
        "figures": [],
        "wagons": [{"value": "w1", "x": x, "y": y, "at": 0, "label": "A", "feature": "road"}],
        "walls": [],
        "pass": True,
    }
    server.put(row, {**view, "you": you})
    screen(browser, 1280, 800)
    open_page(browser, server)
    wait_for(browser, lambda s: s.get("you"))
    target = browser.find_element(By.CSS_SELECTOR, "#marks .wagon-target")
    assert target.text == "A"
    back = browser.find_element(By.ID, "pass")
    assert back.text == catalogs.text("activity", "wagon_back", "en")
    target.click()
    played = wait_sent(server, "play", 1)[0]
    assert (played["wagon"], played["first"], played["figure"]) == ("w1", None, None)
    # Refused (the fake has no game to play it on): nothing on its way any more.
    wait_for(browser, lambda s: not s["sending"])
    # Wall tiles: a button each; End my turn.
    version = view["version"] + 1
    walls = [{"value": "1", "target": "", "label": "Wall tile 1"}]
    mine = {**you, "phase": "figure", "version": version, "wagons": [], "walls": walls}
    server.push(
        {"type": "board", "game": row.id, "view": {**view, "version": version, "you": mine}}
    )
    wait_for(browser, lambda s: s["version"] == version)
    wall = browser.find_element(By.CSS_SELECTOR, "#actions .wall")
    assert wall.text == "Wall tile 1"
    assert browser.find_element(By.ID, "pass").text == catalogs.text("activity", "end_turn", "en")
    assert browser.find_elements(By.CSS_SELECTOR, "#marks .wagon-target") == []
    wall.click()
    assert wait_sent(server, "play", 2)[1]["wall"] == "1"
    wait_for(browser, lambda s: not s["sending"])
    browser.find_element(By.ID, "pass").click()
    assert wait_sent(server, "play", 3)[2]["pass"] is True
    # The end-game abbey: its hole lit blue, a tap tries it; No abbey.
    wait_for(browser, lambda s: not s["sending"])
    version += 1
    ending = {
        **mine,
        "phase": "abbey_end",
        "version": version,
        "walls": [],
        "holes": [{"x": hole[0], "y": hole[1]}],
    }
    server.push(
        {"type": "board", "game": row.id, "view": {**view, "version": version, "you": ending}}
    )
    now = wait_for(browser, lambda s: s["version"] == version)
    assert now["lit"] == [[hole[0], hole[1], "hole"]]
    assert browser.find_element(By.ID, "pass").text == catalogs.text("activity", "no_abbey", "en")
    tap(browser, browser.execute_script(FREE_POINT, hole[0], hole[1]))
    tried = wait_sent(server, "try", 1)[0]
    assert tried == {"type": "try", "version": version, "x": hole[0], "y": hole[1], "abbey": True}
    assert wait_for(browser, lambda s: s["pending"] is None)["lit"]  # refused: tried again later
