"""Players' statistics from stored games: what each seat did in a finished game, and the sums.

:func:`summarise` replays a finished game once (setup and action log, as stored) and keeps what
statistics need of each seat: score, win, points by category (the engine's breakdown, the same
keys as the end table's), figures placed and figures returned to their owner during play (the
final scoring returns none), and the time of each of the seat's turns in games with a turn
clock. :func:`player_stats` and :func:`head_to_head` add such rows up; they are pure.

Counting rules:

- a game counts once it is finished (abandoned games do not); a game where the player holds
  more than one seat (a record imported to review alone) does not count;
- every winner of a shared win has a win (``shared_wins`` says how many were shared); a player
  who resigned or forfeited never wins;
- computer seats are not people: they have no statistics, but games against them count for the
  people and are told apart (``against_computers``);
- a turn's time runs from the action before the turn (the previous player's last one, or the
  game's start) to the player's last action of the turn; a turn the bot played for the player
  (a timeout) has no time. Only games with a turn clock (play-by-post) have times.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.live import setup_of
from bot.storage import ActionRow, GameRow, ReviewSeat, SeatStats
from engine import Game, action_from_json
from engine.core.events import FigurePlaced, FigureReturned


def turn_times(row: GameRow, log: Sequence[ActionRow]) -> dict[int, list[float]]:
    """Seconds of each seat's own turns (see the module's rules), by seat."""
    times: dict[int, list[float]] = {}
    if row.turn_seconds is None:
        return times
    start = 0
    while start < len(log):
        end = start
        while (
            end + 1 < len(log)
            and log[end + 1].turn == log[start].turn
            and log[end + 1].seat == log[start].seat
        ):
            end += 1
        turn = log[start : end + 1]
        before = log[start - 1].created_at if start > 0 else row.started_at
        own = [a for a in turn if a.forced is None]
        if before is not None and len(own) == len(turn):
            times.setdefault(log[start].seat, []).append(max(0.0, own[-1].created_at - before))
        start = end + 1
    return times


def summarise(row: GameRow, log: Sequence[ActionRow]) -> list[SeatStats]:
    """One :class:`SeatStats` per seat of the finished game ``row`` with its action ``log``."""
    game = Game(setup_of(row))
    placed = [0] * game.players
    returned = [0] * game.players
    for action in log:
        for event in game.play(action_from_json(action.action)):
            if isinstance(event, FigurePlaced):
                placed[event.player] += 1
            elif isinstance(event, FigureReturned):
                returned[event.player] += 1
    winners = set((row.result or {}).get("winners", game.leaders))
    times = turn_times(row, log)
    return [
        SeatStats(
            game_id=row.id,
            seat=seat.seat,
            user_id=seat.user_id,
            computer=seat.computer is not None,
            score=game.scores[seat.seat],
            won=seat.seat in winners and seat.status == "playing",
            left=seat.status != "playing" or game.out[seat.seat],
            breakdown={k: v for k, v in sorted(game.breakdown[seat.seat].items()) if v},
            figures_placed=placed[seat.seat],
            figures_returned=returned[seat.seat],
            turn_times=tuple(round(t, 3) for t in times.get(seat.seat, ())),
            action_count=len(log),
            kind=row.kind,
        )
        for seat in row.seats
    ]


def by_game(rows: Iterable[SeatStats]) -> dict[int, list[SeatStats]]:
    games: dict[int, list[SeatStats]] = {}
    for row in rows:
        games.setdefault(row.game_id, []).append(row)
    return games


def _own_seat(seats: Sequence[SeatStats], user_id: int) -> SeatStats | None:
    """The player's seat, or None if they hold none or several (a game reviewed alone)."""
    own = [s for s in seats if s.user_id == user_id]
    return own[0] if len(own) == 1 else None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    games: int = 0
    wins: int = 0
    #: Wins shared with another player (counted in ``wins`` too).
    shared_wins: int = 0
    #: Games with at least one computer seat.
    against_computers: int = 0
    total_score: int = 0
    best_score: int | None = None
    #: Points by category over every game, largest first.
    categories: tuple[tuple[str, int], ...] = ()
    #: The game families played (for the categories' words), most games first.
    kinds: tuple[str, ...] = ()
    figures_placed: int = 0
    figures_returned: int = 0
    #: Median seconds per turn over the timed (play-by-post) games, and how many turns.
    median_turn: float | None = None
    timed_turns: int = 0
    #: From the games reviewed (``/carcassonne review``): how many, the player's decisions in
    #: them, the share within 1 point of the best and the mean points lost per turn (None: no
    #: game reviewed).
    reviewed: int = 0
    reviewed_decisions: int = 0
    accuracy: float | None = None
    lost_per_turn: float | None = None

    @property
    def average_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0


