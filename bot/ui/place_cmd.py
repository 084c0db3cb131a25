"""``/carcassonne place``: a whole turn typed in one line, with autocomplete, checked on the server.

``cell`` is a square's letter on the board (or ``x,y``), ``rotation`` one of the legal rotations,
``figure`` a spot number shown by the autocomplete (``1``, ``2``...) or ``none``. Autocomplete
only helps: every value is checked again against the game before anything is played.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

import discord
from discord.app_commands import Choice

from bot.errors import ManagerError, NotAPlayer, NotYourTurn
from bot.i18n import quote_input
from bot.ui import post
from bot.ui.errors import UIError
from bot.ui.flow import role_name
from bot.ui.state import Snapshot, candidate_cells, resolve, snapshot, tried, turn_labels
from bot.ui.texts import player_locale, tr
from engine import Game, Pass, PlaceFigure, PlaceTile

if TYPE_CHECKING:
    from bot.app import CarcassonneBot
    from bot.storage import GameRow

Pos = tuple[int, int]


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def parse_cell(game: Game, text: str) -> Pos:
    """A letter from the board or ``x,y``; raises :class:`UIError` naming the real reason."""
    cells = candidate_cells(game)
    labels = {lab: pos for pos, lab in turn_labels(game).items()}
    key = text.strip().upper().split(" ")[0] if text.strip() else ""
    if key in labels:
        return labels[key]
    try:
        x, y = (int(v) for v in text.replace("(", "").replace(")", "").split(","))
    except ValueError:
        if key.isalpha() and len(key) <= 3 and labels:
            letters = sorted(labels, key=lambda lab: (len(lab), lab))
            raise UIError(
                "no_such_letter", cell=quote_input(key), first=letters[0], last=letters[-1]
            ) from None
        raise UIError("bad_cell", cell=quote_input(text)) from None
    if (x, y) not in cells:
        tiles = game.board.tiles
        if (x, y) in tiles:
            raise UIError("cell_taken", cell=f"({x}, {y})")
        if not any((x + dx, y + dy) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))):
            raise UIError("cell_alone", cell=f"({x}, {y})")
        raise UIError("cell_no_fit", cell=f"({x}, {y})")
    return x, y


def parse_figure(after: Game, text: str, locale: str | None = None) -> PlaceFigure | None:
    """``none``, a spot number, or ``figure.at``; None means no figure."""
    value = text.strip().lower()
    figures = after.legal_figures()
    if value in ("", "none", "aucun", "kein", "keine", "0", "-"):
        return None
    number = value.split(" ")[0]
    # Numbers are those of the placement step: one per figure choice, in the engine's order.
    if number.isdigit() and 1 <= int(number) <= len(figures):
        chosen = figures[int(number) - 1]
        if "hut" in value and chosen.figure != "hut":  # "3 hut": the hut on that same spot
            return next((f for f in figures if f.at == chosen.at and f.figure == "hut"), chosen)
        return chosen
    for figure in figures:
        if f"{figure.figure}.{figure.at}".lower() == value:
            return figure
    legal = ", ".join(str(i + 1) for i in range(len(figures)))
    none = tr("none_word", locale)
    if not legal:
        raise UIError("bad_figure_none", figure=quote_input(text), none=none)
    raise UIError("bad_figure", figure=quote_input(text), legal=legal, none=none)


async def place(
    interaction: discord.Interaction, row: GameRow, cell: str, rotation: int | None, figure: str
) -> None:
    manager = bot_of(interaction).manager
    if row.status == "lobby":
        raise UIError("not_started", game_id=row.id)
    snap = await snapshot(manager, row.id)
    locale = player_locale(interaction, snap.locale)
    view = snap.view
    if view.finished or snap.row.status != "active":
        raise UIError("game_closed", game_id=row.id)
    if snap.row.seat_of(interaction.user.id) is None:
        raise NotAPlayer(game_id=row.id)
    if view.user_id != interaction.user.id:
        raise NotYourTurn(player=snap.names[view.seat] if view.seat is not None else "?")
    if snap.require_game().hand_mode:
        raise UIError("place_hand")
    if view.phase != "tile":
        raise UIError("not_tile_phase")
    game = snap.require_game()
    x, y = parse_cell(game, cell)
    rotations = candidate_cells(game)[(x, y)]
    if rotation is None and len(rotations) == 1:
        rotation = rotations[0]
    if rotation is None:
        legal = ", ".join(f"{r}°" for r in rotations)
        raise UIError("no_rotation", legal=legal, cell=cell.strip().upper())
    if rotation not in rotations:
        legal = ", ".join(f"{r}°" for r in rotations)
        raise UIError("place_rotation", rotation=rotation, legal=legal, cell=cell.strip().upper())
    tile = PlaceTile(x, y, rotation)
    after = await asyncio.to_thread(tried, game, tile)
    chosen = parse_figure(after, figure, player_locale(interaction, row.locale))
    await interaction.response.defer(ephemeral=True, thinking=True)
    first = await manager.apply(row.id, interaction.user.id, tile, turn=view.turn, phase="tile")
    results = [first]
    if first.view.phase == "figure" and first.view.turn == view.turn:
        second = chosen or Pass()
        results.append(
            await manager.apply(row.id, interaction.user.id, second, turn=view.turn, phase="figure")
        )
    events = [e for r in results for e in r.events]
    await post.announce(bot_of(interaction), await snapshot(manager, row.id), events)
    await interaction.followup.send(tr("done", locale), ephemeral=True)


async def _snap(interaction: discord.Interaction, option: str) -> Snapshot | None:
    """The game being typed into, when the policy lets the caller see its turn's choices
    (the player in turn only); None offers nothing."""
    namespace = interaction.namespace
    try:
        row = await resolve(
            interaction, getattr(namespace, "game", None), f"autocomplete place {option}"
        )
        snap = await snapshot(bot_of(interaction).manager, row.id)
    except (UIError, ManagerError, ValueError):
        return None
    if snap.game is None or snap.view.phase != "tile" or snap.game.hand_mode:
        return None
    return snap


async def cell_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    snap = await _snap(interaction, "cell")
    if snap is None:
        return []
    labels = turn_labels(snap.require_game())
    typed = current.strip().upper()
    return [
        Choice(name=f"{lab} · ({x}, {y})", value=lab)
        for (x, y), lab in labels.items()
        if lab.startswith(typed) or not typed
    ][:25]


async def rotation_choices(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    snap = await _snap(interaction, "rotation")
    cell = getattr(interaction.namespace, "cell", None)
    if snap is None or not cell:
        return [Choice(name=f"{r}°", value=r) for r in (0, 90, 180, 270)]
    try:
        pos = parse_cell(snap.require_game(), str(cell))
    except UIError:
        return []
    return [Choice(name=f"{r}°", value=r) for r in candidate_cells(snap.require_game())[pos]]


async def figure_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    snap = await _snap(interaction, "figure")
    namespace = interaction.namespace
    none_word = tr("none_word", player_locale(interaction, snap.locale if snap else None))
    none = Choice(name=none_word, value="none")
    if snap is None or not getattr(namespace, "cell", None):
        return [none]
    game = snap.require_game()
    locale = player_locale(interaction, snap.locale)
    try:
        x, y = parse_cell(game, str(namespace.cell))
    except UIError:
        return [none]
    rotations = candidate_cells(game)[(x, y)]
    rotation = getattr(namespace, "rotation", None)
    rotation = rotation if rotation in rotations else rotations[0]
    after = await asyncio.to_thread(tried, game, PlaceTile(x, y, rotation))
    figures = after.legal_figures()
    choices = [
        Choice(
            name=f"{i + 1} · {role_name(after, f.figure, str(f.at), locale)}",
            value=f"{f.figure}.{f.at}",
        )
        for i, f in enumerate(figures)
    ]
    return [none, *choices][:25]
