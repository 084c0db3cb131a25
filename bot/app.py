"""Start-up: read the settings from the environment, build the bot, run it.

:class:`CarcassonneBot` owns the storage (migrated when it opens) and the game manager; its
``setup_hook`` installs the translator, the ``/carcassonne`` group and the persistent components,
then syncs the commands deliberately: to one guild when ``DISCORD_DEV_GUILD`` is set (instant,
for development), otherwise globally, and not at all when ``SYNC_COMMANDS=0`` (restarts that do
not change the commands need no sync, and Discord rate-limits it). Last it starts the
play-by-post scheduler (:mod:`bot.scheduler`): a ``discord.ext.tasks`` loop ticking every
``SCHEDULER_SECONDS``; ``close`` stops it after the tick in progress.

The manager and the scheduler read the time from :func:`discord_clock`, so deadlines follow the
same clock as Discord's timestamps (and simulated time in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import logs, metrics
from bot.activity.settings import ActivityConfigError, ActivitySettings
from bot.errors import ManagerError
from bot.live import ENGINE_STATES, LIVE_GAMES
from bot.logs import FORMATS
from bot.storage.backends import shown

if TYPE_CHECKING:
    from bot.activity.server import ActivityServer
    from bot.alarm import Alarm
    from bot.manager import GameManager
    from bot.monitor import Monitor
    from bot.render_pool import RenderPool
    from bot.scheduler import Scheduler
    from bot.storage.sql import Storage
    from bot.ui.timing.heads_up import HeadsUp
    from bot.ui.turn.computer_turns import ComputerTurns
    from bot.ui.watching.dashboard import Dashboards

log = logging.getLogger("carcassonne")

DEFAULT_DB = "carcassonne.sqlite3"
#: How often the scheduler looks for due deadlines, in seconds.
DEFAULT_TICK = 30.0


def database_of(env: Mapping[str, str]) -> str:
    """``DATABASE_URL`` (PostgreSQL) if set, else ``CARCASSONNE_DB`` (a SQLite file)."""
    url = env.get("DATABASE_URL", "").strip()
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            raise SystemExit(
                "DATABASE_URL must be a PostgreSQL URL such as "
                f"postgresql://user:password@host:5432/carcassonne, got {shown(url)!r}; "
                "leave it unset to use the SQLite file of CARCASSONNE_DB"
            )
        return url
    return env.get("CARCASSONNE_DB", "").strip() or DEFAULT_DB


def shards_of(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (``0,1`` or ``0-3``): the shards this process runs."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise SystemExit("SHARD_IDS needs SHARD_COUNT: the number of shards of all processes")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 4096:
        raise SystemExit(f"SHARD_COUNT must be a number from 1 to 4096, got {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.replace(" ", "").split(","):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise SystemExit(f"SHARD_IDS must look like 0,1,2 or 0-3, got {ids_text!r}")
        ids.extend(range(int(low), int(high or low) + 1))
    if not ids or any(i >= count for i in ids) or len(set(ids)) != len(ids):
        raise SystemExit(
            f"SHARD_IDS must name distinct shards from 0 to {count - 1}, got {ids_text!r}"
        )
    return count, tuple(sorted(ids))


def discord_clock() -> float:
    """Unix seconds by Discord's clock helper (which simcord moves in simulated time)."""
    return discord.utils.utcnow().timestamp()


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment, read once at start-up."""

    token: str
    database: str
    log_level: str
    dev_guild: int | None
    sync_commands: bool = True
    tick_seconds: float = DEFAULT_TICK
    #: Worker processes deciding computer players' turns (0: one thread of the bot's process).
    computer_workers: int = 1
    #: Seconds between two computer moves in a row, so that players can follow them.
    computer_pace: float = 1.5
    #: Discord shards in all (None: as many as Discord recommends) and the ones this process
    #: runs (None: all of them); several processes each run their own ids on one database.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: Where the tile art cache lives (see renderer.artcache); None: no disk cache.
    art_cache: str | None = None
    #: Render worker processes for every picture (0: threads of the bot's process).
    render_workers: int = 0
    #: Worker processes computing game reviews, one decision per task (0: one thread of the
    #: bot's process).
    review_workers: int = 1
    #: The expert's positions per decision of a review (None: ``ai.review.REVIEW_BUDGET``).
    review_budget: int | None = None
    #: Games kept in memory, ready to move without a replay (see bot.live.LIVE_GAMES).
    live_games: int = LIVE_GAMES
    #: Of them, the most recently used that keep their engine state (see
    #: bot.live.ENGINE_STATES); the others rebuild it from their log at their next use.
    engine_states: int = ENGINE_STATES
    #: The address of the hosted viewer page (``python -m renderer viewer``): ``/carcassonne
    #: replay`` then shows a link button to the game there; None: no button.
    viewer_url: str | None = None
    #: The live board is served (``ACTIVITY_PORT``, with ``DISCORD_CLIENT_ID`` and
    #: ``DISCORD_CLIENT_SECRET``): turn messages show Play on the board and the sync creates the
    #: Entry Point command when the application has none (see bot.ui.live_board).
    activity: ActivitySettings | None = None
    #: Where :mod:`bot.monitor` serves the metrics and health checks (None: nowhere; 0: any
    #: free port) and on which address.
    metrics_port: int | None = None
    metrics_host: str = "0.0.0.0"
    #: ``text`` or ``json`` (one JSON object per line, see :mod:`bot.logs`).
    log_format: str = "text"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit(
                "DISCORD_TOKEN is not set. Create a bot at "
                "https://discord.com/developers/applications, copy its token, then run:\n"
                "  DISCORD_TOKEN=your-token scripts/start"
            )
        guild = env.get("DISCORD_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DISCORD_DEV_GUILD must be a server id (digits), got {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in logging.getLevelNamesMapping():
            raise SystemExit(
                f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL; got {level!r}"
            )
        sync = env.get("SYNC_COMMANDS", "1").strip().lower()
        if sync not in ("0", "1", "true", "false", "yes", "no"):
            raise SystemExit(f"SYNC_COMMANDS must be 1 or 0, got {sync!r}")
        tick_text = env.get("SCHEDULER_SECONDS", "").strip() or str(DEFAULT_TICK)
        try:
            tick = float(tick_text)
        except ValueError:
            tick = math.nan
        if not 1 <= tick <= 3600:
            raise SystemExit(
                f"SCHEDULER_SECONDS must be a number of seconds from 1 to 3600, got {tick_text!r}"
            )
        workers = env.get("COMPUTER_WORKERS", "1").strip() or "1"
        if not workers.isdigit() or int(workers) > 64:
            raise SystemExit(f"COMPUTER_WORKERS must be a number from 0 to 64, got {workers!r}")
        shard_count, shard_ids = shards_of(env)
        renders = env.get("RENDER_WORKERS", "").strip()
        if renders and (not renders.isdigit() or int(renders) > 64):
            raise SystemExit(f"RENDER_WORKERS must be a number from 0 to 64, got {renders!r}")
        from bot.render_pool import default_workers

        render_workers = int(renders) if renders else default_workers()
        reviews = env.get("REVIEW_WORKERS", "1").strip() or "1"
        if not reviews.isdigit() or int(reviews) > 64:
            raise SystemExit(f"REVIEW_WORKERS must be a number from 0 to 64, got {reviews!r}")
        budget = env.get("REVIEW_BUDGET", "").strip()
        if budget and (not budget.isdigit() or not 1 <= int(budget) <= 1_000_000):
            raise SystemExit(f"REVIEW_BUDGET must be a number from 1 to 1000000, got {budget!r}")
        live = env.get("LIVE_GAMES", "").strip() or str(LIVE_GAMES)
        if not live.isdigit() or not 1 <= int(live) <= 1_000_000:
            raise SystemExit(f"LIVE_GAMES must be a number from 1 to 1000000, got {live!r}")
        states = env.get("ENGINE_STATES", "").strip() or str(ENGINE_STATES)
        if not states.isdigit() or not 1 <= int(states) <= 1_000_000:
            raise SystemExit(f"ENGINE_STATES must be a number from 1 to 1000000, got {states!r}")
        art = env.get("ART_CACHE", "").strip()
        if art.lower() in ("off", "none", "0"):
            art_cache = None
        else:
            from renderer.artcache import default_folder

            art_cache = art or str(default_folder())
        log_format = env.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in FORMATS:
            raise SystemExit(f"LOG_FORMAT must be text or json, got {log_format!r}")
        return cls(
            metrics_port=metrics_port_of(env),
            metrics_host=env.get("METRICS_HOST", "").strip() or "0.0.0.0",
            log_format=log_format,
            viewer_url=viewer_url_of(env),
            activity=activity_of(env),
            art_cache=art_cache,
            render_workers=render_workers,
            review_workers=int(reviews),
            review_budget=int(budget) if budget else None,
            live_games=int(live),
            engine_states=int(states),
            token=token,
            database=database_of(env),
            shard_count=shard_count,
            shard_ids=shard_ids,
            log_level=level,
            dev_guild=int(guild) if guild else None,
            sync_commands=sync in ("1", "true", "yes"),
            tick_seconds=tick,
            computer_workers=int(workers),
        )


def metrics_port_of(env: Mapping[str, str]) -> int | None:
    """``METRICS_PORT``: the port of the metrics and health checks (unset: none are served)."""
    text = env.get("METRICS_PORT", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) > 65535:
        raise SystemExit(
            f"METRICS_PORT must be a port number from 1 to 65535 (0: any free port), got {text!r}"
        )
    return int(text)


def viewer_url_of(env: dict[str, str]) -> str | None:
    """``VIEWER_URL``: the hosted viewer's address, short enough that a game's link (the
    address, ``#`` and a code of up to 400 letters) stays within Discord's 512 for a button."""
    url = env.get("VIEWER_URL", "").strip()
    if not url:
        return None
    from bot.ui.watching.viewer import MAX_BASE

    if not url.startswith(("https://", "http://")) or "#" in url or " " in url:
        raise SystemExit(
            f"VIEWER_URL must be the http(s) address of the viewer page, without #, got {url!r}"
        )
    if len(url) > MAX_BASE:
        raise SystemExit(
            f"VIEWER_URL must be at most {MAX_BASE} characters (a game's code takes the rest of "
            f"the 512 Discord allows in a link), got {len(url)}"
        )
    return url


def activity_of(env: Mapping[str, str]) -> ActivitySettings | None:
    """The live board's settings (the Discord Activity): served when ``ACTIVITY_PORT`` is set,
    which needs the application's ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` (its
    players sign in with them); see :mod:`bot.activity.settings`."""
    try:
        return ActivitySettings.from_env(env)
    except ActivityConfigError as error:
        raise SystemExit(str(error)) from None


class CarcassonneBot(discord.AutoShardedClient):
    """The Discord client: owns the storage and the game manager, installs the commands.

    Sharded (discord.py's ``AutoShardedClient``): one process runs every shard by default;
    with ``SHARD_COUNT``/``SHARD_IDS`` several processes share the shards and one database."""

    def __init__(self, settings: Settings) -> None:
        # Slash commands and components need no privileged intent (no message content).
        intents = discord.Intents.default()
        # Voice is never used: discord.py's warnings about voice libraries are noise for hosts.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # User text may hold @everyone or a role mention: only user mentions ever ping.
        mentions = discord.AllowedMentions(
            everyone=False, users=True, roles=False, replied_user=False
        )
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(intents=intents, allowed_mentions=mentions, **shards)
        self.settings = settings
        self.tree = Tree(self)
        self._storage: Storage | None = None
        #: The database's closing, shared by every caller of :meth:`close_database`.
        self._closing: asyncio.Task[None] | None = None
        self._manager: GameManager | None = None
        self._scheduler: Scheduler | None = None
        self._ticker: tasks.Loop[Any] | None = None
        self._alarm: Alarm | None = None
        self._alarm_start: asyncio.Task[None] | None = None
        #: Each player's live placement step per game: the interaction that shows it (its
        #: token edits it for 15 minutes) and when it was made (event-loop time).
        self.steps: dict[tuple[int, int], tuple[discord.Interaction, float]] = {}
        #: Rate-limit buckets of the commands that render a lot (see bot.ui.commands).
        self.cooldowns: dict[tuple[str, str, int | None], app_commands.Cooldown] = {}
        #: Plays computer seats' turns as soon as they come (set up with the manager).
        self.computer_turns: ComputerTurns | None = None
        self._art: asyncio.Task[None] | None = None
        self._renders: RenderPool | None = None
        self._renders_ready: asyncio.Task[None] | None = None
        self._dashboards: Dashboards | None = None
        self._heads_up: HeadsUp | None = None
        self._monitor: Monitor | None = None
        #: The live board's server (``ACTIVITY_PORT``; see bot.activity).
        self._activity: ActivityServer | None = None
        #: Whether the database file is still the one opened (SQLite; see bot.monitor).
        self._same_file: Callable[[], Awaitable[str | None]] | None = None

    @property
    def manager(self) -> GameManager:
        if self._manager is None:
            raise RuntimeError("the game manager is not ready: setup_hook has not run")
        return self._manager

    async def setup_hook(self) -> None:
        from bot.computers import ComputerPlayers
        from bot.manager import GameManager
        from bot.review_pool import ReviewWorkers
        from bot.storage.backends import open_storage
        from bot.ui import install
        from bot.ui.turn.computer_turns import ComputerTurns
        from engine import BUILD

        log.info("engine: %s", BUILD)  # compiled, or pure Python and why (about half as fast)
        await self.start_monitor()
        self._storage = await open_storage(self.settings.database)
        self._same_file = file_check(self.settings.database)
        self._closing = None  # a client started again closes its new database too
        computers = ComputerPlayers(workers=self.settings.computer_workers)
        self._manager = GameManager(
            self._storage,
            clock=discord_clock,
            computers=computers,
            reviews=ReviewWorkers(self.settings.review_workers),
            review_budget=self.settings.review_budget,
            cache_size=self.settings.live_games,
            engine_states=self.settings.engine_states,
        )
        self.computer_turns = ComputerTurns(self, pace=self.settings.computer_pace)
        log.info("database %s ready", shown(self.settings.database))
        if self.settings.art_cache is not None:
            self._art = asyncio.create_task(self.warm_art(self.settings.art_cache))
        if self.settings.render_workers > 0:
            from bot.render_pool import RenderPool
            from bot.ui import images

            self._renders = RenderPool(self.settings.render_workers, self.settings.art_cache)
            images.use_pool(self._renders)
            self._renders_ready = asyncio.create_task(self._renders.warm())
        await install(self)
        await self.start_activity()
        if self.settings.sync_commands:
            await self.sync_commands()
        self.start_scheduler()
        self.start_watching()

    async def start_monitor(self) -> None:
        """Serve the metrics and health checks on ``METRICS_PORT`` (when set), metrics recorded
        from now on (see :mod:`bot.monitor`, :mod:`bot.metrics`)."""
        if self.settings.metrics_port is None or self._monitor is not None:
            return
        from bot.monitor import Monitor

        metrics.enable()
        checks = {
            "database": self.database_ready,
            "discord": self.discord_ready,
            "render workers": self.renders_ready,
            "computer workers": self.computers_ready,
        }
        monitor = Monitor(
            self.settings.metrics_host, self.settings.metrics_port, checks, self.refresh_metrics
        )
        await monitor.start()
        self._monitor = monitor

    async def start_activity(self) -> None:
        """Serve the live board (the Discord Activity) on ``ACTIVITY_PORT`` when set: every
        change the manager stores reaches its open boards (see :mod:`bot.activity`)."""
        settings = self.settings.activity
        if settings is None or self._activity is not None:
            return
        from bot.activity import page
        from bot.activity.server import ActivityServer
        from bot.ui.turn.board_acts import announce

        if not page.sdk_bundled():
            log.error(
                "ACTIVITY_PORT is set but the live board's SDK bundle is missing: run "
                "scripts/activity-sdk (it needs Node.js and npm). The bot runs without the board."
            )
            self.settings = dataclasses.replace(self.settings, activity=None)
            return

        # Acts made on a board are told in the game's thread as the buttons' are.
        server = ActivityServer(self.manager, settings, announce=partial(announce, self))
        await server.start()
        self._activity = server

    @property
    def activity_port(self) -> int | None:
        """The port the live board is served on (None: not served)."""
        return None if self._activity is None else self._activity.port

    @property
    def monitor_port(self) -> int | None:
        """The port the metrics and health checks are served on (None: not served)."""
        return None if self._monitor is None else self._monitor.port

    async def database_ready(self) -> str | None:
        """The database answers a query (and, SQLite, its file is still the one opened)."""
        if self._storage is None:
            return "closed" if self._closing is not None else "not open yet"
        if self._same_file is not None and (moved := await self._same_file()) is not None:
            return moved
        try:
            active = len(await self._storage.active_game_ids())
        except Exception as error:  # the server is down, refuses, or the file cannot be read
            return f"no answer from the database ({type(error).__name__}: {error})"
        metrics.ACTIVE_GAMES.set(active)
        return None

    async def discord_ready(self) -> str | None:
        """Every shard of this process is connected to Discord's gateway."""
        if not self.is_ready():
            return "not connected to Discord yet"
        down = sorted(i for i, shard in self.shards.items() if shard.is_closed())
        if down:
            return f"shard {', '.join(map(str, down))} disconnected"
        return None

    async def renders_ready(self) -> str | None:
        """Every render worker process runs (none: pictures are drawn in threads)."""
        if self._renders is None:
            return None
        stopped = self._renders.stopped()
        if stopped:
            return f"worker {', '.join(map(str, stopped))} stopped (its next picture restarts it)"
        return None

    async def computers_ready(self) -> str | None:
        """The computer players' workers answer."""
        if self._manager is None:
            return None
        return await self._manager.computers.answering()

    async def refresh_metrics(self) -> None:
        """The gauges of the bot's state, read when scraped."""
        for index, shard in self.shards.items():
            label = str(index)
            metrics.SHARD_CONNECTED.labels(label).set(0 if shard.is_closed() else 1)
            if math.isfinite(shard.latency):
                metrics.SHARD_LATENCY.labels(label).set(shard.latency)
        metrics.RENDER_QUEUE.set(0 if self._renders is None else self._renders.queued())
        if self._manager is not None:
            metrics.LIVE_GAMES.set(len(self._manager.cache))
            metrics.COMPUTER_QUEUE.set(self._manager.computers.waiting())
            metrics.COMPUTERS_DECIDING.set(self._manager.computers.deciding())
        if self._storage is not None:
            metrics.ACTIVE_GAMES.set(len(await self._storage.active_game_ids()))

    async def warm_art(self, folder: str) -> None:
        """Load the tile art cache, or build it in a thread (a few seconds, once per version of
        the art) while the bot already answers: until then, pictures compute their art."""
        from pathlib import Path

        from renderer import artcache

        try:
            built, seconds = await asyncio.to_thread(artcache.warm, Path(folder))
        except OSError as error:
            log.warning("no tile art cache in %s (%s): pictures compute their art", folder, error)
            return
        log.info("tile art cache %s in %.1f s", "built" if built else "loaded", seconds)

    @property
    def scheduler(self) -> Scheduler:
        if self._scheduler is None:
            raise RuntimeError("the scheduler is not running: setup_hook has not run")
        return self._scheduler

    def start_scheduler(self) -> None:
        """Tick the play-by-post scheduler every ``tick_seconds``, from when the bot is ready."""
        from bot.alarm import Alarm
        from bot.scheduler import Scheduler
        from bot.ui.timing.notifier import DiscordNotifier

        scheduler = Scheduler(
            self.manager, DiscordNotifier(self), interval=self.settings.tick_seconds
        )
        ticker: tasks.Loop[Any] = tasks.loop(seconds=self.settings.tick_seconds)(
            scheduler.tick_safely
        )
        ticker.before_loop(self.wait_until_ready)
        self._scheduler, self._ticker = scheduler, ticker
        ticker.start()
        log.info("scheduler ticking every %s s", self.settings.tick_seconds)
        self._alarm = Alarm(scheduler)
        self.manager.timer_listeners.append(self._alarm.poke)
        self._alarm_start = asyncio.create_task(self._start_alarm(self._alarm))

    async def _start_alarm(self, alarm: Alarm) -> None:
        """Chess clocks run out between ticks: their alarm starts once the bot is ready."""
        await self.wait_until_ready()
        alarm.start()

    @property
    def dashboards(self) -> Dashboards:
        if self._dashboards is None:
            raise RuntimeError("the dashboards are not running: setup_hook has not run")
        return self._dashboards

    def start_watching(self) -> None:
        """The channels' dashboards (their loop edits them every 5 s at most) and the heads-up
        DMs, both told about every change of a game by the manager."""
        from bot.ui.timing.heads_up import HeadsUp
        from bot.ui.watching.dashboard import Dashboards

        self._dashboards, self._heads_up = Dashboards(self), HeadsUp(self)
        self.manager.on_game_change(self._dashboards.changed)
        self.manager.on_game_change(self._heads_up.changed)
        self._dashboards.start()

    async def stop_watching(self) -> None:
        if self._dashboards is not None:
            await self._dashboards.stop()
        if self._heads_up is not None:
            await self._heads_up.stop()

    async def stop_scheduler(self) -> None:
        """Stop the loop, letting a tick in progress finish (its notices are claimed first)."""
        alarm, self._alarm = self._alarm, None
        if self._alarm_start is not None:
            self._alarm_start.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._alarm_start
            self._alarm_start = None
        if alarm is not None:
            if self._manager is not None and alarm.poke in self._manager.timer_listeners:
                self._manager.timer_listeners.remove(alarm.poke)
            async with self._scheduler.quiet() if self._scheduler else contextlib.nullcontext():
                await alarm.stop()
        ticker, self._ticker = self._ticker, None
        if ticker is None or self._scheduler is None:
            return
        async with self._scheduler.quiet():
            ticker.cancel()
        task = ticker.get_task()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def sync_commands(self) -> None:
        if self.settings.dev_guild is not None:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to show)", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d guilds",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )
        if self.user is not None:
            log.info("invite the bot to a server with: %s", invite_link(self.user.id))
        if self.computer_turns is not None:  # computers whose turn came before a restart
            await self.computer_turns.resume()
        if self._manager is not None:  # tournaments a stop left behind: rounds, threads
            from bot.ui.tournaments.tournament_commands import resume

            await resume(self)

    async def close(self) -> None:
        """Stop cleanly: the scheduler after its tick, the gateway (no new interactions), the
        moves in progress (each game's lock), then the database and its thread."""
        try:
            await self.stop_scheduler()
            await self.stop_watching()
            await super().close()
        finally:
            await self.close_database()

    async def close_database(self) -> None:
        """Let the moves in progress finish, then close the database and its thread (also for
        hosts such as test harnesses that detach the client without closing it).

        A second call (discord.py closes the client again on its way out after a signal
        closed it) waits for the first one's closing instead of returning before the database
        is closed, so the process never exits in the middle of it.
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_database())
        await asyncio.shield(self._closing)

    @property
    def database_closed(self) -> bool:
        """Whether :meth:`close_database` has finished."""
        return self._closing is not None and self._closing.done()

    async def _close_database(self) -> None:
        activity, self._activity = self._activity, None
        if activity is not None:
            await activity.close()
        if self._manager is not None:
            if self.computer_turns is not None:
                await self.computer_turns.stop()
            await self._manager.settle()
            self._manager.computers.close()
        if self._renders is not None:
            from bot.ui import images

            images.use_pool(None)
            self._renders.close()
            self._renders = None
        if self._storage is not None:
            storage, self._storage = self._storage, None
            await storage.close()
            log.info("database closed")
        monitor, self._monitor = self._monitor, None
        if monitor is not None:
            await monitor.close()


def stop_on_signals(client: discord.Client) -> None:
    """Close ``client`` cleanly on SIGTERM (service managers, containers) and SIGINT (Ctrl-C).

    Without it, SIGTERM kills the process at once: the database and its thread are not closed.
    Where the event loop cannot catch signals (Windows), Ctrl-C still stops discord.py's run.
    """
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(sig: signal.Signals) -> None:
        log.info("%s received: closing", sig.name)
        if not closing:
            closing.append(loop.create_task(client.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop, sig)


def run(client: discord.Client, token: str) -> None:
    """discord.py's ``Client.run``, with :func:`stop_on_signals`."""

    async def runner() -> None:
        async with client:
            stop_on_signals(client)
            await client.start(token)

    asyncio.run(runner())


