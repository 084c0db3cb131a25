"""``/carcassonne review``: a finished game's review, and with ``hint`` the expert's move now.

The review (:mod:`bot.manager.reviews`) is computed once, in the review workers, and stored; this
module asks for it, shows its progress meanwhile (the answer edited at most every
:data:`PROGRESS_EVERY` seconds) and posts it: each player's accuracy (the share of their
decisions within a point of the best) and points lost per turn, then the game's three costliest
decisions, each as a picture of the move played beside the best (drawn by the render workers)
with a sentence of why in the reader's language. A second call posts the stored review at once.

With ``hint: True``, in a practice game (one person against computer players, not a league
game) the player in turn sees the expert's best move for their turn, on a picture, privately;
it is refused everywhere else, saying why. Hints are an option of ``review`` rather than a
command of their own: ``/carcassonne`` holds at most 25 subcommands (Discord's limit) and both
ask the same player of the expert, about a game's decisions.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

import discord
from babel.numbers import format_decimal, format_percent

from ai.review import Moment, Reason, Review
from bot.i18n import language
from bot.lobby import player_names
from bot.storage import GameRow
from bot.ui import images
from bot.ui.errors import UIError
from bot.ui.texts import player_locale, tr, trn

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

#: The progress message is edited at most this often (seconds).
PROGRESS_EVERY = 3.0


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def shared(interaction: discord.Interaction, row: GameRow) -> bool:
    """Whether the review may be posted for all to see: a public game's, or a private game's in
    its own private thread (only its table reads there)."""
    return not row.private or interaction.channel_id == row.thread_id


def _decimal(value: float, locale: str) -> str:
    return format_decimal(value, format="0.0", locale=language(locale))


def _percent(value: float, locale: str) -> str:
    return format_percent(value, format="0%", locale=language(locale))


def player_lines(review: Review, names: list[str], locale: str) -> list[str]:
    """One line per player: accuracy, points lost per turn, decisions counted."""
    lines = []
    for player in review.players:
        lines.append(
            trn(
                "review_player",
                player.decisions,
                locale,
                name=names[player.seat],
                accuracy=_percent(player.accuracy, locale),
                lost=_decimal(player.lost_per_turn, locale),
                count=player.decisions,
            )
        )
    return lines


def why_text(reason: Reason, locale: str, names: list[str]) -> str:
    """The sentence saying why the best move was better, in the reader's language."""
    from ai.review import reason_text

    return str(reason_text(reason, locale, names))


def moment_line(moment: Moment, rank: int, names: list[str], locale: str, why: str) -> str:
    return tr(
        "review_costly",
        locale,
        rank=rank,
        turn=moment.turn + 1,
        name=names[moment.seat],
        lost=_decimal(moment.loss, locale),
        why=why,
    )


async def show_review(interaction: discord.Interaction, row: GameRow) -> None:
    """Post the finished game's review where asked (privately for a private game outside its
    thread): from storage, or computed now with a progress message."""
    manager = bot_of(interaction).manager
    manager.reviews.check_reviewable(row)  # refused privately, before anything is posted
    locale = player_locale(interaction, row.locale)
    await interaction.response.defer(thinking=True, ephemeral=not shared(interaction, row))
    review = await manager.reviews.stored(row.id)
    if review is None:
        review = await _computed(interaction, row, locale)
    names = list(player_names(row.seats))
    record = (await manager.engine_copy(row.id)).record()
    styles = images.seat_styles(row)
    lines = [tr("review_title", locale, game_id=row.id)]
    lines += player_lines(review, names, locale)
    drawing = []
    for rank, index in enumerate(review.costliest, start=1):
        moment = review.moments[index]
        why = why_text(moment.reason, locale, names)
        lines.append(moment_line(moment, rank, names, locale, why))
        drawing.append(
            images.review_file(
                record, moment, locale, row.id, rank, why=why, names=names, styles=styles
            )
        )
    files = list(await asyncio.gather(*drawing))  # the render workers draw them side by side
    if not review.costliest:
        lines.append(tr("review_flawless", locale))
    await interaction.edit_original_response(content="\n".join(lines), attachments=files)


async def _computed(interaction: discord.Interaction, row: GameRow, locale: str) -> Review:
    """The review computed now (or by the call that started it first), the answer edited with
    its progress at most every :data:`PROGRESS_EVERY` seconds meanwhile."""
    manager = bot_of(interaction).manager
    task = asyncio.ensure_future(manager.reviews.review(row.id))
    await interaction.edit_original_response(content=tr("review_starting", locale, game_id=row.id))
    shown: tuple[int, int | None] = (0, None)
    while True:
        done, _ = await asyncio.wait({task}, timeout=PROGRESS_EVERY)
        if done:
            return task.result()
        progress = manager.reviews.progress(row.id)
        now = (progress.done, progress.total) if progress is not None else (0, None)
        if now == shown:
            continue
        shown = now
        if now[1] is None:
            text = tr("review_starting", locale, game_id=row.id)
        else:
            text = trn("review_progress", now[1], locale, game_id=row.id, done=now[0], total=now[1])
        await interaction.edit_original_response(content=text)


async def show_hint(interaction: discord.Interaction, row: GameRow) -> None:
    """The expert's best move for the caller's turn in a practice game, to them alone."""
    if row.status == "lobby":
        raise UIError("not_started", game_id=row.id)
    manager = bot_of(interaction).manager
    locale = player_locale(interaction, row.locale)
    await interaction.response.defer(thinking=True, ephemeral=True)
    hint = await manager.reviews.hint(row.id)
    names = list(player_names(row.seats))
    game = await manager.engine_copy(row.id)
    if not game.hand_mode:  # what the table has seen, no seed: the picture draws from that
        game = await manager.records.public_copy(row.id)
    # (A tactical hand's move names the player's own tile, which only the real game holds;
    # the picture shows the board and that move, nothing of the stack or others' hands.)
    record = game.record()
    # Only the best move: nothing was played yet (the picture shows the board and that move).
    moment = Moment(
        index=hint.index,
        turn=hint.turn,
        seat=hint.seat,
        played=(),
        best=hint.actions,
        played_value=0.0,
        best_value=0.0,
        loss=0.0,
        reason=Reason("hint"),
    )
    why = tr("hint_why", locale)
    file = await images.review_file(
        record, moment, locale, row.id, 0, why=why, names=names, styles=images.seat_styles(row)
    )
    text = tr("hint_shown", locale, game_id=row.id, turn=hint.turn + 1)
    await interaction.edit_original_response(content=text, attachments=[file])
