"""The turn, step by step: square, rotation, figure, confirm; and the Abbey & Mayor extras.

Every step before the last is shown only to the active player (ephemeral) and changes nothing:
the choices so far travel in the components' ids (see :mod:`bot.ui.components`). Only Confirm
sends actions to the manager, which checks the turn stamp again under the game's lock, so a
double click or an old prompt can never play twice.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.narrate import ROLES
from bot.outcomes import MoveResult
from bot.ui import hunters_ui, images, post
from bot.ui.components import button, select
from bot.ui.errors import UIError
from bot.ui.state import (
    Snapshot,
    candidate_cells,
    cell_labels,
    hole_labels,
    offered_rotations,
    snapshot,
    spot_labels,
    tried,
    wagon_labels,
)
from bot.ui.texts import player_locale, tr
from engine import Action, Event, Game, MoveWagon, Pass, PlaceAbbey, PlaceFigure, PlaceTile

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

#: The decision phase each component kind answers (checked before showing anything).
PHASES = {"a": "tile", "e": "abbey_end", "c": "figure", "w": "wagon", "n": "abbey_end"}


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


async def on_component(
    interaction: discord.Interaction, f: dict[str, Any], value: str | None
) -> None:
    kind, game_id, turn = f["kind"], int(f["game"]), int(f["turn"])
    rest = f.get("rest", "").split(":") if f.get("rest") else []
    if kind == "cell":  # page, tile -> first placement step for that square
        x, y = (int(v) for v in (value or "").split(","))
        tile = rest[1] if len(rest) > 1 else "-"
        await open_step(interaction, game_id, turn, x, y, None, tile, "")
    elif kind == "hole":
        x, y = (int(v) for v in (value or "").split(","))
        await open_step(interaction, game_id, turn, x, y, rest[0], "-", "")
    elif kind == "fig":
        await open_step(interaction, game_id, turn, 0, 0, "c", "-", "")
    elif kind in ("pl", "fs"):
        x, y, rot, tile = int(rest[0]), int(rest[1]), rest[2], rest[3]
        choice = value if kind == "fs" else (rest[4] if len(rest) > 4 else "")
        await update_step(interaction, game_id, turn, x, y, rot, tile, choice or "")
    elif kind == "ok":
        x, y, rot, tile, choice = int(rest[0]), int(rest[1]), rest[2], rest[3], rest[4]
        await confirm(interaction, game_id, turn, x, y, rot, tile, choice)
    elif kind == "wag":
        await wagon_choice(interaction, game_id, turn, value or "back")
    elif kind == "abbey":
        await abbey_holes(interaction, game_id, turn)
    elif kind == "hand":
        await show_hand(interaction, game_id, turn)
    elif kind == "tile":
        await hand_tile(interaction, game_id, turn, rest[0])
    elif kind in ("wall", "wsel", "wok", "wend"):  # The Castle's wall tiles
        from bot.ui import castle_ui

        await castle_ui.on_component(interaction, f, value)


# -- the placement step (ephemeral) --------------------------------------------------------


async def open_step(
    interaction: discord.Interaction,
    game_id: int,
    turn: int,
    x: int,
    y: int,
    rot: str | None,
    tile: str,
    choice: str,
) -> None:
    phase = PHASES.get(rot or "", "tile")
    snap, locale = await current(interaction, game_id, turn, phase)
    await interaction.response.defer(ephemeral=True, thinking=True)
    game = snap.require_game()
    if rot is None:
        rotations = candidate_cells(game, None if tile == "-" else tile).get((x, y))
        if not rotations:
            raise UIError("bad_cell", cell=f"{x},{y}")
        rot = str(rotations[0])
    content, file, view = await step(snap, locale, x, y, rot, tile, choice)
    await interaction.followup.send(content, file=file, view=view, ephemeral=True)


async def update_step(
    interaction: discord.Interaction,
    game_id: int,
    turn: int,
    x: int,
    y: int,
    rot: str,
    tile: str,
    choice: str,
) -> None:
    snap, locale = await current(interaction, game_id, turn, PHASES.get(rot, "tile"))
    await interaction.response.defer()
    content, file, view = await step(snap, locale, x, y, rot, tile, choice)
    await interaction.edit_original_response(content=content, attachments=[file], view=view)


def first_action(game: Game, x: int, y: int, rot: str, tile: str) -> PlaceTile | PlaceAbbey | None:
    if rot in ("a", "e"):
        return PlaceAbbey(x, y)
    if rot == "c":
        return None
    hand = game.hand_mode
    return PlaceTile(x, y, int(rot), tile if hand and tile != "-" else None)


async def step(
    snap: Snapshot, locale: str, x: int, y: int, rot: str, tile: str, choice: str
) -> tuple[str, discord.File, discord.ui.View]:
    """The ephemeral placement message: preview, rotations, figure spots, confirm."""
    game = snap.require_game()
    gid, turn = snap.row.id, snap.view.turn
    first = first_action(game, x, y, rot, tile)
    if isinstance(first, PlaceTile):
        rotations = candidate_cells(game, first.tile).get((x, y), ())
        if first.rotation not in rotations:
            raise UIError("bad_rotation", legal=", ".join(map(str, rotations)) or "-")
    elif isinstance(first, PlaceAbbey) and (x, y) not in hole_labels(game):
        raise UIError("bad_cell", cell=f"{x},{y}")
    after = game if first is None else await asyncio.to_thread(tried, game, first)
    figures = after.legal_figures()
    spots = spot_labels(figures)
    styles = images.seat_styles(snap.row)
    offered: dict[int, str] = {}
    if isinstance(first, PlaceTile):
        for r in offered_rotations(game, (x, y), first.tile, keep=first.rotation):
            offered[r] = f"{r}°"
    file = await images.step_file(game, first, spots, locale, rotations=offered, styles=styles)
    if first is None:
        x, y = game.last_pos or (0, 0)
        lines = [tr("figure_prompt", locale)]
    else:
        if isinstance(first, PlaceAbbey):
            lines = [tr("abbey_intro", locale, where=f"({x}, {y})")]
        else:
            name = first.tile or game.decision.tile
            labels = cell_labels(candidate_cells(game, first.tile))
            lines = [
                tr(
                    "rotate_intro",
                    locale,
                    tile=name,
                    label=labels.get((x, y), "?"),
                    where=f"({x}, {y})",
                    rotation=first.rotation,
                ),
                tr("rotations_hint" if len(offered) > 1 else "one_rotation_hint", locale),
            ]
    if not figures:
        choice = "none"
        lines.append(tr("no_figures_left", locale))
    elif choice == "none":
        lines.append(tr("chosen_none", locale))
    elif choice:
        figure, at = choice.split(".", 1)
        lines.append(
            tr(
                "chosen_figure",
                locale,
                role=role_name(after, figure, at, locale),
                label=spots.get(_at(at), "?"),
            )
        )
    from bot.ui.castle_ui import step_lines

    lines.extend(step_lines(after, locale))
    lines.extend(hunters_ui.step_lines(after, locale))
    view = discord.ui.View(timeout=None)
    base = f"{gid}:{turn}:{x}:{y}:{rot}:{tile}"
    for r, caption in offered.items():  # the same captions as under the pictures
        style = discord.ButtonStyle.primary if r == rot_of(first) else discord.ButtonStyle.secondary
        view.add_item(button(f"cc:pl:{gid}:{turn}:{x}:{y}:{r}:{tile}:", caption, style, row=0))
    if figures:
        options = [
            discord.SelectOption(
                label=figure_label(after, f, spots[f.at], locale),
                value=f"{f.figure}.{f.at}",
                default=choice == f"{f.figure}.{f.at}",
            )
            for f in sorted(figures, key=lambda f: int(spots[f.at]))[:25]
        ]
        view.add_item(select(f"cc:fs:{base}", tr("figure_menu", locale), options, row=1))
        view.add_item(
            button(
                f"cc:pl:{base}:none", tr("no_figure", locale), discord.ButtonStyle.secondary, row=2
            )
        )
    view.add_item(
        button(
            f"cc:ok:{base}:{choice or 'none'}",
            tr("confirm", locale),
            discord.ButtonStyle.success,
            disabled=not choice,
            row=2,
        )
    )
    return "\n".join(lines), file, view


def rot_of(first: PlaceTile | PlaceAbbey | None) -> int | None:
    return first.rotation if isinstance(first, PlaceTile) else None


def _at(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def figure_label(game: Game, figure: PlaceFigure, label: str, locale: str) -> str:
    """A figure menu entry: "2 · knight", "2 · mayor on the city", "5 · barn on the field
    corner"."""
    role = role_name(game, figure.figure, str(figure.at), locale)
    if figure.figure == "barn":
        return tr("barn_what", locale, label=label)
    if figure.figure in ("mayor", "wagon") and game.last_pos is not None:
        x, y = game.last_pos
        feature = post.feature_name(game, x, y, figure.at, locale)
        return tr("figure_what", locale, label=label, role=role, feature=feature)
    return f"{label} · {role}"


