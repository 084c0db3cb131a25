"""The viewer page in a real browser: Debian's Chromium, driven by its chromedriver (Selenium).

The standalone page (a file, the game embedded) and the hosted page (served on loopback, the
game in the URL fragment) are walked turn by turn: the slider, the scores and the numbers of
tiles and figures on the board must be the engine's at every turn; the decoder must read the
200 random games of the codec's test exactly as the encoder wrote them; a bad link must show a
message. ``scripts/test`` installs Chromium; without it the tests skip, except in CI, where
they fail.
"""

from __future__ import annotations

import functools
import http.server
import os
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer_helpers import as_decoded, bigbox_records, engine_frames, mixed_records

from benchmarks import chromium
from engine import Game, Setup
from engine.cli import play_random
from renderer.viewer import codec
from renderer.viewer.page import hosted_page, link, standalone_page
from renderer.viewer.turns import game_turns

#: One game per family and rule set, as the viewer must show them.
FAMILIES: dict[str, dict[str, Any]] = {
    "base-2p-hand": {"players": 2, "options": {"hand": True, "farmers": "modern"}},
    "abbey-mayor-6p": {"players": 6, "expansions": ("abbey_mayor",)},
    "hunters-5p": {"players": 5, "game": "hunters"},
    "castle": {"players": 2, "game": "castle"},
    "big-box-4p": {
        "players": 4,
        "expansions": ("abbey_mayor", "inns_cathedrals", "river", "traders_builders"),
    },
}
#: What the page shows of the frame it is on, read from its DOM.
READ_FRAME = """
const board = document.getElementById("board");
return {
  slider: Number(document.getElementById("slider").value),
  label: document.getElementById("turn-label").textContent,
  tiles: board.querySelectorAll(".tile").length,
  figures: board.querySelectorAll(".fig").length,
  scores: [...document.querySelectorAll("#players li .score")].map((e) => Number(e.textContent)),
  names: [...document.querySelectorAll("#players li .name")].map((e) => e.textContent),
  goods: [...document.querySelectorAll("#players li")].map((li) =>
    [...li.querySelectorAll(".good b")].map((e) => Number(e.textContent))
  ),
};
"""


def a_record(seed: int, players: int, **setup: Any) -> dict[str, Any]:
    names = ("Ann", "Björn", "Chloé", "Dev", "Eun-ji", "Femi")[:players]
    game = Game(Setup(players=names, seed=seed, **setup))
    play_random(game, random.Random(seed))
    return game.record()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = chromium.missing()
    if missing:
        message = (
            f"{', '.join(missing)} missing: the viewer's browser tests need Debian's chromium and "
            "chromium-driver (bash scripts/test installs them as root: apt-get install chromium "
            "chromium-driver)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with chromium.chromium("viewer", 1200, 900) as driver:
        yield driver


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The hosted page, served on loopback by a static file server: (its address, folder)."""
    folder = tmp_path_factory.mktemp("viewer-site")
    (folder / "viewer.html").write_text(hosted_page("en"), "utf-8")
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/viewer.html", folder
    finally:
        server.shutdown()
        server.server_close()


def viewer_state(driver: Any, seconds: float = 10.0) -> dict[str, Any]:
    """The page's state once its script has set it (on a loaded machine that can come a little
    after the load event, when the page's code runs from a link's fragment)."""
    end = time.monotonic() + seconds
    while True:
        state = driver.execute_script("return window.viewerState")
        if state is not None or time.monotonic() > end:
            assert state is not None, "the viewer never set its state"
            return dict(state)
        time.sleep(0.05)


def walk(driver: Any, record: dict[str, Any]) -> None:
    """Step through every frame with the page's own buttons, checking each against the engine."""
    expected = engine_frames(record)
    state = viewer_state(driver)
    assert state.get("error") is None, state
    assert state["frames"] == len(expected)
    driver.execute_script("document.getElementById('first').click()")
    for index, frame in enumerate(expected):
        if index:
            driver.execute_script("document.getElementById('next').click()")
        shown = driver.execute_script(READ_FRAME)
        assert shown["slider"] == index
        assert shown["scores"] == frame["scores"], (index, shown["label"])
        assert (shown["tiles"], shown["figures"]) == (frame["tiles"], frame["figures"]), index
        # Traders & Builders: each player's wine, grain and cloth tokens; none shown otherwise.
        assert shown["goods"] == (frame["goods"] or [[] for _ in shown["goods"]]), index
    assert shown["names"] == list(record["players"])


@pytest.mark.parametrize("family", FAMILIES)
def test_the_standalone_page_shows_every_turn_as_the_engine_plays_it(
    browser: Any, tmp_path: Path, family: str
) -> None:
    record = a_record(5, **FAMILIES[family])
    page = tmp_path / f"{family}.html"
    page.write_text(standalone_page(record, "en"), "utf-8")
    browser.get(page.as_uri())
    walk(browser, record)
    label = browser.find_element("id", "turn-label").text
    assert label.startswith("Final scoring")


