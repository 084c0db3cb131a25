"""How many interactions a turn takes on Discord, through the real bot and its buttons.

Run: ``python -m benchmarks.turn_ux [--games N] [--seed S]``. Each game runs in simcord (the real
discord.py against an in-process fake of Discord) from ``/carcassonne new`` to the final scores.
At every decision the bot asks for (a turn message), the deciding player picks uniformly at random
among the complete moves the interface offers (a square and rotation, then a figure spot or No
figure, a figure on a step's second page costing the tap to it; a wagon target or taking it
back; an end-game abbey hole or No abbey; in The Castle, End my turn when it stays open, and,
every other time one is offered, a wall tile: its button or its entry in the wall-tile menu,
then Confirm) and enters it the shortest way the interface allows. Every click, menu choice or
command counts, menu paging included ("More squares", a step's second page). Prints
interactions per decision (mean, min, max) per game family, and the wall tiles played with the
most interactions one took.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import CarcassonneBot, Settings

FAMILIES: list[tuple[str, dict[str, Any], int]] = [
    ("Carcassonne", {}, 2),
    ("Carcassonne, tactical hand", {"hand": True}, 3),
    ("Abbey & Mayor", {"expansion": "abbey_mayor"}, 4),
    ("Inns & Cathedrals", {"expansion": "inns_cathedrals"}, 3),
    ("Traders & Builders", {"expansion": "traders_builders"}, 3),
    ("The River", {"expansion": "river"}, 2),
    ("Big Box, The River, Abbey & Mayor", {"expansion": "all"}, 3),
    ("Hunters & Gatherers", {"game": "hunters"}, 3),
    ("The Castle", {"game": "castle"}, 2),
]


def components(message: Any) -> list[dict[str, Any]]:
    rows = message.components if isinstance(message.components, list) else []
    found: list[dict[str, Any]] = []
    for row in rows:
        data = row if isinstance(row, dict) else row.to_dict()
        found.extend(data.get("components", [data]))
    return found


def ids(message: Any, prefix: str) -> list[str]:
    return [
        c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith(prefix)
    ]


def menus(message: Any, prefix: str) -> list[tuple[str, str]]:
    """(menu id, value) of every option of the menus whose id starts with ``prefix``."""
    return [
        (c["custom_id"], o["value"])
        for c in components(message)
        if c.get("custom_id", "").startswith(prefix)
        for o in c.get("options", [])
    ]


#: A step's page button: a rotation button's id with the page as its choice (``...:p2``).
PAGE = re.compile(r":p\d+$")


def step_options(step: Any) -> list[tuple[str, str | None]]:
    """The complete moves a step offers: its figure buttons, No figure, its menu's options."""
    found: list[tuple[str, str | None]] = [(i, None) for i in ids(step, "cc:ok:")]
    return found + [(m, v) for m, v in menus(step, "cc:fs:")]


async def live_step(bot: CarcassonneBot, game_id: int, user: int) -> Any:
    shown = bot.steps[(game_id, user)]
    shown[0]._original_response = None
    return await shown[0].original_response()


