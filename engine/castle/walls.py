"""The Castle's score track and wall tiles: landing on corner towers, playing wall tiles 1-9.

Setup puts one face-down wall tile (18 = 9 kinds x 2, seeded shuffle, or ``wall_draw`` in the
record) on each corner tower but 0/1, in track order; the rest leave the game unseen. A marker
that stops exactly on a tower space takes its tile (each scored feature is one move; the placer
moves first, see :mod:`engine.castle.game`). Scores are unbounded: the track space is
``score % 100``.

A tile can be played from its owner's next turn on, several per turn, each once:
1 gives another turn right after this one; 2 and 3 double one tower or house for their owner
when it is scored (the owner must hold its majority when playing the tile and when it scores).
Tiles 4-9 act at the final scoring by themselves (:meth:`WallRules.score_final_walls`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.castle.board import TRACK_SPACES, CastleBoard, CastleGeometry
from engine.core.actions import Action, At, UseWallTile
from engine.core.errors import IllegalActionError, MalformedError, WrongPhaseError
from engine.core.events import FeatureScored, WallTileTaken, WallTileUsed
from engine.core.game import Game
from engine.core.turn import Phase

#: The 18 wall tiles: two of each kind 1-9.
WALL_POOL = tuple(kind for kind in range(1, 10) for _ in range(2))
PLAYED_BY_HAND = frozenset({1, 2, 3})
DOUBLED_FEATURE = {2: "tower", 3: "house"}
#: Final-scoring wall tiles on incomplete features: tile -> (feature type, points per tile).
INCOMPLETE = {4: ("path", 1), 5: ("tower", 2), 6: ("house", 1)}
END_BONUS = 5  # wall tile 9


class WallRules(Game):
    """Track, corner towers and wall tiles; the majority rule they share with the scoring."""

    family_state: ClassVar[tuple[str, ...]] = (
        "towers",
        "held",
        "played",
        "doubled",
        "extra_turns",
    )

    geometry: CastleGeometry

    def init_walls(self) -> None:
        #: Corner tower (by its first space) -> the face-down wall tile on it, or None.
        self.towers: dict[int, int | None] = {}
        #: Per player: wall tiles held face up, as (tile, turn taken), not yet played.
        self.held: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        self.played: list[list[int]] = [[] for _ in range(self.players)]
        #: (player, feature node) that a wall tile 2 or 3 doubles for that player.
        self.doubled: list[tuple[int, int]] = []
        self.extra_turns = 0
        deal = self._deal_wall_tiles()
        for tower in self.geometry.towers:
            self.towers[tower.spaces[0]] = deal.pop(0) if tower.wall_tile and deal else None

    def _deal_wall_tiles(self) -> list[int]:
        slots = sum(t.wall_tile for t in self.geometry.towers)
        forced = self.setup.wall_draw
        if forced is None:
            pool = list(WALL_POOL)
            random.Random(f"wall:{self.setup.seed}").shuffle(pool)
            return pool[:slots]
        if len(forced) > slots or any(not 1 <= w <= 9 for w in forced):
            raise MalformedError(
                f"'wall_draw' lists at most {slots} wall tiles, each 1 to 9, got {list(forced)}"
            )
        if any(forced.count(w) > 2 for w in forced):
            raise MalformedError("'wall_draw' may name each wall tile at most twice")
        return list(forced)

    @property
    def castle_board(self) -> CastleBoard:
        board = self.board
        assert isinstance(board, CastleBoard)
        return board

    def action_target(self, action: Action) -> tuple[int, tuple[int, int, At]] | None:
        """The feature a wall tile 2 or 3 names (None for the others): its root, and a spot of it
        inside the castle where a picture can show it (the square and the ``at`` value)."""
        if not isinstance(action, UseWallTile) or action.target is None:
            return None
        board = self.castle_board
        x, y, at = action.target
        placed = board.tiles[(x, y)]
        root = board.find(placed.first_node + placed.oriented.feature_at(at))
        inside = [(pos, local) for pos, local in board.parts(root) if pos in board.interior]
        pos, local = inside[0] if inside else ((x, y), placed.oriented.feature_at(at))
        return root, (pos[0], pos[1], board.tiles[pos].oriented.at_label(local))

    # -- majority ---------------------------------------------------------------------------

    def weights(self, root: int) -> list[int]:
        """Subjects of each player in a feature (a player who left counts 0)."""
        weights = [0] * self.players
        for figure in self.board.figures[root]:
            if not self.out[figure.player]:
                weights[figure.player] += 1
        return weights

    def majority_holder(self, root: int) -> int | None:
        """The one player with the most subjects in a feature; None on a tie or if empty."""
        weights = self.weights(root)
        best = max(weights, default=0)
        if best <= 0 or weights.count(best) > 1:
            return None
        return weights.index(best)

    # -- the track --------------------------------------------------------------------------

    def track_space(self, player: int) -> int:
        """Where a player's marker stands on the 100-space track (0-99)."""
        return self.scores[player] % TRACK_SPACES

    def wall_hand(self, player: int) -> list[int]:
        """The wall tiles a player holds face up and has not played, in the order taken."""
        return [wall for wall, _ in self.held[player]]

    def score_on_track(self, player: int, category: str, points: int) -> None:
        """Score during play: the marker moves, and takes a wall tile if it stops on a tower."""
        self.add_points(player, category, points)
        space = self.track_space(player)
        tower = self.geometry.tower_at(space)
        if tower is None or points <= 0:
            return
        wall = self.towers.get(tower.spaces[0])
        if wall is not None:
            self.towers[tower.spaces[0]] = None
            self.held[player].append((wall, self.turn))
            self.emit(WallTileTaken(player, wall, space))

    # -- playing wall tiles -----------------------------------------------------------------

    def usable_walls(self) -> list[int]:
        """Wall tiles the player in turn may play now (taken before this turn), distinct."""
        if self.phase not in (Phase.TILE, Phase.FIGURE) or self.out[self.current]:
            return []
        return sorted(
            {w for w, taken in self.held[self.current] if taken < self.turn and w in PLAYED_BY_HAND}
        )

    def legal_wall_tiles(self) -> list[UseWallTile]:
        result: list[UseWallTile] = []
        for wall in self.usable_walls():
            if wall == 1:
                result.append(UseWallTile(1))
                continue
            for root in self._doubling_targets(DOUBLED_FEATURE[wall]):
                x, y = self.board.node_pos[root]
                placed = self.board.tiles[(x, y)]
                at = placed.oriented.at_label(self.board.node_local[root])
                result.append(UseWallTile(wall, x, y, at))
        return result

    def _doubling_targets(self, ftype: str) -> list[int]:
        board = self.board
        player = self.current
        return [
            root
            for root, parent in enumerate(board.parent)
            if parent == root
            and board.ftype[root] == ftype
            and not board.done[root]
            and board.figures[root]
            and self.majority_holder(root) == player
            and not self.doubles(player, root)
        ]

    def doubles(self, player: int, root: int) -> bool:
        """Whether ``player`` played a wall tile 2 or 3 on feature ``root``."""
        return any(p == player and self.board.find(n) == root for p, n in self.doubled)

    def use_wall_tile(self, action: UseWallTile) -> None:
        if self.phase not in (Phase.TILE, Phase.FIGURE):
            raise WrongPhaseError(
                "a wall tile is played during your own turn, before or after placing your tile",
                f"phase_{self.phase.value}",
            )
        player, wall = self.current, action.wall
        if wall not in PLAYED_BY_HAND:
            raise IllegalActionError(
                f"wall tile {wall} is not played by hand: it counts by itself at the final scoring",
                "wall_tile_at_end",
                wall=wall,
            )
        taken = [t for w, t in self.held[player] if w == wall]
        if not taken:
            raise IllegalActionError(
                f"you hold no wall tile {wall}", "no_such_wall_tile", wall=wall
            )
        if min(taken) >= self.turn:
            raise IllegalActionError(
                f"you took wall tile {wall} this turn: you can play it from your next turn",
                "wall_tile_too_soon",
                wall=wall,
            )
        if wall == 1:
            if action.target is not None:
                raise IllegalActionError(
                    "wall tile 1 (two turns in a row) applies to no feature: name none",
                    "wall_tile_no_target",
                    wall=wall,
                )
            self.extra_turns += 1
            node = -1
        else:
            node = self._doubling_node(action, DOUBLED_FEATURE[wall])
            self.doubled.append((player, node))
        self.held[player].remove((wall, min(taken)))
        self.played[player].append(wall)
        where = None if action.target is None else (action.target[0], action.target[1])
        self.emit(WallTileUsed(player, wall, where, action.at))

    def _doubling_node(self, action: UseWallTile, ftype: str) -> int:
        wall = action.wall
        target = action.target
        if target is None:
            raise IllegalActionError(
                f"wall tile {wall} doubles one {ftype}: name it by a square and a position "
                "(x, y, at)",
                "wall_tile_needs_target",
                wall=wall,
            )
        x, y, at = target
        placed = self.board.tiles.get((x, y))
        local = placed.oriented.feature_at(at) if placed is not None else -1
        if placed is None or local < 0 or placed.oriented.features[local].type != ftype:
            raise IllegalActionError(
                f"there is no {ftype} at ({x}, {y}) position {at}: wall tile {wall} doubles a "
                f"{ftype}",
                "wall_tile_wrong_target",
                wall=wall,
                feature=ftype,
            )
        node = placed.first_node + local
        root = self.board.find(node)
        if self.board.done[root]:
            raise IllegalActionError(
                f"that {ftype} has already been scored", "wall_tile_scored", wall=wall
            )
        if self.majority_holder(root) != self.current:
            raise IllegalActionError(
                f"wall tile {wall} needs your majority in that {ftype}: you have fewer subjects "
                "there than your opponent, or as many",
                "wall_tile_no_majority",
                wall=wall,
                feature=ftype,
            )
        if self.doubles(self.current, root):
            raise IllegalActionError(
                f"that {ftype} already scores double for you", "wall_tile_twice", wall=wall
            )
        return node

    def _advance_player(self) -> bool:
        """Wall tile 1: the same player takes the next turn."""
        if self.extra_turns and not self.out[self.current]:
            self.extra_turns -= 1
            self.actor = self.current
            self.turn += 1
            return True
        self.extra_turns = 0
        return super()._advance_player()

    # -- final scoring ----------------------------------------------------------------------

    def score_final_walls(self, roots: list[int]) -> None:
        """Wall tiles 7 (courtyard markets), 4-6 (one incomplete feature each) and 9 (5 points).

        Each copy goes to its own feature, the largest first, among those where the owner holds
        the majority; tile 8 counts in the palace comparison, before this.
        """
        board = self.castle_board
        for player in range(self.players):
            if self.out[player]:
                continue
            hand = self.wall_hand(player)
            majority = [r for r in roots if self.majority_holder(r) == player]
            courts = sorted(
                (r for r in majority if board.ftype[r] == "courtyard"),
                key=lambda r: (-self._size(r), -board.count_mark(r, "market"), r),
            )
            for root in courts[: hand.count(7)]:
                markets = board.count_mark(root, "market")
                self._wall_points(player, 7, markets, root, {"markets": markets})
            for wall, (ftype, per_tile) in INCOMPLETE.items():
                open_ones = sorted(
                    (
                        r
                        for r in majority
                        if board.ftype[r] == ftype and not board.done[r] and board.open[r] > 0
                    ),
                    key=lambda r: (-self._size(r), r),
                )
                for root in open_ones[: hand.count(wall)]:
                    self._wall_points(player, wall, per_tile * self._size(root), root, {})
            for _ in range(hand.count(9)):
                self._wall_points(player, 9, END_BONUS, None, {})

    def _size(self, root: int) -> int:
        tiles = self.board.ftiles[root]
        assert tiles is not None
        return len(tiles)

    def _wall_points(
        self, player: int, wall: int, points: int, root: int | None, details: dict[str, Any]
    ) -> None:
        won = {player: points} if points else {}
        if points:
            self.add_points(player, "wall", points)
        feature = self.board.ftype[root] if root is not None else ""
        self.emit(
            FeatureScored(
                feature="wall",
                points=won,
                final=True,
                tiles=self._size(root) if root is not None else 0,
                complete=root is None or self.board.open[root] == 0,
                where=self.board.node_pos[root] if root is not None else (0, 0),
                details={"wall": wall, "feature": feature, **details},
            )
        )

    def walls_snapshot(self) -> dict[str, Any]:
        return {
            "towers": dict(self.towers),
            "held": [list(h) for h in self.held],
            "played": [list(p) for p in self.played],
            "doubled": sorted((p, self.board.find(n)) for p, n in self.doubled),
            "extra_turns": self.extra_turns,
        }