def player_stats(
    user_id: int, rows: Iterable[SeatStats], reviews: Iterable[ReviewSeat] = ()
) -> PlayerStats:
    """The sums for ``user_id`` over the games of ``rows`` (every seat of each game), with the
    review figures of those games that were reviewed (``reviews``, any seats): accuracy and
    points lost per turn weighted by each game's decisions."""
    games = wins = shared = computers = total = placed = returned = 0
    best: int | None = None
    categories: dict[str, int] = {}
    kinds: dict[str, int] = {}
    times: list[float] = []
    reviewed = {(r.game_id, r.seat): r for r in reviews}
    counted = decisions = 0
    accurate = lost = 0.0
    for seats in by_game(rows).values():
        own = _own_seat(seats, user_id)
        if own is None:
            continue
        found = reviewed.get((own.game_id, own.seat))
        if found is not None:
            counted += 1
            decisions += found.decisions
            accurate += found.accuracy * found.decisions
            lost += found.lost_per_turn * found.decisions
        games += 1
        if own.won:
            wins += 1
            shared += sum(1 for s in seats if s.won) > 1
        computers += any(s.computer for s in seats)
        total += own.score
        best = own.score if best is None else max(best, own.score)
        for category, points in own.breakdown.items():
            categories[category] = categories.get(category, 0) + points
        kinds[own.kind] = kinds.get(own.kind, 0) + 1
        placed += own.figures_placed
        returned += own.figures_returned
        times += own.turn_times
    return PlayerStats(
        user_id=user_id,
        games=games,
        wins=wins,
        shared_wins=shared,
        against_computers=computers,
        total_score=total,
        best_score=best,
        categories=tuple(sorted(categories.items(), key=lambda kv: (-kv[1], kv[0]))),
        kinds=tuple(sorted(kinds, key=lambda k: (-kinds[k], k))),
        figures_placed=placed,
        figures_returned=returned,
        median_turn=statistics.median(times) if times else None,
        timed_turns=len(times),
        reviewed=counted,
        reviewed_decisions=decisions,
        accuracy=accurate / decisions if decisions else None,
        lost_per_turn=lost / decisions if decisions else None,
    )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    user_id: int
    versus_id: int
    games: int = 0
    wins: int = 0
    versus_wins: int = 0
    #: Games both won (a shared win), counted in both ``wins`` and ``versus_wins``.
    shared_wins: int = 0
    #: The player's score minus the other's, summed over the games together.
    margin_total: int = 0
    scores: list[tuple[int, int]] = field(default_factory=list)

    @property
    def average_margin(self) -> float:
        return self.margin_total / self.games if self.games else 0.0


def head_to_head(user_id: int, versus_id: int, rows: Iterable[SeatStats]) -> HeadToHead:
    """The games ``user_id`` and ``versus_id`` played together (each in one seat of their own)."""
    games = wins = theirs = shared = margin = 0
    scores: list[tuple[int, int]] = []
    for seats in by_game(rows).values():
        own, other = _own_seat(seats, user_id), _own_seat(seats, versus_id)
        if own is None or other is None:
            continue
        games += 1
        wins += own.won
        theirs += other.won
        shared += own.won and other.won
        margin += own.score - other.score
        scores.append((own.score, other.score))
    return HeadToHead(user_id, versus_id, games, wins, theirs, shared, margin, scores)
