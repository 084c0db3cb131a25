"""Every family and expansion played to its end on the live board, in Debian's Chromium.

A game of two is opened on simcord (the real bot core on a fake Discord) with a short forced
draw; each player has their own tab, and every decision of the game is played through the page
alone: a hand tile picked, a lit square (or an abbey's hole) tapped, the tile turned by a tap
again or by its rotation buttons, then a silhouette (a role from its list when a place offers
several) or No figure; a wagon's letter, a wall tile, the pass button. The choices are random
among what the page's ``you`` offers, with a fixed seed. At the end the board's final scores are
the engine's, those of the final table announced in the thread, and those of the stored record
replayed; and each expansion was met on the way.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord
from board_input import FREE_POINT, tap
from conftest_ui import Table, shown, simcord_bot
from test_activity_play import choose, choose_figure, seen_in
from test_live_board_browser import (
    Live,
    browser,
    close_tabs,
    on_tab,
    open_tab,
    run,
    served,
    state,
    wait_for,
)

from engine.cli import replay_output

__all__ = ["browser", "simcord_bot"]  # the fixtures this module uses


@dataclass(frozen=True)
class Family:
    name: str
    draw: str
    #: The options of ``/carcassonne new``.
    options: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)
    #: What the game must show and take (``seen_in`` of the socket tests, and ``figure:ROLE``).
    expect: frozenset[str] = frozenset()
    rng: int = 0


FAMILIES = [
    Family(
        "base",
        "D U V E K B L J A N W",
        {"expansion": "none"},
        expect=frozenset({"figure:follower", "no_figure", "turned_by_tap", "turned_by_button"}),
        rng=2,
    ),
    Family(
        "abbey_mayor_hand",
        "D W X V U W L AM05 V K J AM11 U",
        {"expansion": "abbey_mayor", "hand": True},
        expect=frozenset(
            {"hand", "picked_in_panel", "holes", "abbey", "wagon", "pass"}
            | {"figure:mayor", "figure:barn", "figure:wagon"}
        ),
    ),
    Family(
        "inns_traders",
        "D U V TB20 IC11 IC13 E TB16 IC01 V U TB24 V IC05",
        {"expansion": "inns_cathedrals+traders_builders"},
        expect=frozenset(
            {"bonus_builder", "figure:builder", "figure:large_follower", "figure:pig"}
        ),
        rng=35,
    ),
    Family(
        "river",
        "R01 R07 R04 R10 R05 R03 R02 D U E V K",
        {"expansion": "river"},
        expect=frozenset({"tile:R04", "tile:R10", "figure:follower", "no_figure"}),
    ),
    Family(
        "hunters",
        "S L34 L33 L33 L32 L31 L53 L13 L54 L07 L25 L46",
        {"game": "hunters"},
        extra={"bonus_draw": ["B01", "B04", "B07"]},
        expect=frozenset({"bonus_gold", "figure:hut", "figure:man"}),
    ),
    Family(
        "castle",
        "K02 K22 K07 K08 K07 K17 K09 K26 K01 K30 K40 K45 K27 K21",
        {"game": "castle"},
        extra={"wall_draw": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]},
        expect=frozenset({"walls", "wall", "figure:subject", "no_figure"}),
        rng=26,
    ),
]


@pytest.fixture
async def duo(simcord_env: simcord.Env) -> AsyncIterator[Live]:
    """Alice and Bob on simcord, the live board served for them, the fake Discord."""
    async with served(simcord_env, 2) as found:
        yield found


async def forced_game(table: Table, family: Family, seed: int = 5) -> int:
    """Alice opens the lobby with the family's options, Bob joins, the draw is forced on the
    lobby, Alice starts."""
    alice, bob = table.players
    await alice.slash(table.channel, "carcassonne new", **family.options)
    lobby = table.channel.last_message
    assert lobby is not None
    game_id = int(re.search(r"\d+", lobby.embeds[0].title or "")[0])  # type: ignore[index]
    await bob.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
    manager = table.bot.manager
    row = await manager.game(game_id)
    extra = {"draw": family.draw.split(), **family.extra}
    await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    manager.seeds = lambda: seed
    await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
    return game_id


# -- the page, read and tapped ----------------------------------------------------------------

#: The silhouettes shown: the place's spot, its one figure (empty when it lists several).
SPOTS = """
return [...document.querySelectorAll('#marks .place > .spot')].map((e) => ({
  at: Number(e.parentElement.dataset.at), figure: e.dataset.figure,
  several: e.classList.contains('several')}));
