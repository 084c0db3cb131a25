"""What the player in turn sees and may choose, as plain data: the turn view.

Built once from the engine state by code that knows nothing of Discord, so the turn message,
``/carcassonne place``, the placement step, the pictures and a future web board all read the
same answer to "what can this player do now, and what does it look like":

- :class:`TurnScreen`: the decision at hand with every choice lettered as players see it (the
  squares where the tile fits and the abbey's holes, lettered together in reading order, with
  their rotations; the drawn tile's card; the hand; wagon targets; end-game abbey holes; wall
  tiles with their targets; figure spots on the tile just placed; why a tile is a bonus tile);
- :class:`StepScreen`: a placement tried on a copy (the figure spots it would offer, each
  place on the tile numbered once whatever figures may go there, each figure with its role and
  feature as the engine names them, the pages of places a phone's picture shows, and whether
  the turn would stay open for a wall tile).

Labels come from the state alone (reading order), so a prompt drawn before a restart and its
drawing after agree. Roles, features and bonus reasons are the engine's (:meth:`Game.figure_role`,
:meth:`Game.figure_feature`, :meth:`Game.bonus_reason`, :meth:`Game.action_target`); nothing here
re-derives a rule.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine import Game, MoveWagon, Pass, PlaceAbbey, PlaceFigure, PlaceTile, Setup, UseWallTile
from engine.cli import random_action
from engine.core.tiles import Oriented
from engine.core.turn import distinct_orientations
from renderer.board import GhostSpot

Pos = tuple[int, int]
#: A spot on the board: square and ``at`` value.
Spot = tuple[int, int, int | str]


def label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: short labels players read on the board and in menus."""
    letters = string.ascii_uppercase
    if index < 26:
        return letters[index]
    return letters[index // 26 - 1] + letters[index % 26]


def reading_order(cells: Iterable[Pos]) -> list[Pos]:
    """Squares top row first, left to right (the order of their letters)."""
    return sorted(set(cells), key=lambda p: (p[1], p[0]))


def cell_labels(cells: Iterable[Pos]) -> dict[Pos, str]:
    return {pos: label(i) for i, pos in enumerate(reading_order(cells))}


def candidate_cells(game: Game, tile: str | None = None) -> dict[Pos, tuple[int, ...]]:
    """Legal squares (in reading order) -> their legal rotations, for ``tile`` from a hand."""
    found: dict[Pos, list[int]] = {}
    for placement in game.legal_placements():
        if tile is None or placement.tile in (None, tile):
            found.setdefault((placement.x, placement.y), []).append(placement.rotation)
    return {pos: tuple(sorted(found[pos])) for pos in reading_order(found)}


def holes(game: Game) -> list[Pos]:
    """The holes where an abbey may go now, in reading order."""
    return reading_order((a.x, a.y) for a in game.legal(PlaceAbbey))


def wagon_labels(moves: Sequence[MoveWagon]) -> dict[Spot, str]:
    """A letter per place a freed wagon may go, in reading order (several may share a square)."""
    ordered = sorted(moves, key=lambda m: (m.y, m.x, str(m.at)))
    return {(m.x, m.y, m.at): label(i) for i, m in enumerate(ordered)}


#: The most places one step picture numbers: a phone's picture of a 200 px tile stays
#: readable, and no two numbers overlap. A tile offering more shows them on two pages.
PAGE_PLACES = 8
#: Open land: with more places than a page holds, these (and the barns' corners) go to the
#: step's second page.
OPEN_LAND = frozenset({"field", "meadow"})


def is_open_land(feature: str | None) -> bool:
    """A field, a meadow, or a spot that is no feature (a barn's corner)."""
    return feature is None or feature in OPEN_LAND


def place_numbers(game: Game, figures: Sequence[PlaceFigure]) -> dict[int | str, str]:
    """Spot (``at``) -> "1", "2", ...: one number per place on the tile, whatever figures may
    go there; in the order the engine lists them, open land (fields, barns' corners) last."""
    features: dict[int | str, str | None] = {}
    for figure in figures:
        if figure.at not in features:
            features[figure.at] = game.figure_feature(figure)
    ordered = sorted(features, key=lambda at: is_open_land(features[at]))
    return {at: str(i + 1) for i, at in enumerate(ordered)}


def tried(game: Game, first: PlaceTile | PlaceAbbey) -> Game:
    """A copy of ``game`` with ``first`` played (to list the figure spots it would offer)."""
    copy = game.fork()
    copy.play(first)
    return copy


@dataclass(frozen=True, slots=True)
class FigureChoice:
    """One figure the player may place, with the number of its place as the step shows it (a
    follower and a large follower on one road, a fisher and a hut on one river: two choices,
    one number)."""

    #: The number of the place (see :func:`place_numbers`), shared by the figures that may go
    #: there.
    number: str
    action: PlaceFigure
    #: What the engine calls it there: knight, thief, monk, farmer, messenger, hunter; a figure
    #: that takes no role keeps its own name (mayor, wagon, barn, large_follower's role too).
    role: str
    #: The feature type under it ("city", "road", ...), None on a spot that is no feature.
    feature: str | None

    @property
    def figure(self) -> str:
        return self.action.figure

    @property
    def value(self) -> str:
        """How a component or a typed option names it: ``figure.at``."""
        return f"{self.action.figure}.{self.action.at}"


def figure_choices(game: Game) -> tuple[FigureChoice, ...]:
    """The figures ``game`` lets its player place now, each with its place's number, by place
    (then in the engine's order)."""
    legal = game.legal_figures()
    numbers = place_numbers(game, legal)
    choices = [
        FigureChoice(numbers[f.at], f, game.figure_role(f), game.figure_feature(f)) for f in legal
    ]
    return tuple(sorted(choices, key=lambda c: int(c.number)))


@dataclass(frozen=True, slots=True)
class SpotPlace:
    """One numbered place on the tile (a feature, or a barn's corner) and the figures that may
    go there."""

    number: str
    at: int | str
    #: The feature type there (None: a barn's corner).
    feature: str | None
    choices: tuple[FigureChoice, ...]


def spot_places(figures: Sequence[FigureChoice]) -> tuple[SpotPlace, ...]:
    """The figure choices grouped by place, by number."""
    grouped: dict[str, list[FigureChoice]] = {}
    for choice in figures:
        grouped.setdefault(choice.number, []).append(choice)
    return tuple(
        SpotPlace(n, group[0].action.at, group[0].feature, tuple(group))
        for n, group in sorted(grouped.items(), key=lambda item: int(item[0]))
    )


def spot_pages(places: Sequence[SpotPlace]) -> tuple[tuple[SpotPlace, ...], ...]:
    """The places as the step shows them: one page, or, past :data:`PAGE_PLACES`, the places
    on open land (fields, meadows, barns' corners) on a page of their own (each page at most
    :data:`PAGE_PLACES`)."""
    if len(places) <= PAGE_PLACES:
        return (tuple(places),)
    groups = [
        [p for p in places if not is_open_land(p.feature)],
        [p for p in places if is_open_land(p.feature)],
    ]
    return tuple(
        tuple(group[i : i + PAGE_PLACES])
        for group in groups
        for i in range(0, len(group), PAGE_PLACES)
    )


@dataclass(frozen=True, slots=True)
class WagonTarget:
    """A place a freed wagon may move to, lettered on its spot."""

    label: str
    action: MoveWagon
    feature: str

    @property
    def spot(self) -> Spot:
        return (self.action.x, self.action.y, self.action.at)


@dataclass(frozen=True, slots=True)
class WallChoice:
    """A wall tile playable now (The Castle), with the letter of the tower or house it names
    (lettered on the turn picture after the squares, so no letter means two things) and how
    many tiles that feature has (0 for tile 1, which names none)."""

    value: str
    action: UseWallTile
    target: str
    tiles: int = 0


@dataclass(frozen=True, slots=True)
class Placement:
    """One entry of the placement menus: a square and a rotation (each look of the tile once),
    for ``tile`` when choosing from a hand."""

    label: str
    pos: Pos
    rotation: int
    tile: str | None


@dataclass(frozen=True)
class TurnScreen:
    """The decision the game waits for, with every choice as players see it."""

    game_id: int
    turn: int
    #: 'tile', 'figure', 'wagon', 'abbey_end', ... or 'over'.
    phase: str
    seat: int | None
    finished: bool
    #: The tile to place (None with a tactical hand: the player picks from ``hand``).
    tile: str | None
    hand: tuple[str, ...]
    hand_mode: bool
    #: Why the tile in play is a second tile of the turn ("builder", "gold"), else None.
    bonus: str | None
    #: Every square lettered this turn: where the tile fits and, in a tile phase, the holes
    #: where the abbey may go instead, lettered together in reading order. In the end-game
    #: abbey phase, the holes.
    labels: Mapping[Pos, str]
    #: Square -> legal rotations of the drawn tile (or of ``tile`` in :meth:`cells`).
    squares: Mapping[Pos, tuple[int, ...]]
    #: The holes where the abbey may go now.
    holes: tuple[Pos, ...]
    #: The drawn tile shown on its card (a tile phase, a known tile), and its rotations that
    #: fit somewhere, each look once (the card's captions).
    card_tile: str | None
    card: tuple[int, ...]
    figures: tuple[FigureChoice, ...]
    wagons: tuple[WagonTarget, ...]
    walls: tuple[WallChoice, ...]
    #: Wall tiles' targets to letter on the castle: spot -> letter.
    wall_marks: Mapping[Spot, str]
    #: Legal rotations per hand tile and square (tactical hand), and each tile's looks.
    _hand_cells: Mapping[str, Mapping[Pos, tuple[int, ...]]] = field(default_factory=dict)
    _looks: Mapping[str, frozenset[int]] = field(default_factory=dict)

    def cells(self, tile: str | None = None) -> Mapping[Pos, tuple[int, ...]]:
        """Legal squares (reading order) -> legal rotations, of ``tile`` from a hand."""
        if tile is None or not self.hand_mode:
            return self.squares
        return self._hand_cells.get(tile, {})

    def offered(
        self, pos: Pos, tile: str | None = None, keep: int | None = None
    ) -> tuple[int, ...]:
        """The rotations offered at ``pos``: legal ones, each look once (plus ``keep`` if
        legal)."""
        legal = self.cells(tile).get(pos, ())
        looks = self._looks.get(tile or self.tile or "")
        if looks is None:
            return legal
        return tuple(r for r in legal if r in looks or r == keep)

    def placements(self, tile: str | None = None) -> list[Placement]:
        """The menus' entries: each square and each rotation offered there."""
        out: list[Placement] = []
        for pos, rotations in self.cells(tile).items():
            for rotation in self.offered(pos, tile) or rotations:
                out.append(Placement(self.labels[pos], pos, rotation, tile))
        return out

    def hole_labels(self) -> dict[Pos, str]:
        """The holes lettered on their own (the end-game abbey, the **Play my abbey** menu)."""
        return cell_labels(self.holes)

    @property
    def wagon_marks(self) -> dict[Spot, str]:
        return {w.spot: w.label for w in self.wagons}


def turn_screen(game: Game, game_id: int = 0) -> TurnScreen:
    """The turn view of ``game`` as it stands (a private copy: nothing is played on it)."""
    decision = game.decision
    phase = "over" if game.finished else decision.phase.value
    tile_phase = phase == "tile"
    squares = candidate_cells(game) if tile_phase else {}
    hollow = tuple(holes(game)) if phase in ("tile", "abbey_end") else ()
    labels = cell_labels([*squares, *hollow]) if tile_phase else cell_labels(hollow)
    looks: dict[str, frozenset[int]] = {}
    hand_cells: dict[str, dict[Pos, tuple[int, ...]]] = {}
    names = set(decision.hand) | ({decision.tile} if decision.tile else set())
    for name in names:
        if name in game.kinds:
            looks[name] = frozenset(distinct_orientations(game.kinds[name]))
    if game.hand_mode and tile_phase:
        for name in dict.fromkeys(decision.hand):
            hand_cells[name] = candidate_cells(game, name)
    card: tuple[int, ...] = ()
    tile = decision.tile
    card_tile = tile if tile_phase and tile is not None and tile in game.kinds else None
    if card_tile is not None:
        shown = looks[card_tile]
        card = tuple(sorted({r for rs in squares.values() for r in rs if r in shown}))
    wagons: tuple[WagonTarget, ...] = ()
    if phase == "wagon":
        lettered = wagon_labels(game.legal(MoveWagon))
        wagons = tuple(
            WagonTarget(lettered[(m.x, m.y, m.at)], m, _feature(game, m.x, m.y, m.at))
            for m in sorted(game.legal(MoveWagon), key=lambda m: (m.y, m.x, str(m.at)))
        )
    walls, marks = _walls(game, len(labels)) if not game.finished else ((), {})
    return TurnScreen(
        game_id=game_id,
        turn=decision.turn,
        phase=phase,
        seat=None if game.finished else decision.player,
        finished=game.finished,
        tile=tile,
        hand=tuple(decision.hand),
        hand_mode=game.hand_mode,
        bonus=None if game.finished else game.bonus_reason(),
        labels=labels,
        squares=squares,
        holes=hollow,
        card_tile=card_tile,
        card=card,
        figures=figure_choices(game) if phase == "figure" else (),
        wagons=wagons,
        walls=walls,
        wall_marks=marks,
        _hand_cells=hand_cells,
        _looks=looks,
    )


def _feature(game: Game, x: int, y: int, at: int | str) -> str:
    """The feature type at spot ``at`` of square (x, y) ("road" if none)."""
    oriented = game.board.tiles[(x, y)].oriented
    local = oriented.feature_at(at)
    return oriented.features[local].type if local >= 0 else "road"


def wall_value(action: UseWallTile) -> str:
    """How a menu names a wall-tile choice: ``1`` or ``2,x,y,at``."""
    if action.target is None:
        return str(action.wall)
    return ",".join(str(v) for v in (action.wall, *action.target))


def _walls(game: Game, first: int = 0) -> tuple[tuple[WallChoice, ...], dict[Spot, str]]:
    """The wall tiles playable now, their targets lettered (a letter per feature), from the
    ``first`` letter on (the squares lettered in the same picture come before)."""
    options = [a for a in game.legal(UseWallTile) if isinstance(a, UseWallTile)]
    letters: dict[int, str] = {}
    marks: dict[Spot, str] = {}
    for action in options:
        found = game.action_target(action)
        if found is not None and found[0] not in letters:
            letters[found[0]] = label(first + len(letters))
            marks[found[1]] = letters[found[0]]
    choices: dict[str, WallChoice] = {}
    for action in options:
        found = game.action_target(action)
        target = "" if found is None else letters[found[0]]
        size = 0 if found is None else len(game.board.ftiles[found[0]] or ())
        value = wall_value(action)
        choices.setdefault(value, WallChoice(value, action, target, size))
    return tuple(choices.values()), marks


@dataclass(frozen=True)
class StepScreen:
    """A placement tried on a copy: what its figure step would offer."""

    #: The tile or abbey tried (None: the figure step of the tile already placed).
    first: PlaceTile | PlaceAbbey | None
    #: The square's letter as the turn message shows it.
    label: str
    pos: Pos
    #: The other rotations that fit the square (each look once), the tried one included.
    rotations: tuple[int, ...]
    figures: tuple[FigureChoice, ...]
    #: The placed tile as it lies (None if the square holds no tile yet).
    oriented: Oriented | None
    #: Whether the tile, placed with no figure, leaves the turn open: the player could still
    #: play a wall tile (The Castle).
    stays_open: bool
    #: The copy with ``first`` played (for pictures and a family's notes).
    after: Game

    @property
    def spots(self) -> dict[int | str, str]:
        """Spot (``at``) -> its place's number."""
        return {f.action.at: f.number for f in self.figures}

    @property
    def places(self) -> tuple[SpotPlace, ...]:
        return spot_places(self.figures)

    @property
    def pages(self) -> tuple[tuple[SpotPlace, ...], ...]:
        """The places each page of the step numbers (one page on nearly every tile)."""
        return spot_pages(self.places)

    def ghosts(self, page: Sequence[SpotPlace]) -> list[GhostSpot]:
        """What the picture of ``page`` draws: at each place its number and the first figure
        it offers, see-through (a barn on a barn's corner, a follower where one may go)."""
        return [GhostSpot(p.at, p.choices[0].figure, p.number) for p in page]


def step_screen(game: Game, screen: TurnScreen, first: PlaceTile | PlaceAbbey | None) -> StepScreen:
    """The figure step ``first`` would open (``first`` legal: the caller checked it)."""
    after = game if first is None else tried(game, first)
    rotations: tuple[int, ...] = ()
    if isinstance(first, PlaceTile):
        rotations = screen.offered((first.x, first.y), first.tile, keep=first.rotation)
    if first is None:
        pos = game.last_pos or (0, 0)
        text = ""
    else:
        pos = (first.x, first.y)
        text = screen.labels.get(pos, "?")
        if isinstance(first, PlaceAbbey) and screen.phase != "tile":
            text = screen.hole_labels().get(pos, "?")
    oriented = after.board.tiles[pos].oriented if pos in after.board.tiles else None
    return StepScreen(
        first=first,
        label=text,
        pos=pos,
        rotations=rotations,
        figures=figure_choices(after),
        oriented=oriented,
        stays_open=isinstance(first, PlaceTile) and bool(after.legal(UseWallTile)),
        after=after,
    )


def example_turn(
    names: tuple[str, str],
    seed: int = 11,
    turn: int = 6,
    *,
    game: str = "carcassonne",
    expansions: tuple[str, ...] = (),
) -> tuple[Game, TurnScreen]:
    """A small example game of ``game`` (with ``expansions``; the help's), played at random to
    ``turn``, and its turn view."""
    example = Game(Setup(players=names, seed=seed, game=game, expansions=expansions))
    rng = random.Random(seed)
    while example.turn < turn and not example.finished:
        example.play(random_action(example, rng))
    return example, turn_screen(example)


def closing(step: StepScreen) -> Pass | None:
    """What ends a turn placed with no figure: a pass, or None where the turn stays open (The
    Castle: a wall tile could still be played)."""
    return None if step.stays_open else Pass()
