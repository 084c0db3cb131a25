"""The live board's settings, read once from the environment (see README, "The live board").

The board is off unless ``ACTIVITY_PORT`` is set; then ``DISCORD_CLIENT_ID`` and
``DISCORD_CLIENT_SECRET`` are required (the OAuth2 code exchange needs both). A bad value stops
the bot at start-up with a sentence saying what is wrong and what to do.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass

#: Discord's API, where the board signs users in (tests point it at a local fake).
DISCORD_API = "https://discord.com/api/v10"
#: Hours a board's session lasts before the page signs in again.
SESSION_HOURS = 12.0


class ActivityConfigError(ValueError):
    """A setting of the live board is wrong: the message says which and what to do."""


@dataclass(frozen=True, slots=True)
class ActivitySettings:
    port: int
    host: str
    client_id: str
    client_secret: str
    api_base: str = DISCORD_API
    session_seconds: float = SESSION_HOURS * 3600

    @property
    def session_key(self) -> bytes:
        """The key sessions are signed with: derived from the client secret, so that every
        bot process of one application checks every other's sessions, and never the secret
        itself."""
        return hmac.new(
            self.client_secret.encode(), b"carcassonne live board sessions", hashlib.sha256
        ).digest()

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ActivitySettings | None:
        """The settings, or None when ``ACTIVITY_PORT`` is unset (no live board)."""
        text = env.get("ACTIVITY_PORT", "").strip()
        if not text:
            return None
        if not text.isdigit() or not 0 <= int(text) <= 65535:
            raise ActivityConfigError(
                f"ACTIVITY_PORT must be a port number from 1 to 65535 (0: any free port), "
                f"got {text!r}"
            )
        client_id = env.get("DISCORD_CLIENT_ID", "").strip()
        secret = env.get("DISCORD_CLIENT_SECRET", "").strip()
        missing = [
            name
            for name, value in (("DISCORD_CLIENT_ID", client_id), ("DISCORD_CLIENT_SECRET", secret))
            if not value
        ]
        if missing:
            raise ActivityConfigError(
                f"ACTIVITY_PORT is set, so the live board needs {' and '.join(missing)}: copy "
                "them from the developer portal (your application, OAuth2), or unset ACTIVITY_PORT"
            )
        if not client_id.isdigit():
            raise ActivityConfigError(
                f"DISCORD_CLIENT_ID is the application's id (digits), got {client_id!r}"
            )
        base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or DISCORD_API
        if not base.startswith(("https://", "http://")):
            raise ActivityConfigError(
                f"DISCORD_API_BASE must be an http(s) address such as {DISCORD_API}, got {base!r}"
            )
        hours_text = env.get("ACTIVITY_SESSION_HOURS", "").strip()
        try:
            hours = float(hours_text) if hours_text else SESSION_HOURS
        except ValueError:
            hours = -1.0
        if not 0.05 <= hours <= 24 * 30:
            raise ActivityConfigError(
                f"ACTIVITY_SESSION_HOURS is how long a sign-in lasts, from 0.05 to 720 hours, "
                f"got {hours_text!r}"
            )
        return cls(
            port=int(text),
            host=env.get("ACTIVITY_HOST", "").strip() or "0.0.0.0",
            client_id=client_id,
            client_secret=secret,
            api_base=base,
            session_seconds=hours * 3600,
        )
