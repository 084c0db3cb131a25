"""Leagues through the game manager on SQLite: permissions, members, league games played to the
end, results, annulment with a logged reason, seasons closing, challenges, recovery."""

from __future__ import annotations

import asyncio
import random

import pytest
from conftest import ALICE, BOB, CAROL, play_random

from bot.errors import BadLevel, BadSetup, NoComputers
from bot.leagues import (
    AlreadyMember,
    BadFormat,
    BadTable,
    Busy,
    LeagueClosed,
    LeagueNameTaken,
    NobodyFree,
    NoResult,
    NotInvited,
    NotMember,
    OnlyAdmins,
    OnlyOrganisers,
    ReasonNeeded,
    SeasonNotStarted,
    rate,
)
from bot.manager import COMPUTER, GameManager
from bot.manager.leagues import LeagueChange
from bot.storage import LeagueRow

GUILD, CHANNEL, ADMIN = 900, 901, 999
DAVE = 404
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}


async def league_with(
    mgr: GameManager, *users: int, name: str = "Spring", **rules: object
) -> LeagueRow:
    league = await mgr.leagues.create_league(GUILD, CHANNEL, ADMIN, name, admin=True, **rules)  # type: ignore[arg-type]
    for user in users:
        await mgr.leagues.join_league(league.id, user, NAMES[user])
    return league


