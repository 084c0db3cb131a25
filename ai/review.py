"""A review of a finished game: every tile decision of every player valued against the best the
expert finds (:meth:`ai.expert.ExpertPlayer.appraise`, at a fixed budget, so that the same record
always gives the same review), in points of expected final margin.

This module holds the review's data (what the bot stores, shows and counts in statistics) and
its JSON form, and computes it: :func:`decisions` lists a record's tile decisions,
:func:`appraise_at` values one (a picklable call, for worker processes), :func:`review` values
them all (in a process pool with ``jobs``) and :func:`summarise` counts them;
:func:`reason` says why the best turn was better and :func:`reason_text` words it.
Each decision is valued from what its player could see then (:func:`ai.observation.observe`),
by :func:`reviewer`, the expert at :data:`REVIEW_BUDGET` positions with its wall-time guard off.

- A **moment** is one tile decision: the whole turn played (the tile and the figure step the
  same player took right after it, as record actions), the best whole turn found, both values,
  the points lost (best minus played, never below 0) and a reason (a key and its parameters,
  which the bot words in the player's language and ``python -m ai review`` in English).
- A player's **accuracy** is the share of their reviewed decisions within
  :data:`ACCURATE_WITHIN` points of the best; **points lost per turn** is the mean of their
  losses. Turns the bot played for the player (``forced`` in the record: a timeout's autoplay,
  a skip) are shown but count for neither.
- The **costliest** moments are the game's :data:`COSTLIEST` largest losses (players' own
  decisions only), costliest first.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import catalogs
from ai.expert import ExpertPlayer
from ai.observation import observe
from ai.players import hard_heuristic
from engine import (
    Action,
    FeatureScored,
    Forfeit,
    Game,
    Phase,
    PlaceFigure,
    PlaceTile,
    Setup,
    action_from_json,
)
from engine.core.board import NEIGHBOURS_8
from engine.core.record import read_record
from engine.core.tiles import EDGE_STEPS

#: A decision within this many points of the best counts as accurate.
ACCURATE_WITHIN = 1.0
#: How many of the costliest decisions a review shows.
COSTLIEST = 3
#: The JSON form's version (:meth:`Review.to_json`).
FORMAT = 1
#: Positions the expert may search per reviewed decision, by game (as
#: :data:`ai.expert.BUDGETS`): a 72-tile 2-player base game reviews in under a minute with two
#: worker processes on this 2-core machine (``benchmarks/review.py``). The review switches the
#: expert's wall-time guard off, so the same record and budget give the same review anywhere.
#: Twice the expert's play budgets: the search is then mostly bounded by its widest candidates
#: (:data:`ai.expert.WIDEST`, :data:`ai.expert.WITHIN`), not by the budget.
REVIEW_BUDGETS = {"carcassonne": 40_000, "hunters": 14_000, "castle": 10_000}
#: The budget of a game not named there (and of a Carcassonne game).
REVIEW_BUDGET = 40_000

Params = dict[str, str | int | float]


@dataclass(frozen=True)
class Reason:
    """Why the best turn was better, as a key of the catalogs' ``review`` context and its
    parameters (e.g. ``Reason("closes_own_city", {"points": 12})``)."""

    key: str
    params: Params = field(default_factory=dict)


@dataclass(frozen=True)
class Moment:
    """One reviewed tile decision."""

    index: int  # the index in the record's actions of the turn's first action
    turn: int  # the game's turn number then
    seat: int
    played: tuple[dict[str, Any], ...]  # the whole turn played, as record actions
    best: tuple[dict[str, Any], ...]  # the best whole turn found, as record actions
    played_value: float  # points of expected final margin
    best_value: float
    loss: float  # best_value - played_value, never below 0
    reason: Reason
    forced: str | None = None  # the record's ``forced`` (the bot played it), or None

    @property
    def counted(self) -> bool:
        """Whether it counts for accuracy and points lost (the player decided it)."""
        return self.forced is None


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    decisions: int  # the player's own reviewed decisions (forced ones left out)
    accuracy: float  # share of them within ACCURATE_WITHIN points of the best (0..1)
    lost_per_turn: float  # mean points lost per decision


@dataclass(frozen=True)
class Review:
    budget: int  # the expert's positions per decision
    moments: tuple[Moment, ...]
    players: tuple[PlayerReview, ...]
    costliest: tuple[int, ...]  # indices into moments, costliest first

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "budget": self.budget,
            "moments": [
                {
                    "index": m.index,
                    "turn": m.turn,
                    "seat": m.seat,
                    "played": list(m.played),
                    "best": list(m.best),
                    "played_value": round(m.played_value, 3),
                    "best_value": round(m.best_value, 3),
                    "loss": round(m.loss, 3),
                    "reason": {"key": m.reason.key, "params": m.reason.params},
                    "forced": m.forced,
                }
                for m in self.moments
            ],
            "players": [
                {
                    "seat": p.seat,
                    "decisions": p.decisions,
                    "accuracy": round(p.accuracy, 4),
                    "lost_per_turn": round(p.lost_per_turn, 3),
                }
                for p in self.players
            ],
            "costliest": list(self.costliest),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        if data.get("format") != FORMAT:
            found = data.get("format")
            raise ValueError(f"a review of format {FORMAT} was expected, got {found!r}")
        moments = tuple(
            Moment(
                index=int(m["index"]),
                turn=int(m["turn"]),
                seat=int(m["seat"]),
                played=tuple(m["played"]),
                best=tuple(m["best"]),
                played_value=float(m["played_value"]),
                best_value=float(m["best_value"]),
                loss=float(m["loss"]),
                reason=Reason(m["reason"]["key"], dict(m["reason"]["params"])),
                forced=m.get("forced"),
            )
            for m in data["moments"]
        )
        players = tuple(
            PlayerReview(
                int(p["seat"]), int(p["decisions"]), float(p["accuracy"]), float(p["lost_per_turn"])
            )
            for p in data["players"]
        )
        return cls(int(data["budget"]), moments, players, tuple(int(i) for i in data["costliest"]))


def summarise(budget: int, moments: tuple[Moment, ...], players: int) -> Review:
    """The review of ``moments``: each player's accuracy and points lost per turn, and the
    game's costliest decisions (the players' own)."""
    reviews = []
    for seat in range(players):
        own = [m for m in moments if m.seat == seat and m.counted]
        accurate = sum(m.loss <= ACCURATE_WITHIN for m in own)
        reviews.append(
            PlayerReview(
                seat,
                len(own),
                accurate / len(own) if own else 1.0,
                sum(m.loss for m in own) / len(own) if own else 0.0,
            )
        )
    counted = [i for i, m in enumerate(moments) if m.counted and m.loss > 0]
    counted.sort(key=lambda i: (-moments[i].loss, i))
    return Review(budget, moments, tuple(reviews), tuple(counted[:COSTLIEST]))


# -- the decisions of a record ---------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One tile decision of a record: the whole turn a player took (the tile, or an abbey, a
    wall tile, a skip, and the figure step the same player took right after it)."""

    number: int  # its place among the record's decisions (:func:`decisions`)
    index: int  # the index in the record's actions of the turn's first action
    turn: int
    seat: int
    played: tuple[dict[str, Any], ...]  # record actions (without the ``forced`` field)
    forced: str | None = None  # the record's ``forced`` on any of them: the bot played it


