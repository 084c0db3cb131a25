"""Traders & Builders (RULES.md section 5): its 24 tiles, trade goods, the pig.

Board sketches use x east, y south. The start tile D lies at (0, 0): city north, road west-east,
field south. Players are Blue (0), Red (1), ... in turn order; Blue places first. The builder
has its own module (test_builder.py).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from am_helpers import phase_of, put, scores_of
from tb_helpers import BOTH, REF, TB, goods_of, new_game

from engine import Game, IllegalActionError, Pass, Phase, PlaceFigure, PlaceTile, Setup
from engine.carcassonne.traders_builders import goods, rules
from engine.core.events import Event, GoodsTaken
from engine.core.tiles import load_set

BLUE, RED, YELLOW = 0, 1, 2
TB_KINDS = {k.name: k for k in load_set("traders_builders")}

# -- the 24 tiles as data ---------------------------------------------------------------------


def test_the_reference_table_lists_24_tiles_one_of_each() -> None:
    assert sorted(REF) == [f"TB{i:02d}" for i in range(1, 25)]
    assert all(t.count == 1 for t in REF.values())


def test_the_expansion_has_the_24_tiles_of_the_table_one_of_each() -> None:
    assert sorted(TB_KINDS) == sorted(REF)
    assert all(k.count == 1 and not k.start and not k.abbey for k in TB_KINDS.values())


@pytest.mark.parametrize("name", sorted(REF))
def test_tile_data_matches_the_shared_table(name: str) -> None:
    ref, kind = REF[name], TB_KINDS[name]
    assert (kind.count, kind.edges) == (ref.count, ref.edges)
    ids = [f.id for f in kind.features]
    mine = {
        (
            f.type,
            f.positions,
            f.inner >= 0,
            f.centre,
            f.extra.get("goods"),
            f.pennants,
            frozenset(ids[c] for c in f.cities),
        )
        for f in kind.features
    }
    theirs = {(f.type, f.positions, f.inner, f.centre, f.goods, 0, f.cities) for f in ref.features}
    assert mine == theirs
    assert sorted(ids) == sorted(f.id for f in ref.features)
    assert {frozenset((ids[a], ids[b])) for a, b in kind.links} == set(ref.links)


def test_goods_total_9_wine_6_grain_5_cloth_on_20_tiles_and_no_pennants() -> None:
    symbols = Counter(
        f.extra["goods"] for k in TB_KINDS.values() for f in k.features if "goods" in f.extra
    )
    assert symbols == {"wine": 9, "grain": 6, "cloth": 5}
    assert all(f.type == "city" for k in TB_KINDS.values() for f in k.features if f.extra)
    carrying = {k.name for k in TB_KINDS.values() if any("goods" in f.extra for f in k.features)}
    assert sorted(set(TB_KINDS) - carrying) == ["TB16", "TB20", "TB23", "TB24"]
    assert sum(f.pennants for k in TB_KINDS.values() for f in k.features) == 0
    cloisters = [k.name for k in TB_KINDS.values() if any(f.centre for f in k.features)]
    assert cloisters == ["TB20"]


@pytest.mark.parametrize(
    ("expansions", "tiles"), [(TB, 96), (BOTH, 108), (("abbey_mayor",), 84), ((), 72)]
)
def test_the_stack_holds_the_base_tiles_and_the_expansions(
    expansions: tuple[str, ...], tiles: int
) -> None:
    game = Game(Setup(players=("Blue", "Red"), seed=5, expansions=expansions))
    assert game.decision.tile is not None
    counts = Counter([game.decision.tile, *game.stack, "D"])
    assert sum(counts.values()) == tiles
    assert sum(counts[name] for name in TB_KINDS) == (24 if "traders_builders" in expansions else 0)


def test_each_player_gets_a_builder_and_a_pig_for_up_to_six() -> None:
    game = new_game("D E", players=6)
    assert game.supply == [{"follower": 7, "builder": 1, "pig": 1}] * 6
    assert goods_of(game) == [{"wine": 0, "grain": 0, "cloth": 0}] * 6
    both = new_game("D E", players=6, expansions=BOTH)
    assert both.supply[5] == {
        "follower": 7,
        "mayor": 1,
        "barn": 1,
        "wagon": 1,
        "builder": 1,
        "pig": 1,
    }
    assert goods(Game(Setup(players=("A", "B"))), 0) == {}


# -- goods --------------------------------------------------------------------------------------
#
#            x=-2   x=-1    x=0      x=1
#   y=-1                    TB01     E        TB01 turned 180: grain city south and east;
#   y=0      E      TB21    D                 E closes it: a 3-tile city with one grain
#   y=1             E                         TB21 turned 270: grain city south and west


def grain_city(knight: bool) -> tuple[Game, list[Event]]:
    """Blue lays TB01 (with a knight or not); Red's E completes the city."""
    game = new_game("D TB01 E TB21 E E")
    put(game, 0, -1, 180, *(("follower", 3) if knight else ()))
    events = put(game, 1, -1, 270)
    return game, events


