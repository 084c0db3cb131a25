"""The Carcassonne game state machine: decisions, checked actions, events.

A game is (setup, seed, actions): :class:`Game` builds the stack from the setup, then each call to
:meth:`Game.play` checks one action against the decision the game is waiting for, applies it and
returns the events it caused. Rules that are not the turn's skeleton live in :mod:`engine.scoring`.

>>> from engine import Game, Setup, Pass
>>> game = Game(Setup(players=("Alice", "Bob"), seed=7))
>>> action = next(iter(game.legal_placements()))
>>> events = game.play(action)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

from engine import abbey_mayor as am
from engine import scoring
from engine.actions import (
    Action,
    Forfeit,
    MoveWagon,
    Pass,
    PlaceAbbey,
    PlaceFigure,
    PlaceTile,
    Skip,
    UseWallTile,
)
from engine.board import Board, Figure, Pos
from engine.errors import IllegalActionError, MalformedError, WrongPhaseError
from engine.events import (
    Event,
    FigurePlaced,
    FigureReturned,
    GameEnded,
    PlayerLeft,
    TileDiscarded,
    TilePlaced,
    TurnSkipped,
    TurnStarted,
    WagonMoved,
)
from engine.setup import Setup
from engine.tiles import EDGE_NAMES, ROTATIONS, TileKind, kinds_by_name
from engine.turn import Decision, LegalPlacements, Phase

__all__ = ["Decision", "Game", "LegalPlacements", "Phase"]

FOLLOWERS = 7
HAND_SIZE = 3
ROLES = {"road": "thief", "city": "knight", "cloister": "monk", "field": "farmer"}
EDGE_WORDS = {"C": "city", "R": "road", "F": "field"}


class Game:
    """One game of Carcassonne (base game, optionally with expansions).

    ``Game(setup)`` builds the right kind of game for ``setup.game``: the other games of the
    family (Hunters & Gatherers, ...) are subclasses registered in :data:`GAMES`, overriding the
    rule points that differ (tile sets, figures, scoring, the end of a turn).
    """

    #: Words for the edge letters, for refusals ("its N edge is a road ...").
    edge_words: ClassVar[dict[str, str]] = EDGE_WORDS
    #: Role of a follower by the feature type it stands on.
    roles: ClassVar[dict[str, str]] = ROLES

    def __new__(cls, setup: Setup) -> Game:
        game_class = GAMES.get(setup.game, cls) if cls is Game else cls
        return super().__new__(game_class)

    def tile_sets(self) -> tuple[str, ...]:
        return ("base", *self.setup.expansions)

    def initial_supply(self) -> dict[str, int]:
        extra = am.EXTRA_FIGURES if self.abbey_mayor else {}
        return {"follower": FOLLOWERS, **extra}

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.options = setup.options
        self.hand_mode = bool(setup.options.get("hand", False))
        self.players = len(setup.players)
        self.kinds: dict[str, TileKind] = kinds_by_name(*self.tile_sets())
        self.board = self._new_board()
        self.scores = [0] * self.players
        self.breakdown: list[dict[str, int]] = [{} for _ in range(self.players)]
        self.abbey_mayor = am.NAME in setup.expansions
        figures = self.initial_supply()
        self.supply: list[dict[str, int]] = [dict(figures) for _ in range(self.players)]
        self.abbeys = [1 if self.abbey_mayor else 0] * self.players
        #: Seats that forfeited: skipped, their figures count and score nothing.
        self.out = [False] * self.players
        self.actions: list[Action] = []
        self.turn = 0
        self.current = 0
        #: Who must decide now: the current player, or a wagon's owner, or an end-game abbey.
        self.actor = 0
        self.phase = Phase.TILE
        self.tile: str | None = None
        self.hands: list[list[str]] = [[] for _ in range(self.players)]
        self.discarded: list[str] = []
        self.last_pos: Pos | None = None
        self.winners: tuple[int, ...] = ()
        self._touched: list[int] = []
        self._figure_choices: list[PlaceFigure] = []
        self._freed_wagons: list[tuple[int, int]] = []  # (owner, scored root)
        self._wagon_choices: list[MoveWagon] = []
        self._barn_joins: list[int] = []
        self._ending: list[int] | None = None  # players still to offer the end-game abbey
        if self.abbey_mayor:
            self.board.on_merge = self._on_merge
        self._pending: list[Event] = []
        self.stack = self._build_stack()
        self._lay_start()
        if self.hand_mode:
            for player in range(self.players):
                self._refill_hand(player)
        self._begin_turn()
        self._pending.clear()

    # -- setup ------------------------------------------------------------------------------

    def _new_board(self) -> Board:
        """Rule point: the board (unbounded here; The Castle has a bounded one)."""
        return Board()

    def _lay_start(self) -> None:
        """Rule point: what lies on the board before the first action (the start tile)."""
        start = self.stack.pop()
        self.board.place(self.kinds[start].oriented(0), (0, 0), 0)
        self.after_place((0, 0))

    def _build_stack(self) -> list[str]:
        """The stack, top last (``pop()`` draws); its first-drawn tile is the start tile."""
        if self.setup.draw is not None:
            for name in self.setup.draw:
                if name not in self.kinds or self.kinds[name].abbey:
                    raise MalformedError(f"'draw' names an unknown tile kind {name!r}")
            if not self.setup.draw:
                raise MalformedError("'draw' must name at least the start tile")
            return list(reversed(self.setup.draw))
        pool: list[str] = []
        start = ""
        for kind in self.kinds.values():
            if kind.extra.get("bonus"):
                continue
            count = kind.count
            if kind.start and not start:
                start = kind.name
                count -= 1
            pool.extend([kind.name] * count)
        random.Random(self.setup.seed).shuffle(pool)
        pool.reverse()
        pool.append(start)
        return pool

    @classmethod
    def from_record(cls, record: Any) -> Game:
        """Rebuild a game by replaying a record; errors carry the failing action's index."""
        game = cls(Setup.from_json(record))
        actions = record.get("actions", [])
        if not isinstance(actions, list):
            raise MalformedError("'actions' must be a list")
        from engine.actions import action_from_json

        for index, raw in enumerate(actions):
            try:
                game.play(action_from_json(raw))
            except ValueError as error:
                error.args = (f"action {index}: {error}",)
                error.action_index = index  # type: ignore[attr-defined]
                raise
        return game

    def record(self) -> dict[str, Any]:
        data = self.setup.to_json()
        data["actions"] = [a.to_json() for a in self.actions]
        return data

    # -- queries ----------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def decision(self) -> Decision:
        hand = tuple(self.hands[self.actor]) if self.hand_mode else ()
        return Decision(self.phase, self.actor, self.turn, self.tile, hand)

    @property
    def tiles_left(self) -> int:
        return len(self.stack)

    def placeable_kinds(self) -> list[TileKind]:
        if self.phase is not Phase.TILE:
            return []
        if self.hand_mode:
            return [self.kinds[name] for name in dict.fromkeys(self.hands[self.current])]
        return [self.kinds[self.tile]] if self.tile else []

    def legal_placements(self) -> LegalPlacements:
        return LegalPlacements(self)

    def legal_figures(self) -> list[PlaceFigure]:
        """Every figure placement allowed now (empty outside the figure step)."""
        if self.phase is not Phase.FIGURE or self.last_pos is None:
            return []
        return list(self._figure_choices)

    def legal_abbeys(self) -> list[PlaceAbbey]:
        """Holes where the deciding player may put their abbey now (Abbey & Mayor)."""
        if self.phase not in (Phase.TILE, Phase.ABBEY_END) or not self.abbeys[self.actor]:
            return []
        return [PlaceAbbey(x, y) for x, y in self.board.holes()]

    def legal_wagon_moves(self) -> list[MoveWagon]:
        """Where the freed wagon may go (empty outside the wagon step); pass takes it back."""
        return list(self._wagon_choices) if self.phase is Phase.WAGON else []

    def legal_wall_tiles(self) -> list[UseWallTile]:
        """Wall tiles the player in turn may use now (The Castle; empty elsewhere)."""
        return []

    @property
    def can_pass(self) -> bool:
        """Whether ``Pass`` answers the decision at hand (figure, wagon, end-game abbey)."""
        return self.phase in (Phase.FIGURE, Phase.WAGON, Phase.ABBEY_END)

    def _figure_options(self) -> list[PlaceFigure]:
        assert self.last_pos is not None
        board = self.board
        placed = board.tiles[self.last_pos]
        oriented = placed.oriented
        x, y = self.last_pos
        supply = self.supply[self.current]
        result: list[PlaceFigure] = []
        for figure, count in supply.items():
            if count <= 0:
                continue
            if figure == "barn":
                result.extend(
                    PlaceFigure("barn", x, y, corner)
                    for corner, _ in am.barn_corners(board, self.last_pos)
                )
                continue
            for local, feat in enumerate(oriented.features):
                if feat.type not in ROLES:
                    continue
                root = board.find(placed.first_node + local)
                if am.figure_allowed(board, figure, feat.type, root):
                    result.append(PlaceFigure(figure, x, y, oriented.at_label(local)))
        return result

    def figures(self) -> Iterator[Figure]:
        """Every figure on the board."""
        board = self.board
        for node, parent in enumerate(board.parent):
            if parent == node:
                yield from board.figures[node]

    def snapshot(self) -> dict[str, Any]:
        """A comparable summary of the whole state (for replay checks and tests)."""
        return {
            "tiles": sorted(
                (pos, t.oriented.kind, t.oriented.rotation) for pos, t in self.board.tiles.items()
            ),
            "figures": sorted((f.player, f.kind, f.pos, str(f.at)) for f in self.figures()),
            "scores": list(self.scores),
            "breakdown": [dict(sorted(b.items())) for b in self.breakdown],
            "supply": [dict(s) for s in self.supply],
            "stack": list(self.stack),
            "hands": [list(h) for h in self.hands],
            "phase": self.phase.value,
            "current": self.current,
            "actor": self.actor,
            "abbeys": list(self.abbeys),
            "out": list(self.out),
            "freed_wagons": list(self._freed_wagons),
            "turn": self.turn,
            "tile": self.tile,
            "discarded": list(self.discarded),
        }

    # -- playing ----------------------------------------------------------------------------

    def play(self, action: Action) -> list[Event]:
        """Check and apply one action; return the events it caused.

        Raises :class:`~engine.errors.IllegalActionError` (a ``ValueError``) with a message a
        player can read, leaving the game unchanged.
        """
        if self.phase is Phase.OVER:
            raise WrongPhaseError("the game is over: no more moves can be made", "game_over")
        self._pending = []
        if isinstance(action, PlaceTile):
            self._place_tile(action)
        elif isinstance(action, PlaceFigure):
            self._place_figure(action)
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, Skip):
            self._skip()
        elif isinstance(action, Forfeit):
            self._forfeit(action.player)
        elif isinstance(action, PlaceAbbey | MoveWagon) and not self.abbey_mayor:
            raise IllegalActionError(
                "this game is played without the Abbey & Mayor expansion", "no_abbey_mayor"
            )
        elif isinstance(action, PlaceAbbey):
            self._place_abbey(action)
        elif isinstance(action, MoveWagon):
            self._move_wagon(action)
        elif isinstance(action, UseWallTile):
            self._use_wall_tile(action)
        else:
            raise MalformedError(f"not an action: {action!r}")
        self.actions.append(action)
        events, self._pending = self._pending, []
        return events

    def _use_wall_tile(self, action: UseWallTile) -> None:
        """Rule point: play a wall tile (The Castle only)."""
        raise IllegalActionError(
            "wall tiles belong to The Castle, not to this game", "no_wall_tiles"
        )

    def emit(self, event: Event) -> None:
        self._pending.append(event)

    def check_place_tile(self, action: PlaceTile) -> TileKind:
        """Raise an :class:`IllegalActionError` if ``action`` can't be played now."""
        if self.phase is not Phase.TILE:
            raise WrongPhaseError(self._phase_hint(), f"phase_{self.phase.value}")
        if action.rotation not in ROTATIONS:
            raise IllegalActionError(
                f"a tile turns by 0, 90, 180 or 270 degrees, not {action.rotation}",
                "bad_rotation",
                rotation=action.rotation,
            )
        kind = self._chosen_kind(action.tile)
        pos = (action.x, action.y)
        if pos in self.board.tiles:
            raise IllegalActionError(
                f"square ({action.x}, {action.y}) already holds a tile",
                "square_taken",
                x=action.x,
                y=action.y,
            )
        key = self.board.frontier.get(pos)
        if key is None:
            raise IllegalActionError(
                f"square ({action.x}, {action.y}) does not touch any placed tile along an edge",
                "not_adjacent",
                x=action.x,
                y=action.y,
            )
        oriented = kind.oriented(action.rotation)
        for side, letter in enumerate(key):
            if letter != "?" and not self.board.edge_fits(oriented.edges[side], letter):
                raise IllegalActionError(
                    f"tile {kind.name} turned {action.rotation}° does not fit at "
                    f"({action.x}, {action.y}): its {EDGE_NAMES[side]} edge is "
                    f"{self.edge_words.get(oriented.edges[side], oriented.edges[side])} "
                    f"but the neighbour there shows {self.edge_words.get(letter, letter)}",
                    "does_not_fit",
                    tile=kind.name,
                    rotation=action.rotation,
                    x=action.x,
                    y=action.y,
                    side=EDGE_NAMES[side],
                )
        return kind

    def _chosen_kind(self, name: str | None) -> TileKind:
        if self.hand_mode:
            hand = self.hands[self.current]
            if name is None:
                raise IllegalActionError(
                    f"say which tile of your hand you play: {', '.join(hand)}",
                    "choose_hand_tile",
                    hand=", ".join(hand),
                )
            if name not in hand:
                raise IllegalActionError(
                    f"tile {name} is not in your hand; you hold {', '.join(hand)}",
                    "not_in_hand",
                    tile=name,
                    hand=", ".join(hand),
                )
            return self.kinds[name]
        assert self.tile is not None
        if name is not None and name != self.tile:
            raise IllegalActionError(
                f"the tile to place is {self.tile}, not {name}", "wrong_tile", tile=self.tile
            )
        return self.kinds[self.tile]

    def _place_tile(self, action: PlaceTile) -> None:
        kind = self.check_place_tile(action)
        pos = (action.x, action.y)
        oriented = kind.oriented(action.rotation)
        if self.hand_mode:
            self.hands[self.current].remove(kind.name)
        self.tile = None
        self._touched = self.board.place(oriented, pos, self.turn)
        self.last_pos = pos
        self.after_place(pos)
        self.emit(TilePlaced(self.current, kind.name, action.x, action.y, action.rotation))
        self._figure_choices = self._figure_options()
        if self._figure_choices or self._choice_after_placement():
            self.phase = Phase.FIGURE
        else:
            self._finish_turn()

    def _choice_after_placement(self) -> bool:
        """Rule point: whether to wait for the player even with no figure to place."""
        return False

    def after_place(self, pos: Pos) -> None:
        """Rule point: a tile was just put down at ``pos`` (before figures and scoring)."""

    def after_figure(self, figure: Figure, root: int) -> None:
        """Rule point: a figure was just put on feature ``root`` (before scoring)."""

    def _place_figure(self, action: PlaceFigure) -> None:
        if self.phase is not Phase.FIGURE:
            raise WrongPhaseError(self._phase_hint(), f"phase_{self.phase.value}")
        assert self.last_pos is not None
        if (action.x, action.y) != self.last_pos:
            x, y = self.last_pos
            raise IllegalActionError(
                f"a figure goes on the tile you just placed, at ({x}, {y}), "
                f"not at ({action.x}, {action.y})",
                "figure_elsewhere",
                x=x,
                y=y,
            )
        placed = self.board.tiles[self.last_pos]
        if self.supply[self.current].get(action.figure, 0) <= 0:
            if action.figure not in self.supply[self.current]:
                raise IllegalActionError(
                    f"there is no {action.figure} in this game",
                    "no_such_figure",
                    figure=action.figure,
                )
            raise IllegalActionError(
                f"you have no {action.figure} left in your supply",
                "no_figure_left",
                figure=action.figure,
            )
        if action.figure == "barn":
            self._place_barn(action)
            return
        local = placed.oriented.feature_at(action.at)
        if local < 0:
            raise IllegalActionError(
                f"there is no feature at {action.at!r} on this tile",
                "no_feature_there",
                at=action.at,
            )
        feat = placed.oriented.features[local]
        at = placed.oriented.at_label(local)
        if PlaceFigure(action.figure, action.x, action.y, at) not in self._figure_choices:
            raise IllegalActionError(
                self._figure_refusal(action.figure, feat.type),
                "figure_refused",
                figure=action.figure,
                feature=feat.type,
            )
        root = self.board.find(placed.first_node + local)
        figure = Figure(self.current, action.figure, self.last_pos, local, at)
        self.board.figures[root].append(figure)
        self.supply[self.current][action.figure] -= 1
        self.after_figure(figure, root)
        role = self.role(action.figure, feat.type)
        self.emit(FigurePlaced(self.current, action.figure, role, action.x, action.y, at))
        self._finish_turn()

    def role(self, figure: str, ftype: str) -> str:
        """What a figure is called on a feature type (a follower on a road is a thief)."""
        return self.roles.get(ftype, figure) if figure in ("follower", "man") else figure

    def _figure_refusal(self, figure: str, ftype: str) -> str:
        if figure == "mayor" and ftype != "city":
            return "the mayor goes only in a city"
        if figure == "wagon" and ftype not in am.WAGON_FEATURES:
            return "the wagon goes only on a road, a city or a cloister, not in a field"
        if ftype not in ROLES:
            return f"no figure can stand on a {ftype}"
        return (
            f"that {ftype} already holds a figure (maybe further away) or a barn: "
            "choose another feature or pass"
        )

    def _place_barn(self, action: PlaceFigure) -> None:
        assert self.last_pos is not None
        if action.at not in ("NW", "NE", "SE", "SW"):
            raise IllegalActionError(
                "a barn goes on a tile corner: NW, NE, SE or SW", "barn_corner"
            )
        corners = dict(am.barn_corners(self.board, self.last_pos))
        if action.at not in corners:
            raise IllegalActionError(
                f"no barn at the {action.at} corner: a barn needs four placed tiles meeting "
                "there, only field at that corner of each, and no barn in that field yet",
                "barn_refused",
                corner=action.at,
            )
        root = corners[action.at]
        self.board.figures[root].append(Figure(self.current, "barn", self.last_pos, -1, action.at))
        self.supply[self.current]["barn"] -= 1
        self.emit(FigurePlaced(self.current, "barn", "barn", action.x, action.y, action.at))
        am.score_field_farmers(self, root, per_city=3, final=False)
        self._finish_turn()

    def _pass(self) -> None:
        if self.phase is Phase.FIGURE:
            self._finish_turn()
        elif self.phase is Phase.WAGON:
            owner, root = self._freed_wagons.pop(0)
            self._take_back_wagon(owner, root)
            self._resolve_wagons()
        elif self.phase is Phase.ABBEY_END:
            self._offer_end_abbey()
        else:
            raise WrongPhaseError(self._phase_hint(), f"phase_{self.phase.value}")

    def _skip(self) -> None:
        """The player in turn loses it (a timeout): the drawn tile goes under the stack."""
        if self.phase is not Phase.TILE:
            raise WrongPhaseError(
                "a turn can only be skipped before its tile is placed", "skip_too_late"
            )
        kind = self.tile
        if kind is not None:
            self.stack.insert(0, kind)
            self.tile = None
        self.emit(TurnSkipped(self.current, kind))
        self._end_turn()

    def _forfeit(self, player: int) -> None:
        """Seat ``player`` leaves; if it was their decision, the game moves on without them."""
        if not 0 <= player < self.players:
            raise IllegalActionError(
                f"there is no seat {player} in this game", "no_such_seat", seat=player
            )
        if self.out[player]:
            raise IllegalActionError(
                f"seat {player} has already left the game", "already_left", seat=player
            )
        self.out[player] = True
        self.emit(PlayerLeft(player))
        if player != self.actor:
            return
        if self.phase is Phase.TILE:
            if self.tile is not None:
                self.stack.append(self.tile)  # seen by everyone: the next player takes it
                self.tile = None
            self._end_turn()
        elif self.phase is Phase.FIGURE:
            self._finish_turn()
        elif self.phase is Phase.WAGON:
            owner, root = self._freed_wagons.pop(0)
            self._take_back_wagon(owner, root)
            self._resolve_wagons()
        elif self.phase is Phase.ABBEY_END:
            self._offer_end_abbey()

    def _advance_player(self) -> bool:
        """Pass the turn to the next seat still playing; end the game if nobody is left."""
        if all(self.out):
            self._end_game()
            return False
        self.current = (self.current + 1) % self.players
        while self.out[self.current]:
            self.current = (self.current + 1) % self.players
        self.actor = self.current
        self.turn += 1
        return True

    def _place_abbey(self, action: PlaceAbbey) -> None:
        if self.phase not in (Phase.TILE, Phase.ABBEY_END):
            raise WrongPhaseError(self._phase_hint(), f"phase_{self.phase.value}")
        if not self.abbeys[self.actor]:
            raise IllegalActionError("you have already played your abbey", "abbey_used")
        pos = (action.x, action.y)
        if pos not in self.board.holes():
            raise IllegalActionError(
                f"an abbey goes only into a hole: an empty square with tiles on all four sides; "
                f"({action.x}, {action.y}) is not one",
                "not_a_hole",
                x=action.x,
                y=action.y,
            )
        self.abbeys[self.actor] -= 1
        if self.tile is not None:
            # The abbey is played instead of the drawn tile, which goes back on top of the stack.
            self.stack.append(self.tile)
            self.tile = None
        self._touched = self.board.place(self.kinds[am.ABBEY_KIND].oriented(0), pos, self.turn)
        self.last_pos = pos
        self.emit(TilePlaced(self.current, am.ABBEY_KIND, action.x, action.y, 0))
        self._figure_choices = self._figure_options()
        if self._figure_choices:
            self.phase = Phase.FIGURE
        else:
            self._finish_turn()

    def _move_wagon(self, action: MoveWagon) -> None:
        if self.phase is not Phase.WAGON:
            raise WrongPhaseError(self._phase_hint(), f"phase_{self.phase.value}")
        target = None
        placed = self.board.tiles.get((action.x, action.y))
        if placed is not None:
            local = placed.oriented.feature_at(action.at)
            if local >= 0:
                root = self.board.find(placed.first_node + local)
                target = next(
                    (
                        m
                        for m in self._wagon_choices
                        if self.board.root_of((m.x, m.y), self._local_at(m)) == root
                    ),
                    None,
                )
        if target is None:
            raise IllegalActionError(
                "the wagon may only move to an unfinished, empty road, city or cloister touching "
                "the feature just scored; choose one of those or take it back (pass)",
                "wagon_refused",
            )
        owner, _ = self._freed_wagons.pop(0)
        pos = (target.x, target.y)
        local = self._local_at(target)
        root = self.board.root_of(pos, local)
        self.board.figures[root].append(Figure(owner, "wagon", pos, local, target.at))
        self.emit(WagonMoved(owner, target.x, target.y, target.at))
        self._resolve_wagons()

    def _local_at(self, move: MoveWagon) -> int:
        return self.board.tiles[(move.x, move.y)].oriented.feature_at(move.at)

    def _phase_hint(self) -> str:
        if self.phase is Phase.TILE:
            return "place your tile first"
        if self.phase is Phase.FIGURE:
            return "place a figure on the tile you just placed, or pass"
        if self.phase is Phase.WAGON:
            return "move the wagon to a touching unfinished feature, or pass to take it back"
        if self.phase is Phase.ABBEY_END:
            return "place your abbey into a hole, or pass"
        return "the game is over"

    # -- turn flow --------------------------------------------------------------------------

    def _finish_turn(self) -> None:
        """Score what the placement completed, then let freed wagons move, then end the turn."""
        scoring.score_completed(self, self._touched)
        self._touched = []
        for root in dict.fromkeys(self.board.find(r) for r in self._barn_joins):
            if am.has_barn(self.board, root) and am.has_farmers(self.board, root):
                am.score_field_farmers(self, root, per_city=1, final=False)
        self._barn_joins = []
        first = self.current
        self._freed_wagons.sort(key=lambda item: (item[0] - first) % self.players)
        self._resolve_wagons()

    def free_wagon(self, owner: int, root: int) -> None:
        """A wagon's feature was scored: its owner will move it or take it back."""
        self._freed_wagons.append((owner, root))

    def _take_back_wagon(self, owner: int, root: int) -> None:
        self.supply[owner]["wagon"] += 1
        self.emit(FigureReturned(owner, "wagon", *self.board.node_pos[root]))

    def _resolve_wagons(self) -> None:
        """Offer each freed wagon its moves in turn; one with nowhere to go comes back."""
        while self._freed_wagons:
            owner, root = self._freed_wagons[0]
            targets = am.wagon_targets(self.board, root)
            if targets and not self.out[owner]:
                self._wagon_choices = [
                    MoveWagon(pos[0], pos[1], self.board.tiles[pos].oriented.at_label(local))
                    for pos, local in targets
                ]
                self.phase = Phase.WAGON
                self.actor = owner
                return
            self._freed_wagons.pop(0)
            self._take_back_wagon(owner, root)
        self._wagon_choices = []
        self._end_turn()

    def _on_merge(self, kept: int, absorbed: int) -> None:
        board = self.board
        if board.ftype[kept] != "field":
            return
        a, b = board.figures[kept], board.figures[absorbed]
        if not a or not b:
            return
        barn_a = any(f.kind == "barn" for f in a)
        barn_b = any(f.kind == "barn" for f in b)
        farm_a = any(f.kind != "barn" for f in a)
        farm_b = any(f.kind != "barn" for f in b)
        if (barn_a and farm_b) or (barn_b and farm_a):
            self._barn_joins.append(kept)

    def _end_turn(self) -> None:
        if self._ending is not None:
            self._offer_end_abbey()
            return
        if self.hand_mode and not self.out[self.current]:
            self._refill_hand(self.current)
        if self._advance_player():
            self._begin_turn()

    def _refill_hand(self, player: int) -> None:
        hand = self.hands[player]
        while len(hand) < HAND_SIZE and self.stack:
            hand.append(self.stack.pop())

    def _begin_turn(self) -> None:
        """Draw for the current player, discarding unplaceable tiles; end the game if none."""
        if self.hand_mode:
            for _ in range(self.players):
                if not self.out[self.current] and self._settle_hand(self.current):
                    self.phase = Phase.TILE
                    self.actor = self.current
                    self.emit(TurnStarted(self.current, self.turn))
                    return
                self.current = (self.current + 1) % self.players
            self._last_tile_placed()
            return
        while self.stack:
            name = self.stack.pop()
            if self.board.has_placement(self.kinds[name]):
                self.tile = name
                self.phase = Phase.TILE
                self.emit(TurnStarted(self.current, self.turn))
                return
            self.discarded.append(name)
            self.emit(TileDiscarded(self.current, name))
        self._last_tile_placed()

    def _last_tile_placed(self) -> None:
        """No tile left: offer end-game abbeys (Abbey & Mayor), then final scoring."""
        self.tile = None
        if self.abbey_mayor:
            self._ending = [(self.current + i) % self.players for i in range(self.players)]
            self._offer_end_abbey()
        else:
            self._end_game()

    def _offer_end_abbey(self) -> None:
        assert self._ending is not None
        holes = self.board.holes()
        while self._ending and holes:
            player = self._ending.pop(0)
            if self.abbeys[player] and not self.out[player]:
                self.phase = Phase.ABBEY_END
                self.current = self.actor = player
                return
        self._ending = []
        self._end_game()

    def _settle_hand(self, player: int) -> bool:
        """Discard unplaceable tiles from a hand (drawing replacements); True if one remains."""
        hand = self.hands[player]
        while True:
            stuck = [n for n in hand if not self.board.has_placement(self.kinds[n])]
            if not stuck:
                return bool(hand)
            for name in stuck:
                hand.remove(name)
                self.discarded.append(name)
                self.emit(TileDiscarded(player, name))
            self._refill_hand(player)

    def _end_game(self) -> None:
        self.tile = None
        self.final_scoring()
        self.phase = Phase.OVER
        staying = [p for p in range(self.players) if not self.out[p]] or list(range(self.players))
        best = max(self.scores[p] for p in staying)
        self.winners = tuple(p for p in staying if self.scores[p] == best)
        self.emit(GameEnded(tuple(self.scores), self.winners))

    @property
    def leaders(self) -> tuple[int, ...]:
        """The winners once the game is over; before, the best scores among the seats still
        playing (a seat that left never leads unless everyone left)."""
        if self.winners:
            return self.winners
        staying = [p for p in range(self.players) if not self.out[p]] or list(range(self.players))
        best = max(self.scores[p] for p in staying)
        return tuple(p for p in staying if self.scores[p] == best)

    def final_scoring(self) -> None:
        """Rule point: the end-of-game scoring (Carcassonne: features, farmers, barns)."""
        roots = scoring.score_final(self)
        if self.abbey_mayor:
            am.score_barns_final(self, roots)

    def add_points(self, player: int, category: str, points: int) -> None:
        self.scores[player] += points
        breakdown = self.breakdown[player]
        breakdown[category] = breakdown.get(category, 0) + points


#: The games of the family by record name; ``Game(setup)`` picks the class from here.
GAMES: dict[str, type[Game]] = {"carcassonne": Game}