def _game(record: dict[str, Any]) -> Game:
    return Game(Setup.from_json(record))


def decisions(record: dict[str, Any]) -> list[Decision]:
    """Every tile decision in ``record``, in order (any game family): each action taken in a
    tile phase (a player leaving excepted), with the figure step the same player then took in
    the same turn, as the expert's whole turns are made (:func:`ai.players.whole_turns`)."""
    game = _game(record)
    found: list[Decision] = []
    current: Decision | None = None
    for index, raw in enumerate(record.get("actions", [])):
        action = action_from_json(raw)
        now = game.decision
        forced = raw.get("forced") if isinstance(raw.get("forced"), str) else None
        if (
            current is not None
            and len(current.played) == 1
            and now.phase is Phase.FIGURE
            and (now.player, now.turn) == (current.seat, current.turn)
            and not isinstance(action, Forfeit)
        ):
            current = Decision(
                current.number,
                current.index,
                current.turn,
                current.seat,
                (*current.played, action.to_json()),
                current.forced or forced,
            )
        else:
            if current is not None:
                found.append(current)
                current = None
            if now.phase is Phase.TILE and not isinstance(action, Forfeit):
                played = (action.to_json(),)
                current = Decision(len(found), index, now.turn, now.player, played, forced)
        game.play(action)
    if current is not None:
        found.append(current)
    return found


