"""Lobby rules as pure functions: each takes a stored game row and returns the changed row.

The manager calls these under the game's lock and saves the result; keeping them free of I/O
makes every refusal easy to test. Setup values (game kind, expansions, options) are checked by
the engine's own :class:`engine.Setup`, so new games and options need no change here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.errors import (
    AlreadyJoined,
    BadColour,
    BadLevel,
    BadSeatOrder,
    BadSetup,
    ColourTaken,
    LobbyFull,
    NotAComputer,
    NotAPlayer,
    NotInLobby,
    NotOwner,
    OwnerCannotLeave,
    WrongPlayerCount,
    reason,
)
from bot.i18n import shown_name
from bot.storage import GameRow, SeatRow
from engine import MalformedError, Setup
from engine.core.setup import GAME_PLAYERS, MAX_PLAYERS, MIN_PLAYERS
from renderer import palette as pal

#: Figure colours in the order they are handed out: the renderer's colour-blind-safe palette
#: (each colour comes with its own mark on the figures).
COLOURS = ("blue", "red", "green", "yellow", "black", "purple")


#: Player counts printed on the box, where the engine would play with more (1 to 6).
BOX_PLAYERS = {"hunters": (2, 5)}


def player_range(kind: str) -> tuple[int, int]:
    """How many players a game takes (The Castle: exactly 2; Hunters & Gatherers: 2 to 5)."""
    return GAME_PLAYERS.get(kind) or BOX_PLAYERS.get(kind, (MIN_PLAYERS, MAX_PLAYERS))


def check_setup(kind: str, expansions: Sequence[str], options: Mapping[str, Any]) -> None:
    """Raise :class:`BadSetup` if the engine would refuse this game, expansions or options."""
    players = tuple(f"check {i}" for i in range(player_range(kind)[0]))
    try:
        Setup(players=players, game=kind, expansions=tuple(expansions), options=dict(options))
    except MalformedError as error:
        raise BadSetup(reason=reason(error)) from None


def check_player_count(game: GameRow, count: int | None = None) -> None:
    """Raise :class:`WrongPlayerCount` if the game cannot be played by this many players."""
    low, high = player_range(game.kind)
    count = len(game.seats) if count is None else count
    if not low <= count <= high:
        wanted = str(low) if low == high else f"{low}-{high}"
        raise WrongPlayerCount(wanted=wanted, count=count)


def require_lobby(game: GameRow) -> None:
    if game.status != "lobby":
        raise NotInLobby(game_id=game.id)


def require_owner(game: GameRow, user_id: int) -> None:
    if game.owner_id != user_id:
        raise NotOwner()


def free_colour(game: GameRow) -> str:
    taken = {seat.colour for seat in game.seats}
    return next(c for c in COLOURS if c not in taken)


def join(game: GameRow, user_id: int, name: str, now: float, colour: str | None = None) -> GameRow:
    require_lobby(game)
    if game.seat_of(user_id) is not None:
        raise AlreadyJoined(game_id=game.id)
    if len(game.seats) >= game.max_players:
        raise LobbyFull(game_id=game.id, count=game.max_players)
    if colour is None:
        colour = free_colour(game)
    else:
        _check_colour(game, colour, user_id)
    seat = SeatRow(len(game.seats), user_id, shown_name(name), colour, "playing", now)
    return dataclasses.replace(game, seats=(*game.seats, seat), updated_at=now)


#: The levels of computer players, weakest first (see :mod:`ai`; the same as ``ai.LEVELS``).
COMPUTER_LEVELS = ("easy", "medium", "hard", "expert")


def add_computer(game: GameRow, level: str, name: str, now: float) -> GameRow:
    """Seat a computer player at ``level`` (its ``user_id`` is the next free negative id)."""
    require_lobby(game)
    if level not in COMPUTER_LEVELS:
        raise BadLevel(level=level, choices=", ".join(COMPUTER_LEVELS))
    if len(game.seats) >= game.max_players:
        raise LobbyFull(game_id=game.id, count=game.max_players)
    user_id = min((s.user_id for s in game.seats if s.user_id < 0), default=0) - 1
    seat = SeatRow(
        len(game.seats), user_id, shown_name(name), free_colour(game), "playing", now, level
    )
    return dataclasses.replace(game, seats=(*game.seats, seat), updated_at=now)


def remove_computer(game: GameRow, seat: int, now: float) -> GameRow:
    """Take the computer player in ``seat`` out of the lobby."""
    require_lobby(game)
    if not 0 <= seat < len(game.seats) or game.seats[seat].computer is None:
        raise NotAComputer(seat=seat + 1)
    rest = [s for s in game.seats if s.seat != seat]
    seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(rest))
    return dataclasses.replace(game, seats=seats, updated_at=now)


def computer_name(game: GameRow, name: Callable[[int], str]) -> str:
    """A name for a new computer seat: ``name(n)``, n counting the computers, never taken."""
    taken = {s.name for s in game.seats}
    number = 1 + sum(s.computer is not None for s in game.seats)
    while name(number) in taken:
        number += 1
    return name(number)


def leave(game: GameRow, user_id: int, now: float) -> GameRow:
    require_lobby(game)
    if game.seat_of(user_id) is None:
        raise NotAPlayer(game_id=game.id)
    if user_id == game.owner_id:
        raise OwnerCannotLeave()
    rest = [s for s in game.seats if s.user_id != user_id]
    seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(rest))
    return dataclasses.replace(game, seats=seats, updated_at=now)


def _check_colour(game: GameRow, colour: str, user_id: int) -> None:
    if colour not in COLOURS:
        raise BadColour(colour=colour, choices=", ".join(COLOURS))
    if any(s.colour == colour and s.user_id != user_id for s in game.seats):
        raise ColourTaken(colour=colour)


def reorder(game: GameRow, order: Sequence[int]) -> GameRow:
    """Seat the lobby's players in ``order`` (user ids, each exactly once)."""
    by_user = {s.user_id: s for s in game.seats}
    if sorted(order) != sorted(by_user) or len(order) != len(by_user):
        raise BadSeatOrder()
    seats = tuple(dataclasses.replace(by_user[u], seat=i) for i, u in enumerate(order))
    return dataclasses.replace(game, seats=seats)