async def decide(
    thread: Any,
    bot: CarcassonneBot,
    game_id: int,
    actor: Any,
    rng: random.Random,
    walls: list[int] | None = None,
) -> int:
    """Answer the decision of the last turn message with a random complete move; returns the
    interactions it took (a wall tile's are also added to ``walls``)."""
    prompt = thread.last_message
    count = 0
    wall_menu = menus(prompt, "cc:wsel:")
    wall_button = ids(prompt, "cc:wall:")
    if (wall_menu or wall_button) and rng.random() < 0.5:  # The Castle: a wall tile
        if wall_button:
            shown = await actor.click(prompt, custom_id=wall_button[0])
        else:
            menu_id, value = rng.choice(wall_menu)
            shown = await actor.select(prompt, [value], custom_id=menu_id)
        await actor.click(shown.response, custom_id=ids(shown.response, "cc:wok:")[0])
        if walls is not None:
            walls.append(2)
        return 2
    if ids(prompt, "cc:hand:"):  # the tactical hand: open it first
        opened = await actor.click(prompt, custom_id=ids(prompt, "cc:hand:")[0])
        count += 1
        prompt = opened.followups[-1] if opened.followups else opened.response
    puts = menus(prompt, "cc:put:")
    more = ids(prompt, "cc:more:")
    walls_end = ids(prompt, "cc:wend:")
    wagons = menus(prompt, "cc:wag:")
    holes = menus(prompt, "cc:hole:")
    if puts or more:
        extra: list[tuple[str, str]] = []
        if more:
            shown = await actor.click(prompt, custom_id=more[0])
            page = shown.response
            extra = [(m, v) for m, v in menus(page, "cc:put:")]
            choices = [(prompt, m, v, 1) for m, v in puts] + [(page, m, v, 2) for m, v in extra]
        else:
            choices = [(prompt, m, v, 1) for m, v in puts]
        message, menu_id, value, cost = rng.choice(choices)
        await actor.select(message, [value], custom_id=menu_id)
        count += cost
        step = await live_step(bot, game_id, actor.id)
        # A tile with more places than one picture numbers shows the others on a second page,
        # a button apart: a choice there costs that tap too.
        first_page = step_options(step)
        found: list[tuple[tuple[str, str | None], str | None]] = [(o, None) for o in first_page]
        page_ids = [i for i in ids(step, "cc:pl:") if PAGE.search(i)]
        back: str | None = None
        for page_id in page_ids:
            await actor.click(step, custom_id=page_id)
            step = await live_step(bot, game_id, actor.id)
            back = back or next((i for i in ids(step, "cc:pl:") if PAGE.search(i)), None)
            found += [(o, page_id) for o in step_options(step) if o not in first_page]
        (target, chosen), page = rng.choice(found)
        if page_ids and page is None and back is not None:  # looked at the pages: go back
            await actor.click(step, custom_id=back)
            step = await live_step(bot, game_id, actor.id)
        elif page is not None and page != page_ids[-1]:
            await actor.click(step, custom_id=page)
            step = await live_step(bot, game_id, actor.id)
        if chosen is None:
            await actor.click(step, custom_id=target)
        else:
            await actor.select(step, [chosen], custom_id=target)
        return count + 1 + (page is not None)
    if wagons:
        menu_id, value = rng.choice(wagons)
        chosen = await actor.select(prompt, [value], custom_id=menu_id)
        await actor.click(chosen.response, custom_id=ids(chosen.response, "cc:ok:")[0])
        return 2
    if holes or ids(prompt, "cc:ok:"):
        no_abbey = ids(prompt, "cc:ok:")
        if holes and (not no_abbey or rng.random() < 0.5):
            menu_id, value = rng.choice(holes)
            await actor.select(prompt, [value], custom_id=menu_id)
            step = await live_step(bot, game_id, actor.id)
            await actor.click(step, custom_id=rng.choice(ids(step, "cc:ok:")))
            return 2
        await actor.click(prompt, custom_id=no_abbey[0])
        return 1
    if walls_end:
        await actor.click(prompt, custom_id=walls_end[0])
        return 1
    raise RuntimeError(f"no decision to answer in {prompt.content!r}")


Inspect = Callable[[simcord.Env, Any], None]
#: The Castle's wall tiles on its towers in track order: those played by hand (1-3) first, so
#: that a game of random moves comes to play some (with a random deal most games never do).
WALL_DRAW = (1, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 4)


async def play(
    family: str,
    options: dict[str, Any],
    players: int,
    seed: int,
    inspect: Inspect | None = None,
    walls: list[int] | None = None,
) -> list[int]:
    """Interactions per decision of one full game; ``inspect`` sees every turn message;
    ``walls`` collects the interactions of each wall tile played (The Castle)."""
    with tempfile.TemporaryDirectory() as folder:
        bot = CarcassonneBot(
            Settings(
                token="bench",
                database=str(Path(folder) / "ux.sqlite3"),
                log_level="WARNING",
                dev_guild=None,
                shard_count=1,
            )
        )
        # A hang detector only: generous, since the machine may be shared (as in the tests).
        async with simcord.run(bot, check_errors=False, settle_timeout=60.0) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            people = [guild.add_member(env.create_user(f"p{i}")) for i in range(players)]
            await people[0].slash(channel, "carcassonne new", **options)
            lobby = channel.last_message
            assert lobby is not None
            found = re.search(r"\d+", lobby.embeds[0].title or "")
            assert found is not None
            game_id = int(found[0])
            for person in people[1:]:
                await person.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
            if options.get("game") == "castle":  # the wall tiles played by hand on the towers
                row = await bot.manager.game(game_id)
                extra = {**(row.setup_extra or {}), "wall_draw": list(WALL_DRAW)}
                await bot.manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
            bot.manager.seeds = lambda: seed
            await people[0].click(lobby, custom_id=f"cc:lobby:{game_id}:start")
            thread = channel.threads[-1]
            rng = random.Random(seed)
            counts: list[int] = []
            for _ in range(2000):
                view = await bot.manager.decision(game_id)
                if view.finished:
                    break
                actor = next(p for p in people if p.id == view.user_id)
                if inspect is not None:
                    inspect(env, thread.last_message)
                counts.append(await decide(thread, bot, game_id, actor, rng, walls))
            await bot.close_database()
            return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1, help="games per family")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    print(f"{'family':28} {'games':>5} {'decisions':>9} {'mean':>6} {'min':>4} {'max':>4}  seconds")
    for family, options, players in FAMILIES:
        started = time.perf_counter()
        counts: list[int] = []
        walls: list[int] = []
        for game in range(args.games):
            counts += asyncio.run(play(family, options, players, args.seed + game, walls=walls))
        print(
            f"{family:28} {args.games:>5} {len(counts):>9} {statistics.fmean(counts):>6.2f} "
            f"{min(counts):>4} {max(counts):>4}  {time.perf_counter() - started:.0f}"
        )
        if walls:
            print(
                f"{'  its wall tiles played':28} {'':>5} {len(walls):>9} {'':>6} {'':>4} "
                f"{max(walls):>4}"
            )


if __name__ == "__main__":
    main()
