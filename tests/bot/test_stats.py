"""Players' statistics: hand-computed sums over a few summaries, and the figures of games played
through the manager (on both storage engines) against what the test saw while playing them."""

from __future__ import annotations

import asyncio
import random
import statistics
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from conftest import ALICE, BOB, CAROL, random_action
from scheduler_fakes import FakeClock

from bot.errors import NoSuchSeason
from bot.manager import GameManager
from bot.manager import stats as stats_ops
from bot.outcomes import TurnView
from bot.stats import head_to_head, player_stats, turn_times
from bot.storage import (
    ActionRow,
    GameRow,
    LeagueAudit,
    LeaguePlacing,
    LeagueResult,
    LeagueRow,
    ReviewSeat,
    SeasonRow,
    SeatStats,
)
from engine.core.events import FeatureScored, FigurePlaced, FigureReturned

GUILD, OTHER_GUILD = 11, 22
START = 1_700_000_000.0


def seat(game: int, seat: int, user: int, score: int, won: bool, **more: object) -> SeatStats:
    values: dict[str, object] = {
        "computer": user < 0, "left": False, "breakdown": {}, "figures_placed": 0,
        "figures_returned": 0, "turn_times": (), "action_count": 10,
    }  # fmt: skip
    values.update(more)
    return SeatStats(game, seat, user, score=score, won=won, **values)  # type: ignore[arg-type]


# -- the sums, by hand --------------------------------------------------------------------------

ROWS = [
    # Game 1: Alice 30 beats Bob 20.
    seat(1, 0, ALICE, 30, True, breakdown={"city": 20, "road": 10}, figures_placed=5,
         figures_returned=3, turn_times=(60.0, 120.0)),
    seat(1, 1, BOB, 20, False, breakdown={"city": 20}),
    # Game 2: Alice and Bob share the win at 40, Carol 10.
    seat(2, 0, BOB, 40, True),
    seat(2, 1, ALICE, 40, True, breakdown={"field": 40}, figures_placed=7, figures_returned=1,
         turn_times=(30.0, 600.0, 90.0)),
    seat(2, 2, CAROL, 10, False),
    # Game 3: a computer beats Alice, 50 to 14.
    seat(3, 0, ALICE, 14, False, breakdown={"city": 4, "cloister": 10}, figures_placed=2),
    seat(3, 1, -1, 50, True),
    # Game 4: Alice held every seat (a record reviewed alone): not counted.
    seat(4, 0, ALICE, 99, True),
    seat(4, 1, ALICE, 1, False),
]  # fmt: skip


def test_a_players_sums_over_their_games() -> None:
    stats = player_stats(ALICE, ROWS)
    assert (stats.games, stats.wins, stats.shared_wins, stats.against_computers) == (3, 2, 1, 1)
    assert (stats.total_score, stats.best_score) == (84, 40)
    assert stats.average_score == 28
    assert stats.categories == (("field", 40), ("city", 24), ("cloister", 10), ("road", 10))
    assert (stats.figures_placed, stats.figures_returned) == (14, 4)
    # 30, 60, 90, 120, 600: the middle one.
    assert (stats.median_turn, stats.timed_turns) == (90.0, 5)
    nobody = player_stats(404, ROWS)
    assert (nobody.games, nobody.best_score, nobody.median_turn) == (0, None, None)


def test_accuracy_and_points_lost_weigh_each_reviewed_game_by_its_decisions() -> None:
    reviews = [
        ReviewSeat(1, 0, 10, 0.8, 1.0),  # Alice's seat in game 1
        ReviewSeat(1, 1, 10, 0.2, 5.0),  # Bob's: not Alice's figures
        ReviewSeat(2, 1, 30, 0.4, 2.0),  # Alice's seat in game 2
        ReviewSeat(4, 0, 50, 1.0, 0.0),  # game 4 does not count for her
    ]
    stats = player_stats(ALICE, ROWS, reviews)
    assert (stats.reviewed, stats.reviewed_decisions) == (2, 40)
    assert stats.accuracy == pytest.approx((8 + 12) / 40)
    assert stats.lost_per_turn == pytest.approx((10 + 60) / 40)
    unreviewed = player_stats(ALICE, ROWS)
    assert (unreviewed.reviewed, unreviewed.accuracy, unreviewed.lost_per_turn) == (0, None, None)


