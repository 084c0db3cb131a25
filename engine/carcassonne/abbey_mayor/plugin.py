"""Abbey & Mayor as a plug-in of Carcassonne: the abbey tile, the mayor, the barn, the wagon.

Each rule of RULES.md section 2 sits at one hook of :class:`engine.core.expansion.Expansion`:
the figures and their weights (a mayor weighs its city's pennants, a barn nothing), the barn's
corners, the wagon that moves on when its feature is scored, the abbey played instead of the drawn
tile or after the last one, and the barns' final scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from engine.carcassonne.abbey_mayor import rules
from engine.core.actions import Action, MoveWagon, PlaceAbbey, PlaceFigure
from engine.core.board import Figure, Pos
from engine.core.errors import IllegalActionError, WrongPhaseError
from engine.core.events import FigurePlaced, FigureReturned, TilePlaced, WagonMoved
from engine.core.expansion import Expansion
from engine.core.turn import Phase

if TYPE_CHECKING:
    from engine.core.game import Game


class AbbeyMayor(Expansion):
    """The expansion's state in one game: abbeys left, freed wagons, barns' joins, the end."""

    name: ClassVar[str] = rules.NAME
    tile_set: ClassVar[str | None] = rules.NAME
    figures: ClassVar[dict[str, int]] = rules.EXTRA_FIGURES
    weights: ClassVar[dict[str, int]] = {"barn": 0, "wagon": 1}
    merges_with_figures_only: ClassVar[bool] = True
    special_figures: ClassVar[frozenset[str]] = frozenset({"barn"})
    actions: ClassVar[tuple[type[Action], ...]] = (PlaceAbbey, MoveWagon)
    phases: ClassVar[tuple[Phase, ...]] = (Phase.WAGON, Phase.ABBEY_END)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.abbeys = [1] * game.players
        self.freed_wagons: list[tuple[int, int]] = []  # (owner, scored root)
        self.wagon_choices: list[MoveWagon] = []
        self.barn_joins: list[int] = []
        self.ending: list[int] | None = None  # players still to offer the end-game abbey
        #: (the board's hole list, an abbey move into each hole), kept while the holes stay.
        self._abbey_moves: tuple[list[Pos], tuple[PlaceAbbey, ...]] | None = None

    # -- figures ----------------------------------------------------------------------------

    def figure_options(self, figure: str, pos: Pos) -> list[PlaceFigure]:
        corners = rules.barn_corners(self.game.board, pos)
        if not corners:
            return []
        return [PlaceFigure("barn", pos[0], pos[1], corner) for corner, _ in corners]

    def may_stand(self, figure: str, ftype: str) -> bool | None:
        if figure == "mayor":
            return ftype == "city"
        if figure == "wagon":
            return ftype in rules.WAGON_FEATURES
        return None

    def figure_refusal(self, figure: str, ftype: str) -> str | None:
        if figure == "mayor" and ftype != "city":
            return "the mayor goes only in a city"
        if figure == "wagon" and ftype not in rules.WAGON_FEATURES:
            return "the wagon goes only on a road, a city or a cloister, not in a field"
        return None

    def figure_weight(self, figure: Figure, root: int) -> int | None:
        return self.game.board.pennants[root] if figure.kind == "mayor" else None

    def place_figure(self, action: PlaceFigure) -> bool:
        if action.figure != "barn":
            return False
        game = self.game
        assert game.last_pos is not None
        if action.at not in ("NW", "NE", "SE", "SW"):
            raise IllegalActionError(
                "a barn goes on a tile corner: NW, NE, SE or SW", "barn_corner"
            )
        corners = dict(rules.barn_corners(game.board, game.last_pos))
        if action.at not in corners:
            raise IllegalActionError(
                f"no barn at the {action.at} corner: a barn needs four placed tiles meeting "
                "there, only field at that corner of each, and no barn in that field yet",
                "barn_refused",
                corner=action.at,
            )
        root = corners[action.at]
        game.board.add_figure(root, Figure(game.current, "barn", game.last_pos, -1, action.at))
        game.supply[game.current]["barn"] -= 1
        game.emit(FigurePlaced(game.current, "barn", "barn", action.x, action.y, action.at))
        rules.score_field_farmers(game, root, per_city=3, final=False)
        return True

    def figure_scored(self, figure: Figure, root: int) -> bool:
        if figure.kind != "wagon":
            return False
        self.freed_wagons.append((figure.player, root))
        return True

    def pieces(self, player: int) -> dict[str, int]:
        return {"abbey": self.abbeys[player]}

    def held_tiles(self) -> dict[str, int]:
        left = sum(n for n, out in zip(self.abbeys, self.game.out, strict=True) if not out)
        return {rules.ABBEY_KIND: left} if left else {}

    def fills_square(self, pos: Pos, key: str) -> bool:
        return "?" not in key and bool(self.held_tiles())

    # -- the abbey and the wagon ------------------------------------------------------------

    def legal(self, action_type: type[Action]) -> list[Action]:
        game = self.game
        if action_type is PlaceAbbey:
            holes = game.board.hole_list
            if not holes:  # most turns: no hole, no abbey move
                return []
            if game.phase not in (Phase.TILE, Phase.ABBEY_END) or not self.abbeys[game.actor]:
                return []
            known = self._abbey_moves
            if known is None or known[0] is not holes:
                known = self._abbey_moves = (holes, tuple(PlaceAbbey(x, y) for x, y in holes))
            return list(known[1])
        if action_type is MoveWagon:
            return list(self.wagon_choices) if game.phase is Phase.WAGON else []
        return []

    def play(self, action: Action) -> None:
        if isinstance(action, PlaceAbbey):
            self._place_abbey(action)
        elif isinstance(action, MoveWagon):
            self._move_wagon(action)

    def decline(self) -> None:
        if self.game.phase is Phase.WAGON:
            owner, root = self.freed_wagons.pop(0)
            self._take_back_wagon(owner, root)
            self.game.continue_turn()
        else:
            self.game.continue_ending()

    def hint(self) -> str:
        if self.game.phase is Phase.WAGON:
            return "move the wagon to a touching unfinished feature, or pass to take it back"
        return "place your abbey into a hole, or pass"

    def _place_abbey(self, action: PlaceAbbey) -> None:
        game = self.game
        if game.phase not in (Phase.TILE, Phase.ABBEY_END):
            raise WrongPhaseError(game._phase_hint(), f"phase_{game.phase.value}")
        if not self.abbeys[game.actor]:
            raise IllegalActionError("you have already played your abbey", "abbey_used")
        pos = (action.x, action.y)
        if pos not in game.board.holes():
            raise IllegalActionError(
                f"an abbey goes only into a hole: an empty square with tiles on all four sides; "
                f"({action.x}, {action.y}) is not one",
                "not_a_hole",
                x=action.x,
                y=action.y,
            )
        self.abbeys[game.actor] -= 1
        if game.tile is not None:
            # The abbey is played instead of the drawn tile, which goes back on top of the stack.
            game.stack.append(game.tile)
            game.tile = None
            if game.steer is not None:
                game.steer.returned(game, False)
        abbey = game.kinds[rules.ABBEY_KIND].oriented(0)
        game._touched = game.board.place(abbey, pos, game.turn)
        game.last_pos = pos
        game.emit(TilePlaced(game.current, rules.ABBEY_KIND, action.x, action.y, 0))
        game._figure_choices = game._figure_options()
        if game._figure_choices:
            game.phase = Phase.FIGURE
        else:
            game._finish_turn()

    def _move_wagon(self, action: MoveWagon) -> None:
        game = self.game
        board = game.board
        if game.phase is not Phase.WAGON:
            raise WrongPhaseError(game._phase_hint(), f"phase_{game.phase.value}")
        target = None
        placed = board.tiles.get((action.x, action.y))
        if placed is not None:
            local = placed.oriented.feature_at(action.at)
            if local >= 0:
                root = board.find(placed.first_node + local)
                target = next(
                    (
                        m
                        for m in self.wagon_choices
                        if board.root_of((m.x, m.y), self._local_at(m)) == root
                    ),
                    None,
                )
        if target is None:
            raise IllegalActionError(
                "the wagon may only move to an unfinished, empty road, city or cloister touching "
                "the feature just scored; choose one of those or take it back (pass)",
                "wagon_refused",
            )
        owner, _ = self.freed_wagons.pop(0)
        pos = (target.x, target.y)
        local = self._local_at(target)
        root = board.root_of(pos, local)
        board.add_figure(root, Figure(owner, "wagon", pos, local, target.at))
        game.emit(WagonMoved(owner, target.x, target.y, target.at))
        game.continue_turn()

    def _local_at(self, move: MoveWagon) -> int:
        return self.game.board.tiles[(move.x, move.y)].oriented.feature_at(move.at)

    def _take_back_wagon(self, owner: int, root: int) -> None:
        self.game.supply[owner]["wagon"] += 1
        self.game.emit(FigureReturned(owner, "wagon", *self.game.board.node_pos[root]))

    # -- the turn ---------------------------------------------------------------------------

    def on_merge(self, kept: int, absorbed: int) -> None:
        board = self.game.board
        if board.ftype[kept] != "field":
            return
        a, b = board.figures[kept], board.figures[absorbed]
        if not a or not b:
            return
        barn_a = any(f.kind == "barn" for f in a)
        barn_b = any(f.kind == "barn" for f in b)
        farm_a = any(f.kind != "barn" for f in a)
        farm_b = any(f.kind != "barn" for f in b)
        if (barn_a and farm_b) or (barn_b and farm_a):
            self.barn_joins.append(kept)

    def after_scoring(self) -> None:
        """Farmers whose field joined a barn's score 1 per city; freed wagons wait in turn
        order from the player in turn."""
        game = self.game
        if not self.barn_joins and len(self.freed_wagons) < 2:
            return
        board = game.board
        for root in dict.fromkeys(board.find(r) for r in self.barn_joins):
            if rules.has_barn(board, root) and rules.has_farmers(board, root):
                rules.score_field_farmers(game, root, per_city=1, final=False)
        self.barn_joins = []
        first = game.current
        self.freed_wagons.sort(key=lambda item: (item[0] - first) % game.players)

    def pending_decision(self) -> bool:
        """Offer each freed wagon its moves in turn; one with nowhere to go comes back."""
        game = self.game
        while self.freed_wagons:
            owner, root = self.freed_wagons[0]
            targets = rules.wagon_targets(game.board, root)
            if targets and not game.out[owner]:
                self.wagon_choices = [
                    MoveWagon(pos[0], pos[1], game.board.tiles[pos].oriented.at_label(local))
                    for pos, local in targets
                ]
                game.phase = Phase.WAGON
                game.actor = owner
                return True
            self.freed_wagons.pop(0)
            self._take_back_wagon(owner, root)
        self.wagon_choices = []
        return False

    # -- the end ----------------------------------------------------------------------------

    def before_end(self) -> bool:
        """After the last tile, each player in turn order may put their abbey into a hole."""
        game = self.game
        if self.ending is None:
            self.ending = [(game.current + i) % game.players for i in range(game.players)]
        holes = game.board.holes()
        while self.ending and holes:
            player = self.ending.pop(0)
            if self.abbeys[player] and not game.out[player]:
                game.phase = Phase.ABBEY_END
                game.current = game.actor = player
                return True
        self.ending = []
        return False

    def final_scoring(self) -> None:
        rules.score_barns_final(self.game)

    def snapshot(self) -> dict[str, Any]:
        return {"abbeys": list(self.abbeys), "freed_wagons": list(self.freed_wagons)}
