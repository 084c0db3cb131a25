"""A local fake of the Discord endpoints the live board signs in with, for development and tests.

It answers what :mod:`bot.activity.discord_api` asks, as Discord does: ``POST /oauth2/token``
(form ``client_id``, ``client_secret``, ``grant_type=authorization_code``, ``code``: a code is
good once, for the application it was made for) gives an access token; ``GET /users/@me`` and
``GET /users/@me/guilds`` with ``Authorization: Bearer <token>`` give the user and their servers.
Anything else is refused with Discord's status codes (400 for a bad grant, 401 without a good
token). Tests register the users, and which code signs in whom (:meth:`FakeDiscord.code_for`),
then point ``DISCORD_API_BASE`` at :attr:`FakeDiscord.base`.

Never served in production: it signs anyone in as anyone.
"""

from __future__ import annotations

import secrets
import socket
from dataclasses import dataclass, field

from aiohttp import web


@dataclass
class FakeUser:
    user_id: int
    name: str
    locale: str = "en"
    #: Server id -> its permissions bits for the user.
    guilds: dict[int, int] = field(default_factory=dict)


class FakeDiscord:
    """The fake: :meth:`start` serves it on loopback, :meth:`close` stops it."""

    def __init__(self, client_id: str, client_secret: str) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.users: dict[int, FakeUser] = {}
        self._codes: dict[str, int] = {}
        self._again: set[str] = set()
        self._tokens: dict[str, int] = {}
        #: Every call, as ``(method, path)``: what the server asked.
        self.calls: list[tuple[str, str]] = []
        #: When set, every call answers this HTTP status (Discord down or refusing).
        self.failing: int | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def add_user(
        self, user_id: int, name: str, guilds: dict[int, int] | None = None, locale: str = "en"
    ) -> FakeUser:
        user = FakeUser(user_id, name, locale, dict(guilds or {}))
        self.users[user_id] = user
        return user

    def code_for(self, user_id: int, *, again: bool = False) -> str:
        """A fresh code that signs ``user_id`` in (what the SDK's ``authorize`` gives): good
        once, as Discord's, or ``again`` and again (a page under the SDK's mock, whose
        ``authorize`` always answers the code in its address, signs in again with it)."""
        code = "code-" + secrets.token_urlsafe(12)
        self._codes[code] = user_id
        if again:
            self._again.add(code)
        return code

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self._token)
        app.router.add_get("/api/v10/users/@me", self._me)
        app.router.add_get("/api/v10/users/@me/guilds", self._guilds)
        return app

    async def start(self) -> None:
        runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", self.port))
        await web.SockSite(runner, sock).start()
        self.port = sock.getsockname()[1]
        self._runner = runner

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    def _refusing(self, request: web.Request) -> web.Response | None:
        self.calls.append((request.method, request.path))
        if self.failing is not None:
            return web.json_response({"message": "unavailable"}, status=self.failing)
        return None

    async def _token(self, request: web.Request) -> web.Response:
        refused = self._refusing(request)
        if refused is not None:
            return refused
        form = await request.post()
        if (form.get("client_id"), form.get("client_secret")) != (
            self.client_id,
            self.client_secret,
        ):
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        code = str(form.get("code", ""))
        user_id = self._codes.get(code) if code in self._again else self._codes.pop(code, None)
        if user_id is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = "token-" + secrets.token_urlsafe(16)
        self._tokens[token] = user_id
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "scope": "identify guilds",
            }
        )

    def _user(self, request: web.Request) -> FakeUser | web.Response:
        """The user whose Bearer token the request carries, or Discord's refusal."""
        refused = self._refusing(request)
        if refused is not None:
            return refused
        header = request.headers.get("Authorization", "")
        user_id = (
            self._tokens.get(header.removeprefix("Bearer ")) if header[:7] == "Bearer " else None
        )
        user = None if user_id is None else self.users.get(user_id)
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return user

    async def _me(self, request: web.Request) -> web.Response:
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
        return web.json_response(
            {
                "id": str(user.user_id),
                "username": user.name.lower().replace(" ", "_"),
                "global_name": user.name,
                "discriminator": "0",
                "avatar": None,
                "locale": user.locale,
            }
        )

    async def _guilds(self, request: web.Request) -> web.Response:
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
        return web.json_response(
            [
                {"id": str(guild), "name": f"Server {guild}", "permissions": str(bits)}
                for guild, bits in user.guilds.items()
            ]
        )
