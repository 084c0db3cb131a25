"""Rules on what users type: league names, dates (issue: hardening against bad input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ManagerError
from bot.leagues import BadPoints, check_name, parse_day, parse_points


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
        # ASCII digits only, two for the month and the day.
        ("\uff12\uff10\uff12\uff16-09-30", "“\uff12\uff10\uff12\uff16-09-30” is not a date"),
        ("2026-\u0660\u0669-30", "is not a date"),
        ("2026-9-30", "is not a date"),
        ("2026-09-3²", "is not a date"),
    ],
)
def test_season_dates_out_of_range_or_garbage_are_refused_shortly(text: str, expected: str) -> None:
    with pytest.raises(ManagerError) as refused:
        parse_day(text)
    message = refused.value.message("en")
    assert expected in message and len(message) < 200


@pytest.mark.parametrize("text", ["²", "3,1,²", "\uff13,\uff11,\uff10", "3,\u0661,0", "1\u00b9"])
def test_points_are_ascii_digits(text: str) -> None:
    with pytest.raises(BadPoints) as refused:
        parse_points(text)
    assert "3,1,0" in refused.value.message("en")


def test_a_normal_date_is_midnight_utc() -> None:
    assert parse_day("2026-09-30").isoformat() == "2026-09-30T00:00:00+00:00"


async def test_the_options_table_in_docs_is_current() -> None:
    """docs/commands.md lists every option of every command with its rule: regenerate it with
    ``python -m bot.docs > docs/commands.md`` when a command changes."""
    from bot.docs import command_tree
    from bot.ui.limits import options_table

    tree = await command_tree()
    documented = (Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8")
    assert options_table(tree) == documented, "regenerate docs/commands.md: python -m bot.docs"
    options = [p for c in tree.walk_commands() for p in getattr(c, "parameters", [])]
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
