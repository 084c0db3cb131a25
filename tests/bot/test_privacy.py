"""Players' data through the game manager, on SQLite and PostgreSQL: forgetting a player keeps
every game replaying to the same scores and every table adding up, with no trace of their id or
name left; a player forgotten during a game has resigned from it first; finished games past a
server's keep_days lose their record but not their statistics, ratings or standings, and league
games stay while their season is open."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from conftest import ALICE, BOB, CAROL, play_random, started_game
from scheduler_fakes import FakeClock, FakeNotifier
from test_league_ops import ADMIN, GUILD, league_with, play_to_end

from bot.live import replay
from bot.manager import GameManager
from bot.scheduler import Scheduler
from bot.storage import FORGOTTEN_BASE, forgotten_number, who

DAY = 86400.0
#: A Discord id as they are (a number no other column holds by chance), and a name.
ZOE, NAME = 712_345_678_901_234_567, "Zoé the unforgettable"


async def every_row(mgr: GameManager) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table the bot keeps."""
    async with mgr.storage.engine.read() as db:
        if mgr.storage.shared:
            found = await db.fetchall(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        else:
            found = await db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        return {
            str(t): [tuple(r) for r in await db.fetchall(f"SELECT * FROM {t}")] for (t,) in found
        }


def traces(rows: dict[str, list[tuple[Any, ...]]], user_id: int, name: str) -> list[str]:
    """Where ``user_id`` (as a value, or inside JSON text) or ``name`` is still stored."""
    found = []
    for table, content in rows.items():
        for row in content:
            text = [v for v in row if isinstance(v, str)]
            if user_id in row or any(name in v or str(user_id) in v for v in text):
                found.append(f"{table}: {row}")
    return found


async def outcomes(mgr: GameManager, game_ids: list[int], league_id: int) -> dict[str, Any]:
    """What must not change: each game's replayed scores, standings, ratings, statistics."""
    games = {}
    for game_id in game_ids:
        row = await mgr.game(game_id)
        games[game_id] = list(replay(row, await mgr.storage.get_actions(game_id)).scores)
    table = await mgr.leagues.season_table(league_id)
    ratings, _ = await mgr.leagues.league_ratings(league_id)
    bob = await mgr.stats.player_stats(GUILD, BOB)
    return {
        "games": games,
        "standings": [(r.position, r.points, r.games, r.wins, r.total_score) for r in table.rows],
        "ratings": sorted((r.mu, r.sigma, r.games) for r in ratings.current.values()),
        "bob": bob.player,
    }


async def test_a_forgotten_player_leaves_no_trace_and_every_game_adds_up_the_same(
    manager: GameManager,
) -> None:
    mgr = manager
    mgr.seeds = lambda: 4
    league = await league_with(mgr, BOB, CAROL, max_players=3)
    await mgr.leagues.join_league(league.id, ZOE, NAME)
    (view,) = await mgr.leagues.schedule(
        league.id, ADMIN, admin=False, players=[(ZOE, NAME), (BOB, "bob"), (CAROL, "carol")]
    )
    league_game = view.game.id
    await play_to_end(mgr, league_game)
    friendly = await started_game(mgr, seed=5, users=(BOB, ZOE), guild_id=GUILD)
    await play_to_end(mgr, friendly.game_id)
    running = await started_game(mgr, seed=6, users=(ZOE, BOB, CAROL), guild_id=GUILD)
    rng = random.Random(1)
    view = running
    for _ in range(5):
        view = (await play_random(mgr, view, rng)).view
    lobby = await mgr.lobbies.create_lobby(ZOE, NAME, channel_id=7, guild_id=GUILD)
    joined = await mgr.lobbies.create_lobby(CAROL, "carol", channel_id=7, guild_id=GUILD)
    await mgr.lobbies.join(joined.id, ZOE, NAME)
    await mgr.records.update_user_settings(ZOE, locale="fr", dm_reminders=True)
    watched = await started_game(mgr, seed=8, users=(BOB, CAROL), guild_id=GUILD)
    await mgr.watch.follow(watched.game_id, ZOE)
    await asyncio.sleep(0)
    finished = [league_game, friendly.game_id]
    before = await outcomes(mgr, finished, league.id)
    assert (await mgr.privacy.personal_data(ZOE)).games == 5

    done = await mgr.privacy.forget(ZOE)

    assert done.number == 1 and done.leagues == (league.id,)
    assert [game_id for game_id, _ in done.resigned] == [view.game_id]
    assert {row.id: row.status for row in done.lobbies} == {
        lobby.id: "abandoned",
        joined.id: "lobby",
    }
    former = FORGOTTEN_BASE + 1
    assert forgotten_number(former) == 1 and who(former) == "**former player 1**"
    assert traces(await every_row(mgr), ZOE, NAME) == []
    assert await mgr.privacy.personal_data(ZOE) == type(await mgr.privacy.personal_data(BOB))()
    assert await outcomes(mgr, finished, league.id) == before
    for game_id in finished:
        names = [s.name for s in (await mgr.game(game_id)).seats]
        assert "former player 1" in names and NAME not in names
    audit = await mgr.storage.league_audit(league.id)
    assert [a.action for a in audit] == ["create"]  # the act stays (the admin created it)
    # The running game goes on without them: they resigned, the others play it to the end.
    row = await mgr.game(view.game_id)
    assert [s.status for s in row.seats if s.user_id == former] == ["resigned"]
    await play_to_end(mgr, view.game_id)
    assert (await mgr.game(view.game_id)).status == "finished"
    assert (await mgr.privacy.forget(ZOE)).number is None  # nothing left to forget


async def test_the_audit_keeps_the_act_of_a_forgotten_organiser(manager: GameManager) -> None:
    league = await league_with(manager, BOB, CAROL)
    manager.seeds = lambda: 4
    (view,) = await manager.leagues.schedule(
        league.id, ADMIN, admin=False, players=[(BOB, "bob"), (CAROL, "carol")]
    )
    await play_to_end(manager, view.game.id)
    await manager.leagues.annul_result(view.game.id, ADMIN, "a mistake", admin=True)
    assert (await manager.privacy.forget(ADMIN)).number == 1
    audit = await manager.storage.league_audit(league.id)
    assert {(a.action, a.user_id, a.reason) for a in audit} >= {
        ("annul", FORGOTTEN_BASE + 1, "a mistake")
    }
    (result,) = await manager.storage.league_results(league.id)
    assert result.annulled_by == FORGOTTEN_BASE + 1


async def test_keep_days_deletes_old_records_but_no_figure_and_waits_for_open_seasons(
    manager: GameManager,
) -> None:
    mgr = manager
    now = [1_000_000.0]
    mgr.clock = lambda: now[0]
    mgr.seeds = lambda: 4
    league = await league_with(mgr, ALICE, BOB)
    (view,) = await mgr.leagues.schedule(
        league.id, ADMIN, admin=False, players=[(ALICE, "alice"), (BOB, "bob")]
    )
    league_game = view.game.id
    await play_to_end(mgr, league_game)
    friendly = await started_game(mgr, seed=5, users=(BOB, ALICE), guild_id=GUILD)
    await play_to_end(mgr, friendly.game_id)
    other_server = await started_game(mgr, seed=7, users=(BOB, CAROL), guild_id=GUILD + 1)
    await play_to_end(mgr, other_server.game_id)
    await asyncio.sleep(0)
    table = await mgr.leagues.season_table(league.id)
    ratings, _ = await mgr.leagues.league_ratings(league.id)
    stats = (await mgr.stats.player_stats(GUILD, BOB)).player

    await mgr.records.update_guild_settings(GUILD, keep_days=30)
    now[0] += 29 * DAY
    assert await mgr.privacy.delete_expired() == []  # not yet 30 days
    now[0] += 2 * DAY
    # The friendly game goes; the league game stays while its season is open; the other
    # server keeps its games for ever.
    assert await mgr.privacy.delete_expired() == [friendly.game_id]
    assert await mgr.storage.get_game(friendly.game_id) is None
    assert await mgr.storage.get_actions(friendly.game_id) == []
    assert [g.id for g in await mgr.storage.list_games(guild_id=GUILD, statuses=("finished",))] == [
        league_game
    ]
    await mgr.leagues.close_season(league.id, ADMIN, "end of spring", admin=True)
    assert await mgr.privacy.delete_expired() == [league_game]
    assert await mgr.storage.get_game(other_server.game_id) is not None
    # Statistics, ratings and standings are those of before.
    assert (await mgr.stats.player_stats(GUILD, BOB)).player == stats
    after, _ = await mgr.leagues.league_ratings(league.id)
    assert after.current == ratings.current
    closed = await mgr.leagues.season_table(league.id, 1)
    assert [(r.user_id, r.points, r.total_score) for r in closed.rows] == [
        (r.user_id, r.points, r.total_score) for r in table.rows
    ]
    assert await mgr.storage.deleted_games(GUILD) == 2
    report_ids = await mgr.storage.stored_game_ids()
    assert friendly.game_id not in report_ids and league_game not in report_ids


async def test_the_scheduler_deletes_expired_games_once_an_hour(manager: GameManager) -> None:
    now = [1_000_000.0]
    manager.clock = lambda: now[0]
    game = await started_game(manager, seed=5, users=(BOB, ALICE), guild_id=GUILD)
    await play_to_end(manager, game.game_id)
    await asyncio.sleep(0)
    await manager.records.update_guild_settings(GUILD, keep_days=1)
    scheduler = Scheduler(manager, FakeNotifier(FakeClock(now[0])), clock=lambda: now[0])
    now[0] += DAY - 60
    assert (await scheduler.tick()).deleted == []  # not a day yet
    now[0] += 120
    assert (await scheduler.tick()).deleted == []  # a day now, but it looked a minute ago
    now[0] += 3600
    assert (await scheduler.tick()).deleted == [game.game_id]
    assert await manager.storage.get_game(game.game_id) is None
