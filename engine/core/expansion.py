"""Expansions as plug-ins: the hooks an expansion fills, and the registry of expansions.

An expansion is a subclass of :class:`Expansion` registered for its game with
:func:`register_expansion`. A game built with it in ``setup.expansions`` makes one instance and
calls its hooks at fixed rule points of the turn machine (:class:`engine.core.game.Game`); every
default leaves the game as it is, and the game only calls the hooks a plug-in overrides, so a
game without expansions pays nothing. The hooks follow what the expansions of RULES.md need:

========================  ==================================================================
What an expansion does    Hook
========================  ==================================================================
its tiles                 :attr:`tile_set` (shuffled into the stack)
new figures               :attr:`figures` (each player's supply), :meth:`may_stand`,
                          :attr:`special_figures` with :meth:`figure_options` and
                          :meth:`place_figure` (:attr:`joining_figures`: only asked when
                          the tile joins an occupied feature), :meth:`figure_refusal`
weight in majorities      :attr:`weights` (fixed) or :meth:`figure_weight` (e.g. the mayor)
a figure that stays out   :meth:`figure_scored` (a wagon moves on instead of going home)
pieces beside the supply  :meth:`pieces` (the abbey tile), :meth:`snapshot`
start tile, first stack   :meth:`arrange_stack` (a river drawn before the others), and
                          :meth:`first_kinds` (their order, for lists of tiles)
placement rules           :meth:`placement_refusal` (the river must continue), narrowed to
                          the kinds it concerns by :meth:`restricts` (river tiles only) and
                          to the squares by :meth:`placement_squares` (its open end)
its own actions, phases   :attr:`actions`, :attr:`phases`, :meth:`legal`, :meth:`play`,
                          :meth:`decline`, :meth:`hint`
during the turn           :meth:`on_merge` (skipped for empty features when
                          :attr:`merges_with_figures_only`), :meth:`after_scoring`,
                          :meth:`pending_decision`
an extra tile             :meth:`extra_tile` (the builder: the same player plays again)
a feature's value         :meth:`feature_value` (inns, cathedrals), named in its score
                          event by :meth:`feature_marks`
farmers' points per city  :meth:`farmer_bonus` (the pig)
the end of the game       :meth:`before_end` (a last decision), :meth:`final_scoring`
========================  ==================================================================

A sixth colour needs nothing here: every game seats 1 to 6 players; the colours are the
renderer's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.core.setup import EXPANSIONS
from engine.core.values import set_state, state_of

if TYPE_CHECKING:
    from collections.abc import Collection

    from engine.core.actions import Action, PlaceFigure
    from engine.core.board import Figure, Pos
    from engine.core.errors import IllegalActionError
    from engine.core.game import Game
    from engine.core.tiles import TileKind
    from engine.core.turn import Phase


def _copy_nested(value: list[Any] | dict[Any, Any] | set[Any]) -> Any:
    if isinstance(value, list):
        return [v.copy() if isinstance(v, list | dict | set) else v for v in value]
    if isinstance(value, dict):
        return {k: v.copy() if isinstance(v, list | dict | set) else v for k, v in value.items()}
    return value.copy()


_NESTED = (list, dict, set)
#: Every registered expansion by its record name.
PLUGINS: dict[str, type[Expansion]] = {}


def register_expansion(game: str, plugin: type[Expansion]) -> None:
    """Offer ``plugin`` to games named ``game`` (``setup.expansions`` then accepts its name)."""
    PLUGINS[plugin.name] = plugin
    if plugin.name not in EXPANSIONS.get(game, ()):
        EXPANSIONS[game] = (*EXPANSIONS.get(game, ()), plugin.name)


# Plug-ins may be written outside the compiled engine (setup.py): a test's, or a new one's.
@mypyc_attr(allow_interpreted_subclasses=True)
class Expansion:
    """A plug-in of a game. Subclasses set :attr:`name` and override the hooks they need."""

    #: The record name (``setup.expansions``).
    name: ClassVar[str] = ""
    #: The tile set holding its tiles (registered with ``register_tile_set``), or None.
    tile_set: ClassVar[str | None] = None
    #: Figures it adds to each player's supply.
    figures: ClassVar[dict[str, int]] = {}
    #: Fixed weights of its figures in majorities (a figure not named here weighs 1).
    weights: ClassVar[dict[str, int]] = {}
    #: Figures it places itself, otherwise than on a feature's type alone (a barn on a corner;
    #: a figure that needs the feature's state): the game asks :meth:`figure_options` for them.
    special_figures: ClassVar[frozenset[str]] = frozenset()
    #: Those of :attr:`special_figures` that only ever join a feature already holding a figure
    #: (a builder, a pig): the game asks for them only when the tile just placed is part of one.
    joining_figures: ClassVar[frozenset[str]] = frozenset()
    #: Action types it answers (the game refuses them when the expansion is not in play).
    actions: ClassVar[tuple[type[Action], ...]] = ()
    #: Phases it opens; :meth:`decline` and :meth:`hint` answer in them.
    phases: ClassVar[tuple[Phase, ...]] = ()
    #: True when :meth:`on_merge` does nothing unless one of the two features holds a figure:
    #: the board then skips it for the many merges of features nobody stands on.
    merges_with_figures_only: ClassVar[bool] = False

    def __new__(cls, game: Game | None = None) -> Expansion:
        # ``cls.__new__(cls)`` makes one without running __init__ (:meth:`fork`), compiled
        # (setup.py) too, where the class's own allocation would run it.
        return super().__new__(cls)

    def __init__(self, game: Game) -> None:
        self.game = game

    def fork(self, game: Game) -> Expansion:
        """A copy of this state for ``game``, a fork of its game: lists, dicts and sets are
        copied one level down (override when the state is deeper)."""
        cls = type(self)
        new = cls.__new__(cls)  # no __init__
        state = state_of(self)
        for name, value in state.items():
            if isinstance(value, _NESTED):
                state[name] = _copy_nested(value)
        state["game"] = game
        set_state(new, state)
        return new

    # -- setup ------------------------------------------------------------------------------

    def arrange_stack(self, stack: list[str]) -> list[str]:
        """The stack (top last; the last item is the start tile) before the first draw."""
        return stack

    # -- placement --------------------------------------------------------------------------

    def placement_refusal(
        self, kind: TileKind, rotation: int, pos: Pos
    ) -> IllegalActionError | None:
        """Why a tile that fits its neighbours still may not go there, or None."""
        return None

    def restricts(self, kind: TileKind) -> bool:
        """Whether :meth:`placement_refusal` may refuse some fitting placement of ``kind``;
        the game lists the other kinds' placements from the board alone (fast)."""
        return True

    def placement_squares(self, kind: TileKind) -> Collection[Pos] | None:
        """The only squares where :meth:`placement_refusal` may let ``kind`` go (the river's
        open end), so that the game asks it about no other; None: no such limit."""
        return None

    def held_tiles(self) -> dict[str, int]:
        """Tiles it keeps off the stack that may still be placed (the abbeys), by kind name."""
        return {}

    def fills_square(self, pos: Pos, key: str) -> bool:
        """Whether one of its :meth:`held_tiles` may still go on the empty square ``pos``
        whose neighbours read ``key``, whatever its edges (an abbey into a hole)."""
        return False

    # -- figures ----------------------------------------------------------------------------

    def figure_options(self, figure: str, pos: Pos) -> list[PlaceFigure]:
        """Where ``figure`` (one of :attr:`special_figures`) may go on the tile just placed at
        ``pos``."""
        return []

    def may_stand(self, figure: str, ftype: str) -> bool | None:
        """Whether ``figure`` may stand on an empty feature of type ``ftype`` (asked once per
        pair and game); None: not one of mine."""
        return None

    def place_figure(self, action: PlaceFigure) -> bool:
        """Place one of :attr:`special_figures` (a barn); True if done."""
        return False

    def figure_refusal(self, figure: str, ftype: str) -> str | None:
        """Why ``figure`` may not stand on a ``ftype``, in words, if it is one of mine."""
        return None

    def figure_weight(self, figure: Figure, root: int) -> int | None:
        """A weight that depends on the feature (the mayor: its pennants); None: not mine."""
        return None

    def figure_scored(self, figure: Figure, root: int) -> bool:
        """The feature under ``figure`` was scored; True if the expansion takes the figure
        (it does not go back to the supply yet)."""
        return False

    def pieces(self, player: int) -> dict[str, int]:
        """Pieces ``player`` holds beside the figure supply (shown in the players' strip)."""
        return {}

    # -- its own actions and phases ---------------------------------------------------------

    def legal(self, action_type: type[Action]) -> list[Action]:
        """The legal actions of ``action_type`` (one of :attr:`actions`) now."""
        return []

    def play(self, action: Action) -> None:
        """Check and apply one of its actions (raise an ``IllegalActionError`` to refuse)."""

    def decline(self) -> None:
        """``Pass`` (or the deciding seat leaving) in one of its phases."""

    def hint(self) -> str:
        """What to do in one of its phases, in words."""
        return ""

    # -- the turn ---------------------------------------------------------------------------

    def on_merge(self, kept: int, absorbed: int) -> None:
        """Two features become one (before their data is combined)."""

    def after_scoring(self) -> None:
        """The features the turn completed were scored."""

    def pending_decision(self) -> bool:
        """Before the turn ends: ask someone something (set the phase and actor); True if so."""
        return False

    def extra_tile(self) -> bool:
        """At the end of a turn: True if the same player places another tile now."""
        return False

    def bonus_reason(self) -> str | None:
        """Why the tile in play is a second tile this expansion gave (its word), else None."""
        return None

    def feature_value(self, root: int, complete: bool, value: int) -> int:
        """The points feature ``root`` is worth, given the game's ``value`` for it."""
        return value

    def first_kinds(self) -> tuple[str, ...]:
        """Its tile kinds placed before all others, in the order they come into play (the
        river: spring, river tiles, lake), so that lists of tiles show them first."""
        return ()

    def feature_marks(self, root: int) -> tuple[str, ...]:
        """What on feature ``root`` changes its value, named for its score event (an inn)."""
        return ()

    def farmer_bonus(self, player: int, fields: list[int]) -> int:
        """Points per city added for ``player``, who scores a city through their farmers in
        the fields ``fields`` (the pig: 1 if one of them holds their pig)."""
        return 0

    # -- the end ----------------------------------------------------------------------------

    def before_end(self) -> bool:
        """The last tile is placed: ask someone something first; True if so."""
        return False

    def final_scoring(self) -> None:
        """End-of-game scoring of its own things (after the game's)."""

    def snapshot(self) -> dict[str, Any]:
        """Its state, for replay checks and tests."""
        return {}
