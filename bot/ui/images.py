"""Game pictures as Discord files: :mod:`renderer.jobs` jobs, drawn by the render workers.

Rendering takes tens of milliseconds, more on a big board: it never runs on the event loop
(the 3-second interaction deadline and every other game would wait). Every picture is a
:class:`~renderer.jobs.Job` (the game as its record, the options and what the picture needs):
the bot's render worker processes draw it (:data:`POOL`), or a thread from the game itself when
there are none, the same bytes either way. Every upload is checked against a size budget well
under Discord's 10 MiB limit; a board over it is drawn again with smaller tiles rather than
failing the turn.

Players draw in the colour they chose in the lobby (:func:`seat_styles`), with the mark that goes
with it, from the renderer's colour-blind-safe palette.

The placement step is drawn for a phone (:mod:`renderer.steps`): a close-up of the square with
the tile ghosted in the chosen rotation and its figure spots numbered, above one small picture
per rotation that fits there, captioned exactly like the rotation buttons.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics
from bot.lobby import STYLED_GAMES as STYLED_GAMES
from bot.lobby import STYLES as STYLES
from bot.lobby import seat_style as seat_style
from bot.lobby import seat_styles as seat_styles
from bot.render_pool import RenderPool
from bot.storage import GameRow
from engine import Game, PlaceAbbey, PlaceTile
from renderer import jobs
from renderer.board import GhostSpot
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.phone import TileCard
from renderer.replay import REPLAY_LIMIT
from renderer.review import moment_extra

if TYPE_CHECKING:
    from ai.review import Moment

log = logging.getLogger(__name__)

#: Discord refuses uploads over 10 MiB; stay far below so a turn message never fails.
BUDGET = 4 * 1024 * 1024
SMALLER = (64, 48)

#: Style -> a round emoji of that colour, for lobby lists and menus.
EMOJI = ("🟠", "🔵", "🟡", "🟢", "🩷", "⚫")

#: Games whose placement step shows the close-up (The Castle shows its whole board).
CLOSE_UP_GAMES = ("carcassonne", "hunters", "castle")

Pos = tuple[int, int]
Spots = Mapping[int | str, str]


def colour_name(row: GameRow, seat: int) -> str:
    """The colour (English key of :data:`STYLES`) seat ``seat`` is drawn in."""
    style = seat_style(row, seat)
    return next((name for name, s in STYLES.items() if s == style), "black")


Render = Callable[[RenderOptions], Awaitable[tuple[bytes, tuple[str, ...]]]]


async def _sized(
    name: str, base: RenderOptions, render: Render
) -> tuple[discord.File, tuple[str, ...]]:
    """A picture drawn by ``render`` with ``base``'s language and marks, again with smaller
    tiles while over Discord's budget; also the letters of the squares it leaves out."""
    base = RenderOptions(lang=base.lang, dead_squares=base.dead_squares)
    png, hidden = await render(base)
    for tile in SMALLER:
        if len(png) <= BUDGET:
            break
        log.warning("%s is %d bytes; drawing it again at %d px per tile", name, len(png), tile)
        options = dataclasses.replace(base, tile_size=tile, max_side=1200, min_tile=32)
        png, hidden = await render(options)
    return discord.File(io.BytesIO(png), filename=name), hidden


#: The render worker processes of the bot (None: pictures are drawn in threads).
POOL: RenderPool | None = None


def use_pool(pool: RenderPool | None) -> None:
    """Draw every game picture in ``pool``'s workers (None: in threads)."""
    global POOL
    POOL = pool


async def _picture(name: str, game: Game | None, job: Job) -> tuple[discord.File, tuple[str, ...]]:
    """``job``'s picture of ``game``: by a render worker from the game's record, or in a
    thread from ``game`` itself when the bot has no workers (the same bytes either way).
    ``game`` is None for the pictures drawn from plain data alone (:data:`renderer.jobs.PLAIN`)."""

    async def render(options: RenderOptions) -> tuple[bytes, tuple[str, ...]]:
        return await _drawn(game, dataclasses.replace(job, options=options))

    return await _sized(name, job.options, render)


