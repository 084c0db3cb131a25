"""The turn machine every game family shares: decisions, checked actions, events.

A game is (setup, seed, actions): :class:`Game` builds the stack from the setup, then each call to
:meth:`Game.play` checks one action against the decision the game is waiting for, applies it and
returns the events it caused. Each game family subclasses :class:`Game` in its own package and
overrides its rule points (tiles, figures, scoring); expansions fill the hooks of
:class:`engine.core.expansion.Expansion`. Nothing here names a family or an expansion.

>>> from engine import Game, Setup, Pass
>>> game = Game(Setup(players=("Alice", "Bob"), seed=7))
>>> action = next(iter(game.legal_placements()))
>>> events = game.play(action)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from engine.core.actions import Action, At, Forfeit, Pass, PlaceFigure, PlaceTile, Skip
from engine.core.board import Board, Figure, Pos, find_root
from engine.core.errors import IllegalActionError, MalformedError, WrongPhaseError
from engine.core.events import (
    Event,
    FigurePlaced,
    GameEnded,
    PlayerLeft,
    TileDiscarded,
    TilePlaced,
    TurnSkipped,
    TurnStarted,
)
from engine.core.expansion import PLUGINS, Expansion
from engine.core.setup import GAME_PLAYERS, GAME_TITLES, OPTIONS, Setup
from engine.core.tiles import EDGE_NAMES, ROTATIONS, TileKind, kinds_by_name
from engine.core.turn import Decision, LegalPlacements, Phase

if TYPE_CHECKING:
    from engine.core.steer import Steer

__all__ = ["Decision", "Game", "LegalPlacements", "Phase", "register_game"]

HAND_SIZE = 3
A = TypeVar("A", bound=Action)
#: The hooks of :class:`Expansion` the turn machine calls; each is called only for the plug-ins
#: that override it, so a game without expansions pays nothing for them.
HOOKS = (
    "arrange_stack",
    "placement_refusal",
    "placement_squares",
    "held_tiles",
    "fills_square",
    "may_stand",
    "figure_refusal",
    "figure_weight",
    "figure_scored",
    "pieces",
    "on_merge",
    "after_scoring",
    "pending_decision",
    "extra_tile",
    "feature_value",
    "feature_marks",
    "first_kinds",
    "farmer_bonus",
    "before_end",
    "final_scoring",
    "snapshot",
)
#: Each hook with no plug-in overriding it: an empty list, shared by every game (never changed).
_NO_HOOKS: dict[str, list[Callable[..., Any]]] = {hook: [] for hook in HOOKS}
#: Action types that belong to an expansion or to one game family, with the refusal (message,
#: code) that a game without them gives; registered by their owners.
FOREIGN_ACTIONS: dict[type[Action], tuple[str, str]] = {}


class Game:
    """One game: the turn machine, with the rule points a game family overrides.

    ``Game(setup)`` builds the registered class of ``setup.game`` (:func:`register_game`), with
    one instance of each expansion of ``setup.expansions`` (:mod:`engine.core.expansion`).
    ``steer`` (:class:`engine.core.steer.Steer`) watches what it draws: only the reading and
    writing of positions (:mod:`engine.core.position`) give one.
    """

    #: Words for the edge letters, for refusals ("its N edge is a road ...").
    edge_words: ClassVar[dict[str, str]] = {}
    #: Role of a figure by the feature type it stands on (a follower on a road is a thief).
    roles: ClassVar[dict[str, str]] = {}
    #: The figures that take the role of their feature.
    role_figures: ClassVar[frozenset[str]] = frozenset()

    def __new__(cls, setup: Setup, steer: Steer | None = None) -> Game:
        if cls is Game:
            game_class = GAMES.get(setup.game)
            if game_class is not None and game_class is not Game:
                # Through the family's own class: compiled code allocates super().__new__(cls) only.
                return game_class.__new__(game_class, setup)
        return super().__new__(cls)

    def tile_sets(self) -> tuple[str, ...]:
        """Rule point: the game's own tile sets (its expansions' are added to them)."""
        raise NotImplementedError

    #: Attributes a game family adds to the game's state (:meth:`fork` copies them like the
    #: core's: lists, dicts and sets one level down, anything else shared).
    family_state: ClassVar[tuple[str, ...]] = ()

    def initial_supply(self) -> dict[str, int]:
        """Rule point: each player's figures at the start (its expansions' are added)."""
        raise NotImplementedError

    def __init__(self, setup: Setup, steer: Steer | None = None) -> None:
        self.setup = setup
        #: Told what the game draws (positions only; None in every game played, and in forks).
        self.steer = steer
        self.options = setup.options
        self.hand_mode = bool(setup.options.get("hand", False))
        self.players = len(setup.players)
        self.plugins: dict[str, Expansion] = {
            name: PLUGINS[name](self) for name in setup.expansions
        }
        self._hook_lists()
        sets = [*self.tile_sets()]
        sets += [p.tile_set for p in self.plugins.values() if p.tile_set]
        self.kinds: dict[str, TileKind] = kinds_by_name(*sets)
        self.board = self._new_board()
        self.scores = [0] * self.players
        self.breakdown: list[dict[str, int]] = [{} for _ in range(self.players)]
        figures = self.initial_supply()
        self.own_figures = frozenset(figures)
        self.figure_weights: dict[str, int] = {}
        for plugin in self.plugins.values():
            figures.update(plugin.figures)
            self.figure_weights.update(plugin.weights)
        self.supply: list[dict[str, int]] = [dict(figures) for _ in range(self.players)]
        #: Seats that forfeited: skipped, their figures count and score nothing.
        self.out = [False] * self.players
        self.actions: list[Action] = []
        self.turn = 0
        self.current = 0
        #: Who must decide now: the current player, or another seat an expansion asks.
        self.actor = 0
        self.phase = Phase.TILE
        self.tile: str | None = None
        self.hands: list[list[str]] = [[] for _ in range(self.players)]
        self.discarded: list[str] = []
        self.last_pos: Pos | None = None
        self.winners: tuple[int, ...] = ()
        self._touched: list[int] = []
        self._figure_choices: list[PlaceFigure] = []
        self._ending = False
        self._set_merge_hooks()
        self._pending: list[Event] = []
        #: False while :meth:`projected_scores` scores a copy: no event is kept (scoring code
        #: may skip building them).
        self.recording = True
        self.stack = self._build_stack()
        for arrange in self._hooks["arrange_stack"]:
            self.stack = arrange(self.stack)
        self._lay_start()
        if self.hand_mode:
            for player in range(self.players):
                self._refill_hand(player)
        self._begin_turn()
        if steer is not None:
            steer.started(self, list(self._pending))
        self._pending.clear()

    def _hook_lists(self) -> None:
        """The plug-in tables (:meth:`_bind_plugins`), and empty caches of what depends on the
        setup only (a fork shares those with its original)."""
        self._bind_plugins()
        #: Tile kind name -> :meth:`restricts` (asked once per kind and game).
        self._restricting: dict[str, bool] = {}
        #: figure -> the feature types (of :attr:`roles`) it may stand on, filled as asked.
        self._allowed: dict[str, frozenset[str]] = {}

    def _bind_plugins(self) -> None:
        """For each hook, the bound methods of the plug-ins that override it, and the other
        tables that point at plug-ins (a fork's are its own plug-ins')."""
        plugins = list(self.plugins.values())
        plan = _hook_plan(tuple(type(p) for p in plugins))
        # The hooks no plug-in overrides share one empty list each (never changed).
        hooks = dict(_NO_HOOKS)
        for hook, overriding in plan.items():
            hooks[hook] = [getattr(plugins[index], hook) for index in overriding]
        self._hooks: dict[str, list[Callable[..., Any]]] = hooks
        #: The plug-ins with a merge hook, in the order of ``_hooks["on_merge"]``.
        self._merging = [plugins[index] for index in plan.get("on_merge", ())]
        #: Per plug-in with a placement rule: which tile kinds that rule concerns.
        self._restrictors: list[Callable[[TileKind], bool]] = [
            p.restricts
            for p in plugins
            if type(p).placement_refusal is not Expansion.placement_refusal
        ]
        #: Figures an expansion places itself (a barn on a corner), by figure.
        self._special_figures: dict[str, Expansion] = {}
        self._action_owner: dict[type[Action], Expansion] = {}
        self._phase_owner: dict[Phase, Expansion] = {}
        #: Special figures that only join a feature already holding a figure.
        self._joining_figures: frozenset[str] = frozenset()
        for plugin in plugins:
            self._special_figures.update(dict.fromkeys(plugin.special_figures, plugin))
            self._joining_figures |= plugin.joining_figures
            self._action_owner.update(dict.fromkeys(plugin.actions, plugin))
            self._phase_owner.update(dict.fromkeys(plugin.phases, plugin))

    def _set_merge_hooks(self) -> None:
        hooks = self._hooks["on_merge"]
        bare = [
            hook
            for hook, p in zip(hooks, self._merging, strict=True)
            if not p.merges_with_figures_only
        ]
        self.board.set_merge_hooks(tuple(hooks), tuple(bare))

    # -- setup ------------------------------------------------------------------------------

    def _new_board(self) -> Board:
        """Rule point: the board (unbounded here; The Castle has a bounded one)."""
        return Board()

    def _lay_start(self) -> None:
        """Rule point: what lies on the board before the first action (the start tile)."""
        if self.steer is not None:
            self.steer.drawing(self, -1)
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
        shuffle(pool, self.setup.seed)
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
        from engine.core.actions import action_from_json

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

    def fork(self) -> Game:
        """An independent copy of the game, cheap enough for search (tens of microseconds).

        Everything mutable is copied one level down (a list of lists copies the inner lists);
        the board clones itself; each expansion forks with the new game. What never changes
        after setup (the setup, the tile kinds, the hook tables) is shared. The attributes are
        copied one by one (compiled, setup.py, each is a direct store); a game family's own
        are named in :attr:`family_state`, and a test checks that a fork has every attribute.
        """
        cls = type(self)
        new = cls.__new__(cls, self.setup)  # no __init__
        new.setup = self.setup
        new.steer = None
        new.options = self.options
        new.hand_mode = self.hand_mode
        new.players = self.players
        new.kinds = self.kinds
        new.own_figures = self.own_figures
        new.figure_weights = self.figure_weights
        new.board = self.board.clone()
        new.scores = self.scores.copy()
        new.breakdown = [part.copy() for part in self.breakdown]
        new.supply = [figures.copy() for figures in self.supply]
        new.out = self.out.copy()
        new.actions = self.actions.copy()
        new.turn = self.turn
        new.current = self.current
        new.actor = self.actor
        new.phase = self.phase
        new.tile = self.tile
        new.hands = [hand.copy() for hand in self.hands]
        new.discarded = self.discarded.copy()
        new.last_pos = self.last_pos
        new.winners = self.winners
        new.stack = self.stack.copy()
        new._touched = self._touched.copy()
        new._figure_choices = self._figure_choices.copy()
        new._ending = self._ending
        new._pending = []
        new.recording = self.recording
        new._restricting = self._restricting
        new._allowed = self._allowed
        for name in self.family_state:
            value = getattr(self, name)
            setattr(new, name, _copy2(value) if type(value) in _MUTABLE else value)
        new.plugins = {name: p.fork(new) for name, p in self.plugins.items()}
        new._bind_plugins()
        if new.plugins:
            new._set_merge_hooks()
        self._rebind(new)
        return new

    def projected_scores(self, consume: bool = False) -> list[int]:
        """The scores if the game ended now: the end-of-game scoring run on a fork, or with
        ``consume`` on this game itself, which is then spent (its state is no game's: for a
        copy thrown away next, as a search does with the positions it has valued)."""
        if self.phase is Phase.OVER:
            return list(self.scores)
        ended = self if consume else self.fork()
        ended.recording = False
        ended.tile = None
        ended.final_scoring()
        for hook in ended._hooks["final_scoring"]:
            hook()
        scores = ended.scores
        ended.release()
        return scores

    def release(self) -> None:
        """Break the reference cycles of a spent game (its plug-ins and board hooks point back
        at it), so that it is freed as soon as it is dropped instead of waiting for the cyclic
        collector: a search spends thousands of copies per decision. The game must not be
        played after (its expansions are gone)."""
        if self.plugins:
            self.plugins = {}
            self._bind_plugins()
        self.board.set_merge_hooks((), ())

    def _rebind(self, new: Game) -> None:
        """Rule point: point a fork's board hooks at the fork (a family's own merge hook)."""

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

    def drawn_pool(self) -> Counter[str]:
        """Rule point: the tiles still to be drawn or played from the stack, the hands and the
        tile drawn now, by kind name (Hunters & Gatherers adds its bonus tiles)."""
        pool = Counter(self.stack)
        for hand in self.hands:
            pool.update(hand)
        if self.tile is not None:
            pool[self.tile] += 1
        return pool

    def unplaced_tiles(self) -> Counter[str]:
        """Every tile not placed yet, by kind name: the stack, every hand and the tile drawn now
        (until it is placed), and the tiles expansions keep aside (the abbeys). Discarded tiles
        are gone and not counted."""
        pool = self.drawn_pool()
        for held in self._hooks["held_tiles"]:
            pool.update(held())
        return +pool

    def kinds_in_play_order(self) -> list[str]:
        """Every tile kind name in the order tiles come into play: the kinds expansions place
        before all others (The River: spring, river tiles, lake), then the tile sets' order."""
        first = dict.fromkeys(name for hook in self._hooks["first_kinds"] for name in hook())
        return [*first, *(name for name in self.kinds if name not in first)]

    def dead_squares(self) -> frozenset[Pos]:
        """Empty squares next to the board that no unplaced tile can fill, in any rotation (an
        expansion's own rules and tiles included). None once the game is over."""
        if self.phase is Phase.OVER:
            return frozenset()
        board = self.board
        kinds = [self.kinds[name] for name in self.drawn_pool()]
        rules = self._hooks["placement_refusal"]
        fills = self._hooks["fills_square"]
        dead: set[Pos] = set()
        for key, cells in board.by_key.items():
            fitting = [(kind, rotations) for kind in kinds if (rotations := board.fits(kind, key))]
            if fitting and not rules:
                continue
            for cell in cells:
                if any(
                    all(rule(kind, rotation, cell) is None for rule in rules)
                    for kind, rotations in fitting
                    for rotation in rotations
                ):
                    continue
                if any(fill(cell, key) for fill in fills):
                    continue
                dead.add(cell)
        return frozenset(dead)

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

    @property
    def restricts_placement(self) -> bool:
        """Whether an expansion adds a placement rule to the edges' (a river)."""
        return bool(self._hooks["placement_refusal"])

    def restricts(self, kind: TileKind) -> bool:
        """Whether an expansion's placement rule may refuse a fitting placement of ``kind``."""
        known = self._restricting.get(kind.name)
        if known is None:
            known = self._restricting[kind.name] = any(
                concerns(kind) for concerns in self._restrictors
            )
        return known

    def has_placement(self, kind: TileKind) -> bool:
        """Whether ``kind`` can go anywhere now (it fits, and no expansion's rule forbids it)."""
        if not self._restrictors or not self.restricts(kind):
            return self.board.has_placement(kind)
        return any(True for _ in self.placements(kind))

    def placements(self, kind: TileKind) -> Iterator[tuple[Pos, int]]:
        """Every (square, rotation) where ``kind`` may go now."""
        if not self.restricts(kind):
            yield from self.board.placements(kind)
            return
        rules = self._hooks["placement_refusal"]
        only = [hook(kind) for hook in self._hooks["placement_squares"]]
        only = [squares for squares in only if squares is not None]
        if only:
            # Only the squares every rule allows (the river's open end) are looked at.
            squares = set(only[0]).intersection(*only[1:])
            candidates = self.board.placements_on(kind, squares)
        else:
            candidates = self.board.placements(kind)
        for pos, rotation in candidates:
            if all(rule(kind, rotation, pos) is None for rule in rules):
                yield pos, rotation

    def legal(self, action_type: type[A]) -> list[A]:
        """The legal actions of a kind an expansion or the game family adds (an abbey, a wagon
        move, a wall tile); empty when the game does not have them or not now."""
        kind: Any = action_type  # one of the union ``Action``
        owner = self._action_owner.get(kind)
        found = owner.legal(kind) if owner is not None else self.legal_own(kind)
        return found  # type: ignore[return-value]

    def legal_own(self, action_type: type[Action]) -> list[Action]:
        """Rule point: the legal actions of a kind of the game family's own (The Castle)."""
        return []

    @property
    def can_pass(self) -> bool:
        """Whether ``Pass`` answers the decision at hand (a figure, or an expansion's step)."""
        return self.phase is Phase.FIGURE or self.phase in self._phase_owner

    def _figure_options(self) -> list[PlaceFigure]:
        assert self.last_pos is not None
        board = self.board
        pos = self.last_pos
        placed = board.tiles[pos]
        shape = placed.shape
        parent, figures, first = board.parent, board.figures, placed.first_node
        free: list[int] = []  # the empty features (local indices)
        occupied = False  # whether a feature of the tile holds a figure
        for node in range(first, first + shape.count):
            root = parent[node]
            if parent[root] != root:
                root = find_root(parent, node)
            if figures[root]:
                occupied = True
            else:
                free.append(node - first)
        x, y = pos
        allowed = self._allowed
        special = self._special_figures
        joining = self._joining_figures
        result: list[PlaceFigure] = []
        ftypes, labels = shape.ftypes, shape.labels
        for figure, count in self.supply[self.current].items():
            if count <= 0:
                continue
            owner = special.get(figure)
            if owner is not None:
                if occupied or figure not in joining:
                    result.extend(owner.figure_options(figure, pos) or ())
                continue
            if not free:
                continue
            stands = allowed.get(figure)
            if stands is None:
                stands = allowed[figure] = frozenset(
                    ftype for ftype in self.roles if self._may_stand(figure, ftype)
                )
            for local in free:
                if ftypes[local] in stands:
                    result.append(PlaceFigure(figure, x, y, labels[local]))
        return result

    def _may_stand(self, figure: str, ftype: str) -> bool:
        """Whether ``figure`` may stand on an empty ``ftype`` (asked once per pair and game, for
        every role type when the figure is first offered)."""
        if ftype not in self.roles:
            return False
        for hook in self._hooks["may_stand"]:
            answer = hook(figure, ftype)
            if answer is not None:
                return bool(answer)
        return figure in self.own_figures

    def figures(self) -> Iterator[Figure]:
        """Every figure on the board."""
        board = self.board
        for node, parent in enumerate(board.parent):
            if parent == node:
                yield from board.figures[node]

    def pieces(self, player: int) -> dict[str, int]:
        """What ``player`` still has to place: the figure supply and the pieces an expansion
        keeps beside it (an abbey tile)."""
        result = dict(self.supply[player])
        for hook in self._hooks["pieces"]:
            result.update(hook(player))
        return result

    def strengths(self, root: int) -> list[int]:
        """Each player's weight in feature ``root`` (a player who left counts 0)."""
        weights = [0] * self.players
        out = self.out
        for figure in self.board.figures[root]:
            if out[figure.player]:
                continue
            weights[figure.player] += self.figure_weight(figure, root)
        return weights

    def figure_weight(self, figure: Figure, root: int) -> int:
        """A figure's weight in the majority of feature ``root`` (1 unless an expansion says)."""
        for hook in self._hooks["figure_weight"]:
            weight = hook(figure, root)
            if weight is not None:
                return int(weight)
        return self.figure_weights.get(figure.kind, 1)

    def feature_value(self, root: int, complete: bool, value: int) -> int:
        """``value`` as the expansions change it (inns, cathedrals)."""
        for hook in self._hooks["feature_value"]:
            value = hook(root, complete, value)
        return value

    def feature_marks(self, root: int) -> tuple[str, ...]:
        """What the expansions name on feature ``root`` as changing its value (an inn)."""
        hooks = self._hooks["feature_marks"]
        return tuple(mark for hook in hooks for mark in hook(root)) if hooks else ()

    def farmer_bonus(self, player: int, fields: list[int]) -> int:
        """Points per city the expansions add for ``player`` scoring through ``fields`` (a pig)."""
        return sum(hook(player, fields) for hook in self._hooks["farmer_bonus"])

    def figure_scored(self, figure: Figure, root: int) -> bool:
        """True if an expansion takes ``figure`` when its feature is scored (a wagon)."""
        hooks = self._hooks["figure_scored"]
        return bool(hooks) and any(hook(figure, root) for hook in hooks)

    def snapshot(self) -> dict[str, Any]:
        """A comparable summary of the whole state (for replay checks and tests)."""
        data = {
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
            "out": list(self.out),
            "turn": self.turn,
            "tile": self.tile,
            "discarded": list(self.discarded),
        }
        for hook in self._hooks["snapshot"]:
            data.update(hook())
        return data

    def public_snapshot(self) -> dict[str, Any]:
        """Rule point: what everyone at the table sees, comparable: :meth:`snapshot` with the
        face-down tiles counted instead of named (the stack, each hand; a family's own: bonus
        tiles, wall tiles on towers), and the tiles not placed yet as a multiset (everyone can
        count them: the game's tiles less those shown)."""
        data = self.snapshot()
        data["stack"] = len(self.stack)
        data["hands"] = [len(hand) for hand in self.hands]
        data["unplaced"] = sorted(self.unplaced_tiles().items())
        return data

    def position_counts(self) -> dict[str, int]:
        """Rule point: what a position (:mod:`engine.core.position`) counts of a family's own
        face-down tiles, by field name (Hunters & Gatherers: ``bonus_left``)."""
        return {}

    def position_setup(
        self, setup: Setup, shown: list[dict[str, Any]], counts: dict[str, int]
    ) -> Setup:
        """Rule point: ``setup`` with the forced draws of a family's own face-down tiles, to
        rebuild a position whose ``shown`` entries and :meth:`position_counts` are given: the
        tiles shown where they were, the others in a canonical order (never a seed). Asked of a
        game of the position's setup with seed 0; raises a ``MalformedError`` for counts or
        entries no game of the family can have."""
        return setup

    # -- playing ----------------------------------------------------------------------------

    def play(self, action: object) -> list[Event]:
        """Check and apply one action; return the events it caused.

        Raises :class:`~engine.core.errors.IllegalActionError` (a ``ValueError``) with a message a
        player can read, leaving the game unchanged; :class:`~engine.core.errors.MalformedError`
        for something that is not an action (typed ``object`` so that compiled code, setup.py,
        does not refuse it first with a ``TypeError``).
        """
        if not isinstance(action, Action):
            raise MalformedError(f"not an action: {action!r}")
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
        elif type(action) in self._action_owner:
            self._action_owner[type(action)].play(action)
        elif not self.play_own(action):
            refusal = FOREIGN_ACTIONS.get(type(action))
            if refusal is None:
                raise MalformedError(f"not an action: {action!r}")
            raise IllegalActionError(*refusal)
        self.actions.append(action)
        events, self._pending = self._pending, []
        return events

    def play_own(self, action: Action) -> bool:
        """Rule point: apply an action of the game family's own kind (The Castle's wall tiles);
        False if this game has no such action."""
        return False

    def emit(self, event: Event) -> None:
        if self.recording:
            self._pending.append(event)

    @property
    def emitted(self) -> list[Event]:
        """The events the action being played has caused so far (read only)."""
        return self._pending

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
        # One table look-up; the edges are read one by one only to word a refusal.
        if action.rotation not in self.board.fits(kind, key):
            self._refuse_fit(kind, action, key)
        for rule in self._hooks["placement_refusal"]:
            refusal = rule(kind, action.rotation, pos)
            if refusal is not None:
                raise refusal
        return kind

    def _refuse_fit(self, kind: TileKind, action: PlaceTile, key: str) -> None:
        """Raise the refusal of a tile whose edges do not match its neighbours'."""
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
        owner = self._special_figures.get(action.figure)
        if owner is not None and owner.place_figure(action):
            self._finish_turn()
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
        # The choices are all on this tile: the figure and the feature tell them apart.
        for choice in self._figure_choices:
            if choice.at == at and choice.figure == action.figure:
                break
        else:
            raise IllegalActionError(
                self._figure_refusal(action.figure, feat.type),
                "figure_refused",
                figure=action.figure,
                feature=feat.type,
            )
        root = self.board.find(placed.first_node + local)
        figure = Figure(self.current, action.figure, self.last_pos, local, at)
        self.board.add_figure(root, figure)
        self.supply[self.current][action.figure] -= 1
        self.after_figure(figure, root)
        role = self.role(action.figure, feat.type)
        self.emit(FigurePlaced(self.current, action.figure, role, action.x, action.y, at))
        self._finish_turn()

    def role(self, figure: str, ftype: str) -> str:
        """What a figure is called on a feature type (a follower on a road is a thief)."""
        return self.roles.get(ftype, figure) if figure in self.role_figures else figure

    def figure_feature(self, figure: PlaceFigure) -> str | None:
        """The feature type ``figure`` stands on (a choice of :meth:`legal_figures`, on a placed
        tile): "city", "road", "field"...; None for a spot that is no feature (a barn's
        corner)."""
        placed = self.board.tiles.get((figure.x, figure.y))
        if placed is None:
            return None
        local = placed.oriented.feature_at(figure.at)
        return placed.oriented.features[local].type if local >= 0 else None

    def figure_role(self, figure: PlaceFigure) -> str:
        """What ``figure`` is called where it stands: a follower on a road is a thief, a subject
        on a tower a knight; a figure that takes no role keeps its name (mayor, barn, hut)."""
        ftype = self.figure_feature(figure)
        return figure.figure if ftype is None else self.role(figure.figure, ftype)

    def action_target(self, action: Action) -> tuple[int, tuple[int, int, At]] | None:
        """Rule point: the feature ``action`` names beyond its own square (The Castle's wall
        tiles 2 and 3 name a tower or a house), as its root and a spot of it where a picture can
        show it; None for an action that names none."""
        return None

    def bonus_reason(self) -> str | None:
        """Rule point: why the tile in play is a second tile of the same turn ("builder": a
        builder earned it), None for a turn's own tile."""
        for plugin in self.plugins.values():
            why = plugin.bonus_reason()
            if why is not None:
                return why
        return None

    def _figure_refusal(self, figure: str, ftype: str) -> str:
        for hook in self._hooks["figure_refusal"]:
            refusal = hook(figure, ftype)
            if refusal is not None:
                return str(refusal)
        if ftype not in self.roles:
            return f"no figure can stand on a {ftype}"
        return (
            f"that {ftype} already holds a figure (maybe further away) or a barn: "
            "choose another feature or pass"
        )

    def _pass(self) -> None:
        if self.phase is Phase.FIGURE:
            self._finish_turn()
        elif self.phase in self._phase_owner:
            self._phase_owner[self.phase].decline()
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
            if self.steer is not None:
                self.steer.returned(self, True)
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
                if self.steer is not None:
                    self.steer.returned(self, False)
            self._end_turn()
        elif self.phase is Phase.FIGURE:
            self._finish_turn()
        elif self.phase in self._phase_owner:
            self._phase_owner[self.phase].decline()

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

    def _phase_hint(self) -> str:
        if self.phase is Phase.TILE:
            return "place your tile first"
        if self.phase is Phase.FIGURE:
            return "place a figure on the tile you just placed, or pass"
        if self.phase in self._phase_owner:
            return self._phase_owner[self.phase].hint()
        return "the game is over"

    # -- turn flow --------------------------------------------------------------------------

    def score_completed(self, touched: list[int]) -> None:
        """Rule point: score what the last placement completed (``touched``: its nodes)."""
        raise NotImplementedError

    def _finish_turn(self) -> None:
        """Score what the placement completed, then the expansions' steps, then end the turn."""
        self.score_completed(self._touched)
        self._touched = []
        for hook in self._hooks["after_scoring"]:
            hook()
        self.continue_turn()

    def continue_turn(self) -> None:
        """Let the expansions ask their questions (a freed wagon), then end the turn."""
        for hook in self._hooks["pending_decision"]:
            if hook():
                return
        self._end_turn()

    def _end_turn(self) -> None:
        if self._ending:
            self.continue_ending()
            return
        if self.hand_mode and not self.out[self.current]:
            self._refill_hand(self.current)
        extra = self._hooks["extra_tile"]
        if extra and any(hook() for hook in extra) and not self.out[self.current]:
            self.actor = self.current
            self.turn += 1
            self._begin_turn()
            return
        if self._advance_player():
            self._begin_turn()

    def _refill_hand(self, player: int) -> None:
        hand = self.hands[player]
        while len(hand) < HAND_SIZE and self.stack:
            if self.steer is not None:
                self.steer.drawing(self, player)
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
            if self.steer is not None:
                self.steer.drawing(self, -1)
            name = self.stack.pop()
            if self.has_placement(self.kinds[name]):
                self.tile = name
                self.phase = Phase.TILE
                self.emit(TurnStarted(self.current, self.turn))
                return
            self.discarded.append(name)
            self.emit(TileDiscarded(self.current, name))
        self._last_tile_placed()

    def _last_tile_placed(self) -> None:
        """No tile left: the expansions' last questions (an abbey), then final scoring."""
        self.tile = None
        self._ending = True
        self.continue_ending()

    def continue_ending(self) -> None:
        """Ask the expansions' end-of-game questions still open; then end the game."""
        for hook in self._hooks["before_end"]:
            if hook():
                return
        self._end_game()

    def _settle_hand(self, player: int) -> bool:
        """Discard unplaceable tiles from a hand (drawing replacements); True if one remains."""
        hand = self.hands[player]
        while True:
            if self.steer is not None:
                self.steer.checking_hand(self, player)
            stuck = [n for n in hand if not self.has_placement(self.kinds[n])]
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
        for hook in self._hooks["final_scoring"]:
            hook()
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
        """Rule point: the game's end-of-game scoring (its expansions' follows)."""
        raise NotImplementedError

    def add_points(self, player: int, category: str, points: int) -> None:
        self.scores[player] += points
        breakdown = self.breakdown[player]
        breakdown[category] = breakdown.get(category, 0) + points