#: What the bot needs in a server, and nothing more (the README lists them with the reason).
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
SCOPES = ("bot", "applications.commands")


def invite_link(client_id: int) -> str:
    """The OAuth2 link that adds the bot to a server with exactly :data:`PERMISSIONS`."""
    return discord.utils.oauth_url(client_id, permissions=PERMISSIONS, scopes=SCOPES)


class Tree(app_commands.CommandTree["CarcassonneBot"]):
    """The command tree: every command's log lines name its interaction and guild; its sync of
    the global commands keeps the Entry Point command of the live board."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        logs.about(interaction=interaction.id, guild=interaction.guild_id)
        return True

    async def sync(
        self, *, guild: discord.abc.Snowflake | None = None
    ) -> list[app_commands.AppCommand]:
        """discord.py's sync, whose bulk overwrite of the global commands also sends the
        application's Entry Point command (Discord refuses to remove it) or, when the live
        board is served and there is none, creates it (:mod:`bot.ui.live_board`). Entry Point
        commands are global only: a server's sync (``DISCORD_DEV_GUILD``) leaves them be."""
        if guild is not None:
            return await super().sync(guild=guild)
        from bot.ui import live_board

        app = self.client.application_id
        if app is None:
            raise app_commands.MissingApplicationID
        existing = await self._http.get_global_commands(app)
        kept = live_board.kept_entry_point(existing, self.client.settings.activity is not None)
        if kept is None:
            return await super().sync()
        commands = self.get_commands()
        translator = self.translator
        payload: list[Any] = [
            await c.get_translated_payload(self, translator) if translator else c.to_dict(self)
            for c in commands
        ]
        payload.append(kept)
        try:
            data = await self._http.bulk_upsert_global_commands(app, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [
            app_commands.AppCommand(data=d, state=self._state)
            for d in data
            if d.get("type") != live_board.ENTRY_POINT_TYPE
        ]


def file_check(database: str) -> Callable[[], Awaitable[str | None]] | None:
    """For a SQLite file, the check that it is still the file opened (see bot.monitor)."""
    if database.startswith(("postgresql://", "postgres://")) or database == ":memory:":
        return None
    from bot.monitor import same_file

    return same_file(database)


def main() -> int:
    try:
        settings = Settings.from_env()
    except SystemExit as stop:
        print(stop.code, file=sys.stderr)
        return 1
    logs.configure(settings.log_level, settings.log_format)
    client = CarcassonneBot(settings)
    from bot import collector

    collector.settle()  # once per process: the start-up's objects frozen, young collections rarer
    try:
        run(client, settings.token)
    except KeyboardInterrupt:  # where signals cannot be caught by the event loop
        return 0
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN: it is invalid or was reset. "
            "Copy the bot token again from the developer portal.",
            file=sys.stderr,
        )
        return 1
    except (OSError, discord.GatewayNotFound) as error:
        # aiohttp's connection errors are OSErrors: no network, DNS, firewall.
        print(
            f"Could not reach Discord ({error}). Check the network, then start again.",
            file=sys.stderr,
        )
        return 1
    except ManagerError as error:  # e.g. a database written by a newer version of the bot
        print(error.message("en"), file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused the connection: this bot needs no privileged intent; "
            "check the application's settings.",
            file=sys.stderr,
        )
        return 1
    return 0