def test_head_to_head_counts_the_games_together() -> None:
    both = head_to_head(ALICE, BOB, ROWS)
    # Games 1 and 2; Alice +10 then 0; the shared win counts for both.
    assert (both.games, both.wins, both.versus_wins, both.shared_wins) == (2, 2, 1, 1)
    assert both.average_margin == 5
    other_way = head_to_head(BOB, ALICE, ROWS)
    assert (other_way.wins, other_way.versus_wins, other_way.average_margin) == (1, 2, -5)
    assert head_to_head(ALICE, 404, ROWS).games == 0


def test_turn_times_run_from_the_action_before_to_the_players_last() -> None:
    row = GameRow(id=1, owner_id=ALICE, created_at=0, updated_at=0, turn_seconds=3600,
                  started_at=100.0)  # fmt: skip
    log = [
        ActionRow(0, 1, 0, ALICE, {}, None, 130.0),  # Alice's tile: 30 s after the start
        ActionRow(1, 1, 0, ALICE, {}, None, 160.0),  # her figure: the turn took 60 s
        ActionRow(2, 2, 1, BOB, {}, None, 460.0),  # Bob: 300 s
        ActionRow(3, 3, 0, ALICE, {}, None, 500.0),  # Alice's tile...
        ActionRow(4, 3, 0, ALICE, {}, "autoplay", 4100.0),  # ...then a timeout: no time
        ActionRow(5, 4, 1, BOB, {}, "skip", 7700.0),  # not his move: no time
        ActionRow(6, 5, 0, ALICE, {}, None, 7740.0),  # 40 s
    ]
    assert turn_times(row, log) == {0: [60.0, 40.0], 1: [300.0]}
    live = GameRow(id=1, owner_id=ALICE, created_at=0, updated_at=0, started_at=100.0)
    assert turn_times(live, log) == {}, "games without a turn clock have no times"


# -- games played through the manager -----------------------------------------------------------


@dataclass
class Seen:
    """What the test saw while playing, by user: the independent side of the comparison."""

    scores: dict[int, list[int]] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)
    points: dict[int, dict[str, int]] = field(default_factory=dict)
    placed: dict[int, int] = field(default_factory=dict)
    returned: dict[int, int] = field(default_factory=dict)
    times: dict[int, list[float]] = field(default_factory=dict)
    #: Score events that named an inn or a cathedral: (mark, feature) -> points by user.
    marked: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)


async def play(
    mgr: GameManager,
    clock: FakeClock,
    users: tuple[int, ...],
    seen: Seen | None,
    *,
    guild: int = GUILD,
    seed: int = 1,
    turn_seconds: int | None = None,
    delays: dict[int, float] | None = None,
    moves: int | None = None,
    expansions: tuple[str, ...] = (),
) -> int:
    """A game of random legal moves, each ``delays[user]`` seconds after the previous one;
    ``moves``: stop after that many (the game stays active)."""
    row = await mgr.lobbies.create_lobby(users[0], "u0", guild_id=guild, channel_id=7,
                                 turn_seconds=turn_seconds, expansions=expansions)  # fmt: skip
    for user in users[1:]:
        await mgr.lobbies.join(row.id, user, f"u{user}")
    view: TurnView = await mgr.lobbies.start(row.id, users[0], seed=seed)
    seats = users
    rng = random.Random(seed)
    turn_start, played = clock.now, 0
    while view.phase != "over" and (moves is None or played < moves):
        assert view.user_id is not None
        user, turn = view.user_id, view.turn
        clock.now += (delays or {}).get(user, 1.0)
        result = await mgr.play_turn(row.id, user, random_action(view, rng), turn=turn,
                                 phase=view.phase)  # fmt: skip
        played += 1
        view = result.view
        if seen is None:
            continue
        for event in result.events:
            if isinstance(event, FigurePlaced):
                seen.placed[seats[event.player]] = seen.placed.get(seats[event.player], 0) + 1
            elif isinstance(event, FigureReturned):
                who = seats[event.player]
                seen.returned[who] = seen.returned.get(who, 0) + 1
            elif isinstance(event, FeatureScored):
                for player, points in event.points.items():
                    mine = seen.points.setdefault(seats[player], {})
                    mine[event.feature] = mine.get(event.feature, 0) + points
                    for mark in event.marks:
                        share = seen.marked.setdefault((mark, event.feature), {})
                        share[seats[player]] = share.get(seats[player], 0) + points
        if view.user_id != user or view.turn != turn:  # the turn ended with this action
            if turn_seconds is not None:
                seen.times.setdefault(user, []).append(clock.now - turn_start)
            turn_start = clock.now
    if seen is not None and view.phase == "over":
        final = view.game.result or {}
        for index, user in enumerate(seats):
            seen.scores.setdefault(user, []).append(final["scores"][index])
            seen.wins[user] = seen.wins.get(user, 0) + (index in final["winners"])
    return row.id


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
async def timed(database: str, clock: FakeClock) -> AsyncIterator[GameManager]:
    mgr = await GameManager.open(database, clock=clock)
    yield mgr
    await mgr.close()


