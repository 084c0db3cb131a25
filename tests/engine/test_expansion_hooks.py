"""The expansion hooks that the next expansions need (RULES.md section 5), driven by a test
plug-in: a heavier figure, an extra tile in the same turn, a first stack drawn before the others,
a placement rule, a changed feature value. Abbey & Mayor covers the others (its own phases and
actions, special figures, a figure kept after scoring, end-of-game decisions and scoring)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import ClassVar

import pytest

from engine import FeatureScored, Game, IllegalActionError, Phase, PlaceTile, Setup, TurnStarted
from engine.cli import random_action
from engine.core.board import Figure, Pos
from engine.core.expansion import PLUGINS, Expansion, register_expansion
from engine.core.setup import EXPANSIONS
from engine.core.tiles import TileKind

FIRST = ("V", "V", "V")  # straight roads, drawn before the shuffled stack
WALL_X = -2  # nothing may be placed west of this column


class Demo(Expansion):
    name: ClassVar[str] = "hook_demo"
    figures: ClassVar[dict[str, int]] = {"heavy": 1}
    weights: ClassVar[dict[str, int]] = {"heavy": 2}

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.extra_given: set[int] = set()

    def arrange_stack(self, stack: list[str]) -> list[str]:
        start = stack[-1]
        rest = stack[:-1]
        for name in FIRST:
            rest.remove(name)
        return [*rest, *reversed(FIRST), start]

    def placement_refusal(
        self, kind: TileKind, rotation: int, pos: Pos
    ) -> IllegalActionError | None:
        if pos[0] < WALL_X:
            return IllegalActionError("west of the wall", "demo_wall")
        return None

    def may_stand(self, figure: str, ftype: str) -> bool | None:
        return True if figure == "heavy" else None

    def extra_tile(self) -> bool:
        """Every fifth turn gives its player one more tile, never a third."""
        turn = self.game.turn
        if (
            turn
            and turn % 5 == 0
            and turn not in self.extra_given
            and turn - 1 not in self.extra_given
        ):
            self.extra_given.add(turn)
            return True
        return False

    def feature_value(self, root: int, complete: bool, value: int) -> int:
        return 2 * value if self.game.board.ftype[root] == "road" else value


@pytest.fixture
def demo() -> Iterator[None]:
    register_expansion("carcassonne", Demo)
    yield
    del PLUGINS[Demo.name]
    EXPANSIONS["carcassonne"] = tuple(e for e in EXPANSIONS["carcassonne"] if e != Demo.name)


def played(seed: int) -> tuple[Game, list[object]]:
    game = Game(Setup(players=("A", "B", "C"), seed=seed, expansions=(Demo.name,)))
    events: list[object] = []
    rng = random.Random(seed)
    while game.phase is not Phase.OVER:
        events.extend(game.play(random_action(game, rng)))
    return game, events


@pytest.mark.usefixtures("demo")
def test_the_first_stack_is_drawn_before_the_others() -> None:
    game = Game(Setup(players=("A", "B"), seed=3, expansions=(Demo.name,)))
    assert game.tile == "V"
    assert game.stack[-2:] == ["V", "V"]
    plain = Game(Setup(players=("A", "B"), seed=3))
    assert len(game.stack) == len(plain.stack)


@pytest.mark.usefixtures("demo")
@pytest.mark.parametrize("seed", range(4))
def test_a_placement_rule_holds_for_listing_checking_and_playing(seed: int) -> None:
    game, _ = played(seed)
    assert all(x >= WALL_X for x, _ in game.board.tiles)
    fresh = Game(Setup(players=("A", "B"), seed=seed, expansions=(Demo.name,)))
    listed = list(fresh.legal_placements())
    assert len(fresh.legal_placements()) == len(listed)
    assert all(p in fresh.legal_placements() for p in listed)
    with pytest.raises(IllegalActionError) as refused:
        fresh.check_place_tile(PlaceTile(WALL_X - 1, 0, 0))
    assert refused.value.code in ("demo_wall", "not_adjacent")


@pytest.mark.usefixtures("demo")
def test_an_extra_tile_is_played_by_the_same_player_and_never_a_third() -> None:
    game, events = played(11)
    starts = [e for e in events if isinstance(e, TurnStarted)]
    demo = game.plugins[Demo.name]
    assert isinstance(demo, Demo) and demo.extra_given
    by_turn = {e.turn: e.player for e in starts}
    checked = 0
    for turn in demo.extra_given:
        if turn + 1 not in by_turn:  # the stack ran out
            continue
        assert by_turn[turn + 1] == by_turn[turn]
        checked += 1
        assert by_turn.get(turn + 2, -1) != by_turn[turn]
    assert checked >= 10


@pytest.mark.usefixtures("demo")
def test_a_feature_value_hook_changes_the_points() -> None:
    events = [e for seed in range(6) for e in played(seed)[1]]
    roads = [e for e in events if isinstance(e, FeatureScored) and e.feature == "road"]
    completed = [e for e in roads if e.complete and e.points]
    assert completed
    assert all(points == 2 * e.tiles for e in completed for points in e.points.values())


@pytest.mark.usefixtures("demo")
def test_a_heavier_figure_counts_twice_in_majorities() -> None:
    game = Game(Setup(players=("A", "B"), seed=2, expansions=(Demo.name,)))
    assert game.supply[0] == {"follower": 7, "heavy": 1}
    root = game.board.find(game.board.tiles[(0, 0)].first_node)
    game.board.figures[root] = [
        Figure(0, "heavy", (0, 0), 0, 1),
        Figure(1, "follower", (0, 0), 0, 1),
    ]
    assert game.strengths(root) == [2, 1]
    game.board.figures[root].append(Figure(1, "follower", (0, 0), 0, 1))
    assert game.strengths(root) == [2, 2]


def test_an_expansion_that_is_not_registered_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown expansion"):
        Setup(players=("A", "B"), expansions=(Demo.name,))
