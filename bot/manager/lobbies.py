"""Lobby operations of the game manager: create, join, leave, configure, start."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import lobby
from bot.errors import (
    BadLevel,
    BadSettings,
    BadSetup,
    NoComputers,
    NotAPlayer,
    reason,
)
from bot.i18n import shown_name
from bot.live import LiveGame, setup_of
from bot.manager.base import ManagerBase, check_timing
from bot.manager.clock import first_banks, with_clock
from bot.outcomes import TurnView
from bot.storage import (
    GameRow,
    SeatRow,
)
from engine import Game, GameError

log = logging.getLogger(__name__)

BOTH = "a game has a time per turn (play by post) or a chess clock (live), not both"


class LobbyOps:
    """Lobbies: open, join, leave, colours, options and seats, start (a service of the manager)."""

    def __init__(self, core: ManagerBase) -> None:
        self.core = core

    # -- lobby ------------------------------------------------------------------------------

    async def create_lobby(
        self,
        owner_id: int,
        owner_name: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expansions: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        private: bool = False,
        max_players: int = 6,
        turn_seconds: int | None = None,
        timeout_policy: str | None = None,
        locale: str | None = None,
        purist: bool = False,
        clock: tuple[int, int] | None = None,
    ) -> GameRow:
        """Open a lobby with its creator in seat 0; unset values come from the guild settings.

        ``clock``: a chess clock ``(bank, increment)`` in seconds, instead of a time per turn
        (see :mod:`bot.manager.clock`)."""
        defaults = (
            await self.core.storage.guild_settings(guild_id) if guild_id is not None else None
        )
        kind = game or (defaults.game if defaults else "carcassonne")
        same_kind = defaults is not None and defaults.game == kind
        chosen_expansions = tuple(
            expansions
            if expansions is not None
            else (defaults.expansions if defaults and same_kind else ())
        )
        chosen_options = dict(
            options if options is not None else (defaults.options if defaults and same_kind else {})
        )
        lobby.check_setup(kind, chosen_expansions, chosen_options)
        high = lobby.player_range(kind)[1]
        if high < 6:  # a game for fewer players (The Castle: 2)
            max_players = min(max_players, high)
        if not 1 <= max_players <= 6:
            raise BadSetup(reason=f"a game takes 1 to 6 players, not {max_players}")
        seconds = (
            turn_seconds
            if turn_seconds is not None
            else (defaults.turn_seconds if defaults else None)
        )
        policy = timeout_policy or (defaults.timeout_policy if defaults else "autoplay")
        if clock is not None and clock[0]:
            if turn_seconds is not None:
                raise BadSettings(reason=BOTH)
            seconds = None  # the server's time per turn is for play by post
        check_timing(seconds, policy)
        now = self.core.clock()
        row = GameRow(
            id=0,
            owner_id=owner_id,
            created_at=now,
            updated_at=now,
            guild_id=guild_id,
            channel_id=channel_id,
            kind=kind,
            expansions=chosen_expansions,
            options=chosen_options,
            private=private,
            max_players=max_players,
            locale=locale or (defaults.locale if defaults else None),
            turn_seconds=seconds,
            timeout_policy=policy,  # type: ignore[arg-type]
            purist=purist,
            seats=(SeatRow(0, owner_id, shown_name(owner_name), lobby.COLOURS[0], "playing", now),),
        )
        if clock is not None:
            row = with_clock(row, clock)
        game_id = await self.core.storage.create_game(row)
        return dataclasses.replace(row, id=game_id)

    async def _change_lobby(self, game_id: int, change: Callable[[GameRow], GameRow]) -> GameRow:
        async with self.core.lock(game_id):
            row = await self.core.read_row(game_id)
            lobby.require_lobby(row)
            changed = dataclasses.replace(change(row), updated_at=self.core.clock())
            await self.core.storage.save_game(changed)
            return changed

    async def join(
        self, game_id: int, user_id: int, name: str, colour: str | None = None
    ) -> GameRow:
        now = self.core.clock()
        return await self._change_lobby(
            game_id, lambda row: lobby.join(row, user_id, name, now, colour)
        )

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        now = self.core.clock()
        return await self._change_lobby(game_id, lambda row: lobby.leave(row, user_id, now))

    async def add_computer(self, game_id: int, user_id: int, level: str, name: str) -> GameRow:
        """The creator seats a computer player at ``level`` under ``name`` (in a league game
        only if the league has computer players, at its level)."""
        link = await self.core.storage.league_game(game_id)
        if link is not None:
            league = await self.core.storage.get_league(link.league_id)
            if league is None or league.computers is None:
                raise NoComputers()
            if level != league.computers:
                raise BadLevel(level=level, choices=league.computers)
        now = self.core.clock()

        def change(row: GameRow) -> GameRow:
            lobby.require_owner(row, user_id)
            return lobby.add_computer(row, level, name, now)

        return await self._change_lobby(game_id, change)

    async def remove_computer(self, game_id: int, user_id: int, seat: int) -> GameRow:
        """The creator takes the computer player in ``seat`` (0-based) out of the lobby."""
        now = self.core.clock()

        def change(row: GameRow) -> GameRow:
            lobby.require_owner(row, user_id)
            return lobby.remove_computer(row, seat, now)

        return await self._change_lobby(game_id, change)

    async def set_colour(self, game_id: int, user_id: int, colour: str) -> GameRow:
        """A player picks their own colour in the lobby."""

        def change(row: GameRow) -> GameRow:
            if row.seat_of(user_id) is None:
                raise NotAPlayer(game_id=game_id)
            return lobby.recolour(row, {user_id: colour})

        return await self._change_lobby(game_id, change)

    async def configure(
        self,
        game_id: int,
        user_id: int,
        *,
        game: str | None = None,
        expansions: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seat_order: Sequence[int] | None = None,
        colours: Mapping[int, str] | None = None,
        max_players: int | None = None,
        private: bool | None = None,
        turn_seconds: int | None = None,
        timeout_policy: str | None = None,
        purist: bool | None = None,
        clock: tuple[int, int] | None = None,
    ) -> GameRow:
        """The creator changes the lobby; ``options`` are merged into the current ones, and
        changing ``game`` resets expansions and options to that game's defaults. A chess
        ``clock`` (``(0, 0)``: none) replaces the time per turn, and a time per turn the clock."""

        def change(row: GameRow) -> GameRow:
            lobby.require_owner(row, user_id)
            kind = game or row.kind
            base_exp = row.expansions if kind == row.kind else ()
            base_opt = row.options if kind == row.kind else {}
            exp = tuple(expansions) if expansions is not None else base_exp
            opt = {**base_opt, **(options or {})}
            lobby.check_setup(kind, exp, opt)
            row = dataclasses.replace(row, kind=kind, expansions=exp, options=opt)
            if max_players is not None:
                if not max(1, len(row.seats)) <= max_players <= 6:
                    raise BadSetup(
                        reason=f"the limit must be between {max(1, len(row.seats))} and 6"
                    )
                row = dataclasses.replace(row, max_players=max_players)
            high = lobby.player_range(kind)[1]
            if len(row.seats) > high:
                lobby.check_player_count(row)
            row = dataclasses.replace(row, max_players=min(row.max_players, high))
            if private is not None:
                row = dataclasses.replace(row, private=private)
            if purist is not None:
                row = dataclasses.replace(row, purist=purist)
            if turn_seconds is not None and clock is not None and clock[0]:
                raise BadSettings(reason=BOTH)
            if turn_seconds is not None:
                row = with_clock(row, (0, 0))
            seconds = turn_seconds if turn_seconds is not None else row.turn_seconds
            policy = timeout_policy or row.timeout_policy
            check_timing(seconds, policy)
            row = dataclasses.replace(row, turn_seconds=seconds, timeout_policy=policy)  # type: ignore[arg-type]
            if clock is not None:
                row = with_clock(row, clock)
            if seat_order is not None:
                row = lobby.reorder(row, seat_order)
            if colours is not None:
                row = lobby.recolour(row, colours)
            return row

        return await self._change_lobby(game_id, change)

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> TurnView:
        """The creator starts the game: seats are fixed, the stack is shuffled from the seed."""
        async with self.core.lock(game_id):
            row = await self.core.read_row(game_id)
            lobby.require_lobby(row)
            lobby.require_owner(row, user_id)
            lobby.check_player_count(row)
            now = self.core.clock()
            row = dataclasses.replace(
                row,
                seed=self.core.seeds() if seed is None else seed,
                status="active",
                started_at=now,
                updated_at=now,
            )
            try:
                game = Game(setup_of(row))
            except GameError as error:
                raise BadSetup(reason=reason(error)) from None
            row = dataclasses.replace(
                row, turn=game.turn, current_seat=game.decision.player, seats=first_banks(row)
            )
            timers = await self.core.turn_timers(row, game, now)
            started = row

            async def landed() -> bool:
                stored = await self.core.storage.get_game(game_id)
                return stored is not None and stored.seed == started.seed

            write = self.core.storage.save_game(row, deadlines=timers, pause_away=now)
            await self.core.durable_write(game_id, write, landed, None)
            live = LiveGame(row, game, [])
            self.core.cache.put(live)
            self.core.timers_changed()
            await self.core.game_changed(row, turn_started=True)
            return TurnView.of(row, game)
