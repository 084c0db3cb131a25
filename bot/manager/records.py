"""Record, listing and settings operations of the game manager."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Sequence
from typing import Any

from bot import lobby
from bot.errors import (
    BadRecord,
    BadSettings,
    reason,
)
from bot.i18n import LOCALES, hidden_chars, shown_name
from bot.live import LiveGame
from bot.manager.base import ManagerBase, check_timing
from bot.outcomes import Played
from bot.storage import (
    ActionRow,
    GameRow,
    GuildSettings,
    SeatRow,
    SeatStatus,
    Status,
    UserSettings,
)
from engine import Forfeit, Game, GameError, Setup, action_from_json
from engine.core.position import game_from_position, is_position, position_json, position_of
from engine.core.record import read_record
from engine.core.timeline import score_series

log = logging.getLogger(__name__)

#: A record's player names are shown in messages: at most this long, no hidden characters.
PLAYER_NAME_LENGTH = 64
#: More actions than any game of any family has (a 6-player Abbey & Mayor game has about 300).
MAX_ACTIONS = 5_000

#: Why the bot played an action (the ``forced`` field of a record's action).
FORCED = ("autoplay", "skip", "forfeit", "resigned")


#: The most days a server keeps finished games before deleting them, when it sets a limit.
MAX_KEEP_DAYS = 3650


class RecordsOps:
    """Records (export, import), listings of games, and server and player settings."""

    def __init__(self, core: ManagerBase) -> None:
        self.core = core

    # -- records ----------------------------------------------------------------------------

    async def export_record(self, game_id: int) -> dict[str, Any]:
        """What ``/carcassonne export`` sends, ready for ``json.dumps``: a game that is over
        (finished or abandoned) as its whole record (:meth:`full_record`), a running game as
        its *position* (``"format": 2``: what the table has seen, no seed, no face-down tile,
        no tile in a hand; see :mod:`engine.core.position`), which tells nothing of its future.
        Both carry the ``"forced"`` and ``"computer"`` fields of :meth:`full_record`."""
        async with self.core.hold(game_id) as live:
            game, row, log = live.game.fork(), live.row, list(live.log)
        if row.status in ("finished", "abandoned") or game.finished:
            return _annotated(game.record(), row, log)
        position = await asyncio.to_thread(position_of, game)  # replays the game: off the loop
        return _annotated(position, row, log)

    async def export_file(self, game_id: int) -> bytes:
        """The file ``/carcassonne export`` sends: :meth:`export_record`, a running game's
        position in its one canonical text, a game that is over as indented JSON."""
        record = await self.export_record(game_id)
        if is_position(record):
            return position_json(record).encode()
        return json.dumps(record, indent=1, ensure_ascii=False).encode()

    async def import_file(
        self,
        data: bytes,
        owner_id: int,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> GameRow:
        """:meth:`import_record` of a record file, read safely first
        (:func:`engine.core.record.read_record` raises
        :class:`~engine.core.record.RecordError` saying what is wrong with the file)."""
        record = await asyncio.to_thread(read_record, data)
        return await self.import_record(record, owner_id, guild_id=guild_id, channel_id=channel_id)

    @staticmethod
    def turns_of(game: Game) -> int:
        """How many turns the replay of ``game`` shows (a frame each)."""
        return score_series(game.record()).turns

    async def full_record(self, game_id: int) -> dict[str, Any]:
        """The game's whole record (the project's record format, seed included): for the
        bot's own use and tests, never sent to players while the game runs.

        An action the bot played carries why as an extra ``"forced"`` field (``autoplay``,
        ``skip``, ``forfeit``, ``resigned``); the engine ignores it when replaying. Computer
        seats are listed in an extra ``"computer"`` field: their record name -> their level.
        """
        async with self.core.hold(game_id) as live:
            return _annotated(live.game.record(), live.row, list(live.log))

    async def public_copy(self, game_id: int) -> Game:
        """What the whole table may see of the game, as an engine state to draw: a running
        game rebuilt from its position (the face-down tiles and hands in a canonical order,
        so nothing drawn from it depends on the seed), a game that is over as it is."""
        async with self.core.hold(game_id) as live:
            game, row = live.game.fork(), live.row
        if row.status in ("finished", "abandoned") or game.finished:
            return game
        return await asyncio.to_thread(_public, game)

    async def import_record(
        self,
        record: Any,
        owner_id: int,
        *,
        users: Sequence[int] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> GameRow:
        """Create a game from a record; ``users`` are the seats' Discord users (default: the
        importer holds every seat, to review or continue the game alone)."""
        try:
            setup = Setup.from_json(record)
            game = Game(setup)
        except GameError as error:
            raise BadRecord(reason=reason(error)) from None
        for seat, name in enumerate(setup.players):
            if not 1 <= len(name.strip()) <= PLAYER_NAME_LENGTH or hidden_chars(name):
                raise BadRecord(
                    reason=f"player {seat + 1}'s name must be 1 to {PLAYER_NAME_LENGTH} visible "
                    "characters, without control or text-direction characters"
                )
        raw_actions = record.get("actions", [])
        if not isinstance(raw_actions, list):
            raise BadRecord(reason="'actions' must be a list")
        if len(raw_actions) > MAX_ACTIONS:
            raise BadRecord(
                reason=f"it has {len(raw_actions)} actions; no game has more than {MAX_ACTIONS}"
            )
        holders = list(users) if users is not None else [owner_id] * game.players
        if len(holders) != game.players:
            raise BadRecord(reason=f"{game.players} players but {len(holders)} users given")
        now = self.core.clock()
        rows: list[ActionRow] = []
        left: dict[int, SeatStatus] = {}
        for index, raw in enumerate(raw_actions):
            decision = game.decision
            try:
                action = action_from_json(raw)
                game.play(action)
            except GameError as error:
                raise BadRecord(reason=f"action {index}: {reason(error)}") from None
            forced = raw.get("forced")
            if forced is not None and forced not in FORCED:
                raise BadRecord(
                    reason=f"action {index}: 'forced' must be one of {', '.join(FORCED)}, "
                    f"got {forced!r}"
                )
            if isinstance(action, Forfeit):
                left[action.player] = "resigned" if forced == "resigned" else "forfeited"
            data = action.to_json()
            rows.append(ActionRow(index, decision.turn, decision.player, None, data, forced, now))
        extra = {k: record[k] for k in ("draw", "bonus_draw") if record.get(k) is not None}
        seats = tuple(
            SeatRow(i, holders[i], shown_name(name), lobby.COLOURS[i], left.get(i, "playing"), now)
            for i, name in enumerate(setup.players)
        )
        finished = game.finished
        row = GameRow(
            id=0, owner_id=owner_id, created_at=now, updated_at=now, guild_id=guild_id,
            channel_id=channel_id, kind=setup.game, expansions=setup.expansions,
            options=setup.options, setup_extra=extra, seed=setup.seed,
            status="finished" if finished else "active", turn=game.turn,
            action_count=len(rows), current_seat=None if finished else game.decision.player,
            result={"reason": "end", "scores": game.scores, "winners": list(game.winners)}
            if finished else None,
            started_at=now, ended_at=now if finished else None, seats=seats,
        )  # fmt: skip
        game_id = await self.core.storage.import_game(row, rows)
        row = dataclasses.replace(row, id=game_id)
        self.core.cache.put(LiveGame(row, game, [dataclasses.replace(r) for r in rows]))
        return row

    # -- listings and settings --------------------------------------------------------------

    async def games_in_channel(
        self, channel_id: int, statuses: Sequence[Status] = ("lobby", "active")
    ) -> list[GameRow]:
        """Games posted in a channel or in one of its game threads, most recent first."""
        return await self.core.storage.list_games(channel_id=channel_id, statuses=statuses)

    async def games_of_user(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        statuses: Sequence[Status] = ("lobby", "active"),
    ) -> list[GameRow]:
        return await self.core.storage.list_games(
            user_id=user_id, guild_id=guild_id, statuses=statuses
        )

    async def games_awaiting(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """Active games where it is ``user_id``'s turn, longest waiting first."""
        return await self.core.storage.games_awaiting(user_id, guild_id)

    async def set_messages(
        self, game_id: int, *, thread_id: int | None, message_id: int | None
    ) -> None:
        """Remember the game's thread and its latest message (to edit or disable prompts)."""
        async with self.core.lock(game_id):
            await self.core.storage.set_messages(game_id, thread_id, message_id)
            live = self.core.cache.get(game_id)
            if live is not None:
                live.row = dataclasses.replace(live.row, thread_id=thread_id, message_id=message_id)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.core.storage.guild_settings(guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a guild's defaults (fields of :class:`GuildSettings`), checked."""
        current = await self.core.storage.guild_settings(guild_id)
        if "locale" in changes:
            changes = {**changes, "locale_chosen": True}
        try:
            settings = dataclasses.replace(current, **changes)
        except TypeError:
            raise BadSettings(reason=f"unknown setting among {', '.join(changes)}") from None
        if settings.locale not in LOCALES:
            raise BadSettings(reason=f"language must be one of {', '.join(LOCALES)}")
        lobby.check_setup(settings.game, settings.expansions, settings.options)
        check_timing(settings.turn_seconds, settings.timeout_policy)
        if settings.keep_days is not None and not 0 < settings.keep_days <= MAX_KEEP_DAYS:
            raise BadSettings(reason=f"keep_days must be between 1 and {MAX_KEEP_DAYS} days")
        await self.core.storage.save_guild_settings(settings, self.core.clock())
        return settings

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.core.storage.user_settings(user_id)

    async def update_user_settings(self, user_id: int, **changes: Any) -> UserSettings:
        current = await self.core.storage.user_settings(user_id)
        try:
            settings = dataclasses.replace(current, **changes)
        except TypeError:
            raise BadSettings(reason=f"unknown setting among {', '.join(changes)}") from None
        if settings.locale is not None and settings.locale not in LOCALES:
            raise BadSettings(reason=f"language must be one of {', '.join(LOCALES)}")
        await self.core.storage.save_user_settings(settings, self.core.clock())
        return settings


Step = tuple[Played, ActionRow]


def _public(game: Game) -> Game:
    """A running game's public state: its position, played again."""
    return game_from_position(position_of(game))


def _annotated(record: dict[str, Any], row: GameRow, log: list[ActionRow]) -> dict[str, Any]:
    """``record`` (or a position) with why the bot played each action it played, and the
    computer seats with their levels."""
    for data, action in zip(record["actions"], log, strict=True):
        if action.forced is not None:
            data["forced"] = action.forced
    names = record["players"]
    computers = {names[s.seat]: s.computer for s in row.seats if s.computer is not None}
    if computers:
        record["computer"] = computers
    return record
