"""One term per concept in every language: the glossary (``catalogs/glossary.toml``) against
every text of the catalogs.

Two checks, each over every message (every plural form) of English, French and German: no
forbidden synonym appears anywhere (whole words, any case), and each concept is named with its
term: a text whose English names the concept names it with that language's term, and a text
that uses a language's term has the concept in its English too. Game and expansion names, slash
commands, `code` and placeholders are left out first ("Hunters & Gatherers" is a name, not
hunters; `/carcassonne board` is a command). The checker is also run on planted synonyms, so
that it is known to find them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import catalogs

GLOSSARY = Path(catalogs.__file__).parent / "glossary.toml"
OTHERS = tuple(lang for lang in catalogs.LANGUAGES if lang != catalogs.DEFAULT)
#: Contexts whose texts are names of games and expansions (left out of every other text).
NAME_CONTEXTS = ("game", "expansion")
#: English texts and the languages' names of the games and expansions, as the texts spell them.
EXTRA_NAMES = {
    "en": ["The Castle", "The River", "Abbey & Mayor"],
    "fr": ["Le Château", "La Rivière", "Abbaye & Maire"],
    "de": ["Die Burg", "Der Fluss", "Abtei und Bürgermeister"],
}

Texts = Mapping[tuple[str, str], tuple[str, ...]]


def word(pattern: str) -> str:
    return rf"(?<!\w)(?:{pattern})(?!\w)"


@dataclass
class Concept:
    name: str
    terms: dict[str, re.Pattern[str] | None]
    forbidden: dict[str, re.Pattern[str] | None]
    allowed_in: dict[str, set[str]] = field(default_factory=dict)
    both_ways: bool = True

    def allows(self, lang: str, key: tuple[str, str]) -> bool:
        """Whether the text ``key`` is left out of this concept's check in ``lang``."""
        return f"{key[0]}/{key[1]}" in self.allowed_in.get(lang, set())


def load() -> list[Concept]:
    data = tomllib.loads(GLOSSARY.read_text("utf-8"))
    concepts = []
    for raw in data["concept"]:

        def pattern(words: list[str]) -> re.Pattern[str] | None:
            return re.compile(word("|".join(words)), re.IGNORECASE) if words else None

        concepts.append(
            Concept(
                name=raw["name"],
                terms={lang: pattern(raw[lang]) for lang in catalogs.LANGUAGES},
                forbidden={
                    lang: pattern(raw.get("forbidden", {}).get(lang, []))
                    for lang in catalogs.LANGUAGES
                },
                allowed_in={k: set(v) for k, v in raw.get("allowed_in", {}).items()},
                both_ways=raw.get("both_ways", True),
            )
        )
    return concepts


def texts(lang: str) -> dict[tuple[str, str], tuple[str, ...]]:
    found = {}
    for message in catalogs.catalog(lang):
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found[(str(message.context), str(key))] = tuple(str(f) for f in forms if f)
    return found


def names(lang: str, all_texts: Texts) -> list[str]:
    found = [
        f for (context, _), forms in all_texts.items() if context in NAME_CONTEXTS for f in forms
    ]
    found += EXTRA_NAMES[lang]
    return sorted(set(found), key=len, reverse=True)


CODE = re.compile(r"`[^`]*`|/(?:carcassonne|league)(?: [\w-]+)?|\{[^}]*\}")


def prepared(text: str, lang: str, skip: list[str]) -> str:
    """The text as the check reads it: commands localised, then names, commands, code and
    placeholders taken out."""
    text = catalogs.commands_in(text, lang)
    for name in skip:
        text = text.replace(name, " ")
    return CODE.sub(" ", text)


def checked(key: tuple[str, str]) -> bool:
    """Whether a message takes part in the term check: not the names of games and expansions,
    and not the command names (one word each, checked as Discord names elsewhere)."""
    context, name = key
    if context in NAME_CONTEXTS:
        return False
    return not (context == "command" and re.fullmatch(r"[\w-]+", name))


