"""Tournament pairings, brackets and standings (bot/tournaments.py): properties checked with
hypothesis against brute force on small fields, and standings against a hand computation."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    TIES_BEFORE_SEED,
    Entrant,
    Result,
    draw_order,
    final_places,
    knockout,
    met,
    pair_swiss,
    seeds,
    standings,
    table_sizes,
)


def field_of(n: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(k, rng.randrange(800, 1600)) for k in range(1, n + 1)]


def play(round_no: int, tables: list[tuple[int, ...]], rng: random.Random) -> list[Result]:
    """Random results for a round's tables (ties now and then)."""
    out = []
    for t, players in enumerate(tables, 1):
        if len(players) == 1:
            out.append(Result(round_no, t, players))
            continue
        scores = tuple(rng.randrange(0, 6) * 10 for _ in players)
        ranks = tuple(1 + sum(o > s for o in scores) for s in scores)
        out.append(Result(round_no, t, players, ranks, scores))
    return out


def matchings(players: list[int]) -> list[list[tuple[int, ...]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out = []
    for i, other in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            out.append([(first, other), *tail])
    return out


def repeats(tables: list[tuple[int, ...]], pairs: set[frozenset[int]]) -> int:
    return sum(
        frozenset(pair) in pairs for table in tables for pair in itertools.combinations(table, 2)
    )


def fewest_repeats_two(order: list[int], byes: Counter[int], pairs: set[frozenset[int]]) -> int:
    options: list[int] = []
    if len(order) % 2:
        fewest = min(byes[p] for p in order)
        for p in order:
            if byes[p] == fewest:
                rest = [q for q in order if q != p]
                options += [repeats(m, pairs) for m in matchings(rest)]
    else:
        options = [repeats(m, pairs) for m in matchings(order)]
    return min(options)


def splits(players: list[int], sizes: list[int]) -> list[list[tuple[int, ...]]]:
    if not sizes:
        return [[]]
    out = []
    for table in itertools.combinations(players, sizes[0]):
        rest = [p for p in players if p not in table]
        out += [[table, *tail] for tail in splits(rest, sizes[1:])]
    return out


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_two_player_swiss_repeats_only_when_unavoidable_and_byes_go_to_the_fewest(
    n: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = field_of(n, rng)
    results: list[Result] = []
    for r in range(1, rounds + 1):
        tables = pair_swiss(entrants, results, 2)
        seated = [p for t in tables for p in t]
        assert sorted(seated) == [e.key for e in entrants]
        alone = [t for t in tables if len(t) == 1]
        assert len(alone) == n % 2
        byes = Counter(x.players[0] for x in results if x.bye)
        if alone:
            assert byes[alone[0][0]] == min(byes[e.key] for e in entrants)
        pairs = met(results)
        order = [e.key for e in entrants]
        assert repeats(tables, pairs) == fewest_repeats_two(order, byes, pairs)
        results += play(r, tables, rng)
    byes = Counter(x.players[0] for x in results if x.bye)
    assert max(byes[e.key] for e in entrants) - min(byes[e.key] for e in entrants) <= 1


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 9),
    size=st.integers(3, 5),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 10**6),
)
def test_larger_tables_never_repeat_when_a_split_without_repeats_exists(
    n: int, size: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = field_of(n, rng)
    results: list[Result] = []
    for r in range(1, rounds + 1):
        tables = pair_swiss(entrants, results, size)
        assert sorted(len(t) for t in tables) == sorted(table_sizes(n, size))
        assert sorted(p for t in tables for p in t) == [e.key for e in entrants]
        pairs = met(results)
        possible = min(
            repeats(s, pairs) for s in splits([e.key for e in entrants], table_sizes(n, size))
        )
        if possible == 0:
            assert repeats(tables, pairs) == 0
        results += play(r, tables, rng)


@given(n=st.integers(2, 200), size=st.integers(3, 5))
def test_table_sizes_differ_by_at_most_one_and_never_leave_a_player_alone(
    n: int, size: int
) -> None:
    sizes = table_sizes(n, size)
    assert sum(sizes) == n
    assert max(sizes) <= size and min(sizes) >= 2
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-n // size)


def test_the_first_round_pairs_by_rating_top_table_first() -> None:
    entrants = [Entrant(k, 2000 - 10 * k) for k in range(1, 9)]
    assert pair_swiss(entrants, [], 2) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert pair_swiss(entrants, [], 4) == [(1, 2, 3, 4), (5, 6, 7, 8)]
    assert pair_swiss(entrants[:7], [], 2)[-1] == (7,)


def test_the_draw_meets_the_top_two_seeds_only_in_the_final() -> None:
    assert draw_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for slots in (2, 4, 8, 16, 32, 64):
        order = draw_order(slots)
        assert sorted(order) == list(range(1, slots + 1))
        half = slots // 2
        assert (1 in order[:half]) != (2 in order[:half])


@pytest.mark.parametrize("best_of", [1, 3])
@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 10**6))
def test_a_knockout_where_seeds_always_win_ends_as_seeded(best_of: int, n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = field_of(n, rng)
    seed_of = seeds(entrants)
    results: list[Result] = []
    slots = 1
    while slots < n:
        slots *= 2
    slots = max(slots, 2)
    first = knockout(entrants, results, size=2, best_of=best_of).rounds[0]
    in_first = {p for m in first for p in m.players}
    # The byes go to the top seeds.
    assert {p for p in seed_of if p not in in_first} == {
        p for p, s in seed_of.items() if s <= slots - n
    }
    games = 0
    while True:
        bracket = knockout(entrants, results, size=2, best_of=best_of)
        if bracket.finished:
            break
        for match in bracket.open_matches():
            a, b = match.players
            ranks = (1, 2) if seed_of[a] < seed_of[b] else (2, 1)
            results.append(Result(match.round, match.table, (a, b), ranks, (10, 5)))
            games += 1
        # Every round's survivors are exactly the top seeds.
        done = bracket.rounds[-1]
        assert all(seed_of[m.players[0]] < seed_of[m.players[1]] for m in done)
    order = bracket.winner_order
    assert sorted(order) == sorted(seed_of)
    assert [seed_of[p] for p in order[:2]] == [1, 2][: min(2, n)]
    assert games == (n - 1) * (best_of // 2 + 1)
    # After round r the players left are exactly seeds 1 to slots / 2**r.
    left = {p for p in seed_of if p not in in_first}
    for r, matches in enumerate(bracket.rounds, 1):
        left |= {m.advancing[0] for m in matches if m.advancing}
        assert {seed_of[p] for p in left} == set(range(1, (slots >> r) + 1))
        left = set()
    assert sum(len(m) for m in bracket.rounds) == n - 1


def test_a_series_replays_a_tied_game_and_gives_the_higher_seed_the_match_after_three() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1400)]
    tie = [Result(1, 1, (1, 2), (1, 1), (20, 20)) for _ in range(2)]
    bracket = knockout(entrants, tie, size=2, best_of=3)
    assert not bracket.finished
    assert bracket.open_matches()[0].wins == (0, 0)
    win2 = [Result(1, 1, (1, 2), (2, 1), (10, 30))] * 2
    bracket = knockout(entrants, tie + win2, size=2, best_of=3)
    assert bracket.winner_order == [2, 1]
    ties = [Result(1, 1, (1, 2), (1, 1), (5, 5))] * TIES_BEFORE_SEED
    assert knockout(entrants, ties, size=2, best_of=1).winner_order == [1, 2]
    # A forfeit is a loss for the absent player.
    gone = Result(1, 1, (1, 2), (1, 2), (0, 0), absent=frozenset({1}))
    assert knockout(entrants, [gone], size=2, best_of=1).winner_order == [2, 1]