@pytest.mark.parametrize("family", ["abbey-mayor-6p", "hunters-5p", "castle", "big-box-4p"])
def test_the_hosted_page_reads_the_game_from_its_link(
    browser: Any, site: tuple[str, Path], family: str
) -> None:
    record = a_record(11, **FAMILIES[family])
    code = codec.encode(game_turns(record))
    browser.get(f"{site[0]}#{code}")
    walk(browser, record)
    # The keyboard moves through the turns too.
    body = browser.find_element("tag name", "body")
    body.send_keys("\ue011")  # Home
    body.send_keys("\ue014")  # Arrow right
    assert browser.execute_script(READ_FRAME)["slider"] == 1


def test_the_decoder_reads_random_and_big_box_games_as_the_encoder_wrote_them(
    browser: Any, site: tuple[str, Path]
) -> None:
    browser.get(site[0])
    for record in mixed_records() + bigbox_records():
        turns = game_turns(record)
        decoded = browser.execute_script(
            "return window.viewerDecode(arguments[0])", codec.encode(turns)
        )
        assert decoded == as_decoded(turns), record.get("seed")
    for record in bigbox_records():
        # The goods tokens the page derives from the tiles, turn by turn, are the engine's.
        turns = game_turns(record)
        expected = [frame["goods"] for frame in engine_frames(record)[: len(turns.turns)]]
        goods = browser.execute_script(
            "return window.viewerGoods(arguments[0])", codec.encode(turns)
        )
        assert goods == (None if expected[0] is None else expected), record.get("seed")


def error_of(browser: Any, url: str) -> str:
    browser.get("about:blank")
    browser.get(url)
    error = browser.find_element("id", "error")
    assert not browser.find_element("id", "viewer").is_displayed()
    return str(error.text) if error.is_displayed() else ""


def test_a_bad_link_shows_what_is_wrong(browser: Any, site: tuple[str, Path]) -> None:
    url = site[0]
    code = codec.encode(game_turns(mixed_records()[1]))
    assert "Open it with the bot's “Open in the browser” button" in error_of(browser, url)
    assert "damaged or incomplete" in error_of(browser, f"{url}#{code[:-7]}")
    assert "damaged or incomplete" in error_of(browser, f"{url}#{code[:3]}not*a+code")
    assert "damaged or incomplete" in error_of(browser, f"{url}#{code[:-1]}")
    assert "damaged or incomplete" in error_of(browser, f"{url}#{code}A")
    other = codec.ALPHABET[codec.VERSION + 1] + code[1:]
    assert "another version of the viewer" in error_of(browser, f"{url}#{other}")


