"""Positions: what a running game exports, and the public state rebuilt from one.

A record (format 1) holds the seed, so it tells the future. A game still running exports a
*position* instead (``"format": 2``, spec/game-record.md): what every player at the table has
seen, and nothing else. :func:`position_of` writes one from a game; :func:`game_from_position`
rebuilds a game holding the same public state; :func:`position_json` is the one canonical text
of a position (two running games with the same visible history give the same bytes, whatever
their seeds, stacks, hands, bonus tiles and wall tiles).

The fields (the names are documented in README.md, section "Positions"):

- ``format`` (2), ``game``, ``expansions``, ``options``, ``players`` as in a record; never
  ``seed``, ``draw``, ``bonus_draw`` or ``wall_draw``.
- ``actions``: as in a record, each ``place_tile`` naming its ``tile``.
- ``shown``: what became visible, in order; each entry says ``after`` how many actions (0: during
  the setup) and ``what``: ``start`` (the start tile), ``draw`` (a tile drawn from the stack and
  shown: the tile in play), ``discard`` (a tile that fit nowhere, drawn or from a hand), ``bonus``
  and ``bonus_discard`` (Hunters & Gatherers' bonus tiles), each with its ``tile`` and the
  ``player`` concerned (not for the start tile); or ``wall`` (The Castle: wall tile ``wall``
  turned face up by ``player`` whose marker stopped on track space ``space``, the tower where it
  lay).
- ``tiles_total``: the tiles the stack held before the first was drawn (the start tile
  included); ``tiles_left``: the tiles still face down in it; ``held``: each seat's number of
  tiles in hand (the tactical hand; 0 otherwise).
- a family's own counts (:meth:`Game.position_counts`): ``bonus_left`` (Hunters & Gatherers:
  bonus tiles still face down), ``walls_left`` (The Castle: wall tiles still face down on
  towers).

Rebuilding replays the actions in a game whose face-down tiles are chosen as it goes by a
:class:`~engine.core.steer.Steer`: each tile drawn is the one shown; a tile in a hand is named
only when it leaves it (played or discarded), in the earliest hand slot where it fits every
check that slot went through; what stays face down takes the unseen tiles in sorted order. The
result never depends on anything hidden, never draws beyond what was shown and never runs the
final scoring; its setup (seed 0, forced draws of those canonical tiles) replays to the very same
state, so ``game.record()`` of a rebuilt game is a record that tells nothing hidden.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.actions import Action, PlaceTile, action_from_json
from engine.core.errors import GameError, MalformedError
from engine.core.events import (
    BonusTileDrawn,
    Event,
    TileDiscarded,
    TilePlaced,
    TurnStarted,
    WallTileTaken,
)
from engine.core.game import HAND_SIZE, Game, new_game
from engine.core.setup import POSITION_FORMAT, Setup
from engine.core.steer import Steer

__all__ = [
    "POSITION_FORMAT",
    "SHOWN",
    "game_from_position",
    "is_position",
    "position_json",
    "position_of",
]

#: The ``what`` of a ``shown`` entry.
SHOWN = ("start", "draw", "discard", "bonus", "bonus_discard", "wall")
#: Record fields that a position never holds: they tell the future.
HIDDEN_FIELDS = ("seed", "draw", "bonus_draw", "wall_draw")
#: The most tiles a position's stack may hold (every game has fewer than 200).
MAX_TILES = 1000
#: A stack slot that holds a tile put back (everyone saw it), not one of the first stack's.
BACK = -1


def is_position(data: Any) -> bool:
    """Whether ``data`` (a record's JSON object) is a position (``"format": 2``)."""
    return isinstance(data, Mapping) and data.get("format") == POSITION_FORMAT


def position_json(position: Mapping[str, Any]) -> str:
    """The one text of a position: keys sorted, one item a line, UTF-8 as it is, a final
    newline. Two running games with the same visible history give the same text."""
    return json.dumps(position, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# -- writing ------------------------------------------------------------------------------------


def position_of(game: Game) -> dict[str, Any]:
    """The position of a running game (``"format": 2``): what the table has seen, no seed, no
    face-down tile, no tile in a hand; see the module's docstring for the fields. A function of
    the visible history only. Serialise it with :func:`position_json`.

    A finished game has nothing left to hide: it exports its record (``game.record()``); it
    raises ``ValueError`` here. The game is replayed from its record (a millisecond or so).
    """
    if game.finished:
        raise ValueError("the game is over: it exports its record, not a position")
    watch = _Watch()
    replay = new_game(game.setup, watch)
    shown = list(watch.setup_shown)
    actions: list[dict[str, Any]] = []
    for index, action in enumerate(game.actions):
        events = replay.play(action)
        shown.extend(watch.shown(replay, events, index + 1))
        actions.append(_action_json(action, events))
    setup = game.setup
    position: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "game": setup.game,
        "expansions": list(setup.expansions),
        "options": dict(setup.options),
        "players": list(setup.players),
        "actions": actions,
        "shown": shown,
        "tiles_total": watch.total,
        "tiles_left": len(replay.stack),
        "held": [len(hand) for hand in replay.hands],
    }
    position.update(replay.position_counts())
    return position


def _action_json(action: Action, events: list[Event]) -> dict[str, Any]:
    """An action as a record writes it, a ``place_tile`` always naming the tile placed."""
    data = action.to_json()
    if isinstance(action, PlaceTile) and action.tile is None:
        for event in events:
            if isinstance(event, TilePlaced):
                data["tile"] = event.kind
                break
    return data


class _Watch(Steer):
    """Sees what no event tells: the start tile, from which stack each tile in play or
    discarded came, the stack's first size; writes the ``shown`` entries."""

    def __init__(self) -> None:
        self.start: str | None = None
        self.set_up = False
        self.setup_draws = 0
        #: The tiles the stack held before the first was drawn.
        self.total = 0
        #: The ``shown`` entries of the setup.
        self.setup_shown: list[dict[str, Any]] = []
        #: Each tile drawn to be played (or discarded) since :meth:`shown`: True from the
        #: stack, False from the bonus stack.
        self.pops: list[bool] = []

    def drawing(self, game: Game, into: int) -> None:
        if not game.board.tiles:
            self.start = game.stack[-1]
        elif into < 0:
            self.pops.append(True)
        if not self.set_up:
            self.setup_draws += 1

    def drawing_bonus(self, game: Game) -> None:
        self.pops.append(False)

    def started(self, game: Game, events: list[Event]) -> None:
        self.set_up = True
        self.total = self.setup_draws + len(game.stack)
        shown = [] if self.start is None else [_tile_entry(0, "start", self.start, None)]
        self.setup_shown = shown + self.shown(game, events, 0)

    def shown(self, game: Game, events: list[Event], after: int) -> list[dict[str, Any]]:
        """The ``shown`` entries of ``events``, caused by action ``after - 1`` of ``game`` (0:
        by its setup; the start tile, which no event tells, aside): tiles discarded, tiles
        drawn and shown, bonus tiles, wall tiles turned face up. Without the tactical hand,
        each tile drawn is at once discarded or in play, in the order drawn: so it is known
        which stack a discarded tile came from (a bonus tile put back lies in the stack)."""
        pops, self.pops = self.pops, []
        shown: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, TileDiscarded):
                if game.hand_mode:
                    what = "discard"
                else:
                    main = pops.pop(0) if pops else not game.kinds[event.kind].extra.get("bonus")
                    what = "discard" if main else "bonus_discard"
                shown.append(_tile_entry(after, what, event.kind, event.player))
            elif isinstance(event, BonusTileDrawn):
                if pops:
                    pops.pop(0)
                shown.append(_tile_entry(after, "bonus", event.kind, event.player))
            elif isinstance(event, TurnStarted) and not game.hand_mode and game.tile is not None:
                if pops:
                    pops.pop(0)
                shown.append(_tile_entry(after, "draw", game.tile, event.player))
            elif isinstance(event, WallTileTaken):
                shown.append(
                    {
                        "after": after,
                        "what": "wall",
                        "wall": event.wall,
                        "space": event.space,
                        "player": event.player,
                    }
                )
        return shown