def problems(by_lang: Mapping[str, Texts], concepts: list[Concept]) -> list[str]:
    """Every forbidden synonym and every concept named with another term, in words."""
    found: list[str] = []
    ready = {
        lang: {
            key: tuple(prepared(f, lang, names(lang, all_texts)) for f in forms)
            for key, forms in all_texts.items()
        }
        for lang, all_texts in by_lang.items()
    }
    for lang, all_texts in ready.items():
        for key, forms in all_texts.items():
            where = f"{lang} {key[0]}/{key[1]}"
            for concept in concepts:
                bad = concept.forbidden[lang]
                if bad is None or concept.allows(lang, key):
                    continue
                for form in forms:
                    for hit in bad.finditer(form):
                        found.append(f"{where}: forbidden {hit[0]!r} ({concept.name}): {form}")
    english = ready[catalogs.DEFAULT]
    for lang in by_lang:
        if lang == catalogs.DEFAULT:
            continue
        for key, forms in ready[lang].items():
            if key not in english or not checked(key) or key[0] == "engine":
                continue
            source = " ".join(english[key])
            shown = " ".join(forms)
            where = f"{lang} {key[0]}/{key[1]}"
            for concept in concepts:
                theirs, ours = concept.terms[lang], concept.terms[catalogs.DEFAULT]
                if theirs is None or ours is None or concept.allows(lang, key):
                    continue
                if ours.search(source) and not theirs.search(shown):
                    found.append(
                        f"{where}: English names the {concept.name} but not as "
                        f"{theirs.pattern!r}: {shown}"
                    )
                if not concept.both_ways:
                    continue
                for hit in theirs.finditer(shown):
                    # The word may be the term of several concepts (German Wiese: field, meadow).
                    meant = [
                        c
                        for c in concepts
                        if (p := c.terms[lang]) is not None and p.fullmatch(hit[0])
                    ]
                    if any(c.allows(lang, key) for c in meant):
                        continue
                    if not any(
                        (e := c.terms[catalogs.DEFAULT]) is not None and e.search(source)
                        for c in meant
                    ):
                        found.append(
                            f"{where}: {hit[0]!r} is the term for the {concept.name}, which the "
                            f"English does not name: {source}"
                        )
    return found


CONCEPTS = load()
ALL = {lang: texts(lang) for lang in catalogs.LANGUAGES}


def test_the_glossary_names_every_concept_in_every_language() -> None:
    assert len(CONCEPTS) >= 40
    names_seen = [c.name for c in CONCEPTS]
    assert len(set(names_seen)) == len(names_seen)
    for concept in CONCEPTS:
        terms = [concept.terms[lang] for lang in catalogs.LANGUAGES]
        assert all(terms) or not any(terms), concept.name
        assert any(terms) or any(concept.forbidden.values()), concept.name


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_no_forbidden_synonym_and_every_concept_by_its_term(lang: str) -> None:
    wanted = {catalogs.DEFAULT: ALL[catalogs.DEFAULT], lang: ALL[lang]}
    found = problems(wanted, CONCEPTS)
    assert found == [], "\n".join(found)


def planted(lang: str, key: tuple[str, str], old: str, new: str) -> dict[str, Texts]:
    copy = {name: dict(all_texts) for name, all_texts in ALL.items()}
    forms = copy[lang][key]
    assert any(old in f for f in forms), (key, old)
    copy[lang][key] = tuple(f.replace(old, new) for f in forms)
    return {catalogs.DEFAULT: copy[catalogs.DEFAULT], lang: copy[lang]}


@pytest.mark.parametrize(
    ("lang", "key", "old", "new", "said"),
    [
        ("fr", ("tile_feature", "field"), "pré", "prairie", "'prairie' is the term for the meadow"),
        ("fr", ("castle_picture", "wall"), "Tuiles Mur", "Remparts", "forbidden 'Remparts'"),
        ("fr", ("ui", "no_figure"), "pion", "partisan", "English names the figure"),
        ("de", ("ui", "lobby_body"), "Mitspielen", "Beitreten", "forbidden 'Beitreten'"),
        ("de", ("role", "thief"), "Wegelagerer", "Räuber", "forbidden 'Räuber'"),
        ("en", ("tile_feature", "field"), "field", "farm", "forbidden 'farm'"),
    ],
)
def test_a_planted_synonym_is_found(
    lang: str, key: tuple[str, str], old: str, new: str, said: str
) -> None:
    assert problems({catalogs.DEFAULT: ALL[catalogs.DEFAULT], lang: ALL[lang]}, CONCEPTS) == []
    found = problems(planted(lang, key, old, new), CONCEPTS)
    assert any(said in line for line in found), found
