"""Real plurals: every text with a count reads right for 0, 1 and 2, in English, French and German.

Two checks over the whole catalogs. A text whose number is followed by a word ("3 tiles left",
"2 games together") must have plural forms, so that 1 reads "1 tile left" (a heuristic: a count
placeholder followed by a word; the few texts where what follows is no noun of the count are
named below, each with why). And every text with plural forms is shown, for 0, 1 and 2, in the
form its language's rule gives (French: 0 and 1 singular; English and German: 1 alone), with the
number in it.
"""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.catalog import Message

import catalogs

#: Placeholders that hold a count.
COUNTS = {"n", "count", "games", "left", "tiles", "moves", "turns", "wins", "free"}
#: Texts whose count is followed by a word that is not the counted noun, or not a noun at all.
NOT_A_PLURAL = {
    ("manager", "lobby_full"): "a full lobby holds at least 2 players",
    ("ui", "clock_paused"): "{left} is a duration in words (18 h, 25 min)",
    ("ui", "clock_paused_plain"): "{left} is a duration in words",
    ("ui", "clock_short_paused"): "{left} is a duration in words",
    ("ui", "digest_more"): "'… and 3 more': no noun",
    ("ui", "dash_more"): "'… and 3 more': no noun",
    ("league_ui", "standings_more"): "'…and 3 more': no noun",
    ("ui", "stats_computers"): "'3 of these games': the noun is the games', not the count's",
    ("league", "bad_table"): "a table has at least 2 players: fewer is refused before",
    ("league", "nobody_free"): "said when too few are free for a table; 'free' is no noun",
    ("castle_picture", "subjects"): "drawn with 'subjects_one' for 1 (renderer/castle/render.py)",
}
#: A placeholder directly followed by a word.
FOLLOWED = re.compile(r"\{(\w+)(?::[^}]*)?\}\s+[^\W\d_]", re.UNICODE)


def messages(lang: str) -> list[Message]:
    return [m for m in catalogs.catalog(lang) if m.id]


def singular_index(lang: str, n: int) -> int:
    if lang == "fr":
        return 0 if n in (0, 1) else 1
    return 0 if n == 1 else 1


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_every_text_with_a_counted_word_has_plural_forms(lang: str) -> None:
    found = []
    for message in messages(lang):
        if isinstance(message.id, tuple) or not isinstance(message.string, str):
            continue
        key = (message.context or "", str(message.id))
        names = {name for name in FOLLOWED.findall(message.string) if name in COUNTS}
        if names and key not in NOT_A_PLURAL:
            found.append(f"{key}: {message.string}")
    assert found == [], "texts that say '1 ... s': give them plural forms"


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
@pytest.mark.parametrize("n", [0, 1, 2])
def test_every_plural_text_reads_right_for_0_1_and_2(lang: str, n: int) -> None:
    plural = [m for m in messages(lang) if isinstance(m.id, tuple)]
    assert len(plural) >= 35
    for message in plural:
        forms = message.string
        # Both forms may be the same word ("2 fish", "2 aurochs", "2 Wappen").
        assert isinstance(forms, tuple) and len(forms) == 2 and all(forms), message.id
        context, key = message.context or "", str(message.id[0])
        names = {
            field for form in forms for _, field, _, _ in string.Formatter().parse(form) if field
        }
        text = catalogs.plural(context, key, n, lang, **{name: n for name in names - {"n"}})
        expected = forms[singular_index(lang, n)]
        assert text == expected.format(**{name: n for name in names}), (context, key, n)
        assert str(n) in text, (context, key, n)


def test_the_texts_found_before_read_as_they_should() -> None:
    status = dict(game_id=4, turn=9, tiles=1, player="Ana")
    assert "1 tile in the stack" in catalogs.plural("ui", "status_line", 1, "en", **status)
    two = catalogs.plural("ui", "status_line", 2, "en", **{**status, "tiles": 2})
    assert "2 tiles in the stack" in two
    assert "1 tuile dans la pioche" in catalogs.plural("ui", "status_line", 1, "fr", **status)
    assert "1 Karte im Stapel" in catalogs.plural("ui", "status_line", 1, "de", **status)
    versus = dict(games=1, wins=1, theirs=0, margin="+3")
    assert catalogs.plural("ui", "stats_versus_value", 1, "en", **versus).startswith(
        "1 game together"
    )
    assert "1 tile in the stack" in catalogs.plural("phone", "footer", 1, "en", turn=70, left=1)
