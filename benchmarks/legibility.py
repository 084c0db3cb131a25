"""How large every picture's smallest text and smallest figure are on a phone.

Run: ``python -m benchmarks.legibility [--langs en,fr,de] [--seed S]``. For a fixed game of
every family (base 2 and 5 players, Abbey & Mayor 6, Inns & Cathedrals, Traders & Builders, The
River, the Big Box with every expansion at 4, a tactical hand, Hunters & Gatherers 3, The
Castle), played at random to its end, each picture kind the bot sends is drawn as the bot draws
it (a :class:`renderer.jobs.Job`, from the turn view the bot reads) early, in the middle, late
and at the end: the turn picture, the placement step, the wagon picture, the tactical hand,
``/carcassonne board`` (the whole board), the board of the abbey's holes, the final picture,
the tiles left, the statistics, the help's example turn, The Castle's wall tiles, and replay
frames. Each is drawn under :func:`renderer.legible.recording`, which keeps the inked box of
every text, figure and token as drawn, through every paste and scaling, in the picture encoded;
a picture over the upload budget is drawn again smaller, as :mod:`bot.ui.images` does. A size is
the drawn size times 400 over the width of the picture sent: a text's capital height, a
figure's or token's inked height or length (the larger).

Prints, per picture kind and family, the smallest text and the smallest figure or token at 400
pixels wide and what they are, against the targets (text 11 px, figures and tokens 10 px).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from PIL import Image

from bot.turn_view import TurnScreen, step_screen, turn_screen
from engine import Game, PlaceTile, Setup
from engine.cli import random_action
from engine.core.game import Phase
from renderer import jobs, legible
from renderer.jobs import Job
from renderer.legible import MIN_FIGURE, MIN_TEXT, Mark
from renderer.options import RenderOptions
from renderer.phone import TileCard

#: What the bot's upload fallback does (:mod:`bot.ui.images`): over the budget, smaller tiles.
BUDGET = 4 * 1024 * 1024
SMALLER = (64, 48)
#: Discord's own limit: no picture may reach it.
LIMIT = 10 * 1024 * 1024

NAMES = ("Ana", "Benoît", "Chiara", "Dmitri", "Elif", "Fatima")
BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")


@dataclass(frozen=True)
class Family:
    name: str
    setup: Setup


def families(seed: int) -> list[Family]:
    def setup(players: int, **kw: object) -> Setup:
        return Setup(players=NAMES[:players], seed=seed, **kw)  # type: ignore[arg-type]

    return [
        Family("base 2p", setup(2)),
        Family("base 5p", setup(5)),
        Family("Abbey & Mayor 6p", setup(6, expansions=("abbey_mayor",))),
        Family("Inns & Cathedrals", setup(3, expansions=("inns_cathedrals",))),
        Family("Traders & Builders", setup(3, expansions=("traders_builders",))),
        Family("The River", setup(2, expansions=("river",))),
        Family("Big Box 4p", setup(4, expansions=BIG_BOX)),
        Family("tactical hand", setup(3, options={"hand": True})),
        Family("Hunters & Gatherers 3p", setup(3, game="hunters")),
        Family("The Castle", setup(2, game="castle")),
    ]


@dataclass(frozen=True)
class Picture:
    """One picture to measure: its kind (as the table names it), the game and its job."""

    kind: str
    game: Game
    job: Job


@dataclass(frozen=True)
class Measured:
    kind: str
    width: int
    bytes: int
    text: Mark | None
    figure: Mark | None
    marks: tuple[Mark, ...]
    image: Image.Image


def _card(screen: TurnScreen) -> TileCard | None:
    if screen.tile is None or not screen.card:
        return None
    return TileCard(screen.tile, {r: f"{r}°" for r in screen.card})


def _turn_jobs(game: Game, lang: str, stage: str) -> Iterator[Picture]:
    """The pictures of a tile decision: the turn, the whole board, a placement step."""
    screen = turn_screen(game)
    options = RenderOptions(lang=lang, dead_squares=True)
    card = _card(screen)
    record = game.record()
    yield Picture("turn", game, Job("turn", record, options, (), screen.labels, card))
    yield Picture(
        "board (whole)", game, Job("turn", record, options, (), screen.labels, card, True)
    )
    if screen.hand_mode:
        hand = {"hand": tuple(screen.hand)}
        yield Picture("hand", game, Job("hand", record, RenderOptions(lang=lang), extra=hand))
    placements = sorted(screen.placements(screen.tile), key=lambda p: (p.pos[1], p.pos[0]))
    if placements and screen.tile is not None:
        # The placement with the most figure spots: the most crowded step.
        best = None
        for placement in placements:
            first = PlaceTile(placement.pos[0], placement.pos[1], placement.rotation, screen.tile)
            shown = step_screen(game, screen, first)
            if best is None or len(shown.places) > len(best.places):
                best = shown
        assert best is not None
        ghosts = tuple(best.ghosts(best.pages[0])) if best.pages else ()
        extra = {
            "placement": best.first,
            "spots": {p.at: p.number for p in best.pages[0]} if best.pages else {},
            "rotations": {r: f"{r}°" for r in best.rotations},
            "ghosts": ghosts if best.oriented is not None else (),
            "player": screen.seat or 0,
        }
        yield Picture("step", game, Job("step", record, RenderOptions(lang=lang), extra=extra))
    if screen.holes:
        holes = screen.hole_labels()
        yield Picture("board (abbey)", game, Job("turn", record, options, (), holes))
    if stage == "middle":
        yield Picture("tiles left", game, Job("tiles", record, options))
    if screen.wall_marks:
        walls = {"features": dict(screen.wall_marks)}
        yield Picture("walls", game, Job("walls", record, RenderOptions(lang=lang), extra=walls))


def pictures(family: Family, lang: str) -> Iterator[Picture]:
    """Every picture kind of ``family``'s game, early, in the middle, late and at the end."""
    rng = random.Random(family.setup.seed)
    game = Game(family.setup)
    actions = []
    while not game.finished:
        action = random_action(game, rng)
        actions.append(action)
        game.play(action)
    total = game.turn
    stages = {max(2, total // 8): "early", total // 2: "middle", total * 7 // 8: "late"}
    game = Game(family.setup)
    wagon = walls = False
    for action in actions:
        if game.phase is Phase.TILE and game.turn in stages:
            yield from _turn_jobs(game, lang, stages.pop(game.turn))
        screen = None
        if game.phase is Phase.WAGON and not wagon:
            screen = turn_screen(game)
            marks = {"targets": dict(screen.wagon_marks)}
            job = Job("wagon", game.record(), RenderOptions(lang=lang), extra=marks)
            yield Picture("wagon", game.fork(), job)
            wagon = True
        if game.setup.game == "castle" and not walls:
            screen = turn_screen(game)
            if screen.wall_marks:
                extra = {"features": dict(screen.wall_marks)}
                job = Job("walls", game.record(), RenderOptions(lang=lang), extra=extra)
                yield Picture("walls", game.fork(), job)
                walls = True
        game.play(action)
    yield Picture("end", game, Job("end", game.record(), RenderOptions(lang=lang)))
    breakdown = sorted(game.breakdown[0].items(), key=lambda kv: (-kv[1], kv[0]))
    data = {
        "name": NAMES[0],
        "games": 12,
        "categories": tuple((k, v * 12) for k, v in breakdown if v),
        "kinds": (family.setup.game,),
        "style": 0,
    }
    yield Picture("stats", game, Job("stats", {}, RenderOptions(lang=lang), extra=data))


def help_picture(lang: str) -> Picture:
    """The help's example turn, as the help draws it."""
    from bot.turn_view import example_turn

    names = {"fr": ("Anne", "Benoît"), "de": ("Anna", "Jonas")}.get(lang, ("Ana", "Ben"))
    game, screen = example_turn(names)
    job = Job(
        "help", game.record(), RenderOptions(lang=lang), (), dict(screen.labels), _card(screen)
    )
    return Picture("help", game, job)


def walls_picture(lang: str) -> Picture | None:
    """The Castle's wall tiles picture: the first castle game (seeds 1 to 40) reaching a wall
    tile with targets (random play rarely does)."""
    from engine import UseWallTile

    for seed in range(1, 41):
        game = Game(Setup(players=NAMES[:2], seed=seed, game="castle"))
        rng = random.Random(seed)
        while not game.finished:
            if any(getattr(w, "target", None) for w in game.legal(UseWallTile)):
                extra = {"features": dict(turn_screen(game).wall_marks)}
                job = Job("walls", game.record(), RenderOptions(lang=lang), extra=extra)
                return Picture("walls", game, job)
            game.play(random_action(game, rng))
    return None


def smallest(marks: list[Mark], kinds: tuple[str, ...]) -> Mark | None:
    found = [m for m in marks if m.kind in kinds]
    return min(found, key=lambda m: m.size) if found else None


def measure(picture: Picture) -> Measured:
    """``picture`` drawn as the bot sends it, with the marks of the picture sent."""
    job = picture.job
    game = None if job.kind in jobs.PLAIN else picture.game
    with legible.recording() as rec:
        data, _ = jobs.draw(game, job)
        for tile in SMALLER:
            if len(data) <= BUDGET:
                break
            options = dataclasses.replace(job.options, tile_size=tile, max_side=1200, min_tile=32)
            rec.sent.clear()
            data, _ = jobs.draw(game, dataclasses.replace(job, options=options))
    image, marks = rec.sent[-1]
    with Image.open(io.BytesIO(data)) as sent:
        if sent.size != image.size:
            raise AssertionError(f"{picture.kind}: the marks are not of the picture sent")
    width = image.width
    scaled = [m.scaled(400 / width, 400 / width) for m in marks]
    return Measured(
        picture.kind,
        width,
        len(data),
        smallest(scaled, ("text",)),
        smallest(scaled, ("figure", "token")),
        tuple(marks),
        image,
    )


def replay_measures(family: Family, lang: str) -> list[Measured]:
    """Replay frames (:mod:`renderer.replay`), from their own layout: a late turn's frame and
    the last frame, drawn as the replay draws them (the whole replay is drawn by
    :func:`renderer.replay.render_replay`; its frames are sent as drawn, under its budget)."""
    from engine.core.timeline import score_series, turn_ends
    from renderer import replay

    rng = random.Random(family.setup.seed)
    game = Game(family.setup)
    while not game.finished:
        game.play(random_action(game, rng))
    record = game.record()
    options = RenderOptions(lang=lang)
    layout = replay.plan(game, options)
    total = score_series(record).turns
    ends = list(turn_ends(record))
    end, at = ends[len(ends) * 7 // 8]
    window = layout.window
    if layout.follows and layout.view is not None and end.placed is not None:
        x, y = end.placed
        origin = (x - layout.view[0] // 2, y - layout.view[1] // 2)
        window = replay.follow(origin, end.placed, layout)
    last, final_game = ends[-1]
    found = []
    with legible.recording() as rec:
        frames = [
            (
                "replay frame",
                replay.frame_picture(at, end, layout, options, total=total, window=window),
            ),
            (
                "replay last",
                replay.frame_picture(final_game, last, layout, options, total=total, final=True),
            ),
        ]
        for kind, frame in frames:
            marks = rec.marks(frame)
            width = frame.width
            scaled = [m.scaled(400 / width, 400 / width) for m in marks]
            found.append(
                Measured(
                    kind,
                    width,
                    0,
                    smallest(scaled, ("text",)),
                    smallest(scaled, ("figure", "token")),
                    tuple(marks),
                    frame,
                )
            )
    return found


def _cell(mark: Mark | None, target: float) -> str:
    if mark is None:
        return "-"
    what = mark.what if len(mark.what) <= 14 else mark.what[:13] + "…"
    flag = "" if mark.size >= target - 1e-9 else " ✗"
    return f"{mark.size:5.1f} {what}{flag}"


def run(langs: list[str], seed: int, replays: bool = True) -> list[tuple[str, str, Measured]]:
    rows: list[tuple[str, str, Measured]] = []
    for lang in langs:
        for family in families(seed):
            for picture in pictures(family, lang):
                rows.append((family.name, lang, measure(picture)))
            if replays:
                rows.extend((family.name, lang, m) for m in replay_measures(family, lang))
        rows.append(("base 2p", lang, measure(help_picture(lang))))
        walls = walls_picture(lang)
        if walls is not None:
            rows.append(("The Castle", lang, measure(walls)))
    return rows


def table(rows: list[tuple[str, str, Measured]]) -> tuple[str, int]:
    """The smallest of each (kind, family) over positions and languages; and the misses."""
    worst: dict[tuple[str, str], tuple[Mark | None, Mark | None, int, int]] = {}
    for family, _lang, m in rows:
        key = (m.kind, family)
        text, figure, width, size = worst.get(key, (None, None, 0, 0))
        if m.text is not None and (text is None or m.text.size < text.size):
            text = m.text
        if m.figure is not None and (figure is None or m.figure.size < figure.size):
            figure = m.figure
        worst[key] = (text, figure, max(width, m.width), max(size, m.bytes))
    lines = [
        f"{'picture':<15}{'family':<24}{'sent px':>8}{'max KiB':>9}  "
        f"{'smallest text @400':<28}{'smallest figure/token @400':<28}"
    ]
    misses = 0
    for (kind, family), (text, figure, width, size) in sorted(worst.items()):
        misses += (text is not None and text.size < MIN_TEXT) + (
            figure is not None and figure.size < MIN_FIGURE
        )
        lines.append(
            f"{kind:<15}{family:<24}{width:>8}{size // 1024:>9}  "
            f"{_cell(text, MIN_TEXT):<28}{_cell(figure, MIN_FIGURE):<28}"
        )
    return "\n".join(lines), misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", default="en,fr,de")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--no-replay", action="store_true", help="skip the replay frames")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = run(args.langs.split(","), args.seed, not args.no_replay)
    text, misses = table(rows)
    print(text)
    largest = max(m.bytes for _, _, m in rows)
    print(
        f"\n{len(rows)} pictures in {time.perf_counter() - started:.0f} s; largest upload "
        f"{largest / 1024 / 1024:.2f} MiB (limit 10 MiB); targets: text ≥ {MIN_TEXT:g} px, "
        f"figures and tokens ≥ {MIN_FIGURE:g} px at 400 px wide; {misses} below target (✗)"
    )


if __name__ == "__main__":
    main()
