"""Read-only game state for the Discord layer: a private engine copy and the labels players see.

The manager owns the live game; the Discord layer needs its own copy to draw prompts and to try a
placement before it is confirmed (which figure spots would the tile offer?). Replaying the record
costs a few milliseconds and happens in a worker thread, so the live game is never touched.
Labels are derived from the state alone (reading order), so a prompt drawn before a restart and
its re-rendering after agree.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import discord

from bot.errors import GameNotFound
from bot.lobby import player_names
from bot.manager import GameManager
from bot.outcomes import TurnView
from bot.storage import GameRow
from bot.ui import access
from bot.ui.errors import UIError
from bot.ui.texts import player_locale
from engine import Game, MoveWagon, PlaceAbbey, PlaceFigure, PlaceTile
from engine.core.turn import distinct_orientations

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

Pos = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game row, its decision, and a private engine copy to draw and try moves on."""

    row: GameRow
    view: TurnView
    game: Game | None

    @property
    def names(self) -> tuple[str, ...]:
        return player_names(self.row.seats)

    @property
    def locale(self) -> str:
        return self.row.locale or "en"

    def require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError(f"game {self.row.id} has not started")
        return self.game


async def resolve(
    interaction: discord.Interaction, game: int | None, action: str | None
) -> GameRow:
    """The game named, else the one game of this thread or channel, once the policy lets the
    caller do ``action`` to it (None: only to find the context, such as help's language; a
    game of another server is then never found)."""
    manager = bot_of(interaction).manager
    if game is not None:
        row = await manager.game(game)
    else:
        channel_id = interaction.channel_id or 0
        rows = await manager.records.games_in_channel(channel_id)
        in_thread = [r for r in rows if r.thread_id == channel_id]
        rows = in_thread or rows
        if not rows:  # a finished game's own thread still answers for it
            ended = await manager.records.games_in_channel(channel_id, ("finished", "abandoned"))
            rows = [r for r in ended if r.thread_id == channel_id]
        if not rows:
            raise UIError("no_game_here")
        if len(rows) > 1:
            raise UIError("several_games", ids=", ".join(f"#{r.id}" for r in rows[:10]))
        row = rows[0]
    if action is not None:
        await access.authorise(interaction, action, row)
    elif row.guild_id is not None and row.guild_id != interaction.guild_id:
        raise GameNotFound(game_id=row.id)
    interaction.extras["locale"] = row.locale
    return row


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


async def current(
    interaction: discord.Interaction, game_id: int, turn: int, phase: str
) -> tuple[Snapshot, str]:
    """The game, checked: the stamp is current and the clicking user is the one to decide."""
    snap = await snapshot(bot_of(interaction).manager, game_id)
    interaction.extras["locale"] = snap.locale
    locale = player_locale(interaction, snap.locale)
    view = snap.view
    if view.finished or snap.row.status != "active":
        raise UIError("game_closed", game_id=game_id)
    if view.turn != turn or view.phase != phase:
        raise UIError("stale")
    if view.user_id != interaction.user.id:
        name = snap.names[view.seat] if view.seat is not None else "?"
        raise UIError("not_for_you", player=name)
    return snap, locale


async def snapshot(manager: GameManager, game_id: int) -> Snapshot:
    """The game as it is now, with a private copy of its engine state (a fork of the
    manager's, never the live one: pictures and previews may play on it)."""
    view = await manager.decision(game_id)
    if view.game.seed is None:
        return Snapshot(view.game, view, None)
    game = await manager.engine_copy(game_id)
    if game.decision.turn != view.turn:  # a move landed in between: describe the newer state
        view = await manager.decision(game_id)
    return Snapshot(view.game, view, game)


def label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: short labels players read on the board and in menus."""
    letters = string.ascii_uppercase
    if index < 26:
        return letters[index]
    return letters[index // 26 - 1] + letters[index % 26]


def reading_order(cells: Iterable[Pos]) -> list[Pos]:
    return sorted(set(cells), key=lambda p: (p[1], p[0]))


def candidate_cells(game: Game, tile: str | None = None) -> dict[Pos, tuple[int, ...]]:
    """Legal squares (in reading order) -> their legal rotations, for ``tile`` from a hand."""
    found: dict[Pos, list[int]] = {}
    for placement in game.legal_placements():
        if tile is None or placement.tile in (None, tile):
            found.setdefault((placement.x, placement.y), []).append(placement.rotation)
    return {pos: tuple(sorted(found[pos])) for pos in reading_order(found)}


def cell_labels(cells: Iterable[Pos]) -> dict[Pos, str]:
    return {pos: label(i) for i, pos in enumerate(reading_order(cells))}


def turn_labels(game: Game, tile: str | None = None) -> dict[Pos, str]:
    """The letters of a tile turn: the squares where the tile fits and, when the player may
    play their abbey instead, the holes, lettered together in reading order."""
    cells = set(candidate_cells(game, tile))
    if game.decision.phase.value == "tile":
        cells |= {(a.x, a.y) for a in game.legal(PlaceAbbey)}
    return cell_labels(cells)


def hole_labels(game: Game) -> dict[Pos, str]:
    return cell_labels((a.x, a.y) for a in game.legal(PlaceAbbey))


def wagon_labels(moves: Sequence[MoveWagon]) -> dict[tuple[int, int, int | str], str]:
    ordered = sorted(moves, key=lambda m: (m.y, m.x, str(m.at)))
    return {(m.x, m.y, m.at): label(i) for i, m in enumerate(ordered)}


def spot_labels(figures: Sequence[PlaceFigure]) -> dict[int | str, str]:
    """Spot (``at``) -> "1", "2", ... in the order the engine lists them."""
    spots: dict[int | str, str] = {}
    for figure in figures:
        spots.setdefault(figure.at, str(len(spots) + 1))
    return spots


def rotations_of(game: Game, pos: Pos, tile: str | None = None) -> tuple[int, ...]:
    return candidate_cells(game, tile).get(pos, ())


def tried(game: Game, first: PlaceTile | PlaceAbbey) -> Game:
    """A copy of ``game`` with ``first`` played (to list the figure spots it would offer)."""
    copy = game.fork()
    copy.play(first)
    return copy


def distinct(game: Game, tile: str) -> list[int]:
    """The rotations of a tile that look different (symmetric ones are offered once)."""
    return distinct_orientations(game.kinds[tile])


def offered_rotations(
    game: Game, pos: Pos, tile: str | None = None, keep: int | None = None
) -> tuple[int, ...]:
    """The rotations offered at ``pos``: legal ones, each look once (plus ``keep`` if legal)."""
    legal = candidate_cells(game, tile).get(pos, ())
    name = tile or game.decision.tile
    if name is None or name not in game.kinds:
        return legal
    looks = set(distinct(game, name))
    return tuple(r for r in legal if r in looks or r == keep)