"""
#: The figures listed by the place open.
CHOICES = """
return [...document.querySelectorAll('#marks .choices .choice')].map((e) => e.dataset.figure);
"""


async def click(driver: Any, selector: str) -> None:
    element = await run(driver.find_element, "css selector", selector)
    await run(element.click)


async def tap_square(driver: Any, x: int, y: int) -> None:
    """A tap on square (x, y) where nothing covers the board."""
    point = await run(driver.execute_script, FREE_POINT, x, y)
    assert point is not None, f"square {x},{y} cannot be tapped"
    await run(tap, driver, point)


Shown = Callable[[dict[str, Any]], bool]


def menu_open(at: int) -> Shown:
    """Whether the page lists the figures of the place at ``at``."""
    return lambda shown: shown.get("menu") == str(at)


def next_look(look: dict[str, Any]) -> Shown:
    """Whether the page answers another look than ``look`` with its step."""
    return lambda shown: shown.get("pending") != look and shown.get("step") is not None


def at_version(version: int) -> Shown:
    """Whether the page shows the board at ``version``."""
    return lambda shown: shown.get("version") == version


def offered(version: int) -> Shown:
    """Whether the page offers its player the decision at ``version``."""
    return lambda shown: shown.get("version") == version and bool(shown.get("you"))


def past(version: int) -> Shown:
    """Whether the page shows a later board than ``version``, nothing on its way."""
    return lambda shown: (shown.get("version") or 0) > version and not shown["sending"]


def spot(at: int) -> str:
    return f'#marks .place[data-at="{at}"] > .spot'


async def places_offered(driver: Any) -> list[dict[str, Any]]:
    """The places the page shows, as a step's PLACEs (``at`` and its ``choices``' figures): a
    place listing several is opened to read them, and closed again."""
    places = []
    for found in await run(driver.execute_script, SPOTS):
        figures = [found["figure"]]
        if found["several"]:
            await click(driver, spot(found["at"]))
            await wait_for(driver, menu_open(found["at"]))
            figures = await run(driver.execute_script, CHOICES)
            await click(driver, spot(found["at"]))
            await wait_for(driver, lambda s: s.get("menu") is None)
        places.append({"at": found["at"], "choices": [{"figure": f} for f in figures]})
    return places


async def play_figure(driver: Any, chosen: dict[str, Any] | None, places: list[Any]) -> None:
    """A tap on the chosen figure's silhouette (and its role in the list), or No figure."""
    if chosen is None:
        await click(driver, "#no-figure")
        return
    place = next(p for p in places if p["at"] == chosen["at"])
    await click(driver, spot(chosen["at"]))
    if len(place["choices"]) > 1:
        await wait_for(driver, lambda s: s.get("menu") == str(chosen["at"]))
        await click(driver, f'#marks .choices .choice[data-figure="{chosen["figure"]}"]')


async def place_first(
    driver: Any, you: dict[str, Any], first: dict[str, Any], how: Any, seen: set[str]
) -> None:
    """The tile (or abbey) ``first`` tried through the page: its hand tile picked, its square
    tapped, then turned to its rotation by tapping again or by the rotation buttons; until the
    page shows the step that answers it."""
    x, y = first["x"], first["y"]
    if not first.get("abbey") and len(you["tiles"]) > 1:
        k = next(i for i, t in enumerate(you["tiles"]) if t["tile"] == first["tile"])
        selector = f'#tray .pick[data-index="{k}"]'
        if how.random() < 0.3:
            seen.add("picked_in_panel")
            selector = f'#hand .pickable[data-kind="{first["tile"]}"]'
        await click(driver, selector)
        await wait_for(driver, lambda s: s.get("pick") == k)
    shown_state = await state(driver)
    assert [x, y, "hole" if first.get("abbey") else "square"] in shown_state["lit"] or (
        first.get("abbey") and [x, y, "square"] in shown_state["lit"]
    ), (first, shown_state["lit"])
    await tap_square(driver, x, y)
    looks = await wait_for(driver, lambda s: s.get("pending") and s.get("step") is not None)
    if looks["pending"] == first:
        return
    if how.random() < 0.5:
        seen.add("turned_by_button")
        look = "abbey" if first.get("abbey") else str(first["rotation"])
        await click(driver, f'#marks .looks .look[data-look="{look}"]')
    else:
        seen.add("turned_by_tap")
        for _ in range(8):  # each tap on the tile tried shows its next look
            await tap_square(driver, x, y)
            looks = await wait_for(driver, next_look(looks["pending"]))
            if looks["pending"] == first:
                break
    await wait_for(driver, lambda s: s.get("pending") == first and s.get("step") is not None)


