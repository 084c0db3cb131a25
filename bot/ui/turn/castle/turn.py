"""The Castle in Discord: its turn prompt, the wall-tile step, and the turn kept open for it.

A player who holds wall tiles 1-3 may play them on their own turn, before placing the tile or
after it (before the turn is scored), as the engine's decision allows. The turn message then
shows a **Wall tiles** button that opens a private step: a menu of the tiles playable now (tiles
2 and 3 with their target tower or house, lettered on the board) and Confirm. After placing a tile
with no subject, a player who could still play a wall tile keeps the turn open
(:meth:`~bot.manager.GameManager.play_turn` does not close it): the next message offers the
subject, the wall tiles and **End my turn**.

Component ids (:mod:`bot.ui.ids`, answered here through :func:`bot.ui.components.handles`):
``WallStep`` (``cc:wall:GAME:TURN:P``) opens the step, ``WallMenu`` (``cc:wsel:GAME:TURN:P``) is
its menu, ``WallConfirm`` (``cc:wok:GAME:TURN:P:CHOICE``) confirms, and ``EndTurn``
(``cc:wend:GAME:TURN``) ends the turn; ``P`` is the phase, ``t`` (before placing) or ``f``
(after), and a choice is ``1`` or ``2,x,y,at`` (the engine's target of a tile 2 or 3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import digits
from bot.turn_view import WallChoice
from bot.ui import components, ids, images
from bot.ui.components import button, select
from bot.ui.errors import UIError
from bot.ui.texts import tr
from bot.ui.turn import families, post
from bot.ui.turn.state import Snapshot, bot_of, current
from bot.ui.turn.words import tile_words
from engine import Game, Pass, UseWallTile


def is_castle(game: Game | None) -> bool:
    return game is not None and game.setup.game == "castle"


# -- the turn message -------------------------------------------------------------------------


async def prompt(snap: Snapshot) -> tuple[str, discord.File, discord.ui.View] | None:
    """The castle's turn message (None for other games and finished games)."""
    game, view, locale = snap.game, snap.view, snap.locale
    if game is None or not is_castle(game) or view.finished:
        return None
    gid, turn = snap.row.id, view.turn
    who = post.mention(snap, view.seat)
    screen = snap.screen
    walls = len({w.action.wall for w in screen.walls})
    items: list[Any] = []
    candidates: Mapping[tuple[int, int], str] = {}
    card = None
    if view.phase == "tile":
        candidates = screen.labels
        card = post.tile_card(screen)
        kind = game.kinds.get(view.tile or "")
        words = tile_words(kind, locale) if kind is not None else str(view.tile)
        lines = [
            tr("your_turn", locale, player=who),
            tr("turn_place", locale, words=words),
        ]
        options = post.placement_options(screen, game, locale, abbeys=False)
        items.extend(post.put_menus(gid, turn, options, locale))
        if walls:
            lines.append(tr("castle_walls_now", locale))
            items.append(_wall_button(gid, turn, "tile", walls, locale))
    elif view.phase == "figure":
        if screen.figures:
            lines = [
                tr("your_turn", locale, player=who) + " " + tr("castle_subject_or_wall", locale)
            ]
            items.append(
                button(
                    ids.ChooseFigure(gid, turn),
                    tr("castle_choose_subject", locale),
                    discord.ButtonStyle.primary,
                    row=0,
                )
            )
        else:
            lines = [tr("your_turn", locale, player=who) + " " + tr("castle_wall_step", locale)]
        if walls:
            items.append(_wall_button(gid, turn, "figure", walls, locale))
        items.append(
            button(
                ids.EndTurn(gid, turn),
                tr("castle_end_turn", locale),
                discord.ButtonStyle.success,
                row=0,
            )
        )
    else:
        return None
    file, _ = await images.turn_file(game, locale, candidates, card=card, dead=not snap.row.purist)
    components = discord.ui.View(timeout=None)
    for item in items:
        components.add_item(item)
    return "\n".join(lines), file, components


def _wall_button(gid: int, turn: int, phase: str, count: int, locale: str) -> Any:
    return button(
        ids.WallStep(gid, turn, phase),
        tr("castle_wall_button", locale, count=count),
        discord.ButtonStyle.primary,
        row=4 if phase == "tile" else 0,
    )


def step_lines(after: Game, locale: str) -> list[str]:
    """A note for the placement step when wall tiles stay playable after this placement."""
    if is_castle(after) and after.legal(UseWallTile):
        return [tr("castle_step_hint", locale)]
    return []