def role_name(game: Game, figure: str, at: str, locale: str) -> str:
    """How a figure on a spot is called: knight, thief, monk, farmer, mayor, wagon, barn."""
    role = figure
    if figure in ("follower", "subject", "man") and game.last_pos is not None:
        oriented = game.board.tiles[game.last_pos].oriented
        local = oriented.feature_at(_at(at))
        if local >= 0:
            role = game.roles.get(oriented.features[local].type, figure)
    text = ROLES.get(role, (role, role))[1 if locale == "fr" else 0]
    return text.split(" ", 1)[-1]


# -- confirm: the only place that plays --------------------------------------------------------


async def confirm(
    interaction: discord.Interaction,
    game_id: int,
    turn: int,
    x: int,
    y: int,
    rot: str,
    tile: str,
    choice: str,
) -> None:
    snap, locale = await current(interaction, game_id, turn, PHASES.get(rot, "tile"))
    await interaction.response.defer()
    manager = bot_of(interaction).manager
    user = interaction.user.id
    game = snap.require_game()
    results: list[MoveResult] = []
    second: Action | None = None
    if rot == "w":
        first: Action | None = Pass() if choice == "back" else MoveWagon(x, y, _at(choice))
    elif rot == "n":
        first = Pass()
    else:
        first = first_action(game, x, y, rot, tile)
        if choice and choice != "none":
            figure, at = choice.split(".", 1)
            fx, fy = (x, y) if first is not None else (game.last_pos or (0, 0))
            second = PlaceFigure(figure, fx, fy, _at(at))
        else:
            from bot.ui.castle_ui import closing_pass

            second = await closing_pass(game, first)
    phase = PHASES.get(rot, "tile")
    try:
        if first is not None:
            results.append(await manager.apply(game_id, user, first, turn=turn, phase=phase))
            phase = "figure"
        view = results[-1].view if results else snap.view
        if second is not None and view.phase == "figure" and view.turn == turn:
            results.append(await manager.apply(game_id, user, second, turn=turn, phase="figure"))
    finally:
        if results:
            await interaction.edit_original_response(
                content=tr("done", locale), attachments=[], view=None
            )
            events: list[Event] = [e for r in results for e in r.events]
            await post.announce(bot_of(interaction), await snapshot(manager, game_id), events)


