"""Signing a user in at Discord, as Discord specifies for Activities.

The page's SDK ``authorize`` gives a one-time code; :meth:`DiscordApi.sign_in` exchanges it at
Discord's OAuth2 token endpoint (``POST {base}/oauth2/token``, the client id and secret in the
form), reads who it is at ``GET {base}/users/@me`` and their servers at
``GET {base}/users/@me/guilds`` (Bearer token), and answers the access token (the page hands it
to the SDK's ``authenticate``) with the user. ``base`` is a setting (``DISCORD_API_BASE``):
tests and development point it at :mod:`bot.activity.fake_discord`. Every failure is a
:class:`SignInRefused` with the text key the page shows; nothing Discord answers is trusted
beyond the fields read here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

#: Seconds Discord has to answer each call.
TIMEOUT = 10.0
#: Server permissions that make an admin there (Administrator, Manage Server).
ADMIN_BITS = 0x8 | 0x20


@dataclass(frozen=True, slots=True)
class SignedIn:
    """Who signed in: their Discord id, the name to show, their locale, the access token."""

    user_id: int
    name: str
    locale: str
    access_token: str
    #: The servers they are a member of, with whether they are an admin there.
    guilds: dict[int, bool]


class SignInRefused(Exception):
    """Sign-in failed; ``reason`` is the text key the page shows."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


class DiscordApi:
    """Discord's OAuth2 and user endpoints at ``base``, with this application's credentials."""

    def __init__(self, base: str, client_id: str, client_secret: str) -> None:
        self.base = base.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        return self._http

    async def close(self) -> None:
        http, self._http = self._http, None
        if http is not None:
            await http.close()

    async def sign_in(self, code: str) -> SignedIn:
        token = await self._exchange(code)
        user = await self._get("/users/@me", token)
        guilds = await self._get("/users/@me/guilds", token)
        try:
            user_id = int(user["id"])
            name = str(user.get("global_name") or user["username"])[:64]
            locale = str(user.get("locale") or "en")
            member_of = {int(g["id"]): _admin(g.get("permissions")) for g in guilds}
        except (KeyError, TypeError, ValueError) as error:
            raise SignInRefused(
                "sign_in_failed", f"Discord's answer is not a user: {error!r}"
            ) from None
        return SignedIn(user_id, name, locale, token, member_of)

    async def _exchange(self, code: str) -> str:
        form = {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        answer = await self._call("POST", "/oauth2/token", data=form)
        token = answer.get("access_token") if isinstance(answer, dict) else None
        if not isinstance(token, str) or not token:
            raise SignInRefused("sign_in_failed", "no access token in Discord's answer")
        return token

    async def _get(self, path: str, token: str) -> Any:
        return await self._call("GET", path, headers={"Authorization": f"Bearer {token}"})

    async def _call(self, method: str, path: str, **options: Any) -> Any:
        try:
            async with self._session().request(method, self.base + path, **options) as response:
                if response.status in (400, 401, 403):
                    raise SignInRefused("sign_in_refused", f"{path}: HTTP {response.status}")
                if response.status >= 300:
                    raise SignInRefused("sign_in_failed", f"{path}: HTTP {response.status}")
                return await response.json(content_type=None)
        except SignInRefused:
            raise
        except (TimeoutError, aiohttp.ClientError, ValueError) as error:
            log.warning("Discord's %s did not answer: %r", path, error)
            raise SignInRefused("sign_in_failed", f"{path}: {error!r}") from None


def _admin(permissions: Any) -> bool:
    try:
        return bool(int(permissions) & ADMIN_BITS)
    except (TypeError, ValueError):
        return False