def test_the_player_who_completes_a_city_takes_its_goods_even_if_another_owns_it() -> None:
    game, events = grain_city(knight=True)
    (city,) = scores_of(events, "city")
    assert (city.tiles, city.points) == (3, {BLUE: 6})
    taken = [(e.player, e.goods) for e in events if isinstance(e, GoodsTaken)]
    assert taken == [(RED, {"grain": 1})]
    assert goods_of(game) == [
        {"wine": 0, "grain": 0, "cloth": 0},
        {"wine": 0, "grain": 1, "cloth": 0},
    ]
    assert goods(game, RED) == {"wine": 0, "grain": 1, "cloth": 0}


def test_the_completer_takes_the_goods_of_a_city_nobody_holds() -> None:
    game, events = grain_city(knight=False)
    assert [c.points for c in scores_of(events, "city")] == [{}]
    assert goods(game, RED)["grain"] == 1 and goods(game, BLUE)["grain"] == 0


def test_no_goods_for_an_unfinished_city_and_none_for_a_city_without_symbols() -> None:
    game = new_game("D TB01 E E")
    events = put(game, 0, -1, 180)  # TB01's grain city is still open to the east
    assert not any(isinstance(e, GoodsTaken) for e in events)
    game = new_game("D E")
    events = put(game, 0, -1, 180)  # E closes D's city: no symbol in it
    assert scores_of(events, "city") and not any(isinstance(e, GoodsTaken) for e in events)


def test_tied_goods_majorities_each_score_10_at_the_end() -> None:
    game, _ = grain_city(knight=False)  # Red takes one grain
    put(game, -1, 0, 270)  # Blue: TB21, its grain city open south and west
    put(game, -1, 1, 0)  # Red: E closes the south side
    events = put(game, -2, 0, 90)  # Blue: E closes the west side, takes the grain; last tile
    assert game.finished
    assert goods_of(game)[BLUE]["grain"] == goods_of(game)[RED]["grain"] == 1
    scored = scores_of(events, "goods")
    assert [(e.points, e.final, e.details["good"]) for e in scored] == [
        ({BLUE: 10, RED: 10}, True, "grain")
    ]
    assert game.breakdown == [{"goods": 10}, {"goods": 10}]


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        # wine: Blue most; grain: Red and Yellow tie; cloth: nobody has any.
        ([(3, 0, 0), (1, 2, 0), (0, 2, 0)], [{0: 10}, {1: 10, 2: 10}]),
        # Everyone ties on each good they all hold.
        ([(1, 1, 1), (1, 1, 1), (1, 1, 1)], [{0: 10, 1: 10, 2: 10}] * 3),
        ([(0, 0, 0), (0, 0, 0), (0, 0, 5)], [{2: 10}]),
    ],
)
def test_each_good_pays_10_to_its_majority_of_at_least_one_token(
    tokens: list[tuple[int, int, int]], expected: list[dict[int, int]]
) -> None:
    game = new_game("D E", players=3)
    pile = [dict(zip(rules.GOODS, t, strict=True)) for t in tokens]
    game._pending = []
    rules.score_goods(game, pile)
    events = scores_of(game._pending, "goods")
    assert [e.points for e in events] == expected
    assert all(e.final for e in events)


def test_goods_are_in_the_snapshot_and_replay() -> None:
    game, _ = grain_city(knight=True)
    assert game.snapshot()["goods"][RED] == {"wine": 0, "grain": 1, "cloth": 0}
    again = Game.from_record(game.record())
    assert again.snapshot() == game.snapshot()


# -- the pig -----------------------------------------------------------------------------------
#
#            x=0    x=1
#   y=-1     E      B        E turned 180 closes D's city; B joins the fields north of the road
#   y=0      D      U        Blue's farmer on U, Red's on E, Blue's pig on B: one field


