"""The Castle (Knizia, 2003) on the shared engine core, for exactly 2 players (RULES.md section 4).

Differences from Carcassonne, each at one rule point of :class:`engine.core.game.Game`:
- the board is the bounded castle (:mod:`engine.castle.board`): there is no start tile; the 7
  start squares lie in the wall from the setup (no action lays them) and count as tiles of the
  feature they carry. ``draw`` in a record therefore lists castle tiles only, first drawn first;
- only paths must continue across a side; the wall closes features;
- figures: 6 subjects (messenger on a path, knight on a tower, burgher on a house, merchant on a
  courtyard) and the palace, which no one places by hand: it goes to a player's first completed
  house where they hold the majority, and moves to a larger one later;
- majority where a tie scores nobody; subjects come back after scoring, merchants stay;
- the score track with corner towers and wall tiles (:mod:`engine.castle.walls`);
- final scoring: the largest palace, courtyards, wall tiles 4-9.

Wall tiles, as actions (``use_wall_tile``): 1 (two turns in a row) names nothing; 2 and 3 name a
tower or house, not yet scored, where the owner holds the majority: it scores double for them
when it is completed (now or later). Tiles 4-9 act by themselves at the final scoring, each on
the best feature its owner holds the majority in, so they are never played by hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.castle.board import CastleBoard, castle_geometry
from engine.castle.walls import WALL_POOL, WallRules
from engine.core.actions import Action, PlaceFigure, PlaceTile, UseWallTile
from engine.core.board import Board, Figure, Pos
from engine.core.errors import IllegalActionError, MalformedError
from engine.core.events import FeatureScored, FigureReturned, PalacePlaced
from engine.core.game import FOREIGN_ACTIONS, register_game
from engine.core.setup import Setup
from engine.core.steer import Steer
from engine.core.tiles import TileKind
from engine.core.turn import Phase

SUBJECTS = 6
ROLES = {"path": "messenger", "tower": "knight", "house": "burgher", "courtyard": "merchant"}
#: Features scored when complete, and their points per tile.
PER_TILE = {"path": 1, "tower": 2, "house": 1}
WALL_TILE_KINDS = tuple(range(1, 10))


@dataclass(frozen=True, slots=True)
class Palace:
    """Where a palace stands: a completed house of ``tiles`` tiles, one of them at ``where``."""

    tiles: int
    where: Pos


class CastleGame(WallRules):
    """One game of The Castle."""

    family_state: ClassVar[tuple[str, ...]] = (
        *WallRules.family_state,
        "geometry",
        "palaces",
        "_wall_step",
    )

    edge_words: ClassVar[dict[str, str]] = {
        "P": "a path",
        "T": "tower",
        "H": "house",
        "C": "courtyard",
        "W": "wall",
    }
    roles: ClassVar[dict[str, str]] = ROLES

    def __init__(self, setup: Setup, steer: Steer | None = None) -> None:
        self.geometry = castle_geometry()
        self.palaces: list[Palace | None] = [None] * len(setup.players)
        self._wall_step = False
        super().__init__(setup, steer)
        self.init_walls()

    # -- setup ------------------------------------------------------------------------------

    def tile_sets(self) -> tuple[str, ...]:
        return ("castle",)

    def initial_supply(self) -> dict[str, int]:
        return {"subject": SUBJECTS, "palace": 1}

    def _new_board(self) -> Board:
        return CastleBoard(self.geometry)

    def _lay_start(self) -> None:
        """The start squares are part of the castle: they lie in the wall before the first turn."""
        for start in self.geometry.starts:
            self.board.place(self.kinds[start.kind].oriented(0), start.cell, 0)

    def _build_stack(self) -> list[str]:
        """The 60 castle tiles, top last; ``draw`` (castle tiles only) forces the order."""
        if self.setup.draw is not None:
            for name in self.setup.draw:
                kind = self.kinds.get(name)
                if kind is None or kind.start:
                    raise MalformedError(
                        f"'draw' names {name!r}, which is not a castle tile (K01 to K48)"
                    )
            return list(reversed(self.setup.draw))
        pool = [k.name for k in self.kinds.values() if not k.start for _ in range(k.count)]
        random.Random(self.setup.seed).shuffle(pool)
        return pool

    # -- placement --------------------------------------------------------------------------

    def check_place_tile(self, action: PlaceTile) -> TileKind:
        if self.phase is Phase.TILE:
            pos = (action.x, action.y)
            if pos not in self.geometry.interior:
                raise IllegalActionError(
                    f"({action.x}, {action.y}) is not a square inside the castle walls",
                    "outside_castle",
                    x=action.x,
                    y=action.y,
                )
            if pos not in self.board.tiles and pos not in self.board.frontier:
                raise IllegalActionError(
                    f"square ({action.x}, {action.y}) touches no placed tile and no start square "
                    "along a full side",
                    "not_adjacent",
                    x=action.x,
                    y=action.y,
                )
        return super().check_place_tile(action)

    # -- figures ----------------------------------------------------------------------------

    def _figure_options(self) -> list[PlaceFigure]:
        assert self.last_pos is not None
        if self.supply[self.current]["subject"] <= 0:
            return []
        board = self.board
        placed = board.tiles[self.last_pos]
        oriented = placed.oriented
        x, y = self.last_pos
        result: list[PlaceFigure] = []
        for local, feat in enumerate(oriented.features):
            if feat.type in ROLES and not board.figures[board.find(placed.first_node + local)]:
                result.append(PlaceFigure("subject", x, y, oriented.at_label(local)))
        return result

    def _place_figure(self, action: PlaceFigure) -> None:
        if self.phase is Phase.FIGURE:
            if action.figure == "palace":
                raise IllegalActionError(
                    "nobody places the palace by hand: it goes by itself to the first house you "
                    "complete with the majority, and moves to a larger one later",
                    "palace_by_hand",
                )
            if not self._figure_choices:
                raise IllegalActionError(
                    "no figure can be placed now: play a wall tile or pass", "no_figure_now"
                )
        super()._place_figure(action)

    def after_figure(self, figure: Figure, root: int) -> None:
        # A wall tile 2 or 3 may double the feature this subject just won: offer one more step.
        self._wall_step = True

    def _figure_refusal(self, figure: str, ftype: str) -> str:
        if ftype not in ROLES:
            return f"no subject can stand on the {ftype}"
        return (
            f"that {ftype} already holds a subject (maybe further away): "
            "choose another feature or pass"
        )

    def role(self, figure: str, ftype: str) -> str:
        return ROLES.get(ftype, figure) if figure == "subject" else figure

    def _choice_after_placement(self) -> bool:
        """Wait after the placement if a wall tile could be played before scoring."""
        return bool(self.legal_wall_tiles())

    # -- the turn ---------------------------------------------------------------------------

    def _finish_turn(self) -> None:
        """Score; but first, after a subject was placed, let its owner play wall tiles 2 or 3."""
        if self._wall_step:
            self._wall_step = False
            if self.legal_wall_tiles():
                self._figure_choices = []
                self.phase = Phase.FIGURE
                return
        self._score_completed()
        self._touched = []
        self._end_turn()

    def _score_completed(self) -> None:
        board = self.board
        seen: set[int] = set()
        completed: list[int] = []
        for node in self._touched:
            root = board.find(node)
            if root in seen:
                continue
            seen.add(root)
            if board.ftype[root] in PER_TILE and board.open[root] == 0 and not board.done[root]:
                completed.append(root)
        # When both players score from one placement, the placer moves their marker first.
        completed.sort(key=lambda root: self.majority_holder(root) != self.current)
        for root in completed:
            self._score_feature(root)

    def _score_feature(self, root: int) -> None:
        board = self.castle_board
        ftype = board.ftype[root]
        tiles = board.ftiles[root]
        assert tiles is not None
        winner = self.majority_holder(root)
        details: dict[str, Any] = {}
        value = PER_TILE[ftype] * len(tiles)
        if ftype == "path":
            wells = board.count_mark(root, "well")
            details["wells"] = wells
            value *= 2 if wells else 1
        if winner is not None and self.doubles(winner, root):
            value *= 2
            details["wall"] = 2 if ftype == "tower" else 3
        points = {winner: value} if winner is not None else {}
        self.emit(
            FeatureScored(
                feature=ftype,
                points=points,
                final=False,
                tiles=len(tiles),
                where=board.node_pos[root],
                details=details,
            )
        )
        if winner is not None:
            self.score_on_track(winner, ftype, value)
        board.done[root] = True
        for figure in board.figures[root]:
            self.supply[figure.player][figure.kind] += 1
            self.emit(FigureReturned(figure.player, figure.kind, *figure.pos))
        board.figures[root] = []
        if ftype == "house" and winner is not None:
            self._settle_palace(winner, root, len(tiles))

    def _settle_palace(self, player: int, root: int, tiles: int) -> None:
        """A player completed a house with the majority: first palace, or a move to a larger one."""
        palace = self.palaces[player]
        if palace is not None and palace.tiles >= tiles:
            return
        where = self.board.node_pos[root]
        self.palaces[player] = Palace(tiles, where)
        self.supply[player]["palace"] = 0
        self.emit(PalacePlaced(player, where[0], where[1], tiles, moved=palace is not None))

    # -- final scoring ----------------------------------------------------------------------

    def final_scoring(self) -> None:
        """Largest palace, courtyards, then wall tiles 4-9 (incomplete features score nothing)."""
        self._score_palace()
        board = self.castle_board
        roots = [n for n, parent in enumerate(board.parent) if parent == n]
        for root in roots:
            if board.ftype[root] == "courtyard" and board.figures[root]:
                self._score_courtyard(root)
        self.score_final_walls(roots)

    def palace_size(self, player: int) -> int:
        """Tiles of a player's palace as the final scoring counts it (wall tile 8: 2 more)."""
        palace = self.palaces[player]
        if palace is None or self.out[player]:
            return 0
        return palace.tiles + 2 * self.wall_hand(player).count(8)

    def _score_palace(self) -> None:
        if not any(self.palaces):
            return
        sizes = [self.palace_size(p) for p in range(self.players)]
        best = max(sizes)
        region = self.castle_board.largest_empty_region()
        winners = [p for p, size in enumerate(sizes) if size == best]
        points = {winners[0]: region} if len(winners) == 1 and region else {}
        for player, won in points.items():
            self.add_points(player, "palace", won)
        where = next(p.where for p in self.palaces if p is not None)
        if len(winners) == 1:
            palace = self.palaces[winners[0]]
            assert palace is not None
            where = palace.where
        self.emit(
            FeatureScored(
                feature="palace",
                points=points,
                final=True,
                tiles=region,
                where=where,
                details={"sizes": sizes},
            )
        )

    def _score_courtyard(self, root: int) -> None:
        board = self.castle_board
        markets = board.count_mark(root, "market")
        winner = self.majority_holder(root)
        points = {winner: 3 * markets} if winner is not None and markets else {}
        for player, won in points.items():
            self.add_points(player, "courtyard", won)
        tiles = board.ftiles[root]
        assert tiles is not None
        self.emit(
            FeatureScored(
                feature="courtyard",
                points=points,
                final=True,
                tiles=len(tiles),
                complete=False,
                where=board.node_pos[root],
                details={"markets": markets},
            )
        )

    def snapshot(self) -> dict[str, Any]:
        data = super().snapshot()
        data["palaces"] = [None if p is None else (p.tiles, p.where) for p in self.palaces]
        data.update(self.walls_snapshot())
        return data

    # -- positions (engine.core.position) ---------------------------------------------------

    def public_snapshot(self) -> dict[str, Any]:
        data = super().public_snapshot()
        data["towers"] = {tower: wall is not None for tower, wall in self.towers.items()}
        return data

    def position_counts(self) -> dict[str, int]:
        """The wall tiles still face down on the corner towers (``walls_left``)."""
        return {"walls_left": sum(1 for wall in self.towers.values() if wall is not None)}

    def position_setup(
        self, setup: Setup, shown: list[dict[str, Any]], counts: dict[str, int]
    ) -> Setup:
        """Each tower's wall tile: the one turned face up there, else the unseen ones in sorted
        order (setup deals them to the towers in track order)."""
        taken: dict[int, int] = {}
        for entry in shown:
            if entry["what"] != "wall":
                continue
            tower = self.geometry.tower_at(int(entry["space"]))
            if tower is None or not tower.wall_tile or tower.spaces[0] in taken:
                raise MalformedError(
                    f"'shown': no wall tile lies on track space {entry['space']} to be taken"
                )
            taken[tower.spaces[0]] = int(entry["wall"])
        unseen = list(WALL_POOL)
        for wall in taken.values():
            if wall not in unseen:
                raise MalformedError(f"'shown' takes wall tile {wall} more than twice")
            unseen.remove(wall)
        unseen.sort()
        slots = [tower.spaces[0] for tower in self.geometry.towers if tower.wall_tile]
        dealt = len(taken) + counts["walls_left"]
        if dealt > len(slots) or any(slots.index(tower) >= dealt for tower in taken):
            raise MalformedError("'walls_left' does not fit the wall tiles taken")
        walls = [taken[slot] if slot in taken else unseen.pop(0) for slot in slots[:dealt]]
        return replace(setup, wall_draw=tuple(walls))

    def legal_own(self, action_type: type[Action]) -> list[Action]:
        return list(self.legal_wall_tiles()) if action_type is UseWallTile else []

    def play_own(self, action: Action) -> bool:
        if not isinstance(action, UseWallTile):
            return False
        self.use_wall_tile(action)
        return True


register_game("castle", CastleGame, players=(2, 2), title="The Castle")
FOREIGN_ACTIONS[UseWallTile] = (
    "wall tiles belong to The Castle, not to this game",
    "no_wall_tiles",
)