def _tile_entry(after: int, what: str, tile: str, player: int | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"after": after, "what": what, "tile": tile}
    if player is not None:
        entry["player"] = player
    return entry


# -- reading ------------------------------------------------------------------------------------


def game_from_position(position: Any, events: list[Event] | None = None) -> Game:
    """A game holding the public state of ``position``: board, figures, scores, whose turn and
    which decision, the tile in play, tiles left, each hand's size, what a family shows (bonus
    tiles, wall tiles). Its face-down tiles are canonical (see the module's docstring): the
    same for every position with the same visible history. Every event its actions caused is
    appended to ``events`` when given (the setup's are not).

    Raises a :class:`MalformedError` for something that is not a position of a running game,
    or whose actions and shown tiles do not agree; an engine error (an illegal action) as
    :meth:`Game.from_record` does. Either carries ``action_index`` when an action is at fault.
    """
    read = _Read(position)
    probe = new_game(read.base)
    pool = sorted(probe._build_stack())
    read.check_tiles(probe, pool)
    setup = probe.position_setup(read.base, read.shown, read.family_counts(probe))
    first = _canonical(pool, read.tiles_total)
    setup = replace(setup, draw=tuple(first))
    guide = _Guide(read, len(first))
    try:
        game = new_game(setup, guide)
    except GameError as error:
        error.args = (f"the setup: {error}",)
        raise
    expected = read.by_after(0)
    if guide.setup_shown != expected:
        raise MalformedError(
            f"the setup shows {_words(guide.setup_shown)} where the position shows "
            f"{_words(expected)}"
        )
    for index, action in enumerate(read.actions):
        guide.after = index + 1
        try:
            guide.before(game, action)
            happened = game.play(action)
            expected = read.by_after(index + 1)
            got = guide.shown(game, happened, index + 1)
            if got != expected:
                raise MalformedError(
                    f"it shows {_words(got)} where the position shows {_words(expected)}"
                )
            if game.finished:
                raise MalformedError(
                    "it ends the game, and a position is a game still running "
                    "(a finished game exports its record)"
                )
        except GameError as error:
            error.args = (f"action {index}: {error}",)
            error.action_index = index  # type: ignore[attr-defined]
            raise
        if events is not None:
            events.extend(happened)
    draw = guide.finish(game)
    read.check_counts(game)
    game.setup = replace(game.setup, draw=tuple(draw))
    game.steer = None
    return game


