"""Tournaments as pure functions: points, standings, Swiss pairings and knockout brackets.

Nothing here does I/O: the manager stores the entrants and every game's result, and the
standings, the next round's tables and the bracket are computed from them again whenever they
are needed (as the leagues' standings are), so an annulled game simply stops counting.

**Points.** At a table, a player earns one point for each table-mate placed behind them and
half a point for each placed level with them: a 2-player game gives 1 to the winner (½ each for
a tie), a 4-player game gives 3, 2, 1, 0. A player who forfeits (dropped out, or timed out as
the play-by-post policy says) is placed behind everyone who played and earns nothing. A bye
(only at 2-player tables, when the count is odd) is worth a win: 1 point.

**Standings** order by points, then Buchholz (the sum of the points of every table-mate of every
counted game, as they stand now; a bye adds none), then total score; players still equal share a
position. An annulled game counts for nothing, but its pairing stands: its players count as
having met, and a round paired after it is not paired again.

**Swiss pairing.** Players are ordered by points, then rating (then id). At 2-player tables the
pairing is a maximum-weight perfect matching (networkx), which settles, in this order of
priority: the bye goes to one of the players with the fewest byes; as few repeated pairings as
possible (none whenever that is possible); the bye to the lowest of those players; and players
paired as close in the order as possible (first by points). At tables of 3 to 5 the players are
split into ``ceil(n / size)`` tables whose sizes differ by at most one (never byes), filled in
order, the first split with no two players who have met already (a bounded search; when none
exists, each seat goes to the next player in order who repeats the fewest pairings).

**Knockout.** Players are seeded by rating. At 2-player tables the bracket has the next power of
two of slots, the top seeds get the byes, and seeds meet as in a classic draw (1 and 2 only in
the final). A match is best of 1, 3 or 5: the first to win a majority advances; a tied game counts
for neither and another game is played, and after :data:`TIES_BEFORE_SEED` tied games in one match
the higher seed advances. At tables of 3 to 5 the seeds are dealt to tables in a snake (sizes
differing by at most one), the top ``advance`` of each table (at most its size minus one) go on,
and once the players left fit one table they play the final table. A place shared at the cut goes
to the higher score, then the higher seed.

**Swiss then final table**: the Swiss rounds, then the top players of the Swiss standings (one
table's worth: 2 to 5) play a final table; the final's places come first, the others follow in
their Swiss order.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import networkx as nx

from bot.leagues import LeagueError, error_kind

FORMATS = ("swiss", "knockout", "swiss_final")
BEST_OF = (1, 3, 5)
MIN_TABLE, MAX_TABLE = 2, 5
#: Tied games in one knockout match after which the higher seed advances.
TIES_BEFORE_SEED = 3
#: Nodes the table search may visit before it settles for fewest repeats.
SEARCH_NODES = 50_000


@dataclass(frozen=True)
class Entrant:
    key: int  # the player's id
    rating: int  # their rating when the tournament started: the seeding


@dataclass(frozen=True)
class Result:
    """One table of one round: a played game, a forfeit or a bye (one player)."""

    round: int
    table: int
    players: tuple[int, ...]
    ranks: tuple[int, ...] = ()  # competition ranks (1 = first), aligned with players
    scores: tuple[int, ...] = ()
    absent: frozenset[int] = frozenset()  # players who forfeited: behind everyone who played
    annulled: bool = False

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def points(self) -> dict[int, Fraction]:
        """Each player's points at this table (see the module's docstring)."""
        if self.bye:
            return {self.players[0]: Fraction(1)}
        out: dict[int, Fraction] = {}
        for i, p in enumerate(self.players):
            got = Fraction(0)
            if p not in self.absent:
                for j, q in enumerate(self.players):
                    if i == j:
                        continue
                    if q in self.absent or self.ranks[i] < self.ranks[j]:
                        got += 1
                    elif self.ranks[i] == self.ranks[j]:
                        got += Fraction(1, 2)
            out[p] = got
        return out

    def score_of(self, player: int) -> int:
        if self.bye or not self.scores:
            return 0
        return self.scores[self.players.index(player)]

    def order(self, seeds: Mapping[int, int]) -> list[int]:
        """The players from first to last: points, then score, then the higher seed."""
        points = self.points()
        return sorted(self.players, key=lambda p: (-points[p], -self.score_of(p), seeds.get(p, 0)))


@dataclass(frozen=True)
class Standing:
    key: int
    position: int  # 1 = first; equal players share one
    points: Fraction
    buchholz: Fraction
    score: int
    games: int  # counted tables played (byes included)
    byes: int


def counted(results: Iterable[Result]) -> list[Result]:
    return [r for r in results if not r.annulled]


def totals(results: Iterable[Result]) -> defaultdict[int, Fraction]:
    """Each player's points over the counted results (0 for anyone else)."""
    points: defaultdict[int, Fraction] = defaultdict(Fraction)
    for result in counted(results):
        for player, got in result.points().items():
            points[player] += got
    return points


