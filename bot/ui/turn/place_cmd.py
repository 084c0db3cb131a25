"""``/carcassonne place``: a whole turn typed in one line, with autocomplete, checked on the server.

``cell`` is a square's letter on the board (or ``x,y``), ``rotation`` one of the legal rotations,
``figure`` a spot number shown by the autocomplete (``1``, ``2``...) or ``none``. With Abbey &
Mayor, a hole's letter plays the abbey there instead of the tile (``F abbey`` where the tile fits
the hole too; an abbey takes no rotation), as the turn message's menus offer it. The
autocomplete offers exactly the menus' squares, rotations and spots; it only helps: every value
is checked again against the game before anything is played. Numbers are ASCII digits.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

import discord
from discord.app_commands import Choice

from bot.errors import ManagerError, NotAPlayer, NotYourTurn
from bot.i18n import digits, quote_input
from bot.manager import Move
from bot.spot_words import figure_name
from bot.turn_view import FigureChoice, TurnScreen, step_screen
from bot.ui.errors import UIError
from bot.ui.texts import player_locale, tr
from bot.ui.turn import post
from bot.ui.turn.flow import spot_option
from bot.ui.turn.state import Snapshot, resolve, snapshot
from catalogs import LANGUAGES
from engine import Game, PlaceAbbey, PlaceFigure, PlaceTile

if TYPE_CHECKING:
    from bot.app import CarcassonneBot
    from bot.storage import GameRow

Pos = tuple[int, int]


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


#: Coordinates typed for a square: ``x,y`` or ``(x, y)``, ASCII digits only.
COORDINATES = re.compile(r"\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?")
#: The sign of the abbey in the ``cell`` option (the words are the catalogs' ``abbey_word``).
ABBEY_SIGN = "⛪"


def abbey_words() -> frozenset[str]:
    """What may follow a square to ask for the abbey there ("F abbey"), in every language."""
    return frozenset({tr("abbey_word", lang).casefold() for lang in LANGUAGES} | {ABBEY_SIGN})


class Square(NamedTuple):
    """A square typed in ``cell``: where, whether the abbey goes there, and how to name it."""

    pos: Pos
    abbey: bool
    shown: str


def parse_square(game: Game, screen: TurnScreen, text: str) -> Square:
    """A letter from the board or ``x,y``, and whether the abbey goes there (a hole where the
    tile does not fit, or a hole asked for with "abbey"), as the turn message's menus offer
    them; raises :class:`UIError` naming the real reason."""
    head, _, last = text.strip().rpartition(" ")
    asked = bool(head.strip()) and last.casefold() in abbey_words()
    typed = head.strip() if asked else text.strip()
    cells = screen.squares
    hollow = set(screen.holes)
    lettered = screen.labels
    labels = {lab: pos for pos, lab in lettered.items()}
    word = typed.split(" ")[0] if typed else ""
    key = word.upper() if word.isascii() else word  # "ß".upper() is "SS": letters are ASCII
    if key in labels:
        pos, shown = labels[key], key
    else:
        found = COORDINATES.fullmatch(typed)
        if found is None:
            if key.isalpha() and len(key) <= 3 and labels:
                letters = sorted(labels, key=lambda lab: (len(lab), lab))
                raise UIError(
                    "no_such_letter", cell=quote_input(key), first=letters[0], last=letters[-1]
                )
            raise UIError("bad_cell", cell=quote_input(text))
        pos = (int(found[1]), int(found[2]))
        shown = f"({pos[0]}, {pos[1]})"
    if asked or (pos not in cells and pos in hollow):
        if pos in hollow:
            return Square(pos, True, shown)
        if not hollow:
            raise UIError("abbey_none")
        where = ", ".join(lab for hole, lab in lettered.items() if hole in hollow)
        raise UIError("abbey_not_hole", cell=shown, holes=where)
    if pos not in cells:
        x, y = pos
        tiles = game.board.tiles
        if pos in tiles:
            raise UIError("cell_taken", cell=f"({x}, {y})")
        if not any((x + dx, y + dy) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))):
            raise UIError("cell_alone", cell=f"({x}, {y})")
        raise UIError("cell_no_fit", cell=f"({x}, {y})")
    return Square(pos, False, shown)


def parse_cell(game: Game, screen: TurnScreen, text: str) -> Pos:
    """The square of :func:`parse_square` (the tile's or the abbey's)."""
    return parse_square(game, screen, text).pos


def first_move(
    game: Game, screen: TurnScreen, text: str, rotation: int | None
) -> PlaceTile | PlaceAbbey:
    """The tile (or the abbey) that ``cell`` and ``rotation`` ask for, as the menus offer it:
    the rotation may be left out where the tile lies one way only (as the menus show it)."""
    square = parse_square(game, screen, text)
    (x, y), cell = square.pos, square.shown
    if square.abbey:
        if rotation is not None:
            raise UIError("abbey_rotation", cell=cell)
        return PlaceAbbey(x, y)
    rotations = screen.squares[(x, y)]
    offered = screen.offered((x, y)) or rotations
    if rotation is None and len(offered) == 1:
        rotation = offered[0]
    if rotation is None:
        legal = ", ".join(f"{r}°" for r in offered)
        raise UIError("no_rotation", legal=legal, cell=cell)
    if rotation not in rotations:
        legal = ", ".join(f"{r}°" for r in offered)
        raise UIError("place_rotation", rotation=rotation, legal=legal, cell=cell)
    return PlaceTile(x, y, rotation)


def parse_figure(
    figures: Sequence[FigureChoice], text: str, locale: str | None = None
) -> PlaceFigure | None:
    """``none``, a spot number (the step's: one per place), a spot number and a figure ("3
    hut", "2 mayor", "2 large"), or ``figure.at`` among the step's ``figures``; None means no
    figure. A bare number is the first figure its place offers (the follower, where one may
    go)."""
    value = text.strip().lower()
    if value in ("", "none", "aucun", "kein", "keine", "0", "-"):
        return None
    number, _, rest = value.partition(" ")
    at_place = [f for f in figures if f.number == number]
    if digits(number) and at_place:
        word = rest.strip()
        if word:
            for choice in at_place:
                names = (choice.figure, choice.role, figure_name(choice, locale or "en"))
                if any(n.lower().replace("_", " ").startswith(word) for n in names):
                    return choice.action
        return at_place[0].action
    for choice in figures:
        if choice.value.lower() == value:
            return choice.action
    legal = ", ".join(dict.fromkeys(f.number for f in figures))
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
    game, screen = snap.require_game(), snap.screen
    tile = first_move(game, screen, cell, rotation)
    shown = await asyncio.to_thread(step_screen, game, screen, tile)
    chosen = parse_figure(shown.figures, figure, player_locale(interaction, row.locale))
    await interaction.response.defer(ephemeral=True, thinking=True)
    # The whole turn in one move, as the buttons play it (a crash never splits a turn).
    move = Move((tile, chosen)) if chosen is not None else Move((tile,), close=True)
    user = interaction.user.id
    played = await manager.play_turn(row.id, user, move, turn=view.turn, phase="tile", via="place")
    await post.announce(bot_of(interaction), Snapshot.after(played), list(played.events))
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
    """The squares of the turn message's menus: each square where the tile fits, and each
    hole for the abbey ("F abbey"), lettered as on the board."""
    snap = await _snap(interaction, "cell")
    if snap is None:
        return []
    screen = snap.screen
    locale = player_locale(interaction, snap.locale)
    cells, hollow = screen.squares, set(screen.holes)
    typed = current.strip().upper()
    choices: list[Choice[str]] = []
    for (x, y), lab in screen.labels.items():
        if typed and not lab.startswith(typed.split(" ")[0]):
            continue
        if (x, y) in cells:
            choices.append(Choice(name=f"{lab} · ({x}, {y})", value=lab))
        if (x, y) in hollow:
            name = f"{ABBEY_SIGN} {tr('put_abbey', locale, label=lab)} · ({x}, {y})"
            choices.append(Choice(name=name, value=f"{lab} {tr('abbey_word', locale)}"))
    return choices[:25]


async def rotation_choices(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """The rotations the menus offer on the square typed (none for the abbey)."""
    snap = await _snap(interaction, "rotation")
    cell = getattr(interaction.namespace, "cell", None)
    if snap is None or not cell:
        return [Choice(name=f"{r}°", value=r) for r in (0, 90, 180, 270)]
    game, screen = snap.require_game(), snap.screen
    try:
        pos, abbey, _ = parse_square(game, screen, str(cell))
    except UIError:
        return []
    if abbey:
        return []
    offered = screen.offered(pos) or screen.squares[pos]
    return [Choice(name=f"{r}°", value=r) for r in offered]


async def figure_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The figure spots of the step the menus open for the square (and rotation) typed."""
    snap = await _snap(interaction, "figure")
    namespace = interaction.namespace
    none_word = tr("none_word", player_locale(interaction, snap.locale if snap else None))
    none = Choice(name=none_word, value="none")
    if snap is None or not getattr(namespace, "cell", None):
        return [none]
    game, screen = snap.require_game(), snap.screen
    locale = player_locale(interaction, snap.locale)
    try:
        (x, y), abbey, _ = parse_square(game, screen, str(namespace.cell))
    except UIError:
        return [none]
    first: PlaceTile | PlaceAbbey = PlaceAbbey(x, y)
    if not abbey:
        rotations = screen.squares[(x, y)]
        offered = screen.offered((x, y)) or rotations
        rotation = getattr(namespace, "rotation", None)
        first = PlaceTile(x, y, rotation if rotation in rotations else offered[0])
    shown = await asyncio.to_thread(step_screen, game, screen, first)
    choices = [
        Choice(name=spot_option(f, shown.oriented, locale)[:100], value=f.value)
        for f in shown.figures
    ]
    return [none, *choices][:25]
