"""The Castle: the score track, corner towers, wall tiles, the palace and the final scoring.

Where a test needs a player to hold a wall tile and how they got it is not the point, it hands the
tile over as the track would (``held`` gets the tile and the turn it was taken).
"""

from __future__ import annotations

import json

import pytest
from castle_helpers import castle, lay, scored, subject_on
from test_castle import E5

from engine import (
    CastleGame,
    FeatureScored,
    Game,
    IllegalActionError,
    MalformedError,
    PalacePlaced,
    Pass,
    Phase,
    PlaceFigure,
    PlaceTile,
    UseWallTile,
    WallTileTaken,
    WallTileUsed,
    action_from_json,
)
from engine.castle.board import castle_geometry
from engine.castle.game import Palace
from engine.core.events import Event

# -- landing on the track ----------------------------------------------------------------------

ALL_TOWERS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4)  # on 12/13, 18/19, 22/23, ... in order


@pytest.mark.parametrize(
    ("before", "points", "taken"),
    [
        (10, 2, (1, 12)),  # tower 12/13
        (10, 4, None),  # passes 12/13: nothing
        (31, 2, (4, 33)),  # tower 32/33, the rulebook example
        (40, 3, (6, 43)),  # tower 42/43
        (56, 4, (7, 60)),  # tower 60/61
        (95, 5, None),  # space 0 on the second lap: tower 0/1 has no wall tile
        (72, 3, (9, 75)),  # 74/75 and 76/77 are two towers side by side
        (72, 4, (1, 76)),
    ],
)
def test_a_marker_takes_a_wall_tile_only_by_stopping_exactly_on_a_tower(
    before: int, points: int, taken: tuple[int, int] | None
) -> None:
    game = castle(("K01",), walls=ALL_TOWERS)
    game.scores[0] = before
    game.score_on_track(0, "tower", points)
    took = [e for e in game._pending if isinstance(e, WallTileTaken)]
    if taken is None:
        assert took == [] and game.wall_hand(0) == []
    else:
        wall, space = taken
        assert took == [WallTileTaken(0, wall, space)]
        assert game.wall_hand(0) == [wall]
        assert game.track_space(0) == space
        tower = castle_geometry().tower_at(space)
        assert tower is not None and game.towers[tower.spaces[0]] is None


def test_a_tower_whose_wall_tile_was_taken_gives_nothing_more() -> None:
    game = castle(("K01",), walls=ALL_TOWERS)
    game.scores[0] = 10
    game.score_on_track(0, "tower", 2)
    game.scores[1] = 11
    game.score_on_track(1, "path", 1)
    assert game.wall_hand(0) == [1] and game.wall_hand(1) == []


def test_scoring_12_in_two_features_lands_on_the_first_tower_and_takes_its_tile() -> None:
    placements = [
        ((5, 0), "K02", 0),  # Black: 4
        ((0, 5), "K22", 90),
        ((4, 0), "K07", 180),  # Black's knight on the tower of E3
        ((3, 0), "K08", 90),
        ((3, 1), "K07", 0),
        ((4, 1), "K17", 270),  # White closes the tower: Black 4 + 8 = 12
    ]
    game, events = lay(placements, {0: "tower", 2: "tower"}, walls=(7,), extra=("K01",))
    assert game.scores == [12, 0]
    assert [e for e in events if isinstance(e, WallTileTaken)] == [WallTileTaken(0, 7, 12)]
    assert game.wall_hand(0) == [7]


def test_when_both_score_from_one_placement_the_placer_moves_first() -> None:
    placements = [
        ((8, 2), "K01", 0),
        ((9, 2), "K05", 180),  # White's burgher, house open to the south
        ((9, 3), "K12", 0),  # Black closes it and a tower against the wall, with a knight
    ]
    game, events = lay(placements, {1: "house", 2: "tower"}, extra=("K01",))
    # K12 lists its house before its tower: the placer's tower still scores (and moves) first.
    assert scored(events) == [("tower", 1, {0: 2}), ("house", 2, {1: 2})]
    assert game.scores == [2, 2]


# -- playing wall tiles ------------------------------------------------------------------------


