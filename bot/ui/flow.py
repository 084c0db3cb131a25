"""The turn, step by step: square, rotation, figure, confirm; and the Abbey & Mayor extras.

Every step before the last is shown only to the active player (ephemeral) and changes nothing:
the choices so far travel in the components' ids (see :mod:`bot.ui.components`). Only Confirm
sends actions to the manager, which checks the turn stamp again under the game's lock, so a
double click or an old prompt can never play twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import digits
from bot.narrate import role_name as role_words
from bot.outcomes import MoveResult
from bot.ui import components, families, images, post
from bot.ui.components import button, select
from bot.ui.errors import UIError
from bot.ui.state import (
    Snapshot,
    bot_of,
    candidate_cells,
    current,
    hole_labels,
    offered_rotations,
    snapshot,
    spot_labels,
    tried,
    turn_labels,
    wagon_labels,
)
from bot.ui.texts import player_locale, tr
from bot.ui.words import spot_words, tile_words
from engine import Action, Event, Game, MoveWagon, Pass, PlaceAbbey, PlaceFigure, PlaceTile
from renderer.board import GhostSpot

if TYPE_CHECKING:
    pass

#: The decision phase each component kind answers (checked before showing anything).
PHASES = {"a": "tile", "e": "abbey_end", "c": "figure", "w": "wagon", "n": "abbey_end"}


@components.handles("cell", "hole", "fig", "put", "fs", "wag", "pl", "ok", "abbey", "hand")
@components.handles("tile", "endno", "more")
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
    elif kind == "put":  # turn message: a square and rotation -> the figure step
        await pick(interaction, game_id, turn, value or "", rest[1] if len(rest) > 1 else "-")
    elif kind == "more":
        await more_squares(interaction, game_id, turn)
    elif kind == "pl":
        x, y, rot, tile = int(rest[0]), int(rest[1]), rest[2], rest[3]
        await update_step(interaction, game_id, turn, x, y, rot, tile, "")
    elif kind == "fs":  # a figure spot from the step's menu: plays like a spot button
        x, y, rot, tile = int(rest[0]), int(rest[1]), rest[2], rest[3]
        await confirm(interaction, game_id, turn, x, y, rot, tile, value or "none")
    elif kind == "ok":
        x, y, rot, tile, choice = int(rest[0]), int(rest[1]), rest[2], rest[3], rest[4]
        await confirm(interaction, game_id, turn, x, y, rot, tile, choice)
    elif kind == "wag":
        await wagon_choice(interaction, game_id, turn, value or "back")
    elif kind == "abbey":
        await abbey_holes(interaction, game_id, turn)
    elif kind == "hand":
        await show_hand(interaction, game_id, turn)
    elif kind == "tile":  # a hand tile button of an older release: the hand now has menus
        raise UIError("stale")


# -- the placement step (ephemeral) --------------------------------------------------------

#: Discord lets a bot edit an ephemeral reply for 15 minutes; a step older than this is
#: replaced by a new one instead of edited.
STEP_EDITABLE = 14 * 60


async def show_step(
    interaction: discord.Interaction,
    game_id: int,
    content: str,
    file: discord.File,
    view: discord.ui.View,
) -> None:
    """Show a player's placement step, keeping at most one live step per player and game.

    The player's previous step is edited in place while Discord allows it (the click that
    asked for it changes nothing visible); otherwise this click's own private reply becomes
    the step and the older one is deleted. Two clicks at the same instant (a double click on a
    menu) may both have opened a private reply already: the one that finishes last is the
    step, the other is deleted, and neither answers its interaction twice.
    """
    bot = bot_of(interaction)
    key = (game_id, interaction.user.id)
    now = asyncio.get_running_loop().time()
    old = bot.steps.get(key)
    if (
        old is not None
        and now - old[1] < STEP_EDITABLE
        and old[0] is not interaction
        and not interaction.response.is_done()
    ):
        await interaction.response.defer()
        try:
            await old[0].edit_original_response(content=content, attachments=[file], view=view)
            return
        except discord.HTTPException:
            file.fp.seek(0)
            if bot.steps.get(key) is old:
                bot.steps.pop(key, None)
            await interaction.followup.send(content, file=file, view=view, ephemeral=True)
            return
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.edit_original_response(content=content, attachments=[file], view=view)
    old = bot.steps.get(key)  # read again: a click at the same instant may have shown its own
    bot.steps[key] = (interaction, now)
    if old is not None and old[0] is not interaction:
        with contextlib.suppress(discord.HTTPException):
            await old[0].delete_original_response()


def close_step(interaction: discord.Interaction, game_id: int) -> None:
    bot_of(interaction).steps.pop((game_id, interaction.user.id), None)


async def pick(
    interaction: discord.Interaction, game_id: int, turn: int, value: str, tile: str
) -> None:
    """A square-and-rotation (or abbey hole) picked in a turn message: the figure step."""
    parts = value.split(",")
    if len(parts) < 3:
        raise UIError("stale")
    x, y, rot = int(parts[0]), int(parts[1]), parts[2]
    if len(parts) > 3:
        tile = parts[3]
    snap, locale = await current(interaction, game_id, turn, PHASES.get(rot, "tile"))
    # Answer within Discord's 3 seconds before drawing (the step edits in place if it can).
    bot = bot_of(interaction)
    old = bot.steps.get((game_id, interaction.user.id))
    now = asyncio.get_running_loop().time()
    if old is None or now - old[1] >= STEP_EDITABLE:
        await interaction.response.defer(ephemeral=True, thinking=True)
    content, file, view = await step(snap, locale, x, y, rot, tile, "")
    await show_step(interaction, game_id, content, file, view)


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
    await show_step(interaction, game_id, content, file, view)


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


def numbered(figures: Sequence[PlaceFigure]) -> list[tuple[PlaceFigure, str]]:
    """Every figure choice gets its own number, 1, 2, ... (a fisher and a hut on the same
    river are two choices with two numbers)."""
    return [(f, str(i + 1)) for i, f in enumerate(figures)]


def square_label(game: Game, first: PlaceTile | PlaceAbbey | None, x: int, y: int) -> str:
    if isinstance(first, PlaceAbbey) and game.decision.phase.value != "tile":
        return hole_labels(game).get((x, y), "?")
    return turn_labels(game).get((x, y), "?")


async def step(
    snap: Snapshot, locale: str, x: int, y: int, rot: str, tile: str, choice: str = ""
) -> tuple[str, discord.File, discord.ui.View]:
    """The private placement step: the tile in place with a see-through figure on every spot
    it offers, numbered; one button per spot and **No figure**, each of which plays the move.
    Other rotations that fit the square are offered as buttons (the step is redrawn)."""
    game = snap.require_game()
    gid, turn = snap.row.id, snap.view.turn
    first = first_action(game, x, y, rot, tile)
    rotations: tuple[int, ...] = ()
    if isinstance(first, PlaceTile):
        rotations = candidate_cells(game, first.tile).get((x, y), ())
        if first.rotation not in rotations:
            raise UIError("bad_rotation", legal=", ".join(map(str, rotations)) or "-")
    elif isinstance(first, PlaceAbbey) and (x, y) not in hole_labels(game):
        raise UIError("bad_cell", cell=f"{x},{y}")
    after = game if first is None else await asyncio.to_thread(tried, game, first)
    figures = after.legal_figures()
    choices = numbered(figures)
    spots = spot_labels(figures)
    styles = images.seat_styles(snap.row)
    offered: dict[int, str] = {}
    if isinstance(first, PlaceTile):
        for r in offered_rotations(game, (x, y), first.tile, keep=first.rotation):
            offered[r] = f"{r}°"
    pos = (x, y) if first is not None else (game.last_pos or (0, 0))
    oriented = after.board.tiles[pos].oriented if pos in after.board.tiles else None
    ghosts = [GhostSpot(f.at, f.figure, n) for f, n in choices]
    seat = snap.view.seat or 0
    file = await images.step_file(
        game,
        first,
        spots,
        locale,
        rotations=offered,
        styles=styles,
        ghosts=ghosts if oriented is not None else (),
        player=seat,
    )
    label = square_label(game, first, x, y)
    if first is None:
        x, y = game.last_pos or (0, 0)
        lines = [tr("figure_prompt", locale)]
    elif isinstance(first, PlaceAbbey):
        lines = [tr("step_abbey", locale, label=label)]
    elif len(offered) > 1:
        lines = [tr("step_intro", locale, label=label, rotation=first.rotation)]
    else:
        lines = [tr("step_intro_one", locale, label=label)]
    lines.append(tr("step_pick" if figures else "step_no_spot", locale))
    lines.extend(families.hooks(after.setup.game).step_lines(after, locale))
    view = discord.ui.View(timeout=None)
    base = f"{gid}:{turn}:{x}:{y}:{rot}:{tile}"
    if len(offered) > 1:  # the other rotations that fit here, as in the pictures
        for r in offered:
            style = (
                discord.ButtonStyle.primary if r == rot_of(first) else discord.ButtonStyle.secondary
            )
            caption = tr("turn_button", locale, rotation=r)
            view.add_item(button(f"cc:pl:{gid}:{turn}:{x}:{y}:{r}:{tile}:", caption, style, row=0))
    names = [
        (
            f,
            tr(
                "spot_option",
                locale,
                label=n,
                role=role_name(after, f.figure, str(f.at), locale),
                spot=spot_words(oriented, f.at, locale) if oriented is not None else "",
            ),
        )
        for f, n in choices
    ]
    if len(names) <= 14:
        for i, (f, text) in enumerate(names):
            view.add_item(
                button(
                    f"cc:ok:{base}:{f.figure}.{f.at}",
                    text[:80],
                    discord.ButtonStyle.primary,
                    row=1 + i // 5,
                )
            )
    else:
        options = [
            discord.SelectOption(label=text[:100], value=f"{f.figure}.{f.at}")
            for f, text in names[:25]
        ]
        view.add_item(select(f"cc:fs:{base}", tr("spot_menu", locale), options, row=1))
    none_text = tr("no_figure" if figures else "place_tile", locale)
    view.add_item(button(f"cc:ok:{base}:none", none_text, discord.ButtonStyle.success, row=4))
    return "\n".join(lines), file, view


def rot_of(first: PlaceTile | PlaceAbbey | None) -> int | None:
    return first.rotation if isinstance(first, PlaceTile) else None


def _at(text: str) -> int | str:
    return int(text) if digits(text) else text


#: Figures offered with the feature they would stand on: "mayor on the city", "large follower
#: on the road", "builder on the city", "pig on the field".
ON_FEATURE = frozenset({"mayor", "wagon", "large_follower", "builder", "pig"})


def figure_label(game: Game, figure: PlaceFigure, label: str, locale: str) -> str:
    """A figure menu entry: "2 · knight", "2 · mayor on the city", "5 · barn on the field
    corner"."""
    role = role_name(game, figure.figure, str(figure.at), locale)
    if figure.figure == "barn":
        return tr("barn_what", locale, label=label)
    if figure.figure in ON_FEATURE and game.last_pos is not None:
        x, y = game.last_pos
        feature = post.feature_name(game, x, y, figure.at, locale)
        return tr("figure_what", locale, label=label, role=role, feature=feature)
    return f"{label} · {role}"