# -- wagon, abbey, hand ---------------------------------------------------------------------


async def wagon_choice(
    interaction: discord.Interaction, game_id: int, turn: int, value: str
) -> None:
    """A wagon target picked in the public menu: confirm it (ephemeral, one click)."""
    snap, locale = await current(interaction, game_id, turn, "wagon")
    if value == "back":
        text, custom = tr("chosen_wagon_back", locale), f"cc:ok:{game_id}:{turn}:0:0:w:-:back"
    else:
        x, y, at = value.split(",")
        game = snap.require_game()
        labels = wagon_labels(game.legal_wagon_moves())
        label = labels.get((int(x), int(y), _at(at)))
        if label is None:
            raise UIError("stale")
        feature = post.feature_name(game, int(x), int(y), _at(at), locale)
        text = tr("chosen_wagon", locale, label=label, feature=feature, where=f"({x}, {y})")
        custom = f"cc:ok:{game_id}:{turn}:{x}:{y}:w:-:{at}"
    view = discord.ui.View(timeout=None)
    view.add_item(button(custom, tr("confirm", locale), discord.ButtonStyle.success))
    await interaction.response.send_message(text, view=view, ephemeral=True)


async def abbey_holes(interaction: discord.Interaction, game_id: int, turn: int) -> None:
    """The "Play my abbey" button: the holes to choose from, or the step if there is one."""
    snap, locale = await current(interaction, game_id, turn, "tile")
    await interaction.response.defer(ephemeral=True, thinking=True)
    game = snap.require_game()
    holes = hole_labels(game)
    if not holes:
        raise UIError("stale")
    if len(holes) == 1:
        (x, y), _ = next(iter(holes.items()))
        content, file, view = await step(snap, locale, x, y, "a", "-", "")
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)
        return
    options = [
        discord.SelectOption(label=f"{lab} · ({x}, {y})", value=f"{x},{y}")
        for (x, y), lab in list(holes.items())[:25]
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(select(f"cc:hole:{game_id}:{turn}:a", tr("holes_menu", locale), options))
    file = await images.board_file(game, locale, holes, styles=images.seat_styles(snap.row))
    await interaction.followup.send(tr("abbey_pick", locale), file=file, view=view, ephemeral=True)


async def show_hand(interaction: discord.Interaction, game_id: int, turn: int) -> None:
    """The "My tiles" button: the clicker's own hand, shown to them only; playable on their
    turn."""
    snap = await snapshot(bot_of(interaction).manager, game_id)
    interaction.extras["locale"] = snap.locale
    locale = player_locale(interaction, snap.locale)
    seat = snap.row.seat_of(interaction.user.id)
    if snap.view.finished or snap.row.status != "active":
        raise UIError("game_closed", game_id=game_id)
    if seat is None:
        raise UIError("hand_not_player", game_id=game_id)
    game = snap.require_game()
    mine = snap.view.user_id == interaction.user.id and snap.view.phase == "tile"
    hand = game.hands[snap.view.seat if mine and snap.view.seat is not None else seat.seat]
    if mine and snap.view.turn != turn:
        raise UIError("stale")
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = discord.ui.View(timeout=None)
    if mine:
        text = tr("hand_intro", locale, hand=", ".join(hand))
        for name in dict.fromkeys(hand):
            view.add_item(
                button(f"cc:tile:{game_id}:{turn}:{name}", name, discord.ButtonStyle.primary)
            )
    else:
        player = snap.names[snap.view.seat] if snap.view.seat is not None else "?"
        text = tr("hand_wait", locale, hand=", ".join(hand), player=player)
    file = await images.hand_file(game, hand, locale)
    await interaction.followup.send(text, file=file, view=view, ephemeral=True)


async def hand_tile(interaction: discord.Interaction, game_id: int, turn: int, tile: str) -> None:
    snap, locale = await current(interaction, game_id, turn, "tile")
    if tile not in snap.view.hand:
        raise UIError("stale")
    await interaction.response.defer()
    game = snap.require_game()
    cells = candidate_cells(game, tile)
    labels = cell_labels(cells)
    view = discord.ui.View(timeout=None)
    for menu in post.cell_menus(game_id, turn, list(cells), labels, locale, tile):
        view.add_item(menu)
    file = await images.board_file(game, locale, labels, styles=images.seat_styles(snap.row))
    await interaction.edit_original_response(
        content=tr("hand_cells", locale, tile=tile), attachments=[file], view=view
    )