#: Per tuple of plug-in classes: for each hook, the positions of the plug-ins that override it.
_HOOK_PLANS: dict[tuple[type[Expansion], ...], dict[str, tuple[int, ...]]] = {}


def _hook_plan(types: tuple[type[Expansion], ...]) -> dict[str, tuple[int, ...]]:
    """Hook -> the indices of the plug-ins (of these types, in order) that override it; only the
    hooks some plug-in overrides."""
    plan = _HOOK_PLANS.get(types)
    if plan is None:
        plan = {}
        for hook in HOOKS:
            overriding = tuple(
                index
                for index, kind in enumerate(types)
                if getattr(kind, hook) is not getattr(Expansion, hook)
            )
            if overriding:
                plan[hook] = overriding
        _HOOK_PLANS[types] = plan
    return plan


def shuffle(pool: list[str], seed: int) -> None:
    """``random.Random(seed).shuffle(pool)``, step for step: CPython's Fisher-Yates, each index
    drawn with ``getrandbits`` and rejection (as ``Random._randbelow`` does), without its two
    method calls per tile. The stack's order is part of every record."""
    getrandbits = random.Random(seed).getrandbits
    for i in reversed(range(1, len(pool))):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        pool[i], pool[j] = pool[j], pool[i]


_MUTABLE = (list, dict, set)