def test_a_knockout_of_larger_tables_deals_seeds_in_a_snake_and_ends_at_a_final_table() -> None:
    entrants = [Entrant(k, 2000 - k) for k in range(1, 13)]
    bracket = knockout(entrants, [], size=4, advance=2)
    first = bracket.rounds[0]
    assert [m.players for m in first] == [(1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10)]
    results = [
        Result(1, m.table, m.players, (4, 3, 2, 1), (1, 2, 3, 4)) for m in first
    ]  # the lowest seeds win each table
    bracket = knockout(entrants, results, size=4, advance=2)
    second = bracket.rounds[1]
    assert sorted(p for m in second for p in m.players) == [7, 8, 9, 10, 11, 12]
    assert [len(m.players) for m in second] == [3, 3]
    results += [Result(2, m.table, m.players, (1, 2, 3), (9, 5, 1)) for m in second]
    bracket = knockout(entrants, results, size=4, advance=2)
    final = bracket.rounds[2][0]
    assert len(final.players) == 4 and not bracket.finished
    results.append(Result(3, 1, final.players, (2, 1, 4, 3), (5, 9, 1, 3)))
    bracket = knockout(entrants, results, size=4, advance=2)
    assert bracket.winner_order[:4] == [
        final.players[1],
        final.players[0],
        final.players[3],
        final.players[2],
    ]
    assert sorted(bracket.winner_order) == list(range(1, 13))


