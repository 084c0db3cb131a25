"""One bot process of :mod:`benchmarks.cluster`: the real game manager and scheduler on the shared
PostgreSQL database, its players, and a notifier that posts each notice as one file.

Every move a player sends is an *attempt*, logged before it is sent and again with its answer
(``ok`` with the position the manager reported, ``refused`` for a refusal, ``failed`` for an
error, which a player reads as "nothing was played", ``unsure``), one JSON line each in the
process's log, as a player would remember what the bot told them. Each attempt runs on a clock
of its own (the manager's clock is injectable): the time it is sent, which the stored action
carries, so the checks find an attempt's action among the stored ones exactly.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import itertools
import json
import math
import os
import random
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.computers import ComputerPlayers
from bot.errors import GameOver, ManagerError, NotActive, Unsure
from bot.manager import GameManager
from bot.outcomes import TurnView
from bot.scheduler import ForcedTurn, Scheduler
from bot.storage import Deadline, GameRow, GuildSettings, UserSettings
from bot.storage.postgres import open_postgres
from engine import Action, Pass, action_from_json

#: The time of the attempt in progress in this task (None: the time now).
SENT_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar("sent_at", default=None)
#: A failed attempt is sent again this many times at most (a player clicking again).
RESENDS = 3


def attempt_clock() -> float:
    """The manager's clock: an attempt's own time in its task, else the time now."""
    return SENT_AT.get() or time.time()


class RecordingNotifier:
    """One file per notice in a shared folder, created exclusively: a second creation of the
    same notice is a duplicate; a notice sent ``again`` is skipped if its file exists (as the
    Discord notifier looks in the channel first)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _send(self, name: str, again: bool) -> None:
        try:
            fd = os.open(self.folder / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if not again:
                with open(self.folder / f"duplicate-{name}-{os.getpid()}", "w"):
                    pass
            return
        os.close(fd)

    async def turn_started(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._send(f"start-{game.id}-{deadline.turn}", again)

    async def reminder(
        self, game: GameRow, user: UserSettings, deadline: Deadline, *, again: bool = False
    ) -> None:
        self._send(f"reminder-{game.id}-{deadline.turn}", again)

    async def forced(self, game: GameRow, result: ForcedTurn, *, again: bool = False) -> None:
        self._send(f"timeout-{game.id}-{result.turn}", again)

    async def resumed(self, game: GameRow, user: UserSettings, deadline: Deadline) -> None:
        pass

    async def clock_resumed(self, game: GameRow) -> None:
        pass

    async def digest(self, guild: GuildSettings, lines: Any) -> None:
        pass


@dataclass(frozen=True)
class Plan:
    """What this process's players do (see :mod:`benchmarks.cluster` for the options)."""

    index: int
    folder: Path
    players: int
    thinkers: int
    hot: Sequence[int]
    timed: Sequence[int]
    focus: int
    pace: float
    fast: bool = False
    games: Sequence[int] = ()


class Players:
    """The players of one process and their log of attempts."""

    def __init__(self, manager: GameManager, plan: Plan) -> None:
        self.manager = manager
        self.plan = plan
        self.rng = random.Random(os.getpid())
        path = plan.folder / f"attempts-{plan.index}.log"
        self.earlier = path.read_text().splitlines() if path.exists() else []
        self.log = os.open(path, os.O_CREAT | os.O_APPEND | os.O_WRONLY)
        self.ids = itertools.count()
        self.finished: set[int] = set()
        #: Set by the driver's SIGUSR1: the next attempt arms this process's SIGKILL, so
        #: that it dies between a move's send and its answer.
        self.doomed = False

    def unique_time(self, number: int) -> float:
        """The time now, to the millisecond, with this attempt's own microseconds (the
        process's index and the attempt's number): no two attempts of the run share it, so
        the stored action that carries it is this attempt's."""
        return math.floor(time.time() * 1000) / 1000 + ((number % 100) * 10 + self.plan.index) / 1e6

    def write(self, *fields: Any) -> None:
        os.write(self.log, (json.dumps(fields) + "\n").encode())

    # -- attempts -----------------------------------------------------------------------------

    async def attempt(self, view: TurnView, action: Action) -> str:
        """Send one move for the player in turn in ``view``; its answer, logged."""
        data = action.to_json()
        number = next(self.ids)
        name = f"{self.plan.index}-{os.getpid()}-{number}"
        sent = self.unique_time(number)
        fields = (name, view.game_id, view.turn, view.phase, view.seat, view.user_id, data, sent)
        if not self.plan.fast:  # a process killed now leaves its move without an answer
            self.write("sent", *fields)
        if self.doomed:  # die with this move in flight: after it is sent, before its answer
            self.doomed = False
            loop = asyncio.get_running_loop()
            loop.call_later(self.rng.uniform(0, 0.004), os.kill, os.getpid(), signal.SIGKILL)
        token = SENT_AT.set(sent)
        try:
            assert view.user_id is not None
            result = await self.manager.play_turn(
                view.game_id, view.user_id, action, turn=view.turn, phase=view.phase
            )
        except Unsure:
            self.write("unsure", *fields, None)
            return "unsure"
        except (GameOver, NotActive):
            self.finished.add(view.game_id)
            self.write("refused", *fields, "over")
            return "refused"
        except ManagerError as error:
            self.write("refused", *fields, type(error).__name__)
            return "refused"
        except Exception as error:  # the player reads "nothing was played"
            self.write("failed", *fields, type(error).__name__)
            return "failed"
        finally:
            SENT_AT.reset(token)
        self.write("ok", *fields, result.view.game.action_count - len(result.played))
        if result.view.finished:
            self.finished.add(view.game_id)
        return "ok"

    async def send(self, view: TurnView, action: Action) -> str:
        """An attempt, sent again while it fails (the player clicks again)."""
        answer = first = await self.attempt(view, action)
        for _ in range(RESENDS):
            if answer not in ("failed", "unsure"):
                break
            await asyncio.sleep(self.rng.uniform(0.01, 0.1))
            answer = await self.attempt(view, action)
        return first if answer == "refused" else answer

    async def resend_unanswered(self) -> None:
        """The moves a killed process sent and never answered: their players send them again
        (the game has moved on, or not)."""
        sent = {}
        for line in self.earlier:
            fields = json.loads(line)
            if fields[0] == "sent":
                sent[fields[1]] = fields
            else:
                sent.pop(fields[1], None)
        for _, _, game_id, turn, phase, seat, user, data, _ in sent.values():
            try:
                view = await self.manager.decision(game_id)
            except Exception:
                continue
            stamp = dataclasses.replace(view, turn=turn, phase=phase, seat=seat, user_id=user)
            await self.send(stamp, action_from_json(data))

    # -- players ------------------------------------------------------------------------------

    def choose(self, view: TurnView) -> Action:
        if view.phase == "tile":
            return self.rng.choice(view.placements)
        pick = self.rng.randrange(len(view.figures) + 1)
        return view.figures[pick] if pick < len(view.figures) else Pass()

    def hot_games(self) -> list[int]:
        """The hot games everyone plays now: the first unfinished ones."""
        return [g for g in self.plan.hot if g not in self.finished][: self.plan.focus]

    async def play(self, number: int, resting: Path) -> None:
        """One player of the hot games (or, in ``--fast``, of their own games)."""
        rng = random.Random(os.getpid() * 100 + number)
        own = self.plan.games[number :: self.plan.players]
        while not resting.exists():
            if self.plan.pace:
                await asyncio.sleep(rng.uniform(0, 2 * self.plan.pace))
            hot = self.hot_games()
            if not (own or hot):
                await asyncio.sleep(1.0)
                continue
            game_id = rng.choice(own or hot)
            if await self.turn(game_id) not in ("ok", "refused", None):
                await self.turn(game_id)  # after a failure, the player plays on in that game

    async def think(self, number: int, resting: Path) -> None:
        """One player of the timed games: they think up to 4 s, so the timeouts race them."""
        rng = random.Random(os.getpid() * 100 + 50 + number)
        while self.plan.timed and not resting.exists():
            await self.turn(rng.choice(self.plan.timed), rng.uniform(0, 4))

    async def turn(self, game_id: int, thinking: float = 0.0) -> str | None:
        """The player in turn in ``game_id`` moves (after ``thinking`` seconds); the answer
        (None: no move)."""
        try:
            view = await self.manager.decision(game_id)
        except Exception:
            return None
        if view.finished:
            self.finished.add(game_id)
        if view.finished or view.user_id is None or view.user_id < 0:
            return None
        await asyncio.sleep(thinking)
        return await self.send(view, self.choose(view))


async def work(url: str, plan: Plan) -> None:
    storage = await open_postgres(url, pool_size=plan.players + plan.thinkers + 2)
    manager = GameManager(storage, clock=attempt_clock, computers=ComputerPlayers(workers=0))
    notifier = RecordingNotifier(plan.folder / "notices")
    scheduler = Scheduler(manager, notifier, clock=time.time, interval=0.25, lease=2.0, batch=200)
    players = Players(manager, plan)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    loop.add_signal_handler(signal.SIGUSR1, lambda: setattr(players, "doomed", True))
    scheduler.start()
    resting = plan.folder / "rest"  # the driver's sign that the moves are done: drain
    try:
        await players.resend_unanswered()
        await asyncio.gather(
            *(players.play(n, resting) for n in range(plan.players)),
            *(players.think(n, resting) for n in range(plan.thinkers)),
        )
        await stopping.wait()  # the scheduler runs on until the driver stops it
    finally:
        await scheduler.stop()  # the tick in progress finishes: no notice left half-sent
        await manager.close()
        os.close(players.log)
