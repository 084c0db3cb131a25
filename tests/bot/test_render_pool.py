"""Pictures drawn in render worker processes: the same bytes as in a thread, for every game
family and every kind of picture, from the game's record alone."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from conftest_ui import SETTLE, Table, assert_png, close_bots, make_bot, put_options, step_of

from ai.review import Moment, Reason, decisions
from bot.render_pool import DEPTH, RenderPool, _Worker, home_of
from bot.turn_view import tried, turn_screen, wagon_labels
from bot.ui import help_ui, images
from engine import Game, MoveWagon, Pass, PlaceAbbey, Setup, UseWallTile
from engine.castle.game import CastleGame
from engine.cli import random_action
from renderer import jobs as drawing
from renderer.board import GhostSpot
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.phone import TileCard
from renderer.review import moment_extra


def a_game(name: str, expansions: tuple[str, ...] = (), moves: int = 25) -> Game:
    game = Game(
        Setup(players=("a", "b", "c") if name != "castle" else ("a", "b"), seed=9, game=name,
              expansions=expansions)
    )  # fmt: skip
    rng = random.Random(4)
    for _ in range(moves):
        if game.finished:
            break
        game.play(rng.choice(game.legal_placements()) if game.phase.value == "tile" else Pass())
    return game


def played_until(setup: Setup, stop: Callable[[Game], bool]) -> Game:
    """A game of random legal moves (seeded by ``setup``) up to the first state ``stop`` likes."""
    game, rng = Game(setup), random.Random(setup.seed)
    while not game.finished and not stop(game):
        game.play(random_action(game, rng))
    return game


def first_game(setups: list[Setup], stop: Callable[[Game], bool]) -> Game:
    found = (played_until(setup, stop) for setup in setups)
    return next(game for game in found if not game.finished and stop(game))


def offered(after: Game) -> tuple[GhostSpot, ...]:
    """The figure spots a placement offers, as the step numbers them."""
    return tuple(GhostSpot(f.at, f.figure, str(i + 1)) for i, f in enumerate(after.legal_figures()))


def step_jobs(game: Game, options: RenderOptions) -> list[tuple[Game, Job]]:
    """The placement step at a tile turn: a placement with its rotations and see-through
    figures, the abbey (placed on a copy by the job), and the tile just placed."""
    placement = game.legal_placements()[0]
    after = tried(game, placement)
    ghosts = offered(after)
    spots = {g.at: g.label for g in ghosts}
    pos = (placement.x, placement.y)
    rotations = turn_screen(game).offered(pos, placement.tile, keep=placement.rotation)
    step = {
        "placement": placement,
        "spots": spots,
        "rotations": {r: f"{r}°" for r in rotations},
        "ghosts": ghosts,
        "player": 1,
    }
    plain = {**step, "rotations": {}, "ghosts": ()}
    found = [
        (game, Job("step", game.record(), options, (1, 2, 0), extra=step)),
        (game, Job("step", game.record(), options, extra=plain)),
    ]
    if after.phase.value == "figure":
        placed = {**step, "placement": None}
        found.append((after, Job("step", after.record(), options, (2, 0, 1), extra=placed)))
    for abbey in game.legal(PlaceAbbey)[:1]:
        ghosts = offered(tried(game, abbey))
        spots = {g.at: g.label for g in ghosts}
        hole = {**step, "tried": abbey, "placement": None, "spots": spots, "ghosts": ghosts}
        abbey_spots = {"tried": abbey, "spots": spots}
        found.append((game, Job("step", game.record(), options, (0, 2, 1), extra=hole)))
        found.append((game, Job("spots", game.record(), options, extra=abbey_spots)))
    return found


def own_jobs() -> list[tuple[Game, Job]]:
    """The pictures of their own: the wagons, a tactical hand, the help, The Castle's walls."""
    options = RenderOptions(lang="de")
    wagons = first_game(
        [Setup(players=("a", "b", "c"), seed=s, expansions=("abbey_mayor",)) for s in range(1, 30)],
        lambda g: bool(g.legal(MoveWagon)),
    )
    targets = wagon_labels(wagons.legal(MoveWagon))
    hands = played_until(
        Setup(players=("a", "b"), seed=5, options={"hand": True}), lambda g: g.turn >= 5
    )
    demo, candidates, card = help_ui.demo_game("fr")
    castle = first_game(
        [Setup(players=("a", "b"), seed=s, game="castle") for s in range(1, 40)],
        lambda g: any(w.target for w in g.legal(UseWallTile)),
    )
    assert isinstance(castle, CastleGame)
    features = dict(turn_screen(castle).wall_marks)
    return [
        (wagons, Job("wagon", wagons.record(), options, (2, 1, 0), extra={"targets": targets})),
        (hands, Job("hand", hands.record(), options, extra={"hand": tuple(hands.hands[0])})),
        (hands, Job("tiles", hands.record(), RenderOptions(lang="de", dead_squares=True))),
        (demo, Job("help", demo.record(), RenderOptions(lang="fr"), (), candidates, card)),
        (castle, Job("walls", castle.record(), options, extra={"features": features})),
    ]


