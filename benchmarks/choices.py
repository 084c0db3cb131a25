"""How crowded the figure step is: numbered places per picture and overlapping badges.

Run: ``python -m benchmarks.choices [--decisions N] [--seed S]``. For every game family and
expansion, random games are played with the engine; at each tile decision a random legal
placement (a tile, or the abbey) is tried as the bot's placement step would try it, and after
each tile placed the figure step of the tile already down (``first`` None) too. Each step is
built by the turn view (:func:`bot.turn_view.step_screen`) and every page of it is drawn by the
renderer as the bot sends it (:func:`renderer.steps.step_picture`, with the see-through figures
and numbers the bot asks for), collecting the boxes of the numbered badges as drawn. Only
steps offering at least one figure count as decisions; ``N`` of them per family (default 100).

Prints per family: decisions seen, pictures drawn, the most numbered places on one picture, the
most figure buttons under one picture, the pictures numbering more than
:data:`bot.turn_view.PAGE_PLACES`, the steps with a second page, the pairs of overlapping badges,
the smallest badge drawn (pixels, full size), and seconds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.turn_view import PAGE_PLACES, StepScreen, step_screen, turn_screen
from engine import Game, Phase, PlaceAbbey, PlaceTile, Setup
from engine.cli import random_action
from renderer.board import Measures, overlaps
from renderer.options import RenderOptions
from renderer.steps import step_picture

#: Every family and expansion: name, setup fields, players.
FAMILIES: list[tuple[str, dict[str, Any], int]] = [
    ("Carcassonne", {}, 3),
    ("Abbey & Mayor", {"expansions": ("abbey_mayor",)}, 4),
    ("Inns & Cathedrals", {"expansions": ("inns_cathedrals",)}, 3),
    ("Traders & Builders", {"expansions": ("traders_builders",)}, 3),
    ("The River", {"expansions": ("river",)}, 2),
    (
        "Big Box (all four)",
        {"expansions": ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")},
        4,
    ),
    ("Hunters & Gatherers", {"game": "hunters"}, 3),
    ("The Castle", {"game": "castle"}, 2),
]


@dataclass
class Survey:
    """What the pictures of one family's figure steps showed."""

    decisions: int = 0
    pictures: int = 0
    most_places: int = 0
    most_buttons: int = 0
    crowded: int = 0
    paged: int = 0
    overlaps: int = 0
    smallest_badge: int = 0
    #: (seed, turn, what was tried) of each picture with overlapping badges.
    overlapping: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, other: Survey) -> None:
        self.decisions += other.decisions
        self.pictures += other.pictures
        self.most_places = max(self.most_places, other.most_places)
        self.most_buttons = max(self.most_buttons, other.most_buttons)
        self.crowded += other.crowded
        self.paged += other.paged
        self.overlaps += other.overlaps
        sizes = [s for s in (self.smallest_badge, other.smallest_badge) if s]
        self.smallest_badge = min(sizes, default=0)
        self.overlapping += other.overlapping


def steps(setup: Setup, rng: random.Random) -> Iterator[tuple[Game, StepScreen]]:
    """The figure steps of one random game: a random placement tried at every tile decision,
    and the step of the tile just placed."""
    game = Game(setup)
    while not game.finished:
        if game.phase is Phase.TILE:
            screen = turn_screen(game)
            tries: list[PlaceTile | PlaceAbbey] = [*game.legal_placements()]
            tries += [a for a in game.legal(PlaceAbbey) if isinstance(a, PlaceAbbey)]
            if tries:
                yield game, step_screen(game, screen, rng.choice(tries))
        elif game.phase is Phase.FIGURE and game.last_pos is not None:
            yield game, step_screen(game, turn_screen(game), None)
        game.play(random_action(game, rng))


def draw_page(game: Game, step: StepScreen, page: int, options: RenderOptions) -> Measures:
    """Draw one page of a step as the bot sends it; the measures of what was drawn."""
    places = step.pages[page]
    first = step.first
    placement: PlaceTile | None = first if isinstance(first, PlaceTile) else None
    if isinstance(first, PlaceAbbey):  # drawn as placed, on a copy (as renderer.jobs does)
        game = game.fork()
        game.play(first)
    measures = Measures([], [], [])
    rotations = {r: f"{r}°" for r in step.rotations}
    step_picture(
        game,
        placement,
        {p.at: p.number for p in places},
        rotations,
        options,
        step.ghosts(places) if step.oriented is not None else (),
        0,
        measures=measures,
    )
    return measures


def survey(family: dict[str, Any], players: int, decisions: int, seed: int) -> Survey:
    """Play random games from ``seed`` on until ``decisions`` figure steps were drawn."""
    found = Survey()
    options = RenderOptions()
    names = tuple(f"P{i + 1}" for i in range(players))
    for game_seed in range(seed, seed + 1000):
        rng = random.Random(game_seed)
        setup = Setup(players=names, seed=game_seed, **family)
        for game, step in steps(setup, rng):
            if not step.figures:
                continue
            found.decisions += 1
            pages = step.pages
            found.paged += len(pages) > 1
            for page, places in enumerate(pages):
                measures = draw_page(game, step, page, options)
                found.pictures += 1
                found.most_places = max(found.most_places, len(places))
                found.most_buttons = max(found.most_buttons, sum(len(p.choices) for p in places))
                found.crowded += len(places) > PAGE_PLACES
                pairs = overlaps(measures.badges)
                if pairs:
                    found.overlaps += len(pairs)
                    found.overlapping.append((game_seed, game.turn, repr(step.first)))
                heights = [b[3] - b[1] for b in measures.badges]
                if heights:
                    low = min(heights)
                    found.smallest_badge = min(found.smallest_badge or low, low)
            if found.decisions >= decisions:
                return found
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=100, help="figure steps per family")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'family':22} {'decisions':>9} {'pictures':>8} {'max':>4} {'buttons':>7} "
        f"{f'>{PAGE_PLACES}':>4} {'2 pages':>7} {'overlaps':>8} {'badge px':>8}  seconds"
    )
    for name, family, players in FAMILIES:
        started = time.perf_counter()
        found = survey(family, players, args.decisions, args.seed)
        print(
            f"{name:22} {found.decisions:>9} {found.pictures:>8} {found.most_places:>4} "
            f"{found.most_buttons:>7} {found.crowded:>4} {found.paged:>7} {found.overlaps:>8} "
            f"{found.smallest_badge:>8}  {time.perf_counter() - started:.0f}"
        )
        for where in found.overlapping[:5]:
            print(f"  overlapping badges: seed {where[0]}, turn {where[1]}, {where[2]}")


if __name__ == "__main__":
    main()