def test_a_link_made_with_other_tables_says_so(
    browser: Any, site: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = (codec.checksum() + 1) % codec.CHECK_SPACE
    monkeypatch.setattr(codec, "checksum", lambda: other)
    code = codec.encode(game_turns(mixed_records()[2]))
    assert "another version of the viewer" in error_of(browser, f"{site[0]}#{code}")


def test_a_link_made_before_the_tile_art_was_redrawn_still_opens(
    browser: Any, site: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = bigbox_records()[0]
    monkeypatch.setattr(codec, "checksum", lambda: codec.EARLIER[0])
    code = codec.encode(game_turns(record))
    browser.get("about:blank")
    browser.get(f"{site[0]}#{code}")
    walk(browser, record)


def test_a_game_without_turns_is_one_still_frame(browser: Any, tmp_path: Path) -> None:
    record = Game(Setup(players=("Ann", "Bo"), seed=1)).record()
    page = tmp_path / "start.html"
    page.write_text(standalone_page(record, "fr"), "utf-8")
    browser.get(page.as_uri())
    state = viewer_state(browser)
    assert (state["frames"], state["tiles"], state["figures"]) == (1, 1, 0)
    assert browser.find_element("id", "turn-label").text == "Début"
    assert not browser.find_element("id", "play").is_enabled()


def test_the_page_reads_on_a_desktop_and_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """Screenshots to look at (left in the test's folder); the page fits a phone's width and
    its words and scores stay readable there."""
    record = a_record(7, **FAMILIES["abbey-mayor-6p"])
    page = tmp_path / "phone.html"
    page.write_text(standalone_page(record, "en"), "utf-8")
    try:
        for name, (width, height, mobile) in {
            "desktop": (1200, 900, False),
            "phone": (400, 860, True),
        }.items():
            # A phone's screen: 400 CSS pixels wide, two device pixels to each.
            metrics = {"width": width, "height": height, "mobile": mobile}
            metrics["deviceScaleFactor"] = 2 if mobile else 1
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            browser.get(page.as_uri())
            browser.execute_script("window.viewerShow(60)")
            browser.save_screenshot(str(tmp_path / f"{name}.png"))
            measures = browser.execute_script(
                """
                const px = (e) => parseFloat(getComputedStyle(e).fontSize);
                const fig = document.querySelector('#board .fig').getBoundingClientRect();
                return {
                  page: document.documentElement.scrollWidth,
                  window: window.innerWidth,
                  name: px(document.querySelector('#players .name')),
                  score: px(document.querySelector('#players .score')),
                  figure: Math.min(fig.width, fig.height),
                };
                """
            )
            assert measures["page"] <= measures["window"], name
            assert measures["name"] >= 14 and measures["score"] >= 16, measures
            assert measures["window"] == width
            assert measures["figure"] >= 8, measures
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


#: What the page shows of the board: the squares' size on screen and where the tile just
#: placed is against the board's box, and the chart's legend.
READ_VIEW = """
const wrap = document.getElementById("board-wrap").getBoundingClientRect();
const tile = document.querySelector("#board .tile").getBoundingClientRect();
const last = document.querySelector("#board .tile.last");
const box = last ? last.getBoundingClientRect() : null;
const inside = (r) => r.left >= wrap.left - 1 && r.right <= wrap.right + 1
  && r.top >= wrap.top - 1 && r.bottom <= wrap.bottom + 1;
const tiles = [...document.querySelectorAll("#board .tile")].map((e) => e.getBoundingClientRect());
return {
  frame: window.viewerState.frame,
  frames: window.viewerState.frames,
  final: window.viewerState.final,
  whole: window.viewerState.whole,
  square: Math.min(tile.width, tile.height),
  lastInside: box ? inside(box) : null,
  allInside: tiles.every(inside),
  hash: location.hash,
  page: document.documentElement.scrollWidth,
  legend: [...document.querySelectorAll("#chart-legend li")].map((li) => ({
    name: li.querySelector(".name").textContent,
    colour: getComputedStyle(li.querySelector(".swatch")).backgroundColor,
    shown: li.getBoundingClientRect().width > 0,
  })),
  lines: [...document.querySelectorAll("#chart polyline")].map((l) => l.getAttribute("stroke")),
};
"""


def on_a_phone(browser: Any) -> None:
    """A phone's screen: 400 x 800 CSS pixels, two device pixels to each."""
    metrics = {"width": 400, "height": 800, "mobile": True, "deviceScaleFactor": 2}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def test_on_a_phone_the_board_follows_the_action_and_a_link_opens_on_the_last_turn(
    browser: Any, site: tuple[str, Path], tmp_path: Path
) -> None:
    """A 6-player Big Box game opened from its link on a 400 x 800 phone: the last turn
    first, every turn fitted to the screen (large tiles early, the tile just placed always in
    sight, squares never specks), the whole board a tap away, a link naming a turn opens on
    it, and the chart's legend names every player in the colour of their line."""
    record = a_record(17, players=6, expansions=FAMILIES["big-box-4p"]["expansions"])
    frames = len(engine_frames(record))
    url = f"{site[0]}#{codec.encode(game_turns(record))}"
    try:
        on_a_phone(browser)
        browser.get("about:blank")
        browser.get(url)
        view = browser.execute_script(READ_VIEW)
        assert view["frame"] == frames - 1 and view["final"], view["frame"]
        assert view["page"] <= 400
        # The legend: every player, by name, in the colour of their line on the chart.
        assert [item["name"] for item in view["legend"]] == list(record["players"])
        assert all(item["shown"] for item in view["legend"])
        colours = [item["colour"].replace(" ", "") for item in view["legend"]]
        assert colours == [line.replace(" ", "") for line in view["lines"]]
        assert len(set(colours)) == 6
        browser.save_screenshot(str(tmp_path / "phone-last.png"))
        # The first turn: two tiles, drawn large (a square over 80 CSS pixels of 400).
        browser.execute_script("document.getElementById('first').click()")
        browser.execute_script("document.getElementById('next').click()")
        view = browser.execute_script(READ_VIEW)
        assert view["frame"] == 1 and view["square"] >= 80, view
        assert view["lastInside"], view
        browser.save_screenshot(str(tmp_path / "phone-first.png"))
        # Walking on: the tile just placed is always in sight, squares at least 44 pixels.
        for index in range(2, frames - 1, 7):
            browser.execute_script(f"window.viewerShow({index})")
            view = browser.execute_script(READ_VIEW)
            assert view["lastInside"] and view["square"] >= 43.5, (index, view)
        assert view["hash"].endswith(f"~{index}")
        browser.save_screenshot(str(tmp_path / "phone-late.png"))
        # The whole board, one tap away: every tile in the board's box, smaller.
        browser.execute_script("document.getElementById('zoom-fit').click()")
        view = browser.execute_script(READ_VIEW)
        assert view["whole"] and view["allInside"] and view["square"] < 44, view
        browser.save_screenshot(str(tmp_path / "phone-whole.png"))
        # A link naming a turn opens on it.
        browser.get("about:blank")
        browser.get(f"{url}~25")
        view = browser.execute_script(READ_VIEW)
        assert view["frame"] == 25 and not view["final"] and view["lastInside"], view
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_link_names_a_turn_when_asked() -> None:
    record = a_record(3, players=2)
    base = "https://example.org/viewer.html"
    code = codec.encode(game_turns(record))
    assert link(base, record) == f"{base}#{code}"
    assert link(base + "#old", record, turn=12) == f"{base}#{code}~12"