def standings(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Standing]:
    """Every entrant (dropped ones too: past results are kept) in standings order."""
    points = totals(results)
    buchholz: defaultdict[int, Fraction] = defaultdict(Fraction)
    score: Counter[int] = Counter()
    games: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for result in counted(results):
        for player in result.players:
            games[player] += 1
            score[player] += result.score_of(player)
            if result.bye:
                byes[player] += 1
            for mate in result.players:
                if mate != player:
                    buchholz[player] += points[mate]
    keys = [
        (Fraction(points[e.key]), Fraction(buchholz[e.key]), score[e.key], e.key) for e in entrants
    ]
    keys.sort(key=lambda k: (-k[0], -k[1], -k[2], k[3]))
    rows: list[Standing] = []
    for i, (pts, buch, sc, key) in enumerate(keys):
        tied = rows and (rows[-1].points, rows[-1].buchholz, rows[-1].score) == (pts, buch, sc)
        position = rows[-1].position if tied else i + 1
        rows.append(Standing(key, position, pts, buch, sc, games[key], byes[key]))
    return rows


def met(results: Iterable[Result]) -> set[frozenset[int]]:
    """Every pair of players who have sat at one table (annulled games too: pairings stand)."""
    pairs: set[frozenset[int]] = set()
    for result in results:
        for i, p in enumerate(result.players):
            for q in result.players[i + 1 :]:
                pairs.add(frozenset((p, q)))
    return pairs


