"""Computer players: random, the greedy baseline, and the levels easy, medium and hard.

Every player decides from an observation (:func:`ai.observation.observe`), never from the game
itself, and draws its random choices from a generator seeded by its own seed and the public state
(turn, phase, seat), so a decision depends on nothing hidden and replays identically.

- **greedy** (the baseline of the published agents, fixed once written): the move (a tile
  placement with its figure step, or any other single decision) that maximises the player's
  score minus the best opponent's after one ply, completed features scored and open ones valued
  as the end-of-game scoring would value them; ties broken by the seed.
- **easy**: the greedy valuation, but a random move among its three best.
- **medium**: one ply with :class:`ai.evaluate.Heuristic` using a fixed chance per open edge
  (completion odds, farmers' prospects, figures in hand).
- **hard**: one ply with the same heuristic, but completion odds from the unseen tiles that fit
  each open square, followers in hand valued with diminishing returns, and with 4 players or more
  farmers' prospects weighed twice as much (:func:`hard_heuristic`); against several opponents
  it plays for its chance to finish ahead of them all (:class:`ai.evaluate.WinChance`) rather
  than its lead over the best one, and in the last tiles plays its best turns out to the end
  (:class:`EndgamePlayer`). With 4 players or more it values its best turns after the next
  player's greedy reply, over every tile that player may draw (:data:`REPLY_TURNS`).

The hard level plays one ply until the end nears: searching deeper (every other player's reply
in sampled deals, a round ahead) lost points or won none with its valuation. What was measured,
kept and dropped, with its figures: ``docs/ai-journal.md``.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from ai.evaluate import (
    DEFAULT_WEIGHTS,
    Heuristic,
    margin,
    spent_end_values,
    tiles_left,
)
from ai.observation import determinize, layer, observe
from engine import Action, Game, MoveWagon, Pass, Phase, PlaceAbbey, UseWallTile

Values = Callable[[Game], list[float]]
#: What a position is worth to a seat, from every player's value and the tiles left: the lead
#: over the best other (:func:`lead`, greedy's) or :class:`ai.evaluate.WinChance`.
Objective = Callable[[list[float], int, int], float]


def lead(values: list[float], seat: int, left: int) -> float:
    """``seat``'s value minus the best other player's (:func:`ai.evaluate.margin`)."""
    return margin(values, seat)


def options(game: Game) -> list[Action]:
    """Every action the deciding player may take now."""
    phase = game.phase
    found: list[Action] = []
    if phase is Phase.TILE:
        found.extend(game.legal_placements())
        found.extend(game.legal(PlaceAbbey))
        found.extend(game.legal(UseWallTile))
    elif phase is Phase.FIGURE:
        found.extend(game.legal_figures())
        found.extend(game.legal(UseWallTile))
    elif phase is Phase.WAGON:
        found.extend(game.legal(MoveWagon))
    elif phase is Phase.ABBEY_END:
        found.extend(game.legal(PlaceAbbey))
    if game.can_pass:
        found.append(Pass())
    return found


#: Young objects between two collections of the young generation during a decision (Python's
#: default is 700).
SEARCH_YOUNG_GENERATION = 20_000


@contextmanager
def roomy_collector() -> Iterator[None]:
    """Collect less often while deciding. A decision makes and drops hundreds of game copies,
    each holding reference cycles (a game and its plug-ins) that only the cyclic collector
    frees; at Python's default it collects every 700 new objects, a sizeable share of a
    decision's time (``docs/ai-journal.md``). Garbage waits a little longer instead (a few MB).
    The decisions run in worker processes, so the process-wide setting concerns only them; it is
    put back after."""
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, SEARCH_YOUNG_GENERATION), *older)
    try:
        yield
    finally:
        gc.set_threshold(young, *older)


def decision_rng(seed: int, game: Game, salt: str = "") -> random.Random:
    """The random generator of one decision: the player's seed and public facts only."""
    return random.Random(f"{seed}:{game.turn}:{game.actor}:{game.phase.value}:{salt}")


@dataclass(frozen=True)
class Scored:
    value: float
    action: Action


def one_ply(game: Game, seat: int, values: Values, objective: Objective = lead) -> list[Scored]:
    """Each move now, worth ``objective`` of the players' ``values`` after it; a tile placement
    is worth its best figure step that follows (the same player's, same turn). Each position is
    dropped once valued (``values`` may spend it: :func:`ai.evaluate.spent_end_values`)."""
    result: list[Scored] = []
    for action, _, after in _after_each_turn(game, seat):
        value = worth(after, seat, values, objective)
        if result and result[-1].action is action:  # another figure step after this tile
            if value > result[-1].value:
                result[-1] = Scored(value, action)
        else:
            result.append(Scored(value, action))
    return result


