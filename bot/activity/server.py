"""The live board's server: HTTP and one WebSocket per open board, in the bot's own process.

aiohttp on the bot's event loop (it comes with discord.py), on ``ACTIVITY_PORT``; its routes and
messages are ``docs/ACTIVITY.md``. Nothing here blocks the loop: drawing a view runs in a thread
(:mod:`bot.activity.hub`), the tile art of a variant is built once in a thread and kept.

Every request is distrusted: a sign-in names a guild the user must be a member of (Discord says
so, not the page); every socket starts with a session this server signed (a forged, altered or
expired one closes it with code 4001); every game asked for must be one of the session's channel
(its channel or its thread) and pass the policy's row ``live board watch`` (a private game only to
its table; a game of another server is a number that does not exist). A ``try`` or ``play``
must come from the player in turn, at the game's version, and name what the turn view offers
(:mod:`bot.activity.turns`); a ``play`` goes through ``GameManager.play_turn`` like a button's,
then the ``announce`` given tells the game's thread. Messages are small JSON objects; anything
else closes the socket.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

import catalogs
from bot.activity import page, turns
from bot.activity.acts import Announce, BoardAct
from bot.activity.discord_api import DiscordApi, SignInRefused
from bot.activity.hub import Board, Hub, Refused, refusal_message
from bot.activity.sessions import Session, SessionKeys, SessionRefused
from bot.activity.settings import ActivitySettings
from bot.activity.words import refusal_text
from bot.errors import (
    GameNotFound,
    IllegalAction,
    ManagerError,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
)
from bot.storage import GameRow

if TYPE_CHECKING:
    from bot.manager import GameManager

log = logging.getLogger(__name__)

#: Seconds a new socket has to say hello.
HELLO_SECONDS = 10.0
#: Seconds a socket may stay silent (the page pings every 20 s) before it is closed.
IDLE_SECONDS = 60.0
#: The largest message a page may send, in bytes.
MAX_MESSAGE = 4096
#: The WebSocket close code of a refused session (the page signs in again).
SESSION_CLOSE = 4001
#: The variants whose art is made when the server starts (the others at their first board).
WARM_VARIANTS = ("carcassonne", "carcassonne+abbey_mayor", "hunters", "castle")
#: Games of a channel listed to a board at most.
MAX_GAMES = 25


class ActivityServer:
    """The server: :meth:`start` binds it, :meth:`close` stops it and every open board."""

    def __init__(
        self,
        manager: GameManager,
        settings: ActivitySettings,
        *,
        clock: Callable[[], float] = time.time,
        announce: Announce | None = None,
    ) -> None:
        self.manager = manager
        self.settings = settings
        #: Tells the game's thread of each act made on a board (see :mod:`bot.activity.acts`).
        self.announce = announce
        self.api = DiscordApi(settings.api_base, settings.client_id, settings.client_secret)
        self.keys = SessionKeys(settings.session_key, settings.session_seconds, clock)
        self.hub = Hub(manager)
        self.port = settings.port
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._warm: asyncio.Task[None] | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/art/{variant}.json", self._art_json)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/healthz", self._healthz)
        return app

    async def start(self) -> None:
        runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        host = self.settings.host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, self.port))
        except OSError as error:
            sock.close()
            await runner.cleanup()
            raise SystemExit(
                f"ACTIVITY_PORT {self.port} cannot be used on {host} ({error.strerror}): "
                "choose a free port, or leave ACTIVITY_PORT unset"
            ) from None
        await web.SockSite(runner, sock).start()
        self._runner = runner
        self._warm = asyncio.get_running_loop().create_task(self._warm_art())
        if self.manager.storage.shared:
            # Other bot processes on the database: their changes reach these boards too.
            await self.manager.on_remote_change(
                self.hub.announced, lambda: self.hub.announced(None)
            )
        self.port = sock.getsockname()[1]
        log.info("the live board is served on http://%s:%s/", host, self.port)

    async def _warm_art(self) -> None:
        """Make the common games' art ahead of the first board (a second or so each, in a
        thread), so that a first board is not drawn late."""
        loop = asyncio.get_running_loop()
        for variant in WARM_VARIANTS:
            try:
                await loop.run_in_executor(page.ART_THREAD, page.art_json, variant)
            except Exception:
                log.exception("the live board's art of %s could not be made", variant)

    async def close(self) -> None:
        warm, self._warm = self._warm, None
        if warm is not None:
            warm.cancel()
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"the bot restarts")
        await self.hub.close()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        await self.api.close()

    # -- HTTP --------------------------------------------------------------------------------

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(
            text=page.page_html(self.settings.client_id),
            content_type="text/html",
            headers=_HEADERS,
        )

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = page.STATIC.get(name)
        if kind is None:
            raise web.HTTPNotFound()
        try:
            body = page.static_file(name)
        except FileNotFoundError:
            log.error("the live board's %s is missing: run scripts/activity-sdk", name)
            raise web.HTTPNotFound(
                text=f"{name} is missing: the host runs scripts/activity-sdk"
            ) from None
        return web.Response(
            body=body,
            content_type=kind,
            charset="utf-8",
            headers={**_HEADERS, "Cache-Control": "no-cache"},
        )

    async def _art_json(self, request: web.Request) -> web.Response:
        try:
            body = await asyncio.get_running_loop().run_in_executor(
                page.ART_THREAD, page.art_json, request.match_info["variant"]
            )
        except ValueError:
            raise web.HTTPNotFound(text="no such game") from None
        return web.Response(
            body=body,
            content_type="application/json",
            headers={**_HEADERS, "Cache-Control": "public, max-age=86400"},
        )

    async def _token(self, request: web.Request) -> web.Response:
        """Sign-in: the SDK's code, and the guild and channel the board was opened in."""
        lang = catalogs.language(request.headers.get("Accept-Language"))
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        guild = _snowflake(body.get("guild")) if isinstance(body, dict) else None
        channel = _snowflake(body.get("channel")) if isinstance(body, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= 200 or guild is None:
            return _refused("sign_in_bad_request", lang, 400)
        if channel is None:
            return _refused("sign_in_bad_request", lang, 400)
        try:
            signed = await self.api.sign_in(code)
        except SignInRefused as error:
            log.info("a sign-in to the live board was refused: %s", error)
            return _refused(error.reason, lang, 401 if error.reason == "sign_in_refused" else 502)
        lang = catalogs.language(signed.locale)
        if guild not in signed.guilds:
            log.info("user %s signed in for server %s, not theirs", signed.user_id, guild)
            return _refused("not_a_member", lang, 403)
        session = Session(signed.user_id, signed.name, lang, guild, channel)
        return web.json_response(
            {
                "access_token": signed.access_token,
                "session": self.keys.issue(session),
                "user": {"id": str(signed.user_id), "name": signed.name},
                "lang": lang,
            },
            headers={**_HEADERS, "Cache-Control": "no-store"},
        )

    # -- the WebSocket -----------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=None)
        await ws.prepare(request)
        self._sockets.add(ws)
        board: Board | None = None
        try:
            hello = await self._receive(ws, HELLO_SECONDS)
            if hello is None or hello.get("type") != "hello":
                await ws.close(code=1008, message=b"say hello first")
                return ws
            try:
                session = self.keys.check(hello.get("session"))
            except SessionRefused as error:
                lang = catalogs.language(request.headers.get("Accept-Language"))
                await _say(ws, _refusal(error.reason, lang))
                await ws.close(code=SESSION_CLOSE, message=error.reason.encode())
                return ws
            board = Board(session, partial(_send_text, ws))
            games = (await self.hub.channel_games(session))[:MAX_GAMES]
            wanted = _snowflake(hello.get("game"))
            shown = _pick(games) if wanted is None else await self._wanted(session, wanted)
            await _say(ws, _welcome(session, games, shown if isinstance(shown, GameRow) else None))
            await self._show(ws, board, shown)
            while not ws.closed:
                message = await self._receive(ws, IDLE_SECONDS)
                if message is None:
                    break
                kind = message.get("type")
                if kind == "ping":
                    await _say(ws, {"type": "pong"})
                elif kind == "watch":
                    wanted = _snowflake(message.get("game"))
                    await self._show(ws, board, await self._wanted(session, wanted or 0))
                elif kind in ("try", "play"):
                    await _say(ws, await self._turn(board, kind, message))
                elif kind in ("undo", "resign"):
                    await _say(ws, await self._leave(board, kind))
                else:
                    await ws.close(code=1008, message=b"unknown message")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            if board is not None:
                self.hub.leave(board)
            self._sockets.discard(ws)
            if not ws.closed:
                await ws.close()
        return ws

    async def _show(
        self, ws: web.WebSocketResponse, board: Board, shown: GameRow | Refused | None
    ) -> None:
        """Show ``shown`` on the board (a lobby shows once it starts), or say why not."""
        if isinstance(shown, GameRow):
            refused = await self.hub.show(board, shown)
            if refused is None:
                return
            shown = refused
        if isinstance(shown, Refused):
            await _say_text(ws, refusal_message(shown, board.session.lang))

    # -- playing on the board ------------------------------------------------------------------

    async def _turn(self, board: Board, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        """A ``try`` (answered ``step``) or a ``play`` (answered ``played``) on the game the
        board shows, by its player in turn, at the game's ``version``; else ``refused``."""
        session, game_id = board.session, board.game_id
        lang = session.lang
        if game_id is None:
            return _refusal("not_your_turn", lang)
        try:
            view, game = await self.manager.current(game_id)
            if game is None or view.finished or view.game.status != "active":
                return _refusal("not_legal", lang)
            # The version first: a stale tab of the player who just moved is told the turn
            # moved on, not that it is not their turn.
            version = message.get("version")
            if isinstance(version, bool) or version != len(game.actions):
                return _refusal("turn_moved_on", lang)
            if view.user_id != session.user_id:
                return _refusal("not_your_turn", lang)
            if kind == "try":
                return await asyncio.to_thread(turns.step, game, message, lang)
            move = await asyncio.to_thread(turns.move_of, game, message)
            result = await self.manager.play_turn(
                game_id, session.user_id, move, turn=view.turn, phase=view.phase, via="board"
            )
        except turns.NotLegal as error:
            log.info("a board's %s on game %s was refused: %s", kind, game_id, error)
            return _refusal("not_legal", lang)
        except ManagerError as error:
            return _manager_refusal(error, lang)
        await self._announce(BoardAct("move", game_id, session.user_id, result))
        after = (
            len(result.game.actions) if result.game is not None else result.view.game.action_count
        )
        return {"type": "played", "version": after}

    async def _leave(self, board: Board, kind: str) -> dict[str, Any]:
        """An ``undo`` (taken back at once, or asked of the others) or a ``resign`` by a player
        of the game the board shows."""
        session, game_id = board.session, board.game_id
        lang = session.lang
        if game_id is None:
            return _refusal("not_your_turn", lang)
        try:
            if kind == "undo":
                undone = await self.manager.undo(game_id, session.user_id)
                act = BoardAct("undo", game_id, session.user_id, undone)
                key = "undo_done" if undone.undone else "undo_asked"
                answer = {"type": "undo", "done": undone.undone, "text": refusal_text(key, lang)}
            else:
                resigned = await self.manager.resign(game_id, session.user_id)
                act = BoardAct("resign", game_id, session.user_id, resigned)
                answer = {"type": "resigned", "text": refusal_text("resigned", lang)}
        except ManagerError as error:
            return _manager_refusal(error, lang)
        await self._announce(act)
        return answer

    async def _announce(self, act: BoardAct) -> None:
        """Tell the game's thread (the Discord layer's ``announce``); its failure is logged,
        never the socket's."""
        if self.announce is None:
            return
        try:
            await self.announce(act)
        except Exception:
            log.exception("the %s on game %s's board could not be announced", act.kind, act.game_id)

    async def _wanted(self, session: Session, game_id: int) -> GameRow | Refused:
        """The game a board asks for by number, if its user may see it: any game of their
        server the policy shows them (as ``/carcassonne board game:`` does); another server's
        is a number that does not exist here."""
        try:
            row = await self.manager.game(game_id) if game_id else None
        except GameNotFound:
            row = None
        if row is None:
            return Refused("game_not_found", game_id)
        return await self.hub.allowed(session, row) or row

    async def _receive(self, ws: web.WebSocketResponse, seconds: float) -> dict[str, Any] | None:
        """The next message as a JSON object; None when the socket closed, fell silent or
        sent something else (then it is closed)."""
        try:
            message = await ws.receive(timeout=seconds)
        except TimeoutError:
            await ws.close(code=1000, message=b"silent too long")
            return None
        if message.type != WSMsgType.TEXT:
            if message.type not in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                await ws.close(code=1003, message=b"text messages only")
            return None
        try:
            data = json.loads(message.data)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            await ws.close(code=1007, message=b"JSON objects only")
            return None
        return data

    @property
    def sockets(self) -> int:
        return len(self._sockets)


_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def _snowflake(value: Any) -> int | None:
    """A Discord id sent as a string or a number; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value < 2**63 else None
    if isinstance(value, str) and value.isdigit() and len(value) <= 20:
        number = int(value)
        return number if 0 < number < 2**63 else None
    return None


def _pick(games: list[GameRow]) -> GameRow | None:
    """The game a board opened in a channel shows: the channel's one running game, or its
    one game; None when there are several to pick from, or none."""
    running = [g for g in games if g.status == "active"]
    if len(running) == 1:
        return running[0]
    if not running and len(games) == 1:
        return games[0]
    return None


def _welcome(session: Session, games: list[GameRow], shown: GameRow | None) -> dict[str, Any]:
    return {
        "type": "welcome",
        "user": {"id": str(session.user_id), "name": session.name},
        "lang": session.lang,
        "games": [
            {
                "id": g.id,
                "title": catalogs.text("activity", "board_game_title", session.lang, game_id=g.id),
                "kind": g.kind,
                "status": g.status,
                "players": [s.name for s in g.seats],
                "private": g.private,
            }
            for g in games
        ],
        "game": None if shown is None else shown.id,
    }


def _refusal(reason: str, lang: str) -> dict[str, Any]:
    return {"type": "refused", "reason": reason, "text": refusal_text(reason, lang)}


#: The board's reasons for the manager's refusals of a move (the text is the manager's own).
MANAGER_REASONS: tuple[tuple[type[ManagerError], str], ...] = (
    (StaleAction, "turn_moved_on"),
    (NotYourTurn, "not_your_turn"),
    (NotAPlayer, "not_your_turn"),
    (IllegalAction, "not_legal"),
)


def _manager_refusal(error: ManagerError, lang: str) -> dict[str, Any]:
    """A manager's refusal (a stale turn, not the user's turn, a clock run out...) in the
    user's words."""
    reason = next((r for kind, r in MANAGER_REASONS if isinstance(error, kind)), error.key)
    return {"type": "refused", "reason": reason, "text": error.message(lang)}


def _refused(reason: str, lang: str, status: int) -> web.Response:
    return web.json_response(_refusal(reason, lang), status=status, headers=_HEADERS)


async def _say(ws: web.WebSocketResponse, message: dict[str, Any]) -> None:
    await _say_text(ws, json.dumps(message, separators=(",", ":"), ensure_ascii=False))


async def _say_text(ws: web.WebSocketResponse, text: str) -> None:
    if not ws.closed:
        await ws.send_str(text)


async def _send_text(ws: web.WebSocketResponse, text: str) -> None:
    if ws.closed:
        raise ConnectionResetError("the board closed")
    await ws.send_str(text)
