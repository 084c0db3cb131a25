"""The translation catalogs: every message in every language, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import catalogs

ENGINE = Path(__file__).parents[1] / "engine"


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def messages(lang: str) -> dict[tuple[str, str], tuple[str, ...]]:
    found = {}
    for message in catalogs.catalog(lang):
        if not message.id:
            continue  # the header
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found[(str(message.context), str(key))] = tuple(str(f) for f in forms)
    return found


ENGLISH = messages("en")


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    theirs = messages(lang)
    missing = sorted(set(ENGLISH) - set(theirs))
    assert not missing, f"{lang} lacks {missing[:10]}"
    extra = sorted(k for k in set(theirs) - set(ENGLISH) if k[0] != "engine")
    assert not extra, f"{lang} has messages English has not: {extra[:10]}"
    for key, forms in theirs.items():
        assert all(f.strip() for f in forms), f"{lang} {key} is empty"
        if key in ENGLISH:
            english = set().union(*(fields(f) for f in ENGLISH[key]))
            for form in forms:
                assert fields(form) <= english | {"n"}, f"{lang} {key}: {form!r}"
            if len(forms) == 1:
                assert fields(forms[0]) == english, f"{lang} {key}: placeholders differ"


def engine_codes() -> set[str]:
    """Every refusal code the engine can raise, read from its source."""
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        found |= set(re.findall(r'"([a-z_]+)"(?=,\s*\n?\s*\w+=|\)\s*$)', path.read_text()))
    return found


@pytest.mark.parametrize("lang", [lang for lang in catalogs.LANGUAGES if lang != "en"])
def test_engine_refusals_have_one_placeholder_set_across_languages(lang: str) -> None:
    """English refusals are the engine's own sentences; the others come from the catalogs."""
    ours = {k: v for k, v in messages(lang).items() if k[0] == "engine"}
    french = {k: v for k, v in messages("fr").items() if k[0] == "engine"}
    assert set(ours) == set(french)
    for key, forms in ours.items():
        assert fields(forms[0]) == fields(french[key][0]), key


def test_plural_forms_follow_each_language() -> None:
    assert catalogs.plural("tile_words", "city_sides", 1, "en", word="city") == "city on 1 side"
    assert catalogs.plural("tile_words", "city_sides", 2, "en", word="city") == "city on 2 sides"
    assert catalogs.plural("tile_words", "city_sides", 1, "fr", word="ville") == (
        "ville sur 1 côté"
    )


def test_a_missing_language_or_locale_falls_back_to_english() -> None:
    assert catalogs.language("fr-FR") == "fr"
    assert catalogs.language("pt-BR") == "en"
    assert catalogs.language(None) == "en"
    assert catalogs.text("ui", "cancel", "pt-BR") == "Cancel game"


@pytest.mark.parametrize("lang", [lang for lang in catalogs.LANGUAGES if lang != "en"])
def test_texts_name_the_commands_as_the_client_shows_them(lang: str) -> None:
    english_names = {
        str(m.id) for m in catalogs.catalog("en") if m.context == "command" and " " not in m.id
    }
    for (context, key), forms in messages(lang).items():
        if context == "command":
            continue
        for form in forms:
            shown = catalogs.commands_in(form, lang)
            for group, sub in re.findall(r"/(carcassonne|league|tournament) ([\w-]+)", shown):
                local = catalogs.commands_in(f"/{group} {sub}", lang)
                assert local == f"/{group} {sub}" or sub not in english_names, (key, shown)
    assert catalogs.text("ui", "empty_file", "fr").endswith("`/carcassonne exporter`.")


def command_names() -> set[str]:
    """The names (not descriptions or choices) of the groups, commands and options."""
    from discord import app_commands

    from bot.ui import privacy
    from bot.ui.commands import CarcassonneGroup
    from bot.ui.leagues.league_commands import LeagueGroup
    from bot.ui.timing import pbp_commands
    from bot.ui.tournaments.tournament_commands import TournamentGroup
    from bot.ui.watching import watch_commands

    carcassonne = CarcassonneGroup()
    pbp_commands.register(carcassonne)
    watch_commands.register(carcassonne)
    privacy.register(carcassonne)
    names: set[str] = set()
    for group in (carcassonne, LeagueGroup(), TournamentGroup()):
        names.add(group._locale_name.message if group._locale_name else group.name)
        for command in group.walk_commands():
            assert isinstance(command, app_commands.Command)
            names.add(command._locale_name.message if command._locale_name else command.name)
            names |= {p.locale_name.message for p in command.parameters if p.locale_name}
    return names


NAMES = command_names()


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_command_names_are_valid_discord_names(lang: str) -> None:
    """Names: lower case, no spaces, 1-32 letters, digits, _ or -; the rest <= 100."""
    assert len(NAMES) > 60
    for (context, key), forms in messages(lang).items():
        if context != "command":
            continue
        shown = forms[0]
        if key in NAMES:
            assert re.fullmatch(r"[\w-]{1,32}", shown) and shown == shown.lower(), (key, shown)
        else:
            assert len(shown) <= 100, (key, shown)


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_the_commands_a_text_names_exist_in_its_language(lang: str) -> None:
    """A slash command named in a text is a command (or option) of that language, with its
    accents: a French text says `/carcassonne règles`, never a name that no longer exists."""
    local = {catalogs.text("command", name, lang) for name in NAMES}
    found = []
    for (context, key), forms in messages(lang).items():
        if context == "command":
            continue
        for form in forms:
            shown = catalogs.commands_in(form, lang)
            for sub in re.findall(r"/(?:carcassonne|league|tournament) ([\w-]+)", shown):
                if sub not in local:
                    found.append(f"{key}: /{sub} in {shown}")
    assert found == [], found


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_no_message_is_written_twice(lang: str) -> None:
    """A key given twice in one context: the reader keeps one silently, the other is lost."""
    text = (Path(catalogs.__file__).parent / f"{lang}.po").read_text("utf-8")
    pairs = re.findall(r'^msgctxt "([^"]*)"\nmsgid "([^"]*)"', text, flags=re.M)
    assert len(pairs) == len(set(pairs)), sorted(p for p in set(pairs) if pairs.count(p) > 1)
    ids = re.findall(r'^msgid "(.+)"', text, flags=re.M)  # every message but the header
    assert len(ids) == len(pairs), "a message without its context (msgctxt)"