def _after_each_turn(game: Game, seat: int) -> Iterator[tuple[Action, Action | None, Game]]:
    """Each whole turn now and the game after it: a move (no step), or a tile placement with
    each figure step the same player then takes, one after the other. The last step after a
    placement is played on the placement's own copy (one copy fewer): value each game before
    taking the next."""
    for action in options(game):
        after = game.fork()
        after.play(action)
        if after.phase is Phase.FIGURE and after.actor == seat and after.turn == game.turn:
            steps = options(after)
            last = len(steps) - 1
            for index, step in enumerate(steps):
                position = after if index == last else after.fork()
                position.play(step)
                yield action, step, position
        else:
            yield action, None, after


def worth(game: Game, seat: int, values: Values, objective: Objective) -> float:
    """``objective`` of ``game`` for ``seat``: the tiles left are read before ``values``
    (which may spend the game)."""
    left = tiles_left(game)
    return objective(values(game), seat, left)


def pick(scored: list[Scored], rng: random.Random, among: int = 1) -> Scored:
    """The best move (ties broken by ``rng``), or a random one among the ``among`` best."""
    ordered = sorted(scored, key=lambda s: -s.value)
    if among > 1:
        return rng.choice(ordered[:among])
    best = ordered[0].value
    tied = [s for s in ordered if s.value >= best - 1e-9]
    return rng.choice(tied)


