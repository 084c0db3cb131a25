"""The live board's sessions: who signed in, for which server and channel, until when.

A session is a token the server issues after Discord's sign-in (:mod:`bot.activity.discord_api`)
and checks on every WebSocket: signed with HMAC-SHA256 by ``itsdangerous`` under a key derived from
the application's client secret (:attr:`ActivitySettings.session_key`), so a page cannot forge or
alter one and every bot process of the application reads every other's. It names the user, their
name and language, the server and channel the board was opened in, and expires after
``ACTIVITY_SESSION_HOURS``. It carries nothing secret (the page holds it): no Discord token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

#: Salt of the signatures: a token signed for anything else never reads as a session.
SALT = "carcassonne live board session 1"
#: The most characters a session token may have (a longer one is refused unread).
MAX_TOKEN = 2000


@dataclass(frozen=True, slots=True)
class Session:
    user_id: int
    name: str
    lang: str
    guild_id: int
    channel_id: int


class SessionRefused(Exception):
    """A session that is not ours, altered, or expired: ``reason`` is the text key the page
    shows (``session_expired`` or ``session_invalid``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SessionKeys:
    """Issues and checks sessions; ``clock`` is now in Unix seconds (tests move it)."""

    def __init__(self, key: bytes, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self._signer = _Serializer(key, salt=SALT, clock=clock)

    def issue(self, session: Session) -> str:
        return self._signer.dumps(asdict(session))

    def check(self, token: object) -> Session:
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            raise SessionRefused("session_invalid")
        try:
            data = self._signer.loads(token, max_age=round(self.seconds))
        except SignatureExpired:
            raise SessionRefused("session_expired") from None
        except BadSignature:
            raise SessionRefused("session_invalid") from None
        try:
            return Session(
                user_id=int(data["user_id"]),
                name=str(data["name"]),
                lang=str(data["lang"]),
                guild_id=int(data["guild_id"]),
                channel_id=int(data["channel_id"]),
            )
        except (KeyError, TypeError, ValueError):
            raise SessionRefused("session_invalid") from None


class _Serializer(URLSafeTimedSerializer):
    """itsdangerous' timed serializer on our clock (its signer reads the time from us)."""

    def __init__(self, key: bytes, *, salt: str, clock: Callable[[], float]) -> None:
        class ClockSigner(TimestampSigner):
            def get_timestamp(self) -> int:
                return int(clock())

        super().__init__(key, salt=salt, signer=ClockSigner)
