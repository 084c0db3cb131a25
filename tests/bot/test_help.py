"""``/carcassonne help`` per game family: its own example turn and a legend of every mark in it.

The legend is read off the drawing (:mod:`renderer.marks`): the marks noted while the example
turn is drawn are exactly the legend's entries, every one has words in English, French and
German, and a mark drawn with no words makes the picture fail, so a new mark cannot go
unexplained. The rules the help states are checked against the rulebook where they were wrong
(the barn).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
import simcord
from conftest_ui import Table, assert_png, simcord_bot

import catalogs
from bot.ui import help_ui
from renderer import marks, phone
from renderer.help import help_picture
from renderer.legend import MissingLegend, entries
from renderer.options import RenderOptions
from renderer.phone import TileCard

__all__ = ["simcord_bot"]

BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
CASES = [
    ("carcassonne", ()),
    ("carcassonne", ("abbey_mayor",)),
    ("carcassonne", ("inns_cathedrals",)),
    ("carcassonne", ("traders_builders",)),
    ("carcassonne", ("river",)),
    ("carcassonne", BIG_BOX),
    ("hunters", ()),
    ("castle", ()),
]
#: What each family's example must show at least: the marks a player meets on every turn.
EVERY_TURN = {"letter", "last", "to_move", "seat:0", "seat:1"}
#: The figures (as drawn, in the picture or its players' table) each example must explain.
FIGURES = {
    ("carcassonne", ()): {"figure:follower"},
    ("carcassonne", ("abbey_mayor",)): {"figure:mayor", "figure:wagon", "figure:barn", "abbey"},
    ("carcassonne", ("inns_cathedrals",)): {"figure:large_follower"},
    ("carcassonne", ("traders_builders",)): {
        "figure:builder",
        "figure:pig",
        "goods:wine",
        "goods:grain",
        "goods:cloth",
    },
    ("carcassonne", ("river",)): {"figure:follower"},
    ("carcassonne", BIG_BOX): {"figure:large_follower", "figure:mayor", "goods:cloth"},
    ("hunters", ()): {"figure:man", "figure:hut"},
    ("castle", ()): {"marker", "palace", "wall_tile", "figure:subject"},
}


def drawn(kind: str, expansions: tuple[str, ...], lang: str = "en") -> tuple[Any, Any, set[str]]:
    """The help's example game, its picture with the legend, and the marks its turn picture
    noted as it drew them (drawn again on its own, outside the help)."""
    game, candidates, card = help_ui.demo_game(lang, kind, expansions)
    options = RenderOptions(lang=lang, dead_squares=True)
    with marks.noting() as seen:
        phone.turn_picture(game, options, candidates=candidates, card=card)
    picture, legend = help_picture(game, options, candidates=candidates, card=card)
    return game, (picture, legend), seen


@pytest.mark.parametrize(("kind", "expansions"), CASES, ids=lambda v: str(v) or "base")
def test_each_family_has_its_own_example_and_a_legend_of_every_mark_it_draws(
    kind: str, expansions: tuple[str, ...]
) -> None:
    game, (picture, legend), seen = drawn(kind, expansions)
    assert game.setup.game == kind and tuple(game.setup.expansions) == expansions
    assert {e.mark for e in legend} == seen, "the legend explains exactly what is drawn"
    assert seen >= EVERY_TURN | FIGURES[(kind, expansions)], sorted(seen)
    # Legible on a phone (400 px wide): every sample mark at least 10 px there.
    for entry in legend:
        box = entry.sample.getbbox()
        assert box is not None
        assert max(box[2] - box[0], box[3] - box[1]) * 400 / picture.image.width >= 10, entry
    # Each player's own line names them.
    for seat, name in enumerate(game.setup.players):
        line = next(e.words for e in legend if e.mark == f"seat:{seat}")
        assert name in line


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_legend_is_written_in_each_language(lang: str) -> None:
    game, _, seen = drawn("carcassonne", BIG_BOX, lang)
    english = {e.mark: e.words for e in entries(seen, "carcassonne", game.setup.players, "en")}
    for entry in entries(seen, "carcassonne", game.setup.players, lang):
        assert entry.words and entry.words != english[entry.mark], entry
    castle, _, castle_seen = drawn("castle", (), lang)
    for entry in entries(castle_seen, "castle", castle.setup.players, lang):
        assert entry.words, entry


def test_a_mark_drawn_with_no_words_fails_the_help_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    """A drawing that starts drawing a new mark: the help's picture refuses to leave it out."""
    game, candidates, card = help_ui.demo_game("en")
    table = phone.players_table

    def with_a_new_mark(*args: Any, **kwargs: Any) -> Any:
        marks.used("figure:dragon")
        return table(*args, **kwargs)

    monkeypatch.setattr(phone, "players_table", with_a_new_mark)
    with pytest.raises(MissingLegend, match="figure:dragon"):
        help_picture(game, RenderOptions(lang="en"), candidates=candidates, card=card)
    assert not catalogs.has("legend", "figure_dragon")


def test_an_example_card_shows_the_tile_to_place() -> None:
    _, candidates, card = help_ui.demo_game("en", "castle")
    assert isinstance(card, TileCard) and candidates, "a tile to place, lettered squares"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


async def help_picture_of(env: simcord.Env, actor: Any, where: Any, **options: Any) -> bytes:
    result = await actor.slash(where, "carcassonne help", **options)
    messages = [m for m in [result.response, *result.followups] if m is not None]
    return assert_png(env, next(m for m in messages if m.attachments))


async def test_the_help_shows_the_picture_of_the_game_it_is_asked_about(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a game's thread, that family's picture (Carcassonne with its expansions); elsewhere the
    base game's, or the family the ``game`` option names."""
    monkeypatch.setattr(help_ui, "_PICTURES", {})
    table = Table(simcord_env)
    alice = table.players[0]
    base = await help_picture_of(simcord_env, alice, table.channel)
    assert base == await help_ui.demo_png("en")
    castle = await help_picture_of(simcord_env, alice, table.channel, game="castle")
    assert castle == await help_ui.demo_png("en", "castle")
    await table.new(game="hunters")
    hunters = await help_picture_of(simcord_env, alice, table.thread())
    assert hunters == await help_ui.demo_png("en", "hunters")
    await table.new(expansion="abbey_mayor")
    abbey = await help_picture_of(simcord_env, alice, table.thread())
    assert abbey == await help_ui.demo_png("en", "carcassonne", ("abbey_mayor",))
    assert len({sha(p) for p in (base, castle, hunters, abbey)}) == 4


BARN = {
    "en": ("farmers score for their owners at once", "4 per completed city"),
    "fr": ("paysans de ce pré marquent aussitôt pour leurs propriétaires", "4 par ville achevée"),
    "de": ("Bauern dieser Wiese werten sofort für ihre Besitzer", "4 pro fertiger Stadt"),
}


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_barn_rule_as_the_rulebook_states_it(lang: str) -> None:
    """The fields' farmers score for their owners when the barn comes; the barn scores 4 per
    city at the end (it was said to score the field's cities for its owner at once)."""
    help_text = catalogs.text("help", "abbey_mayor.2.text", lang)
    rules = catalogs.text("rules", "abbey_mayor", lang)
    now, end = BARN[lang]
    assert now in help_text and end in help_text
    assert now in rules and end in rules
    assert "scores that field's cities for you" not in help_text