def _words(entries: list[dict[str, Any]]) -> str:
    """Shown entries in words, for refusals."""
    if not entries:
        return "nothing"
    parts = []
    for entry in entries:
        what = str(entry.get("what"))
        thing = f"wall tile {entry.get('wall')}" if what == "wall" else f"tile {entry.get('tile')}"
        parts.append(f"{what} {thing}")
    return ", ".join(parts)


def _canonical(pool: list[str], total: int) -> list[str]:
    """``total`` tiles of ``pool`` in sorted order (repeated if it has fewer: a forced draw)."""
    first = sorted(pool)[:total]
    kinds = sorted(set(pool))
    while len(first) < total and kinds:
        first.extend(kinds[: total - len(first)])
    return first


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedError(f"'{name}' must be a whole number from {low} to {high}")
    return value


class _Read:
    """A position's fields, checked: the setup, the actions, the ``shown`` entries, the counts."""

    def __init__(self, position: Any) -> None:
        if not isinstance(position, Mapping):
            raise MalformedError("a position must be a JSON object")
        if position.get("format") != POSITION_FORMAT:
            raise MalformedError(
                f"not a position: 'format' is {position.get('format')!r}, a position has 2"
            )
        for name in HIDDEN_FIELDS:
            if name in position:
                raise MalformedError(
                    f"a position never holds '{name}': it would tell the tiles to come"
                )
        self.position = position
        names = ("game", "expansions", "options", "players")
        self.base = Setup.from_json({k: position[k] for k in names if k in position})
        raw = position.get("actions", [])
        if not isinstance(raw, list):
            raise MalformedError("'actions' must be a list")
        self.actions: list[Action] = []
        for index, data in enumerate(raw):
            try:
                self.actions.append(action_from_json(data))
            except GameError as error:
                error.args = (f"action {index}: {error}",)
                error.action_index = index  # type: ignore[attr-defined]
                raise
        self.shown = self._entries(position.get("shown"))
        self.tiles_total = _whole(position.get("tiles_total"), "tiles_total", 0, MAX_TILES)
        self.tiles_left = _whole(position.get("tiles_left"), "tiles_left", 0, self.tiles_total)
        held = position.get("held")
        players = len(self.base.players)
        if not isinstance(held, list) or len(held) != players:
            raise MalformedError(f"'held' must list each of the {players} seats' tiles in hand")
        self.held = [_whole(count, "held", 0, HAND_SIZE) for count in held]
        self._by_after: dict[int, list[dict[str, Any]]] = {}
        for entry in self.shown:
            self._by_after.setdefault(int(entry["after"]), []).append(entry)

    def _entries(self, raw: Any) -> list[dict[str, Any]]:
        """The ``shown`` entries with only their known fields, checked."""
        if not isinstance(raw, list):
            raise MalformedError("'shown' must be a list of what became visible, in order")
        players = len(self.base.players)
        last = 0
        entries: list[dict[str, Any]] = []
        for index, item in enumerate(raw):
            if not isinstance(item, Mapping):
                raise MalformedError(f"'shown' entry {index} must be an object")
            what = item.get("what")
            if what not in SHOWN:
                raise MalformedError(
                    f"'shown' entry {index}: 'what' must be one of {', '.join(SHOWN)}"
                )
            after = _whole(item.get("after"), "after", last, len(self.actions))
            last = after
            entry: dict[str, Any] = {"after": after, "what": what}
            if what == "wall":
                entry["wall"] = _whole(item.get("wall"), "wall", 1, 9)
                entry["space"] = _whole(item.get("space"), "space", 0, 10_000)
            else:
                tile = item.get("tile")
                if not isinstance(tile, str):
                    raise MalformedError(f"'shown' entry {index} must name its 'tile'")
                entry["tile"] = tile
            if what != "start":
                entry["player"] = _whole(item.get("player"), "player", 0, players - 1)
            entries.append(entry)
        return entries

    def check_tiles(self, probe: Game, pool: list[str]) -> None:
        """Every tile shown is one of the game's: a bonus tile from the bonus stack; from the
        stack, one of its tiles (or a bonus tile put back under it)."""
        stack_kinds = set(pool)
        for entry in self.shown:
            if entry["what"] == "wall":
                continue
            tile = entry["tile"]
            kind = probe.kinds.get(tile)
            bonus = kind is not None and bool(kind.extra.get("bonus"))
            if entry["what"] in ("bonus", "bonus_discard"):
                fits = bonus
            else:
                fits = tile in stack_kinds or (bonus and entry["what"] != "start")
            if not fits:
                raise MalformedError(f"'shown' names tile {tile!r}, not one this game can show")

    def family_counts(self, probe: Game) -> dict[str, int]:
        """The family's own counts (:meth:`Game.position_counts`), checked to be numbers."""
        counts: dict[str, int] = {}
        for name in probe.position_counts():
            counts[name] = _whole(self.position.get(name), name, 0, MAX_TILES)
        return counts

    def by_after(self, after: int) -> list[dict[str, Any]]:
        return self._by_after.get(after, [])

    def check_counts(self, game: Game) -> None:
        """The rebuilt game leaves the counts the position says."""
        found: dict[str, Any] = {"tiles_left": len(game.stack)}
        found["held"] = [len(hand) for hand in game.hands]
        found.update(game.position_counts())
        for name, value in found.items():
            if self.position.get(name) != value:
                raise MalformedError(
                    f"'{name}' is {self.position.get(name)!r} but the position's actions leave "
                    f"{value!r}"
                )


