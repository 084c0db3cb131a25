"""Rules on what users type: league names, dates (issue: hardening against bad input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ManagerError
from bot.leagues import check_name, parse_day


@pytest.mark.parametrize(
    "name",
    ["@everyone", "@here cup", "<@&1> cup", "<#123>", "a\x00b", "abc\u202edef", "zero\u200bwidth"],
)
def test_league_names_refuse_mentions_controls_and_direction_marks(name: str) -> None:
    with pytest.raises(ManagerError) as refused:
        check_name(name)
    assert "plain text" in refused.value.message("en")


@pytest.mark.parametrize("name", ["Spring league", "Ligue d'été 2026", "Liga #3", "サマーカップ"])
def test_ordinary_league_names_pass(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9999-12-31", "is too far away: a season's date lies between the years 2000 and 2100"),
        ("1999-12-31", "is too far away"),
        ("@everyone", "“@\u200beveryone” is not a date"),
        ("x" * 5000, "“xxxxxxxxxxxxxxxxxxx…” is not a date"),
    ],
)
def test_season_dates_out_of_range_or_garbage_are_refused_shortly(text: str, expected: str) -> None:
    with pytest.raises(ManagerError) as refused:
        parse_day(text)
    message = refused.value.message("en")
    assert expected in message and len(message) < 200


def test_a_normal_date_is_midnight_utc() -> None:
    assert parse_day("2026-09-30").isoformat() == "2026-09-30T00:00:00+00:00"


async def test_the_options_table_in_docs_is_current(tmp_path: Path) -> None:
    """docs/commands.md lists every option of every command with its rule: regenerate it with
    ``python -m bot.ui.limits > docs/commands.md`` when a command changes."""
    from bot.app import CarcassonneBot, Settings
    from bot.manager import GameManager
    from bot.storage import open_storage
    from bot.ui import install
    from bot.ui.limits import options_table

    bot = CarcassonneBot(Settings(token="", database=":memory:", log_level="INFO", dev_guild=None))
    storage = await open_storage(str(tmp_path / "t.sqlite3"))
    try:
        bot._manager = GameManager(storage)
        await install(bot)
        table = options_table(bot.tree)
    finally:
        await storage.close()
    documented = (Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8")
    assert table == documented, "regenerate docs/commands.md with python -m bot.ui.limits"
    options = [p for c in bot.tree.walk_commands() for p in getattr(c, "parameters", [])]
    assert len(options) > 60
    for param in options:
        if param.type.name == "string" and not param.choices:
            assert param.max_value is not None, f"{param.name} has no length limit"
        if param.type.name == "integer" and not param.choices:
            assert param.max_value is not None, f"{param.name} has no upper bound"


def test_the_client_never_pings_everyone_here_or_roles() -> None:
    from bot.app import CarcassonneBot, Settings

    bot = CarcassonneBot(Settings(token="", database=":memory:", log_level="INFO", dev_guild=None))
    allowed = bot.allowed_mentions
    assert allowed is not None
    assert allowed.to_dict()["parse"] == ["users"]
