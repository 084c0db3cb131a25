"""The Castle in Discord: its turn prompt, the wall tiles in two taps, the turn kept open for them.

A player who holds wall tiles 1-3 may play them on their own turn, before placing the tile or
after it (before the turn is scored), as the engine's decision allows. The turn message then
offers them under the picture: one button when a single wall tile can be played, else a menu
listing each (tiles 2 and 3 with their target tower or house, lettered on the turn picture after
the squares). That tap shows a private line saying what the tile will do, with **Confirm**,
which plays it: two taps, like a placement. After placing a tile with no subject, a player who
could still play a wall tile keeps the turn open
(:meth:`~bot.manager.GameManager.play_turn` does not close it): the next message offers the
subject, the wall tiles and **End my turn**.

Component ids (:mod:`bot.ui.ids`, answered here through :func:`bot.ui.components.handles`):
``WallStep`` (``cc:wall:GAME:TURN:P``) is the button of a single wall tile (on messages of
earlier releases, the button that opened a private menu of them), ``WallMenu``
(``cc:wsel:GAME:TURN:P``) the menu, ``WallConfirm`` (``cc:wok:GAME:TURN:P:CHOICE``) confirms,
and ``EndTurn`` (``cc:wend:GAME:TURN``) ends the turn; ``P`` is the phase, ``t`` (before
placing) or ``f`` (after), and a choice is ``1`` or ``2,x,y,at`` (the engine's target of a tile
2 or 3).
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
from catalogs import plural
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
    walls = len(screen.walls)
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
        menus = post.put_menus(gid, turn, options, locale)
        items.extend(menus)
        if walls:
            lines.append(tr("castle_walls_now", locale))
            items.append(wall_control(snap, "tile", row=min(len(menus), 4), locale=locale))
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
        items.append(
            button(
                ids.EndTurn(gid, turn),
                tr("castle_end_turn", locale),
                discord.ButtonStyle.success,
                row=0,
            )
        )
        if walls:  # after the buttons of row 0: a menu takes the next row
            items.append(wall_control(snap, "figure", row=1, locale=locale))
    else:
        return None
    file, _ = await images.turn_file(
        game,
        locale,
        candidates,
        card=card,
        dead=not snap.row.purist,
        features=screen.wall_marks,
    )
    components = discord.ui.View(timeout=None)
    for item in items:
        components.add_item(item)
    return "\n".join(lines), file, components


def wall_control(snap: Snapshot, phase: str, *, row: int, locale: str) -> Any:
    """The wall tiles on the turn message: one button for a single choice, else a menu with one
    entry per wall tile and target; either opens the private confirm."""
    gid, turn, walls = snap.row.id, snap.view.turn, snap.screen.walls
    if len(walls) == 1:
        label = tr("castle_wall_play", locale, what=describe(walls[0], locale))
        single = ids.WallStep(gid, turn, phase)
        return button(single, label[:80], discord.ButtonStyle.primary, row=row)
    menu = [
        discord.SelectOption(
            label=describe(wall, locale)[:100],
            value=wall.value,
            description=where_words(wall, locale)[:100] or None,
        )
        for wall in walls[:25]
    ]
    return select(ids.WallMenu(gid, turn, phase), tr("castle_wall_menu", locale), menu, row=row)


def step_lines(after: Game, locale: str) -> list[str]:
    """A note for the placement step when wall tiles stay playable after this placement."""
    if is_castle(after) and after.legal(UseWallTile):
        # Names the step's own last button, as :func:`bot.ui.turn.flow.step` labels it.
        last = tr("no_figure" if after.legal_figures() else "place_tile", locale)
        return [tr("castle_step_hint", locale, button=last)]
    return []


# -- the wall tile's confirm (ephemeral) ------------------------------------------------------


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
    """The single wall tile's button: its confirm (a button of an earlier release, sent when
    several could be played, opens the menu of them privately)."""
    snap, locale = await current(interaction, game_id, turn, phase)
    walls = snap.screen.walls
    if not walls:
        raise UIError("castle_no_wall")
    if len(walls) == 1:
        content, view = confirm_step(snap, locale, phase, walls[0])
        await interaction.response.send_message(content, view=view, ephemeral=True)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(wall_control(snap, phase, row=0, locale=locale))
    await interaction.response.send_message(
        tr("castle_wall_intro", locale), view=view, ephemeral=True
    )


async def choose(
    interaction: discord.Interaction, game_id: int, turn: int, phase: str, choice: str
) -> None:
    """A wall tile picked in the menu: its confirm, privately (in place of a private menu)."""
    snap, locale = await current(interaction, game_id, turn, phase)
    picked = next((w for w in snap.screen.walls if w.value == choice), None)
    if picked is None:
        raise UIError("castle_no_wall" if not snap.screen.walls else "stale")
    content, view = confirm_step(snap, locale, phase, picked)
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(content=content, attachments=[], view=view)
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True)


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
    """How a wall-tile choice reads in the menu: "2 · Tower C scores double for you"."""
    return tr(f"castle_wall_{choice.action.wall}", locale, label=choice.target)


def where_words(choice: WallChoice, locale: str) -> str:
    """The target of a tile 2 or 3 in words: "the tower of 3 tiles lettered C on the board"
    ("" for tile 1)."""
    if choice.action.target is None:
        return ""
    key = "castle_wall_where_tower" if choice.action.wall == 2 else "castle_wall_where_house"
    return plural("ui", key, choice.tiles, locale, label=choice.target)


def confirm_step(
    snap: Snapshot, locale: str, phase: str, choice: WallChoice
) -> tuple[str, discord.ui.View]:
    """The private confirm of one wall tile: what it does, in words, and **Confirm**."""
    gid, turn = snap.row.id, snap.view.turn
    what = describe(choice, locale)
    where = where_words(choice, locale)
    text = tr("castle_wall_confirm", locale, what=what, button=tr("confirm", locale))
    lines = [text] if not where else [f"{text}", where[:1].upper() + where[1:] + "."]
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(
            ids.WallConfirm(gid, turn, phase, choice.value),
            tr("confirm", locale),
            discord.ButtonStyle.success,
        )
    )
    return "\n".join(lines), view


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
