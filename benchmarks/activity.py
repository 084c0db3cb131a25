"""The live board's speed: a move's way to 100 open boards, their memory, and the first paint.

Run: ``python -m benchmarks.activity [--clients 100] [--moves 40] [--paint 5]``.

- **Fan-out**: the bot's core (a game manager on a SQLite file) serves the live board
  (:class:`bot.activity.server.ActivityServer`, signing in through the local fake of Discord) in
  this process, as the bot does; a second process opens ``--clients`` WebSockets, each signed in
  as its own member of the game's server, all showing one running game. This process then plays
  ``--moves`` moves through ``play_turn`` (as a button does); for each, the delay from the move's
  acknowledgement (``play_turn`` returned: the move is stored and live) to its view's arrival at
  each board. Both processes read the same monotonic clock. Printed: p50, p95 and the worst over
  every (move, board), and what a board's message weighs.
- **Memory per board**: the server process's resident memory before the boards connect and once
  each has received its board, divided by the boards.
- **First paint** (``--paint`` runs, Debian's Chromium; skipped when it is missing): the page
  opened on a mid-game board through the SDK's mock, from navigation start to the board drawn
  (``window.activityState.paintedAt``, the page's own clock), and the page's total load.

Figures vary with the machine's load (printed beside them): compare builds in interleaved runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.load import rss_mb

GUILD, CHANNEL = 900, 901


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def clients_process(base: str, sessions: list[str], game: int, moves: int, out: Any) -> None:
    """The boards: one WebSocket per session; each board message's arrival time by version."""
    import aiohttp

    async def board(
        http: aiohttp.ClientSession,
        session: str,
        ready: asyncio.Event,
        count: list[int],
        arrivals: dict[int, list[float]],
        sizes: list[int],
    ) -> None:
        async with http.ws_connect(base + "/ws", max_msg_size=0) as ws:
            await ws.send_json({"type": "hello", "session": session, "game": game})
            first = True
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.monotonic()
                data = json.loads(message.data)
                if data["type"] != "board":
                    continue
                version = data["view"]["version"]
                arrivals.setdefault(version, []).append(now)
                sizes.append(len(message.data))
                if first:
                    first = False
                    count[0] += 1
                    if count[0] == len(sessions):
                        ready.set()
                if len(arrivals) > moves:
                    break

    async def run() -> None:
        ready = asyncio.Event()
        count = [0]
        arrivals: dict[int, list[float]] = {}
        sizes: list[int] = []
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            tasks = [
                asyncio.create_task(board(http, s, ready, count, arrivals, sizes)) for s in sessions
            ]
            await asyncio.wait_for(ready.wait(), 120)
            out.send(("ready", None))
            _, pending = await asyncio.wait(tasks, timeout=60 + moves * 5)
            for task in pending:
                task.cancel()
        out.send(("arrivals", (arrivals, statistics.median(sizes) if sizes else 0)))

    asyncio.run(run())


def rss() -> int:
    """This process's resident memory in bytes."""
    return round(rss_mb(os.getpid()) * 1024 * 1024)


async def fan_out(clients: int, moves: int, folder: Path) -> dict[str, Any]:
    import aiohttp

    from bot.activity.fake_discord import FakeDiscord
    from bot.activity.server import ActivityServer
    from bot.activity.settings import ActivitySettings
    from bot.manager import GameManager
    from engine import Pass

    manager = await GameManager.open(str(folder / "games.sqlite3"))
    discord = FakeDiscord("1", "secret")
    await discord.start()
    server = ActivityServer(manager, ActivitySettings(0, "127.0.0.1", "1", "secret", discord.base))
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    row = await manager.lobbies.create_lobby(1, "Ann", guild_id=GUILD, channel_id=CHANNEL)
    await manager.lobbies.join(row.id, 2, "Bo")
    view = await manager.lobbies.start(row.id, 1, seed=5)
    rng = random.Random(1)

    async def move() -> Any:
        nonlocal view
        if view.phase == "tile":
            action: Any = view.placements[rng.randrange(len(view.placements))]
        else:
            action = view.figures[0] if view.figures and rng.random() < 0.3 else Pass()
        result = await manager.play_turn(
            row.id, view.user_id or 0, action, turn=view.turn, phase=view.phase
        )
        view = result.view
        return result

    for _ in range(30):  # a mid-game board
        await move()
    sessions = []
    async with aiohttp.ClientSession() as http:
        for index in range(clients):
            user = 10_000 + index
            discord.add_user(user, f"Member {index}", {GUILD: 0})
            body = {"code": discord.code_for(user), "guild": str(GUILD), "channel": str(CHANNEL)}
            async with http.post(base + "/api/token", json=body) as answer:
                sessions.append((await answer.json())["session"])
    before = rss()
    mine, theirs = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=clients_process, args=(base, sessions, row.id, moves, theirs)
    )
    child.start()
    loop = asyncio.get_running_loop()
    kind, _ = await loop.run_in_executor(None, mine.recv)
    assert kind == "ready"
    await server.hub.settle()
    after = rss()
    acks: dict[int, float] = {}
    for _ in range(moves):
        await move()
        acks[len((await manager.engine_copy(row.id)).actions)] = time.monotonic()
        await server.hub.settle()
        await asyncio.sleep(0.05)
    kind, (arrivals, size) = await loop.run_in_executor(None, mine.recv)
    child.join(30)
    await server.close()
    await discord.close()
    await manager.close()
    delays = [
        (arrived - acks[version]) * 1000
        for version, times in arrivals.items()
        if version in acks
        for arrived in times
    ]
    missing = sum(clients - len(arrivals.get(v, ())) for v in acks)
    return {
        "clients": clients,
        "moves": moves,
        "delays": len(delays),
        "missing": missing,
        "p50_ms": quantile(delays, 0.5),
        "p95_ms": quantile(delays, 0.95),
        "max_ms": max(delays),
        "message_bytes": size,
        "memory_per_board_kb": (after - before) / clients / 1024,
    }