def table_sizes(players: int, size: int) -> list[int]:
    """The sizes of the tables for ``players`` at tables of ``size`` (3 to 5), largest first:
    ``ceil(players / size)`` tables whose sizes differ by at most one."""
    if players < MIN_TABLE:
        raise ValueError(f"{players} players cannot fill a table")
    tables = math.ceil(players / size)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def swiss_order(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[int]:
    """The pairing order: points, then rating, then id."""
    points = totals(results)
    ordered = sorted(entrants, key=lambda e: (-points[e.key], -e.rating, e.key))
    return [e.key for e in ordered]


def pair_swiss(
    entrants: Sequence[Entrant], results: Sequence[Result], size: int
) -> list[tuple[int, ...]]:
    """The next Swiss round's tables of the ``entrants`` still playing, the top table first,
    a bye (one player) last."""
    order = swiss_order(entrants, results)
    if len(order) < MIN_TABLE:
        raise ValueError("a round needs at least two players")
    pairs = met(results)
    if size == 2:
        return _pair_two(order, results, pairs)
    return _fill_tables(order, table_sizes(len(order), size), pairs)


def _pair_two(
    order: list[int], results: Sequence[Result], pairs: set[frozenset[int]]
) -> list[tuple[int, ...]]:
    n = len(order)
    points = totals(results)
    byes = Counter(r.players[0] for r in results if r.bye)
    pos = {p: i for i, p in enumerate(order)}
    half = {p: int(points[p] * 2) for p in order}
    # Lexicographic costs folded into one integer weight: repeats, then the bye's place, then
    # closeness in the order (points first).
    spread = max(half.values()) - min(half.values()) + 1
    edge_most = spread**2 * n * n + n * n
    close_most = (n // 2 + 1) * edge_most + 1
    bye_unit = close_most
    repeat_unit = (n + 1) * bye_unit
    top = (n + 1) * repeat_unit
    graph: nx.Graph[int] = nx.Graph()
    for i, p in enumerate(order):
        for q in order[i + 1 :]:
            cost = (half[p] - half[q]) ** 2 * n * n + (pos[p] - pos[q]) ** 2
            if frozenset((p, q)) in pairs:
                cost += repeat_unit
            graph.add_edge(p, q, weight=top - cost)
    bye = None
    if n % 2:
        fewest = min(byes[p] for p in order)
        bye = -1  # ids are positive
        for p in order:
            if byes[p] == fewest:
                graph.add_edge(p, bye, weight=top - (n - 1 - pos[p]) * bye_unit)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables: list[tuple[int, ...]] = []
    alone: tuple[int, ...] | None = None
    for a, b in matching:
        if bye in (a, b):
            alone = (b if a == bye else a,)
        else:
            tables.append((a, b) if pos[a] < pos[b] else (b, a))
    if len(tables) * 2 + (alone is not None) != n:
        raise AssertionError("the matching left a player out")
    tables.sort(key=lambda t: pos[t[0]])
    return tables + ([alone] if alone else [])


def _fill_tables(
    order: list[int], sizes: list[int], pairs: set[frozenset[int]]
) -> list[tuple[int, ...]]:
    """Tables of ``sizes`` filled from ``order``: the first split in order with no repeated
    pairing, or else the fewest repeats seat by seat."""
    rank = {p: i for i, p in enumerate(order)}
    tables: list[list[int]] = [[] for _ in sizes]
    used: set[int] = set()
    visited = 0

    def search(t: int) -> bool:
        # Each split is tried once: a table's players in order, and tables of one size by
        # their first player; the best players first, so the first split found is the
        # closest to the order.
        nonlocal visited
        if t == len(sizes):
            return True
        table = tables[t]
        if len(table) == sizes[t]:
            return search(t + 1)
        if table:
            low = rank[table[-1]] + 1
        elif t and sizes[t] == sizes[t - 1]:
            low = rank[tables[t - 1][0]] + 1
        else:
            low = 0
        for player in order[low:]:
            if player in used or any(frozenset((player, o)) in pairs for o in table):
                continue
            visited += 1
            if visited > SEARCH_NODES:
                return False
            table.append(player)
            used.add(player)
            if search(t):
                return True
            table.pop()
            used.discard(player)
        return False

    if search(0):
        return [tuple(t) for t in tables]
    # No repeat-free split found: seat by seat, the next player repeating the fewest pairings.
    tables = [[] for _ in sizes]
    left = list(order)
    for t, wanted in enumerate(sizes):
        tables[t].append(left.pop(0))
        while len(tables[t]) < wanted:
            best = min(
                left, key=lambda p: (sum(frozenset((p, o)) in pairs for o in tables[t]), rank[p])
            )
            left.remove(best)
            tables[t].append(best)
    return [tuple(t) for t in tables]


def seeds(entrants: Sequence[Entrant]) -> dict[int, int]:
    """Each entrant's seed: 1 for the highest rating (ties: the lower id)."""
    ordered = sorted(entrants, key=lambda e: (-e.rating, e.key))
    return {e.key: i + 1 for i, e in enumerate(ordered)}


def draw_order(slots: int) -> list[int]:
    """The seeds of a classic draw's slots, top to bottom: 1, 8, 4, 5, 2, 7, 3, 6 for 8
    (each pair of slots is a first-round match; 1 and 2 meet only in the final)."""
    order = [1]
    while len(order) < slots:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


@dataclass(frozen=True)
class Match:
    round: int  # 1 = the first round
    table: int  # 1 = the top of the bracket
    players: tuple[int, ...]  # in seed order
    games: tuple[Result, ...] = ()  # its counted games so far
    advancing: tuple[int, ...] | None = None  # who goes on, once decided
    wins: tuple[int, ...] = ()  # game wins per player (2-player matches)

    @property
    def decided(self) -> bool:
        return self.advancing is not None


@dataclass
class Bracket:
    rounds: list[list[Match]] = field(default_factory=list)
    winner_order: list[int] = field(default_factory=list)  # the final places once finished

    @property
    def finished(self) -> bool:
        return bool(self.winner_order)

    def open_matches(self) -> list[Match]:
        """The matches of the current round still to play a game."""
        return [m for m in self.rounds[-1] if not m.decided] if self.rounds else []


def knockout(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    size: int,
    best_of: int = 1,
    advance: int = 1,
    dropped: Iterable[int] = (),
) -> Bracket:
    """The bracket as the results so far make it: every round paired so far, each match's
    state, and the final places once the last match is decided. ``results`` carry the round
    and table of their match; a dropped player forfeits every game not yet played (the manager
    records those forfeits as results)."""
    seed = seeds(entrants)
    out = Bracket()
    if size == 2:
        slots = 1 << max(1, math.ceil(math.log2(max(2, len(entrants)))))
        by_seed = {s: k for k, s in seed.items()}
        line: list[int | None] = [by_seed.get(s) for s in draw_order(slots)]
        round_no = 1
        while True:
            matches: list[Match] = []
            nxt: list[int | None] = []
            for t in range(len(line) // 2):
                a, b = line[2 * t], line[2 * t + 1]
                present = tuple(p for p in (a, b) if p is not None)
                if len(present) < 2:
                    # A bye: the player alone goes on (no match to play).
                    nxt.append(present[0] if present else None)
                    continue
                match = _series(round_no, t + 1, present, results, best_of, seed)
                matches.append(match)
                nxt.append(match.advancing[0] if match.advancing else None)
            out.rounds.append(matches)
            if any(not m.decided for m in matches):
                return out
            if len(nxt) == 1:
                champion = nxt[0]
                final = matches[-1] if matches else None
                runner = [p for p in (final.players if final else ()) if p != champion]
                out.winner_order = [p for p in [champion, *runner] if p is not None]
                out.winner_order += _eliminated_order(out, seed, out.winner_order)
                return out
            line = nxt
            round_no += 1
    players = sorted(seed, key=seed.__getitem__)
    round_no = 1
    while True:
        if len(players) <= size:
            final = _table_match(round_no, 1, tuple(players), results, seed, len(players))
            out.rounds.append([final])
            if final.decided and final.advancing is not None:
                out.winner_order = list(final.advancing)
                out.winner_order += _eliminated_order(out, seed, out.winner_order)
            return out
        tables = _snake(players, size)
        matches = [
            _table_match(round_no, t + 1, table, results, seed, min(advance, len(table) - 1))
            for t, table in enumerate(tables)
        ]
        out.rounds.append(matches)
        if any(not m.decided for m in matches):
            return out
        going = [p for m in matches for p in (m.advancing or ())]
        players = sorted(going, key=seed.__getitem__)
        round_no += 1


def _snake(players: list[int], size: int) -> list[tuple[int, ...]]:
    sizes = table_sizes(len(players), size)
    tables: list[list[int]] = [[] for _ in sizes]
    t, step = 0, 1
    for player in players:
        while len(tables[t]) >= sizes[t]:
            t, step = _snake_step(t, step, len(sizes))
        tables[t].append(player)
        t, step = _snake_step(t, step, len(sizes))
    return [tuple(table) for table in tables]


def _snake_step(t: int, step: int, count: int) -> tuple[int, int]:
    if count == 1:
        return 0, 1
    nxt = t + step
    if nxt < 0 or nxt >= count:
        return t, -step  # the snake turns: the same table takes the next seed
    return nxt, step


def _of_match(round_no: int, table: int, results: Sequence[Result]) -> list[Result]:
    return [r for r in counted(results) if r.round == round_no and r.table == table]


def _series(
    round_no: int,
    table: int,
    players: tuple[int, ...],
    results: Sequence[Result],
    best_of: int,
    seed: Mapping[int, int],
) -> Match:
    games = _of_match(round_no, table, results)
    need = best_of // 2 + 1
    wins = dict.fromkeys(players, 0)
    ties = 0
    advancing: tuple[int, ...] | None = None
    for game in games:
        points = game.points()
        best = max(points.values())
        leaders = [p for p in players if points.get(p) == best]
        if len(leaders) == 1 and best > 0:
            wins[leaders[0]] += 1
        else:
            ties += 1
        if max(wins.values()) >= need:
            top = max(players, key=lambda p: wins[p])
            advancing = (top,)
            break
        if ties >= TIES_BEFORE_SEED:
            advancing = (min(players, key=seed.__getitem__),)
            break
    return Match(round_no, table, players, tuple(games), advancing, tuple(wins[p] for p in players))


def _table_match(
    round_no: int,
    table: int,
    players: tuple[int, ...],
    results: Sequence[Result],
    seed: Mapping[int, int],
    going: int,
) -> Match:
    games = _of_match(round_no, table, results)
    if not games:
        return Match(round_no, table, players)
    placed = games[-1].order(seed)
    return Match(round_no, table, players, (games[-1],), tuple(placed[:going]))


def _eliminated_order(bracket: Bracket, seed: Mapping[int, int], placed: list[int]) -> list[int]:
    """The players out before the final, the later round first, then by seed."""
    out: list[int] = []
    seen = set(placed)
    for matches in reversed(bracket.rounds):
        lost = [p for m in matches for p in m.players if p not in seen]
        lost.sort(key=seed.__getitem__)
        out += lost
        seen.update(lost)
    rest = sorted((p for p in seed if p not in seen), key=seed.__getitem__)
    return out + rest


def final_places(
    entrants: Sequence[Entrant], swiss: Sequence[Result], final: Result | None
) -> list[int]:
    """Swiss then final table: the final's places first, then the others in Swiss order."""
    order = [s.key for s in standings(entrants, swiss)]
    if final is None or final.annulled:
        return order
    rank = {p: i for i, p in enumerate(order)}
    top = final.order(rank)
    return top + [p for p in order if p not in top]


# -- refusals --------------------------------------------------------------------------------

#: Swiss rounds a tournament may have.
MAX_ROUNDS = 20
NAME_LENGTH = 50
#: The parameters of tournament refusals that hold text users typed, and how much is shown.
FREE_TEXT = {"tournament": NAME_LENGTH, "name": NAME_LENGTH, "names": 10 * (NAME_LENGTH + 2)}


class TournamentError(LeagueError):
    """A refusal about tournaments, in the player's language (catalog context
    ``tournament``); the names in it are shown harmlessly (:func:`bot.i18n.shown_text`)."""

    key: ClassVar[str] = "tournament_not_found"
    context: ClassVar[str] = "tournament"
    free_text: ClassVar[Mapping[str, int]] = FREE_TEXT


def _error(key: str) -> type[TournamentError]:
    return error_kind(TournamentError, key)


TournamentNotFound = _error("tournament_not_found")
NoTournament = _error("no_tournament")
SeveralTournaments = _error("several_tournaments")
TournamentNameTaken = _error("tournament_name_taken")
BadTournamentName = _error("bad_tournament_name")
BadTableSize = _error("bad_table_size")
BadRounds = _error("bad_rounds")
BadBestOf = _error("bad_best_of")
BadAdvance = _error("bad_advance")
BadRoundHours = _error("bad_round_hours")
AlreadyEntered = _error("already_entered")
NotEntered = _error("not_entered")
SignupClosed = _error("signup_closed")
CheckinClosed = _error("checkin_closed")
TooFewEntrants = _error("too_few_entrants")
NotRunning = _error("not_running")
AlreadyDropped = _error("already_dropped")
NotTournamentGame = _error("not_tournament_game")
NoTournamentResult = _error("no_tournament_result")
PastRound = _error("past_round")
NotReplayable = _error("not_replayable")
