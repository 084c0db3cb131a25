"""Hunters & Gatherers (first edition, 2002) on the shared engine core (RULES.md section 3).

Differences from Carcassonne, each at one rule point of :class:`engine.core.game.Game`:
- tiles: the volcano start tile and 78 land tiles, plus a separate stack of 12 bonus tiles;
- figures: 5 men (hunter on a meadow, gatherer on a forest, fisher on a river) and 2 huts (on a
  river or lake; one per river system);
- men whose feature was scored return at the **end** of the turn, so they can't be placed again
  in the same turn (not even on a bonus tile);
- a completed forest holding a gold nugget gives the placer one bonus tile, played at once as an
  extra placement with a figure; no chain;
- the game ends after the turn of the last land tile; then huts score the fish of their river
  system and hunters their meadow's game.

A river system is kept in a second union-find over river and lake nodes: a lake joins every
river that flows into it, so a lake fed by a single river ends the system there.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any, ClassVar

from engine.core.actions import PlaceFigure
from engine.core.board import Figure, Pos, find_root
from engine.core.errors import MalformedError
from engine.core.events import (
    BonusTileDrawn,
    FeatureScored,
    FigureReturned,
    TileDiscarded,
)
from engine.core.game import Game, register_game
from engine.core.majority import majority
from engine.core.setup import Setup
from engine.core.steer import Steer
from engine.core.turn import Phase

MEN, HUTS = 5, 2
MAN_FEATURES = frozenset({"meadow", "forest", "river"})
HUT_FEATURES = frozenset({"river", "lake"})
GAME_ANIMALS = ("deer", "mammoth", "aurochs")


class HuntersGame(Game):
    """One game of Hunters & Gatherers."""

    family_state: ClassVar[tuple[str, ...]] = (
        "bonus_stack",
        "in_bonus",
        "placed_by",
        "_returning",
        "_gold",
        "_sys_parent",
        "_sys_huts",
    )

    edge_words: ClassVar[dict[str, str]] = {"F": "forest", "M": "meadow", "R": "river"}
    roles: ClassVar[dict[str, str]] = {"meadow": "hunter", "forest": "gatherer", "river": "fisher"}
    role_figures: ClassVar[frozenset[str]] = frozenset({"man"})

    def tile_sets(self) -> tuple[str, ...]:
        return ("hunters",)

    def bonus_reason(self) -> str | None:
        """A bonus tile is "gold": a forest with gold was completed this turn."""
        return "gold" if self.in_bonus else super().bonus_reason()

    def initial_supply(self) -> dict[str, int]:
        return {"man": MEN, "hut": HUTS}

    def __init__(self, setup: Setup, steer: Steer | None = None) -> None:
        self.bonus_stack: list[str] = []
        self.in_bonus = False
        self.placed_by: dict[Pos, int] = {(0, 0): -1}
        self._returning: list[Figure] = []
        self._gold = False
        self._sys_parent: list[int] = []
        self._sys_huts: set[int] = set()
        super().__init__(setup, steer)
        self.board.merge_hooks = (self._on_merge,)
        self.bonus_stack = self._build_bonus_stack()

    # -- setup ------------------------------------------------------------------------------

    def drawn_pool(self) -> Counter[str]:
        pool = super().drawn_pool()
        pool.update(self.bonus_stack)
        return pool

    def _build_bonus_stack(self) -> list[str]:
        if self.setup.bonus_draw is not None:
            for name in self.setup.bonus_draw:
                if not self.kinds.get(name) or not self.kinds[name].extra.get("bonus"):
                    raise MalformedError(f"'bonus_draw' names {name!r}, which is not a bonus tile")
            return list(reversed(self.setup.bonus_draw))
        pool = [k.name for k in self.kinds.values() if k.extra.get("bonus") for _ in range(k.count)]
        random.Random(f"bonus:{self.setup.seed}").shuffle(pool)
        return pool

    def after_place(self, pos: Pos) -> None:
        """Join each river with the lakes it flows into (same river system)."""
        placed = self.board.tiles[pos]
        self.placed_by[pos] = self.current
        for local, feat in enumerate(placed.oriented.features):
            if feat.type == "river":
                for lake in feat.cities:
                    self._sys_union(placed.first_node + local, placed.first_node + lake)

    # -- river systems ----------------------------------------------------------------------

    def _sys_find(self, node: int) -> int:
        parent = self._sys_parent
        while len(parent) <= node:
            parent.append(len(parent))
        return find_root(parent, node)

    def _sys_union(self, a: int, b: int) -> None:
        ra, rb = self._sys_find(a), self._sys_find(b)
        if ra == rb:
            return
        self._sys_parent[rb] = ra
        if rb in self._sys_huts:
            self._sys_huts.discard(rb)
            self._sys_huts.add(ra)

    def _on_merge(self, kept: int, absorbed: int) -> None:
        if self.board.ftype[kept] == "river":
            self._sys_union(kept, absorbed)

    def _rebind(self, new: Game) -> None:
        assert isinstance(new, HuntersGame)
        new.board.merge_hooks = (new._on_merge,)

    def river_system(self, node: int) -> int:
        """The river system (a representative node) of a river or lake node."""
        return self._sys_find(node)

    # -- figures ----------------------------------------------------------------------------

    def _figure_options(self) -> list[PlaceFigure]:
        assert self.last_pos is not None
        board = self.board
        placed = board.tiles[self.last_pos]
        oriented = placed.oriented
        x, y = self.last_pos
        supply = self.supply[self.current]
        result: list[PlaceFigure] = []
        for local, feat in enumerate(oriented.features):
            node = placed.first_node + local
            if supply["man"] > 0 and feat.type in MAN_FEATURES:
                root = board.find(node)
                if not any(f.kind == "man" for f in board.figures[root]):
                    result.append(PlaceFigure("man", x, y, oriented.at_label(local)))
            free_system = self._sys_find(node) not in self._sys_huts
            if supply["hut"] > 0 and feat.type in HUT_FEATURES and free_system:
                result.append(PlaceFigure("hut", x, y, oriented.at_label(local)))
        return result

    def _figure_refusal(self, figure: str, ftype: str) -> str:
        if figure == "hut":
            if ftype not in HUT_FEATURES:
                return "a hut goes on a river or a lake"
            return "that river system already has a hut: choose another river or pass"
        if ftype not in MAN_FEATURES:
            return "a man goes on a meadow (hunter), a forest (gatherer) or a river (fisher)"
        return f"that {ftype} already holds a man (maybe further away): choose another or pass"

    def after_figure(self, figure: Figure, root: int) -> None:
        if figure.kind == "hut":
            self._sys_huts.add(self._sys_find(root))

    # -- the turn ---------------------------------------------------------------------------

    def _finish_turn(self) -> None:
        """Score, then maybe the bonus tile (same turn), then men come home, then next player."""
        self._score_completed()
        self._touched = []
        if self._gold and not self.in_bonus:
            self._gold = False
            while self.bonus_stack:
                if self.steer is not None:
                    self.steer.drawing_bonus(self)
                name = self.bonus_stack.pop()
                if self.has_placement(self.kinds[name]):
                    self.tile = name
                    self.in_bonus = True
                    self.phase = Phase.TILE
                    self.emit(BonusTileDrawn(self.current, name))
                    return
                self.discarded.append(name)
                self.emit(TileDiscarded(self.current, name))
        self._gold = False
        self.in_bonus = False
        for figure in self._returning:
            self.supply[figure.player][figure.kind] += 1
            self.emit(FigureReturned(figure.player, figure.kind, *figure.pos))
        self._returning = []
        if self._advance_player():
            self._begin_turn()

    # -- scoring ----------------------------------------------------------------------------

    def _score_completed(self) -> None:
        board = self.board
        seen: set[int] = set()
        for node in self._touched:
            root = board.find(node)
            if root in seen or board.done[root] or board.open[root] != 0:
                continue
            seen.add(root)
            if board.ftype[root] == "river":
                self._score_river(root)
            elif board.ftype[root] == "forest":
                self._score_forest(root)

    def _locals_of(self, root: int) -> list[tuple[Pos, int, dict[str, Any]]]:
        """Every (square, local feature, its data) making up a feature."""
        board = self.board
        tiles = board.ftiles[root]
        assert tiles is not None
        result = []
        for pos in sorted(tiles):
            placed = board.tiles[pos]
            for local, feat in enumerate(placed.oriented.features):
                if board.find(placed.first_node + local) == root:
                    result.append((pos, local, dict(feat.extra)))
        return result

    def _men_weights(self, root: int) -> list[int]:
        weights = [0] * self.players
        for figure in self.board.figures[root]:
            if figure.kind == "man" and not self.out[figure.player]:
                weights[figure.player] += 1
        return weights

    def _score_river(self, root: int) -> None:
        board = self.board
        lakes = {n for n in board.cities[root]}
        fish = sum(self._node_extra(n).get("fish", 0) for n in lakes)
        tiles = board.ftiles[root]
        assert tiles is not None
        value = len(tiles) + fish
        self._award(root, "river", value, details={"fish": fish})

    def _score_forest(self, root: int) -> None:
        parts = self._locals_of(root)
        mushrooms = sum(int(extra.get("mushrooms", 0)) for _, _, extra in parts)
        nuggets = sum(1 for _, _, extra in parts if extra.get("nugget"))
        tiles = self.board.ftiles[root]
        assert tiles is not None
        value = 2 * len(tiles) + 2 * mushrooms
        self._award(root, "forest", value, details={"mushrooms": mushrooms, "nuggets": nuggets})
        if nuggets:
            self._gold = True

    def _node_extra(self, node: int) -> dict[str, Any]:
        board = self.board
        placed = board.tiles[board.node_pos[node]]
        return dict(placed.oriented.features[board.node_local[node]].extra)

    def _award(self, root: int, feature: str, value: int, details: dict[str, Any]) -> None:
        """Pay the men's majority of a completed river or forest; its men go home at turn end."""
        board = self.board
        winners = majority(self._men_weights(root))
        points = {p: value for p in winners}
        for player, won in points.items():
            self.add_points(player, feature, won)
        tiles = board.ftiles[root]
        assert tiles is not None
        self.emit(
            FeatureScored(
                feature=feature,
                points=points,
                final=False,
                tiles=len(tiles),
                where=board.node_pos[root],
                details=details,
            )
        )
        board.done[root] = True
        staying = [f for f in board.figures[root] if f.kind != "man"]
        self._returning.extend(f for f in board.figures[root] if f.kind == "man")
        board.figures[root] = staying

    def final_scoring(self) -> None:
        """Huts score the fish of their river system; hunters their meadow's game."""
        board = self.board
        roots = [n for n, parent in enumerate(board.parent) if parent == n]
        self._score_huts(roots)
        for root in roots:
            if board.ftype[root] == "meadow" and board.figures[root]:
                self._score_meadow(root)

    def _score_huts(self, roots: list[int]) -> None:
        board = self.board
        fish: dict[int, int] = {}
        huts: dict[int, list[int]] = {}
        for root in roots:
            ftype = board.ftype[root]
            if ftype not in HUT_FEATURES:
                continue
            system = self._sys_find(root)
            if ftype == "lake":
                fish[system] = fish.get(system, 0) + int(self._node_extra(root).get("fish", 0))
            for figure in board.figures[root]:
                if figure.kind == "hut" and not self.out[figure.player]:
                    weights = huts.setdefault(system, [0] * self.players)
                    weights[figure.player] += 1
        for system in sorted(huts):
            winners = majority(huts[system])
            value = fish.get(system, 0)
            points = {p: value for p in winners} if value else {}
            for player, won in points.items():
                self.add_points(player, "hut", won)
            self.emit(
                FeatureScored(
                    feature="hut",
                    points=points,
                    final=True,
                    where=board.node_pos[system],
                    details={"fish": value},
                )
            )

    def _score_meadow(self, root: int) -> None:
        board = self.board
        counts = dict.fromkeys(("deer", "mammoth", "aurochs", "tiger"), 0)
        fire = False
        shrine: tuple[Pos, int] | None = None
        for pos, local, extra in self._locals_of(root):
            for animal in counts:
                counts[animal] += int(extra.get(animal, 0))
            fire = fire or bool(extra.get("fire"))
            if extra.get("shrine"):
                shrine = (pos, local)
        tigers = 0 if fire else counts["tiger"]
        deer = max(0, counts["deer"] - tigers)
        value = 2 * (deer + counts["mammoth"] + counts["aurochs"])
        winners = majority(self._men_weights(root))
        if shrine is not None:
            placer = self.placed_by.get(shrine[0], -1)
            if any(
                f.kind == "man" and f.player == placer and (f.pos, f.local) == shrine
                for f in board.figures[root]
            ):
                winners = [placer]
        points = {p: value for p in winners} if value else {}
        for player, won in points.items():
            self.add_points(player, "meadow", won)
        tiles = board.ftiles[root]
        assert tiles is not None
        self.emit(
            FeatureScored(
                feature="meadow",
                points=points,
                final=True,
                tiles=len(tiles),
                where=board.node_pos[root],
                details={**counts, "fire": fire, "shrine": shrine is not None},
            )
        )

    def snapshot(self) -> dict[str, Any]:
        data = super().snapshot()
        data["bonus_stack"] = list(self.bonus_stack)
        data["in_bonus"] = self.in_bonus
        return data

    # -- positions (engine.core.position) ---------------------------------------------------

    def public_snapshot(self) -> dict[str, Any]:
        data = super().public_snapshot()
        data["bonus_stack"] = len(self.bonus_stack)
        return data

    def position_counts(self) -> dict[str, int]:
        """The bonus tiles still face down (``bonus_left``)."""
        return {"bonus_left": len(self.bonus_stack)}

    def position_setup(
        self, setup: Setup, shown: list[dict[str, Any]], counts: dict[str, int]
    ) -> Setup:
        """The bonus tiles drawn as shown, then the unseen ones in sorted order."""
        drawn = [str(e["tile"]) for e in shown if e["what"] in ("bonus", "bonus_discard")]
        unseen = sorted((Counter(self._build_bonus_stack()) - Counter(drawn)).elements())
        kinds = sorted(set(unseen) or {k.name for k in self.kinds.values() if k.extra.get("bonus")})
        left = counts["bonus_left"]
        while len(unseen) < left:  # a forced bonus draw longer than the game's bonus tiles
            unseen.extend(kinds[: left - len(unseen)])
        return replace(setup, bonus_draw=(*drawn, *unseen[:left]))


register_game("hunters", HuntersGame)