class RandomPlayer:
    """A uniformly random legal move (the floor of every comparison)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game, seat: int) -> Action:
        obs = observe(game, seat)
        return decision_rng(self.seed, obs).choice(options(obs))


@dataclass
class OnePlyPlayer:
    """Greedy, easy and medium: one ply with a valuation."""

    name: str
    values: Values
    among: int = 1
    seed: int = 0
    objective: Objective = lead

    def choose(self, game: Game, seat: int) -> Action:
        with roomy_collector():
            return self.decide(observe(game, seat), seat)

    def decide(self, obs: Game, seat: int) -> Action:
        """The move by one ply on the observation ``obs``."""
        scored = one_ply(obs, seat, self.values, self.objective)
        return pick(scored, decision_rng(self.seed, obs), self.among).action


def whole_turns(
    game: Game, seat: int, values: Values, objective: Objective
) -> list[tuple[float, tuple[Action, ...]]]:
    """Each whole turn now with its worth: a move, or a tile placement with each figure step
    the same player then takes (valued as :func:`one_ply` values them, the step kept)."""
    return [
        (worth(after, seat, values, objective), (action,) if step is None else (action, step))
        for action, step, after in _after_each_turn(game, seat)
    ]


#: The hard level's endgame (:class:`EndgamePlayer`): from this many tiles left (the stack and
#: the hands) ...
ENDGAME_TILES = 8
#: ... its this many best whole turns by one ply ...
ENDGAME_TURNS = 4
#: ... are each played out to the end on deals of the unseen tiles: as many deals as keep the
#: placements played out within this many (1 deal with 8 tiles left, 3 with 4, 12 with 1).
#: Three times as many changed nothing.
ENDGAME_PLACEMENTS = 48
#: A final margin's weight beside the win share (a point of margin never outweighs a shared win).
ENDGAME_MARGIN = 0.001
#: Before the endgame, with this many players or more (not with the tactical hand, where the
#: next player's tiles are in a hand nobody sees) ...
REPLY_PLAYERS = 4
#: ... the hard level's this many best whole turns by one ply are each valued after the next
#: player's greedy reply, over every tile that player may draw (:meth:`EndgamePlayer._reply`):
#: an exact mean over the unseen tiles, so no sampling noise between the turns compared; a turn
#: that leaves the next player a rich reply is valued after that reply. It wins more than one
#: ply against greedy players, for about 100 greedy replies a tile decision.
REPLY_TURNS = 4
#: The most decisions of its own turn the hard level still takes there after its tile and
#: figure (a wagon to move) before the next player's reply.
REPLY_OWN_STEPS = 4
#: Carcassonne with any of these expansions is costly to search: about 60 kinds of tile unseen
#: at once and several hundred whole turns to reply with (more places, more figures), so that a
#: mean over every draw took the hard level 2 to 30 s of CPU a tile decision at 4 players.
COSTLY = ("inns_cathedrals", "traders_builders")
#: There the reply is valued over this many draws sampled from the unseen tiles
#: (:func:`sampled_draws`), the same for every turn compared.
REPLY_DRAWS = 8


def costly(obs: Game) -> bool:
    """Whether ``obs``'s setup is a Carcassonne game with any of the :data:`COSTLY`
    expansions."""
    setup = obs.setup
    return setup.game == "carcassonne" and any(name in setup.expansions for name in COSTLY)


def sampled_draws(draws: Mapping[str, int], count: int, rng: random.Random) -> dict[str, int]:
    """``count`` draws from ``draws`` (tile kinds, each with how many are unseen), each kind
    drawn as often as its unseen tiles make it likely (with replacement), merged: a kind's
    weight is how often it was drawn, so a mean over them estimates the mean over ``draws``;
    ``draws`` itself when it has no more kinds than that."""
    if len(draws) <= count:
        return dict(draws)
    names = sorted(draws)
    return dict(sorted(Counter(rng.choices(names, [draws[n] for n in names], k=count)).items()))


@dataclass
class EndgamePlayer(OnePlyPlayer):
    """The hard level: one ply, against several opponents a look to the end of the game, and
    with 4 players or more the next player's reply before that (:data:`REPLY_TURNS`).

    With :data:`ENDGAME_TILES` tiles or fewer left, at each tile decision its
    :data:`ENDGAME_TURNS` best whole turns by one ply are each played out to the end on the same
    deals of the unseen tiles, every other player modelled as the greedy baseline and itself as
    its one-ply self, and the turn with the best mean win share is played (a shared win split,
    the final margin breaking ties), with the figure step it planned. Near the end the valuation's
    guesses (completion odds, figures in hand) matter little and the replies decide: greedy
    players join or close the leader's features to the last tile. It wins a little more than one
    ply, with a higher margin; from 12 tiles left it did no better, so it starts at 8. With 2
    players, where hard plays for the margin, it is not used."""

    plan: tuple[tuple[int, int], Action] | None = field(default=None, repr=False, compare=False)

    def choose(self, game: Game, seat: int) -> Action:
        with roomy_collector():
            obs = observe(game, seat)
            planned, self.plan = self.plan, None
            if planned is not None and _is_next(planned, obs, seat):
                return planned[1]
            left = tiles_left(obs)
            if obs.phase is Phase.TILE and obs.players > 2 and 0 < left <= ENDGAME_TILES:
                return self._endgame(obs, seat, left)
            if obs.phase is Phase.TILE:
                return self._tile(obs, seat, left)
            return self.decide(obs, seat)

    def _tile(self, obs: Game, seat: int, left: int) -> Action:
        """A tile decision before the endgame: with :data:`REPLY_PLAYERS` or more (and no
        tactical hand) after the next player's reply, else by one ply."""
        if obs.players >= REPLY_PLAYERS and not obs.hand_mode:
            return self._reply(obs, seat)
        return self.decide(obs, seat)

    def _reply(self, obs: Game, seat: int) -> Action:
        """The best of the :data:`REPLY_TURNS` best whole turns by one ply, each valued after
        the next player's greedy reply, averaged over every tile that player may draw (over
        :data:`REPLY_DRAWS` of them sampled in a :func:`costly` setup)."""
        turns = self._best_turns(obs, seat, REPLY_TURNS)
        chosen = turns[0]
        draws = next_draws(obs)
        if costly(obs):
            draws = sampled_draws(draws, REPLY_DRAWS, decision_rng(self.seed, obs, "reply"))
        if len(turns) > 1 and draws:
            expected = [self._after_reply(obs, seat, actions, draws) for actions in turns]
            chosen = turns[max(range(len(turns)), key=lambda i: (expected[i], -i))]
        return self._start(obs, seat, chosen)

    def _best_turns(self, obs: Game, seat: int, count: int) -> list[tuple[Action, ...]]:
        """The ``count`` best whole turns by one ply, best first."""
        ranked = sorted(whole_turns(obs, seat, self.values, self.objective), key=lambda t: -t[0])
        return [actions for _, actions in ranked[:count]]

    def _start(self, obs: Game, seat: int, chosen: tuple[Action, ...]) -> Action:
        """The first step of the whole turn ``chosen``; its figure step is kept for next."""
        if len(chosen) == 2:
            self.plan = ((obs.turn, seat), chosen[1])
        return chosen[0]

    def _after_reply(
        self, obs: Game, seat: int, actions: tuple[Action, ...], draws: dict[str, int]
    ) -> float:
        """The mean worth to ``seat`` of playing ``actions`` (the rest of its turn by one ply)
        and then the next player's greedy whole turn, over the tiles that player may draw."""
        total = 0.0
        for name, count in draws.items():
            world = obs.fork()
            world.stack.remove(name)
            world.stack.append(name)  # drawn next (an abbey puts the drawn tile back over it)
            for action in actions:
                world.play(action)
            for _ in range(REPLY_OWN_STEPS):  # a wagon to move, say
                if world.finished or world.actor != seat:
                    break
                world.play(self.decide(world, seat))
            if not world.finished and world.actor != seat and world.phase is Phase.TILE:
                replies = whole_turns(world, world.actor, spent_end_values, lead)
                for action in max(replies, key=lambda t: t[0])[1]:
                    world.play(action)
            total += count * worth(world, seat, self.values, self.objective)
        return total / sum(draws.values())

    def _endgame(self, obs: Game, seat: int, left: int) -> Action:
        turns = self._best_turns(obs, seat, ENDGAME_TURNS)
        chosen = turns[0]
        if len(turns) > 1:
            rng = decision_rng(self.seed, obs, "endgame")
            players: list[OnePlyPlayer] = [
                OnePlyPlayer("greedy", spent_end_values, 1, rng.getrandbits(32))
                for _ in range(obs.players)
            ]
            players[seat] = OnePlyPlayer(self.name, self.values, 1, self.seed, self.objective)
            deals = max(1, ENDGAME_PLACEMENTS // (len(turns) * left))
            totals = [0.0] * len(turns)
            for _ in range(deals):
                deal = rng.getrandbits(64)
                for index, actions in enumerate(turns):
                    world = determinize(obs, seat, random.Random(deal))
                    for action in actions:
                        world.play(action)
                    totals[index] += play_out(world, players, seat)
            chosen = turns[max(range(len(turns)), key=lambda i: (totals[i], -i))]
        return self._start(obs, seat, chosen)


def next_draws(obs: Game) -> dict[str, int]:
    """The tiles the next player may draw, each with how many of them are unseen: the stack's
    (only its top part's, with The River: :func:`ai.observation.layer`)."""
    part = layer(obs)
    top = max((part(name) for name in obs.stack), default=0)
    return Counter(name for name in sorted(obs.stack) if part(name) == top)


def _is_next(planned: tuple[tuple[int, int], Action], obs: Game, seat: int) -> bool:
    """Whether the figure step planned with a tile is the decision now."""
    (turn, who), step = planned
    return (turn, who) == (obs.turn, seat) and obs.phase is Phase.FIGURE and step in options(obs)


def play_out(world: Game, players: list[OnePlyPlayer], seat: int) -> float:
    """Play ``world`` to its end; ``seat``'s share of the win plus its margin times
    :data:`ENDGAME_MARGIN`."""
    while not world.finished:
        world.play(players[world.actor].choose(world, world.actor))
    winners = world.winners
    share = 1 / len(winners) if seat in winners else 0.0
    best_other = max(s for p, s in enumerate(world.scores) if p != seat)
    return share + ENDGAME_MARGIN * (world.scores[seat] - best_other)


#: The hard level's weight of farmers' prospects (``field_open``: the open cities a field
#: majority may still score, times their completion odds) with 4 players or more
#: (:data:`ai.evaluate.CROWDED`), twice the 0.3 of fewer players and of medium: with 4 players
#: it beat every other weight tried, with 2 and 3 players it did worse.
HARD_FIELD_OPEN = 0.6


def hard_heuristic() -> Heuristic:
    """The hard level's valuation: each further follower in hand is worth 0.7 of the one
    before (the first 8.5 points, seven 26.0 in all against 28, times the share of the game
    left) rather than 4 each. Short of followers, it keeps its last ones for what is worth
    them; with many, it spends them. It won about 5 points a game more than 4 points each; the
    other worths tried since did no better."""
    weights = {**DEFAULT_WEIGHTS, "supply_follower": 8.5}
    return Heuristic(weights=weights, supply_decay=0.7, crowded={"field_open": HARD_FIELD_OPEN})