def _before(record: dict[str, Any], index: int) -> Game:
    """The game just before the record's action ``index``."""
    game = _game(record)
    for raw in record["actions"][:index]:
        game.play(action_from_json(raw))
    return game


def reviewer(budget: int) -> ExpertPlayer:
    """The expert that reviews: ``budget`` positions per decision and no wall-time guard, so
    that its values depend on the record and the budget alone."""
    return ExpertPlayer(
        "expert", hard_heuristic().values, 1, 0, budget=budget, guard_seconds=math.inf
    )


def budget_of(record: dict[str, Any]) -> int:
    """The review budget of ``record``'s game (:data:`REVIEW_BUDGETS`)."""
    return REVIEW_BUDGETS.get(str(record.get("game", "carcassonne")), REVIEW_BUDGET)


def appraise_at(record: dict[str, Any], number: int, budget: int) -> Moment:
    """Decision ``number`` of ``record`` (:func:`decisions`) valued by the expert at ``budget``
    from what its player could see then (:func:`ai.observation.observe`): the best whole turn
    found, both values, the points lost and why. A picklable call: one decision per call."""
    decision = decisions(record)[number]
    game = _before(record, decision.index)
    seat = decision.seat
    played = tuple(action_from_json(raw) for raw in decision.played)
    appraised = reviewer(budget).appraise(game, seat, played)
    best_value, best = appraised[0]
    played_value = next(value for value, actions in appraised if actions == played)
    loss = max(0.0, best_value - played_value)
    if best == played:
        loss = 0.0
    why = reason(observe(game, seat), seat, played, best, loss)
    return Moment(
        index=decision.index,
        turn=decision.turn,
        seat=seat,
        played=decision.played,
        best=tuple(action.to_json() for action in best),
        played_value=played_value,
        best_value=best_value,
        loss=loss,
        reason=why,
        forced=decision.forced,
    )


def _appraise_job(args: tuple[dict[str, Any], int, int]) -> Moment:
    return appraise_at(*args)


def review(
    record: dict[str, Any],
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> Review:
    """The review of ``record``: every decision appraised (:func:`appraise_at`) at ``budget``
    (None: :func:`budget_of`), in ``jobs`` worker processes when more than one; ``progress``
    is told (decisions done, decisions in all) after each."""
    spent = budget if budget is not None else budget_of(record)
    count = len(decisions(record))
    tasks = [(record, number, spent) for number in range(count)]
    moments: list[Moment] = []
    if jobs > 1 and count > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, count)) as pool:
            for moment in pool.map(_appraise_job, tasks):
                moments.append(moment)
                if progress is not None:
                    progress(len(moments), count)
    else:
        for task in tasks:
            moments.append(_appraise_job(task))
            if progress is not None:
                progress(len(moments), count)
    return summarise(spent, tuple(moments), len(record["players"]))


# -- why the best turn was better ------------------------------------------------------------

#: Every reason's key (the catalogs' ``review`` context), in the order they are looked for.
REASONS = (
    "best",  # the turn played was the best found
    "close",  # within ACCURATE_WITHIN points of it
    "stranded_follower",  # the turn put a follower on a feature no tile can ever complete
    "gave_points",  # the turn adds to or completes an opponent's feature: points
    "missed_completion",  # the best turn completes the player's own feature: points
    "missed_figure",  # the best turn puts a figure where the turn played put none
    "kept_follower",  # the best turn keeps the figure the turn played put out
    "better_position",  # what the search sees beyond: the generic reason
)
#: Points given to an opponent that name the reason ``gave_points``.
GIVEN_AT_LEAST = 2


@dataclass
class _Effect:
    """What a whole turn does, on a fork of the observation."""

    scored: dict[int, int]  # points each player scored in the turn (completed features)
    scored_feature: dict[int, str]  # the feature each player scored most on
    projected: list[int]  # the scores if the game ended right after
    figure: str | None  # the feature type the turn's figure stands on, or "" for another spot
    stranded: str | None  # the feature type of a follower put where it can never score
    joined: dict[int, str]  # opponents whose open features the tile joined: feature type


