"""Whether every lettered square is in the turn picture, one letter per square, wagon targets apart.

Run: ``python -m benchmarks.squares [--decisions N] [--seed S]``. For every family and expansion,
random games are played with the engine (actions at random, games to their end, so late turns
with large boards come in) and about one tile decision in four is drawn as the bot sends it: the
turn view letters the squares (:func:`bot.turn_view.turn_screen`), the phone turn picture draws
them (:func:`renderer.phone.turn_picture`, The Castle's own), and every wagon decision is drawn
as the wagon's picture (:func:`renderer.steps.wagon_phone`). Until ``N`` tile decisions per
family. Prints per family:

- decisions, and the legal squares over them (where the tile fits, in any rotation, and the
  abbey's holes);
- legal squares with no letter in the turn view (``unlettered``);
- lettered squares drawn nowhere in the picture, or drawn outside it (``outside``);
- squares with two letters, or two letters' badges overlapping (``stacked``);
- wagon targets, and those drawn over another one or not drawn at all (``wagon bad``);
- the smallest square letter (capital height) at 400 px wide, in pixels (``letter@400``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.turn_view import turn_screen
from bot.ui.turn.post import tile_card
from engine import Game, MoveWagon, PlaceAbbey, Setup
from engine.cli import random_action
from renderer.board import Box, Pos
from renderer.options import RenderOptions
from renderer.phone import PhonePicture, turn_picture
from renderer.steps import wagon_phone

EVERY = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
#: (name, game, expansions, players, options).
FAMILIES: list[tuple[str, str, tuple[str, ...], int, dict[str, Any]]] = [
    ("Carcassonne 2p", "carcassonne", (), 2, {}),
    ("Carcassonne 5p", "carcassonne", (), 5, {}),
    ("Abbey & Mayor 6p", "carcassonne", ("abbey_mayor",), 6, {}),
    ("Inns & Cathedrals 4p", "carcassonne", ("inns_cathedrals",), 4, {}),
    ("Traders & Builders 4p", "carcassonne", ("traders_builders",), 4, {}),
    ("The River 3p", "carcassonne", ("river",), 3, {}),
    ("Big Box (all) 4p", "carcassonne", EVERY, 4, {}),
    ("Tactical hand 3p", "carcassonne", (), 3, {"hand": True}),
    ("Hunters & Gatherers 3p", "hunters", (), 3, {}),
    ("The Castle 2p", "castle", (), 2, {}),
]
PHONE = 400
#: The share of tile decisions drawn.
RATE = 0.25


@dataclass
class Counts:
    decisions: int = 0
    legal: int = 0
    unlettered: int = 0
    outside: int = 0
    stacked: int = 0
    wagons: int = 0
    wagon_bad: int = 0
    smallest: float = float("inf")
    insets: int = 0
    tallest: int = 0
    notes: list[str] = field(default_factory=list)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlapping(boxes: Sequence[Box]) -> int:
    """Pairs of boxes that overlap."""
    return sum(overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def inside(box: Box, size: tuple[int, int]) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1]


def check_turn(game: Game, picture: PhonePicture, labels: dict[Pos, str], counts: Counts) -> None:
    """Adds what the turn picture of ``game`` gets wrong to ``counts``."""
    legal = {(p.x, p.y) for p in game.legal_placements()}
    legal |= {(a.x, a.y) for a in game.legal(PlaceAbbey)}
    counts.decisions += 1
    counts.legal += len(legal)
    counts.unlettered += len(legal - set(labels))
    marks = picture.measures.marks
    size = picture.image.size
    shown = {pos for _, pos, box in marks if inside(box, size)}
    for pos, text in labels.items():
        drawn = [t for t, p, _ in marks if p == pos]
        if pos not in shown or drawn != [text] * len(drawn):
            counts.outside += 1
            counts.notes.append(f"turn {game.turn}: {text} at {pos} not shown")
    per_square = Counter(pos for _, pos, _ in marks)
    counts.stacked += sum(1 for n in per_square.values() if n > 1)
    counts.stacked += overlapping([box for _, _, box in marks])
    if picture.measures.letters:
        counts.smallest = min(counts.smallest, min(picture.measures.letters) * PHONE / size[0])
    counts.insets += len(picture.insets)
    counts.tallest = max(counts.tallest, round(size[1] * PHONE / size[0]))


def check_wagon(game: Game, counts: Counts) -> None:
    """Adds what the wagon picture of ``game`` (a wagon decision) gets wrong to ``counts``."""
    marks_of = turn_screen(game).wagon_marks
    picture = wagon_phone(game, marks_of, RenderOptions())
    marks = picture.measures.marks
    counts.wagons += len(marks_of)
    drawn = Counter(text for text, _, box in marks if inside(box, picture.image.size))
    counts.wagon_bad += sum(1 for text in marks_of.values() if drawn[text] != 1)
    counts.wagon_bad += overlapping([box for _, _, box in marks])
    if picture.measures.letters:
        scale = PHONE / picture.image.width
        counts.smallest = min(counts.smallest, min(picture.measures.letters) * scale)


def decisions(
    game_kind: str,
    expansions: tuple[str, ...],
    players: int,
    options: dict[str, Any],
    seed: int,
) -> Iterator[tuple[str, Game]]:
    """Games played at random from ``seed`` on: each tile decision drawn (one in four, at
    random) and every wagon decision, as ("tile" | "wagon", the game then)."""
    rng = random.Random(seed)
    names = tuple(f"player {i + 1}" for i in range(players))
    while True:
        setup = Setup(
            players=names,
            seed=rng.randrange(1 << 30),
            game=game_kind,
            expansions=expansions,
            options=dict(options),
        )
        game = Game(setup)
        while not game.finished:
            phase = game.decision.phase.value
            if phase == "tile" and rng.random() < RATE:
                yield "tile", game
            elif phase == "wagon" and game.legal(MoveWagon):
                yield "wagon", game
            game.play(random_action(game, rng))


def measure(
    game_kind: str,
    expansions: tuple[str, ...],
    players: int,
    options: dict[str, Any],
    wanted: int,
    seed: int,
) -> Counts:
    """The counts over ``wanted`` tile decisions of one family."""
    counts = Counts()
    for kind, game in decisions(game_kind, expansions, players, options, seed):
        if kind == "wagon":
            check_wagon(game, counts)
            continue
        screen = turn_screen(game)
        labels = dict(screen.labels)
        picture = turn_picture(game, RenderOptions(), candidates=labels, card=tile_card(screen))
        check_turn(game, picture, labels, counts)
        if counts.decisions >= wanted:
            break
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=50, help="tile decisions per family")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.decisions < 1:
        parser.error("--decisions must be at least 1")
    head = (
        f"{'family':24} {'decisions':>9} {'legal':>6} {'unlettered':>10} {'outside':>7} "
        f"{'stacked':>7} {'wagons':>6} {'wagon bad':>9} {'letter@400':>10} {'insets':>6} "
        f"{'tallest@400':>11} {'seconds':>7}"
    )
    print(head)
    for name, game_kind, expansions, players, options in FAMILIES:
        started = time.perf_counter()
        c = measure(game_kind, expansions, players, options, args.decisions, args.seed)
        smallest = f"{c.smallest:.1f}" if c.smallest != float("inf") else "-"
        print(
            f"{name:24} {c.decisions:>9} {c.legal:>6} {c.unlettered:>10} {c.outside:>7} "
            f"{c.stacked:>7} {c.wagons:>6} {c.wagon_bad:>9} {smallest:>10} {c.insets:>6} "
            f"{c.tallest:>11} {time.perf_counter() - started:>7.0f}"
        )
        for note in c.notes[:5]:
            print("   ", note)


if __name__ == "__main__":
    main()