async def play_through_the_page(
    driver: Any, you: dict[str, Any], rng: random.Random, how: random.Random, seen: set[str]
) -> None:
    """Play whatever ``you`` offers with the page's own taps: a random choice among its tiles
    and squares and rotations, the abbey's holes, the figures of a figure phase, a wagon's
    targets, wall tiles and the pass (``rng``: what is chosen; ``how``: which taps get there)."""
    kind, value = choose(you, rng)
    seen |= seen_in(you, kind, value)
    if kind == "first":
        seen.add("tile:" + value.get("tile", "abbey"))
        await place_first(driver, you, value, how, seen)
        places = await places_offered(driver)
        figure = choose_figure({"places": places}, rng)
        seen.add("no_figure" if figure is None else "figure:" + figure["figure"])
        await play_figure(driver, figure, places)
    elif kind == "figure":
        places = await places_offered(driver)
        seen.add("figure:" + value["figure"])
        await play_figure(driver, value, places)
    elif kind == "wagon":
        await click(driver, f'#marks .wagon-target[data-value="{value}"]')
    elif kind == "wall":
        await click(driver, f'#actions .wall[data-value="{value}"]')
    else:
        await click(driver, "#pass")


def final_table(messages: list[Any]) -> dict[str, int]:
    """The scores of the final table announced last in the thread: name → score."""
    for message in reversed(messages):
        text = shown(message)
        if "Final scores" in text:
            rows = re.findall(r"^(?:\d+\.|-) (\S+)(?: 🏆)? · (\d+)", text, re.MULTILINE)
            return {name: int(score) for name, score in rows}
    raise AssertionError("no final table in the thread")


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
async def test_both_players_play_a_whole_game_on_the_board(
    duo: Live, browser: Any, family: Family
) -> None:
    table = duo.table
    manager = table.bot.manager
    game_id = await forced_game(table, family)
    thread = table.thread()
    rng, how = random.Random(family.rng), random.Random(family.rng + 1000)
    seen: set[str] = set()
    try:
        tabs = {}
        for k, member in enumerate(table.players):
            tabs[member.id] = await open_tab(browser, duo.address(member, thread), first=k == 0)
        game = await manager.engine_copy(game_id)
        moves = 0
        while not game.finished:
            version = len(game.actions)
            mover = (await manager.decision(game_id)).user_id
            assert mover is not None
            for user, tab in tabs.items():
                if user != mover:  # the other player's board: the same board, nothing to do
                    await on_tab(browser, tab)
                    waiting = await wait_for(browser, at_version(version))
                    assert waiting["you"] is None and waiting["lit"] == [], waiting
            await on_tab(browser, tabs[mover])
            shown_state = await wait_for(
                browser,
                offered(version),
            )
            you = shown_state["you"]
            assert (you["version"], you["turn"], you["phase"]) == (
                version,
                game.decision.turn,
                game.decision.phase.value,
            )
            assert shown_state["turnSeat"] == game.decision.player
            await play_through_the_page(browser, you, rng, how, seen)
            played = await wait_for(browser, past(version))
            assert played["sentPlays"] >= 1 and played["error"] is None, played
            moves += 1
            game = await manager.engine_copy(game_id)
            assert played["version"] == len(game.actions)
        scores = list(game.scores)
        for member in table.players:
            await on_tab(browser, tabs[member.id])
            end = await wait_for(browser, lambda s: s.get("final") is not None)
            assert end["final"] == scores and end["you"] is None
        # The announcement of the last board move posts the final table.
        names = [p.name for p in table.players]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                told = final_table(thread.history())
                break
            except AssertionError:
                await asyncio.sleep(0.05)
        else:
            told = final_table(thread.history())
        seats = game.setup.players
        assert sorted(told) == sorted(names)
        assert [told[name] for name in seats] == scores, (told, seats, scores)
        status, replayed = replay_output(await manager.records.full_record(game_id))
        assert status == 0 and replayed["finished"], replayed
        assert [replayed["scores"][name] for name in seats] == scores
        row = await manager.game(game_id)
        assert row.status == "finished" and row.result is not None
        assert row.result["scores"] == scores
        assert moves >= 8
        assert family.expect <= seen, (family.expect - seen, seen)
    finally:
        await close_tabs(browser)
