"""Leagues as pure functions: placings, openskill ratings (2-5 players, ties), standings from a
fixture of games, pairings and the values organisers type."""

from __future__ import annotations

import dataclasses

import pytest

from bot import leagues
from bot.leagues import (
    BadDate,
    BadPoints,
    Rating,
    display_rating,
    pair_tables,
    placings_of,
    ranks_of,
    rate,
    standings,
    table_sizes,
)
from bot.storage import LeaguePlacing, LeagueResult, SeatRow

A, B, C, D, E = 1, 2, 3, 4, 5
NAMES = {A: "alice", B: "bob", C: "carol", D: "dave", E: "erin"}


def game(game_id: int, *placed: tuple[int, int, int], annulled: bool = False) -> LeagueResult:
    """A result from (user, score, rank) per seat."""
    return LeagueResult(
        game_id=game_id,
        league_id=1,
        season=1,
        ended_at=float(game_id),
        placings=tuple(
            LeaguePlacing(seat, user, NAMES[user], score, rank, breakdown={"city": score})
            for seat, (user, score, rank) in enumerate(placed)
        ),
        annulled_at=1.0 if annulled else None,
    )


def test_ranks_share_places_on_equal_scores_and_put_leavers_last() -> None:
    assert ranks_of([10, 20, 20, 5], winners=[1, 2]) == [3, 1, 1, 4]
    # Seat 1 scored most but resigned: it cannot win and ranks after everyone who stayed.
    assert ranks_of([10, 30, 20, 5], winners=[2], left=[False, True, False, False]) == [2, 4, 1, 3]
    seats = [SeatRow(0, A, "alice", "blue"), SeatRow(1, B, "bob", "red", status="resigned")]
    placings = placings_of(seats, [12, 40], winners=[0], breakdown=[{"road": 12}, {"city": 40}])
    assert [(p.user_id, p.rank, p.left) for p in placings] == [(A, 1, False), (B, 2, True)]
    assert placings[0].breakdown == {"road": 12}


def test_the_shown_rating_starts_at_1000_and_follows_the_documented_formula() -> None:
    assert Rating().display == 1000 == display_rating(25, 25 / 3)
    assert display_rating(30.2, 5) == round(1000 + 40 * (30.2 - 15)) == 1608
    assert display_rating(-50, 8) == 0  # never negative


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_ratings_move_by_placement_and_tied_players_move_alike(players: int) -> None:
    users = [A, B, C, D, E][:players]
    # The last two tie (for a 2-player game: a draw between both).
    ranks = [*range(1, players), players - 1]
    placed = [(u, 50 - 10 * r, r) for u, r in zip(users, ranks, strict=True)]
    ratings = rate([game(1, *placed)])
    shown = [ratings.of(u).display for u in users]
    mus = [ratings.of(u).mu for u in users]
    assert mus[-1] == pytest.approx(mus[-2]), "tied players from equal ratings move alike"
    assert shown[-1] == shown[-2]
    if players > 2:
        assert mus[0] > 25 > mus[-1], "the winner gains, the shared last place loses"
        assert shown == sorted(shown, reverse=True)
        assert shown[0] > 1000 and shown[-1] < 1000 + 40 * 3
    else:
        assert mus[0] == pytest.approx(25) and mus[1] == pytest.approx(25), "a draw moves no mu"
    assert all(ratings.of(u).sigma < 25 / 3 for u in users), "every game makes the bot surer"
    assert all(ratings.of(u).games == 1 for u in users)
    for user, rank in zip(users, ranks, strict=True):
        (change,) = ratings.history[user]
        assert (change.game_id, change.rank, change.players) == (1, rank, players)
        assert change.before == 1000 and change.after == ratings.of(user).display


def test_a_win_over_a_stronger_player_is_worth_more() -> None:
    history = [game(1, (A, 50, 1), (B, 10, 2)), game(2, (A, 50, 1), (B, 10, 2))]
    before = rate(history)
    upset = rate([*history, game(3, (B, 30, 1), (A, 20, 2))])
    normal = rate([*history, game(3, (A, 30, 1), (B, 20, 2))])
    gained_by_b = upset.of(B).mu - before.of(B).mu
    gained_by_a = normal.of(A).mu - before.of(A).mu
    assert gained_by_b > gained_by_a > 0


def test_annulled_results_count_for_nothing_exactly() -> None:
    games = [
        game(1, (A, 30, 1), (B, 20, 2), (C, 10, 3)),
        game(2, (C, 40, 1), (A, 12, 2)),
        game(3, (B, 25, 1), (C, 25, 1), (D, 10, 3)),
    ]
    marked = [games[0], dataclasses.replace(games[1], annulled_at=5.0), games[2]]
    assert rate(marked) == rate([games[0], games[2]])
    assert [c.game_id for c in rate(marked).history[C]] == [1, 3]


