"""``python -m bot migrate-db``: a SQLite database moved to a real PostgreSQL server, checked
row by row and replay by replay; a difference stops it with nothing written to the target."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from conftest import ALICE, BOB, CAROL, Postgres, play_random, started_game

from bot.manager import GameManager
from bot.migrate_db import MigrationFailed, main, migrate
from bot.storage import GuildSettings, ReviewSeat, StoredReview, UserSettings
from bot.storage.postgres import open_postgres


@pytest.fixture
def pg_url(postgres: Postgres) -> Iterator[str]:
    name = postgres.fresh()
    yield postgres.server.url_of(name)
    postgres.drop(name)


async def filled(path: Path) -> dict[int, tuple[int, int]]:
    """A SQLite database with finished, running and waiting games, play-by-post deadlines,
    settings and a league with a counted result; returns each game's (turn, actions)."""
    manager = await GameManager.open(str(path))
    rng = random.Random(2)
    try:
        for seed in range(6):
            view = await started_game(manager, seed=seed, turn_seconds=3600 if seed % 2 else None)
            for _ in range(rng.randrange(10, 40) if seed else 400):
                if view.finished:
                    break
                view = (await play_random(manager, view, rng)).view
        await manager.lobbies.create_lobby(CAROL, "carol", channel_id=9)
        await manager.storage.save_guild_settings(GuildSettings(1, "fr"), 1.0)
        await manager.storage.save_user_settings(UserSettings(ALICE, "de", True, 4e9), 1.0)
        league = await manager.leagues.create_league(1, 2, 3, "Spring", admin=True)
        for user in (ALICE, BOB):
            await manager.leagues.join_league(league.id, user, f"user{user}")
        (view,) = await manager.leagues.schedule(
            league.id, 3, admin=True, players=[(ALICE, "a"), (BOB, "b")]
        )
        while not view.finished:
            view = (await play_random(manager, view, rng)).view
        cup = await manager.tournaments.create_tournament(1, 2, 3, "Cup", admin=True, rounds=1)
        for user in (ALICE, CAROL):
            await manager.tournaments.sign_up(cup.id, user, f"user{user}")
        await manager.tournaments.start_tournament(cup.id, 3, admin=True)
        games = await manager.storage.list_games(statuses=("lobby", "active", "finished"))
        ended = next(g for g in games if g.status == "finished")
        review = StoredReview(ended.id, 8, ended.action_count, {"format": 1, "moments": []}, 2.5)
        await manager.storage.save_review(review, [ReviewSeat(ended.id, 0, 12, 0.75, 1.25)])
        return {g.id: (g.turn, g.action_count) for g in games}
    finally:
        await manager.close()


async def test_everything_moves_and_the_games_go_on(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "games.sqlite3"
    games = await filled(source)
    report = await migrate(str(source), pg_url)
    assert report.differences == [] and report.games_replayed == len(games)
    assert report.rows["games"] == len(games) and report.rows["league_results"] == 1
    assert report.rows["deadlines"] > 0 and report.rows["actions"] > 100
    assert (report.rows["reviews"], report.rows["review_seats"]) == (1, 1)
    assert report.rows["tournament_games"] == 1 and report.rows["tournament_audit"] == 2
    manager = await GameManager.open(pg_url)
    try:
        moved = await manager.storage.list_games(statuses=("lobby", "active", "finished"))
        assert {g.id: (g.turn, g.action_count) for g in moved} == games
        (league,) = await manager.leagues.guild_leagues(1)
        table = await manager.leagues.season_table(league.id)
        assert table.games == 1 and sum(s.games for s in table.rows) == 2
        assert (await manager.records.guild_settings(1)).locale == "fr"
        reviewed = next(g for g in moved if g.status == "finished")
        stored = await manager.storage.get_review(reviewed.id)
        assert stored is not None and stored.review == {"format": 1, "moments": []}
        seats = await manager.storage.review_seats_of([reviewed.id])
        assert seats == [ReviewSeat(reviewed.id, 0, 12, 0.75, 1.25)]
        (cup,) = await manager.tournaments.guild_tournaments(1)
        assert (cup.state, cup.round) == ("running", 1)
        assert len(await manager.tournaments.entrants(cup.id)) == 2
        assert await manager.records.user_settings(ALICE) == UserSettings(ALICE, "de", True, 4e9)
        active = next(g for g in moved if g.status == "active")
        view = await manager.decision(active.id)
        await play_random(manager, view, random.Random(0))
        fresh = await manager.lobbies.create_lobby(ALICE, "alice", channel_id=9)
        assert fresh.id == max(games) + 1, "new ids go on after the copied ones"
    finally:
        await manager.close()


async def test_a_difference_stops_the_copy_and_leaves_the_target_empty(
    tmp_path: Path, pg_url: str
) -> None:
    source = tmp_path / "games.sqlite3"
    await filled(source)
    with sqlite3.connect(source) as db:
        before = db.execute("SELECT count(*), sum(seed) FROM games").fetchone()
    await (await open_postgres(pg_url)).close()
    conn = await asyncpg.connect(pg_url)
    try:  # a target that changes what it is given: every game gets another seed
        await conn.execute(
            "CREATE FUNCTION shift() RETURNS trigger AS "
            "$$ BEGIN NEW.seed := NEW.seed + 1; RETURN NEW; END $$ LANGUAGE plpgsql; "
            "CREATE TRIGGER shift BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION shift()"
        )
    finally:
        await conn.close()
    with pytest.raises(MigrationFailed) as stopped:
        await migrate(str(source), pg_url)
    assert "games:" in str(stopped.value) and "its replay differs" in str(stopped.value)
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM games") == 0
        assert await conn.fetchval("SELECT count(*) FROM actions") == 0
    finally:
        await conn.close()
    with sqlite3.connect(source) as db:
        assert db.execute("SELECT count(*), sum(seed) FROM games").fetchone() == before


async def test_a_target_that_holds_games_is_refused(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "games.sqlite3"
    await filled(source)
    manager = await GameManager.open(pg_url)
    await manager.lobbies.create_lobby(ALICE, "alice", channel_id=9)
    await manager.close()
    with pytest.raises(MigrationFailed, match="already holds 1 rows in games"):
        await migrate(str(source), pg_url)


def test_the_command_line_explains_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as bad:
        main(["--to", "mysql://x", "--from", str(tmp_path / "none.sqlite3")])
    assert bad.value.code == 2 and "postgresql://" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--to", "postgresql://127.0.0.1/x", "--from", str(tmp_path / "none.sqlite3")])
    assert "no SQLite database" in capsys.readouterr().err
