"""``python -m bot.activity``: the live board outside Discord, for development.

Serves the board on loopback with the local fake of Discord's sign-in
(:mod:`bot.activity.fake_discord`) and a game on a scratch database whose seats play random legal
moves every few seconds, and prints the page's addresses (the SDK's mock signs in as a player or
as a member watching). Never for players: the fake signs anyone in as anyone, so it listens on
127.0.0.1 only.

    python -m bot.activity --port 8090 --seconds 3 --game hunters
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
from pathlib import Path

from bot.activity.fake_discord import FakeDiscord
from bot.activity.server import ActivityServer
from bot.activity.settings import ActivitySettings
from bot.manager import GameManager
from engine import Action, Pass

GUILD, CHANNEL = 1, 2
CLIENT_ID, SECRET = "1", "development"
NAMES = ("Ann", "Björn", "Chloé", "Dev", "Eun-ji", "Femi")


async def serve(args: argparse.Namespace, folder: Path) -> None:
    manager = await GameManager.open(str(folder / "games.sqlite3"))
    discord = FakeDiscord(CLIENT_ID, SECRET)
    await discord.start()
    settings = ActivitySettings(args.port, "127.0.0.1", CLIENT_ID, SECRET, discord.base)
    server = ActivityServer(manager, settings)
    await server.start()
    names = NAMES[: args.players]
    row = await manager.lobbies.create_lobby(
        1, names[0], guild_id=GUILD, channel_id=CHANNEL, game=args.game, expansions=args.expansion
    )
    for user, name in enumerate(names[1:], start=2):
        await manager.lobbies.join(row.id, user, name)
    view = await manager.lobbies.start(row.id, 1, seed=args.seed)
    for user, name in enumerate((*names, "Spectator"), start=1):
        discord.add_user(user, name, {GUILD: 0})
        code = discord.code_for(user, again=True)
        print(
            f"{name:>10}: http://127.0.0.1:{server.port}/"
            f"?mock=1&guild={GUILD}&channel={CHANNEL}&code={code}"
        )
    rng = random.Random(args.seed)
    try:
        while not view.finished:
            await asyncio.sleep(args.seconds)
            if view.phase == "tile":
                action: Action = view.placements[rng.randrange(len(view.placements))]
            else:
                pick = rng.randrange(len(view.figures) + 2)
                action = view.figures[pick] if pick < len(view.figures) else Pass()
            result = await manager.play_turn(
                row.id, view.user_id or 0, action, turn=view.turn, phase=view.phase
            )
            view = result.view
        print("the game is over; Ctrl-C stops the server")
        await asyncio.Event().wait()
    finally:
        await server.close()
        await discord.close()
        await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8090, help="0: any free port")
    parser.add_argument("--players", type=int, default=3, choices=range(2, 7))
    parser.add_argument("--seconds", type=float, default=3.0, help="between moves")
    parser.add_argument("--game", default="carcassonne", help="carcassonne, hunters, castle")
    parser.add_argument("--expansion", action="append", default=None, help="again for more")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args, Path(folder)))


if __name__ == "__main__":
    main()
