"""The expert level: the hard level's valuation, searched a ply deeper within a fixed budget.

At each tile decision the expert ranks its whole turns (a tile placement with its figure step)
by one ply, as the hard level does, and then values the best of them again after what comes
next: for every tile the next player may draw (an exact mean over the unseen tiles, each weighed
by how many of it are unseen), that player's best reply, and only then the hard level's valuation
(expectimax: my turn, the draw, the reply). A turn that leaves the next player an easy share of
the expert's city, a field to join or a cloister to close is valued after that reply.

The reply is modelled cheaply and then checked: every reply is ranked by the greedy valuation
(what the end scoring would give now), and its :data:`REPLY_CHECKED` best are valued with the
hard level's valuation from the replying player's side; that player plays the one it values
most.

The search is bounded by positions, not by time (:data:`BUDGET`): the same observation gives the
same decision on every machine. The candidates are searched best first, each over all its
draws, while the positions spent plus the next candidate's cost stay within the budget; a wall
time guard (:data:`GUARD_SECONDS`) stops widening on a machine far slower than ours. The expert
decides from the same observation as the other levels (:func:`ai.observation.observe`): no
seed, no stack order, no other player's hand.

What was measured, kept and dropped: ``docs/ai-journal.md``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ai.evaluate import spent_end_values, tiles_left
from ai.observation import determinize, observe
from ai.players import (
    EndgamePlayer,
    costly,
    decision_rng,
    lead,
    next_draws,
    roomy_collector,
    whole_turns,
    worth,
)
from engine import Action, Game, Phase

#: Positions a tile decision may search (each position one play on a fork and one valuation),
#: by game: a position of The Castle costs about three times one of Carcassonne (its end
#: scoring measures the largest empty region), one of Hunters & Gatherers twice. Each is at most
#: about 0.7 s of one core of this machine, 0.3 to 0.6 s in the median.
BUDGETS = {"carcassonne": 20_000, "hunters": 7_000, "castle": 5_000}
#: The budget of a game not named there.
BUDGET = 20_000
#: ... but a :func:`ai.players.costly` setup (Carcassonne with Inns & Cathedrals or Traders &
#: Builders) searches this many: its positions cost about 10 to 20 times a base game's at 4
#: players (more kinds of tile unseen, more places and figures to reply with, larger boards),
#: 0.2 to 0.5 ms each on this machine.
COSTLY_BUDGET = 2_500
#: The fewest draws a sampled search values each candidate over (:meth:`ExpertPlayer._first`).
SAMPLED = 6
#: How much more than the best candidate by one ply another may cost (it may open the next
#: player more places): the draws are sampled when this many times its cost would not fit.
HEADROOM = 2.0
#: The fewest candidates searched when there are that many (the best by one ply and one more).
FEWEST = 2
#: The most candidates searched.
WIDEST = 12
#: Candidates worth this many points less than the best by one ply are not searched.
WITHIN = 20.0
#: The replies ranked best by the greedy valuation that are valued again with the hard level's.
REPLY_CHECKED = 10
#: The most decisions of a player's own turn played out after its tile and figure (a wagon to
#: move, say) before the position is valued.
OWN_STEPS = 4
#: Deals sampled where the next player's tiles are in a hand nobody else sees (tactical hand).
HAND_DEALS = 6
#: What a searched position is worth: ``chance`` (to win) or ``objective`` (the hard level's).
LEAF = "chance"
#: The spread of the final margins in the chance to win, per square root of the tiles left.
CHANCE_SPREAD = 2.5
#: Never search longer than this (seconds): the budget ends far sooner on this machine.
GUARD_SECONDS = 1.8


def budget_of(obs: Game) -> int:
    """The positions a tile decision of ``obs``'s setup searches (:data:`BUDGETS`,
    :data:`COSTLY_BUDGET`)."""
    return COSTLY_BUDGET if costly(obs) else BUDGETS.get(obs.setup.game, BUDGET)


@dataclass
class SearchStats:
    """What the last decisions cost: positions searched, candidates, guard stops."""

    positions: int = 0
    candidates: int = 0
    guarded: int = 0
    decisions: int = 0
    sampled: int = 0


@dataclass
class ExpertPlayer(EndgamePlayer):
    """The expert level (see the module)."""

    #: The positions a decision may search; None: the game's (:data:`BUDGETS`).
    budget: int | None = None
    guard_seconds: float = GUARD_SECONDS
    stats: SearchStats = field(default_factory=SearchStats, repr=False, compare=False)

    def _tile(self, obs: Game, seat: int, left: int) -> Action:
        """A tile decision before the endgame (the hard level's, with several opponents):
        the search."""
        return self._search(obs, seat) if left > 0 else self.decide(obs, seat)

    def _search(self, obs: Game, seat: int) -> Action:
        ranked = sorted(whole_turns(obs, seat, self.values, self.objective), key=lambda t: -t[0])
        if len(ranked) == 1:
            return self._start(obs, seat, ranked[0][1])
        searched = self._searched(obs, seat, ranked, self._leaf)
        chosen, best = searched[0][1], searched[0][0]
        for expected, actions in searched[1:]:
            if expected > best + 1e-9:
                best, chosen = expected, actions
        return self._start(obs, seat, chosen)

    def _searched(
        self,
        obs: Game,
        seat: int,
        ranked: list[tuple[float, tuple[Action, ...]]],
        leaf: Callable[[Game, int], float],
        also: tuple[Action, ...] | None = None,
    ) -> list[tuple[float, tuple[Action, ...]]]:
        """The candidates of ``ranked`` (whole turns by one ply, best first) searched within
        the budget, each with its mean ``leaf`` over the deals, in that order; and ``also``
        (a turn to value whatever its rank) last."""
        started = time.perf_counter()
        best_one_ply = ranked[0][0]
        worlds = self._worlds(obs, seat)
        spent = len(ranked)
        cost = 0
        found: list[tuple[float, tuple[Action, ...]]] = []
        budget = self.budget if self.budget is not None else budget_of(obs)
        for index, (value, actions) in enumerate(ranked[:WIDEST]):
            if index >= FEWEST:
                if best_one_ply - value > WITHIN * _scale(obs):
                    break
                if spent + cost > budget:
                    break
                if time.perf_counter() - started > self.guard_seconds:
                    self.stats.guarded += 1
                    break
            if index == 0:
                left = budget - spent
                expected, used, worlds = self._first(obs, seat, actions, worlds, leaf, left)
            else:
                expected, used = self._expected(obs, seat, actions, worlds, leaf)
            cost = max(cost, used)
            spent += used
            found.append((expected, actions))
        self.stats.positions += spent
        self.stats.candidates += len(found)
        self.stats.decisions += 1
        if also is not None and all(actions != also for _, actions in found):
            found.append((self._expected(obs, seat, also, worlds, leaf)[0], also))
        return found

    def appraise(
        self, game: Game, seat: int, played: tuple[Action, ...]
    ) -> list[tuple[float, tuple[Action, ...]]]:
        """For a review of ``seat``'s tile decision now: its whole turns searched as a decision
        searches them, and ``played`` (the turn it took) too, each valued in points of expected
        final margin (its lead over the best other player, in the hard level's valuation, after
        the next player's reply to every tile it may draw), best first. The same game, seat and
        budget always give the same values."""
        with roomy_collector():
            obs = observe(game, seat)
            ranked = sorted(
                whole_turns(obs, seat, self.values, self.objective), key=lambda t: -t[0]
            )
            searched = self._searched(obs, seat, ranked, self._margin, played)
        return sorted(searched, key=lambda t: -t[0])

    def _margin(self, world: Game, seat: int) -> float:
        """A searched position's worth in points: ``seat``'s lead over the best other player."""
        return worth(world, seat, self.values, lead)

    def _worlds(self, obs: Game, seat: int) -> list[tuple[Game, float]]:
        """The deals searched, each with its weight: one per tile the next player may draw
        (put on top of the stack), or sampled deals when the hands are hidden."""
        if obs.hand_mode:
            rng = decision_rng(self.seed, obs, "expert")
            return [
                (determinize(obs, seat, random.Random(rng.getrandbits(64))), 1.0)
                for _ in range(HAND_DEALS)
            ]
        draws = next_draws(obs)
        if not draws:
            return [(obs, 1.0)]
        worlds: list[tuple[Game, float]] = []
        for name, count in draws.items():
            world = obs.fork()
            world.stack.remove(name)
            world.stack.append(name)
            worlds.append((world, float(count)))
        return worlds

    def _first(
        self,
        obs: Game,
        seat: int,
        actions: tuple[Action, ...],
        worlds: list[tuple[Game, float]],
        leaf: Callable[[Game, int], float],
        budget: int,
    ) -> tuple[float, int, list[tuple[Game, float]]]:
        """The best candidate by one ply searched (as :meth:`_expected`), and the deals every
        candidate is searched over: all of them, unless the setup is :func:`costly` and
        :data:`FEWEST` candidates over all of them would not fit in ``budget`` (with
        :data:`HEADROOM`); then a sample of the draws that fits (at least :data:`SAMPLED`), each
        drawn as often as the unseen tiles make it likely. The deals are valued one by one, and
        what they cost on average tells what a candidate over all of them would cost."""
        summed = (0.0, 0.0, 0)
        sampled = costly(obs) and len(worlds) > SAMPLED
        for index in range(len(worlds)):
            summed = self._values(obs, seat, actions, worlds[index : index + 1], leaf, summed)
            each = summed[2] / (index + 1)
            if sampled and each * len(worlds) * FEWEST * HEADROOM > budget:
                break
        else:
            return summed[0] / summed[1], summed[2], worlds
        draws = max(SAMPLED, int(budget // (each * FEWEST * HEADROOM)))
        rng = decision_rng(self.seed, obs, "draws")
        picked = Counter(rng.choices(range(len(worlds)), [w for _, w in worlds], k=draws))
        sample = [(worlds[i][0], float(n)) for i, n in sorted(picked.items())]
        total, weights, used = self._values(obs, seat, actions, sample, leaf)
        self.stats.sampled += 1
        return total / weights, used + summed[2], sample

    def _expected(
        self,
        obs: Game,
        seat: int,
        actions: tuple[Action, ...],
        worlds: list[tuple[Game, float]],
        leaf: Callable[[Game, int], float],
    ) -> tuple[float, int]:
        """The mean worth to ``seat`` of its whole turn ``actions`` in each deal, after the
        next player's reply; and the positions that cost."""
        total, weights, used = self._values(obs, seat, actions, worlds, leaf)
        return total / weights, used

    def _values(
        self,
        obs: Game,
        seat: int,
        actions: tuple[Action, ...],
        worlds: list[tuple[Game, float]],
        leaf: Callable[[Game, int], float],
        start: tuple[float, float, int] = (0.0, 0.0, 0),
    ) -> tuple[float, float, int]:
        """``seat``'s worth of ``actions`` summed over ``worlds`` (each times its weight), the
        weights, and the positions that cost, added to ``start``."""
        total, weights, used = start
        for deal, weight in worlds:
            world = deal.fork()
            for action in actions:
                world.play(action)
            used += 1 + self._own_steps(world, seat)
            if not world.finished and world.phase is Phase.TILE:
                world, replies = self._answer(world)
                used += replies
            total += weight * leaf(world, seat)
            weights += weight
        return total, weights, used

    def _leaf(self, world: Game, seat: int) -> float:
        """What a searched position is worth to ``seat``: its chance to win (averaged over the
        deals, this maximises the chance to win rather than the margin), or the objective."""
        if LEAF != "chance":
            return worth(world, seat, self.values, self.objective)
        left = tiles_left(world)
        return win_probability(self.values(world), seat, left, CHANCE_SPREAD)

    def _own_steps(self, world: Game, seat: int) -> int:
        """The rest of ``seat``'s turn by one ply (a wagon to move); positions it cost."""
        turn = world.turn
        steps = 0
        while (
            steps < OWN_STEPS
            and not world.finished
            and world.actor == seat
            and world.turn == turn
            and world.phase is not Phase.TILE
        ):
            world.play(self.decide(world, seat))
            steps += 1
        return steps

    def _answer(self, world: Game) -> tuple[Game, int]:
        """The game after the reply of the player in turn, and the positions it cost: its
        whole turns ranked by the greedy valuation, the :data:`REPLY_CHECKED` best valued again
        with this player's valuation from its side."""
        actor = world.actor
        if REPLY_CHECKED <= 0:  # every reply valued with this player's valuation
            replies = whole_turns(world, actor, self.values, self.objective)
            best_reply = max(replies, key=lambda t: t[0])[1]
            for action in best_reply:
                world.play(action)
            return world, len(replies) * 4 + self._own_steps(world, actor)
        replies = whole_turns(world, actor, spent_end_values, lead)
        used = len(replies)
        replies.sort(key=lambda t: -t[0])
        best: Game | None = None
        best_value = -float("inf")
        for _, actions in replies[:REPLY_CHECKED]:
            after = world.fork()
            for action in actions:
                after.play(action)
            used += 1 + self._own_steps(after, actor)
            value = worth(after, actor, self.values, self.objective)
            if value > best_value:
                best, best_value = after, value
        return (best if best is not None else world), used


def win_probability(values: list[float], seat: int, left: int, spread: float = 2.5) -> float:
    """The chance that ``seat`` finishes ahead of every other player, each final difference
    drawn around the present one with a spread of ``spread`` points times the square root of
    the tiles left (as :class:`ai.evaluate.WinChance`, whose logarithm it is)."""
    if left <= 0:
        mine = values[seat]
        others = [v for p, v in enumerate(values) if p != seat]
        best = max(others)
        return 1.0 if mine > best else (0.5 if mine == best else 0.0)
    sigma = spread * math.sqrt(left + 1.0)
    chance = 1.0
    for other, value in enumerate(values):
        if other != seat:
            chance *= 0.5 * math.erfc(-(values[seat] - value) / (sigma * math.sqrt(2.0)))
    return chance


def _scale(obs: Game) -> float:
    """How far below the best a candidate may lie: the full margin early, less near the end."""
    return 1.0 if tiles_left(obs) > 10 else 0.6


def expert_stats(players: list[object]) -> Counter[str]:
    """The search costs of the expert players among ``players`` (benchmarks)."""
    found: Counter[str] = Counter()
    for player in players:
        if isinstance(player, ExpertPlayer):
            found.update(vars(player.stats))
    return found