def _effect(obs: Game, seat: int, actions: tuple[Action, ...]) -> _Effect:
    world = obs.fork()
    scored: dict[int, int] = {}
    feature: dict[int, tuple[int, str]] = {}
    figure: str | None = None
    stranded: str | None = None
    joined: dict[int, str] = {}
    for action in actions:
        if isinstance(action, PlaceFigure):
            figure = world.figure_feature(action) or ""
        events = world.play(action)
        if isinstance(action, PlaceTile):
            joined = _joined(world, seat, action)
        for event in events:
            if isinstance(event, FeatureScored) and not event.final:
                for player, points in event.points.items():
                    scored[player] = scored.get(player, 0) + points
                    if points > feature.get(player, (0, ""))[0]:
                        feature[player] = (points, event.feature)
        if isinstance(action, PlaceFigure) and action.figure in STRANDING:
            stranded = stranded_feature(world, action)
    projected = world.projected_scores(consume=True)
    return _Effect(
        scored, {p: f for p, (_, f) in feature.items()}, projected, figure, stranded, joined
    )


#: The figures a feature that can never be completed strands (they stay till the end).
STRANDING = ("follower", "large_follower")
#: The features a follower is stranded on when they can never be completed.
COMPLETABLE = ("road", "city", "cloister")


def stranded_feature(world: Game, action: PlaceFigure) -> str | None:
    """The feature type ``action``'s figure stands on if no tile can ever complete it (an
    empty square it needs that no unplaced tile fits), else None."""
    placed = world.board.tiles.get((action.x, action.y))
    if placed is None or world.finished:
        return None
    local = placed.oriented.feature_at(action.at)
    if local < 0:
        return None
    board = world.board
    root = board.find(placed.first_node + local)
    kind = board.ftype[root]
    if kind not in COMPLETABLE or board.done[root] or board.open[root] <= 0:
        return None
    dead = world.dead_squares()
    return kind if dead and _needs(world, root, kind, placed.pos) & dead else None


def _needs(world: Game, root: int, kind: str, pos: tuple[int, int]) -> set[tuple[int, int]]:
    """The empty squares feature ``root`` needs filled to be complete."""
    board = world.board
    if kind == "cloister":
        x, y = pos
        return {(x + dx, y + dy) for dx, dy in NEIGHBOURS_8} - set(board.tiles)
    needed: set[tuple[int, int]] = set()
    for cell in board.frontier:
        x, y = cell
        for edge, (dx, dy) in enumerate(EDGE_STEPS):
            other = board.tiles.get((x - dx, y - dy))
            if other is None:
                continue
            for local in other.oriented.edge_features[edge]:
                if board.find(other.first_node + local) == root:
                    needed.add(cell)
    return needed


def _joined(world: Game, seat: int, action: PlaceTile) -> dict[int, str]:
    """The opponents holding (alone or tied, without ``seat``) a feature the tile just placed
    belongs to, each with that feature's type."""
    board = world.board
    placed = board.tiles.get((action.x, action.y))
    found: dict[int, str] = {}
    if placed is None:
        return found
    for local, part in enumerate(placed.oriented.features):
        root = board.find(placed.first_node + local)
        strengths = world.strengths(root)
        top = max(strengths, default=0)
        if top <= 0 or strengths[seat] == top:
            continue
        for player, strength in enumerate(strengths):
            if strength == top and player not in found:
                found[player] = part.type
    return found


