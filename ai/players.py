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

The hard level once searched: its five best moves, each followed in three deals of the unseen
tiles by every other player's greedy reply, then valued again. With the valuation it has now,
that search lost points against one ply on the same 200 games (2 players against greedy: +25.9
against +28.6 points per game), so the level plays one ply until the end nears. Looking one
round ahead from anywhere in the game was measured again with 4 players and Abbey & Mayor
(5 best turns, 6 deals each): -1.2 ± 5.2 and +2.2 ± 4.6 points of win share, and once more on
deals 60001-60050 (4 best turns, 4 deals each): -2.3 ± 5.6, and +4.0 ± 5.6 with the abbey's
worth (:data:`ai.evaluate.ABBEY_HELD`); not kept. What is kept with 4 players or more looks at
the next player only, but with every tile it may draw rather than sampled deals
(:data:`REPLY_TURNS`).
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ai.evaluate import (
    DEFAULT_WEIGHTS,
    Heuristic,
    WinChance,
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
    frees; at Python's default it collects every 700 new objects (in the hard level's former
    search, 15 % of a decision's instructions, 4 players with Abbey & Mayor). Garbage waits
    a little longer instead (a few MB). The decisions run in worker processes, so the process-wide
    setting concerns only them; it is put back after."""
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
#: Three times as many (144) changed nothing: +0.1 ± 0.5 points of win share, 4 players against
#: three greedy, base game, deals 130001-130200 (800 games).
ENDGAME_PLACEMENTS = 48
#: A final margin's weight beside the win share (a point of margin never outweighs a shared win).
ENDGAME_MARGIN = 0.001
#: Before the endgame, with this many players or more (not with the tactical hand, where the
#: next player's tiles are in a hand nobody sees) ...
REPLY_PLAYERS = 4
#: ... the hard level's this many best whole turns by one ply are each valued after the next
#: player's greedy reply, over every tile that player may draw (:meth:`EndgamePlayer._reply`):
#: an exact mean over the unseen tiles, so no sampling noise between the turns compared; a turn
#: that leaves the next player a rich reply is valued after that reply. Against three greedy
#: players (4 players, Abbey & Mayor, farmers classic), each game compared with one ply's on the
#: same deal and seat:
#: +1.6 ± 3.2 points of win share on deals 110001-110100 (54.3 % against 52.7 %, margin
#: +0.14 ± 0.99) and +4.1 ± 2.9 on deals 90001-90100 (55.0 % against 50.9 %, margin
#: +2.04 ± 0.84): +2.9 ± 2.2 over the 800 games (margin +1.09 ± 0.65). It costs about 100
#: greedy replies a tile decision (0.3 to 1 s; p95 of all its decisions 1.0 s against 0.15 s).
#: On the benchmark's 800 games (deals 1-200, chosen on none of them): 52.3 % (48.8-55.7),
#: margin -0.68 ± 0.50, against 49.1 % (45.7-52.6), margin -2.50 ± 0.55, by one ply.
REPLY_TURNS = 4
#: The most decisions of its own turn the hard level still takes there after its tile and
#: figure (a wagon to move) before the next player's reply.
REPLY_OWN_STEPS = 4


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
    players join or close the leader's features to the last tile.

    Against greedy players (farmers classic), each game compared with one ply's on the same deal
    and seat: 4 players with Abbey & Mayor, +2.5 ± 1.1 points of win share on deals 30051-30100
    (up to 16 deals a decision within 0.8 s), 37.8 % against 36.3 % on the benchmark's (these
    deal counts) and -0.4 ± 1.0 on deals 30101-30200 (final margin +0.53 ± 0.16 points): about
    +1 point of win share, and a higher margin on every set; 3 players, 72.2 % against 70.7 % on
    the benchmark's. Its 3 best turns with more deals did as well (37.2 %); from 12 tiles left,
    +0.9 ± 2.2 on deals 30051-30100 and -1.1 ± 1.3 on deals 60051-60150 (4 turns, 64
    placements), so it starts at 8. With 2 players, where hard plays for the margin, it is not
    used."""

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
            if obs.phase is Phase.TILE and obs.players >= REPLY_PLAYERS and not obs.hand_mode:
                return self._reply(obs, seat)
            return self.decide(obs, seat)

    def _reply(self, obs: Game, seat: int) -> Action:
        """The best of the :data:`REPLY_TURNS` best whole turns by one ply, each valued after
        the next player's greedy reply, averaged over every tile that player may draw."""
        turns = self._best_turns(obs, seat, REPLY_TURNS)
        chosen = turns[0]
        draws = next_draws(obs)
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
#: (:data:`ai.evaluate.CROWDED`), twice the 0.3 of fewer players and of medium. Against three
#: greedy players (4 players, Abbey & Mayor, farmers classic), each game compared with 0.3's on
#: the same deal and seat: +4.9 ± 3.0 points of win share on deals 60001-60050 and +4.3 ± 2.0
#: on deals 60051-60150 (final margin +1.16 ± 0.82 and +1.44 ± 0.59 points a game; its fields
#: +1.6 points a game, cities -0.8). Weighed 1.0, -0.9 ± 4.5 on deals 60001-60050 (on the level
#: before the abbey's worth). With fewer players it did worse: 2 players (benchmarks/ai.py,
#: seed 1, and 400 games of seed 5) 91.3 % and 89.4 % against 93.0 % and 92.0 %, against the
#: medium level 78.0 % against 81.5 % (margin +16.6 against +18.8); 3 players 69.2 % against
#: 72.2 %. On deals 90001-90100, never used to choose anything: +1.2 ± 2.1 points of win share
#: (50.9 % against 49.6 %), margin -0.03 ± 0.49: less than on the deals it was chosen on. In the
#: base game with 4 players (deals 130001-130200, 800 games against three greedy players), 0.6
#: beat every other weight tried: 0.3 by 1.1 ± 1.5 points of win share, 0.45 by 1.5 ± 1.2 and
#: 1.0 by 6.8 ± 1.8 (margin +1.00 ± 0.33 points a game).
HARD_FIELD_OPEN = 0.6


def hard_heuristic() -> Heuristic:
    """The hard level's valuation: each further follower in hand is worth 0.7 of the one
    before (the first 8.5 points, seven 26.0 in all against 28, times the share of the game
    left) rather than 4 each. Short of followers, it keeps its last ones for what is worth
    them; with many, it spends them. One ply against greedy (600 games, 2 players, farmers
    classic), this won 5.0 points more per game (± 1.1) than 4 points each; decays from 0.6 to
    0.8, with the first follower worth 7.5 to 10.5, all gave 4.4 to 5.0 more.

    With 4 players, measured against this valuation and not kept (three greedy opponents,
    farmers classic, the same deals and seats, 800 games of the base game on deals
    130001-130200): the first follower worth 6.5 points, -4.0 ± 1.8 points of win share; 11
    points, +2.1 ± 1.9 (margin +0.60 ± 0.34), but with Abbey & Mayor on deals 110001-110100
    -1.2 ± 3.0 (margin -1.30 ± 0.89); 14 points, +0.2 ± 2.1; a decay of 0.6, +0.2 ± 1.8. With
    Abbey & Mayor, 7 points did worse too: -2.5 ± 2.8 (margin -1.70 ± 0.70) on deals
    110001-110100, and so did a follower's odds of coming back weighed 5.5 instead of 4:
    -1.7 ± 3.1 (margin -1.49 ± 0.93)."""
    weights = {**DEFAULT_WEIGHTS, "supply_follower": 8.5}
    return Heuristic(weights=weights, supply_decay=0.7, crowded={"field_open": HARD_FIELD_OPEN})


def make_player(level: str, seed: int = 0) -> RandomPlayer | OnePlyPlayer:
    """A player by name: random, greedy, easy, medium or hard."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":
        return OnePlyPlayer("greedy", spent_end_values, 1, seed)
    if level == "easy":
        return OnePlyPlayer("easy", spent_end_values, 3, seed)
    if level == "medium":
        return OnePlyPlayer("medium", Heuristic(fits=False).values, 1, seed)
    if level == "hard":
        return EndgamePlayer("hard", hard_heuristic().values, 1, seed, WinChance())
    raise ValueError(f"unknown level {level!r}: expected random, greedy, easy, medium or hard")


LEVELS = ("easy", "medium", "hard")
PLAYERS = ("random", "greedy", *LEVELS)
