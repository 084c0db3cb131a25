"""The tournament's standings and bracket as the renderer's inputs (bot.ui.tournaments.pictures),
on fixed tournaments computed by hand."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from bot import tournaments
from bot.manager.tournaments import TournamentTable, result_of
from bot.storage import TournamentEntrant, TournamentGame, TournamentRow
from bot.ui.tournaments import pictures
from renderer.tournament import bracket_page_count, bracket_pictures, standings_pictures

PEOPLE = {1: "ann", 2: "ben", 3: "cat", 4: "dan", 5: "eve", 6: "fay"}


def entrants(count: int, dropped: int | None = None) -> list[TournamentEntrant]:
    return [
        TournamentEntrant(
            9,
            user,
            PEOPLE[user],
            0.0,
            rating=1600 - 100 * user,
            dropped_round=1 if user == dropped else None,
        )
        for user in range(1, count + 1)
    ]


def row(**fields: Any) -> TournamentRow:
    base = TournamentRow(9, 1, 2, "Cup", 3, "swiss", rounds=2, state="running", round=2)
    return dataclasses.replace(base, **fields)


def game(round_no: int, table: int, players: tuple[int, ...], ranks: tuple[int, ...] | None,
         scores: tuple[int, ...] = (), game_no: int = 1) -> TournamentGame:  # fmt: skip
    return TournamentGame(9, round_no, table, players, game_no, 100 + round_no * 10 + table,
                          ranks, scores, decided_at=1.0 if ranks else None)  # fmt: skip


def swiss_table(found: TournamentRow, games: list[TournamentGame], people: int) -> TournamentTable:
    every = entrants(people, dropped=4)
    seeded = [tournaments.Entrant(e.user_id, e.rating) for e in every]
    results = [result_of(g) for g in games if g.decided]
    swiss = [r for r in results if r.round <= (found.rounds or 0)]
    places: list[int] = []
    if found.state == "finished":
        final = next((r for r in results if r.round > (found.rounds or 0)), None)
        places = tournaments.final_places(seeded, swiss, final)
    return TournamentTable(found, every, games, tournaments.standings(seeded, swiss), None, places)


def test_the_swiss_standings_while_a_round_is_played() -> None:
    # Round 1: ann beat ben, cat beat dan. Round 2 (in play): ann-cat, ben-dan.
    games = [
        game(1, 1, (1, 2), (1, 2), (20, 10)),
        game(1, 2, (3, 4), (1, 2), (15, 12)),
        game(2, 1, (1, 3), None),
        game(2, 2, (2, 4), None),
    ]
    view = pictures.standings_view(swiss_table(row(), games, 4))
    assert (view.round, view.rounds, view.final) == (1, 2, False)
    assert [(r.position, r.name, r.points, r.score) for r in view.rows] == [
        (1, "ann", Fraction(1), 20),
        (2, "cat", Fraction(1), 15),
        (3, "dan", Fraction(0), 12),
        (4, "ben", Fraction(0), 10),
    ]
    assert [r.dropped for r in view.rows] == [False, False, True, False]
    assert view.tables == (("ann", "cat"), ("ben", "dan")) and view.tables_round == 2
    assert all(len(png) < 10 * 1024 * 1024 for png in standings_pictures(view, "en"))


def test_a_finished_swiss_then_final_lists_the_final_places_first() -> None:
    # Two Swiss rounds of four, then cat (third after the Swiss) wins the final of three.
    games = [
        game(1, 1, (1, 2), (1, 2), (20, 10)),
        game(1, 2, (3, 4), (1, 2), (15, 12)),
        game(2, 1, (1, 3), (1, 2), (18, 17)),
        game(2, 2, (2, 4), (1, 2), (9, 8)),
        game(3, 1, (1, 2, 3), (2, 3, 1), (30, 20, 40)),
    ]
    found = row(format="swiss_final", advance=3, state="finished", round=3)
    view = pictures.standings_view(swiss_table(found, games, 4))
    assert view.final and view.round == 2 and view.tables == ()
    assert [(r.position, r.name) for r in view.rows] == [
        (1, "cat"), (2, "ann"), (3, "ben"), (4, "dan"),
    ]  # fmt: skip


def knockout_table(games: list[TournamentGame], best_of: int = 1) -> TournamentTable:
    every = entrants(6)
    seeded = [tournaments.Entrant(e.user_id, e.rating) for e in every]
    results = [result_of(g) for g in games if g.decided]
    bracket = tournaments.knockout(seeded, results, size=2, best_of=best_of)
    state = "finished" if bracket.finished else "running"
    found = row(format="knockout", rounds=None, best_of=best_of, state=state,
                round=len(bracket.rounds))  # fmt: skip
    return TournamentTable(found, every, games, [], bracket, list(bracket.winner_order))


def test_six_in_a_bracket_of_eight_give_the_top_two_seeds_byes_in_the_draws_slots() -> None:
    # Seeds by rating: ann 1 ... fay 6. Slots 1-8 draw 1v8, 4v5, 2v7, 3v6: ann and ben alone.
    view = pictures.bracket_view(knockout_table([]))
    assert view.rounds_total == 3 and view.champion is None
    first = view.rounds[0]
    assert [(m.table, [p.name for p in m.players], m.bye) for m in first] == [
        (1, ["ann"], True),
        (2, ["dan", "eve"], False),
        (3, ["ben"], True),
        (4, ["cat", "fay"], False),
    ]
    assert [m.advancing for m in first] == [(1,), None, (2,), None]
    assert bracket_page_count(view) >= 1


def test_a_best_of_three_bracket_to_its_champion() -> None:
    games = [
        # Quarter-finals: dan beats eve 2-0; fay beats cat 2-1.
        game(1, 2, (4, 5), (1, 2), (10, 5)),
        game(1, 2, (4, 5), (1, 2), (10, 5), game_no=2),
        game(1, 4, (3, 6), (2, 1), (5, 10)),
        game(1, 4, (3, 6), (1, 2), (10, 5), game_no=2),
        game(1, 4, (3, 6), (2, 1), (5, 10), game_no=3),
        # Semi-finals: ann beats dan, fay beats ben.
        game(2, 1, (1, 4), (1, 2), (9, 1)),
        game(2, 1, (1, 4), (1, 2), (9, 1), game_no=2),
        game(2, 2, (2, 6), (2, 1), (1, 9)),
        game(2, 2, (2, 6), (2, 1), (1, 9), game_no=2),
        # Final: fay beats ann.
        game(3, 1, (1, 6), (2, 1), (3, 4)),
        game(3, 1, (1, 6), (2, 1), (3, 4), game_no=2),
    ]
    view = pictures.bracket_view(knockout_table(games, best_of=3))
    assert view.champion is not None and view.champion.name == "fay"
    assert view.best_of == 3 and len(view.rounds) == 3
    cat_fay = next(m for m in view.rounds[0] if m.table == 4)
    assert cat_fay.wins == (1, 2) and cat_fay.advancing == (6,)
    (final,) = view.rounds[2]
    assert [p.name for p in final.players] == ["ann", "fay"] and final.wins == (0, 2)
    assert all(len(png) < 10 * 1024 * 1024 for png in bracket_pictures(view, "fr"))


def test_the_rounds_of_a_knockout_at_tables_of_three_to_five() -> None:
    assert pictures.rounds_total(6, 2, 1) == 3
    assert pictures.rounds_total(8, 2, 1) == 3
    assert pictures.rounds_total(9, 3, 1) == 2  # three tables of 3, then the final table of 3
    assert pictures.rounds_total(12, 4, 2) == 3  # 3 tables send 6; 2 tables of 3 send 4; a final
    assert pictures.rounds_total(5, 5, 1) == 1
