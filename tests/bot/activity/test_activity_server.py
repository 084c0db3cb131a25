"""The live board's server against the real manager and a local fake of Discord: sign-in, sessions,
who sees which game, every stored move reaching every open board, and nothing hidden on the wire."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from conftest import Postgres, play_random

from bot.activity.fake_discord import FakeDiscord
from bot.activity.server import ActivityServer
from bot.activity.settings import ActivitySettings
from bot.manager import GameManager

GUILD, OTHER_GUILD, CHANNEL = 500, 600, 77
ALICE, BOB, CAROL, FRANK = 1, 2, 3, 6
CLIENT_ID, SECRET = "1234567890", "shh"


@dataclass
class Site:
    manager: GameManager
    server: ActivityServer
    discord: FakeDiscord
    http: aiohttp.ClientSession
    now: list[float]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    async def sign_in(
        self, user: int, guild: int = GUILD, channel: int = CHANNEL
    ) -> dict[str, Any]:
        code = self.discord.code_for(user)
        body = {"code": code, "guild": str(guild), "channel": str(channel)}
        async with self.http.post(self.url + "/api/token", json=body) as response:
            answer: dict[str, Any] = await response.json()
            answer["status"] = response.status
            return answer

    async def board(self, session: str, game: int | None = None) -> Socket:
        ws = await self.http.ws_connect(self.url + "/ws")
        await ws.send_json({"type": "hello", "session": session, "game": game})
        return Socket(ws)


@dataclass
class Socket:
    ws: aiohttp.ClientWebSocketResponse

    async def next(self, seconds: float = 3.0) -> dict[str, Any]:
        message = await self.ws.receive(timeout=seconds)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data: dict[str, Any] = json.loads(message.data)
        return data

    async def next_of(self, kind: str, seconds: float = 3.0) -> dict[str, Any]:
        while True:
            message = await self.next(seconds)
            if message["type"] == kind:
                return message


@pytest.fixture
async def site(manager: GameManager) -> AsyncIterator[Site]:
    discord = FakeDiscord(CLIENT_ID, SECRET)
    await discord.start()
    for user, name, guilds in (
        (ALICE, "Alice", {GUILD: 0}),
        (BOB, "Bob", {GUILD: 0}),
        (CAROL, "Carol", {GUILD: 0}),
        (FRANK, "Frank", {OTHER_GUILD: 0x20}),
    ):
        discord.add_user(user, name, guilds, locale="fr" if user == CAROL else "en-GB")
    now = [1_000_000.0]
    settings = ActivitySettings(
        port=0, host="127.0.0.1", client_id=CLIENT_ID, client_secret=SECRET, api_base=discord.base
    )
    server = ActivityServer(manager, settings, clock=lambda: now[0])
    await server.start()
    async with aiohttp.ClientSession() as http:
        yield Site(manager, server, discord, http, now)
    await server.close()
    await discord.close()


async def a_game(
    manager: GameManager, *, private: bool = False, seed: int = 11, **lobby: Any
) -> int:
    row = await manager.lobbies.create_lobby(
        ALICE, "Alice", guild_id=GUILD, channel_id=CHANNEL, private=private, **lobby
    )
    await manager.lobbies.join(row.id, BOB, "Bob")
    view = await manager.lobbies.start(row.id, ALICE, seed=seed)
    rng = random.Random(3)
    for _ in range(6):
        view = (await play_random(manager, view, rng)).view
    return row.id


async def test_signing_in_gives_a_session_and_the_discord_token(site: Site) -> None:
    answer = await site.sign_in(ALICE)
    assert answer["status"] == 200
    assert answer["access_token"].startswith("token-")
    assert answer["user"] == {"id": str(ALICE), "name": "Alice"}
    assert answer["lang"] == "en"
    assert ("POST", "/api/v10/oauth2/token") in site.discord.calls
    assert ("GET", "/api/v10/users/@me/guilds") in site.discord.calls
    assert SECRET not in json.dumps(answer)


async def test_a_bad_code_a_stranger_and_discord_down_are_refused(site: Site) -> None:
    async with site.http.post(
        site.url + "/api/token", json={"code": "made-up", "guild": str(GUILD), "channel": "1"}
    ) as response:
        assert response.status == 401
        assert (await response.json())["reason"] == "sign_in_refused"
    stranger = await site.sign_in(FRANK, guild=GUILD)
    assert (stranger["status"], stranger["reason"]) == (403, "not_a_member")
    assert "not a member" in stranger["text"]
    for body in ({}, {"code": "x"}, {"code": "x", "guild": "abc", "channel": "1"}, [1]):
        async with site.http.post(site.url + "/api/token", json=body) as response:
            assert response.status == 400
    site.discord.failing = 503
    down = await site.sign_in(ALICE)
    assert (down["status"], down["reason"]) == (502, "sign_in_failed")


async def test_a_forged_altered_or_expired_session_is_refused(site: Site) -> None:
    session = (await site.sign_in(ALICE))["session"]
    for token, reason in (
        ("forged", "session_invalid"),
        (session[:-2] + ("AA" if not session.endswith("AA") else "BB"), "session_invalid"),
        (None, "session_invalid"),
    ):
        board = await site.board(token)  # type: ignore[arg-type]
        refused = await board.next()
        assert (refused["type"], refused["reason"]) == ("refused", reason)
        closing = await board.ws.receive(timeout=3)
        assert closing.type == aiohttp.WSMsgType.CLOSE and board.ws.close_code == 4001
    other = ActivitySettings(
        port=0, host="127.0.0.1", client_id=CLIENT_ID, client_secret="another secret"
    )
    foreign = ActivityServer(site.manager, other).keys.issue(site.server.keys.check(session))
    board = await site.board(foreign)
    assert (await board.next())["reason"] == "session_invalid"
    site.now[0] += site.server.settings.session_seconds + 1
    board = await site.board(session)
    assert (await board.next())["reason"] == "session_expired"


async def test_the_channels_game_is_shown_as_the_engine_has_it(site: Site) -> None:
    game_id = await a_game(site.manager)
    board = await site.board((await site.sign_in(BOB))["session"])
    welcome = await board.next()
    assert welcome["type"] == "welcome" and welcome["game"] == game_id
    assert [g["id"] for g in welcome["games"]] == [game_id]
    shown = (await board.next_of("board"))["view"]
    game = await site.manager.engine_copy(game_id)
    assert shown["version"] == len(game.actions)
    assert len(shown["tiles"]) == len(game.board.tiles)
    assert shown["players"][0]["score"] == game.scores[0]
    assert shown["tilesLeft"] == game.tiles_left
    assert shown["turn"]["tile"] == game.decision.tile
    assert shown["turn"]["seat"] == game.decision.player


async def test_every_move_reaches_every_open_board(site: Site) -> None:
    game_id = await a_game(site.manager)
    boards = [
        await site.board((await site.sign_in(user))["session"]) for user in (ALICE, BOB, CAROL)
    ]
    for board in boards:
        await board.next_of("board")
    view = await site.manager.decision(game_id)
    rng = random.Random(9)
    for _ in range(5):
        result = await play_random(site.manager, view, rng)
        view = result.view
        game = await site.manager.engine_copy(game_id)
        for board in boards:
            shown = (await board.next_of("board", 1.0))["view"]
            assert shown["version"] == len(game.actions)


async def test_nothing_hidden_goes_to_a_board(site: Site) -> None:
    game_id = await a_game(site.manager, seed=918_273_645_546, options={"hand": True})
    alice = await site.board((await site.sign_in(ALICE))["session"])
    carol = await site.board((await site.sign_in(CAROL))["session"])
    texts = []
    for board in (alice, carol):
        message = await board.ws.receive(timeout=3)  # the welcome
        texts.append(message.data)
        message = await board.ws.receive(timeout=3)  # the board
        texts.append(message.data)
    record = await site.manager.records.full_record(game_id)
    game = await site.manager.engine_copy(game_id)
    for text in texts:
        assert str(record["seed"]) not in text
        assert '"seed"' not in text and '"draw"' not in text
    alice_view = json.loads(texts[1])["view"]
    carol_view = json.loads(texts[3])["view"]
    assert alice_view["hand"] == list(game.hands[0])
    assert "hand" not in carol_view
    # Beside her own hand, a player sees what everyone else does.
    mine = {k: v for k, v in alice_view.items() if k not in ("hand", "now", "seat")}
    assert mine == {k: v for k, v in carol_view.items() if k != "now"}


async def test_a_private_game_shows_nothing_to_others(site: Site) -> None:
    game_id = await a_game(site.manager, private=True)
    carol = await site.board((await site.sign_in(CAROL))["session"], game=game_id)
    welcome = await carol.next()
    assert welcome["games"] == [] and welcome["game"] is None
    refused = await carol.next()
    assert (refused["type"], refused["reason"]) == ("refused", "private_only")
    assert "privée" in refused["text"]  # Carol reads French
    frank_session = (await site.sign_in(FRANK, guild=OTHER_GUILD))["session"]
    frank = await site.board(frank_session, game=game_id)
    assert (await frank.next())["games"] == []
    refused = await frank.next()
    assert refused["reason"] == "game_not_found"
    bob = await site.board((await site.sign_in(BOB))["session"], game=game_id)
    assert (await bob.next())["game"] == game_id
    assert (await bob.next_of("board"))["view"]["game"] == game_id
    await site.manager.watch.follow(game_id, CAROL)
    await site.manager.watch.accept(game_id, CAROL, ALICE)
    carol = await site.board((await site.sign_in(CAROL))["session"], game=game_id)
    assert (await carol.next())["game"] == game_id
    assert (await carol.next_of("board"))["view"]["game"] == game_id


async def test_bad_messages_close_the_socket(site: Site) -> None:
    session = (await site.sign_in(ALICE))["session"]
    for bad in ("not json", "[1, 2]", json.dumps({"type": "nonsense"})):
        board = await site.board(session)
        await board.next()  # welcome
        await board.ws.send_str(bad)
        while True:
            message = await board.ws.receive(timeout=3)
            if message.type != aiohttp.WSMsgType.TEXT:
                break
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    board = await site.board(session)
    await board.next()
    await board.ws.send_json({"type": "ping"})
    assert (await board.next())["type"] == "pong"
    await asyncio.sleep(0)


async def test_a_move_another_process_stores_reaches_the_board_within_a_second(
    postgres: Postgres,
) -> None:
    """Two bot processes on one PostgreSQL database: the board is served by the first, the
    moves are played by the second (its buttons, computers or timeouts alike)."""
    name = postgres.fresh()
    url = postgres.server.url_of(name)
    first, second = await GameManager.open(url), await GameManager.open(url)
    discord = FakeDiscord(CLIENT_ID, SECRET)
    await discord.start()
    discord.add_user(BOB, "Bob", {GUILD: 0})
    settings = ActivitySettings(0, "127.0.0.1", CLIENT_ID, SECRET, discord.base)
    server = ActivityServer(first, settings)
    await server.start()
    try:
        game_id = await a_game(second)
        async with aiohttp.ClientSession() as http:
            site = Site(first, server, discord, http, [0.0])
            board = await site.board((await site.sign_in(BOB))["session"])
            assert (await board.next())["game"] == game_id
            await board.next_of("board")
            view = await second.decision(game_id)
            rng = random.Random(4)
            for _ in range(4):
                view = (await play_random(second, view, rng)).view
                game = await second.engine_copy(game_id)
                shown = (await board.next_of("board", 1.0))["view"]
                assert shown["version"] == len(game.actions)
    finally:
        await server.close()
        await discord.close()
        await first.close()
        await second.close()
        postgres.drop(name)
