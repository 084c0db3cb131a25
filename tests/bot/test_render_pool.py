"""Pictures drawn in render worker processes: the same bytes as in a thread, for every game
family, from the game's record alone."""

from __future__ import annotations

import random
from pathlib import Path

import simcord
from conftest_ui import Table, assert_png, close_bots, make_bot

from bot.render_pool import RenderPool
from bot.ui import images
from bot.ui.state import tried
from engine import Game, Pass, Setup
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.phone import TileCard


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


async def test_workers_draw_the_same_pictures_as_a_thread() -> None:
    games = [
        a_game("carcassonne"),
        a_game("carcassonne", ("abbey_mayor",)),
        a_game("hunters"),
        a_game("castle"),
    ]
    jobs = []
    for game in games:
        spots = {(p.x, p.y) for p in game.legal_placements()}
        letters = {spot: chr(65 + i) for i, spot in enumerate(sorted(spots)[:20])}
        card = TileCard(game.tile or "", {0: "0°", 90: "90°"}) if game.tile else None
        options = RenderOptions(lang="fr")
        jobs.append(Job("turn", game.record(), options, (2, 0, 1), letters, card))
        jobs.append(Job("board", game.record(), options, (), letters))
        at_tile = game.fork()
        while at_tile.phase.value == "figure":
            at_tile.play(Pass())
        if at_tile.phase.value == "tile" and at_tile.tile is not None:
            placement = at_tile.legal_placements()[0]
            jobs.append(Job("preview", at_tile.record(), options, extra={"placement": placement}))
            placed = tried(at_tile, placement)
            if placed.phase.value == "figure":
                labels = {f.at: str(i + 1) for i, f in enumerate(placed.legal_figures()) if f.at}
                jobs.append(Job("spots", placed.record(), options, extra={"spots": labels}))
    ended = a_game("carcassonne", moves=400)
    assert ended.finished
    jobs.append(Job("end", ended.record(), RenderOptions(lang="de"), (1, 0, 2)))
    threads, workers = RenderPool(0), RenderPool(2)
    kinds: set[str] = set()
    try:
        await workers.warm()
        for job in jobs:
            here = await threads.draw(job)
            there = await workers.draw(job)
            assert there == here, job.kind
            kinds.add(job.kind)
            assert here[0].startswith(b"\x89PNG")
    finally:
        workers.close()
    assert kinds == {"turn", "board", "preview", "spots", "end"}


async def test_a_game_through_discord_with_pictures_from_a_worker(tmp_path: Path) -> None:
    """The bot with a render worker: every turn message carries its picture, drawn there."""
    bot = make_bot(tmp_path / "games.sqlite3", render_workers=1)
    try:
        async with simcord.run(bot) as env:
            table = Table(env)
            assert images.POOL is not None and images.POOL.workers == 1
            game_id = await table.new()
            first = table.last()
            assert_png(env, first)
            manager = table.bot.manager
            view = await manager.decision(game_id)
            player = table.actor(view.user_id)
            thread = table.thread()
            offered = await player.autocomplete(
                thread, "carcassonne place", "rotation", "", cell="A"
            )
            await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])
            assert (await manager.decision(game_id)).turn > view.turn or view.phase != "tile"
            assert_png(env, table.last())
    finally:
        await close_bots()
    assert images.POOL is None, "the pool closes with the bot"
