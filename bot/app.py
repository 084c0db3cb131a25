"""Start-up: read the settings from the environment, open the database, run the client."""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass

import discord

log = logging.getLogger("carcassonne")

DEFAULT_DB = "carcassonne.sqlite3"


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment, read once at start-up."""

    token: str
    database: str
    log_level: str
    dev_guild: int | None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit(
                "DISCORD_TOKEN is not set. Create a bot at "
                "https://discord.com/developers/applications, copy its token, then run:\n"
                "  DISCORD_TOKEN=your-token scripts/start"
            )
        guild = env.get("DISCORD_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DISCORD_DEV_GUILD must be a server id (digits), got {guild!r}")
        return cls(
            token=token,
            database=env.get("CARCASSONNE_DB", DEFAULT_DB),
            log_level=env.get("LOG_LEVEL", "INFO").upper(),
            dev_guild=int(guild) if guild else None,
        )


def main() -> int:
    try:
        settings = Settings.from_env()
    except SystemExit as stop:
        print(stop.code, file=sys.stderr)
        return 1
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stdout,
    )
    client = discord.Client(intents=discord.Intents.default())
    try:
        client.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN: it is invalid or was reset. "
            "Copy the bot token again from the developer portal.",
            file=sys.stderr,
        )
        return 1
    return 0