async def _drawn(game: Game | None, job: Job) -> tuple[bytes, tuple[str, ...]]:
    """``job`` drawn by a render worker, or in a thread from ``game``; counted and timed
    (:func:`bot.metrics.picture`)."""
    with metrics.picture(job.kind):
        if POOL is not None:
            return await POOL.draw(job)
        return await asyncio.to_thread(jobs.draw, game, job)


async def draw_job(game: Game, job: Job) -> bytes:
    """``job``'s bytes as drawn (no size fallback), by a render worker or in a thread."""
    data, _ = await _drawn(game, job)
    return data


async def turn_file(
    game: Game,
    lang: str,
    candidates: Mapping[Pos, str] | None = None,
    *,
    card: TileCard | None = None,
    styles: Sequence[int] = (),
    whole: bool = False,
    dead: bool = False,
    features: Mapping[tuple[int, int, int | str], str] | None = None,
) -> tuple[discord.File, tuple[str, ...]]:
    """The turn picture made for phones (see :mod:`renderer.phone`): the drawn tile, the board
    near the action with its lettered squares (the dead squares crossed out with ``dead``), the
    players; The Castle's wall-tile targets lettered too (``features``). Also returns the
    letters of the squares left outside the picture."""
    options = RenderOptions(lang=lang, dead_squares=dead)
    extra = {"features": dict(features)} if features else {}
    job = Job("turn", game.record(), options, tuple(styles), candidates, card, whole, extra)
    return await _picture("turn.png", game, job)


