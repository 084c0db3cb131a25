"""Texts name the buttons as they are labelled: a bold name in a text ("press **Join**") is the
label of a button the bot really shows, in every language.

The buttons' labels are found in the Discord layer's source: every catalog key given as the
label of a button (``button(...)``, ``TurnButton``, ``LobbyButton``, the ``IdButton`` kinds and
``discord.ui.Button``), directly, through a variable or a loop over literal keys. Then every bold
name of every catalog text is read against them, in English, French and German: a bold name
that is not a title, a game's name or an example square must be a button's label in that
language, the same button as in English.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import catalogs

UI = Path(__file__).parents[2] / "bot" / "ui"
#: The functions that read a text of the catalogs, and the context each reads.
READERS = {"tr": "ui", "trn": "ui", "lt": "league_ui", "tt": "tournament_ui"}
#: Calls that make a button, and the position of their label (None: only ``label=``).
MAKERS: dict[str, int | None] = {"button": 1, "TurnButton": 1, "LobbyButton": 1, "Button": None}
BOLD = re.compile(r"\*\*(.+?)\*\*")
#: Texts whose bold names are no buttons, with why.
NOT_BUTTONS = {
    ("ui", "computers_intro"): "names the levels of the computer players' menu",
    ("ui", "privacy_notice"): "its bold words are the notice's headings",
}


def _strings(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub.value


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _keys(label: ast.expr, scope: ast.AST) -> set[tuple[str, str]]:
    """The catalog keys a label expression may show: the literal keys of its readers' calls,
    and those a variable it reads is given in the same function (assigned, or looped over)."""
    found: set[tuple[str, str]] = set()
    for call in ast.walk(label):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            continue
        context = READERS.get(call.func.id)
        if context is None or not call.args:
            continue
        key = call.args[0]
        found |= {(context, s) for s in _strings(key)}
        for name in _names(key):
            found |= {(context, s) for s in _given(name, scope)}
    if not found:
        for name in _names(label):
            for node in ast.walk(scope):
                if isinstance(node, ast.Assign) and any(name in _names(t) for t in node.targets):
                    found |= _keys(node.value, scope)
    return found


def _given(name: str, scope: ast.AST) -> set[str]:
    """The string constants a name is given in ``scope``: assigned, or the loop's items."""
    found: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and any(name in _names(t) for t in node.targets):
            found |= set(_strings(node.value))
        if isinstance(node, ast.For) and name in _names(node.target):
            found |= set(_strings(node.iter))
    return found


def button_label_keys() -> set[tuple[str, str]]:
    makers = dict(MAKERS)
    trees = [ast.parse(path.read_text("utf-8")) for path in sorted(UI.rglob("*.py"))]
    for tree in trees:  # the IdButton kinds take (value, label, style) like it
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                "IdButton" in ast.unparse(b) for b in node.bases
            ):
                makers[node.name] = 1
    found: set[tuple[str, str]] = set()
    for tree in trees:
        for scope in ast.walk(tree):
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(scope):
                if not isinstance(call, ast.Call):
                    continue
                func = call.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name not in makers:
                    continue
                at = makers[name]
                labels = [k.value for k in call.keywords if k.arg == "label"]
                if at is not None and len(call.args) > at:
                    labels.append(call.args[at])
                for label in labels:
                    found |= _keys(label, scope)
    return {key for key in found if catalogs.has(*key)}


LABELS = button_label_keys()


def shown(context: str, key: str, lang: str) -> re.Pattern[str]:
    """A label as a pattern: its placeholders stand for anything, and a count in brackets
    ("Wall tiles (2)") may be left out."""
    text = catalogs.template(context, key, lang)
    parts = re.split(r"(\s*\(\{[^}]*\}\)|\{[^}]*\})", text)
    out = ""
    for part in parts:
        if re.fullmatch(r"\s*\(\{[^}]*\}\)", part):
            out += r"(?:\s*\(.+?\))?"
        elif re.fullmatch(r"\{[^}]*\}", part):
            out += ".+?"
        else:
            out += re.escape(part)
    return re.compile(out)


def not_a_name(bold: str, lang: str) -> bool:
    """A title ("**Carcassonne.**"), a game's name or an example of a square ("**B · 90°**")."""
    if "{" in bold or bold.endswith((".", ":", "?")) or "·" in bold or len(bold) == 1:
        return True
    games = {catalogs.text(c, k, lang) for c in ("game", "expansion") for k in catalogs.keys(c)}
    return bold in games


def texts(lang: str) -> dict[tuple[str, str], tuple[str, ...]]:
    found = {}
    for message in catalogs.catalog(lang):
        if not message.id or message.context == "command":
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found[(str(message.context), str(key))] = tuple(str(f) for f in forms)
    return found


def problems(lang: str, theirs: dict[tuple[str, str], tuple[str, ...]]) -> list[str]:
    english = texts(catalogs.DEFAULT)
    found = []
    for key, forms in theirs.items():
        if key in NOT_BUTTONS or key not in english:
            continue
        for form, source in zip(forms, english[key], strict=False):
            bold, ours = BOLD.findall(form), BOLD.findall(source)
            if len(bold) != len(ours):
                found.append(f"{lang} {key}: bold {bold} where English has {ours}")
                continue
            for name, english_name in zip(bold, ours, strict=True):
                if not_a_name(english_name, catalogs.DEFAULT):
                    continue
                buttons = [
                    label
                    for label in sorted(LABELS)
                    if shown(*label, catalogs.DEFAULT).fullmatch(english_name)
                ]
                if not buttons:
                    found.append(f"{key}: **{english_name}** is no button's label")
                elif not any(shown(*label, lang).fullmatch(name) for label in buttons):
                    labels = [catalogs.template(*label, lang) for label in buttons]
                    found.append(f"{lang} {key}: **{name}**, but the button reads {labels}")
    return found


def test_the_button_labels_are_found_in_the_source() -> None:
    for label in [
        ("ui", "join"),
        ("ui", "start"),
        ("ui", "cancel"),
        ("ui", "no_figure"),
        ("ui", "place_tile"),
        ("ui", "my_tiles"),
        ("ui", "castle_wall_play"),
        ("ui", "confirm"),
        ("ui", "computer"),
        ("ui", "colour"),
        ("ui", "back_to_options"),
        ("ui", "hand_on"),
        ("league_ui", "accept"),
    ]:
        assert label in LABELS, label
    assert ("ui", "lobby_body") not in LABELS


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_texts_name_the_buttons_as_they_are_labelled(lang: str) -> None:
    found = problems(lang, texts(lang))
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    ("lang", "key", "old", "new"),
    [
        ("de", ("ui", "lobby_body"), "**Mitspielen**", "**Beitreten**"),
        ("en", ("ui", "step_pick"), "**No figure**", "**Confirm**"),
        ("fr", ("ui", "turn_hand"), "**Mes tuiles**", "**Ma main**"),
    ],
)
def test_a_text_naming_another_button_is_found(
    lang: str, key: tuple[str, str], old: str, new: str
) -> None:
    planted = texts(lang)
    assert any(old in form for form in planted[key])
    planted[key] = tuple(form.replace(old, new) for form in planted[key])
    assert problems(lang, planted) != []
