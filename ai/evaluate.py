"""Valuing a position for a computer player.

- :func:`end_values`: the scores if the game ended now (the engine's own end-of-game scoring run
  on a fork): completed features as scored, open ones as the final scoring would value them.
  The greedy baseline uses exactly this.
- :class:`Heuristic`: ``end_values`` plus what the end scoring cannot see: the odds that an open
  road, city or cloister still gets completed (its owners then score the completed value and get
  their figure back), the cities a farmer's field may still gain, and the worth of figures still
  in the supply while there are tiles left to use them. Hunters & Gatherers and The Castle get
  the generic part (end values and figures in hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Game
from engine.carcassonne import CarcassonneGame
from engine.carcassonne.scoring import feature_value
from engine.core.majority import majority

RETURNING = frozenset({"follower", "mayor", "wagon", "large_follower"})


def end_values(game: Game) -> list[float]:
    return [float(s) for s in game.projected_scores()]


def margin(values: list[float], seat: int) -> float:
    """``seat``'s value minus the best other player's (its lead, or how far behind it is)."""
    others = [v for p, v in enumerate(values) if p != seat]
    return values[seat] - (max(others) if others else 0.0)


@dataclass(frozen=True)
class Heuristic:
    """Weights of the evaluation (fitted by matches against the greedy player)."""

    follower: float = 4.0  # a follower in the supply at the start of the game, in points
    other_figure: float = 2.5  # a mayor or a wagon in the supply
    road_edge: float = 0.60  # chance that each open road end gets closed
    city_edge: float = 0.45  # chance that each open city edge gets closed
    cloister_square: float = 0.80  # chance that each empty square around a cloister gets filled
    field_city: float = 0.3  # share of an open city's completion a farmer counts on

    def values(self, game: Game) -> list[float]:
        values = end_values(game)
        if game.finished:
            return values
        left = game.tiles_left + sum(len(h) for h in game.hands)
        total = max(1, left + len(game.board.tiles))
        share = left / total
        for player, supply in enumerate(game.supply):
            for kind, count in supply.items():
                if kind == "follower" or kind == "man" or kind == "subject":
                    values[player] += self.follower * share * count
                elif kind in RETURNING:
                    values[player] += self.other_figure * share * count
        if isinstance(game, CarcassonneGame):
            self._open_features(game, values, left, share)
        return values

    def completion(self, ftype: str, open_count: int, left: int) -> float:
        """The chance that a feature with ``open_count`` open edges (empty squares for a
        cloister) gets completed with ``left`` tiles still to come."""
        if open_count <= 0:
            return 1.0
        if left < open_count:
            return 0.0
        per = {"road": self.road_edge, "city": self.city_edge}.get(ftype, self.cloister_square)
        room = min(1.0, left / (3.0 * open_count + 2.0))
        return float(per**open_count * room)

    def _open_features(self, game: Game, values: list[float], left: int, share: float) -> None:
        board = game.board
        parent = board.parent
        ftype = board.ftype
        opened = board.open
        for root, up in enumerate(parent):
            if up != root or not board.figures[root] or board.done[root]:
                continue
            kind = ftype[root]
            if kind == "field":
                self._field(game, root, values, left)
                continue
            if kind not in ("road", "city", "cloister") or opened[root] <= 0:
                continue
            chance = self.completion(kind, opened[root], left)
            if chance <= 0:
                continue
            gain = feature_value(game, root, True) - feature_value(game, root, False)
            for player in majority(game.strengths(root)):
                values[player] += chance * gain
            for figure in board.figures[root]:
                if figure.kind in RETURNING:
                    values[figure.player] += chance * self.follower * share

    def _field(self, game: Game, root: int, values: list[float], left: int) -> None:
        board = game.board
        winners = majority(game.strengths(root))
        if not winners:
            return
        cities = {board.find(c) for c in board.cities[root]}
        expected = 0.0
        for city in cities:
            if board.open[city] > 0:
                expected += self.completion("city", board.open[city], left)
        if expected:
            per_city = 4 if game.options.get("farmers") == "classic4" else 3
            for player in winners:
                values[player] += self.field_city * per_city * expected