def recolour(game: GameRow, colours: Mapping[int, str]) -> GameRow:
    """Give players new colours (user id -> colour); all changes are checked together."""
    wanted = {s.user_id: colours.get(s.user_id, s.colour) for s in game.seats}
    for user_id in colours:
        if user_id not in wanted:
            raise NotAPlayer(game_id=game.id)
    for colour in colours.values():
        if colour not in COLOURS:
            raise BadColour(colour=colour, choices=", ".join(COLOURS))
    values = list(wanted.values())
    for colour in values:
        if values.count(colour) > 1:
            raise ColourTaken(colour=colour)
    seats = tuple(dataclasses.replace(s, colour=wanted[s.user_id]) for s in game.seats)
    return dataclasses.replace(game, seats=seats)


def player_names(seats: Sequence[SeatRow]) -> tuple[str, ...]:
    """Record names for the seats: display names, made unique (records need distinct names)."""
    names: list[str] = []
    for seat in seats:
        base = seat.name.strip() or f"Player {seat.seat + 1}"
        name, n = base, 2
        while name in names:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
    return tuple(names)


#: Lobby colour name -> the renderer's style (colour and mark; see :mod:`renderer.palette`).
STYLES = {"red": 0, "blue": 1, "yellow": 2, "green": 3, "purple": 4, "black": 5}
#: Games whose pictures follow the chosen colours (The Castle draws seat colours).
STYLED_GAMES = ("carcassonne", "hunters")


def seat_styles(row: GameRow) -> tuple[int, ...]:
    """The style each seat draws in: its chosen colour's (first free style if unknown)."""
    if row.kind not in STYLED_GAMES:
        return ()
    styles: list[int] = []
    for seat in row.seats:
        style = STYLES.get(seat.colour)
        if style is None or style in styles:
            style = next(s for s in range(len(pal.PLAYER_COLOURS)) if s not in styles)
        styles.append(style)
    return tuple(styles)


def seat_style(row: GameRow, seat: int) -> int:
    styles = seat_styles(row)
    return styles[seat] if seat < len(styles) else seat