async def preview_file(
    game: Game,
    placement: PlaceTile | PlaceAbbey,
    spots: Spots,
    lang: str,
    *,
    styles: Sequence[int] = (),
) -> discord.File:
    """The whole board with the tile ghosted where it would go and its figure spots numbered."""
    if isinstance(placement, PlaceAbbey):
        # The abbey is not the drawn tile: its spots, with it placed on a copy of the game.
        extra: dict[str, Any] = {"tried": placement, "spots": dict(spots)}
        job = Job("spots", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    else:
        extra = {"placement": placement, "spots": dict(spots)}
        job = Job("preview", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture("preview.png", game, job))[0]


async def spots_file(
    game: Game, spots: Spots, lang: str, *, styles: Sequence[int] = ()
) -> discord.File:
    """The board with the figure spots of the tile just placed numbered."""
    extra = {"spots": dict(spots)}
    job = Job("spots", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture("spots.png", game, job))[0]


async def end_file(game: Game, lang: str, *, styles: Sequence[int] = ()) -> discord.File:
    """The final board above the per-player score breakdown chart."""
    job = Job("end", game.record(), RenderOptions(lang=lang), tuple(styles))
    return (await _picture("final.png", game, job))[0]


#: One replay drawn at a time per event loop (see :func:`replay_file`).
_REPLAYS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _replay_gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    gate = _REPLAYS.get(loop)
    if gate is None:
        gate = _REPLAYS[loop] = asyncio.Semaphore(1)
    return gate


async def replay_file(
    game: Game, lang: str, game_id: int, *, styles: Sequence[int] = ()
) -> discord.File:
    """The animated replay of the whole game so far (WebP, one frame per turn; see
    :mod:`renderer.replay`), under :data:`renderer.replay.REPLAY_LIMIT`.

    Seconds of drawing for a long game: always in a render worker (or a thread), never on the
    event loop, and one replay at a time, so that the other workers keep drawing every game's
    turns while someone watches a replay.
    """
    extra = {"max_bytes": REPLAY_LIMIT}
    job = Job("replay", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    async with _replay_gate():
        webp, _ = await _drawn(game, job)
    return discord.File(io.BytesIO(webp), filename=f"carcassonne-{game_id}-replay.webp")


# -- the placement step, wagons and the tactical hand -------------------------------------------


async def step_file(
    game: Game,
    placement: PlaceTile | PlaceAbbey | None,
    spots: Spots,
    lang: str,
    *,
    rotations: Mapping[int, str] | None = None,
    styles: Sequence[int] = (),
    ghosts: Sequence[GhostSpot] = (),
    player: int = 0,
) -> discord.File:
    """The placement step's picture (see :func:`renderer.steps.step_picture`).

    ``ghosts`` draws a see-through figure of ``player`` at each offered spot with its number
    (instead of bare ``spots`` numbers).

    ``placement`` None: the tile just placed (figure step only). ``rotations`` maps each rotation
    offered at the square to its button's caption; with more than one, a picture of each is
    drawn under the close-up, the chosen one framed.
    """
    if game.setup.game not in CLOSE_UP_GAMES:  # drawn its own way: the whole board
        if placement is None:
            return await spots_file(game, spots, lang, styles=styles)
        return await preview_file(game, placement, spots, lang, styles=styles)
    extra: dict[str, Any] = {
        "placement": placement,
        "spots": dict(spots),
        "rotations": dict(rotations or {}),
        "ghosts": tuple(ghosts),
        "player": player,
    }
    if isinstance(placement, PlaceAbbey):  # shown as placed, on a copy (see renderer.jobs)
        extra.update(tried=placement, placement=None)
    job = Job("step", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture("step.png", game, job))[0]


async def wagon_file(
    game: Game,
    targets: Mapping[tuple[int, int, int | str], str],
    lang: str,
    *,
    styles: Sequence[int] = (),
) -> discord.File:
    """The board with each place a freed wagon may go lettered on its very spot."""
    extra = {"targets": dict(targets)}
    job = Job("wagon", game.record(), RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture("wagon.png", game, job))[0]


async def hand_file(game: Game, hand: Sequence[str], lang: str) -> discord.File:
    """The tiles of a tactical hand side by side, each captioned with its number."""
    job = Job("hand", game.record(), RenderOptions(lang=lang), extra={"hand": tuple(hand)})
    return (await _picture("hand.png", game, job))[0]


async def tiles_file(game: Game, lang: str, *, dead: bool = True) -> discord.File:
    """Every tile kind not placed yet with its count (and how many squares are dead)."""
    job = Job("tiles", game.record(), RenderOptions(lang=lang, dead_squares=dead))
    return (await _picture("tiles.png", game, job))[0]


# -- pictures of their own: the help's example turn, The Castle's wall tiles -----------------------


async def help_file(
    game: Game, lang: str, candidates: Mapping[Pos, str], card: TileCard | None
) -> discord.File:
    """The help's example turn picture: a turn picture of the example ``game`` (dead squares
    crossed out, as in a game), with the legend of its marks under it."""
    options = RenderOptions(lang=lang, dead_squares=True)
    job = Job("help", game.record(), options, (), candidates, card)
    return (await _picture("help-turn.png", game, job))[0]


async def walls_file(
    game: Game, features: Mapping[tuple[int, int, int | str], str], lang: str
) -> discord.File:
    """The Castle with the wall tiles' target features lettered (``features``: the castle
    square and spot of each -> its letter)."""
    job = Job("walls", game.record(), RenderOptions(lang=lang), extra={"features": dict(features)})
    return (await _picture("walls.png", game, job))[0]


# -- pictures without a game ---------------------------------------------------------------------


async def stats_file(data: Mapping[str, Any], lang: str) -> discord.File:
    """A player's points by category as bars in their colour (see :mod:`renderer.stats`):
    ``data`` holds ``name``, ``games``, ``categories``, ``kinds`` and ``style``."""
    job = Job("stats", {}, RenderOptions(lang=lang), extra=dict(data))
    return (await _picture("stats.png", None, job))[0]


async def draw_plain(job: Job) -> bytes:
    """A picture drawn from plain data alone (:data:`renderer.jobs.PLAIN`: a tournament's
    standings or bracket), by a render worker or in a thread."""
    data, _ = await _drawn(None, job)
    return data


# -- game reviews ---------------------------------------------------------------------------------


async def review_file(
    record: Mapping[str, Any],
    moment: Moment,
    lang: str,
    game_id: int,
    rank: int,
    *,
    why: str,
    names: Sequence[str],
    styles: Sequence[int] = (),
) -> discord.File:
    """One reviewed decision of the game of ``record`` (:mod:`renderer.review`): the board
    before it with the move played beside the best, and ``why`` under them; a moment with
    nothing played (a hint) shows the best move alone. ``rank``: the costliest decisions'
    order (0 for a hint). Drawn from the record by a render worker (or a thread)."""
    extra = moment_extra(moment, why=why, names=names)
    job = Job("review", record, RenderOptions(lang=lang), tuple(styles), extra=extra)
    return (await _picture(f"carcassonne-{game_id}-review-{rank}.png", None, job))[0]
