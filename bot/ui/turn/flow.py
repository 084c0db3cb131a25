"""The turn, step by step: square, rotation, figure, confirm; and the Abbey & Mayor extras.

Every step before the last is shown only to the active player (ephemeral) and changes nothing:
the choices so far travel in the components' ids (see :mod:`bot.ui.components`). What each step
offers is the game's turn view (:mod:`bot.turn_view`). Only a confirm plays: the whole decision
(the tile and its figure, or no figure) in one :meth:`~bot.manager.GameManager.play_turn`, which
checks the turn stamp again under the game's lock, so a double click or an old prompt can never
play twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence

import discord

from bot.i18n import digits
from bot.manager import Move
from bot.narrate import feature_name as feature_words
from bot.spot_words import ON_FEATURE, figure_name, spot_words
from bot.turn_view import FigureChoice, SpotPlace, StepScreen, step_screen
from bot.ui import components, ids, images
from bot.ui.components import button, select
from bot.ui.errors import UIError
from bot.ui.texts import player_locale, tr
from bot.ui.turn import families, post
from bot.ui.turn.state import Snapshot, bot_of, current, snapshot
from bot.ui.turn.words import from_last, tile_words, wagon_words
from engine import Game, MoveWagon, Pass, PlaceAbbey, PlaceFigure, PlaceTile
from engine.core.tiles import Oriented

#: The decision phase each component kind answers (checked before showing anything).
PHASES = {"a": "tile", "e": "abbey_end", "c": "figure", "w": "wagon", "n": "abbey_end"}


@components.handles(ids.SquareMenu, ids.HoleMenu, ids.ChooseFigure, ids.PutMenu, ids.FigureMenu)
@components.handles(ids.WagonMenu, ids.PlaceStep, ids.Confirm, ids.AbbeyHoles, ids.ShowHand)
@components.handles(ids.HandTile, ids.MoreSquares)
async def on_component(
    interaction: discord.Interaction, value: ids.TurnId, choice: str | None
) -> None:
    """A turn component (The Castle's wall tiles are answered in :mod:`bot.ui.turn.castle.turn`);
    ``choice``: the value picked in a menu."""
    game_id, turn = value.game, value.turn
    match value:
        case ids.SquareMenu(tile=tile):  # a square -> the first placement step there
            x, y = (int(v) for v in (choice or "").split(","))
            await open_step(interaction, game_id, turn, x, y, None, tile, "")
        case ids.HoleMenu(code=code):
            x, y = (int(v) for v in (choice or "").split(","))
            await open_step(interaction, game_id, turn, x, y, code, "-", "")
        case ids.ChooseFigure():
            await open_step(interaction, game_id, turn, 0, 0, "c", "-", "")
        case ids.PutMenu(tile=tile):  # turn message: a square and rotation -> the figure step
            await pick(interaction, game_id, turn, choice or "", tile)
        case ids.MoreSquares():
            await more_squares(interaction, game_id, turn)
        case ids.PlaceStep(x=x, y=y, rotation=rot, tile=tile, choice=page):
            # Another rotation (page ""), or the step's other page of places ("p2", "p1").
            await update_step(interaction, game_id, turn, x, y, rot, tile, page)
        case ids.FigureMenu(x=x, y=y, rotation=rot, tile=tile):  # plays like a spot button
            await confirm(interaction, game_id, turn, x, y, rot, tile, choice or "none")
        case ids.Confirm(x=x, y=y, rotation=rot, tile=tile, choice=picked):
            await confirm(interaction, game_id, turn, x, y, rot, tile, picked)
        case ids.WagonMenu():
            await wagon_choice(interaction, game_id, turn, choice or "back")
        case ids.AbbeyHoles():
            await abbey_holes(interaction, game_id, turn)
        case ids.ShowHand():
            await show_hand(interaction, game_id, turn)
        case ids.HandTile():  # a hand tile button of an older release: the hand now has menus
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
    if rot is None:
        rotations = snap.screen.cells(None if tile == "-" else tile).get((x, y))
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


def checked_step(snap: Snapshot, first: PlaceTile | PlaceAbbey | None) -> StepScreen:
    """The step ``first`` opens, once it is one the turn offers (else :class:`UIError`)."""
    game, screen = snap.require_game(), snap.screen
    if isinstance(first, PlaceTile):
        rotations = screen.cells(first.tile).get((first.x, first.y), ())
        if first.rotation not in rotations:
            raise UIError("bad_rotation", legal=", ".join(map(str, rotations)) or "-")
    elif isinstance(first, PlaceAbbey) and (first.x, first.y) not in screen.holes:
        raise UIError("bad_cell", cell=f"{first.x},{first.y}")
    return step_screen(game, screen, first)


def figure_label(choice: FigureChoice, locale: str) -> str:
    """A figure menu entry: "2 · knight", "2 · mayor on the city", "5 · barn on the field
    corner"."""
    if choice.figure == "barn":
        return tr("barn_what", locale, label=choice.number)
    role = figure_name(choice, locale)
    if choice.figure in ON_FEATURE:
        feature = feature_words(choice.feature or "road", locale)
        return tr("figure_what", locale, label=choice.number, role=role, feature=feature)
    return f"{choice.number} · {role}"


#: Figure buttons a step shows (rows 1 to 3, five each: row 0 holds the rotations, row 4 **No
#: figure** and the pages); past it, one menu.
STEP_BUTTONS = 15


def page_of(choice: str, pages: int) -> int:
    """The page a step's ``choice`` names: ``p2`` the second, anything else the first."""
    if choice.startswith("p") and digits(choice[1:]):
        return min(max(int(choice[1:]) - 1, 0), max(pages - 1, 0))
    return 0


def page_words(page: Sequence[SpotPlace], locale: str) -> str:
    """A page button's caption: "Spots 6-9"."""
    return tr("spot_page", locale, first=page[0].number, last=page[-1].number)


async def step(
    snap: Snapshot, locale: str, x: int, y: int, rot: str, tile: str, choice: str = ""
) -> tuple[str, discord.File, discord.ui.View]:
    """The private placement step: the tile in place with one number on every place it offers
    (a feature, a barn's corner), a see-through figure there; one button per figure that may
    go on a place ("2 · knight", "2 · large follower", "2 · mayor") and **No figure**, each of
    which plays the move. A tile with more places than a picture numbers shows them on two
    pages (``choice`` ``p2``: the second), a button apart. Other rotations that fit the square
    are offered as buttons (the step is redrawn)."""
    game = snap.require_game()
    gid, turn = snap.row.id, snap.view.turn
    first = first_action(game, x, y, rot, tile)
    shown = await asyncio.to_thread(checked_step, snap, first)
    pages = shown.pages
    index = page_of(choice, len(pages))
    places = pages[index]
    figures = [f for p in places for f in p.choices]
    styles = images.seat_styles(snap.row)
    offered = {r: f"{r}°" for r in shown.rotations}
    oriented = shown.oriented
    ghosts = shown.ghosts(places)
    seat = snap.view.seat or 0
    file = await images.step_file(
        game,
        first,
        {p.at: p.number for p in places},
        locale,
        rotations=offered,
        styles=styles,
        ghosts=ghosts if oriented is not None else (),
        player=seat,
    )
    if first is None:
        x, y = shown.pos
        lines = [tr("figure_prompt", locale)]
    elif isinstance(first, PlaceAbbey):
        lines = [tr("step_abbey", locale, label=shown.label)]
    elif len(offered) > 1:
        lines = [tr("step_intro", locale, label=shown.label, rotation=first.rotation)]
    else:
        lines = [tr("step_intro_one", locale, label=shown.label)]
    lines.append(tr("step_pick" if figures else "step_no_spot", locale))
    if places and oriented is not None:
        lines.append(
            " · ".join(
                tr("spot_place", locale, label=p.number, spot=spot_words(oriented, p.at, locale))
                for p in places
            )
        )
    if len(pages) > 1:
        others = " · ".join(page_words(p, locale) for i, p in enumerate(pages) if i != index)
        lines.append(
            tr(
                "step_page",
                locale,
                first=places[0].number,
                last=places[-1].number,
                total=len(shown.places),
                other=others,
            )
        )
    lines.extend(families.hooks(game.setup.game).step_lines(shown.after, locale))
    view = discord.ui.View(timeout=None)
    if len(offered) > 1:  # the other rotations that fit here, as in the pictures
        for r in offered:
            style = (
                discord.ButtonStyle.primary if r == rot_of(first) else discord.ButtonStyle.secondary
            )
            caption = tr("turn_button", locale, rotation=r)
            place = ids.PlaceStep(gid, turn, x, y, str(r), tile)
            view.add_item(button(place, caption, style, row=0))
    if len(figures) <= STEP_BUTTONS:
        for i, f in enumerate(figures):
            text = tr("spot_button", locale, label=f.number, role=figure_name(f, locale))
            view.add_item(
                button(
                    ids.Confirm(gid, turn, x, y, rot, tile, f.value),
                    text[:80],
                    discord.ButtonStyle.primary,
                    row=1 + i // 5,
                )
            )
    else:
        options = [
            discord.SelectOption(label=spot_option(f, oriented, locale)[:100], value=f.value)
            for f in figures[:25]
        ]
        spots = ids.FigureMenu(gid, turn, x, y, rot, tile)
        view.add_item(select(spots, tr("spot_menu", locale), options, row=1))
    none_text = tr("no_figure" if shown.figures else "place_tile", locale)
    no_figure = ids.Confirm(gid, turn, x, y, rot, tile, "none")
    view.add_item(button(no_figure, none_text, discord.ButtonStyle.success, row=4))
    for i, page in enumerate(pages):
        if i != index:
            turn_page = ids.PlaceStep(gid, turn, x, y, rot, tile, f"p{i + 1}")
            caption = page_words(page, locale)
            view.add_item(button(turn_page, caption, discord.ButtonStyle.secondary, row=4))
    return "\n".join(lines), file, view


def spot_option(choice: FigureChoice, oriented: Oriented | None, locale: str) -> str:
    """A figure named with its place in words: "2 · knight · city, north" (a menu, the typed
    command's list)."""
    spot = spot_words(oriented, choice.action.at, locale) if oriented is not None else ""
    return tr(
        "spot_option", locale, label=choice.number, role=figure_name(choice, locale), spot=spot
    )


def rot_of(first: PlaceTile | PlaceAbbey | None) -> int | None:
    return first.rotation if isinstance(first, PlaceTile) else None


def _at(text: str) -> int | str:
    return int(text) if digits(text) else text


# -- confirm: the only place that plays --------------------------------------------------------


def chosen_move(
    snap: Snapshot, locale: str, x: int, y: int, rot: str, tile: str, choice: str
) -> tuple[Move, str]:
    """The whole decision a confirm button names, and what it plays in words."""
    if rot == "w":
        return Move((Pass() if choice == "back" else MoveWagon(x, y, _at(choice)),)), ""
    if rot == "n":
        return Move((Pass(),)), ""
    game = snap.require_game()
    first = first_action(game, x, y, rot, tile)
    shown = checked_step(snap, first)
    head: tuple[PlaceTile | PlaceAbbey, ...] = () if first is None else (first,)
    if choice and choice != "none":
        picked = next((f for f in shown.figures if f.value == choice), None)
        if picked is None:  # not offered: the engine says why
            figure, at = choice.split(".", 1)
            fx, fy = shown.pos
            return Move((*head, PlaceFigure(figure, fx, fy, _at(at)))), ""
        return Move((*head, picked.action)), played_words(shown, picked, locale)
    return Move(head, close=True), played_words(shown, None, locale)


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
    move, what = await asyncio.to_thread(chosen_move, snap, locale, x, y, rot, tile, choice)
    phase = PHASES.get(rot, "tile")
    result = await manager.play_turn(game_id, interaction.user.id, move, turn=turn, phase=phase)
    public = interaction.message is not None and not interaction.message.flags.ephemeral
    if not public:  # a public prompt is never overwritten by a private answer
        close_step(interaction, game_id)
        await interaction.edit_original_response(
            content=tr("played_step", locale, what=what) if what else tr("done", locale),
            attachments=[],
            view=None,
        )
    await post.announce(bot_of(interaction), Snapshot.after(result), result.events)


def played_words(shown: StepScreen, figure: FigureChoice | None, locale: str) -> str:
    """What a step played, in words: "square B, turned 90°, knight on the road, south"."""
    first = shown.first
    parts: list[str] = []
    if isinstance(first, PlaceTile):
        parts.append(tr("played_tile", locale, label=shown.label, rotation=first.rotation))
    elif isinstance(first, PlaceAbbey):
        parts.append(tr("played_abbey", locale, label=shown.label))
    else:
        return ""
    if figure is not None:
        text = figure_name(figure, locale)
        spot = ""
        if isinstance(first, PlaceTile) and shown.oriented is not None:
            spot = spot_words(shown.oriented, figure.action.at, locale)
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
        text = tr("chosen_wagon_back", locale)
        custom = ids.Confirm(game_id, turn, 0, 0, "w", "-", "back")
    else:
        x, y, at = value.split(",")
        spot = (int(x), int(y), _at(at))
        target = next((w for w in snap.screen.wagons if w.spot == spot), None)
        if target is None:
            raise UIError("stale")
        words, place = wagon_words(snap.require_game(), *spot, locale)
        text = tr("chosen_wagon", locale, label=target.label, spot=words, place=place)
        custom = ids.Confirm(game_id, turn, int(x), int(y), "w", "-", at)
    view = discord.ui.View(timeout=None)
    view.add_item(button(custom, tr("confirm", locale), discord.ButtonStyle.success))
    await interaction.response.send_message(text, view=view, ephemeral=True)


async def abbey_holes(interaction: discord.Interaction, game_id: int, turn: int) -> None:
    """The "Play my abbey" button: the holes to choose from, or the step if there is one."""
    snap, locale = await current(interaction, game_id, turn, "tile")
    await interaction.response.defer(ephemeral=True, thinking=True)
    game = snap.require_game()
    holes = snap.screen.hole_labels()
    if not holes:
        raise UIError("stale")
    if len(holes) == 1:
        (x, y), _ = next(iter(holes.items()))
        content, file, view = await step(snap, locale, x, y, "a", "-", "")
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)
        return
    options = [
        discord.SelectOption(label=f"{lab} · {from_last(game, x, y, locale)}", value=f"{x},{y}")
        for (x, y), lab in list(holes.items())[:25]
    ]
    view = discord.ui.View(timeout=None)
    holes_menu = ids.HoleMenu(game_id, turn, "a")
    view.add_item(select(holes_menu, tr("holes_menu", locale), options))
    # The phone picture with the holes lettered (the menu lists every hole, seen or not).
    file, _ = await images.turn_file(
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
            options.extend(
                post.placement_options(
                    snap.screen, game, locale, name, abbeys=i == 0, prefix=prefix
                )
            )
        for menu in post.put_menus(game_id, turn, options, locale, "h"):
            view.add_item(menu)
        board, _ = await images.turn_file(
            game,
            locale,
            snap.screen.labels,
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
    options = post.placement_options(snap.screen, game, locale)
    view = discord.ui.View(timeout=None)
    for menu in post.put_menus(game_id, turn, options, locale, first_page=post.MENUS, pages=5):
        view.add_item(menu)
    await interaction.edit_original_response(content=tr("more_intro", locale), view=view)
