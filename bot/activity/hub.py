"""The open boards and their games: every stored change of a game reaches every board showing it.

A :class:`Board` is one open page (its WebSocket and session). :class:`Hub` keeps the boards by
game; it hears each change the manager stores in this process (``on_game_change``) and, on a
shared database, each change another process stored (``announced``: PostgreSQL's
``LISTEN/NOTIFY``, see :mod:`bot.storage`). A change is drawn once for everyone (the table's view,
:mod:`bot.activity.views`, in a thread: a few milliseconds), then sent to each board (with a
player's own hand added for them alone, and for the player in turn ``you``: what they may
choose, :mod:`bot.activity.turns`). Changes that come while a game's view is being drawn are
folded into one more drawing, so a board never lags behind nor sees an older state after a
newer one. Every board is asked the policy again before each send (a follower let out of a
private game stops receiving it).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot import policy
from bot.activity.sessions import Session
from bot.activity.turns import you
from bot.activity.views import Timing, own_view, table_view
from bot.activity.words import refusal_text
from bot.storage import GameRow

if TYPE_CHECKING:
    from bot.manager import GameManager

log = logging.getLogger(__name__)

#: The policy's row for watching a game on the board.
ACTION = "live board watch"
#: Seconds a board has to take a message before it is dropped (a stuck socket never holds
#: the others).
SEND_SECONDS = 5.0

Send = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Board:
    """One open board: who it is, how to send it a message, the game it shows."""

    session: Session
    send: Send
    game_id: int | None = None
    #: The version (actions played) of the last view sent.
    version: int = -1
    closed: bool = False
    sent: int = field(default=0)


@dataclass(frozen=True, slots=True)
class Refused:
    """A board may not see a game: the text key and its words' parameters."""

    reason: str
    game_id: int