def role_name(game: Game, figure: str, at: str, locale: str) -> str:
    """How a figure on a spot is called: knight, thief, monk, farmer, mayor, wagon, barn, large
    follower, builder, pig."""
    role = figure
    if figure in ("follower", "subject", "man") and game.last_pos is not None:
        oriented = game.board.tiles[game.last_pos].oriented
        local = oriented.feature_at(_at(at))
        if local >= 0:
            role = game.roles.get(oriented.features[local].type, figure)
    text = role_words(role, locale)
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
            second = await families.hooks(game.setup.game).closing_pass(game, first)
    phase = PHASES.get(rot, "tile")
    what = played_words(game, first, second, x, y, locale)
    try:
        if first is not None:  # the tile and its figure step in one move (saved together)
            results.append(
                await manager.apply(game_id, user, first, turn=turn, phase=phase, then=second)
            )
        elif second is not None and snap.view.phase == "figure" and snap.view.turn == turn:
            results.append(await manager.apply(game_id, user, second, turn=turn, phase="figure"))
    finally:
        public = interaction.message is not None and not interaction.message.flags.ephemeral
        if results and not public:  # a public prompt is never overwritten by a private answer
            close_step(interaction, game_id)
            await interaction.edit_original_response(
                content=tr("played_step", locale, what=what) if what else tr("done", locale),
                attachments=[],
                view=None,
            )
        if results:
            events: list[Event] = [e for r in results for e in r.events]
            await post.announce(bot_of(interaction), await snapshot(manager, game_id), events)


