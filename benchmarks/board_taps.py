"""How many taps a turn takes on the live board (the Discord Activity's page).

Run: ``python -m benchmarks.board_taps [--games N] [--seed S]``. The sibling of
``benchmarks.turn_ux`` (which counts the buttons and menus in Discord): each game is played by
the engine alone from the first tile to the end, and at every decision the player in turn picks
uniformly at random among the complete moves the turn view offers (``bot.turn_view``: a square
and rotation, each look once, or an abbey's hole, then a figure at one of the step's places or
No figure; a wagon target or taking it back; an end-game abbey or No abbey; in The Castle, every
other time one is offered, a wall tile, and End my turn when the turn stays open). Each move is
counted as ``bot/activity/static/activity.js`` enters it:

- a tile of the tactical hand, when the hand holds several kinds: 1 (the page lights no square
  before one is picked; the abbey's holes are lit without);
- the square (or the hole): 1; it shows the tile in its first legal rotation;
- another rotation: 1, a tap on its button under the tile (the row of the square's looks, the
  abbey last where the square is also a hole); turning the tile by tapping it again instead
  costs a tap per quarter turn (the "turning" column: the worst a player who only taps the tile
  meets);
- the figure: 1 on a place offering one figure (its silhouette), 2 on a place offering several
  (the silhouette lists them, then the role's button); No figure: 1, also when the step offers
  no place (the page never plays without a last tap);
- a wagon target, a wall tile, taking the wagon back, No abbey, End my turn: 1 (their buttons).

Prints, per game family, the decisions counted, the typical (median) and mean taps, the worst,
the share of decisions within 3 taps, and the worst by turning alone. The target: a typical turn
in 3 taps or fewer (the square included), none over 4.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bot.turn_view import FigureChoice, figure_choices, spot_places, turn_screen
from engine import Game, MoveWagon, Pass, Phase, PlaceAbbey, PlaceTile, Setup, UseWallTile

EXPANSIONS = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
FAMILIES: list[tuple[str, dict[str, Any], int]] = [
    ("Carcassonne", {}, 2),
    ("Carcassonne, tactical hand", {"options": {"hand": True}}, 3),
    ("Abbey & Mayor", {"expansions": ("abbey_mayor",)}, 4),
    ("Inns & Cathedrals", {"expansions": ("inns_cathedrals",)}, 3),
    ("Traders & Builders", {"expansions": ("traders_builders",)}, 3),
    ("The River", {"expansions": ("river",)}, 2),
    ("Big Box, The River, Abbey & Mayor", {"expansions": EXPANSIONS}, 3),
    ("Hunters & Gatherers", {"game": "hunters"}, 3),
    ("The Castle", {"game": "castle"}, 2),
]
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


@dataclass
class Counts:
    """Taps per decision, and what the worst one was."""

    taps: list[int] = field(default_factory=list)
    turning: list[int] = field(default_factory=list)
    worst: str = ""

    def add(self, taps: int, turning: int, what: str) -> None:
        if not self.taps or taps > max(self.taps):
            self.worst = what
        self.taps.append(taps)
        self.turning.append(turning)


def figure_taps(game: Game, choice: FigureChoice | None) -> int:
    """The taps of the figure step: the silhouette (and the role where a place offers several),
    or No figure."""
    if choice is None:
        return 1
    place = next(p for p in spot_places(figure_choices(game)) if p.number == choice.number)
    return 1 if len(place.choices) == 1 else 2


def figure_step(game: Game, rng: random.Random) -> tuple[int, str]:
    """Play the figure step of the tile or abbey just placed at random (a figure or none, as
    the step offers); its taps and what was chosen."""
    choices = list(figure_choices(game)) if game.phase is Phase.FIGURE else []
    choice = rng.choice([*choices, None]) if choices else None
    taps = figure_taps(game, choice)
    if choice is not None:
        game.play(choice.action)
        return taps, f"{choice.role} ({taps})"
    if game.phase is Phase.FIGURE:
        end = closing_of(game)
        if end is not None:
            game.play(end)
    return taps, "no figure"


def closing_of(game: Game) -> Pass | None:
    """What No figure plays: a pass, or nothing where the turn stays open (a wall tile may
    follow)."""
    return None if game.legal(UseWallTile) else Pass()


def tile_decision(game: Game, rng: random.Random) -> tuple[int, int, str]:
    """A tile phase: a wall tile now and then (The Castle), else a placement or an abbey."""
    screen = turn_screen(game)
    walls = list(screen.walls)
    if walls and rng.random() < 0.5:
        game.play(rng.choice(walls).action)
        return 1, 1, "wall tile"
    kinds = list(dict.fromkeys(screen.hand)) if screen.hand_mode else [screen.tile]
    moves: list[tuple[str | None, tuple[int, int], int | None]] = []
    for kind in kinds:
        for placement in screen.placements(kind if screen.hand_mode else None):
            moves.append((kind, placement.pos, placement.rotation))
    moves += [(None, hole, None) for hole in screen.holes]
    kind, pos, rotation = rng.choice(moves)
    pick = 1 if screen.hand_mode and len(kinds) > 1 and rotation is not None else 0
    # The looks a tap on the square cycles through (the chosen tile's rotations, then the abbey).
    chosen = kind if rotation is not None else (kinds[0] if not screen.hand_mode else None)
    rotations = list(screen.cells(chosen).get(pos, ())) if chosen is not None else []
    looks: list[int | None] = [*rotations, *([None] if pos in screen.holes else [])]
    index = looks.index(rotation)
    if rotation is None:
        game.play(PlaceAbbey(*pos))
        what = "abbey"
    else:
        game.play(PlaceTile(pos[0], pos[1], rotation, kind if screen.hand_mode else None))
        what = f"tile, rotation {index + 1} of {len(rotations)}"
    step, chose = figure_step(game, rng)
    direct = pick + 1 + (1 if index else 0) + step
    turning = pick + 1 + index + step
    hand = ", from the hand" if pick else ""
    return direct, turning, f"{what}{hand}, {chose}"


def other_decision(game: Game, rng: random.Random) -> tuple[int, str]:
    """A figure, wagon, end-game abbey or open-turn decision: one tap on its mark or button,
    an end-game abbey its hole and then its step."""
    options: list[Any] = []
    if game.phase is Phase.FIGURE:
        options += list(figure_choices(game))
    options += game.legal(MoveWagon) + game.legal(UseWallTile) + game.legal(PlaceAbbey)
    if game.can_pass:
        options.append(Pass())
    chosen = rng.choice(options)
    if isinstance(chosen, FigureChoice):
        taps = figure_taps(game, chosen)
        game.play(chosen.action)
        return taps, f"{chosen.role} ({taps})"
    game.play(chosen)
    if isinstance(chosen, PlaceAbbey):
        step, chose = figure_step(game, rng)
        return 1 + step, f"end-game abbey, {chose}"
    return 1, type(chosen).__name__


def play(setup: dict[str, Any], players: int, seed: int, counts: Counts) -> None:
    game = Game(Setup(players=NAMES[:players], seed=seed, **setup))
    rng = random.Random(seed)
    for _ in range(5000):
        if game.finished:
            return
        if game.phase is Phase.TILE:
            taps, turning, what = tile_decision(game, rng)
        else:
            taps, what = other_decision(game, rng)
            turning = taps
        counts.add(taps, turning, what)
    raise RuntimeError("the game did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per family")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'family':34} {'decisions':>9} {'median':>6} {'mean':>5} {'max':>4} {'<=3':>6} "
        f"{'turning':>7}  seconds  worst"
    )
    for family, setup, players in FAMILIES:
        started = time.perf_counter()
        counts = Counts()
        for game in range(args.games):
            play(setup, players, args.seed + game, counts)
        within = sum(t <= 3 for t in counts.taps) / len(counts.taps)
        print(
            f"{family:34} {len(counts.taps):>9} {statistics.median(counts.taps):>6.0f} "
            f"{statistics.fmean(counts.taps):>5.2f} {max(counts.taps):>4} {within:>6.1%} "
            f"{max(counts.turning):>7}  {time.perf_counter() - started:>7.0f}  {counts.worst}"
        )


if __name__ == "__main__":
    main()