class Hub:
    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.boards: dict[int, set[Board]] = {}
        self._drawing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        manager.on_game_change(self._changed)

    # -- who may see what ----------------------------------------------------------------

    async def allowed(self, session: Session, row: GameRow) -> Refused | None:
        """None when the board's user may see ``row`` (the policy's row ``live board watch``)."""
        actor = policy.Actor(session.user_id, session.guild_id)
        wanted = policy.needs(ACTION)
        if not row.private:  # a public game shows to every member: no follower to look up
            wanted -= {policy.Role.FOLLOWER}
        facts = await self.manager.watch.facts(row, session.user_id, wanted)
        decision = policy.decide(ACTION, actor, facts)
        level = logging.DEBUG if decision.allowed else logging.INFO
        log.log(
            level,
            "%s by user %s from server %s on game %s: %s",
            ACTION,
            session.user_id,
            session.guild_id,
            row.id,
            "allowed" if decision.allowed else f"refused ({decision.refusal})",
            extra={"decision": decision},
        )
        if decision.allowed:
            return None
        reason = "game_not_found" if decision.refusal == policy.ELSEWHERE else decision.refusal
        return Refused(reason or "not_allowed", row.id)

    async def channel_games(self, session: Session) -> list[GameRow]:
        """The running (and just finished) games of the board's channel its user may see."""
        rows = await self.manager.records.games_in_channel(
            session.channel_id, ("active", "finished")
        )
        seen = []
        for row in rows:
            if row.guild_id == session.guild_id and await self.allowed(session, row) is None:
                seen.append(row)
        return seen

    # -- boards ------------------------------------------------------------------------------

    async def show(self, board: Board, row: GameRow) -> Refused | None:
        """Show ``row`` on ``board`` from now on (refused when its user may not see it)."""
        refused = await self.allowed(board.session, row)
        if refused is not None:
            return refused
        self.leave(board)
        board.game_id = row.id
        board.version = -1
        self.boards.setdefault(row.id, set()).add(board)
        self.changed(row.id)
        return None

    def leave(self, board: Board) -> None:
        if board.game_id is None:
            return
        boards = self.boards.get(board.game_id)
        if boards is not None:
            boards.discard(board)
            if not boards:
                del self.boards[board.game_id]
        board.game_id = None

    @property
    def board_count(self) -> int:
        return sum(len(b) for b in self.boards.values())

    # -- changes -----------------------------------------------------------------------------

    async def _changed(self, row: GameRow, turn_started: bool) -> None:
        self.changed(row.id)

    def announced(self, game_id: int | None) -> None:
        """Another process stored a change of ``game_id`` (None: changes may have been missed,
        every open game is drawn again)."""
        for shown in [game_id] if game_id is not None else list(self.boards):
            self.changed(shown)

    def changed(self, game_id: int) -> None:
        """Draw ``game_id`` again for its boards (once more if a drawing is under way)."""
        if game_id not in self.boards:
            return
        if game_id in self._drawing:
            self._again.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._draw_all(game_id))
        self._drawing[game_id] = task

    async def settle(self) -> None:
        """Wait until every drawing under way has been sent (tests, shutdown)."""
        while self._drawing:
            await asyncio.gather(*self._drawing.values(), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._drawing.values()):
            task.cancel()
        await asyncio.gather(*self._drawing.values(), return_exceptions=True)
        self._drawing.clear()

    async def _draw_all(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    await self._draw(game_id)
                except Exception:
                    log.exception("the live board of game %s could not be drawn", game_id)
                if game_id not in self._again:
                    return
        finally:
            self._drawing.pop(game_id, None)

    async def _draw(self, game_id: int) -> None:
        boards = list(self.boards.get(game_id, ()))
        if not boards:
            return
        turn_view, game = await self.manager.current(game_id)
        row = turn_view.game
        if game is None:
            return  # a lobby: nothing to show yet
        timing = await self._timing(row)
        view = await asyncio.to_thread(table_view, row, game, timing)
        shared = _message(view)
        # The player in turn (a person) gets what they may choose: ``you``, in their words.
        mover = turn_view.user_id if row.status == "active" and not game.finished else None
        choices: dict[str, dict[str, Any]] = {}
        sends: list[tuple[Board, str]] = []  # sent together once every text is written
        for board in boards:
            refused = await self.allowed(board.session, row)
            if refused is not None:
                self.leave(board)
                sends.append((board, refusal_message(refused, board.session.lang)))
                continue
            if board.version == view["version"] and board.sent:
                continue  # it shows this state already
            board.version = view["version"]
            user, lang = board.session.user_id, board.session.lang
            seat = row.seat_of(user)
            text = shared
            if seat is not None:  # a player: their seat, their hand, their choices
                mine = own_view(view, row, game, user)
                if user == mover:
                    if lang not in choices:
                        choices[lang] = await asyncio.to_thread(you, game, lang)
                    mine["you"] = choices[lang]
                text = _message(mine)
            sends.append((board, text))
        await asyncio.gather(*(self._send(board, text) for board, text in sends))

    async def _send(self, board: Board, text: str) -> None:
        try:
            await asyncio.wait_for(board.send(text), SEND_SECONDS)
            board.sent += 1
        except Exception as error:
            log.info("a live board of game %s stopped receiving: %r", board.game_id, error)
            board.closed = True
            self.leave(board)

    async def _timing(self, row: GameRow) -> Timing:
        now = self.manager.clock()
        if row.status != "active":
            return Timing(now=now)
        clock = await self.manager.clocks.chess_clock(row.id)
        if clock is not None:
            return Timing(now=now, banks=clock.banks, seat=clock.seat, paused=clock.paused)
        deadline = None
        if row.turn_seconds is not None:
            for found in await self.manager.storage.deadlines(row.id):
                if found.kind == "turn" and found.done_at is None and found.turn == row.turn:
                    deadline = found.due_at
        return Timing(now=now, deadline=deadline)


def _message(view: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "board", "game": view["game"], "view": view},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def refusal_message(refused: Refused, lang: str) -> str:
    return json.dumps(
        {
            "type": "refused",
            "reason": refused.reason,
            "game": refused.game_id,
            "text": refusal_text(refused.reason, lang, game_id=refused.game_id),
        },
        ensure_ascii=False,
    )