async def mid_game_board(folder: Path) -> tuple[Any, Any, Any, Any, str, int]:
    """A served mid-game board (30 moves in); the page's address for a member, its tiles."""
    from bot.activity.fake_discord import FakeDiscord
    from bot.activity.server import ActivityServer
    from bot.activity.settings import ActivitySettings
    from bot.manager import GameManager
    from engine import Pass

    manager = await GameManager.open(str(folder / "paint.sqlite3"))
    discord = FakeDiscord("1", "secret")
    await discord.start()
    server = ActivityServer(manager, ActivitySettings(0, "127.0.0.1", "1", "secret", discord.base))
    await server.start()
    row = await manager.lobbies.create_lobby(1, "Ann", guild_id=GUILD, channel_id=CHANNEL)
    await manager.lobbies.join(row.id, 2, "Bo")
    view = await manager.lobbies.start(row.id, 1, seed=5)
    rng = random.Random(1)
    for _ in range(60):
        if view.phase == "tile":
            action: Any = view.placements[rng.randrange(len(view.placements))]
        else:
            action = view.figures[0] if view.figures and rng.random() < 0.3 else Pass()
        view = (
            await manager.play_turn(
                row.id, view.user_id or 0, action, turn=view.turn, phase=view.phase
            )
        ).view
    discord.add_user(3, "Chloé", {GUILD: 0})
    code = discord.code_for(3, again=True)
    address = f"http://127.0.0.1:{server.port}/?mock=1&guild={GUILD}&channel={CHANNEL}&code={code}"
    tiles = len((await manager.engine_copy(row.id)).board.tiles)
    return manager, discord, server, None, address, tiles


def first_paint(runs: int) -> dict[str, Any] | None:
    """Open the page on a mid-game board ``runs`` times in Chromium (None without it): from
    navigation start to the board drawn, the first run with nothing cached, the others warm."""
    from benchmarks import chromium
    from bot.activity.page import sdk_bundled

    if chromium.missing() or not sdk_bundled():
        return None
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    with tempfile.TemporaryDirectory() as folder:
        made = asyncio.run_coroutine_threadsafe(mid_game_board(Path(folder)), loop).result(120)
        manager, discord, server, _, address, tiles = made
        times: list[float] = []
        try:
            with chromium.chromium("paint") as driver:
                for _ in range(runs):
                    driver.get("about:blank")
                    driver.get(address)
                    end = time.monotonic() + 30
                    painted = None
                    while painted is None and time.monotonic() < end:
                        painted = driver.execute_script(
                            "return (window.activityState || {}).paintedAt"
                        )
                        time.sleep(0.01)
                    if painted is None:
                        raise RuntimeError("the page never drew the board")
                    times.append(float(painted))
        finally:

            async def close() -> None:
                await server.close()
                await discord.close()
                await manager.close()

            asyncio.run_coroutine_threadsafe(close(), loop).result(60)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
    warm = times[1:] or times
    return {
        "runs": runs,
        "tiles": tiles,
        "cold_ms": times[0],
        "median_ms": statistics.median(warm),
        "min_ms": min(warm),
        "max_ms": max(warm),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--paint", type=int, default=5, help="first-paint runs (0: none)")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        found = asyncio.run(fan_out(args.clients, args.moves, Path(folder)))
    print(
        f"fan-out, {found['clients']} boards x {found['moves']} moves: move stored -> board "
        f"p50 {found['p50_ms']:.1f} ms, p95 {found['p95_ms']:.1f} ms, worst "
        f"{found['max_ms']:.1f} ms ({found['delays']} arrivals, {found['missing']} missing); "
        f"a board message {found['message_bytes'] / 1024:.1f} KiB"
    )
    print(f"memory per open board: {found['memory_per_board_kb']:.0f} KiB (server process)")
    if args.paint:
        painted = first_paint(args.paint)
        if painted is None:
            print("first paint: Chromium or the SDK bundle (scripts/activity-sdk) missing")
        else:
            print(
                f"first paint of a mid-game board ({painted['tiles']} tiles), from navigation "
                f"start to the board drawn: {painted['cold_ms']:.0f} ms with nothing cached; "
                f"then median {painted['median_ms']:.0f} ms, range {painted['min_ms']:.0f}-"
                f"{painted['max_ms']:.0f} ms over {painted['runs'] - 1} warm runs"
            )
    if found["missing"]:
        raise SystemExit(f"{found['missing']} board messages never arrived: the fan-out fails")
    load = os.getloadavg()
    print(f"load average after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
