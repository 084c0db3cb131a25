"""The operations endpoint on ``METRICS_PORT``: ``/metrics``, ``/healthz`` and ``/readyz``.

An aiohttp server on the bot's own event loop (aiohttp comes with discord.py): each request is a
coroutine like any interaction, and none blocks the loop (the metrics' text is written in a
fraction of a millisecond; each readiness check is awaited with a time limit).

- ``/metrics``: every metric of :data:`bot.metrics.REGISTRY` in Prometheus' text format, the
  state gauges refreshed first (``refresh``).
- ``/healthz``: 200 ``ok`` while the process answers at all (a liveness probe).
- ``/readyz``: each named check run at once; 200 when every one passes, else 503. The body has
  one line per check, ``name: ok`` or ``name: why it fails``, the failing ones first.

The checks are given by the caller (:mod:`bot.app`: the database, the Discord shards, the render
and computer workers): this module knows nothing of Discord.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.metrics import REGISTRY

log = logging.getLogger(__name__)

#: A readiness check: None when it passes, else why it fails (a sentence for the host).
Check = Callable[[], Awaitable[str | None]]

#: Seconds a readiness check may take before it counts as failing.
CHECK_SECONDS = 5.0


class Monitor:
    """The endpoint's server: :meth:`start` binds it, :meth:`close` stops it."""

    def __init__(
        self,
        host: str,
        port: int,
        checks: Mapping[str, Check],
        refresh: Callable[[], Awaitable[None]] | None = None,
        *,
        timeout: float = CHECK_SECONDS,
    ) -> None:
        self.host = host
        #: The port asked for (0: any free one); the one bound once started.
        self.port = port
        self.checks = dict(checks)
        self.refresh = refresh
        self.timeout = timeout
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
        except OSError as error:
            sock.close()
            await runner.cleanup()
            raise SystemExit(
                f"METRICS_PORT {self.port} cannot be used on {self.host} ({error.strerror}): "
                "choose a free port, or leave METRICS_PORT unset"
            ) from None
        site = web.SockSite(runner, sock)
        await site.start()
        self._runner = runner
        self.port = sock.getsockname()[1]
        log.info("metrics and health checks on http://%s:%s/metrics", self.host, self.port)

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _metrics(self, request: web.Request) -> web.Response:
        if self.refresh is not None:
            try:
                await asyncio.wait_for(self.refresh(), self.timeout)
            except Exception as error:  # the gauges keep their last values, counters are served
                log.warning("the metrics' state could not be read: %r", error)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        results = await asyncio.gather(*(self._check(c) for c in self.checks.values()))
        answers = dict(zip(self.checks, results, strict=True))
        failing = {name: why for name, why in answers.items() if why is not None}
        lines = [f"{name}: {why}" for name, why in failing.items()]
        lines += [f"{name}: ok" for name in answers if name not in failing]
        if failing:
            log.warning("not ready: %s", "; ".join(lines[: len(failing)]))
        return web.Response(text="\n".join(lines) + "\n", status=503 if failing else 200)

    async def _check(self, check: Check) -> str | None:
        try:
            return await asyncio.wait_for(check(), self.timeout)
        except TimeoutError:
            return f"no answer within {self.timeout:g} s"
        except Exception as error:
            return f"{type(error).__name__}: {error}".rstrip(": ")


def same_file(path: str) -> Check:
    """A check that the file at ``path`` is still the one there now, as opened (an SQLite
    database keeps writing to the file it opened even once it is moved or deleted, where a
    restarted bot would find another database, or none)."""
    opened = os.stat(path)

    async def check() -> str | None:
        try:
            now = os.stat(path)
        except FileNotFoundError:
            return f"the database file {path} is gone (moved or deleted) since the bot opened it"
        if (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
            return f"the database file {path} was replaced since the bot opened it"
        return None

    return check