async def test_stats_from_games_played_match_what_was_seen(
    timed: GameManager, clock: FakeClock
) -> None:
    mgr, seen = timed, Seen()
    await play(mgr, clock, (ALICE, BOB), seen, seed=1)
    delays = {ALICE: 45.0, BOB: 600.0, CAROL: 7.0}
    await play(mgr, clock, (BOB, CAROL, ALICE), seen, seed=2, turn_seconds=86400, delays=delays)
    await play(mgr, clock, (ALICE, BOB), None, seed=3, guild=OTHER_GUILD)  # another server
    await play(mgr, clock, (ALICE, BOB), None, seed=4, moves=6)  # still being played

    report = await mgr.stats.player_stats(GUILD, ALICE, versus=BOB)
    assert report.summarised == 0, "each game was summarised when it ended"
    stats = report.player
    scores = seen.scores[ALICE]
    assert stats.games == len(scores) == 2
    assert (stats.total_score, stats.best_score) == (sum(scores), max(scores))
    assert stats.wins == seen.wins[ALICE]
    assert dict(stats.categories) == {k: v for k, v in seen.points[ALICE].items() if v}
    assert sum(v for _, v in stats.categories) == sum(scores)
    assert stats.figures_placed == seen.placed.get(ALICE, 0) > 0
    assert stats.figures_returned == seen.returned.get(ALICE, 0)
    # Alice's turns in the timed game: one or two actions of 45 s each.
    assert set(seen.times[ALICE]) <= {45.0, 90.0}
    assert stats.median_turn == statistics.median(seen.times[ALICE])
    assert stats.timed_turns == len(seen.times[ALICE])

    together = report.versus
    assert together is not None and together.games == 2
    assert (together.wins, together.versus_wins) == (seen.wins[ALICE], seen.wins[BOB])
    margins = [a - b for a, b in zip(seen.scores[ALICE], seen.scores[BOB], strict=True)]
    assert together.average_margin == sum(margins) / 2

    carol = (await mgr.stats.player_stats(GUILD, CAROL)).player
    assert carol.games == 1 and carol.median_turn == statistics.median(seen.times[CAROL])
    assert (await mgr.stats.player_stats(OTHER_GUILD, ALICE)).player.games == 1


async def test_big_box_stats_count_goods_and_inns_and_cathedrals_as_roads_and_cities(
    timed: GameManager, clock: FakeClock
) -> None:
    mgr, seen = timed, Seen()
    big_box = ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")
    for seed in range(1, 4):
        await play(mgr, clock, (ALICE, BOB), seen, seed=seed, expansions=big_box)
    for user in (ALICE, BOB):
        stats = (await mgr.stats.player_stats(GUILD, user)).player
        assert dict(stats.categories) == {k: v for k, v in seen.points[user].items() if v}
        assert sum(v for _, v in stats.categories) == sum(seen.scores[user])
        assert set(dict(stats.categories)) <= {"city", "road", "cloister", "field", "barn", "goods"}
        # The marked scores are in the roads and cities, not in categories of their own.
        for (mark, feature), share in seen.marked.items():
            assert dict(stats.categories).get(feature, 0) >= share.get(user, 0), mark
    assert set(seen.marked) == {("inn", "road"), ("cathedral", "city")}
    won = dict((await mgr.stats.player_stats(GUILD, ALICE)).player.categories).get("goods", 0)
    won += dict((await mgr.stats.player_stats(GUILD, BOB)).player.categories).get("goods", 0)
    assert won > 0 and won % 10 == 0, "goods majorities pay 10 each"