Picture = tuple[bytes, tuple[str, ...]]


def differs(job: Job, drawn: Picture, here: Picture, where: str) -> bool:
    """Fails the test naming the picture drawn otherwise in ``where``, its sizes and notes."""
    sizes = (len(drawn[0]), len(here[0]))
    pytest.fail(f"{job.kind} drawn otherwise in {where}: {sizes} bytes, {drawn[1]} vs {here[1]}")


async def test_workers_draw_the_same_pictures_as_a_thread() -> None:
    games = [
        a_game("carcassonne"),
        a_game("carcassonne", ("abbey_mayor",)),
        a_game("hunters"),
        a_game("castle"),
    ]
    pictures: list[tuple[Game | None, Job]] = []
    for game in games:
        spots = {(p.x, p.y) for p in game.legal_placements()}
        letters = {spot: chr(65 + i) for i, spot in enumerate(sorted(spots)[:20])}
        card = TileCard(game.tile or "", {0: "0°", 90: "90°"}) if game.tile else None
        options = RenderOptions(lang="fr")
        pictures.append((game, Job("turn", game.record(), options, (2, 0, 1), letters, card)))
        pictures.append((game, Job("board", game.record(), options, (), letters)))
        # The tiles not placed yet, and the dead squares crossed out on the turn and board.
        dead = RenderOptions(lang="fr", dead_squares=True)
        pictures.append((game, Job("tiles", game.record(), dead)))
        pictures.append((game, Job("turn", game.record(), dead, (2, 0, 1), letters, card)))
        pictures.append((game, Job("board", game.record(), dead, (), letters)))
        at_tile = game.fork()
        while at_tile.phase.value == "figure":
            at_tile.play(Pass())
        if at_tile.phase.value == "tile" and at_tile.tile is not None:
            placement = at_tile.legal_placements()[0]
            preview = Job("preview", at_tile.record(), options, extra={"placement": placement})
            pictures.append((at_tile, preview))
            placed = tried(at_tile, placement)
            if placed.phase.value == "figure":
                labels = {f.at: str(i + 1) for i, f in enumerate(placed.legal_figures()) if f.at}
                spots_job = Job("spots", placed.record(), options, extra={"spots": labels})
                pictures.append((placed, spots_job))
            pictures.extend(step_jobs(at_tile, options))
    abbeys = played_until(
        Setup(players=("a", "b", "c"), seed=1, expansions=("abbey_mayor",)),
        lambda g: g.turn > 5 and g.phase.value == "tile" and bool(g.legal(PlaceAbbey)),
    )
    steps = step_jobs(abbeys, RenderOptions(lang="en", tile_size=48))  # the budget's fallback
    assert any("tried" in job.extra for _, job in steps)
    pictures.extend(steps)
    pictures.extend(own_jobs())
    ended = a_game("carcassonne", moves=400)
    assert ended.finished
    pictures.append((ended, Job("end", ended.record(), RenderOptions(lang="de"), (1, 0, 2))))
    stats = {
        "name": "Zoé",
        "games": 7,
        "categories": (("city", 120), ("meadow", 40), ("road", 9)),
        "kinds": ("carcassonne", "hunters"),
        "style": 3,
    }
    pictures.append((None, Job("stats", {}, RenderOptions(lang="fr"), extra=stats)))
    # A reviewed decision, the move played beside the best, drawn from the record alone.
    decision = decisions(ended.record())[3]
    moment = Moment(
        decision.index, decision.turn, decision.seat, decision.played, decision.played,
        -1.5, 2.0, 3.5, Reason("better_position", {"points": 3.5}),
    )  # fmt: skip
    extra = moment_extra(moment, why="Because.", names=("a", "b", "c"))
    pictures.append((None, Job("review", ended.record(), RenderOptions(lang="de"), extra=extra)))
    # The replay of a game in progress, its seats in chosen colours: WebP, not PNG.
    for name in ("carcassonne", "hunters"):
        going = a_game(name, moves=30)
        pictures.append((going, Job("replay", going.record(), RenderOptions(lang="fr"), (4, 2, 0))))
    # The viewer page of a game in progress: HTML, not PNG.
    going = a_game("hunters", moves=20)
    pictures.append((going, Job("viewer", going.record(), RenderOptions(lang="de"), (1, 0))))
    threads, workers = RenderPool(0), RenderPool(2)
    kinds: set[str] = set()
    try:
        await workers.warm()
        for drawn, job in pictures:
            here = drawing.draw(drawn, job)  # as the bot draws without workers: from the game
            # Compared apart from pytest's diff, which would take minutes on megabytes.
            in_thread, in_worker = await threads.draw(job), await workers.draw(job)
            assert in_thread == here or differs(job, in_thread, here, "a thread")
            assert in_worker == here or differs(job, in_worker, here, "a worker")
            kinds.add(job.kind)
            if job.kind == "replay":
                assert here[0][:4] == b"RIFF" and here[0][8:12] == b"WEBP"
            elif job.kind == "viewer":
                assert here[0].startswith(b"<!doctype html>")
            else:
                assert here[0].startswith(b"\x89PNG")
    finally:
        workers.close()
    assert kinds == {
        "turn", "board", "preview", "spots", "end", "step", "wagon", "hand", "help", "walls",
        "stats", "tiles", "replay", "viewer", "review",
    }  # fmt: skip


