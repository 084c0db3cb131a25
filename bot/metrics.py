"""The bot's metrics (Prometheus), served on ``METRICS_PORT`` by :mod:`bot.monitor`.

Every metric lives in :data:`REGISTRY`, this module's own registry (the process's CPU and memory
too, by prometheus_client's process collector). Nothing is recorded until :func:`enable` runs
(the bot calls it when ``METRICS_PORT`` is set), so a bot without metrics pays one test of
:data:`ON` per place that records. Labels are bounded: kinds, reasons and storage calls named in
the code, shard numbers; never a user, guild or game id.

What records where: a move (:meth:`bot.manager.GameManager.play_turn`, by ``kind``); a picture
(:mod:`bot.ui.images`, by the picture's kind); each storage call (:mod:`bot.storage.sql`, by the
call's name); a refused or failed interaction (:func:`bot.ui.errors.report`, by the refusal's
text key); the scheduler's notices and how late it acts on a deadline (:mod:`bot.scheduler`);
how long each computer decision waited for a worker, and the decisions refused for a full queue
(:mod:`bot.computers`, by level). The gauges of the bot's state (games, shards, the render queue,
the computer decisions waiting and deciding) are set when scraped.
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.core import HistogramMetricFamily, Metric

#: The registry :mod:`bot.monitor` serves.
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)

#: Whether metrics are recorded (see :func:`enable`).
ON = False

#: Who decided a move: a button, ``/carcassonne place``, the live board, a computer seat, a
#: timeout.
MOVE_KINDS = ("button", "place", "board", "computer", "timeout")
#: The ways a player sends a move (``GameManager.play_turn``'s ``via``).
PLAYER_MOVE_KINDS = ("button", "place", "board")

#: Seconds, from a fast storage call to a slow picture or a computer's turn.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: How late a deadline is acted on: within a tick (30 s by default), or much later.
LATE = (1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)


class Series:
    """One histogram's counts for one label value: a count per bucket (found by ``bisect``, in
    C) and the sum. Recorded from the event loop's thread only (as everything of the bot is)."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        #: Per bucket (the last one past every bound: ``+Inf``), not cumulative.
        self.counts = [0] * (len(bounds) + 1)
        self.sum = 0.0

    def observe(self, amount: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, amount)] += 1
        self.sum += amount


class LoopHistogram:
    """A histogram by one label, written as Prometheus' histogram when scraped (its
    ``_bucket``, ``_count`` and ``_sum``). prometheus_client's own takes a lock per value and
    looks for its bucket in Python: 2.5 µs a value on this machine, against 0.3 µs here, for a
    value or three recorded on every move."""

    def __init__(
        self, name: str, documentation: str, label: str, buckets: tuple[float, ...]
    ) -> None:
        self.name, self.documentation, self.label = name, documentation, label
        self.bounds = tuple(buckets)
        self._series: dict[str, Series] = {}
        REGISTRY.register(self)

    def labels(self, value: str) -> Series:
        found = self._series.get(value)
        if found is None:
            found = self._series[value] = Series(self.bounds)
        return found

    def describe(self) -> Iterator[Metric]:
        yield HistogramMetricFamily(self.name, self.documentation, labels=[self.label])

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=[self.label])
        edges = [*(repr(float(b)) for b in self.bounds), "+Inf"]
        for value, series in list(self._series.items()):
            cumulative = itertools.accumulate(series.counts)
            family.add_metric([value], list(zip(edges, cumulative, strict=True)), series.sum)
        yield family