@pytest.mark.parametrize("batch", [1, 50])
async def test_games_that_ended_before_are_summarised_once_when_asked(
    timed: GameManager, clock: FakeClock, batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stats_ops, "BATCH", batch)
    mgr = timed
    first = await play(mgr, clock, (ALICE, BOB), None, seed=5)
    second = await play(mgr, clock, (ALICE, CAROL), None, seed=6)
    stored = await mgr.storage.game_stats_of(GUILD, ALICE)
    # As if both games had ended before statistics existed.
    await mgr.storage.save_game_stats({first: [], second: []})
    assert await mgr.storage.games_without_stats(GUILD, ALICE) == [first, second]
    assert await mgr.storage.games_without_stats(GUILD, BOB) == [first]
    report = await mgr.stats.player_stats(GUILD, ALICE)
    assert report.summarised == 2 and report.player.games == 2
    assert await mgr.storage.game_stats_of(GUILD, ALICE) == stored, "the same rows as at the end"
    assert (await mgr.stats.player_stats(GUILD, ALICE)).summarised == 0


async def test_a_game_against_a_computer_counts_for_the_person_only(
    timed: GameManager, clock: FakeClock
) -> None:
    mgr = timed
    row = await mgr.lobbies.create_lobby(ALICE, "alice", guild_id=GUILD, channel_id=7)
    row = await mgr.lobbies.add_computer(row.id, ALICE, "easy", "Computer 1 (Easy)")
    await mgr.lobbies.start(row.id, ALICE, seed=3)
    await mgr.resign(row.id, ALICE)  # the computer wins
    stats = (await mgr.stats.player_stats(GUILD, ALICE)).player
    assert (stats.games, stats.wins, stats.against_computers) == (1, 0, 1)
    computer = row.seats[1].user_id
    assert computer < 0
    rows = await mgr.storage.game_stats_of(GUILD, ALICE)
    assert [(r.user_id, r.computer, r.won, r.left) for r in rows] == [
        (ALICE, False, False, True),
        (computer, True, True, False),
    ]


async def test_a_league_season_counts_its_counted_games_only(
    timed: GameManager, clock: FakeClock
) -> None:
    mgr = timed
    first = await play(mgr, clock, (ALICE, BOB), None, seed=7)
    second = await play(mgr, clock, (ALICE, BOB), None, seed=8)
    third = await play(mgr, clock, (ALICE, CAROL), None, seed=9)
    storage = mgr.storage
    league = LeagueRow(0, GUILD, "Sunday", ALICE, 7, SeasonRow(0, 1, START))
    league_id = await storage.create_league(league, LeagueAudit(0, ALICE, "create", START))
    await storage.close_season(
        league_id, 1, START + 1, LeagueAudit(league_id, ALICE, "close", START + 1),
        SeasonRow(league_id, 2, START + 1),
    )  # fmt: skip
    placing = (LeaguePlacing(0, ALICE, "a", 1, 1), LeaguePlacing(1, BOB, "b", 0, 2))
    for game_id, season in ((first, 1), (second, 1), (third, 2)):
        await storage.record_league_result(LeagueResult(game_id, league_id, season, START, placing))
    audit = LeagueAudit(league_id, ALICE, "annul", START)
    assert await storage.annul_league_result(second, ALICE, "misplayed", START, audit)
    one = await mgr.stats.player_stats(GUILD, ALICE, league_id=league_id, season=1, versus=BOB)
    assert one.season == (league_id, 1)
    assert one.player.games == 1 and one.versus is not None and one.versus.games == 1
    alone = (await mgr.stats.player_stats(GUILD, ALICE)).player
    assert alone.games == 3
    current = await mgr.stats.player_stats(GUILD, ALICE, league_id=league_id)
    assert current.season == (league_id, 2) and current.player.games == 1
    assert current.player.total_score == (await storage.game_stats_of(GUILD, CAROL))[0].score
    with pytest.raises(NoSuchSeason):
        await mgr.stats.player_stats(GUILD, ALICE, league_id=league_id, season=5)


async def test_two_writers_summarising_the_same_game_at_once_agree(
    timed: GameManager, clock: FakeClock
) -> None:
    """Two queries (or processes) may backfill the same game together: both writes succeed."""
    mgr = timed
    game_id = await play(mgr, clock, (ALICE, BOB), None, seed=10)
    rows = await mgr.storage.game_stats_of(GUILD, ALICE)
    await mgr.storage.save_game_stats({game_id: []})
    # PostgreSQL runs them on connections of its pool at the same time.
    await asyncio.gather(*(mgr.storage.save_game_stats({game_id: rows}) for _ in range(4)))
    assert await mgr.storage.game_stats_of(GUILD, ALICE) == rows
