"""Pictures as jobs a worker process can run: what to draw, with the game as its record.

A :class:`Job` holds only plain data (the game's record, the options, the lettered squares),
so it crosses to a render worker process; :func:`run` rebuilds the game from its record (a
replay takes a few milliseconds, the picture tens) and draws it. ``bot.render_pool`` runs jobs
in a pool of processes so that pictures use every core and never hold the bot's event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Game
from renderer import palette as pal
from renderer.board import Pos
from renderer.encode import encode_png
from renderer.endgame import render_game_end
from renderer.options import RenderOptions
from renderer.phone import TileCard, turn_picture
from renderer.render import render_board, render_figure_spots, render_preview


@dataclass(frozen=True)
class Job:
    """``kind``: ``board`` (the whole board), ``turn`` (the phone picture of a turn), ``spots``
    (the figure spots of the tile just placed, ``extra["spots"]``), ``preview`` (the tile
    ghosted at ``extra["placement"]`` with its spots) or ``end`` (the final board and chart)."""

    kind: str
    record: Mapping[str, Any]
    options: RenderOptions
    styles: tuple[int, ...] = ()
    candidates: Mapping[Pos, str] | None = None
    card: TileCard | None = None
    whole: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)


def run(job: Job) -> tuple[bytes, tuple[str, ...]]:
    """The PNG of ``job``, and the letters of the squares left outside the picture."""
    game = Game.from_record(dict(job.record))
    return draw(game, job)


def draw(game: Game, job: Job) -> tuple[bytes, tuple[str, ...]]:
    """The picture of ``job`` for ``game`` (already built): the same in a thread or a worker."""
    with pal.seat_styles(job.styles):
        if job.kind == "board":
            png = render_board(game, job.options, candidates=job.candidates or None)
            return png, ()
        if job.kind == "turn":
            picture = turn_picture(
                game, job.options, candidates=job.candidates, card=job.card, whole=job.whole
            )
            return encode_png(picture.image, family=game.setup.game), picture.hidden
        if job.kind == "spots":
            return render_figure_spots(game, job.extra["spots"], job.options), ()
        if job.kind == "preview":
            placement = job.extra["placement"]
            labels = job.extra.get("spots")
            return render_preview(game, placement, job.options, spot_labels=labels), ()
        if job.kind == "end":
            return render_game_end(game, job.options), ()
    raise ValueError(f"unknown picture {job.kind!r}")


def ready(art_cache: str | None) -> None:
    """A worker's start: load the tile art cache (if any), so its first picture is fast."""
    if art_cache:
        from pathlib import Path

        from renderer import artcache

        artcache.enable(Path(art_cache))
        artcache.load()