MOVES = LoopHistogram(
    "carcassonne_move_seconds",
    "Moves played and how long each took (the game's lock, the rules, the write), by who "
    "decided it",
    "kind",
    SLOW,
)
PICTURES = LoopHistogram(
    "carcassonne_picture_seconds",
    "Pictures drawn and how long each took from its request (waiting for a worker included), "
    "by kind",
    "kind",
    SLOW,
)
PICTURES_IN_PROGRESS = Gauge(
    "carcassonne_pictures_in_progress",
    "Pictures asked for and not drawn yet (drawing or waiting)",
    registry=REGISTRY,
)
#: Pictures asked for and not drawn yet: a plain count, read by the gauge when scraped.
_drawing = [0]
PICTURES_IN_PROGRESS.set_function(lambda: _drawing[0])
RENDER_QUEUE = Gauge(
    "carcassonne_render_queue_depth",
    "Pictures waiting in the bot for a render worker with room (RENDER_WORKERS > 0)",
    registry=REGISTRY,
)
COMPUTER_WAIT = LoopHistogram(
    "carcassonne_computer_wait_seconds",
    "Computer decisions sent to a worker and how long each waited in the bot for one, by level",
    "level",
    SLOW,
)
COMPUTER_QUEUE = Gauge(
    "carcassonne_computer_queue_depth",
    "Computer decisions waiting in the bot for a worker",
    registry=REGISTRY,
)
COMPUTERS_DECIDING = Gauge(
    "carcassonne_computer_decisions_in_progress",
    "Computer decisions a worker has (at most one per worker)",
    registry=REGISTRY,
)
COMPUTER_REFUSED = Counter(
    "carcassonne_computer_refused_total",
    "Computer decisions refused because the queue was full (their turns played by the quick "
    "fallback)",
    registry=REGISTRY,
)
DB_CALLS = LoopHistogram(
    "carcassonne_db_call_seconds",
    "Storage calls (one transaction or one read each) and how long each took, by call",
    "call",
    FAST,
)
DB_ERRORS = Counter(
    "carcassonne_db_errors_total",
    "Storage calls that raised, by call",
    ["call"],
    registry=REGISTRY,
)
ACTIVE_GAMES = Gauge(
    "carcassonne_active_games",
    "Games being played (started, not finished) in the database",
    registry=REGISTRY,
)
LIVE_GAMES = Gauge(
    "carcassonne_live_games",
    "Games held in this process's memory, ready to move without a replay (LIVE_GAMES)",
    registry=REGISTRY,
)
REFUSED = Counter(
    "carcassonne_interactions_refused_total",
    "Interactions refused with a message to the player, by the message's key",
    ["reason"],
    registry=REGISTRY,
)
FAILED = Counter(
    "carcassonne_interactions_failed_total",
    "Interactions that failed (an error logged with its traceback), by the message's key",
    ["reason"],
    registry=REGISTRY,
)
NOTICES_SENT = Counter(
    "carcassonne_notices_sent_total",
    "Scheduler notices sent (turn starts, reminders, timeouts' announcements), by kind",
    ["kind"],
    registry=REGISTRY,
)
NOTICES_RETRIED = Counter(
    "carcassonne_notices_retried_total",
    "Scheduler notices tried again after their claim ran out unsent, by kind",
    ["kind"],
    registry=REGISTRY,
)
SCHEDULER_LAG = Histogram(
    "carcassonne_scheduler_lag_seconds",
    "How late the scheduler acted on each deadline due (a reminder, a turn's time)",
    buckets=LATE,
    registry=REGISTRY,
)
SHARD_CONNECTED = Gauge(
    "carcassonne_shard_connected",
    "Whether each Discord shard of this process is connected (1) or not (0)",
    ["shard"],
    registry=REGISTRY,
)
SHARD_LATENCY = Gauge(
    "carcassonne_shard_latency_seconds",
    "Each Discord shard's heartbeat latency",
    ["shard"],
    registry=REGISTRY,
)

#: The move histogram's children, looked up once (a move records without a label lookup).
_MOVE_BY_KIND = {kind: MOVES.labels(kind) for kind in MOVE_KINDS}


def enable(on: bool = True) -> None:
    """Record metrics from now on (or stop recording: the benchmark compares both)."""
    global ON
    ON = on


def move(kind: str, seconds: float) -> None:
    """A move played, decided by ``kind`` (one of :data:`MOVE_KINDS`)."""
    _MOVE_BY_KIND[kind].observe(seconds)


def computer_waited(level: str, seconds: float) -> None:
    """A computer decision at ``level`` got a worker after waiting ``seconds`` for it."""
    COMPUTER_WAIT.labels(level).observe(seconds)


def refused(reason: str, failed: bool) -> None:
    """An interaction refused (``failed``: an unexpected error) with the text key ``reason``."""
    (FAILED if failed else REFUSED).labels(reason).inc()


class picture:  # used as a function: ``with metrics.picture(kind):``
    """Count and time one picture of ``kind`` while it is asked for and drawn."""

    __slots__ = ("_kind", "_start")

    def __init__(self, kind: str) -> None:
        self._kind = kind
        self._start = 0.0

    def __enter__(self) -> None:
        if ON:
            self._start = time.perf_counter()
            _drawing[0] += 1

    def __exit__(self, *exc: object) -> None:
        if ON and self._start:
            _drawing[0] -= 1
            took = time.perf_counter() - self._start
            child = _PICTURE_BY_KIND.get(self._kind)
            if child is None:  # a kind of renderer.jobs.Job: a few, each looked up once
                child = _PICTURE_BY_KIND[self._kind] = PICTURES.labels(self._kind)
            child.observe(took)


#: The picture histogram's series by kind, looked up once each.
_PICTURE_BY_KIND: dict[str, Series] = {}


def storage_call(name: str) -> Callable[[float, bool], None]:
    """What records one storage call ``name``: its seconds, and whether it raised."""
    took = DB_CALLS.labels(name)
    errors = DB_ERRORS.labels(name)

    def record(seconds: float, failed: bool) -> None:
        took.observe(seconds)
        if failed:
            errors.inc()

    return record