def test_wall_tile_1_gives_two_turns_in_a_row() -> None:
    game = castle(("K01", "K01", "K02", "K03"))
    game.held[0].append((1, -1))
    assert UseWallTile(1) in game.legal_wall_tiles()
    events = game.play(UseWallTile(1))
    assert events == [WallTileUsed(0, 1, None, None)]
    game.play(PlaceTile(3, 9, 0))
    game.play(Pass())
    assert game.decision.player == 0 and game.phase is Phase.TILE
    game.play(PlaceTile(3, 8, 0))
    game.play(Pass())
    assert game.decision.player == 1
    assert game.wall_hand(0) == [] and game.played[0] == [1]


def test_several_wall_tiles_in_one_turn_each_once() -> None:
    game = castle(("K01", "K01", "K02", "K03", "K04"))
    game.held[0] += [(1, -1), (1, -1)]
    game.play(UseWallTile(1))
    game.play(UseWallTile(1))
    with pytest.raises(IllegalActionError) as caught:
        game.play(UseWallTile(1))
    assert caught.value.code == "no_such_wall_tile"
    players = []
    for square in ((3, 9), (3, 8), (5, 0)):
        players.append(game.decision.player)
        game.play(PlaceTile(*square, 0))
        game.play(Pass())
    assert players == [0, 0, 0] and game.decision.player == 1


def test_a_wall_tile_is_used_from_the_owners_next_turn() -> None:
    game = castle(("K01", "K01"))
    game.held[0].append((1, game.turn))  # taken during this very turn
    assert game.legal_wall_tiles() == []
    with pytest.raises(IllegalActionError) as caught:
        game.play(UseWallTile(1))
    assert caught.value.code == "wall_tile_too_soon"


def test_wall_tiles_4_to_9_act_by_themselves_at_the_end() -> None:
    game = castle(("K01", "K01"))
    game.held[0].append((9, -1))
    with pytest.raises(IllegalActionError, match="final scoring") as caught:
        game.play(UseWallTile(9))
    assert caught.value.code == "wall_tile_at_end"


def test_wall_tile_2_doubles_a_tower_of_its_owner_when_it_is_completed_later() -> None:
    game = castle(("K07", "K01", "K07", "K02", "K01"))
    game.held[0].append((2, -1))
    game.play(PlaceTile(8, 9, 180))  # Black's knight on a tower with S6
    game.play(subject_on(game, 8, 9, "tower"))
    assert game.legal_wall_tiles() == [UseWallTile(2, 8, 9, 6)]  # the wall-tile step
    game.play(Pass())  # not now
    game.play(PlaceTile(8, 8, 0))
    game.play(Pass())
    use = UseWallTile(2, 8, 9, 6)
    assert game.legal_wall_tiles() == [use]
    assert game.play(use) == [WallTileUsed(0, 2, (8, 9), 6)]
    game.play(PlaceTile(7, 9, 0))  # the tower grows, still open to the north
    game.play(Pass())
    events = game.play(PlaceTile(7, 8, 180))  # White closes it: 4 tiles
    events += game.play(Pass()) if game.phase is Phase.FIGURE else []
    assert scored(events) == [("tower", 4, {0: 16})]
    assert game.played[0] == [2] and game.wall_hand(0) == []


def test_wall_tile_2_needs_the_owners_majority() -> None:
    placements = [((8, 9), "K07", 180)]
    game, _ = lay(placements, {0: "tower"}, extra=("K01", "K01"))
    game.held[1].append((2, -1))
    assert game.legal_wall_tiles() == []
    with pytest.raises(IllegalActionError) as caught:
        game.play(UseWallTile(2, 8, 9, 6))
    assert caught.value.code == "wall_tile_no_majority"
    with pytest.raises(IllegalActionError) as caught:
        game.play(UseWallTile(2))
    assert caught.value.code == "wall_tile_needs_target"


def test_wall_tile_3_after_the_burgher_doubles_the_house_this_tile_completes() -> None:
    game = castle(("K01", "K05", "K12", "K01"))
    game.held[0].append((3, -1))
    game.play(PlaceTile(8, 2, 0))
    game.play(Pass())
    game.play(PlaceTile(9, 2, 180))
    game.play(Pass())
    game.play(PlaceTile(9, 3, 0))  # closes the house south of (9, 2)
    assert [u.wall for u in game.legal_wall_tiles()] == []  # no majority yet
    game.play(subject_on(game, 9, 3, "house"))
    assert game.phase is Phase.FIGURE and game.legal_figures() == []  # the wall-tile step
    (use,) = game.legal_wall_tiles()
    assert use.wall == 3
    game.play(use)
    events = game.play(Pass())
    assert scored(events) == [("house", 2, {0: 4}), ("tower", 1, {})]


