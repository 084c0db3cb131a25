"""Computer players with the Big Box (Inns & Cathedrals, Traders & Builders) and The River:
only legal moves at every level, the river's known order kept in what they see, and a heuristic
that knows the large follower, goods, the builder and the pig."""

from __future__ import annotations

import os
import random

from ai_helpers import play_level_against_random
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import make_player
from ai.evaluate import Heuristic, tiles_left
from ai.observation import determinize, observe, unseen
from ai.players import options
from engine import Game, Phase, PlaceFigure, Setup
from engine.carcassonne.river import River
from engine.cli import random_action

EXAMPLES = int(os.environ.get("CARCASSONNE_AI_EXAMPLES", "8"))
BIG_BOX = ("inns_cathedrals", "traders_builders", "river")
ALL = ("abbey_mayor", *BIG_BOX)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    level=st.sampled_from(["greedy", "easy", "medium", "hard"]),
    expansions=st.sampled_from([BIG_BOX, ALL, ("river",), ("traders_builders",)]),
    players=st.integers(2, 6),  # up to 6 with Inns & Cathedrals or Traders & Builders
    seed=st.integers(0, 100_000),
)
def test_random_against_every_level_with_the_big_box_never_plays_an_illegal_move(
    level: str, expansions: tuple[str, ...], players: int, seed: int
) -> None:
    names = tuple(f"P{i}" for i in range(players))
    game = Game(Setup(players=names, seed=seed, expansions=expansions))
    play_level_against_random(game, level, seed)


def river_game(seed: int = 5) -> Game:
    return Game(Setup(players=("A", "B"), seed=seed, expansions=ALL))


def test_an_observation_keeps_the_river_on_top_and_the_lake_last_of_it() -> None:
    game = river_game()
    river = game.plugins["river"]
    assert isinstance(river, River)
    for world in (observe(game, 0), determinize(observe(game, 0), 0, random.Random(3))):
        assert sorted(unseen(world, 0)) == sorted(unseen(game, 0))
        flowing = len([t for t in game.stack if t in river.kinds])
        top = world.stack[-flowing:]  # drawn from the end
        assert set(top) <= river.kinds and top[0] == river.lake
        assert not set(world.stack[:-flowing]) & river.kinds
        # Played on, a river tile is always drawn while the river flows.
        rng = random.Random(1)
        while set(world.stack) & river.kinds:
            if world.phase is Phase.TILE:
                assert world.tile in river.kinds
            world.play(random_action(world, rng))


def test_a_river_decision_does_not_change_when_the_river_tiles_are_reshuffled() -> None:
    game = river_game(8)
    river = game.plugins["river"]
    assert isinstance(river, River)
    medium = make_player("medium", seed=2)
    decision = medium.choose(game, game.actor)
    flowing = [t for t in game.stack if t in river.kinds and t != river.lake]
    for seed in range(3):
        other = game.fork()
        again = list(flowing)
        random.Random(seed).shuffle(again)
        rest = [t for t in other.stack if t not in river.kinds or t == river.lake]
        other.stack = rest + again
        assert medium.choose(other, other.actor) == decision


def test_every_new_figure_is_among_a_players_options() -> None:
    seen: set[str] = set()
    for seed in range(6):
        game = Game(Setup(players=("A", "B"), seed=seed, expansions=ALL))
        rng = random.Random(seed)
        while not game.finished:
            found = options(game)
            seen |= {a.figure for a in found if isinstance(a, PlaceFigure)}
            game.play(rng.choice(found))
    assert {"large_follower", "builder", "pig"} <= seen


def test_the_large_follower_in_hand_is_worth_more_than_a_follower() -> None:
    game = Game(Setup(players=("A", "B"), seed=1, expansions=("inns_cathedrals",)))
    heuristic = Heuristic()
    before = heuristic.components(game)[0]["supply_follower"]
    game.supply[0]["follower"] -= 1
    one_less_follower = heuristic.components(game)[0]["supply_follower"]
    game.supply[0]["follower"] += 1
    game.supply[0]["large_follower"] -= 1
    without_large = heuristic.components(game)[0]["supply_follower"]
    assert before - without_large > before - one_less_follower > 0


def test_goods_and_builders_count_for_their_owners_in_play() -> None:
    # Random games with Traders & Builders: whenever a builder stands on an open road or city,
    # its owner's builder part is positive; an open city with goods and an owner gives goods.
    heuristic = Heuristic()
    builder_seen = goods_seen = False
    for seed in range(10):
        game = Game(Setup(players=("A", "B"), seed=seed, expansions=("traders_builders",)))
        rng = random.Random(seed)
        while not game.finished and not (builder_seen and goods_seen):
            if game.phase is Phase.TILE:
                parts = heuristic.components(game)
                board = game.board
                for figure in game.figures():
                    if figure.kind == "builder":
                        assert parts[figure.player]["builder"] > 0
                        builder_seen = True
                goods_seen |= any(p["goods_open"] > 0 for p in parts)
                assert board is game.board
            game.play(random_action(game, rng))
    assert builder_seen and goods_seen


def test_a_barn_is_worth_the_open_cities_its_field_may_still_gain() -> None:
    # Random games with Abbey & Mayor: a barn whose field touches an open city gives its owner
    # a positive barn part (while tiles enough are left to close it); a player with no barn on
    # the board has none.
    heuristic = Heuristic()
    seen = 0
    for seed in range(12):
        game = Game(Setup(players=("A", "B", "C"), seed=seed, expansions=("abbey_mayor",)))
        rng = random.Random(seed)
        while not game.finished:
            if game.phase is Phase.TILE:
                parts = heuristic.components(game)
                board = game.board
                owners: set[int] = set()
                for root, figures in enumerate(board.figures):
                    barns = {f.player for f in figures if f.kind == "barn"}
                    if not barns or board.parent[root] != root:
                        continue
                    owners |= barns
                    cities = {board.find(c) for c in board.cities[root]}
                    if any(0 < board.open[c] <= tiles_left(game) for c in cities):
                        seen += 1
                        assert all(parts[p]["barn_open"] > 0 for p in barns)
                for player in set(range(game.players)) - owners:
                    assert parts[player]["barn_open"] == 0
            game.play(random_action(game, rng))
    assert seen