def played_words(
    game: Game, first: Action | None, second: Action | None, x: int, y: int, locale: str
) -> str:
    """What a step played, in words: "square B, turned 90°, knight on the road, south"."""
    parts: list[str] = []
    if isinstance(first, PlaceTile):
        label = square_label(game, first, x, y)
        parts.append(tr("played_tile", locale, label=label, rotation=first.rotation))
    elif isinstance(first, PlaceAbbey):
        parts.append(tr("played_abbey", locale, label=square_label(game, first, x, y)))
    else:
        return ""
    if isinstance(second, PlaceFigure):
        kind = (
            game.kinds.get(first.tile or game.decision.tile or "")
            if isinstance(first, PlaceTile)
            else None
        )
        spot = ""
        if kind is not None and isinstance(first, PlaceTile):
            spot = spot_words(kind.oriented(first.rotation), second.at, locale)
        role = second.figure
        if kind is not None and isinstance(first, PlaceTile):
            oriented = kind.oriented(first.rotation)
            local = (
                oriented.feature_at(second.at)
                if not isinstance(second.at, str) or (second.at not in ("NW", "NE", "SE", "SW"))
                else -1
            )
            if second.figure in ("follower", "man") and local >= 0:
                role = game.roles.get(oriented.features[local].type, second.figure)
        if isinstance(first, PlaceAbbey) and role == "follower":
            role = "monk"
        text = role_words(role, locale).split(" ", 1)[-1]
        parts.append(tr("played_figure", locale, role=text, spot=spot) if spot else text)
    else:
        parts.append(tr("played_none", locale))
    return ", ".join(parts)


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
        labels = wagon_labels(game.legal(MoveWagon))
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
    file = await images.board_file(
        game, locale, holes, styles=images.seat_styles(snap.row), dead=not snap.row.purist
    )
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
    files = [await images.hand_file(game, hand, locale)]
    if mine:
        text = tr("hand_intro", locale, hand=hand_words(game, hand, locale))
        options: list[discord.SelectOption] = []
        for i, name in enumerate(dict.fromkeys(hand)):
            prefix = tr("hand_prefix", locale, n=hand.index(name) + 1)
            options.extend(post.placement_options(game, locale, name, abbeys=i == 0, prefix=prefix))
        for menu in post.put_menus(game_id, turn, options, locale, "h"):
            view.add_item(menu)
        board, _ = await images.turn_file(
            game,
            locale,
            turn_labels(game),
            styles=images.seat_styles(snap.row),
            dead=not snap.row.purist,
        )
        files.append(board)
    else:
        player = snap.names[snap.view.seat] if snap.view.seat is not None else "?"
        text = tr("hand_wait", locale, hand=hand_words(game, hand, locale), player=player)
    await interaction.edit_original_response(content=text, attachments=files, view=view)


def hand_words(game: Game, hand: Sequence[str], locale: str) -> str:
    """The tiles of a hand in words, numbered as in the picture."""
    return "; ".join(
        f"{i + 1}. {tile_words(game.kinds[name], locale)}" for i, name in enumerate(hand)
    )


async def more_squares(interaction: discord.Interaction, game_id: int, turn: int) -> None:
    """The placements past the turn message's four menus, privately (very large boards)."""
    snap, locale = await current(interaction, game_id, turn, "tile")
    await interaction.response.defer(ephemeral=True, thinking=True)
    game = snap.require_game()
    options = post.placement_options(game, locale)
    view = discord.ui.View(timeout=None)
    for menu in post.put_menus(game_id, turn, options, locale, first_page=post.MENUS, pages=5):
        view.add_item(menu)
    await interaction.edit_original_response(content=tr("more_intro", locale), view=view)