def test_standings_equal_a_hand_computation() -> None:
    # Six players, 2-player tables, three rounds; player 6 drops out after round 2.
    e = [Entrant(k, 1000 + 100 * (7 - k)) for k in range(1, 7)]
    r = [
        Result(1, 1, (1, 2), (1, 2), (80, 60)),
        Result(1, 2, (3, 4), (1, 1), (70, 70)),
        Result(1, 3, (5, 6), (2, 1), (50, 90)),
        Result(2, 1, (6, 1), (1, 2), (85, 75)),
        Result(2, 2, (3, 5), (1, 2), (66, 40)),
        Result(2, 3, (4, 2), (2, 1), (30, 61)),
        Result(3, 1, (6, 3), (1, 2), (0, 0), absent=frozenset({6})),  # forfeit: 3 wins
        Result(3, 2, (1, 2), (1, 2), (99, 10), annulled=True),  # annulled: counts for nothing
        Result(3, 3, (4, 5), (1, 2), (55, 45)),
    ]
    # Points: 1: 1+0 = 1; 2: 0+1 = 1; 3: .5+1+1 = 2.5; 4: .5+0+1 = 1.5; 5: 0+0+0 = 0;
    # 6: 1+1+0 = 2.
    # Buchholz (table-mates' points): 1: 2 (1) + 6 (2) = 3; 2: 1 + 4 = 2.5; 3: 4 + 5 + 6 = 3.5;
    # 4: 3 + 2 + 5 = 3.5; 5: 6 + 3 + 4 = 6; 6: 5 + 1 + 3 = 3.5.
    rows = standings(e, r)
    got = [(s.key, s.position, s.points, s.buchholz, s.score) for s in rows]
    f = Fraction
    assert got == [
        (3, 1, f(5, 2), f(7, 2), 136),
        (6, 2, f(2), f(7, 2), 175),
        (4, 3, f(3, 2), f(7, 2), 155),
        (1, 4, f(1), f(3), 155),
        (2, 5, f(1), f(5, 2), 121),
        (5, 6, f(0), f(6), 135),
    ]
    # The annulled game's pairing stands: 1 and 2 have met twice.
    assert frozenset((1, 2)) in met(r)
    # Swiss then final table: the final's places, then the rest in Swiss order.
    final = Result(4, 1, (3, 6), (2, 1), (40, 50))
    assert final_places(e, r, final) == [6, 3, 4, 1, 2, 5]


def test_equal_players_share_a_position() -> None:
    e = [Entrant(1, 1000), Entrant(2, 1000)]
    rows = standings(e, [Result(1, 1, (1, 2), (1, 1), (30, 30))])
    assert [s.position for s in rows] == [1, 1]
