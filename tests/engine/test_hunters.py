"""Hunters & Gatherers: the reconstructed deck, and the rulebook's worked examples as tests.

Layouts come from the tile notes' section 7 ("id@(x,y) rotation" in quarter turns). The engine
always lays the first tile at (0, 0) unrotated, so a layout is turned and shifted as a whole
first: that changes no feature.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import (
    FeatureScored,
    Game,
    HuntersGame,
    IllegalActionError,
    Pass,
    Phase,
    PlaceFigure,
    PlaceTile,
    Setup,
)
from engine.cli import play_random, random_action
from engine.core.board import Figure
from engine.core.events import BonusTileDrawn, Event
from engine.core.tiles import load_set

Layout = list[tuple[str, tuple[int, int], int]]


def normalise(layout: Layout) -> Layout:
    """Turn and shift a layout so that its first tile lies at (0, 0) unrotated."""
    turns = (-layout[0][2]) % 4
    turned = []
    for kind, (x, y), r in layout:
        for _ in range(turns):
            x, y = -y, x  # a quarter turn clockwise, y growing south
        turned.append((kind, (x, y), (r + turns) % 4))
    ox, oy = turned[0][1]
    return [(kind, (x - ox, y - oy), r) for kind, (x, y), r in turned]


def play_layout(
    layout: Layout,
    men: dict[int, str] | None = None,
    bonus: tuple[str, ...] | None = None,
    players: tuple[str, ...] = ("Red", "Blue"),
    extra: tuple[str, ...] = (),
) -> tuple[HuntersGame, list[Event]]:
    """Lay the tiles in order; ``men[i]`` puts a man on the feature type of the i-th tile."""
    layout = normalise(layout)
    draw = tuple(kind for kind, _, _ in layout) + extra
    game = Game(Setup(players=players, game="hunters", draw=draw, bonus_draw=bonus))
    assert isinstance(game, HuntersGame)
    events: list[Event] = []
    for index, (_, (x, y), r) in enumerate(layout[1:], start=1):
        events += game.play(PlaceTile(x, y, 90 * r))
        if game.phase is Phase.FIGURE:
            wanted = (men or {}).get(index)
            events += game.play(man_on(game, x, y, wanted) if wanted else Pass())
    return game, events


def man_on(game: Game, x: int, y: int, ftype: str, figure: str = "man") -> PlaceFigure:
    placed = game.board.tiles[(x, y)].oriented
    for option in game.legal_figures():
        if option.figure == figure and placed.features[placed.feature_at(option.at)].type == ftype:
            return option
    raise AssertionError(f"no {figure} spot on a {ftype} at ({x}, {y})")


def scores(events: list[Event]) -> list[tuple[str, dict[int, int]]]:
    return [(e.feature, e.points) for e in events if isinstance(e, FeatureScored)]


# -- the deck --------------------------------------------------------------------------------


def test_the_deck_has_79_land_tiles_and_12_bonus_tiles() -> None:
    kinds = load_set("hunters")
    land = sum(k.count for k in kinds if not k.extra.get("bonus"))
    bonus = sum(k.count for k in kinds if k.extra.get("bonus"))
    assert (land, bonus) == (79, 12)
    assert [k.name for k in kinds if k.start] == ["S"]


def test_the_reconstruction_totals_animals_fish_and_nuggets() -> None:
    totals: Counter[str] = Counter()
    for kind in load_set("hunters"):
        part = "bonus" if kind.extra.get("bonus") else "land"
        for feat in kind.features:
            for key in ("deer", "mammoth", "aurochs", "tiger", "fish"):
                totals[f"{part} {key}"] += kind.count * int(feat.extra.get(key, 0))
            totals[f"{part} nuggets"] += kind.count * bool(feat.extra.get("nugget"))
            totals[f"{part} lakes"] += kind.count * (feat.type == "lake")
    assert totals["land deer"] == 31 and totals["bonus deer"] == 3
    assert totals["land mammoth"] == 13 and totals["bonus mammoth"] == 2
    assert totals["land aurochs"] == 0 and totals["bonus aurochs"] == 4
    assert totals["land tiger"] == 11 and totals["bonus tiger"] == 3
    assert totals["land fish"] == 34 and totals["bonus fish"] == 12
    assert totals["land nuggets"] == 30 and totals["bonus nuggets"] == 1
    assert totals["land lakes"] == 26 and totals["bonus lakes"] == 7


def test_every_position_of_every_tile_belongs_to_one_region() -> None:
    for kind in load_set("hunters"):
        covered = [p for f in kind.features for p in f.positions]
        assert sorted(covered) == list(range(12)), kind.name
        for feat in kind.features:
            if feat.type == "river":
                assert feat.positions <= {1, 4, 7, 10}, kind.name


def test_a_game_is_the_hunters_class_with_five_men_and_two_huts() -> None:
    game = Game(Setup(players=("A", "B"), game="hunters", seed=2))
    assert isinstance(game, HuntersGame)
    assert game.supply == [{"man": 5, "hut": 2}, {"man": 5, "hut": 2}]
    assert game.tiles_left == 77  # 79 minus the start tile minus the first drawn tile
    assert len(game.bonus_stack) == 12


# -- the worked examples (tile notes section 7) ----------------------------------------------


def test_t1_a_three_tile_river_with_a_1_fish_and_a_2_fish_lake_scores_6() -> None:
    layout = [("L04", (0, 0), 0), ("L48", (1, 0), 1), ("L46", (0, 1), 3), ("L20", (1, 1), 3)]
    _, events = play_layout(layout, men={1: "river"})
    assert scores(events) == [("river", {0: 6})]


def test_t2_the_other_player_completes_reds_river_and_red_scores_3() -> None:
    layout = [("L34", (0, 0), 2), ("L58", (1, 0), 0), ("L57", (0, 1), 0), ("B07", (1, 1), 0)]
    _, events = play_layout(layout, men={1: "river"}, players=("Red", "Blue", "Green"))
    assert scores(events) == [("river", {0: 3})]


def test_t3_a_two_tile_forest_scores_4_and_gives_no_bonus_tile() -> None:
    _, events = play_layout([("L34", (1, 0), 3), ("L33", (0, 0), 0)], men={1: "forest"})
    assert scores(events) == [("forest", {0: 4})]
    assert not any(isinstance(e, BonusTileDrawn) for e in events)


def test_t4_a_gold_forest_scores_8_and_the_placer_plays_one_bonus_tile_now() -> None:
    layout = [("L31", (0, 0), 2), ("L31", (0, 1), 1), ("L31", (1, 1), 0), ("L29", (1, 0), 0)]
    game, events = play_layout(layout, men={3: "forest"}, bonus=("B05", "B12"), extra=("L54",))
    assert scores(events) == [("forest", {0: 8})]
    drawn = [e for e in events if isinstance(e, BonusTileDrawn)]
    assert drawn == [BonusTileDrawn(0, "B05")]
    assert game.decision.phase is Phase.TILE and game.decision.player == 0
    assert game.in_bonus and game.tile == "B05"
    # The gatherer stays out of the supply until the end of the turn, bonus tile included.
    assert game.supply[0]["man"] == 4


def test_a_bonus_tile_that_completes_a_gold_forest_gives_no_further_tile() -> None:
    layout = [("L31", (0, 0), 2), ("L31", (0, 1), 1), ("L31", (1, 1), 0), ("L29", (1, 0), 0)]
    game, _ = play_layout(layout, bonus=("B05", "B12"), extra=("L54",))
    assert game.in_bonus
    placement = next(iter(game.legal_placements()))
    game.play(placement)
    if game.phase is Phase.FIGURE:
        game.play(Pass())
    assert not game.in_bonus
    assert game.bonus_stack == ["B12"]


def test_no_bonus_tile_when_the_bonus_stack_is_empty() -> None:
    layout = [("L31", (0, 0), 2), ("L31", (0, 1), 1), ("L31", (1, 1), 0), ("L29", (1, 0), 0)]
    game, events = play_layout(layout, men={3: "forest"}, bonus=(), extra=("L54",))
    assert not any(isinstance(e, BonusTileDrawn) for e in events)
    assert not game.in_bonus and game.decision.player == 1


def test_t5_a_fisher_placed_on_the_completing_tile_scores_5_then_returns() -> None:
    game, events = play_layout(
        [("L46", (1, 0), 3), ("L12", (2, 0), 0), ("B12", (0, 0), 1)], men={2: "river"}
    )
    assert scores(events)[0] == ("river", {1: 5})
    assert game.supply[1]["man"] == 5


def test_t8_a_man_returned_by_a_completion_cannot_be_placed_again_that_turn() -> None:
    layout = [("L31", (0, 0), 2), ("L31", (0, 1), 1), ("L31", (1, 1), 0), ("L29", (1, 0), 0)]
    game, _ = play_layout(layout, men={3: "forest"}, bonus=("B05",), extra=("L54",))
    # Red used one of five men on the gold forest; during the bonus placement it is still away.
    assert game.supply[0] == {"man": 4, "hut": 2}


def test_t18_the_game_ends_after_the_last_land_tile_even_with_bonus_tiles_left() -> None:
    game, _ = play_layout([("L34", (1, 0), 3), ("L33", (0, 0), 0)], men={1: "forest"})
    assert game.finished
    assert len(game.bonus_stack) == 12


# -- final scoring: huts and hunters ---------------------------------------------------------


def test_a_hut_scores_every_fish_of_its_river_system_at_the_end() -> None:
    # L04 (start): three rivers into a 1-fish lake; L20 joins through its 2-fish lake.
    layout = [("L04", (0, 0), 0), ("L48", (1, 0), 1), ("L46", (0, 1), 3), ("L20", (1, 1), 3)]
    normal = normalise(layout)
    game = Game(Setup(players=("Red", "Blue"), game="hunters", draw=("L04", "L48", "L46", "L20")))
    for index, (_, (x, y), r) in enumerate(normal[1:], start=1):
        game.play(PlaceTile(x, y, 90 * r))
        if index == 1:
            game.play(man_on(game, x, y, "river", figure="hut"))
        elif game.phase is Phase.FIGURE:
            game.play(Pass())
    assert game.finished
    assert game.breakdown[0].get("hut") == 3  # the system's lakes hold 1 + 2 fish


def test_huts_and_fishers_do_not_block_each_other_but_a_system_takes_one_hut() -> None:
    game = Game(Setup(players=("Red", "Blue"), game="hunters", draw=("L04", "L48", "L46", "L20")))
    x, y, r = 1, 0, 1
    game.play(PlaceTile(x, y, 90 * r))
    game.play(man_on(game, x, y, "river", figure="hut"))
    # Blue's tile joins the same system: a fisher is still allowed, a hut is not.
    game.play(PlaceTile(0, 1, 270))
    spots = {(o.figure, o.at) for o in game.legal_figures()}
    river_at = [at for fig, at in spots if fig == "man"]
    assert river_at
    assert not any(fig == "hut" for fig, _ in spots if _ in (1, 7))


@pytest.mark.parametrize(
    ("animals", "expected"),
    [
        ({"deer": 1}, 2),  # T10: 1 deer
        ({"deer": 1, "mammoth": 1, "tiger": 1}, 2),  # T11: the tiger eats the deer
        ({"deer": 2, "mammoth": 2, "aurochs": 1, "tiger": 1}, 8),  # T12
        ({"deer": 1, "tiger": 2}, 0),  # T13: never negative
        ({"deer": 2, "tiger": 2, "fire": True}, 4),  # T14: fire chases every tiger
    ],
)
def test_hunters_score_2_per_game_animal_after_tigers_eat_deer(
    animals: dict[str, object], expected: int
) -> None:
    game = _meadow_game(animals, hunters=[0])
    assert game.breakdown[0].get("meadow", 0) == expected


def test_tied_hunters_both_score_the_meadow() -> None:
    game = _meadow_game({"deer": 1, "mammoth": 1, "tiger": 1}, hunters=[0, 1])
    assert game.breakdown[0]["meadow"] == 2 and game.breakdown[1]["meadow"] == 2


def test_the_hunter_majority_alone_scores_the_meadow() -> None:
    game = _meadow_game({"mammoth": 3}, hunters=[0, 1, 1])
    assert game.breakdown[1]["meadow"] == 6
    assert game.breakdown[0].get("meadow", 0) == 0


def test_t15_the_shrine_placer_with_a_hunter_on_it_scores_the_meadow_alone() -> None:
    # Red lays the shrine tile B01 (as a bonus-stack tile forced into the draw) with a hunter.
    game = Game(Setup(players=("Red", "Blue"), game="hunters", draw=("L53", "B01", "L53")))
    game.play(PlaceTile(0, -1, 180))  # B01 turned: its meadow (N and W) faces the start tile
    game.play(man_on(game, 0, -1, "meadow"))
    root = game.board.root_of((0, -1), game.board.tiles[(0, -1)].oriented.feature_at(6))
    # Blue has two hunters further along the same meadow (laid by earlier turns in a real game).
    for _ in range(2):
        game.board.figures[root].append(Figure(1, "man", (0, 0), 0, 0))
    game.play(PlaceTile(1, 0, 0))
    if game.phase is Phase.FIGURE:
        game.play(Pass())
    assert game.finished
    assert game.breakdown[0]["meadow"] > 0
    assert game.breakdown[1].get("meadow", 0) == 0


def test_a_shrine_without_its_placers_hunter_changes_nothing() -> None:
    game = Game(Setup(players=("Red", "Blue"), game="hunters", draw=("L53", "B01", "L53")))
    game.play(PlaceTile(0, -1, 180))
    game.play(Pass())
    root = game.board.root_of((0, -1), game.board.tiles[(0, -1)].oriented.feature_at(6))
    game.board.figures[root].append(Figure(1, "man", (0, 0), 0, 0))
    game.play(PlaceTile(1, 0, 0))
    if game.phase is Phase.FIGURE:
        game.play(Pass())
    assert game.breakdown[1]["meadow"] > 0


def _meadow_game(animals: dict[str, object], hunters: list[int]) -> Game:
    """A finished 2-tile game whose one meadow holds exactly ``animals`` and ``hunters``.

    The start tile is an all-meadow tile whose animals are replaced for the case; hunters are put
    on the meadow directly (placement rules are tested elsewhere), then the last tile ends the game
    and final scoring runs.
    """
    game = Game(Setup(players=("Red", "Blue"), game="hunters", draw=("L53", "L31")))
    start = game.board.tiles[(0, 0)]
    feature = replace(start.oriented.features[0], extra=dict(animals))
    oriented = replace(start.oriented, features=(feature,))
    game.board.tiles[(0, 0)] = replace(start, oriented=oriented)
    root = game.board.root_of((0, 0), 0)
    for player in hunters:
        game.board.figures[root].append(Figure(player, "man", (0, 0), 0, 0))
    game.play(PlaceTile(0, 1, 180))  # L31 turned: its animal-free meadow joins from the south
    if game.phase is Phase.FIGURE:
        game.play(Pass())
    assert game.finished
    return game


# -- properties over random games ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_conserve_figures_and_replay(seed: int) -> None:
    players = tuple(f"P{i}" for i in range(2 + seed % 4))
    game = Game(Setup(players=players, game="hunters", seed=seed))
    assert isinstance(game, HuntersGame)
    rng = random.Random(seed)
    last = list(game.scores)
    while not game.finished:
        game.play(random_action(game, rng))
        assert all(now >= before for now, before in zip(game.scores, last, strict=True))
        last = list(game.scores)
        on_board = Counter((f.player, f.kind) for f in game.figures())
        returning = Counter((f.player, f.kind) for f in game._returning)
        for p in range(game.players):
            for kind, total in (("man", 5), ("hut", 2)):
                count = on_board[(p, kind)] + returning[(p, kind)] + game.supply[p][kind]
                assert count == total
    assert not game.stack
    again = Game.from_record(game.record())
    assert again.snapshot() == game.snapshot()


def test_refusals_name_the_hunters_features() -> None:
    game = Game(Setup(players=("A", "B"), game="hunters", draw=("L53", "L29", "L53")))
    # L29 unturned shows forest on S and W: next to the all-meadow start tile's east edge its
    # west forest meets meadow.
    with pytest.raises(IllegalActionError, match="forest but the neighbour there shows meadow"):
        game.play(PlaceTile(1, 0, 0))


def test_simulate_plays_hunters_games() -> None:
    for seed in range(5):
        game = Game(Setup(players=("A", "B", "C"), game="hunters", seed=seed))
        play_random(game, random.Random(seed))
        assert game.finished
