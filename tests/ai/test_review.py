"""The game review: planted mistakes among the costliest decisions with their reason, the same
review from the same record and budget, forced turns shown but not counted, the JSON form,
every game family, the reasons in every language and ``python -m ai review``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from review_helpers import declines_own_city, gives_a_city, planted, strands_a_follower

from ai import review as review_module
from ai.arena import main
from ai.review import (
    REASONS,
    REVIEW_BUDGET,
    Reason,
    Review,
    appraise_at,
    decisions,
    reason_text,
    review,
)
from engine import Game, Setup, Skip
from engine.cli import random_action

#: Small budgets keep the tests quick; the planted mistakes stand out at any.
BUDGET = 2000


@pytest.mark.parametrize(
    ("plant", "seed", "key"),
    [
        (declines_own_city, 4, "missed_completion"),
        (strands_a_follower, 1, "stranded_follower"),
        (gives_a_city, 3, "gave_points"),
    ],
)
def test_a_planted_mistake_is_among_the_three_costliest_with_its_reason(
    plant: Any, seed: int, key: str
) -> None:
    record, index = planted(seed, 24, plant)
    result = review(record, BUDGET, jobs=2)
    costliest = [result.moments[i] for i in result.costliest]
    assert len(costliest) == 3
    found = [m for m in costliest if m.index == index]
    assert found, f"the planted turn {index} is not among {[m.index for m in costliest]}"
    moment = found[0]
    assert moment.seat == 0 and moment.loss > 2.0
    assert moment.reason.key == key
    assert moment.best != moment.played
    if key == "missed_completion":
        assert moment.reason.params == {"feature": "city", "points": 12}
    if key == "gave_points":
        assert moment.reason.params == {"feature": "city", "points": 6, "player": 1}
    names = record["players"]
    assert "Bob" in reason_text(moment.reason, "en", names) or key != "gave_points"


def test_the_same_record_and_budget_give_the_same_review_in_one_process_or_two() -> None:
    record, _ = planted(3, 24, gives_a_city)
    first = review(record, BUDGET).to_json()
    assert review(record, BUDGET, jobs=2).to_json() == first
    assert first["budget"] == BUDGET


def test_a_review_has_every_tile_decision_valued_and_round_trips_through_json() -> None:
    record, _ = planted(1, 24, strands_a_follower)
    told: list[tuple[int, int]] = []
    result = review(record, BUDGET, progress=lambda done, total: told.append((done, total)))
    found = decisions(record)
    assert [m.index for m in result.moments] == [d.index for d in found]
    assert told[-1] == (len(found), len(found)) and len(told) == len(found)
    assert len(found) == 24  # one per tile after the start tile
    for moment in result.moments:
        assert moment.best_value >= moment.played_value - 1e-9 or moment.loss == 0
        assert moment.loss == max(0.0, moment.best_value - moment.played_value) or (
            moment.played == moment.best and moment.loss == 0
        )
        assert moment.reason.key in REASONS
    data = json.loads(json.dumps(result.to_json()))
    again = Review.from_json(data)
    assert again.to_json() == data
    assert [p.decisions for p in again.players] == [12, 12]


def test_a_decision_is_a_whole_turn_and_its_appraisal_matches_the_review() -> None:
    record, index = planted(4, 24, declines_own_city)
    found = decisions(record)
    number = next(d.number for d in found if d.index == index)
    decision = found[number]
    assert decision.seat == 0 and decision.played == tuple(record["actions"][index : index + 2])
    moment = appraise_at(record, number, BUDGET)
    assert moment.index == index and moment.played == decision.played
    assert review(record, BUDGET).moments[number] == moment


def test_turns_the_bot_played_are_shown_but_not_counted() -> None:
    record, index = planted(4, 24, declines_own_city)
    for action in record["actions"][index : index + 2]:
        action["forced"] = "autoplay"
    result = review(record, BUDGET, jobs=2)
    moment = next(m for m in result.moments if m.index == index)
    assert moment.forced == "autoplay" and not moment.counted and moment.loss > 2.0
    assert all(result.moments[i].index != index for i in result.costliest)
    assert [p.decisions for p in result.players] == [11, 12]


def test_a_skipped_turn_is_a_forced_decision() -> None:
    game = Game(Setup(players=("Ann", "Bob"), seed=2, draw=("D", "A", "B", "C", "E", "U")))
    rng = random.Random(2)
    game.play(Skip())
    while not game.finished:
        game.play(random_action(game, rng))
    record = game.record()
    record["actions"][0]["forced"] = "skip"
    found = decisions(record)
    assert found[0].played == ({"type": "skip"},) and found[0].forced == "skip"
    moment = appraise_at(record, 0, BUDGET)
    assert moment.forced == "skip" and not moment.counted


SETUPS = [
    ("carcassonne", ("abbey_mayor", "inns_cathedrals", "traders_builders", "river"), {}, 2),
    ("carcassonne", ("abbey_mayor",), {"hand": True, "farmers": "classic"}, 3),
    ("hunters", (), {}, 2),
    ("castle", (), {}, 2),
]


@pytest.mark.parametrize(("name", "expansions", "rules", "players"), SETUPS)
def test_every_game_family_reviews(
    name: str, expansions: tuple[str, ...], rules: dict[str, Any], players: int
) -> None:
    names = tuple(f"P{i}" for i in range(players))
    setup = Setup(players=names, seed=7, game=name, expansions=expansions, options=rules)
    game = Game(setup)
    rng = random.Random(7)
    while not game.finished:
        game.play(random_action(game, rng))
    record = game.record()
    found = decisions(record)
    tile_actions = {"place_tile", "place_abbey", "use_wall_tile"}
    assert {d.played[0]["type"] for d in found} <= tile_actions | {"skip"}
    firsts = [d.index for d in found]
    # The first tile decisions and the last (the endgame's) of a random game, reviewed.
    short = {**record, "actions": record["actions"][: firsts[6]]}
    result = review(short, 300)
    assert len(result.moments) == 6 and len(result.players) == players
    last = appraise_at(record, len(found) - 1, 300)
    assert last.index == firsts[-1] and last.reason.key in REASONS


def test_every_reason_reads_in_every_language() -> None:
    params: dict[str, Reason] = {
        "best": Reason("best"),
        "close": Reason("close", {"points": 0.6}),
        "stranded_follower": Reason("stranded_follower", {"feature": "road", "points": 4.2}),
        "missed_completion": Reason("missed_completion", {"feature": "city", "points": 12}),
        "gave_points": Reason("gave_points", {"feature": "city", "points": 6, "player": 1}),
        "missed_figure": Reason("missed_figure", {"points": 3.5}),
        "kept_follower": Reason("kept_follower", {"points": 2.5}),
        "better_position": Reason("better_position", {"points": 2.5}),
    }
    assert set(params) == set(REASONS)
    texts = {
        locale: {key: reason_text(r, locale, ("Ann", "Bob")) for key, r in params.items()}
        for locale in ("en", "fr", "de")
    }
    assert texts["en"]["missed_completion"] == (
        "The best turn completes the city for you: 12 points."
    )
    assert texts["fr"]["gave_points"] == "Votre coup fait gagner 6 points à Bob avec la ville."
    assert texts["de"]["stranded_follower"].endswith("die Straße je fertigstellen.")
    assert "4,2 Punkte" in reason_text(Reason("close", {"points": 4.2}), "de", ())
    one = reason_text(Reason("close", {"points": 1.0}), "en", ())
    assert one == "Only 1.0 points behind the best turn."
    assert "0,6" in texts["fr"]["close"] and "0.6" in texts["en"]["close"]
    for locale, by_key in texts.items():
        assert len(set(by_key.values())) == len(REASONS), locale
        for text in by_key.values():
            assert "{" not in text and text.rstrip().endswith("."), text


def test_python_m_ai_review_prints_accuracy_and_the_costliest_with_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, _ = planted(3, 24, gives_a_city)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["review", str(path), "--budget", str(BUDGET), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "Ann: accuracy" in out and "Bob: accuracy" in out and "points lost per turn" in out
    assert "Your turn gives Bob 6 points through the city." in out
    assert out.count("points lost (action") == 3
    assert main(["review", str(path), "--budget", str(BUDGET), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == review(record, BUDGET).to_json()


def test_the_review_budget_switches_the_expert_s_guard_off() -> None:
    expert = review_module.reviewer(REVIEW_BUDGET)
    assert expert.budget == REVIEW_BUDGET and expert.guard_seconds == float("inf")
    assert review_module.budget_of({"game": "castle"}) == review_module.REVIEW_BUDGETS["castle"]


def test_a_decision_is_valued_from_what_its_player_saw_not_the_tiles_still_face_down() -> None:
    record, index = planted(4, 24, declines_own_city)
    number = next(d.number for d in decisions(record) if d.index == index)
    cut = {**record, "actions": record["actions"][: index + 2]}
    draw = list(record["draw"])
    seen = number + 2  # the start tile and one tile per decision so far, this one's included
    hidden = draw[seen:]
    shuffled = hidden[::-1]
    assert shuffled != hidden
    other = {**cut, "draw": draw[:seen] + shuffled, "seed": record["seed"] + 1}
    assert appraise_at(other, number, BUDGET) == appraise_at(cut, number, BUDGET)