def test_without_a_wall_tile_to_play_the_turn_does_not_wait() -> None:
    game = castle(("K05", "K01"))
    game.play(PlaceTile(1, 2, 0))
    events = game.play(subject_on(game, 1, 2, "house"))
    assert scored(events) == [("house", 2, {0: 2})]
    assert game.decision.player == 1


def test_use_wall_tile_json_round_trips_and_refuses_bad_input() -> None:
    for action in (UseWallTile(1), UseWallTile(2, 8, 9, 6)):
        assert action_from_json(action.to_json()) == action
    assert UseWallTile(3, 1, 2, 0).to_json() == {
        "type": "use_wall_tile",
        "wall": 3,
        "x": 1,
        "y": 2,
        "at": 0,
    }
    with pytest.raises(MalformedError, match="1-9"):
        action_from_json({"type": "use_wall_tile", "wall": 10})
    with pytest.raises(MalformedError, match="together"):
        action_from_json({"type": "use_wall_tile", "wall": 2, "x": 1})


def test_wall_tiles_belong_to_the_castle_only() -> None:
    from engine import Game, Setup

    game = Game(Setup(players=("A", "B")))
    with pytest.raises(IllegalActionError) as caught:
        game.play(UseWallTile(1))
    assert caught.value.code == "no_wall_tiles"


# -- the palace ------------------------------------------------------------------------------


def test_the_palace_moves_to_a_larger_house_and_not_to_a_smaller_one() -> None:
    placements = [
        ((1, 2), "K05", 0),  # Black: house of 2 with S2, palace
        ((0, 2), "K06", 0),  # White: house of 1, palace
        ((5, 0), "K02", 0),
        ((4, 0), "K05", 270),  # White's burgher, house open to the west
        ((3, 0), "K09", 0),  # Black closes it: White's palace moves to 2 tiles
        ((0, 5), "K22", 90),
        ((0, 3), "K05", 270),  # Black: a house of 1 leaves the palace of 2 where it is
    ]
    subjects: dict[int, str | int] = {0: "house", 1: "house", 3: "house", 6: "house"}
    game, events = lay(placements, subjects, extra=("K01",))
    moves = [(e.player, e.tiles, e.moved) for e in events if isinstance(e, PalacePlaced)]
    assert moves == [(0, 2, False), (1, 1, False), (1, 2, True)]
    palace = game.palaces[0]
    assert palace is not None and palace.tiles == 2
    assert game.supply[0]["palace"] == 0


def test_nobody_places_the_palace_by_hand() -> None:
    game = castle(("K05", "K01"))
    game.play(PlaceTile(1, 2, 0))
    with pytest.raises(IllegalActionError) as caught:
        game.play(PlaceFigure("palace", 1, 2, 0))
    assert caught.value.code == "palace_by_hand"


# -- the end -----------------------------------------------------------------------------------


def end_with_empty(
    empty: set[tuple[int, int]], palaces: list[Palace | None], walls: list[int]
) -> tuple[CastleGame, list[Event]]:
    """Cover the castle but ``empty`` (directly on the board), then play the last tile."""
    game = castle(("K01",))
    interior = sorted(castle_geometry().interior - empty)
    last = interior.pop()
    kind = game.kinds["K01"].oriented(0)
    for square in interior:
        game.board.place(kind, square, 0)
    game.palaces = palaces
    for wall in walls:
        game.held[1].append((wall, 0))
    assert PlaceTile(*last, 0) in game.legal_placements()
    events = game.play(PlaceTile(*last, 0))
    events += game.play(Pass()) if game.phase is Phase.FIGURE else []
    assert game.finished
    return game, events


SE_WING = {(x, y) for x in (7, 8, 9) for y in (7, 8, 9)}
SCATTERED = {(0, 2), (9, 2), (3, 0), (6, 0), (0, 6), (2, 9), (4, 5)}  # none touching another


def test_the_larger_palace_scores_the_largest_empty_region() -> None:
    game, events = end_with_empty(SE_WING | SCATTERED, [Palace(3, (0, 0)), Palace(2, (0, 0))], [])
    assert len(castle_geometry().interior - set(game.board.tiles)) == 16
    assert scored(events, final=True)[0] == ("palace", 9, {0: 9})


