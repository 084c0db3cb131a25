"""Traders & Builders over whole games: hypothesis properties over random games with every
combination of {base, Abbey & Mayor, Traders & Builders} and every option, records, the command
line."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from am_helpers import figure_totals, put
from hypothesis import given, settings
from hypothesis import strategies as st
from tb_helpers import BOTH, TB, goods_of, new_game
from test_builder import road_with_builder
from test_traders_builders import pig_field

from engine import Game, Setup
from engine.carcassonne.traders_builders import of as tb_of
from engine.cli import main as cli_main
from engine.cli import random_action, replay_output
from engine.core.events import FigurePlaced, TurnStarted

COMBINATIONS = [(), ("abbey_mayor",), TB, BOTH, tuple(reversed(BOTH))]
OPTIONS = st.fixed_dictionaries(
    {
        "small_city": st.sampled_from(["classic", "modern"]),
        "farmers": st.sampled_from(["classic", "classic4", "modern"]),
        "incomplete": st.sampled_from(["standard", "half"]),
        "hand": st.booleans(),
    }
)
TILES = {"": 72, "abbey_mayor": 12, "traders_builders": 24}


def initial(expansions: tuple[str, ...]) -> dict[str, int]:
    figures = {"follower": 7}
    if "abbey_mayor" in expansions:
        figures |= {"mayor": 1, "barn": 1, "wagon": 1}
    if "traders_builders" in expansions:
        figures |= {"builder": 1, "pig": 1}
    return figures


def goods_on_completed_cities(game: Game) -> int:
    board = game.board
    return sum(
        1
        for placed in board.tiles.values()
        for local, feat in enumerate(placed.oriented.features)
        if "goods" in feat.extra and board.open[board.find(placed.first_node + local)] == 0
    )


def play_checked(game: Game, seed: int) -> list[TurnStarted]:
    """Random legal actions to the end; invariants after each; the turns started, in order."""
    rng = random.Random(seed)
    start = initial(game.setup.expansions)
    tb = "traders_builders" in game.plugins
    starts: list[TurnStarted] = []
    previous = list(game.scores)
    for _ in range(3000):
        if game.finished:
            return starts
        for event in game.play(random_action(game, rng)):
            if isinstance(event, TurnStarted):
                starts.append(event)
                if tb and starts[-2:-1] and starts[-2].player == event.player:
                    # A player plays twice in a row only for a builder's second tile.
                    assert tb_of(game).bonus_turn or game.hand_mode or game.players == 1
        for totals in figure_totals(game):
            assert dict(totals) == start, game.record()
        assert all(a >= b for a, b in zip(game.scores, previous, strict=True))
        assert game.scores == [sum(b.values()) for b in game.breakdown]
        previous = list(game.scores)
    raise AssertionError("the game did not end")


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 6),
    expansions=st.sampled_from(COMBINATIONS),
    options=OPTIONS,
)
def test_random_games_end_keep_their_figures_and_tiles_and_replay(
    seed: int, players: int, expansions: tuple[str, ...], options: dict[str, Any]
) -> None:
    setup = Setup(
        players=tuple(f"P{i}" for i in range(players)),
        seed=seed,
        expansions=expansions,
        options=options,
    )
    game = Game(setup)
    starts = play_checked(game, seed)
    assert game.finished and not game.stack and game.hands == [[] for _ in range(players)]
    abbeys = sum(1 for t in game.board.tiles.values() if t.oriented.kind == "ABBEY")
    total = TILES[""] + sum(TILES[e] for e in expansions)
    assert len(game.board.tiles) - abbeys + len(game.discarded) == total
    if "traders_builders" in expansions:
        assert sum(sum(g.values()) for g in goods_of(game)) == goods_on_completed_cities(game)
        goods = [e for e in game.breakdown if "goods" in e]
        assert all(b["goods"] % 10 == 0 for b in goods)
    if players > 1 and not options["hand"]:
        runs = [a.player == b.player for a, b in itertools.pairwise(starts)]
        assert not any(x and y for x, y in itertools.pairwise(runs))  # no third tile
        if "traders_builders" not in expansions:
            assert not any(runs)
    # Each turn number (after the start tile's 0) places at most one tile: a second tile is a
    # turn of its own. (End-game abbeys are placed after the last turn, under its number.)
    turns = Counter(t.turn for t in game.board.tiles.values() if t.oriented.kind != "ABBEY")
    assert all(count == 1 for turn, count in turns.items() if turn)
    record = json.loads(json.dumps(game.record()))
    assert record["expansions"] == list(expansions)
    assert Game.from_record(record).snapshot() == game.snapshot()


def test_random_games_place_builders_and_pigs_and_earn_second_tiles() -> None:
    """The properties above are not vacuous: random play uses every part of the expansion."""
    placed: Counter[str] = Counter()
    second_tiles = 0
    for seed in range(8):
        game = Game(Setup(players=("A", "B", "C"), seed=seed, expansions=BOTH))
        rng = random.Random(seed)
        while not game.finished:
            for event in game.play(random_action(game, rng)):
                if isinstance(event, FigurePlaced):
                    placed[event.figure] += 1
                elif isinstance(event, TurnStarted):
                    second_tiles += tb_of(game).bonus_turn
        placed["goods"] += sum(sum(g.values()) for g in goods_of(game))
    assert placed["builder"] and placed["pig"] and placed["goods"] and second_tiles


def test_records_of_builder_and_pig_games_replay_to_the_same_state() -> None:
    for game in (road_with_builder(), pig_field(pig=True, farmers="modern")):
        record = json.loads(json.dumps(game.record()))
        assert record["expansions"] == ["traders_builders"]
        assert Game.from_record(record).snapshot() == game.snapshot()
    figures = {
        a["figure"]
        for game in (road_with_builder(), pig_field(pig=True))
        for a in game.record()["actions"]
        if a["type"] == "place_figure"
    }
    assert {"builder", "pig"} <= figures


def test_cli_replay_prints_goods_majorities_as_final_score_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game("D TB01 E TB21 E E")
    for x, y, rotation in [(0, -1, 180), (1, -1, 270), (-1, 0, 270), (-1, 1, 0), (-2, 0, 90)]:
        put(game, x, y, rotation)
    path = tmp_path / "goods.json"
    path.write_text(json.dumps(game.record()), "utf-8")
    assert cli_main(["replay", str(path)]) == 0
    output = json.loads(capsys.readouterr().out)
    assert output["finished"] is True
    assert output["scores"] == {"Blue": 10, "Red": 10}
    assert output["events"] == [
        {"type": "score", "player": "Blue", "feature": "goods", "points": 10, "final": True},
        {"type": "score", "player": "Red", "feature": "goods", "points": 10, "final": True},
    ]
    status, again = replay_output(game.record())
    assert (status, again) == (0, output)


@pytest.mark.parametrize("expansions", [TB, BOTH])
def test_simulate_with_the_expansion_runs(
    expansions: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    for players in (1, 6):
        args = ["simulate", "--games", "2", "--players", str(players)]
        for name in expansions:
            args += ["--expansion", name]
        assert cli_main(args) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["expansions"] == list(expansions) and summary["players"] == players
