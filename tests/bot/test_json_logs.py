"""``LOG_FORMAT=json``: one JSON object per line, naming the game, guild and interaction a line
is about; and the settings of the metrics and logs."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import simcord
from conftest_ui import Table, commit, pick, simcord_bot

from bot import logs
from bot.app import Settings

__all__ = ["simcord_bot"]


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """Every record of the bot's loggers, DEBUG included, as JSON lines."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.JsonFormatter())
    bot_log = logging.getLogger("bot")
    level = bot_log.level
    bot_log.addHandler(handler)
    bot_log.setLevel(logging.DEBUG)
    yield out
    bot_log.removeHandler(handler)
    bot_log.setLevel(level)


def parsed(out: io.StringIO) -> list[dict[str, Any]]:
    lines = out.getvalue().splitlines()
    assert lines, "nothing was logged"
    return [json.loads(line) for line in lines]  # each line is one object


async def test_each_line_names_its_game_guild_and_interaction(
    simcord_env: simcord.Env, json_lines: io.StringIO
) -> None:
    table = Table(simcord_env)
    game_id = await table.new()
    json_lines.truncate(0)
    json_lines.seek(0)
    view = await table.bot.manager.decision(game_id)
    player = table.actor(view.user_id)
    step = await pick(table, game_id, player, table.last())
    await commit(player, step)
    records = parsed(json_lines)
    checks = [r for r in records if r["logger"] == "bot.ui.access"]
    assert len(checks) >= 2, records  # the policy's decision on each of the two interactions
    for record in checks:
        assert record["game"] == game_id and record["guild"] == table.guild.id, record
        assert set(record) >= {"time", "level", "logger", "message", "interaction"}
        assert record["time"].endswith("Z") and record["level"] == "DEBUG"
    assert len({r["interaction"] for r in checks}) == 2, "the two interactions are told apart"


def test_a_line_carries_the_fields_known_and_the_traceback() -> None:
    formatter = logs.JsonFormatter()
    log = logging.getLogger("bot.test")
    try:
        raise ValueError("broken")
    except ValueError as error:
        record = log.makeRecord("bot.test", logging.ERROR, __file__, 1, "game %s: é", (7,), None)
        record.exc_info = (type(error), error, error.__traceback__)
    token = logs.GAME.set(7)
    try:
        line = json.loads(formatter.format(record))
    finally:
        logs.GAME.reset(token)
    assert line["message"] == "game 7: é" and line["game"] == 7 and line["level"] == "ERROR"
    assert "guild" not in line and "interaction" not in line  # not known: left out
    assert "ValueError: broken" in line["exception"]
    # Outside any game, none is named.
    assert "game" not in json.loads(formatter.format(record))


def test_python_m_bot_logs_json_lines_to_standard_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        logs.configure("INFO", "json")
        logging.getLogger("carcassonne").info("logged in as %s", "TestBot")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["message"] == "logged in as TestBot" and line["logger"] == "carcassonne"


def test_the_settings_of_metrics_and_logs() -> None:
    base = {"DISCORD_TOKEN": "x"}
    plain = Settings.from_env(base)
    assert (plain.metrics_port, plain.log_format) == (None, "text")
    chosen = Settings.from_env(
        {**base, "METRICS_PORT": "9464", "METRICS_HOST": "127.0.0.1", "LOG_FORMAT": "JSON"}
    )
    assert (chosen.metrics_port, chosen.metrics_host, chosen.log_format) == (
        9464,
        "127.0.0.1",
        "json",
    )
    with pytest.raises(SystemExit, match="METRICS_PORT must be a port number"):
        Settings.from_env({**base, "METRICS_PORT": "99999"})
    with pytest.raises(SystemExit, match="METRICS_PORT must be a port number"):
        Settings.from_env({**base, "METRICS_PORT": "http"})
    with pytest.raises(SystemExit, match="LOG_FORMAT must be text or json"):
        Settings.from_env({**base, "LOG_FORMAT": "xml"})