def _copy2(value: Any) -> Any:
    """A copy of a list, dict or set and of the lists, dicts or sets directly inside it (each
    container's items are of one kind: its first tells); anything else as it is."""
    kind = type(value)
    if kind is list:
        if value and type(value[0]) in _MUTABLE:
            return [item.copy() for item in value]
        return value.copy()
    if kind is dict:
        if value and type(next(iter(value.values()))) in _MUTABLE:
            return {key: item.copy() for key, item in value.items()}
        return value.copy()
    if kind is set:
        return value.copy()
    return value


#: The games by record name; ``Game(setup)`` picks the class from here.
GAMES: dict[str, type[Game]] = {}


def new_game(setup: Setup, steer: Steer | None = None) -> Game:
    """``Game(setup)`` for the engine's own modules: compiled (setup.py), they would build the
    class named by a direct call, skipping the family's class that ``Game.__new__`` chooses."""
    game_class: type[Game] = GAMES.get(setup.game, Game)
    return game_class(setup, steer)


def register_game(
    name: str,
    game_class: type[Game],
    options: dict[str, tuple[tuple[Any, ...], Any]] | None = None,
    players: tuple[int, int] | None = None,
    title: str | None = None,
) -> None:
    """Declare a game family: its class, its options (name -> (values, default)), its seats
    when narrower than 1-6, and its title for refusals."""
    GAMES[name] = game_class
    OPTIONS[name] = dict(options or {})
    if players is not None:
        GAME_PLAYERS[name] = players
    if title is not None:
        GAME_TITLES[name] = title
