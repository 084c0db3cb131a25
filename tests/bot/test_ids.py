"""Component ids: every kind reads back what it writes, reads the ids earlier releases sent, and
is the only place in the bot that writes one."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ui import components, ids
from bot.ui.leagues.league_commands import ChallengeButton
from bot.ui.live_board import LiveBoardButton
from bot.ui.privacy import ForgetButton
from bot.ui.timing.chess_clock import PauseButton
from bot.ui.tournaments.tournament_commands import TournamentButton
from bot.ui.turn.abandon import AbandonButton
from bot.ui.turn.undo import UndoButton
from bot.ui.watching.follow import FollowButton

ROOT = Path(__file__).parents[2]
KINDS = sorted(ids.KINDS.values(), key=lambda k: k.__name__)

#: Each codec's domain: what a field typed with it may hold.
NO_COLON = st.characters(blacklist_characters=":")
DOMAINS: dict[str, st.SearchStrategy[Any]] = {
    "nat": st.integers(min_value=0, max_value=2**63),
    "int": st.integers(min_value=-(2**31), max_value=2**31),
    "token": st.text(NO_COLON, min_size=1, max_size=12),
    "empty_or_token": st.text(NO_COLON, max_size=12),
    "word": st.from_regex(r"[a-z_]+", fullmatch=True),
    "rotation": st.sampled_from(["0", "90", "180", "270", "a", "e", "c", "w", "n"]),
    "hole": st.sampled_from(["a", "e"]),
    "lobby_op": st.sampled_from(ids.LOBBY_OPS),
    "yes_no": st.booleans(),
    "wall_phase": st.sampled_from(sorted(ids.WALL_PHASES.values())),
    "tournament_op": st.sampled_from(ids.TOURNAMENT_OPS),
}


def codec_of(kind: type[ids.ComponentId], field: str) -> ids.Codec:
    hint = typing.get_type_hints(kind, include_extras=True)[field]
    return next(m for m in hint.__metadata__ if isinstance(m, ids.Codec))


def values(kind: type[ids.ComponentId]) -> st.SearchStrategy[ids.ComponentId]:
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for field in dataclasses.fields(kind):
        domain = DOMAINS[codec_of(kind, field.name).name]
        optional = field.default is None
        fields[field.name] = st.none() | domain if optional else domain
    return st.builds(kind, **fields)


def test_every_codec_has_a_domain() -> None:
    used = {codec_of(k, f.name).name for k in KINDS for f in dataclasses.fields(k)}
    assert used == DOMAINS.keys()


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
@given(data=st.data())
def test_each_kind_reads_back_what_it_writes(kind: type[ids.ComponentId], data: Any) -> None:
    value = data.draw(values(kind))
    text = value.encode()
    assert ids.decode(text) == value
    assert kind.decode(text) == value
    assert kind.PATTERN.fullmatch(text)
    assert ids.template([kind]).fullmatch(text)
    for other in KINDS:  # an id of one kind is never read as another
        if other is not kind:
            assert other.decode(text) is None, other
            assert not ids.template([other]).fullmatch(text), other


#: One id of each kind as the bot sends it today (from tests/bot/data/golden and the UI tests),
#: or as an earlier release sent it (the kinds still answered for messages already posted).
SENT: dict[str, ids.ComponentId] = {
    "cc:forget:0:712345678901234567:yes": ids.ForgetAnswer(0, 712345678901234567, True),
    "cc:put:1:0:0:-": ids.PutMenu(1, 0, 0, "-"),
    "cc:put:1:11:0:h": ids.PutMenu(1, 11, 0, "h"),
    "cc:pl:1:0:1:0:90:-:": ids.PlaceStep(1, 0, 1, 0, "90", "-"),
    "cc:pl:1:0:1:0:0:-:p2": ids.PlaceStep(1, 0, 1, 0, "0", "-", "p2"),
    "cc:ok:1:0:0:-1:180:E:follower.6": ids.Confirm(1, 0, 0, -1, "180", "E", "follower.6"),
    "cc:ok:1:0:0:1:0:-:none": ids.Confirm(1, 0, 0, 1, "0", "-", "none"),
    "cc:ok:1:7:0:0:w:-:back": ids.Confirm(1, 7, 0, 0, "w", "-", "back"),
    "cc:ok:1:13:0:0:n:-:none": ids.Confirm(1, 13, 0, 0, "n", "-", "none"),
    "cc:fs:1:3:3:1:0:-": ids.FigureMenu(1, 3, 3, 1, "0", "-"),
    "cc:hole:1:12:e": ids.HoleMenu(1, 12, "e"),
    "cc:hole:4:2:a": ids.HoleMenu(4, 2, "a"),
    "cc:fig:1:8": ids.ChooseFigure(1, 8),
    "cc:wag:1:11": ids.WagonMenu(1, 11),
    "cc:hand:1:10": ids.ShowHand(1, 10),
    "cc:more:3:40": ids.MoreSquares(3, 40),
    "cc:wall:1:6:t": ids.WallStep(1, 6, "tile"),
    "cc:wall:1:8:f": ids.WallStep(1, 8, "figure"),
    "cc:wsel:1:8:f": ids.WallMenu(1, 8, "figure"),
    "cc:wok:1:8:f:-": ids.WallConfirm(1, 8, "figure", "-"),
    "cc:wok:1:8:f:1": ids.WallConfirm(1, 8, "figure", "1"),
    "cc:wok:2:5:t:2,3,-1,0": ids.WallConfirm(2, 5, "tile", "2,3,-1,0"),
    "cc:wend:1:6": ids.EndTurn(1, 6),
    "cc:lobby:1:join": ids.LobbyOp(1, "join"),
    "cc:lobby:1:computer": ids.LobbyOp(1, "computer"),
    "cc:lopt:1:small_city": ids.LobbyMenu(1, "small_city"),
    "cc:lopt:1:computer_add": ids.LobbyMenu(1, "computer_add"),
    "cc:lopt:7:seat_to:1456074443980800008": ids.LobbyMenu(7, "seat_to", 1456074443980800008),
    "cc:undo:2:0:no": ids.UndoAnswer(2, 0, False),
    "cc:undo:2:31:yes": ids.UndoAnswer(2, 31, True),
    "cc:abandon:5:yes": ids.AbandonAnswer(5, True),
    "cc:pause:5:no": ids.PauseAnswer(5, False),
    "cc:follow:3:1456074443980800011:no": ids.FollowAnswer(3, 1456074443980800011, False),
    "lg:ch:9:yes": ids.ChallengeAnswer(9, True),
    "tn:op:3:signup": ids.TournamentOp(3, "signup"),
    "tn:op:3:checkin": ids.TournamentOp(3, "checkin"),
    "cc:live:3": ids.LiveBoard(3),
    # Earlier releases: squares-only menus, Play my abbey, a hand's tile buttons, and the
    # No figure button of the first step (a rotation button with a choice).
    "cc:cell:1:4:0:-": ids.SquareMenu(1, 4, 0, "-"),
    "cc:abbey:1:4": ids.AbbeyHoles(1, 4),
    "cc:tile:1:4:RA": ids.HandTile(1, 4, "RA"),
    "cc:pl:1:4:0:1:270:-:none": ids.PlaceStep(1, 4, 0, 1, "270", "-", "none"),
}


@pytest.mark.parametrize("text", SENT)
def test_ids_sent_before_still_read(text: str) -> None:
    assert ids.decode(text) == SENT[text]
    assert SENT[text].encode() == text


def test_every_kind_has_an_example_sent() -> None:
    assert {type(v) for v in SENT.values()} == set(KINDS)


def test_every_id_in_the_golden_records_reads_back() -> None:
    """Every component id of the recorded games decodes and is written again byte for byte."""
    found: set[str] = set()
    for path in (ROOT / "tests" / "bot" / "data" / "golden").glob("*.json"):
        found |= set(re.findall(r'"custom_id": "([^"]*)"', path.read_text()))
    assert len(found) > 500
    for text in found:
        value = ids.decode(text)
        assert value is not None, text
        assert value.encode() == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "cc:",
        "cc:ok:1:2",
        "cc:ok:1:2:3:4:45:-:none",  # no such rotation
        "cc:ok:1:2:3:4:90:-:",  # a confirm names its choice
        "cc:ok:1:2:3:4:90:-:none:x",
        "cc:pl:1:2:3:4:90:-",
        "cc:hand:1:2:3",
        "cc:hand:-1:2",
        "cc:hand:\u0661:2",  # digits are ASCII
        "cc:lobby:1:dance",
        "cc:lopt:1:Colour",
        "cc:wall:1:2:x",
        "cc:undo:1:2:maybe",
        "cc:endno:1:2",
        "lg:ch:1:yes:no",
        "tn:op:1:dance",
        "xx:ok:1:2:3:4:90:-:none",
    ],
)
def test_other_text_is_no_id(text: str) -> None:
    assert ids.decode(text) is None


def test_a_value_that_would_not_read_back_is_never_written() -> None:
    for bad in (
        ids.Confirm(1, 2, 3, 4, "45", "-", "none"),
        ids.Confirm(1, 2, 3, 4, "90", "a:b", "none"),
        ids.ShowHand(-1, 2),
        ids.WallStep(1, 2, "t"),
        ids.LobbyOp(1, "dance"),
    ):
        with pytest.raises(ValueError):
            bad.encode()


def test_every_kind_is_answered_once() -> None:
    """Each id is matched by the template of exactly one persistent component, whose answer is
    registered (the turn's and the lobby's through ``components.handles``)."""
    import bot.ui.lobby.lobby_ui
    import bot.ui.turn.castle.turn
    import bot.ui.turn.flow  # noqa: F401

    items: list[type[discord.ui.DynamicItem[Any]]] = [
        *components.DYNAMIC_ITEMS,
        UndoButton,
        AbandonButton,
        PauseButton,
        FollowButton,
        ChallengeButton,
        ForgetButton,
        LiveBoardButton,
        TournamentButton,
    ]
    answered = {*components.BUTTON_KINDS, *components.MENU_KINDS, ids.LobbyOp, ids.LobbyMenu}
    for text, value in SENT.items():
        matching = [i for i in items if i.__discord_ui_compiled_template__.fullmatch(text)]
        assert len(matching) == 1, (text, matching)
        if type(value) in answered:
            components.handler(type(value))  # raises if nothing answers it
        else:
            assert issubclass(matching[0], components.IdButton), text
            assert matching[0].kind is type(value)


def test_no_id_is_written_outside_the_id_module() -> None:
    """The id prefixes appear in the bot's source only where the layouts are."""
    prefix = re.compile(r"""[fr]?["'](cc|lg|tn):""")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path != ROOT / "bot" / "ui" / "ids.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if prefix.search(line)
    ]
    assert not found, f"custom ids written by hand: {found}"