def test_a_job_that_plays_first_never_changes_the_game() -> None:
    """A job that plays an action first (the abbey's step) draws it on a copy of the game."""
    game = played_until(
        Setup(players=("a", "b", "c"), seed=1, expansions=("abbey_mayor",)),
        lambda g: g.turn > 5 and g.phase.value == "tile" and bool(g.legal(PlaceAbbey)),
    )
    before = game.record()
    for drawn, job in step_jobs(game, RenderOptions(lang="fr")):
        drawing.draw(drawn, job)
    assert game.record() == before
    assert game.legal(PlaceAbbey), "the abbey is still to play"


async def test_a_game_through_discord_with_pictures_from_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot with a render worker: every turn message, placement step and help carries its
    picture, drawn there."""
    drawn: list[str] = []
    original = RenderPool.draw

    async def draw(self: RenderPool, job: Job) -> tuple[bytes, tuple[str, ...]]:
        drawn.append(job.kind)
        return await original(self, job)

    monkeypatch.setattr(RenderPool, "draw", draw)
    # The help's picture is kept once drawn: a test before this one in the process drew it.
    monkeypatch.setattr(help_ui, "_PICTURES", {})
    bot = make_bot(tmp_path / "games.sqlite3", render_workers=1)
    try:
        # The worker process starts during the first turn: give it time on a busy machine.
        async with simcord.run(bot, settle_timeout=SETTLE) as env:
            table = Table(env)
            assert images.POOL is not None and images.POOL.workers == 1
            game_id = await table.new()
            first = table.last()
            assert_png(env, first)
            manager = table.bot.manager
            view = await manager.decision(game_id)
            player = table.actor(view.user_id)
            menu, option = put_options(first)[0]
            assert_png(env, step_of(await player.select(first, [option["value"]], custom_id=menu)))
            thread = table.thread()
            offered = await player.autocomplete(
                thread, "carcassonne place", "rotation", "", cell="A"
            )
            await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])
            assert (await manager.decision(game_id)).turn > view.turn or view.phase != "tile"
            assert_png(env, table.last())
            helped = await player.slash(thread, "carcassonne help")
            assert_png(env, helped.followups[0] if helped.followups else helped.response)
    finally:
        await close_bots()
    assert images.POOL is None, "the pool closes with the bot"
    assert {"turn", "step", "help"} <= set(drawn), drawn


async def test_the_pool_knows_every_worker_once_warm() -> None:
    """Monitoring (and the load benchmark's CPU count) needs every worker's process id, even
    when the first worker to start answered for both."""
    pool = RenderPool(2)
    try:
        await pool.warm()
        assert len(pool.pids) == 2
    finally:
        pool.close()


def kept_games() -> int:
    """How many games this worker keeps (run in a worker)."""
    return len(drawing.RECENT)


async def kept_by_worker(pool: RenderPool) -> list[int]:
    return [await w.call(kept_games) for w in pool._workers if w is not None]


async def test_a_games_pictures_go_to_the_worker_that_keeps_it() -> None:
    """One game's pictures, one after the other, are drawn by one worker (it plays only the
    new moves); another game may go to the other worker."""
    pool = RenderPool(2)
    try:
        await pool.warm()
        game = a_game("carcassonne", moves=10)
        for _ in range(4):
            await pool.draw(Job("board", game.record(), RenderOptions()))
            game.play(random_action(game, random.Random(game.turn)))
        assert sorted(await kept_by_worker(pool)) == [0, 1]
        home = home_of(game.record(), 2)
        assert home is not None and (await kept_by_worker(pool))[home] == 1
    finally:
        pool.close()


async def test_a_burst_of_one_games_pictures_uses_every_worker() -> None:
    """Pictures of one game asked at once go to the least busy worker, not all to its home."""
    pool = RenderPool(2)
    try:
        await pool.warm()
        game = a_game("hunters", moves=10)
        job = Job("board", game.record(), RenderOptions())
        drawn = await asyncio.gather(*(pool.draw(job) for _ in range(6)))
        assert len(set(drawn)) == 1
        assert await kept_by_worker(pool) == [1, 1]
    finally:
        pool.close()


def games_of_seeds(count: int) -> list[Game]:
    """``count`` different games (one per seed), a few random moves into each."""
    made = []
    for seed in range(count):
        game, rng = Game(Setup(players=("a", "b", "c"), seed=100 + seed)), random.Random(seed)
        for _ in range(6):
            game.play(random_action(game, rng))
        made.append(game)
    return made


async def test_a_worker_with_nothing_to_draw_takes_pictures_waiting_at_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pictures all given to one worker: it holds at most DEPTH at a time, the rest wait in the
    bot, and the other worker, idle, draws some of them; every picture is the one asked."""
    pool = RenderPool(2)
    held: list[int] = []
    call = _Worker.call

    async def counted(self: _Worker, function: Callable[..., object], *args: object) -> object:
        held.append(len(self.asked) + 1)
        return await call(self, function, *args)

    try:
        await pool.warm()
        monkeypatch.setattr(_Worker, "call", counted)
        monkeypatch.setattr(pool, "_choose", lambda job: 0)
        games = games_of_seeds(10)
        jobs = [Job("board", game.record(), RenderOptions()) for game in games]
        drawn = await asyncio.gather(*(pool.draw(job) for job in jobs))
        assert drawn == [drawing.draw(game, job) for game, job in zip(games, jobs, strict=True)]
        assert max(held) == DEPTH
        first, second = await kept_by_worker(pool)
        assert first + second == 10 and second >= 2, (first, second)
        assert pool._sent == [0, 0] and pool._waiting == [0, 0]
    finally:
        pool.close()