def test_equal_palaces_score_nobody_and_wall_tile_8_adds_two_tiles() -> None:
    _, events = end_with_empty(SE_WING | SCATTERED, [Palace(3, (0, 0)), Palace(3, (0, 0))], [])
    assert scored(events, final=True)[0] == ("palace", 9, {})
    game, events = end_with_empty(SE_WING | SCATTERED, [Palace(4, (0, 0)), Palace(3, (0, 0))], [8])
    assert game.palace_size(1) == 5
    assert scored(events, final=True)[0] == ("palace", 9, {1: 9})


def test_the_rulebooks_largest_empty_region_of_11() -> None:
    gatehouse = {(x, y) for x in range(3, 7) for y in (0, 1)} | {(3, 2), (4, 2), (5, 2)}
    _, events = end_with_empty(gatehouse | {(9, 9)}, [None, Palace(1, (0, 0))], [9])
    final = scored(events, final=True)
    assert final[0] == ("palace", 11, {1: 11})
    assert ("wall", 0, {1: 5}) in final  # wall tile 9


def test_e5_court_with_wall_tile_7_scores_20_and_a_tie_scores_nobody() -> None:
    game = castle(tuple(kind for _, kind, _ in E5))
    game.held[0].append((7, 0))
    for index, ((x, y), _, rotation) in enumerate(E5):
        game.play(PlaceTile(x, y, rotation))
        if game.phase is Phase.FIGURE:
            game.play(subject_on(game, x, y, "courtyard") if index == 0 else Pass())
    assert game.finished
    assert game.breakdown[0] == {"courtyard": 15, "wall": 5}
    assert game.scores[0] == 20


def test_merchants_stay_and_tied_courts_score_nobody() -> None:
    placements = [
        ((3, 9), "K01", 0),  # Black's merchant, court with S7
        ((4, 9), "K03", 90),  # White's merchant, a separate court
        ((4, 8), "K48", 0),
        ((3, 8), "K01", 0),  # joins both courts: one merchant each
    ]
    game, events = lay(placements, {0: "courtyard", 1: "courtyard"})
    assert game.finished
    assert scored(events, final=True) == [("courtyard", 5, {})]
    merchants = [f for f in game.figures() if f.kind == "subject"]
    assert len(merchants) == 2  # merchants never come back


def test_wall_tiles_4_5_6_score_one_incomplete_feature_each_with_majority() -> None:
    placements = [((0, 5), "K22", 90), ((8, 9), "K07", 180), ((1, 2), "K09", 90)]
    game = castle(tuple(k for _, k, _ in placements))
    game.held[0] += [(4, 0), (5, 0), (6, 0)]
    game.held[1] += [(4, 0)]
    events: list[Event] = []
    for (x, y), _, rotation in placements:
        events += game.play(PlaceTile(x, y, rotation))
        ftype = {(0, 5): "path", (8, 9): "tower", (1, 2): "house"}[(x, y)]
        events += game.play(subject_on(game, x, y, ftype))
    assert game.finished
    final = [e for e in events if isinstance(e, FeatureScored)]
    walls = sorted(
        (e.details["wall"], e.details["feature"], e.points) for e in final if e.feature == "wall"
    )
    # Black: the path of 2 (S1 + K22) and the house of 1; White: the tower of 2 (S6 + K07).
    # White's tile 4 finds no path where White holds the majority; Black's tile 5 no tower.
    assert walls == [(4, "path", {0: 2}), (6, "house", {0: 1})]


def test_a_record_with_forced_wall_tiles_replays_to_the_same_state() -> None:
    game, _ = lay([((5, 0), "K02", 0)], {0: "tower"}, walls=(9, 9, 1), extra=("K01",))
    record = json.loads(json.dumps(game.record()))
    assert record["game"] == "castle" and record["wall_draw"] == [9, 9, 1]
    assert Game.from_record(record).snapshot() == game.snapshot()
    assert game.towers[12] == 9 and game.towers[22] == 1 and game.towers[32] is None


def test_forced_wall_tiles_must_be_real_ones() -> None:
    with pytest.raises(MalformedError, match="at most twice"):
        castle(("K01",), walls=(9, 9, 9))
    with pytest.raises(MalformedError, match="each 1 to 9"):
        castle(("K01",), walls=(0,))
