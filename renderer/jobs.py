"""Pictures as jobs a worker process can run: what to draw, with the game as its record.

A :class:`Job` holds only plain data (the game's record, the options, the lettered squares),
so it crosses to a render worker process; :func:`run` rebuilds the game from its record (from
the state the worker kept when it last drew the game, see :mod:`renderer.recent`: the moves
since are played, not the whole record) and draws it. ``bot.render_pool`` runs jobs
in a pool of processes so that pictures use every core and never hold the bot's event loop.
Every picture the bot sends is a job: drawn by a worker, or by :func:`draw` in a thread of the
bot from the game itself when it has none, the same bytes either way.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Game
from renderer import families
from renderer import palette as pal
from renderer.board import Pos
from renderer.encode import encode_png
from renderer.endgame import render_game_end
from renderer.help import help_picture
from renderer.layers import Canvas, Canvases
from renderer.options import RenderOptions
from renderer.phone import TileCard, turn_picture
from renderer.recent import RecentGames, game_key
from renderer.render import render_board, render_figure_spots, render_preview
from renderer.replay import REPLAY_LIMIT, render_replay
from renderer.review import MomentData, moment_picture
from renderer.stats import stats_picture
from renderer.steps import hand_picture, step_picture, wagon_picture
from renderer.tiles_left import tiles_left_picture
from renderer.tournament import bracket_image, standings_image
from renderer.viewer.page import standalone_page


@dataclass(frozen=True)
class Job:
    """A picture to draw: ``kind``, the game as its ``record``, the ``options``, the seat
    ``styles``, and what the kind needs besides (``extra`` holds only plain, picklable values).

    ``kind``:

    - ``board``: the whole board, the squares of ``candidates`` lettered.
    - ``turn``: the phone picture of a turn (:mod:`renderer.phone`): ``card``, ``candidates``,
      ``whole``, and for a family that letters features too (The Castle's wall-tile targets)
      ``extra["features"]`` ((x, y, at) -> letter); also returns the letters left outside the
      picture.
    - ``help``: the help's example turn, drawn as a ``turn`` (``candidates``, ``card``) with the
      legend of every mark it shows under it (:mod:`renderer.help`).
    - ``spots``: the figure spots of the tile just placed, numbered (``extra["spots"]``).
    - ``preview``: the tile ghosted at ``extra["placement"]`` (a ``PlaceTile``) with its spots
      (``extra["spots"]``).
    - ``step``: the placement step's close-up (:func:`renderer.steps.step_picture`) of
      ``extra["placement"]`` (a ``PlaceTile``, or None for the tile just placed) with
      ``extra["spots"]``, ``extra["rotations"]`` (rotation -> caption), ``extra["ghosts"]``
      (a tuple of ``GhostSpot``) and ``extra["player"]`` (whose see-through figures they are).
    - ``wagon``: the board with the places a freed wagon may go lettered (``extra["targets"]``,
      (x, y, at) -> letter).
    - ``hand``: the tiles of a tactical hand (``extra["hand"]``, tile kind names).
    - ``tiles``: every tile kind not placed yet with its count, and the dead squares' count when
      ``options.dead_squares`` (:mod:`renderer.tiles_left`).
    - ``walls``: The Castle with its wall tiles' target features lettered
      (``extra["features"]``, (x, y, at) -> letter), drawn by the family's own phone picture.
    - ``end``: the final board and chart.
    - ``stats``: a player's points by category (:func:`renderer.stats.stats_picture`), drawn
      from ``extra`` alone (``name``, ``games``, ``categories``, ``kinds``, ``style``); its
      ``record`` is empty: no game is rebuilt.
    - ``standings``: page ``extra["page"]`` (default 0) of a tournament's standings
      (:func:`renderer.tournament.standings_image`) of ``extra["table"]`` (a
      ``StandingsTable``), in ``options.lang``; its ``record`` is empty.
    - ``bracket``: page ``extra["page"]`` (default 0) of a knockout bracket
      (:func:`renderer.tournament.bracket_image`) of ``extra["bracket"]`` (a ``BracketView``);
      its ``record`` is empty. ``standings_page_count`` and ``bracket_page_count`` say how many
      pages there are.
    - ``replay``: the animated replay of the whole record (:mod:`renderer.replay`): WebP bytes,
      not PNG; ``extra["max_bytes"]`` (optional) is the size it must stay under.
    - ``review``: one reviewed decision, the move played beside the best move
      (:func:`renderer.review.moment_picture`), drawn from ``record`` replayed up to the
      decision, in ``options.lang``: ``extra["moment"]`` (the decision as
      :meth:`renderer.review.MomentData.to_json` writes it: ``index``, ``turn``, ``seat``,
      ``played`` and ``best`` as record actions, ``played`` empty for a hint, ``played_value``,
      ``best_value``, ``loss``), ``extra["why"]`` (the sentence, already translated) and
      ``extra["names"]`` (optional: the players' names by seat);
      :func:`renderer.review.moment_extra` makes that ``extra``.
    - ``viewer``: the browser viewer page of the whole record (:mod:`renderer.viewer`): UTF-8
      HTML bytes, not PNG, with the game, its tile art and its figures embedded.

    Any kind may name ``extra["tried"]``, an action (``PlaceAbbey``...) played on a copy of the
    game before drawing: the abbey's step and preview show the abbey as placed.
    """

    kind: str
    record: Mapping[str, Any]
    options: RenderOptions
    styles: tuple[int, ...] = ()
    candidates: Mapping[Pos, str] | None = None
    card: TileCard | None = None
    whole: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)


#: Kinds drawn from their plain data alone (a review from its record), without a game built.
PLAIN = ("stats", "review", "standings", "bracket")
#: The games this process drew lately, so that a game's next picture replays only its new moves.
RECENT = RecentGames()
#: The squares of the games this process drew lately, so that a turn picture redraws only the
#: squares its move changed (:mod:`renderer.layers`).
CANVASES = Canvases()
#: This process's CPU seconds spent on turn pictures, by stage: rebuilding the game from its
#: record (``replay``), drawing the picture (``drawing``), writing its PNG (``encoding``).
SPENT: dict[str, float] = dict.fromkeys(("replay", "drawing", "encoding"), 0.0)


def run(job: Job) -> tuple[bytes, tuple[str, ...]]:
    """The PNG of ``job`` (WebP for a replay), and the letters of the squares left outside
    the picture."""
    if job.kind in PLAIN:
        return draw(None, job)
    started = time.thread_time()
    key = game_key(job.record)
    game = RECENT.game(job.record, key)
    if job.kind != "turn" or key is None:
        return draw(game, job)
    SPENT["replay"] += time.thread_time() - started
    canvas = CANVASES.canvas(key)
    try:
        with canvas.lock:
            return draw(game, job, canvas)
    finally:
        CANVASES.trim(canvas)


def kept() -> dict[str, int]:
    """What this process keeps between pictures, and how often a picture found it: the games'
    engine states (:data:`RECENT`) and their squares (:data:`CANVASES`, with their bytes)."""
    return {
        "games": len(RECENT),
        "games_found": RECENT.found,
        "games_missed": RECENT.missed,
        "canvases": len(CANVASES),
        "canvases_found": CANVASES.found,
        "canvases_missed": CANVASES.missed,
        "canvas_bytes": CANVASES.nbytes,
        **{f"{stage}_us": round(seconds * 1e6) for stage, seconds in SPENT.items()},
    }


def draw(
    game: Game | None, job: Job, canvas: Canvas | None = None
) -> tuple[bytes, tuple[str, ...]]:
    """The picture of ``job`` for ``game`` (already built, never changed; None for the kinds
    of :data:`PLAIN`): the same in a thread or a worker, with or without the ``canvas`` of the
    game's squares as its last picture left them (a turn picture only)."""
    if job.kind == "stats":
        return encode_png(stats_picture(job.extra, job.options), full_colour=True), ()
    if job.kind == "review":
        moment = MomentData.from_json(job.extra["moment"])
        names = job.extra.get("names")
        with pal.seat_styles(job.styles):
            picture = moment_picture(
                job.record,
                moment,
                job.options.lang,
                why=str(job.extra.get("why", "")),
                names=None if names is None else tuple(names),
                options=job.options,
            )
        return picture, ()
    if job.kind == "standings":
        page = int(job.extra.get("page", 0))
        image = standings_image(job.extra["table"], job.options.lang, page)
        return encode_png(image, full_colour=True), ()
    if job.kind == "bracket":
        page = int(job.extra.get("page", 0))
        image = bracket_image(job.extra["bracket"], job.options.lang, page)
        return encode_png(image, full_colour=True), ()
    if game is None:
        raise ValueError(f"the picture {job.kind!r} needs a game")
    tried = job.extra.get("tried")
    if tried is not None:
        game = game.fork()
        game.play(tried)
    with pal.seat_styles(job.styles):
        return _draw(game, job, canvas)


def _draw(game: Game, job: Job, canvas: Canvas | None = None) -> tuple[bytes, tuple[str, ...]]:
    options, extra = job.options, job.extra
    if job.kind == "board":
        return render_board(game, options, candidates=job.candidates or None), ()
    if job.kind == "help":
        shown, _ = help_picture(game, options, candidates=job.candidates, card=job.card)
        return encode_png(shown.image, family=game.setup.game), shown.hidden
    if job.kind == "turn":
        started = time.thread_time()
        picture = turn_picture(
            game,
            options,
            candidates=job.candidates,
            card=job.card,
            whole=job.whole,
            features=extra.get("features"),
            canvas=canvas,
        )
        drawn = time.thread_time()
        data = encode_png(picture.image, family=game.setup.game)
        SPENT["drawing"] += drawn - started
        SPENT["encoding"] += time.thread_time() - drawn
        return data, picture.hidden
    if job.kind == "spots":
        return render_figure_spots(game, extra["spots"], options), ()
    if job.kind == "preview":
        labels = extra.get("spots")
        return render_preview(game, extra["placement"], options, spot_labels=labels), ()
    if job.kind == "step":
        placement, spots, rotations = extra["placement"], extra["spots"], extra["rotations"]
        ghosts, player = extra["ghosts"], extra["player"]
        step = step_picture(game, placement, spots, rotations, options, ghosts, player)
        return encode_png(step), ()
    if job.kind == "wagon":
        return encode_png(wagon_picture(game, extra["targets"], options)), ()
    if job.kind == "hand":
        return encode_png(hand_picture(game, extra["hand"], options)), ()
    if job.kind == "tiles":
        return encode_png(tiles_left_picture(game, options)), ()
    if job.kind == "walls":
        # The family's phone picture, its wall tiles' targets lettered.
        own = families.pictures(game.setup.game).phone
        if own is None or game.setup.game != "castle":
            raise ValueError(f"{game.setup.game} has no wall tiles")
        picture = own(game, options, features=extra["features"])
        return encode_png(picture.image), ()
    if job.kind == "end":
        return render_game_end(game, options), ()
    if job.kind == "replay":
        limit = int(extra.get("max_bytes", REPLAY_LIMIT))
        return render_replay(game.record(), options, max_bytes=limit).webp, ()
    if job.kind == "viewer":
        page = standalone_page(game.record(), options.lang, job.styles)
        return page.encode("utf-8"), ()
    raise ValueError(f"unknown picture {job.kind!r}")


def ready(art_cache: str | None) -> None:
    """A worker's start: load the tile art cache (if any), so its first picture is fast."""
    if art_cache:
        from pathlib import Path

        from renderer import artcache

        artcache.enable(Path(art_cache))
        artcache.load()