async def test_a_picture_given_up_while_waiting_leaves_no_slot_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A caller that stops waiting (its interaction gone) before its picture is sent: the
    others are drawn, and the pool's counts come back to nothing owed."""
    pool = RenderPool(2)
    try:
        await pool.warm()
        monkeypatch.setattr(pool, "_choose", lambda job: 0)
        jobs = [Job("board", game.record(), RenderOptions()) for game in games_of_seeds(8)]
        tasks = [asyncio.ensure_future(pool.draw(job)) for job in jobs]
        await asyncio.sleep(0)  # every draw has its slot or waits for one
        assert pool._sent == [DEPTH, DEPTH] and len(pool._queued[0]) == len(jobs) - 2 * DEPTH
        tasks[-1].cancel()
        done = await asyncio.gather(*tasks[:-1])
        assert len(done) == len(jobs) - 1 and all(png.startswith(b"\x89PNG") for png, _ in done)
        assert tasks[-1].cancelled()
        assert pool._sent == [0, 0] and pool._waiting == [0, 0]
        assert not any(pool._queued)
    finally:
        pool.close()


async def test_a_killed_worker_is_replaced_and_the_picture_drawn() -> None:
    pool = RenderPool(2)
    try:
        await pool.warm()
        game = a_game("castle", moves=10)
        job = Job("board", game.record(), RenderOptions())
        expected = drawing.draw(game, job)
        home = home_of(job.record, 2)
        assert home is not None
        worker = pool._workers[home]
        assert worker is not None and worker.process.pid is not None
        dead = worker.process.pid
        os.kill(dead, signal.SIGKILL)
        assert await pool.draw(job) == expected
        assert dead not in pool.pids and len(pool.pids) == 2
        assert await pool.draw(job) == expected
    finally:
        pool.close()


async def test_a_job_that_fails_raises_its_error_where_it_was_asked() -> None:
    """A record that does not play fails in the worker as in a thread, and the worker goes on."""
    game = a_game("carcassonne", moves=6)
    broken = {**game.record(), "actions": [{"type": "place_tile", "x": 50, "y": 50, "rotation": 0}]}
    pool, threads = RenderPool(1), RenderPool(0)
    try:
        with pytest.raises(ValueError) as in_thread:
            await threads.draw(Job("board", broken, RenderOptions()))
        with pytest.raises(ValueError) as in_worker:
            await pool.draw(Job("board", broken, RenderOptions()))
        assert str(in_worker.value) == str(in_thread.value)
        job = Job("board", game.record(), RenderOptions())
        assert await pool.draw(job) == drawing.draw(game, job)
    finally:
        pool.close()