def pig_field(pig: bool, **options: Any) -> Game:
    game = new_game("D U E B", **options)
    put(game, 1, 0, 0, "follower", 0)  # Blue: farmer north of the road
    put(game, 0, -1, 180, "follower", 0)  # Red: farmer in E's field; D's city is complete
    put(game, 1, -1, 0, *(("pig", 0) if pig else ()))  # Blue: B joins both fields
    assert game.finished
    return game


@pytest.mark.parametrize(
    ("farmers", "blue", "red"),
    [("modern", 4, 3), ("classic", 4, 3), ("classic4", 5, 4)],
)
def test_the_pig_adds_1_per_city_to_its_owner_and_never_counts_as_a_farmer(
    farmers: str, blue: int, red: int
) -> None:
    game = pig_field(pig=True, farmers=farmers)
    assert game.breakdown == [{"field": blue}, {"field": red}]
    plain = pig_field(pig=False, farmers=farmers)
    assert plain.breakdown == [{"field": red}, {"field": red}]
    assert ("pig" in {f.kind for f in game.figures()}) and game.supply[BLUE]["pig"] == 0


def test_the_pig_goes_only_in_a_field_holding_a_farmer_of_its_owner() -> None:
    game = new_game("D U E B U")
    game.play(PlaceTile(1, 0, 0))
    assert [f for f in game.legal_figures() if f.figure == "pig"] == []  # no farmer yet
    with pytest.raises(IllegalActionError, match="pig"):
        game.play(PlaceFigure("pig", 1, 0, 0))
    game.play(PlaceFigure("follower", 1, 0, 0))
    game.play(PlaceTile(0, -1, 180))  # Red: no farmer of Red's there
    assert PlaceFigure("pig", 0, -1, 0) not in game.legal_figures()
    game.play(Pass())
    game.play(PlaceTile(1, -1, 0))  # Blue: B, the field holds Blue's farmer
    assert [f for f in game.legal_figures() if f.figure == "pig"] == [PlaceFigure("pig", 1, -1, 0)]
    game.play(PlaceFigure("pig", 1, -1, 0))
    game.play(PlaceTile(2, 0, 0))  # Red: U; the field north of it holds Blue's pig
    game.play(Pass())
    assert phase_of(game) is Phase.OVER and game.supply[BLUE]["pig"] == 0


def test_a_pig_in_a_field_scored_by_a_barn_adds_1_per_city_to_the_farmers_points() -> None:
    # Abbey & Mayor's barn example: seat 1's farmer in the big field, and its pig there too.
    game = new_game("D B E E B E U E B B B", expansions=BOTH)
    put(game, 0, 1, 0)
    put(game, 0, 2, 180, "follower", 0)  # Red: farmer in the big field
    put(game, 0, 3, 0)  # closes the first city
    put(game, 1, 1, 0, "pig", 0)  # Red: B in the same field, with the pig
    put(game, 1, 3, 0)
    put(game, 1, 0, 0)
    game.play(PlaceTile(1, 2, 180))  # closes the second city
    events = game.play(PlaceFigure("barn", 1, 2, "NW"))
    assert [f.points for f in scores_of(events, "field")] == [{RED: 8}]  # (3 + 1) x 2 cities
    assert game.supply[RED]["pig"] == 1 and game.supply[RED]["follower"] == 7
    put(game, -1, 1, 0)
    put(game, 2, 1, 0)
    events = put(game, 2, 2, 0)
    assert game.finished
    assert [e.points for e in scores_of(events, "barn")] == [{BLUE: 8}]  # no pig bonus there


def test_a_field_joined_to_a_barn_field_gives_its_pig_owner_1_more_per_city() -> None:
    game = new_game("D B E E E B U E B B B", expansions=BOTH)
    put(game, 0, 1, 0)
    put(game, 0, 2, 180)
    put(game, 0, 3, 0)  # closes the first city
    put(game, 1, 3, 0, "follower", 3)  # Red: farmer in the small field south of both cities
    put(game, 1, 1, 0)
    put(game, 1, 0, 0)
    put(game, 1, 2, 180, "barn", "NW")  # Blue: barn; nobody farms that field yet
    put(game, 1, 4, 0, "pig", 0)  # Red: B south of the farmer, with the pig
    put(game, 2, 2, 0)  # Blue: B joins the barn's field
    events = put(game, 2, 3, 0)  # Red: B links Red's field to the barn's field
    assert [f.points for f in scores_of(events, "field")] == [{RED: 4}]  # (1 + 1) x 2 cities
    assert game.supply[RED]["pig"] == 1
    assert game.finished
    assert game.breakdown == [{"barn": 8}, {"field": 4}]