async def play_to_end(mgr: GameManager, game_id: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    view = await mgr.decision(game_id)
    while not view.finished:
        view = (await play_random(mgr, view, rng)).view


async def test_only_admins_create_leagues_and_rules_are_checked(manager: GameManager) -> None:
    with pytest.raises(OnlyAdmins) as refused:
        await manager.leagues.create_league(GUILD, CHANNEL, ALICE, "Spring", admin=False)
    assert "manage the server" in str(refused.value)
    assert "gérer le serveur" in refused.value.message("fr")
    league = await league_with(manager, name="Spring")
    assert (league.organiser_id, league.season.season, league.points) == (ADMIN, 1, (3, 1, 0))
    with pytest.raises(LeagueNameTaken):
        await manager.leagues.create_league(GUILD, CHANNEL, ADMIN, "  spring ", admin=True)
    with pytest.raises(BadFormat):
        await manager.leagues.create_league(GUILD, CHANNEL, ADMIN, "Big", admin=True, max_players=6)
    with pytest.raises(BadSetup, match="2 players"):
        await manager.leagues.create_league(
            GUILD, CHANNEL, ADMIN, "Castle", admin=True, game="castle", max_players=3
        )
    post = await manager.leagues.create_league(
        GUILD, CHANNEL, ADMIN, "Slow", admin=True, pace="post", turn_hours=48, points="5,2,1"
    )
    assert (post.pace, post.turn_seconds, post.points) == ("post", 48 * 3600, (5, 2, 1))
    log = await manager.leagues.league_log(league.id, ADMIN, admin=False)
    assert [(a.action, a.user_id) for a in log] == [("create", ADMIN)]


async def test_members_join_and_leave(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB)
    with pytest.raises(AlreadyMember):
        await manager.leagues.join_league(league.id, ALICE, "alice")
    await manager.leagues.leave_league(league.id, BOB)
    assert [m.user_id for m in await manager.leagues.league_members(league.id)] == [ALICE]
    await manager.leagues.join_league(league.id, BOB, "bob")  # joining again is fine
    assert {m.user_id for m in await manager.leagues.league_members(league.id)} == {ALICE, BOB}


async def test_a_scheduled_game_counts_when_it_ends(manager: GameManager) -> None:
    changes: list[LeagueChange] = []

    async def listen(change: LeagueChange) -> None:
        changes.append(change)

    manager.leagues.on_league_change(listen)
    manager.seeds = lambda: 4  # a deal whose three scores differ (a tie would rate equally)
    league = await league_with(manager, ALICE, BOB, CAROL, max_players=3)
    with pytest.raises(OnlyOrganisers):
        await manager.leagues.schedule(
            league.id, ALICE, admin=False, players=[(ALICE, "a"), (BOB, "b")]
        )
    with pytest.raises(NotMember):
        await manager.leagues.schedule(
            league.id, ADMIN, admin=False, players=[(ALICE, "a"), (DAVE, "d")]
        )
    (view,) = await manager.leagues.schedule(
        league.id, ADMIN, admin=False, players=[(ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")]
    )
    row = view.game
    assert row.status == "active" and row.channel_id == CHANNEL and len(row.seats) == 3
    with pytest.raises(Busy):
        await manager.leagues.schedule(
            league.id, ADMIN, admin=True, players=[(ALICE, "a"), (BOB, "b")]
        )
    await play_to_end(manager, row.id)
    await asyncio.sleep(0)
    assert ("result", row.id) in [(c.kind, c.game_id) for c in changes]
    table = await manager.leagues.season_table(league.id)
    assert table.games == 1 and table.in_play == 0
    final = (await manager.game(row.id)).result
    assert final is not None
    scores = final["scores"]
    best = max(range(3), key=lambda p: scores[p])
    winner = row.seats[best].user_id
    assert table.rows[0].points == 3 and winner in {r.user_id for r in table.rows if r.wins}
    board = await manager.leagues.leaderboard(league.id)
    assert len(board) == 3 and board[0][1].display > 1000 > board[-1][1].display
    profile = await manager.leagues.league_profile(league.id, winner)
    assert profile.games == 1 and profile.wins == 1 and profile.features
    assert profile.average_score == max(scores)


async def test_an_admin_annuls_a_result_with_a_logged_reason(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB)
    games = []
    for seed in (1, 2):
        (view,) = await manager.leagues.schedule(
            league.id, ADMIN, admin=True, players=[(ALICE, "alice"), (BOB, "bob")]
        )
        await play_to_end(manager, view.game_id, seed)
        games.append(view.game_id)
    _, results = await manager.leagues.league_ratings(league.id)
    assert len(results) == 2
    with pytest.raises(OnlyAdmins):
        await manager.leagues.annul_result(games[0], ADMIN, "cheating", admin=False)
    with pytest.raises(ReasonNeeded):
        await manager.leagues.annul_result(games[0], ADMIN, "   ", admin=True)
    _, annulled = await manager.leagues.annul_result(
        games[0], ADMIN, "played with a wrong rule", admin=True
    )
    assert annulled.annul_reason == "played with a wrong rule"
    with pytest.raises(NoResult):
        await manager.leagues.annul_result(games[0], ADMIN, "again", admin=True)
    after, _ = await manager.leagues.league_ratings(league.id)
    assert after == rate([r for r in results if r.game_id != games[0]])
    assert (await manager.leagues.season_table(league.id)).games == 1
    log = await manager.leagues.league_log(league.id, ALICE, admin=True)
    assert (log[0].action, log[0].game_id, log[0].reason, log[0].user_id) == (
        "annul",
        games[0],
        "played with a wrong rule",
        ADMIN,
    )
    with pytest.raises(OnlyOrganisers):
        await manager.leagues.league_log(league.id, ALICE, admin=False)


async def test_closing_a_season_freezes_it_and_can_open_the_next(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB, CAROL)
    (done,) = await manager.leagues.schedule(
        league.id, ADMIN, admin=True, players=[(ALICE, "alice"), (BOB, "bob")]
    )
    await play_to_end(manager, done.game_id)
    (late,) = await manager.leagues.schedule(
        league.id, ADMIN, admin=True, players=[(CAROL, "c"), (ALICE, "a")]
    )
    with pytest.raises(OnlyOrganisers):
        await manager.leagues.close_season(league.id, BOB, "end", admin=False)
    final, now = await manager.leagues.close_season(
        league.id, ADMIN, "spring is over", admin=False, next_ends="2099-06-30"
    )
    assert final.season.closed_at is not None and final.games == 1
    assert {r.user_id for r in final.rows} == {ALICE, BOB}, "a final table lists who played"
    assert now.season.season == 2 and not now.closed
    await play_to_end(manager, late.game_id)  # ended after its season closed: does not count
    assert (await manager.leagues.season_table(league.id, 1)).games == 1
    assert (await manager.leagues.season_table(league.id)).games == 0
    closed, _ = await manager.leagues.close_season(league.id, ADMIN, "the end", admin=True)
    assert closed.season.season == 2
    with pytest.raises(LeagueClosed):
        await manager.leagues.join_league(league.id, DAVE, "dave")
    with pytest.raises(LeagueClosed):
        await manager.leagues.schedule(league.id, ADMIN, admin=True)
    actions = [
        (a.action, a.season) for a in await manager.leagues.league_log(league.id, ADMIN, admin=True)
    ]
    assert actions == [("close", 2), ("close", 1), ("create", 1)]


async def test_a_season_that_has_not_started_refuses_games(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB, starts="2099-01-01", ends="2099-02-01")
    with pytest.raises(SeasonNotStarted) as refused:
        await manager.leagues.schedule(league.id, ADMIN, admin=True)
    assert "2099-01-01" in str(refused.value)


async def test_a_round_seats_every_free_member(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB, CAROL, DAVE, min_players=2, max_players=3)
    await manager.leagues.join_league(league.id, 505, "erin")
    views = await manager.leagues.schedule(league.id, ADMIN, admin=False)
    sizes = sorted(len(v.game.seats) for v in views)
    assert sizes == [2, 3]
    seated = {s.user_id for v in views for s in v.game.seats}
    assert seated == {ALICE, BOB, CAROL, DAVE, 505}
    with pytest.raises(NobodyFree):
        await manager.leagues.schedule(league.id, ADMIN, admin=False)


async def test_a_challenge_starts_when_everyone_accepts(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB, CAROL)
    row = await manager.leagues.challenge(
        league.id, ALICE, "alice", [(BOB, "bob"), (CAROL, "carol")]
    )
    assert row.status == "lobby"
    with pytest.raises(NotInvited):
        await manager.leagues.answer_challenge(row.id, DAVE, "dave", accept=True)
    first = await manager.leagues.answer_challenge(row.id, BOB, "bob", accept=True)
    assert first.view is None and first.waiting == (CAROL,)
    second = await manager.leagues.answer_challenge(row.id, CAROL, "carol", accept=True)
    assert second.view is not None and second.game.status == "active"
    assert {s.user_id for s in second.game.seats} == {ALICE, BOB, CAROL}
    with pytest.raises(Busy):
        await manager.leagues.challenge(league.id, BOB, "bob", [(ALICE, "alice")])


async def test_a_declined_challenge_is_abandoned(manager: GameManager) -> None:
    league = await league_with(manager, ALICE, BOB)
    row = await manager.leagues.challenge(league.id, ALICE, "alice", [(BOB, "bob")])
    answer = await manager.leagues.answer_challenge(row.id, BOB, "bob", accept=False)
    assert answer.declined and answer.game.status == "abandoned"
    again = await manager.leagues.challenge(league.id, BOB, "bob", [(ALICE, "alice")])
    withdrawn = await manager.leagues.answer_challenge(again.id, BOB, "bob", accept=False)
    assert withdrawn.declined


async def test_a_result_missed_by_a_crash_is_recorded_later(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = await league_with(manager, ALICE, BOB)
    (view,) = await manager.leagues.schedule(
        league.id, ADMIN, admin=True, players=[(ALICE, "alice"), (BOB, "bob")]
    )

    async def broken(result: object) -> int | None:
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(manager.storage, "record_league_result", broken)
        await play_to_end(manager, view.game_id)
    assert (await manager.game(view.game_id)).status == "finished"
    assert await manager.storage.league_results(league.id) == []
    assert (await manager.leagues.season_table(league.id)).games == 1


async def play_with_computers(mgr: GameManager, game_id: int, seed: int = 3) -> None:
    """Play a game to its end: people at random, computer seats by their own decisions."""
    rng = random.Random(seed)
    view = await mgr.decision(game_id)
    while not view.finished:
        if view.user_id is not None and view.user_id < 0:
            view = (await mgr.play_turn(game_id, COMPUTER, turn=view.turn)).view
        else:
            view = (await play_random(mgr, view, rng)).view


async def test_computers_only_in_leagues_that_have_them(manager: GameManager) -> None:
    plain = await league_with(manager, ALICE, BOB, CAROL)
    with pytest.raises(NoComputers) as refused:
        await manager.leagues.challenge(plain.id, ALICE, "alice", [(BOB, "bob")], computers=1)
    assert "cannot take part" in str(refused.value)
    row = await manager.leagues.challenge(plain.id, ALICE, "alice", [(BOB, "bob")])
    with pytest.raises(NoComputers):
        await manager.lobbies.add_computer(row.id, ALICE, "easy", "Computer 1")
    with pytest.raises(BadLevel):
        await league_with(manager, name="Odd", computers="master")
    expert = await league_with(manager, name="Experts", computers="expert")
    assert (await manager.leagues.league(expert.id)).computers == "expert"
    league = await league_with(manager, CAROL, DAVE, name="Bots", computers="easy")
    assert league.computers == "easy"
    assert (await manager.leagues.league(league.id)).computers == "easy"
    with pytest.raises(BadTable):  # 2 people + 3 computers: more than the 4 seats
        await manager.leagues.challenge(league.id, CAROL, "carol", [(DAVE, "dave")], computers=3)


async def test_a_league_round_fills_short_tables_with_computers_and_rates_people_only(
    manager: GameManager,
) -> None:
    league = await league_with(
        manager, ALICE, BOB, name="Bots", computers="easy", min_players=3, max_players=3
    )
    views = await manager.leagues.schedule(league.id, ADMIN, admin=True)
    assert len(views) == 1
    row = await manager.game(views[0].game_id)
    seats = [(s.user_id > 0, s.computer) for s in row.seats]
    assert sorted(seats, key=str) == sorted([(True, None), (True, None), (False, "easy")], key=str)
    assert next(s.name for s in row.seats if s.computer) == "Bot 1 (easy)"
    await play_with_computers(manager, row.id)
    ratings, results = await manager.leagues.league_ratings(league.id)
    assert len(results) == 1
    placings = results[0].placings
    assert sorted(p.user_id for p in placings) == [ALICE, BOB]
    assert sorted(p.rank for p in placings) in ([1, 2], [1, 1])
    assert set(ratings.current) == {ALICE, BOB}


async def test_a_challenge_with_a_computer_starts_when_the_people_accept(
    manager: GameManager,
) -> None:
    league = await league_with(manager, ALICE, BOB, name="Bots", computers="medium")
    row = await manager.leagues.challenge(
        league.id, ALICE, "alice", [(BOB, "bob")], computers=1, namer=lambda n, lv: f"R{n}-{lv}"
    )
    assert [s.name for s in row.seats] == ["alice", "R1-medium"]
    assert row.status == "lobby"
    with pytest.raises(BadLevel):  # the league's level only
        await manager.lobbies.add_computer(row.id, ALICE, "hard", "Computer 2")
    answer = await manager.leagues.answer_challenge(row.id, BOB, "bob", accept=True)
    assert answer.view is not None
    started = await manager.game(row.id)
    assert started.status == "active"
    assert sorted(s.computer or "" for s in started.seats) == ["", "", "medium"]