def reason(
    obs: Game, seat: int, played: tuple[Action, ...], best: tuple[Action, ...], loss: float
) -> Reason:
    """Why ``best`` was better than ``played`` (whole turns of ``seat`` on ``obs``, what it
    could see), from what the two turns do in the engine (:data:`REASONS`, in that order)."""
    if loss <= 0 or played == best:
        return Reason("best")
    lost = round(loss, 1)
    if loss <= ACCURATE_WITHIN:
        return Reason("close", {"points": lost})
    mine, theirs = _effect(obs, seat, played), _effect(obs, seat, best)
    if mine.stranded is not None and theirs.stranded is None:
        return Reason("stranded_follower", {"feature": mine.stranded, "points": lost})
    given = []  # what the turn played gives each opponent more: scored now, or by the end
    for player in range(len(mine.projected)):
        scored = mine.scored.get(player, 0) - theirs.scored.get(player, 0)
        if player != seat and (player in mine.joined or scored > 0):
            later = mine.projected[player] - theirs.projected[player]
            given.append((max(later, scored), player))
    if given:
        points, player = max(given)
        if points >= GIVEN_AT_LEAST:
            feature = mine.scored_feature.get(player) or mine.joined.get(player, "")
            return Reason("gave_points", {"feature": feature, "points": points, "player": player})
    own_best, own_played = theirs.scored.get(seat, 0), mine.scored.get(seat, 0)
    if own_best > own_played:
        feature = theirs.scored_feature.get(seat, "")
        return Reason("missed_completion", {"feature": feature, "points": own_best})
    if theirs.figure is not None and mine.figure is None:
        return Reason("missed_figure", {"points": lost})
    if mine.figure is not None and theirs.figure is None:
        return Reason("kept_follower", {"points": lost})
    return Reason("better_position", {"points": lost})


def reason_text(reason: Reason, locale: str, names: Sequence[str]) -> str:
    """``reason`` in words, one sentence in the language of ``locale`` (the catalogs' ``review``
    context): a feature named as the narration names it, a player by their name in ``names``."""
    params: dict[str, Any] = dict(reason.params)
    if "feature" in params:
        kind = str(params["feature"])
        params["feature"] = (
            catalogs.text("feature", kind, locale) if catalogs.has("feature", kind) else kind
        )
    if "player" in params:
        seat = int(params["player"])
        params["player"] = names[seat] if 0 <= seat < len(names) else str(seat + 1)
    if "points" in params:
        params["points"] = _number(params["points"], locale)
    return catalogs.text("review", reason.key, locale, **params)


def _number(value: Any, locale: str) -> str:
    """Points as the language writes them: points scored (an int) whole, points of margin (a
    float) with one decimal."""
    shown = str(value) if isinstance(value, int) else f"{float(value):.1f}"
    return shown.replace(".", ",") if catalogs.language(locale) != "en" else shown


# -- python -m ai review ---------------------------------------------------------------------


def add_command(commands: Any) -> None:
    """The ``review`` command among ``python -m ai``'s (an argparse subparsers object)."""
    command = commands.add_parser("review", help="review a finished game's record")
    command.add_argument("record", help="the game record (JSON)")
    command.add_argument("--budget", type=int, help="positions per decision (default: the game's)")
    command.add_argument("--jobs", type=int, default=1, help="worker processes")
    command.add_argument("--json", action="store_true", help="print the review as JSON")


def run_command(args: argparse.Namespace) -> int:
    """``python -m ai review RECORD.json``: each player's accuracy and points lost per turn,
    and the costliest decisions with their reason in English (or, with ``--json``, the
    review's JSON form)."""
    with open(args.record, "rb") as source:
        record = read_record(source.read())

    def told(done: int, total: int) -> None:
        print(f"\r{done}/{total} decisions", end="", file=sys.stderr, flush=True)

    result = review(record, args.budget, None if args.json else told, args.jobs)
    if args.json:
        print(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
        return 0
    print(file=sys.stderr)
    print(describe(result, list(record["players"])))
    return 0


def describe(result: Review, names: Sequence[str], locale: str = "en") -> str:
    """The review in plain text: a line per player, then the costliest decisions."""
    lines = [f"Review at {result.budget} positions per decision"]
    for player in result.players:
        lines.append(
            f"{names[player.seat]}: accuracy {player.accuracy:.0%} of {player.decisions} "
            f"decisions, {player.lost_per_turn:.2f} points lost per turn"
        )
    for rank, number in enumerate(result.costliest, 1):
        moment = result.moments[number]
        lines.append(
            f"{rank}. turn {moment.turn + 1}, {names[moment.seat]}: {moment.loss:.1f} points lost "
            f"(action {moment.index}) - {reason_text(moment.reason, locale, names)}"
        )
    return "\n".join(lines)
