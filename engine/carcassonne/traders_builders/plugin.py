"""Traders & Builders as a plug-in of Carcassonne: goods tokens, the builder, the pig.

Each rule of RULES.md section 5 sits at one hook of :class:`engine.core.expansion.Expansion`:

- goods: :meth:`after_scoring` gives the player in turn the goods of every city their tile
  completed (whoever owns it), :meth:`final_scoring` pays the majorities;
- builder: a special figure (it needs the feature's state); :meth:`on_merge` notices a tile
  joining the road or city that holds the builder of the player in turn, :meth:`extra_tile`
  then gives that player a second tile, never a third;
- pig: a special figure in a field; :meth:`farmer_bonus` adds 1 per city for its owner.

The extra tile is a turn of its own: ``game.turn`` goes up by one, ``game.current`` stays, and a
``TurnStarted`` event tells it (a click from the first tile's turn is stale);
:attr:`TradersBuilders.bonus_turn` says whether the turn in play is such a second tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from engine.carcassonne.traders_builders import rules
from engine.core.actions import PlaceFigure
from engine.core.board import Figure, Pos
from engine.core.errors import IllegalActionError
from engine.core.events import FigurePlaced, GoodsTaken
from engine.core.expansion import Expansion
from engine.core.turn import Phase

if TYPE_CHECKING:
    from engine.core.game import Game

WHERE = {"builder": "an unfinished road or city", "pig": "a field"}


class TradersBuilders(Expansion):
    """The expansion's state in one game: goods tokens, and whether a builder earned a tile."""

    name: ClassVar[str] = rules.NAME
    tile_set: ClassVar[str | None] = rules.NAME
    figures: ClassVar[dict[str, int]] = rules.EXTRA_FIGURES
    weights: ClassVar[dict[str, int]] = {"builder": 0, "pig": 0}
    merges_with_figures_only: ClassVar[bool] = True
    special_figures: ClassVar[frozenset[str]] = frozenset(rules.EXTRA_FIGURES)
    joining_figures: ClassVar[frozenset[str]] = special_figures

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        #: Each player's goods tokens, by kind (public).
        self.goods: list[dict[str, int]] = [
            dict.fromkeys(rules.GOODS, 0) for _ in range(game.players)
        ]
        #: The tile placed this turn extended a feature holding the builder of the player in turn.
        self.extended = False
        #: (turn, player) of the second tile a builder gave, while it is played or to come.
        self.bonus: tuple[int, int] | None = None

    @property
    def bonus_turn(self) -> bool:
        """Whether the turn in play is a second tile earned by a builder."""
        game = self.game
        return game.phase is not Phase.OVER and self.bonus == (game.turn, game.current)

    def bonus_reason(self) -> str | None:
        return "builder" if self.bonus_turn else None

    # -- figures ----------------------------------------------------------------------------

    def figure_options(self, figure: str, pos: Pos) -> list[PlaceFigure]:
        return [
            PlaceFigure(figure, pos[0], pos[1], at)
            for _, at in rules.options(self.game, figure, pos)
        ]

    def place_figure(self, action: PlaceFigure) -> bool:
        figure = action.figure
        if figure not in rules.EXTRA_FIGURES:
            return False
        game = self.game
        assert game.last_pos is not None
        chosen = dict((str(at), local) for local, at in rules.options(game, figure, game.last_pos))
        placed = game.board.tiles[game.last_pos]
        local = placed.oriented.feature_at(action.at)
        at = placed.oriented.at_label(local) if local >= 0 else action.at
        if str(at) not in chosen:
            raise IllegalActionError(
                f"the {figure} goes on {WHERE[figure]} of the tile you just placed that holds "
                f"one of your followers and not your {figure}; choose another place or pass",
                f"{figure}_refused",
                figure=figure,
            )
        root = game.board.find(placed.first_node + local)
        game.board.add_figure(root, Figure(game.current, figure, game.last_pos, local, at))
        game.supply[game.current][figure] -= 1
        game.emit(FigurePlaced(game.current, figure, figure, action.x, action.y, at))
        return True

    def farmer_bonus(self, player: int, fields: list[int]) -> int:
        board = self.game.board
        return int(any(rules.holds(board, root, player, "pig") for root in fields))

    # -- the turn ---------------------------------------------------------------------------

    def on_merge(self, kept: int, absorbed: int) -> None:
        game = self.game
        if self.extended or game.supply[game.current]["builder"]:
            return  # already known, or the builder is not on the board
        board = game.board
        if board.ftype[kept] not in rules.STANDS_ON["builder"]:
            return
        player = game.current
        figures = board.figures
        if (figures[kept] and rules.holds(board, kept, player, "builder")) or (
            figures[absorbed] and rules.holds(board, absorbed, player, "builder")
        ):
            self.extended = True

    def after_scoring(self) -> None:
        """The player in turn takes the goods of every city their tile completed."""
        game = self.game
        pos = game.last_pos
        if pos is None or not rules.city_scored(game.emitted):
            return  # every city completed now was just scored: no city, no goods
        board = game.board
        for root in rules.cities_at(board, pos):
            if board.open[root]:
                continue
            goods = rules.goods_in(board, root)
            if not goods:
                continue
            mine = self.goods[game.current]
            for good, count in goods.items():
                mine[good] += count
            game.emit(GoodsTaken(game.current, goods, board.node_pos[root]))

    def extra_tile(self) -> bool:
        """A second tile when this turn's tile extended the player's builder's feature; never
        after a second tile, never without a tile left to play."""
        game = self.game
        extended, self.extended = self.extended, False
        player = game.current
        if not extended or self.bonus == (game.turn, player) or game.out[player]:
            return False
        if not (game.hands[player] if game.hand_mode else game.stack):
            return False
        self.bonus = (game.turn + 1, player)
        return True

    # -- the end ----------------------------------------------------------------------------

    def final_scoring(self) -> None:
        rules.score_goods(self.game, self.goods)

    def snapshot(self) -> dict[str, Any]:
        return {"goods": [dict(g) for g in self.goods], "bonus": self.bonus}
