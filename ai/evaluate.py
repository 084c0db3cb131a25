"""Valuing a position for a computer player.

- :func:`end_values`: the scores if the game ended now (the engine's own end-of-game scoring run
  on a fork): completed features as scored, open ones as the final scoring would value them.
  The greedy baseline uses exactly this.
- :class:`Heuristic`: ``end_values`` plus what the end scoring cannot see: the odds that an open
  road, city or cloister still gets completed (its owners then score the completed value and get
  their figure back), the cities a farmer's field may still gain, and the worth of figures still
  in the supply while there are tiles left to use them. Hunters & Gatherers and The Castle get
  the generic part (end values and figures in hand).

Abbey & Mayor: a barn scores 4 at the end for every completed city its field touches, with no
majority to win, so the cities its field may still gain count for its owner (``barn_open``):
without it a barn was worth only the cities already completed, and the hard level put its barn
where greedy does.

An abbey tile in hand is worth :data:`ABBEY_HELD` points while tiles are left (``abbey_held``),
and :data:`ABBEY_MONK` more while a follower in hand could go onto it (``abbey_monk``): after
the last tile it still goes into a hole with a figure. Worth nothing, the hard level and greedy
alike put it into the first hole where it beat the drawn tile, giving up that turn's tile. The
medium level weighs them alike.

The Big Box needs little more: the end scoring already pays the goods majorities and the pig,
and ``feature_value`` already makes an inn road or a cathedral city worth 0 unfinished and more
completed, so its completion gain (completed minus unfinished value) carries the risk. Added:
the large follower in the supply counts more than a follower, a builder on an open road or
city is worth its chance of second tiles, a pig adds 1 per open city of its field, and an open
city's goods are worth what they would add to its owners' majorities.

What was measured, kept and dropped, with its figures: ``docs/ai-journal.md``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

from engine import Game
from engine.carcassonne import CarcassonneGame
from engine.carcassonne.scoring import feature_value
from engine.carcassonne.traders_builders import goods as goods_of
from engine.carcassonne.traders_builders.rules import GOODS_POINTS, goods_in
from engine.core.fits import Match, fit_table
from engine.core.majority import majority
from engine.core.tiles import EDGE_STEPS, TileKind

RETURNING = frozenset({"follower", "mayor", "wagon", "large_follower", "builder"})
#: A figure in the supply counted as this many followers (the large follower weighs 2).
FOLLOWER_WORTH = {"follower": 1.0, "man": 1.0, "subject": 1.0, "large_follower": 1.5}


class _Fitting(dict[str, int]):
    """Edge key of an empty square -> how many of the unseen tiles fit there (some rotation)."""

    def __init__(self, match: Match, pool: list[tuple[TileKind, int]]) -> None:
        super().__init__()
        self.tables = [(fit_table(match, kind), count) for kind, count in pool]

    def __missing__(self, key: str) -> int:
        fitting = self[key] = sum(count for table, count in self.tables if table[key][0])
        return fitting


#: The counts of recent pools: every candidate move of one decision leaves the same unseen
#: tiles, so their squares are counted once (a few pools kept; cleared when full).
_POOLS: dict[tuple[object, tuple[tuple[str, int], ...]], _Fitting] = {}


def _fitting(game: Game, pool: dict[str, int]) -> _Fitting:
    key = (game.board.match, tuple(sorted(pool.items())))
    found = _POOLS.get(key)
    if found is None:
        if len(_POOLS) >= 32:
            _POOLS.clear()
        kinds = [(game.kinds[name], count) for name, count in key[1]]
        found = _POOLS[key] = _Fitting(game.board.match, kinds)
    return found


def end_values(game: Game) -> list[float]:
    return [float(s) for s in game.projected_scores()]


def spent_end_values(game: Game) -> list[float]:
    """:func:`end_values` of a position thrown away next: scored in place, without a copy
    (the game is spent). The greedy player and the opponents the hard level models use it."""
    return [float(s) for s in game.projected_scores(consume=True)]


def margin(values: list[float], seat: int) -> float:
    """``seat``'s value minus the best other player's (its lead, or how far behind it is)."""
    others = [v for p, v in enumerate(values) if p != seat]
    return values[seat] - (max(others) if others else 0.0)


def tiles_left(game: Game) -> int:
    """The tiles still to be placed: the stack's and those in the players' hands."""
    return game.tiles_left + sum(len(hand) for hand in game.hands)


def log_normal_cdf(z: float) -> float:
    """The logarithm of the standard normal distribution function at ``z``, exact enough
    far in the lower tail (no floor where ``erfc`` underflows, so far-behind positions still
    rank)."""
    if z > -8.0:
        return math.log(0.5 * math.erfc(-z / math.sqrt(2.0)))
    inverse = 1.0 / (z * z)
    series = 1.0 - inverse + 3.0 * inverse * inverse - 15.0 * inverse**3
    return -0.5 * z * z - math.log(-z) - 0.5 * math.log(2.0 * math.pi) + math.log(series)


@dataclass(frozen=True)
class WinChance:
    """A position's worth to ``seat`` with several opponents: the logarithm of its chance to
    finish ahead of every one of them, each final difference drawn around the present one
    with a spread of ``spread`` points times the square root of the tiles left (opponents
    taken apart).

    Against one opponent it ranks positions exactly as :func:`margin` does (it is a rising
    function of the margin) and is the margin. Against several, unlike the margin against the
    best other, it counts every opponent: the same lead over the best of them is worth more
    when the others are far behind than when they are close. With 4 players it won more than
    the margin; the spreads and the uncertainty terms tried since did not win more."""

    spread: float = 2.5

    def __call__(self, values: list[float], seat: int, left: int) -> float:
        """``left``: the tiles still to be placed (the stack and the hands)."""
        if len(values) <= 2:
            return margin(values, seat)
        sigma = self.spread * math.sqrt(left + 1.0)
        mine = values[seat]
        return sum(
            log_normal_cdf((mine - value) / sigma)
            for other, value in enumerate(values)
            if other != seat
        )


#: The parts of a player's value (see :meth:`Heuristic.components`).
COMPONENTS = (
    "score",  # points on the score track
    "end_extra",  # what the end scoring would add now (open features, farmers)
    "complete_city",  # completion odds x what completing adds, for the majority
    "complete_road",
    "complete_cloister",
    "supply_follower",  # followers in the supply x the share of the game left
    "supply_other",  # mayor, wagon ... in the supply x the share of the game left
    "returns",  # followers on open features x their odds of coming back x the share left
    "field_open",  # a field majority's open cities x their completion odds x 3
    "complete_other",  # the other families' features: completion odds x points per tile
    "builder",  # a builder on an open road or city x its chance of a second tile x share left
    "goods_open",  # an open city's goods x its completion odds x what they add to a majority
    "barn_open",  # a barn's field: its open cities x their completion odds x 4
    "abbey_held",  # an abbey tile still in hand while tiles are left (Abbey & Mayor)
    "abbey_monk",  # ... with a follower in hand to put on it after the last tile
)
#: A barn's points at the end per completed city its field touches (Abbey & Mayor).
BARN_PER_CITY = 4
#: An abbey tile in hand, in points, while tiles are left (Abbey & Mayor). It is seldom lost:
#: after the last tile each player who still holds one may put it into a hole (while one is
#: left) with a figure, where it closes what it touches and is a cloister. Worth 0, the abbey
#: went into the first hole where it scored more than the drawn tile, often mid-game, giving up
#: that turn's tile. See :class:`Heuristic`.
ABBEY_HELD = 5.0
#: ... and this much more while a follower in hand could go onto it (a cloister of 5 to 9 points
#: in a hole): without it the last follower went onto the board and the abbey closed features
#: alone.
ABBEY_MONK = 5.0
#: Points per tile of the other families' features when completed (incomplete ones score
#: nothing at the end): Hunters & Gatherers' rivers and forests, The Castle's buildings.
PER_TILE = {"river": 1.0, "forest": 2.0, "path": 1.0, "tower": 2.0, "house": 1.0}
#: Figures that win those features (a hut or the palace does not).
FAMILY_FOLLOWERS = frozenset({"man", "subject"})
#: Weights in points (the score counts 1), set by hand and checked by matches against greedy.
#: ``python -m ai.fit`` fits weights that predict the final margin; those played worse: a fit of
#: the margin is not a fit of the decisions.
DEFAULT_WEIGHTS: dict[str, float] = {
    "score": 1.0,
    "end_extra": 1.0,
    "complete_city": 1.0,
    "complete_road": 1.0,
    "complete_cloister": 1.0,
    "supply_follower": 4.0,
    "supply_other": 2.5,
    "returns": 4.0,
    "field_open": 0.3,
    "complete_other": 1.0,
    "builder": 5.0,
    "goods_open": 1.0,
    "barn_open": 1.0,
    "abbey_held": ABBEY_HELD,
    "abbey_monk": ABBEY_MONK,
}


#: From this many players, :attr:`Heuristic.crowded` weights apply.
CROWDED = 4


@dataclass(frozen=True)
class Heuristic:
    """A player's value: a weighted sum of :data:`COMPONENTS` (weights in points)."""

    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    road_edge: float = 0.60  # chance that each open road end gets closed (fits=False)
    city_edge: float = 0.45  # chance that each open city edge gets closed (fits=False)
    cloister_square: float = 0.80  # chance that each empty square around a cloister gets filled
    #: Completion odds from the tiles still unseen that fit each open square (True), or from
    #: a fixed chance per open edge (False).
    fits: bool = True
    close_city: float = 0.6  # chance that a tile filling a city's square does not open more
    close_road: float = 0.75  # the same for a road
    #: Each further follower in the supply is worth this much of the one before (1: all alike;
    #: below 1, n followers count ``(1 - d**n) / (1 - d)`` followers).
    supply_decay: float = 1.0
    #: Weights that replace some of :attr:`weights` in games of :data:`CROWDED` players or more.
    crowded: dict[str, float] = field(default_factory=dict)
    #: :attr:`weights` with :attr:`crowded` over them, merged once.
    crowded_weights: dict[str, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "crowded_weights", {**self.weights, **self.crowded})

    def values(self, game: Game) -> list[float]:
        weights = self.crowded_weights if game.players >= CROWDED else self.weights
        return [
            sum(weights.get(name, 0.0) * value for name, value in parts.items())
            for parts in self.components(game)
        ]

    def components(self, game: Game) -> list[dict[str, float]]:
        """Each player's :data:`COMPONENTS`, unweighted."""
        ends = end_values(game)
        parts = [dict.fromkeys(COMPONENTS, 0.0) for _ in range(game.players)]
        for player, part in enumerate(parts):
            part["score"] = float(game.scores[player])
            part["end_extra"] = ends[player] - game.scores[player]
        if game.finished:
            return parts
        left = tiles_left(game)
        total = max(1, left + len(game.board.tiles))
        share = left / total
        decay = self.supply_decay
        for player, supply in enumerate(game.supply):
            followers = 0.0
            for kind, count in supply.items():
                if kind in FOLLOWER_WORTH:
                    followers += count * FOLLOWER_WORTH[kind]
                elif kind in RETURNING:
                    parts[player]["supply_other"] += share * count
            if decay != 1.0:
                followers = (1.0 - decay**followers) / (1.0 - decay)
            parts[player]["supply_follower"] = share * followers
            if left:
                pieces = game.pieces(player)
                abbeys = float(pieces.get("abbey", 0))
                parts[player]["abbey_held"] = abbeys
                if pieces.get("follower", 0) or pieces.get("large_follower", 0):
                    parts[player]["abbey_monk"] = abbeys
        if isinstance(game, CarcassonneGame):
            self._open_features(game, parts, left, share)
        else:
            self._family_features(game, parts, left, share)
        return parts

    def _family_features(
        self, game: Game, parts: list[dict[str, float]], left: int, share: float
    ) -> None:
        """Hunters & Gatherers, The Castle: open features their followers may still win."""
        board = game.board
        odds = self._square_odds(game, left, PER_TILE)
        for root, up in enumerate(board.parent):
            kind = board.ftype[root]
            if up != root or kind not in PER_TILE or board.done[root] or board.open[root] <= 0:
                continue
            followers = [f for f in board.figures[root] if f.kind in FAMILY_FOLLOWERS]
            chance = odds.get(root, 0.0)
            if not followers or chance <= 0:
                continue
            weights = [0] * game.players
            for figure in followers:
                if not game.out[figure.player]:
                    weights[figure.player] += 1
            tiles = board.ftiles[root]
            gain = PER_TILE[kind] * (len(tiles) if tiles else 1)
            for player in majority(weights):
                parts[player]["complete_other"] += chance * gain
            for figure in followers:
                parts[figure.player]["returns"] += chance * share

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

    def _square_odds(
        self, game: Game, left: int, types: Collection[str] = ("road", "city")
    ) -> dict[int, float]:
        """For each open road or city (by root): the chance that every empty square on its
        open edges gets a tile that fits there before the end, from the unseen tiles.

        A square counts as filled if one of the owner's share of the unseen tiles (the unseen
        tiles over the players) fits there: fewer or more draws did worse with 4 players, and so
        did another :attr:`close_city`."""
        board = game.board
        pool: dict[str, int] = {}
        for name in game.stack:
            pool[name] = pool.get(name, 0) + 1
        for hand in game.hands:
            for name in hand:
                pool[name] = pool.get(name, 0) + 1
        if game.tile is not None:
            pool[game.tile] = pool.get(game.tile, 0) + 1
        total = sum(pool.values())
        fitting_at = _fitting(game, pool)
        draws = max(1.0, total / max(1, game.players - sum(game.out)))
        odds: dict[int, float] = {}
        tiles = board.tiles
        for cell, key in board.frontier.items():
            fitting = fitting_at[key]
            share_fitting = fitting / total if total else 0.0
            filled = 1.0 - (1.0 - share_fitting) ** draws
            x, y = cell
            seen: set[int] = set()
            for edge, (dx, dy) in enumerate(EDGE_STEPS):
                other = tiles.get((x - dx, y - dy))
                if other is None:
                    continue
                oriented = other.oriented
                for local in oriented.edge_features[edge]:
                    kind = oriented.features[local].type
                    if kind not in types:
                        continue
                    root = board.find(other.first_node + local)
                    if root in seen:
                        continue
                    seen.add(root)
                    close = self.close_city if kind == "city" else self.close_road
                    odds[root] = odds.get(root, 1.0) * filled * close
        return odds

    def _open_features(
        self, game: Game, parts: list[dict[str, float]], left: int, share: float
    ) -> None:
        board = game.board
        parent = board.parent
        ftype = board.ftype
        opened = board.open
        odds = self._square_odds(game, left) if self.fits else None
        for root, up in enumerate(parent):
            if up != root or not board.figures[root] or board.done[root]:
                continue
            kind = ftype[root]
            if kind == "field":
                self._field(game, root, parts, left)
                continue
            if kind not in ("road", "city", "cloister") or opened[root] <= 0:
                continue
            if odds is not None and kind != "cloister":
                chance = odds.get(root, 0.0)
            else:
                chance = self.completion(kind, opened[root], left)
            if chance <= 0:
                continue
            gain = feature_value(game, root, True) - feature_value(game, root, False)
            name = f"complete_{kind}"
            owners = majority(game.strengths(root))
            for player in owners:
                parts[player][name] += chance * gain
            for figure in board.figures[root]:
                if figure.kind in RETURNING:
                    parts[figure.player]["returns"] += chance * share
                if figure.kind == "builder":  # each open end a chance to extend it again
                    parts[figure.player]["builder"] += share * min(1.0, opened[root] / 2)
            if kind == "city" and owners:
                self._goods(game, root, owners, chance, parts)

    @staticmethod
    def _goods(
        game: Game, root: int, owners: list[int], chance: float, parts: list[dict[str, float]]
    ) -> None:
        """An open city's goods go to whoever completes it, most likely one of its owners: what
        they add to that owner's majorities (10 when they win or tie one), plus 1 per token."""
        found = goods_in(game.board, root)
        if not found:
            return
        held = [goods_of(game, p) for p in range(game.players)]
        for player in owners:
            gain = 0.0
            for good, count in found.items():
                mine = held[player].get(good, 0)
                best = max((h.get(good, 0) for p, h in enumerate(held) if p != player), default=0)
                before = GOODS_POINTS if mine and mine >= best else 0
                after = GOODS_POINTS if mine + count >= best else 0
                gain += after - before + count
            parts[player]["goods_open"] += chance * gain / len(owners)

    def _field(self, game: Game, root: int, parts: list[dict[str, float]], left: int) -> None:
        """The cities a field may still gain: its farmer majority would score each, and so would
        every barn in it, which needs no majority (Abbey & Mayor)."""
        board = game.board
        winners = majority(game.strengths(root))
        barns = [figure.player for figure in board.figures[root] if figure.kind == "barn"]
        if not winners and not barns:
            return
        cities = {board.find(c) for c in board.cities[root]}
        expected = 0.0
        for city in cities:
            if board.open[city] > 0:
                expected += self.completion("city", board.open[city], left)
        if not expected:
            return
        for player in barns:
            parts[player]["barn_open"] += BARN_PER_CITY * expected
        if winners:
            per_city = 4 if game.options.get("farmers") == "classic4" else 3
            for player in winners:
                pig = game.farmer_bonus(player, [root])  # Traders & Builders: 1 more per city
                parts[player]["field_open"] += (per_city + pig) * expected
