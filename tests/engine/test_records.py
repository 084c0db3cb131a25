"""Game records (spec/game-record.md): hand-built records replayed to known scores, and the CLI.

Every record in ``data/records`` was written by hand from a board sketch; the expected scores
below are worked out from RULES.md, not taken from the engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import DATA

from engine import Game
from engine.cli import main, replay_output

RECORDS = DATA / "records"
ROOT = Path(__file__).resolve().parents[2]

# name -> (scores, finished, scoring events as (player, feature, points, final))
EXPECTED: dict[str, tuple[dict[str, int], bool, list[tuple[str, str, int, bool]]]] = {
    # M (pennant) + K + N + D: 4 tiles x 2 + 1 pennant x 2 = 10; one knight each: both 10.
    "tied_city": ({"A": 10, "B": 10}, True, [("A", "city", 10, False), ("B", "city", 10, False)]),
    # Open city of D, Q, K, J, R, N: 6 tiles + 1 pennant (Q) = 7 at the end; Green 2 knights,
    # Black 1: Green alone.
    "green_black": ({"Green": 7, "Black": 0}, True, [("Green", "city", 7, True)]),
    # The same under incomplete=half: the open city is worth its one pennant.
    "green_black_half": ({"Green": 1, "Black": 0}, True, [("Green", "city", 1, True)]),
    # City X (D, N, E) closed; A's farmers in N's field and D's strip (via U), B's in E's field.
    # Modern: each field touches X once: A 3 + 3, B 3.
    "farmers_modern": (
        {"A": 6, "B": 3},
        True,
        [("A", "field", 3, True), ("B", "field", 3, True), ("A", "field", 3, True)],
    ),
    # Classic: X once, farmers around it A 2 - B 1: A 3.
    "farmers_classic": ({"A": 3, "B": 0}, True, [("A", "field", 3, True)]),
    # A monk on B south of D, its 8 neighbours placed: 9.
    "cloister": ({"A": 9}, True, [("A", "cloister", 9, False)]),
    # classic4, the three farmers tied around the one completed city: 4 each.
    "blue_red_yellow": (
        {"Blue": 4, "Red": 4, "Yellow": 4},
        True,
        [("Blue", "field", 4, True), ("Red", "field", 4, True), ("Yellow", "field", 4, True)],
    ),
    # A's thief on W, B closes the road with another W: 3; one U still to come.
    "unfinished": ({"A": 3, "B": 0}, False, [("A", "road", 3, False)]),
    # E closes D's city (no knight), C then fits nowhere and is discarded, B's monk on the last
    # tile B south of D: incomplete cloister with one neighbour = 2.
    "discard": ({"A": 0, "B": 2}, True, [("B", "cloister", 2, True)]),
    # Hand game: B's knight closes D's 2-tile city (2); A's thief on the open road D U U U (4).
    "hand": ({"A": 4, "B": 2}, True, [("B", "city", 2, False), ("A", "road", 4, True)]),
}


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text("utf-8"))
    return data


def test_every_record_file_has_expectations() -> None:
    assert sorted(p.stem for p in RECORDS.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_records_replay_to_known_scores(name: str) -> None:
    scores, finished, events = EXPECTED[name]
    status, output = replay_output(load(name))
    assert status == 0
    assert output == {
        "scores": scores,
        "finished": finished,
        "events": [
            {"type": "score", "player": p, "feature": f, "points": n, "final": fin}
            for p, f, n, fin in events
        ],
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_replayed_game_writes_back_the_same_actions(name: str) -> None:
    record = load(name)
    game = Game.from_record(record)
    again = game.record()
    assert again["actions"] == record["actions"]
    assert again["draw"] == record["draw"]
    assert again["players"] == record["players"]
    assert Game.from_record(again).snapshot() == game.snapshot()


def test_options_left_out_take_their_defaults() -> None:
    record = load("tied_city")
    record.pop("options")
    game = Game.from_record(record)
    assert game.options == {
        "small_city": "classic",
        "farmers": "classic",
        "incomplete": "standard",
        "hand": False,
    }


# -- refused records --------------------------------------------------------------------------


def with_actions(record: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
    return {**record, "actions": actions}


def test_an_illegal_action_gives_status_1_and_its_index() -> None:
    record = load("tied_city")
    # Action 2 puts B's tile on the square A's tile already holds.
    actions = [*record["actions"][:2], {"type": "place_tile", "x": 0, "y": -1, "rotation": 0}]
    status, output = replay_output(with_actions(record, actions))
    assert status == 1
    assert set(output) == {"error", "action"}
    assert output["action"] == 2
    assert "already holds a tile" in output["error"]


def test_an_action_out_of_turn_order_is_illegal() -> None:
    record = load("tied_city")
    status, output = replay_output(with_actions(record, [{"type": "pass"}]))
    assert (status, output["action"]) == (1, 0)
    assert "place your tile first" in output["error"]


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "place_tile", "x": 0, "y": -1}, "'rotation' must be a whole number"),
        ({"type": "place_tile", "x": 0, "y": -1, "rotation": 45}, "0, 90, 180 or 270"),
        ({"type": "place_tile", "x": "0", "y": -1, "rotation": 0}, "'x' must be a whole number"),
        ({"type": "jump"}, "unknown action type 'jump'"),
        (["place_tile"], "must be a JSON object"),
    ],
)
def test_a_malformed_action_gives_status_2_and_its_index(action: Any, words: str) -> None:
    record = load("tied_city")
    status, output = replay_output(with_actions(record, [*record["actions"][:2], action]))
    assert status == 2
    assert output["action"] == 2
    assert words in output["error"]


def test_a_malformed_figure_gives_status_2() -> None:
    record = load("tied_city")
    bad = {"type": "place_figure", "figure": "dragon", "x": 0, "y": -1, "at": 3}
    status, output = replay_output(with_actions(record, [record["actions"][0], bad]))
    assert (status, output["action"]) == (2, 1)
    assert "'figure' must be one of" in output["error"]


@pytest.mark.parametrize(
    "change",
    [
        {"players": "A,B"},
        {"seed": "twelve"},
        {"options": {"farmers": "never"}},
        {"draw": ["D", "Z"]},
        {"format": 2},
        {"game": "chess"},
    ],
)
def test_a_malformed_setup_gives_status_2(change: dict[str, Any]) -> None:
    status, output = replay_output({**load("tied_city"), **change})
    assert status == 2
    assert set(output) == {"error", "action"}
    assert output["error"]


# -- the command line -------------------------------------------------------------------------


def run(*args: str) -> tuple[int, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    return done.returncode, json.loads(lines[0])


def test_cli_replay_prints_the_scores_and_exits_0() -> None:
    status, output = run("replay", str(RECORDS / "tied_city.json"))
    assert status == 0
    assert output == {
        "scores": {"A": 10, "B": 10},
        "finished": True,
        "events": [
            {"type": "score", "player": "A", "feature": "city", "points": 10, "final": False},
            {"type": "score", "player": "B", "feature": "city", "points": 10, "final": False},
        ],
    }


def test_cli_replay_of_an_illegal_record_exits_1(tmp_path: Path) -> None:
    record = load("tied_city")
    record["actions"][2] = {"type": "place_tile", "x": 5, "y": 5, "rotation": 0}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), "utf-8")
    status, output = run("replay", str(path))
    assert status == 1
    assert output["action"] == 2
    assert "does not touch" in output["error"]


def test_cli_replay_of_a_malformed_record_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", "utf-8")
    status, output = run("replay", str(path))
    assert status == 2
    assert set(output) == {"error", "action"}


def test_cli_simulate_prints_one_json_summary_and_writes_a_record(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = ["--games", "2", "--players", "3", "--seed", "4", "--option", "farmers=modern"]
    status, summary = run("simulate", *args, "--record", str(out))
    assert status == 0
    assert summary["games"] == 2 and summary["players"] == 3
    assert summary["options"] == {"farmers": "modern"}
    record = json.loads(out.read_text("utf-8"))
    game = Game.from_record(record)
    assert game.finished
    assert record["options"]["farmers"] == "modern"


def test_cli_simulate_with_a_bad_option_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "--games", "1", "--option", "farmers=never"])
    assert status == 2
    assert "farmers" in json.loads(capsys.readouterr().out)["error"]