def fixture() -> list[LeagueResult]:
    """Five games of one season; the fourth was annulled."""
    return [
        game(1, (A, 30, 1), (B, 20, 2), (C, 10, 3)),
        game(2, (B, 25, 1), (C, 25, 1), (D, 10, 3)),  # B and C tie for first
        game(3, (D, 40, 1), (A, 12, 2)),
        game(4, (C, 99, 1), (A, 1, 2), annulled=True),
        game(5, (A, 15, 2), (C, 22, 1), (D, 15, 2)),  # A and D tie for second
    ]


def test_standings_from_a_fixture_of_games() -> None:
    table = standings(fixture(), points=(3, 1, 0), tiebreaks=("wins", "total_score"))
    got = [(s.position, s.name, s.points, s.games, s.wins, s.total_score) for s in table]
    assert got == [
        (1, "carol", 6, 3, 2, 57),
        (2, "alice", 5, 3, 1, 57),
        (3, "dave", 4, 3, 1, 65),  # level with bob on points and wins: more total score
        (4, "bob", 4, 2, 1, 45),
    ]
    assert table[0].average_score == pytest.approx(19)


def test_players_level_on_every_tie_breaker_share_a_position() -> None:
    members = {u: NAMES[u] for u in (A, B, C, D, E)}
    table = standings(fixture(), points=(3, 1, 0), tiebreaks=("wins",), members=members)
    assert [(s.position, s.name, s.points) for s in table] == [
        (1, "carol", 6),
        (2, "alice", 5),
        (3, "bob", 4),
        (3, "dave", 4),
        (5, "erin", 0),  # a member without games yet
    ]


def test_points_per_placement_are_configurable() -> None:
    table = standings(fixture(), points=(5, 3, 1), tiebreaks=("average_score",))
    by_name = {s.name: s.points for s in table}
    assert by_name == {"alice": 5 + 3 + 3, "bob": 3 + 5, "carol": 1 + 5 + 5, "dave": 1 + 5 + 3}
    # Average score breaks the tie between carol and alice (11 points each): 19 against 19,
    # then the name orders them, sharing the position.
    assert [(s.position, s.name) for s in table][:2] == [(1, "alice"), (1, "carol")]


def test_profiles_sum_games_wins_scores_and_features() -> None:
    results = fixture()
    ratings = rate(results)
    board = ratings.leaderboard()
    profile = leagues.profile(results, A, ratings, leaderboard=board)
    assert (profile.games, profile.wins, profile.total_score, profile.best_score) == (3, 1, 57, 30)
    assert profile.features == (("city", 57),)
    assert profile.average_score == pytest.approx(19)
    assert profile.position == 1 + [u for u, _ in board].index(A)
    assert [c.game_id for c in profile.history] == [1, 3, 5]


def test_table_sizes_and_pairings() -> None:
    assert table_sizes(7, 3, 4) == [4, 3]
    assert table_sizes(8, 2, 3) == [3, 3, 2]
    assert table_sizes(5, 4, 4) == [4], "one player waits: no split seats everyone"
    assert table_sizes(1, 2, 4) == []
    players = [(A, 2, 30.0), (B, 0, 20.0), (C, 0, 28.0), (D, 1, 10.0), (E, 0, 25.0)]
    tables, waiting = pair_tables(players, 2, 2)
    assert waiting == [A], "whoever played most this season waits"
    assert tables == [[C, E], [B, D]], "similar ratings play together"


def test_typed_values_are_checked_with_clear_refusals() -> None:
    assert leagues.parse_points("3, 1, 0") == (3, 1, 0)
    assert leagues.parse_points("5;3;2;1;0") == (5, 3, 2, 1, 0)
    for bad in ("", "a,b", "101", "1,1,1,1,1,1", "-1"):
        with pytest.raises(BadPoints) as caught:
            leagues.parse_points(bad)
        assert "3,1,0" in str(caught.value)
    with pytest.raises(BadDate) as date:
        leagues.parse_day("30/09/2026")
    assert "YYYY-MM-DD" in str(date.value) and "AAAA-MM-JJ" in date.value.message("fr")
    start, end = leagues.season_dates("2030-01-01", "2030-01-31", now=0.0)
    assert end is not None and end - start == 31 * 86400


def test_computer_seats_have_no_placing_and_people_rank_among_themselves() -> None:
    seats = [
        SeatRow(0, 1, "alice", "blue"),
        SeatRow(1, -1, "Computer 1 (Hard)", "red", computer="hard"),
        SeatRow(2, 2, "bob", "green"),
    ]
    placings = placings_of(seats, [30, 80, 20], winners=[1])
    assert [(p.user_id, p.rank) for p in placings] == [(1, 1), (2, 2)]