# -- the wall-tile step (ephemeral) -------------------------------------------------------------


@components.handles(ids.WallStep, ids.WallMenu, ids.WallConfirm, ids.EndTurn)
async def on_component(
    interaction: discord.Interaction, value: ids.TurnId, choice: str | None
) -> None:
    game_id, turn = value.game, value.turn
    match value:
        case ids.WallStep(phase=phase):
            await open_step(interaction, game_id, turn, phase)
        case ids.WallMenu(phase=phase):
            await choose(interaction, game_id, turn, phase, choice or "")
        case ids.WallConfirm(phase=phase, choice=picked):
            await confirm(interaction, game_id, turn, phase, picked)
        case ids.EndTurn():
            await end_turn(interaction, game_id, turn)


async def open_step(interaction: discord.Interaction, game_id: int, turn: int, phase: str) -> None:
    snap, locale = await current(interaction, game_id, turn, phase)
    await interaction.response.defer(ephemeral=True, thinking=True)
    content, file, view = await wall_step(snap, locale, phase, "")
    await interaction.followup.send(content, file=file, view=view, ephemeral=True)


async def choose(
    interaction: discord.Interaction, game_id: int, turn: int, phase: str, choice: str
) -> None:
    snap, locale = await current(interaction, game_id, turn, phase)
    await interaction.response.defer()
    content, file, view = await wall_step(snap, locale, phase, choice)
    await interaction.edit_original_response(content=content, attachments=[file], view=view)


def parse_choice(text: str) -> UseWallTile:
    """A menu value back into the wall-tile action (refused as stale if it does not parse)."""
    parts = text.split(",")
    try:
        if len(parts) == 1:
            return UseWallTile(int(parts[0]))
        wall, x, y, at = parts
        spot = int(at) if digits(at.removeprefix("-")) else at
        return UseWallTile(int(wall), int(x), int(y), spot)
    except ValueError:
        raise UIError("stale") from None


def describe(choice: WallChoice, locale: str) -> str:
    """How a wall-tile choice reads in the menu: "2 · Tower A: scores double for you"."""
    return tr(f"castle_wall_{choice.action.wall}", locale, label=choice.target)


async def wall_step(
    snap: Snapshot, locale: str, phase: str, choice: str
) -> tuple[str, discord.File, discord.ui.View]:
    game = snap.require_game()
    gid, turn = snap.row.id, snap.view.turn
    screen = snap.screen
    if not screen.walls:
        raise UIError("castle_no_wall")
    values = {w.value: w for w in screen.walls}
    if choice and choice not in values:
        raise UIError("stale")
    lines = [tr("castle_wall_intro", locale)]
    if choice:
        lines.append(tr("castle_wall_chosen", locale, what=describe(values[choice], locale)))
    menu = [
        discord.SelectOption(
            label=describe(wall, locale)[:100],
            value=value,
            default=value == choice,
        )
        for value, wall in list(values.items())[:25]
    ]
    view = discord.ui.View(timeout=None)
    walls = ids.WallMenu(gid, turn, phase)
    view.add_item(select(walls, tr("castle_wall_menu", locale), menu))
    view.add_item(
        button(
            ids.WallConfirm(gid, turn, phase, choice or "-"),
            tr("confirm", locale),
            discord.ButtonStyle.success,
            disabled=not choice,
            row=1,
        )
    )
    file = await images.walls_file(game, screen.wall_marks, locale)
    return "\n".join(lines), file, view


# -- playing --------------------------------------------------------------------------------


async def confirm(
    interaction: discord.Interaction, game_id: int, turn: int, phase: str, choice: str
) -> None:
    _, locale = await current(interaction, game_id, turn, phase)
    action = parse_choice(choice)
    await interaction.response.defer()
    manager = bot_of(interaction).manager
    result = await manager.play_turn(game_id, interaction.user.id, action, turn=turn, phase=phase)
    await interaction.edit_original_response(content=tr("done", locale), attachments=[], view=None)
    await post.announce(bot_of(interaction), Snapshot.after(result), result.events)


async def end_turn(interaction: discord.Interaction, game_id: int, turn: int) -> None:
    await current(interaction, game_id, turn, "figure")
    await interaction.response.defer()
    manager = bot_of(interaction).manager
    result = await manager.play_turn(
        game_id, interaction.user.id, Pass(), turn=turn, phase="figure"
    )
    await post.announce(bot_of(interaction), Snapshot.after(result), result.events)


families.register("castle", families.FamilyHooks(prompt=prompt, step_lines=step_lines))