class _Guide(_Watch):
    """Chooses the face-down tiles while a position's actions replay (see the module).

    The first stack's tiles are slots numbered in drawing order; ``slots`` follows the stack
    (top last; :data:`BACK` for a tile put back). A slot is named when its tile is shown (drawn,
    played, discarded), else at the end; until then a tile in a hand is a stand-in that fits
    (nothing about it is shown). ``held`` lists, for each slot in a hand, the hand checks it went
    through, where the tile it will be named must have fit (``checks``: a copy of the game then).
    """

    def __init__(self, read: _Read, size: int) -> None:
        super().__init__()
        players = len(read.base.players)
        self.hand_mode = bool(read.base.options.get("hand", False))
        self.after = 0
        self.slots = list(range(size - 1, -1, -1))
        self.named: list[str | None] = [None] * size
        self.start_tile: str | None = None
        #: (after, tile) of every tile drawn from the stack and shown, in order.
        self.draws: list[tuple[int, str]] = []
        #: (after, player, tile) of every tile discarded from a hand, in order.
        self.discards: list[tuple[int, int, str]] = []
        for entry in read.shown:
            what = entry["what"]
            if what == "start":
                self.start_tile = str(entry["tile"])
            elif what in ("draw", "discard") and not self.hand_mode:
                self.draws.append((int(entry["after"]), str(entry["tile"])))
            elif what == "discard":
                self.discards.append((int(entry["after"]), int(entry["player"]), entry["tile"]))
        self.next_draw = 0
        self.next_discard = 0
        self.hand_slots: list[list[int]] = [[] for _ in range(players)]
        self.held: dict[int, list[int]] = {}
        self.checks: list[Game] = []
        self._fits: dict[tuple[int, str], bool] = {}

    # -- the steer's calls ----------------------------------------------------------------------

    def drawing(self, game: Game, into: int) -> None:
        stack = game.stack
        slot = self.slots.pop()
        if into >= 0 and game.board.tiles:
            if slot == BACK:
                raise MalformedError("a hand takes a tile put back")
            self.hand_slots[into].append(slot)
            self.held[slot] = []
            super().drawing(game, into)
            return
        if not game.board.tiles:
            want = self.start_tile
            if want is None:
                raise MalformedError("the position shows no start tile")
        else:
            if self.next_draw >= len(self.draws) or self.draws[self.next_draw][0] != self.after:
                raise MalformedError("it draws a tile from the stack where the position shows none")
            want = self.draws[self.next_draw][1]
            self.next_draw += 1
        if slot == BACK:
            if stack[-1] != want:
                raise MalformedError(
                    f"the tile put back is {stack[-1]}, the position shows {want} drawn"
                )
        else:
            self.named[slot] = want
            stack[-1] = want
        super().drawing(game, into)

    def returned(self, game: Game, bottom: bool) -> None:
        if bottom:
            self.slots.insert(0, BACK)
        else:
            self.slots.append(BACK)

    def checking_hand(self, game: Game, player: int) -> None:
        hand = game.hands[player]
        slots = self.hand_slots[player]
        if len(hand) != len(slots):
            raise MalformedError("the position's hands do not add up")
        if not hand:
            return
        check = len(self.checks)
        view = game.fork()
        self.checks.append(view)
        # The tiles the game discarded here, in order, each in the earliest slot after the
        # previous one where it fits: as many as the hand can hold now; a tile that fits none
        # came with the tiles drawn to replace these, and the next check takes it.
        chosen: list[int] = []
        start = 0
        while self.next_discard < len(self.discards) and self.discards[self.next_discard][:2] == (
            self.after,
            player,
        ):
            tile = self.discards[self.next_discard][2]
            index = next(
                (i for i in range(start, len(hand)) if self._fits_all(tile, slots[i])), None
            )
            if index is None:
                break
            self.next_discard += 1
            self.named[slots[index]] = tile
            hand[index] = tile
            chosen.append(index)
            start = index + 1
        # The others stay: each a stand-in that fits now, until it is named.
        for index, slot in enumerate(slots):
            if index in chosen:
                continue
            if not self._fits_at(check, hand[index]):
                hand[index] = self._stand_in(check)
            self.held[slot].append(check)
        # The game removes the discarded ones now.
        self.hand_slots[player] = [s for i, s in enumerate(slots) if i not in chosen]

    # -- the reader's calls -------------------------------------------------------------------

    def before(self, game: Game, action: Action) -> None:
        """Before ``action``: a tile played from a hand is named in the earliest slot it fits."""
        if not (self.hand_mode and isinstance(action, PlaceTile) and action.tile is not None):
            return
        tile = action.tile
        if tile not in game.kinds:
            return  # the engine refuses it
        player = game.current
        hand = game.hands[player]
        slots = self.hand_slots[player]
        if len(hand) != len(slots):
            raise MalformedError("the position's hands do not add up")
        found = next((i for i, slot in enumerate(slots) if self._fits_all(tile, slot)), None)
        if found is None:
            raise MalformedError(f"tile {tile} could not be in the hand of seat {player}")
        self.named[slots[found]] = tile
        hand[found] = tile
        for i in range(found):
            if hand[i] == tile:  # a stand-in the game would take instead
                hand[i] = next(
                    name
                    for name, kind in sorted(game.kinds.items())
                    if name != tile and not kind.abbey
                )
        del slots[found]  # the game takes it out of the hand now

    def finish(self, game: Game) -> list[str]:
        """Name every slot still unnamed: those in hands first (in drawing order, the smallest
        unseen tile that fits every check it went through and leaves the others a tile each),
        then the stack's in sorted order; put them in the game. The first stack in drawing
        order (the setup's ``draw`` replaying to this very game)."""
        size = len(self.named)
        pool = Counter(game.setup.draw or ())
        for name in self.named:
            if name is not None:
                pool[name] -= 1
        pool = +pool
        waiting = sorted(slot for slots in self.hand_slots for slot in slots)
        for position, slot in enumerate(waiting):
            rest = waiting[position + 1 :]
            kind = None
            for candidate in sorted(pool):
                if not self._fits_all(candidate, slot):
                    continue
                pool[candidate] -= 1
                if self._matchable(rest, pool):
                    kind = candidate
                    break
                pool[candidate] += 1
            if kind is None:  # more tiles than the stack had (a forced draw): any that fits
                kind = next(
                    (k for k in sorted(game.kinds) if self._fits_all(k, slot)), sorted(pool)[0]
                )
            else:
                pool = +pool
            self.named[slot] = kind
        unseen = sorted(pool.elements())
        spare = sorted(set(game.setup.draw or ())) or sorted(game.kinds)
        for slot in range(size):
            if self.named[slot] is None:
                self.named[slot] = unseen.pop(0) if unseen else spare[slot % len(spare)]
        named = [str(name) for name in self.named]
        for player, slots in enumerate(self.hand_slots):
            for index, slot in enumerate(slots):
                game.hands[player][index] = named[slot]
        for index, slot in enumerate(self.slots):
            if slot != BACK:
                game.stack[index] = named[slot]
        return named

    # -- fitting --------------------------------------------------------------------------------

    def _fits_at(self, check: int, kind: str) -> bool:
        """Whether tile ``kind`` could be placed somewhere at hand check ``check``."""
        key = (check, kind)
        known = self._fits.get(key)
        if known is None:
            view = self.checks[check]
            tile = view.kinds.get(kind)
            known = tile is not None and not tile.abbey and view.has_placement(tile)
            self._fits[key] = known
        return known

    def _fits_all(self, kind: str, slot: int) -> bool:
        """Whether tile ``kind`` fit at every hand check slot ``slot`` went through."""
        return all(self._fits_at(check, kind) for check in self.held[slot])

    def _stand_in(self, check: int) -> str:
        """A tile that fits at check ``check``: the first such in name order."""
        view = self.checks[check]
        for name in sorted(view.kinds):
            if not view.kinds[name].extra.get("bonus") and self._fits_at(check, name):
                return name
        raise MalformedError("a tile stays in a hand where no tile fits")

    def _matchable(self, slots: list[int], pool: Counter[str]) -> bool:
        """Whether each of ``slots`` can take a different tile of ``pool`` that fits it."""
        kinds = sorted(kind for kind, count in pool.items() if count > 0)
        taken: dict[str, list[int]] = {kind: [] for kind in kinds}
        return all(self._augment(slot, kinds, pool, taken, set()) for slot in slots)

    def _augment(
        self,
        slot: int,
        kinds: list[str],
        pool: Counter[str],
        taken: dict[str, list[int]],
        seen: set[str],
    ) -> bool:
        """Kuhn's augmenting path: give ``slot`` a tile, moving others along if need be."""
        for kind in kinds:
            if kind in seen or not self._fits_all(kind, slot):
                continue
            seen.add(kind)
            holders = taken[kind]
            if len(holders) < pool[kind]:
                holders.append(slot)
                return True
            for other in list(holders):
                if self._augment(other, kinds, pool, taken, seen):
                    holders.remove(other)
                    holders.append(slot)
                    return True
        return False
