"""Tournaments through the game manager on SQLite, played to the end with short forced draws:
a Swiss of 8 players in 3 rounds, a knockout of 6 with best-of-3 matches, drop-outs, a restart
in the middle of a round, deadlines, annulment after the next round was paired, league ratings,
and the refusals. The storage's own statements run on both engines."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import play_random
from scheduler_fakes import DAY, HOUR, FakeClock, FakeNotifier

from bot import tournaments
from bot.leagues import OnlyAdmins, OnlyOrganisers, ReasonNeeded
from bot.manager import COMPUTER, GameManager
from bot.manager.tournaments import TournamentChange, result_of
from bot.outcomes import TurnView
from bot.scheduler import Scheduler
from bot.storage import (
    FORGOTTEN_BASE,
    TournamentAudit,
    TournamentEntrant,
    TournamentGame,
    TournamentRow,
    former_name,
)
from bot.storage.backends import open_storage
from bot.tournaments import (
    AlreadyDropped,
    AlreadyEntered,
    BadBestOf,
    BadRounds,
    BadTableSize,
    CheckinClosed,
    Entrant,
    NotEntered,
    NoTournamentResult,
    SignupClosed,
    TooFewEntrants,
    TournamentNameTaken,
)

GUILD, CHANNEL, ADMIN = 900, 901, 999
PLAYERS = tuple(range(1001, 1009))
#: Each game: the start tile and three tiles, so a game is a few moves.
DRAW = ["D", "U", "V", "E"]


def shorten(mgr: GameManager) -> None:
    """Every game the manager starts deals the short forced draw."""
    start = mgr.lobbies.start

    async def short_start(game_id: int, user_id: int, *, seed: int | None = None) -> TurnView:
        row = await mgr.game(game_id)
        await mgr.storage.save_game(dataclasses.replace(row, setup_extra={"draw": DRAW}))
        return await start(game_id, user_id, seed=seed)

    mgr.lobbies.start = short_start  # type: ignore[method-assign]


@pytest.fixture
async def mgr(db_path: Path) -> AsyncIterator[GameManager]:
    manager = await GameManager.open(str(db_path), seeds=lambda: 7)
    shorten(manager)
    yield manager
    await manager.close()


@pytest.fixture
async def on_both(manager: GameManager) -> GameManager:
    """The manager of conftest, once per storage engine, with the short draw."""
    manager.seeds = lambda: 7
    shorten(manager)
    return manager


async def open_tournament(
    mgr: GameManager, count: int, name: str = "Open", **rules: object
) -> TournamentRow:
    found = await mgr.tournaments.create_tournament(
        GUILD,
        CHANNEL,
        ADMIN,
        name,
        admin=True,
        **rules,  # type: ignore[arg-type]
    )
    for user in PLAYERS[:count]:
        await mgr.tournaments.sign_up(found.id, user, f"player{user}")
    return found


async def in_play(mgr: GameManager, tid: int) -> list[TournamentGame]:
    """The tables whose game is being played."""
    tables = []
    for table in await mgr.storage.tournament_games(tid):
        if table.game_id is None or table.decided:
            continue
        if (await mgr.game(table.game_id)).status == "active":
            tables.append(table)
    return tables


async def finish(mgr: GameManager, game_id: int, rng: random.Random) -> None:
    """Play a game to its end: people at random, computer seats by their own decisions."""
    view = await mgr.decision(game_id)
    while not view.finished:
        if view.user_id is not None and view.user_id < 0:
            view = (await mgr.play_turn(game_id, COMPUTER, turn=view.turn)).view
        else:
            view = (await play_random(mgr, view, rng)).view


async def play_all(mgr: GameManager, tid: int, seed: int = 1) -> int:
    """Play every game until the tournament has none left in play; returns how many."""
    rng = random.Random(seed)
    played = 0
    while tables := await in_play(mgr, tid):
        for table in tables:
            assert table.game_id is not None
            await finish(mgr, table.game_id, rng)
            played += 1
    return played


def pairs_of(games: list[TournamentGame], round_no: int) -> set[frozenset[int]]:
    return {frozenset(g.players) for g in games if g.round == round_no and len(g.players) == 2}


async def test_a_swiss_of_eight_players_in_three_rounds(mgr: GameManager) -> None:
    changes: list[TournamentChange] = []

    async def listen(change: TournamentChange) -> None:
        changes.append(change)

    mgr.tournaments.on_tournament_change(listen)
    found = await open_tournament(mgr, 8, format="swiss", rounds=3)
    assert (found.state, found.rounds, found.table_size) == ("signup", 3, 2)
    started = await mgr.tournaments.start_tournament(found.id, ADMIN, admin=False)
    assert len(started) == 4 and all(v.game.channel_id == CHANNEL for v in started)
    assert {s.user_id for v in started for s in v.game.seats} == set(PLAYERS)
    assert await play_all(mgr, found.id) == 12
    table = await mgr.tournaments.table(found.id)
    assert table.tournament.state == "finished" and table.tournament.round == 3
    games = table.games
    assert [len([g for g in games if g.round == r]) for r in (1, 2, 3)] == [4, 4, 4]
    rounds = [pairs_of(games, r) for r in (1, 2, 3)]
    assert not rounds[0] & rounds[1] and not rounds[1] & rounds[2] and not rounds[0] & rounds[2]
    # The stored tables are the games' own results: ranks from each game's final scores.
    for g in games:
        assert g.game_id is not None
        row = await mgr.game(g.game_id)
        assert row.status == "finished" and row.result is not None
        scores = [row.result["scores"][row.seat_of(p).seat] for p in g.players]  # type: ignore[union-attr]
        assert list(g.scores) == scores
        winners = {row.seats[s].user_id for s in row.result["winners"]}
        assert [g.ranks[i] == 1 for i in range(2)] == [p in winners for p in g.players]  # type: ignore[index]
    entrants = [Entrant(e.user_id, e.rating) for e in table.entrants]
    assert table.standings == tournaments.standings(entrants, [result_of(g) for g in games])
    assert sum((s.points for s in table.standings), Fraction(0)) == 12
    assert all(s.games == 3 for s in table.standings)
    assert sorted(table.places) == sorted(PLAYERS)
    assert table.places[0] == table.standings[0].key
    kinds = [c.kind for c in changes]
    assert kinds.count("round") == 3 and kinds[-1] == "finished" and kinds.count("result") == 12


async def test_a_knockout_of_six_with_best_of_three(mgr: GameManager) -> None:
    found = await open_tournament(mgr, 6, name="Cup", format="knockout", best_of=3)
    started = await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    # Seeds 1 and 2 have byes: round 1 is 3 v 6 and 4 v 5 (equal ratings: seeded by id).
    assert sorted(tuple(s.user_id for s in v.game.seats) for v in started) != []
    first = [g for g in await mgr.storage.tournament_games(found.id) if g.round == 1]
    assert sorted(g.players for g in first) == [(PLAYERS[2], PLAYERS[5]), (PLAYERS[3], PLAYERS[4])]
    played = await play_all(mgr, found.id, seed=5)
    table = await mgr.tournaments.table(found.id)
    bracket = table.bracket
    assert bracket is not None and bracket.finished
    assert table.tournament.state == "finished"
    assert [len(r) for r in bracket.rounds] == [2, 2, 1]
    for matches in bracket.rounds:
        for match in matches:
            assert match.advancing is not None
            assert max(match.wins) == 2 or len(match.games) - sum(match.wins) >= 3
    assert played == sum(len(m.games) for r in bracket.rounds for m in r)
    champion = bracket.rounds[-1][0].advancing
    assert champion is not None and table.places[0] == champion[0]
    assert sorted(table.places) == sorted(PLAYERS[:6])
    for g in table.games:  # every game of a match is numbered in order
        same = [o.game_no for o in table.games if (o.round, o.table) == (g.round, g.table)]
        assert sorted(same) == list(range(1, len(same) + 1))


async def test_swiss_rounds_at_tables_of_three_then_a_final_table(mgr: GameManager) -> None:
    """Five players at tables of 3: a table of 3 and one of 2 that a computer fills, two Swiss
    rounds, then the top three play the final table, whose places come first."""
    found = await open_tournament(
        mgr, 5, format="swiss_final", table_size=3, rounds=2, computers="easy"
    )
    assert found.advance == 3
    started = await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    assert sorted(len(v.game.seats) for v in started) == [3, 3]
    assert sum(s.computer is not None for v in started for s in v.game.seats) == 1
    await play_all(mgr, found.id)
    table = await mgr.tournaments.table(found.id)
    assert table.tournament.state == "finished" and table.tournament.round == 3
    (final,) = [g for g in table.games if g.round == 3]
    top = [s.key for s in table.standings[:3]]
    assert sorted(final.players) == sorted(top) and final.players == tuple(top)
    result = result_of(final)
    seeds = {p: i for i, p in enumerate(s.key for s in table.standings)}
    assert table.places[:3] == result.order(seeds)
    assert table.places[3:] == [s.key for s in table.standings[3:]]
    swiss = [result_of(g) for g in table.games if g.round <= 2]
    assert all(len(r.players) in (2, 3) for r in swiss), "people only: the computer is not ranked"


async def test_a_knockout_at_tables_of_three(mgr: GameManager) -> None:
    found = await open_tournament(mgr, 6, name="Tri", format="knockout", table_size=3)
    first = await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    assert sorted(len(v.game.seats) for v in first) == [3, 3]
    await play_all(mgr, found.id, seed=2)
    bracket = await mgr.tournaments.bracket(found.id)
    assert bracket is not None and bracket.finished
    assert [len(r) for r in bracket.rounds] == [2, 1]
    final = bracket.rounds[1][0]
    going = {p for m in bracket.rounds[0] for p in m.advancing or ()}
    assert set(final.players) == going and len(going) == 2
    assert bracket.winner_order[:2] == list(final.advancing or ())


async def test_a_drop_out_forfeits_the_game_in_play_and_is_paired_no_more(
    mgr: GameManager,
) -> None:
    found = await open_tournament(mgr, 4, format="swiss", rounds=2)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    quitter = PLAYERS[0]
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.drop_out(found.id, quitter, PLAYERS[1], admin=False)
    gone = await mgr.tournaments.drop_out(found.id, quitter, quitter, admin=False)
    assert gone.dropped_round == 1
    with pytest.raises(AlreadyDropped):
        await mgr.tournaments.drop_out(found.id, quitter, quitter, admin=False)
    games = await mgr.storage.tournament_games(found.id)
    (theirs,) = [g for g in games if quitter in g.players]
    assert theirs.decided and theirs.absent == (quitter,)
    points = result_of(theirs).points()
    assert points[quitter] == 0 and sum(points.values()) == 1
    await play_all(mgr, found.id)
    table = await mgr.tournaments.table(found.id)
    second = [g for g in table.games if g.round == 2]
    assert quitter not in {p for g in second for p in g.players}
    assert sorted(len(g.players) for g in second) == [1, 2], "three left: a table and a bye"
    assert table.tournament.state == "finished"
    row = next(s for s in table.standings if s.key == quitter)
    assert (row.points, row.games) == (Fraction(0), 1), "their past results stay"
    log = await mgr.tournaments.tournament_log(found.id, ADMIN, admin=True)
    assert ("drop", quitter) in [(a.action, a.user_id) for a in log]


async def test_a_player_forgotten_during_a_tournament_is_a_former_player_paired_no_more(
    mgr: GameManager,
) -> None:
    found = await open_tournament(mgr, 4, format="swiss", rounds=2)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    forgotten = await mgr.privacy.forget(PLAYERS[0])
    assert forgotten.number is not None
    former = FORGOTTEN_BASE + forgotten.number
    entrants = {e.user_id: e for e in await mgr.tournaments.entrants(found.id)}
    assert PLAYERS[0] not in entrants and entrants[former].name == former_name(forgotten.number)
    games = await mgr.storage.tournament_games(found.id)
    (theirs,) = [g for g in games if former in g.players]
    assert theirs.decided, "their game was resigned: decided as they left"
    assert all(PLAYERS[0] not in g.players for g in games)
    await play_all(mgr, found.id)
    table = await mgr.tournaments.table(found.id)
    second = [g for g in table.games if g.round == 2]
    assert former not in {p for g in second for p in g.players}
    assert table.tournament.state == "finished"
    # Round 1: two tables; round 2: a table and a bye, a point each.
    assert sum((s.points for s in table.standings), Fraction(0)) == 2 + 2
    assert sorted(len(g.players) for g in second) == [1, 2]


async def test_a_knockout_match_of_a_player_gone_is_forfeited(on_both: GameManager) -> None:
    mgr = on_both
    found = await open_tournament(mgr, 4, name="Cup", format="knockout", best_of=3)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    await mgr.tournaments.drop_out(found.id, PLAYERS[3], ADMIN, admin=True, why="ill")
    matches = [g for g in await mgr.storage.tournament_games(found.id) if g.round == 1]
    theirs = [g for g in matches if PLAYERS[3] in g.players]
    assert len(theirs) == 2 and all(g.decided for g in theirs), "the game resigned, then one more"
    assert theirs[1].game_id is None and theirs[1].absent == (PLAYERS[3],)
    await play_all(mgr, found.id)
    bracket = await mgr.tournaments.bracket(found.id)
    assert bracket is not None and bracket.finished
    assert PLAYERS[3] not in bracket.rounds[1][0].players


async def test_a_new_manager_resumes_a_round_half_played(db_path: Path) -> None:
    first = await GameManager.open(str(db_path), seeds=lambda: 7)
    shorten(first)
    found = await open_tournament(first, 4, format="swiss", rounds=2)
    await first.tournaments.start_tournament(found.id, ADMIN, admin=True)
    one, two = await in_play(first, found.id)
    assert one.game_id is not None and two.game_id is not None
    await finish(first, one.game_id, random.Random(1))
    await first.close()
    second = await GameManager.open(str(db_path), seeds=lambda: 8)
    shorten(second)
    try:
        assert (await second.tournaments.tournament(found.id)).round == 1
        await finish(second, two.game_id, random.Random(2))
        now = await second.tournaments.tournament(found.id)
        assert now.round == 2
        tables = [g for g in await second.storage.tournament_games(found.id) if g.round == 2]
        assert len(tables) == 2 and all(g.game_id is not None for g in tables)
        await play_all(second, found.id)
        assert (await second.tournaments.tournament(found.id)).state == "finished"
    finally:
        await second.close()


async def test_annulling_after_the_next_round_was_paired(mgr: GameManager) -> None:
    found = await open_tournament(mgr, 4, format="swiss", rounds=2)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    rng = random.Random(3)
    for table in await in_play(mgr, found.id):
        assert table.game_id is not None
        await finish(mgr, table.game_id, rng)
    before = await mgr.tournaments.table(found.id)
    assert before.tournament.round == 2
    paired = [g.players for g in before.games if g.round == 2]
    target = next(g for g in before.games if g.round == 1)
    assert target.game_id is not None
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.annul_game(target.game_id, PLAYERS[0], "wrong rule", admin=False)
    with pytest.raises(ReasonNeeded):
        await mgr.tournaments.annul_game(target.game_id, ADMIN, "  ", admin=False)
    annulled = await mgr.tournaments.annul_game(target.game_id, ADMIN, "wrong rule", admin=False)
    assert annulled.annulled_at is not None
    with pytest.raises(NoTournamentResult):
        await mgr.tournaments.annul_game(target.game_id, ADMIN, "again", admin=True)
    after = await mgr.tournaments.table(found.id)
    assert [g.players for g in after.games if g.round == 2] == paired, "the pairing stands"
    points = {s.key: s.points for s in after.standings}
    assert all(points[p] == 0 for p in target.players)
    assert sum(points.values()) == 1
    assert sum(s.points for s in before.standings) == 2
    log = await mgr.tournaments.tournament_log(found.id, ADMIN, admin=False)
    assert (log[0].action, log[0].game_id, log[0].reason) == ("annul", target.game_id, "wrong rule")
    await play_all(mgr, found.id)
    assert (await mgr.tournaments.tournament(found.id)).state == "finished"


async def test_check_in_leaves_out_who_did_not_confirm(on_both: GameManager) -> None:
    mgr = on_both
    found = await open_tournament(mgr, 5, format="swiss", rounds=1)
    with pytest.raises(CheckinClosed):
        await mgr.tournaments.check_in(found.id, PLAYERS[0])
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.open_checkin(found.id, PLAYERS[0], admin=False)
    await mgr.tournaments.withdraw(found.id, PLAYERS[4])
    with pytest.raises(NotEntered):
        await mgr.tournaments.withdraw(found.id, PLAYERS[4])
    await mgr.tournaments.open_checkin(found.id, ADMIN, admin=True)
    for user in PLAYERS[:2]:
        await mgr.tournaments.check_in(found.id, user)
    late = await mgr.tournaments.sign_up(found.id, PLAYERS[5], "late")
    assert late.checked_in
    started = await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    seated = {s.user_id for v in started for s in v.game.seats}
    games = await mgr.storage.tournament_games(found.id)
    assert {p for g in games for p in g.players} == {PLAYERS[0], PLAYERS[1], PLAYERS[5]}
    assert len(seated) == 2, "three players: one table and a bye"
    out = {e.user_id: e.dropped_round for e in await mgr.tournaments.entrants(found.id)}
    assert out[PLAYERS[2]] == 0 and out[PLAYERS[0]] is None
    with pytest.raises(SignupClosed):
        await mgr.tournaments.sign_up(found.id, PLAYERS[6], "later")
    table = await mgr.tournaments.table(found.id)
    assert {s.key for s in table.standings} == {PLAYERS[0], PLAYERS[1], PLAYERS[5]}


async def test_the_round_deadline_decides_the_games_still_in_play(mgr: GameManager) -> None:
    """Play-by-post: at the round's deadline the scheduler stops the game still in play and
    decides it on its scores, the player whose turn it was absent (the forfeit policy)."""
    clock = FakeClock()
    mgr.clock = clock
    start = clock.now
    found = await open_tournament(
        mgr, 4, format="swiss", rounds=2, pace="post", turn_hours=24, round_hours=24,
        timeout_policy="forfeit",
    )  # fmt: skip
    assert (found.turn_seconds, found.round_seconds) == (DAY, DAY)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    assert (await mgr.tournaments.tournament(found.id)).round_deadline == start + DAY
    done, late = await in_play(mgr, found.id)
    assert done.game_id is not None and late.game_id is not None
    clock.now += HOUR
    await finish(mgr, done.game_id, random.Random(1))
    rng = random.Random(2)
    view = await mgr.decision(late.game_id)
    first_turn = view.turn
    while view.turn == first_turn:  # one turn played: the late game's turn clock restarts
        view = (await play_random(mgr, view, rng)).view
    assert not view.finished
    waiting = view.user_id
    assert waiting is not None
    scheduler = Scheduler(mgr, FakeNotifier(clock), clock=clock, retention_every=None)
    assert (await scheduler.tick()).round_deadlines == [], "not due yet"
    clock.now = start + DAY
    changes: list[TournamentChange] = []

    async def listen(change: TournamentChange) -> None:
        changes.append(change)

    mgr.tournaments.on_tournament_change(listen)
    report = await scheduler.tick()
    assert report.round_deadlines == [late.game_id] and not report.forced
    await mgr.tournaments.listened()
    told = [(c.kind, c.round, c.game_id, c.user_id) for c in changes if c.kind == "deadline"]
    assert told == [("deadline", 1, late.game_id, waiting)], "the late player counted absent"
    (decided,) = [
        g for g in await mgr.storage.tournament_games(found.id) if g.game_id == late.game_id
    ]
    assert decided.decided and decided.absent == (waiting,)
    assert result_of(decided).points()[waiting] == 0
    assert (await mgr.game(late.game_id)).status == "abandoned"
    current = await mgr.tournaments.tournament(found.id)
    assert current.round == 2 and current.round_deadline == clock.now + DAY
    assert len(await in_play(mgr, found.id)) == 2


async def test_a_league_tournament_counts_for_the_league_ratings(mgr: GameManager) -> None:
    league = await mgr.leagues.create_league(GUILD, CHANNEL, ADMIN, "Spring", admin=True)
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.create_tournament(
            GUILD, CHANNEL, PLAYERS[0], "Cup", admin=False, league_id=league.id
        )
    found = await mgr.tournaments.create_tournament(
        GUILD, CHANNEL, ADMIN, "Cup", admin=False, league_id=league.id, format="knockout"
    )
    assert (found.league_id, found.kind) == (league.id, league.kind)
    for user in PLAYERS[:2]:
        await mgr.tournaments.sign_up(found.id, user, f"player{user}")
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    played = await play_all(mgr, found.id)
    ratings, results = await mgr.leagues.league_ratings(league.id)
    assert len(results) == played >= 1
    assert {p.user_id for r in results for p in r.placings} == set(PLAYERS[:2])
    assert all(ratings.of(u).games == played for u in PLAYERS[:2])


async def test_refusals(mgr: GameManager) -> None:
    with pytest.raises(OnlyAdmins) as refused:
        await mgr.tournaments.create_tournament(GUILD, CHANNEL, PLAYERS[0], "Open", admin=False)
    assert "gérer le serveur" in refused.value.message("fr")
    with pytest.raises(BadTableSize):
        await mgr.tournaments.create_tournament(
            GUILD, CHANNEL, ADMIN, "Big", admin=True, table_size=6
        )
    with pytest.raises(BadBestOf) as best:
        await mgr.tournaments.create_tournament(
            GUILD, CHANNEL, ADMIN, "Odd", admin=True, format="knockout", table_size=3, best_of=3
        )
    assert "meilleur de 1, 3 ou 5" in best.value.message("fr")
    with pytest.raises(BadRounds):
        await mgr.tournaments.create_tournament(GUILD, CHANNEL, ADMIN, "Long", admin=True, rounds=0)
    found = await open_tournament(mgr, 1, format="swiss")
    with pytest.raises(TournamentNameTaken):
        await mgr.tournaments.create_tournament(GUILD, CHANNEL, ADMIN, " open ", admin=True)
    with pytest.raises(AlreadyEntered) as again:
        await mgr.tournaments.sign_up(found.id, PLAYERS[0], "again")
    assert "Open" in again.value.message("de")
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.start_tournament(found.id, PLAYERS[0], admin=False)
    with pytest.raises(TooFewEntrants):
        await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.tournament_log(found.id, PLAYERS[0], admin=False)
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.cancel(found.id, PLAYERS[0], "no", admin=False)
    cancelled = await mgr.tournaments.cancel(found.id, ADMIN, "nobody came", admin=True)
    assert cancelled.state == "cancelled"
    assert await mgr.tournaments.find_tournament(GUILD, "open") == cancelled
    reopened = await mgr.tournaments.create_tournament(GUILD, CHANNEL, ADMIN, "Open", admin=True)
    assert await mgr.tournaments.find_tournament(GUILD, channel_id=CHANNEL) == reopened


async def test_the_storage_pairs_a_round_once_and_decides_a_table_once(database: str) -> None:
    storage = await open_storage(database)
    try:
        row = TournamentRow(0, GUILD, CHANNEL, "Open", ADMIN, "swiss", rounds=2, created_at=5.0)
        tid = await storage.create_tournament(row, TournamentAudit(0, ADMIN, "create", 5.0))
        stored = await storage.get_tournament(tid)
        assert stored == dataclasses.replace(row, id=tid)
        for user in (1, 2):
            await storage.save_entrant(TournamentEntrant(tid, user, f"p{user}", 6.0))
        table = TournamentGame(tid, 1, 1, (1, 2))
        bye = TournamentGame(tid, 1, 2, (3,), ranks=(1,), decided_at=7.0)
        assert await storage.start_round(tid, 0, 99.0, [table, bye])
        assert not await storage.start_round(tid, 0, 99.0, [table]), "paired once"
        assert (await storage.get_tournament(tid)).round == 1  # type: ignore[union-attr]
        decided = dataclasses.replace(table, ranks=(2, 1), scores=(3, 9), decided_at=8.0)
        assert await storage.decide_tournament_game(decided)
        assert not await storage.decide_tournament_game(decided)
        assert await storage.tournament_games(tid) == [decided, bye]
        audit = TournamentAudit(tid, ADMIN, "annul", 9.0, reason="why", round=1)
        assert await storage.annul_tournament_game(decided, 9.0, audit)
        assert not await storage.annul_tournament_game(decided, 9.0, audit)
        assert [a.action for a in await storage.tournament_audit(tid)] == ["annul", "create"]
        assert await storage.running_tournaments(due_by=100.0) != []
        assert await storage.running_tournaments(due_by=50.0) == []
    finally:
        await storage.close()


async def test_replaying_a_swiss_table_of_the_round_in_play(mgr: GameManager) -> None:
    """A finished game of the round in play and a game still in play are replayed: their
    results count for nothing, their tables play new games with the same players; a game of an
    earlier round, a game replayed already, a non-organiser, another server and a finished
    tournament are refused."""
    changes: list[TournamentChange] = []

    async def listen(change: TournamentChange) -> None:
        changes.append(change)

    mgr.tournaments.on_tournament_change(listen)
    found = await open_tournament(mgr, 4, format="swiss", rounds=2)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    done, running = await in_play(mgr, found.id)
    assert done.game_id is not None and running.game_id is not None
    await finish(mgr, done.game_id, random.Random(3))
    with pytest.raises(OnlyOrganisers):
        await mgr.tournaments.replay_game(done.game_id, PLAYERS[0], "misplayed", admin=False)
    with pytest.raises(tournaments.NotTournamentGame):
        await mgr.tournaments.replay_game(
            done.game_id, ADMIN, "misplayed", admin=True, guild_id=GUILD + 1
        )
    with pytest.raises(ReasonNeeded):
        await mgr.tournaments.replay_game(done.game_id, ADMIN, " ", admin=False)
    again = await mgr.tournaments.replay_game(done.game_id, ADMIN, "misplayed", admin=False)
    assert {s.user_id for s in again.game.seats} == set(done.players)
    assert again.game.status == "active" and again.game_id != done.game_id
    with pytest.raises(tournaments.NotReplayable):
        await mgr.tournaments.replay_game(done.game_id, ADMIN, "twice", admin=True)
    # The game still in play is stopped, and its table plays again too.
    other = await mgr.tournaments.replay_game(running.game_id, ADMIN, "wrong tiles", admin=True)
    assert (await mgr.game(running.game_id)).status == "abandoned"
    assert {s.user_id for s in other.game.seats} == set(running.players)
    games = await mgr.storage.tournament_games(found.id)
    by_table = {(g.table, g.game_no): g for g in games if g.round == 1}
    assert set(by_table) == {(1, 1), (1, 2), (2, 1), (2, 2)}
    old = [g for g in by_table.values() if g.game_no == 1]
    assert all(g.decided and g.annulled_at is not None for g in old)
    assert {by_table[(done.table, 2)].game_id, by_table[(running.table, 2)].game_id} == {
        again.game_id,
        other.game_id,
    }
    table = await mgr.tournaments.table(found.id)
    assert table.tournament.round == 1, "the round waits for the replays"
    assert all(s.points == 0 for s in table.standings)
    log = await mgr.tournaments.tournament_log(found.id, ADMIN, admin=True)
    assert [(a.action, a.game_id, a.reason, a.round) for a in log[:2]] == [
        ("replay", running.game_id, "wrong tiles", 1),
        ("replay", done.game_id, "misplayed", 1),
    ]
    await mgr.tournaments.listened()
    replayed = [c for c in changes if c.kind == "replayed"]
    assert [(c.game_id, c.games) for c in replayed] == [
        (done.game_id, (again.game_id,)),
        (running.game_id, (other.game_id,)),
    ]
    # The replays decide round 1: round 2 is paired from their results.
    rng = random.Random(4)
    for game_id in (again.game_id, other.game_id):
        await finish(mgr, game_id, rng)
    table = await mgr.tournaments.table(found.id)
    assert table.tournament.round == 2
    assert sum(s.points for s in table.standings) == 2
    with pytest.raises(tournaments.PastRound) as past:
        await mgr.tournaments.replay_game(again.game_id, ADMIN, "too late", admin=True)
    assert "round 1" in past.value.message("en") and "round 2" in past.value.message("en")
    await play_all(mgr, found.id)
    assert (await mgr.tournaments.tournament(found.id)).state == "finished"
    last = next(g for g in await mgr.storage.tournament_games(found.id) if g.round == 2)
    assert last.game_id is not None
    with pytest.raises(tournaments.NotRunning):
        await mgr.tournaments.replay_game(last.game_id, ADMIN, "after the end", admin=True)


async def test_replaying_a_knockout_match(mgr: GameManager) -> None:
    """A knockout match's game replayed, finished or in play: the match's next game is the
    replay (no other game is added), and the bracket counts the replays only."""
    found = await open_tournament(mgr, 4, name="Cup", format="knockout")
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    done, running = await in_play(mgr, found.id)
    assert done.game_id is not None and running.game_id is not None
    await finish(mgr, done.game_id, random.Random(2))
    again = await mgr.tournaments.replay_game(done.game_id, ADMIN, "misdeal", admin=True)
    other = await mgr.tournaments.replay_game(running.game_id, ADMIN, "misdeal", admin=True)
    games = [g for g in await mgr.storage.tournament_games(found.id) if g.round == 1]
    assert sorted((g.table, g.game_no) for g in games) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert {g.game_id for g in games if g.game_no == 2} == {again.game_id, other.game_id}
    assert len(await in_play(mgr, found.id)) == 2
    bracket = await mgr.tournaments.bracket(found.id)
    assert bracket is not None and all(m.advancing is None for m in bracket.rounds[0])
    rng = random.Random(6)
    for game_id in (again.game_id, other.game_id):
        await finish(mgr, game_id, rng)
    table = await mgr.tournaments.table(found.id)
    assert table.tournament.round == 2
    assert table.bracket is not None
    for match in table.bracket.rounds[0]:
        assert len(match.games) == 1 and match.advancing is not None
    with pytest.raises(tournaments.PastRound):
        await mgr.tournaments.replay_game(again.game_id, ADMIN, "too late", admin=True)
    await play_all(mgr, found.id)
    assert (await mgr.tournaments.tournament(found.id)).state == "finished"


async def test_keep_days_leaves_a_running_tournament_its_standings(mgr: GameManager) -> None:
    """Finished games of a running tournament past the server's keep_days lose their record:
    the standings, stored with the tables, are those of before, and the round goes on."""
    clock = FakeClock()
    mgr.clock = clock
    found = await open_tournament(mgr, 4, format="swiss", rounds=3)
    await mgr.tournaments.start_tournament(found.id, ADMIN, admin=True)
    rng = random.Random(5)
    first = await in_play(mgr, found.id)
    unrecorded, *others = first
    for table in others:
        assert table.game_id is not None
        await finish(mgr, table.game_id, rng)
    # As if the bot had stopped before recording a game's end: its table is undecided.
    decide = mgr.tournaments._decide

    async def not_recorded(*args: object) -> bool:
        return False

    mgr.tournaments._decide = not_recorded  # type: ignore[method-assign,assignment]
    assert unrecorded.game_id is not None
    await finish(mgr, unrecorded.game_id, rng)
    assert (await mgr.game(unrecorded.game_id)).status == "finished"
    await mgr.records.update_guild_settings(GUILD, keep_days=1)
    clock.now += 2 * DAY
    deleted = await mgr.privacy.delete_expired()
    assert {t.game_id for t in others} == set(deleted), "kept until its table is decided"
    mgr.tournaments._decide = decide  # type: ignore[method-assign]
    await mgr.tournaments.tick()
    before = await mgr.tournaments.table(found.id)
    assert before.tournament.round == 2
    assert await mgr.privacy.delete_expired() == [unrecorded.game_id]
    after = await mgr.tournaments.table(found.id)
    assert after.standings == before.standings
    assert after.games == before.games
    assert after.tournament.round == 2
    await play_all(mgr, found.id)
    assert (await mgr.tournaments.tournament(found.id)).state == "finished"
