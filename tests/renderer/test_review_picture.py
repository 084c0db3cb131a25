"""The picture of one reviewed decision (issue 56): the move played beside the best move, in
every family and language, read on a phone at 400 px; also a hint (the best move alone) and the
``review`` picture job."""

from __future__ import annotations

import io
import pickle
import random
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops

import catalogs
from ai.review import Moment, Reason
from benchmarks.legibility import Picture, measure
from engine import Game, Phase, Setup
from engine.cli import random_action
from engine.core.actions import action_from_json
from renderer import jobs
from renderer import palette as pal
from renderer.jobs import Job
from renderer.legible import MIN_FIGURE, MIN_TEXT, PHONE, recording
from renderer.options import RenderOptions
from renderer.phone import MAX_TILE, WIDTH
from renderer.review import (
    CONTEXT,
    MomentData,
    Move,
    board_region,
    game_before,
    moment_extra,
    moment_picture,
    play_move,
    window_around,
    windows_for,
    word,
)

#: Every family and expansion: (game, expansions, players).
FAMILIES = {
    "base": ("carcassonne", (), 3),
    "abbey_mayor": ("carcassonne", ("abbey_mayor",), 3),
    "inns_cathedrals": ("carcassonne", ("inns_cathedrals",), 3),
    "traders_builders": ("carcassonne", ("traders_builders",), 3),
    "river": ("carcassonne", ("river",), 2),
    "hunters": ("hunters", (), 3),
    "castle": ("castle", (), 2),
}
NAMES = ("Ana", "Benoît", "Chiara")
WHY = {
    "en": "Closing your city there scores at once.",
    "fr": "Fermer votre ville là rapporte tout de suite.",
    "de": "Deine Stadt dort abzuschließen punktet sofort.",
}


def _turn(game: Game, placement: Any) -> list[dict[str, Any]]:
    """The whole turn of ``placement`` on a copy of ``game``: the tile, then a figure when one
    may go on it (the last offered, so that the two moves differ), as record actions."""
    fork = game.fork()
    fork.play(placement)
    turn = [placement.to_json()]
    if fork.phase is Phase.FIGURE:
        on_tile = [f for f in fork.legal_figures() if (f.x, f.y) == (placement.x, placement.y)]
        if on_tile:
            turn.append(on_tile[-1].to_json())
    return turn


@cache
def reviewed(family: str) -> tuple[dict[str, Any], Moment]:
    """A short random game of ``family`` and a decision of it: the move played (which the
    record holds) and another move as the best, on another square."""
    game_name, expansions, players = FAMILIES[family]
    setup = Setup(players=NAMES[:players], seed=5, game=game_name, expansions=expansions)
    game = Game(setup)
    rng = random.Random(5)
    placements: list[Any] = []
    # A tile decision with two squares to choose from (the river's first turns have one).
    while game.turn < 9 or len({(p.x, p.y) for p in placements}) < 2:
        game.play(random_action(game, rng))
        placements = list(game.legal_placements()) if game.phase is Phase.TILE else []
    first = placements[0]
    other = next(p for p in reversed(placements) if (p.x, p.y) != (first.x, first.y))
    index, turn, seat = len(game.actions), game.turn, game.decision.player
    played, best = _turn(game, first), _turn(game, other)
    for action in played:
        game.play(action_from_json(action))
    moment = Moment(
        index, turn, seat, tuple(played), tuple(best), -1.25, 3.5, 4.75, Reason("closes_own_city")
    )
    return game.record(), moment


def hint_of(moment: Moment) -> MomentData:
    return MomentData(moment.index, moment.turn, moment.seat, (), moment.best, 0.0, 3.5, 0.0)


def texts(png_of: Any) -> list[str]:
    """The texts a picture draws (recorded as drawn)."""
    with recording() as rec:
        png_of()
    _, marks = rec.sent[-1]
    return [m.what for m in marks if m.kind == "text"]


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("family", FAMILIES)
def test_both_moves_are_drawn_on_the_board_before(family: str) -> None:
    """Each panel is the board before the decision with its move: the squares of its tiles
    differ from the board before, the rest of the panel does not (the other move is not on
    it); both panels show the same squares."""
    record, moment = reviewed(family)
    before = game_before(record, moment.index)
    assert len(before.actions) == moment.index
    played = play_move(before, moment.seat, moment.played)
    best = play_move(before, moment.seat, moment.best)
    window = window_around([*played.squares, *best.squares])
    options = RenderOptions()
    empty = Move(before, played.squares, tuple(before.figures()))
    plain = board_region(empty, window, options)
    tile = min(MAX_TILE, (WIDTH - 8) // window[2])
    for move in (played, best):
        drawn = board_region(move, window, options)
        assert drawn.size == plain.size
        for pos in (*played.squares, *best.squares):
            x0 = (pos[0] - window[0]) * tile + tile // 4
            y0 = (pos[1] - window[1]) * tile + tile // 4
            inner = (x0, y0, x0 + tile // 2, y0 + tile // 2)
            change = ImageChops.difference(drawn.crop(inner), plain.crop(inner)).getbbox()
            if pos in move.squares:
                assert change is not None, f"{family}: the move's tile at {pos} is not drawn"
            else:
                assert change is None, f"{family}: the other move's square {pos} changed"
    # The move's own figure is on its tile.
    figures = [a for a in moment.best if a["type"] == "place_figure"]
    assert all(any(f.pos == (a["x"], a["y"]) for f in best.figures) for a in figures)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_has_its_picture(family: str) -> None:
    record, moment = reviewed(family)
    png = moment_picture(record, moment, "en", why=WHY["en"])
    image = decode(png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.width == WIDTH
    assert len(png) < 4 * 1024 * 1024  # the bot's upload budget, well under Discord's 10 MiB
    assert image.height < 3 * WIDTH


@pytest.mark.parametrize("family", ["base", "castle"])
def test_the_words_are_in_the_players_language(family: str) -> None:
    record, moment = reviewed(family)
    drawn = {}
    for lang in ("en", "fr", "de"):
        found = texts(lambda lang=lang: moment_picture(record, moment, lang, why=WHY[lang]))
        joined = " ".join(found)
        name = NAMES[moment.seat]
        assert word(lang, "title", turn=moment.turn + 1, player=name) in found
        for key in ("played", "best"):
            head = word(lang, key, value="").split("{")[0].strip()
            assert head.split(":")[0].strip() in joined
        assert WHY[lang].split()[0] in joined
        drawn[lang] = moment_picture(record, moment, lang, why=WHY[lang])
    assert len(set(drawn.values())) == 3
    # Decimals as each language writes them.
    assert "3.5" in " ".join(texts(lambda: moment_picture(record, moment, "en", why="")))
    assert "3,5" in " ".join(texts(lambda: moment_picture(record, moment, "fr", why="")))


def test_every_word_is_in_every_catalog() -> None:
    keys = catalogs.keys(CONTEXT)
    assert {"title", "played", "best", "hint", "lost", "scale"} <= set(keys)
    for key in keys:
        for lang in catalogs.LANGUAGES:
            assert catalogs.has_in(CONTEXT, key, lang), (key, lang)


def test_names_given_replace_the_records() -> None:
    record, moment = reviewed("base")
    names = ["Zoé", "Yann", "Xavier"]
    found = texts(lambda: moment_picture(record, moment, "fr", why="", names=names))
    assert word("fr", "title", turn=moment.turn + 1, player=names[moment.seat]) in found


@pytest.mark.parametrize("family", ["base", "hunters", "castle"])
def test_a_hint_shows_the_best_move_alone(family: str) -> None:
    record, moment = reviewed(family)
    # A hint is asked on the position now: the record holds no move for it yet.
    now = {**record, "actions": record["actions"][: moment.index]}
    hint = hint_of(moment)
    found = " ".join(texts(lambda: moment_picture(now, hint, "de", why=WHY["de"])))
    assert word("de", "hint") in found
    assert word("de", "scale") not in found  # a hint has no value to explain
    assert word("de", "played", value="").split(":")[0] not in found
    assert word("de", "lost", value="").split(":")[0] not in found
    full = decode(moment_picture(record, moment, "de", why=WHY["de"]))
    alone = decode(moment_picture(now, hint, "de", why=WHY["de"]))
    assert alone.width == WIDTH and alone.height < full.height * 0.7


def test_the_review_job_draws_the_same_picture() -> None:
    record, moment = reviewed("traders_builders")
    extra = moment_extra(moment, why=WHY["fr"], names=["Zoé", "Yann", "Xavier"])
    assert MomentData.from_json(extra["moment"]) == MomentData.of(moment)
    job = Job("review", record, RenderOptions(lang="fr"), (2, 0, 1), extra=extra)
    job = pickle.loads(pickle.dumps(job))  # it crosses to a worker process
    assert "review" in jobs.PLAIN
    png, hidden = jobs.run(job)
    assert hidden == ()
    with pal.seat_styles((2, 0, 1)):
        direct = moment_picture(
            record, moment, "fr", why=WHY["fr"], names=["Zoé", "Yann", "Xavier"]
        )
    assert png == direct
    # Seat styles count: the same job in the default colours is another picture.
    plain, _ = jobs.run(Job("review", record, RenderOptions(lang="fr"), extra=extra))
    assert plain != png
    hint = moment_extra(hint_of(moment), why="")
    assert hint["moment"]["played"] == []
    drawn, _ = jobs.run(Job("review", record, RenderOptions(lang="fr"), extra=hint))
    assert decode(drawn).height < decode(png).height


def test_a_move_shows_its_squares_together_or_each_apart() -> None:
    """Squares near each other share one part of the board, at least 5 by 3 around them; a
    tile far from the turn's other tile (a bonus tile) gets its own part: no picture grows
    as tall as the board between them."""
    assert windows_for([(0, 0)]) == [(-2, -1, 5, 3)]
    assert windows_for([(0, 0), (1, 1)]) == [(-1, -1, 5, 4)]
    far = windows_for([(0, 1), (0, -6)])
    assert far == [window_around([(0, 1)]), window_around([(0, -6)])]


def test_a_move_that_places_no_tile_is_refused() -> None:
    record, moment = reviewed("base")
    bad = MomentData(moment.index, moment.turn, moment.seat, (), ({"type": "pass"},), 0, 0, 0)
    with pytest.raises(ValueError):
        moment_picture(record, bad, "en", why="")
    with pytest.raises(ValueError):
        game_before(record, len(record["actions"]) + 1)


@pytest.mark.parametrize(
    ("family", "lang"), [("abbey_mayor", "de"), ("hunters", "fr"), ("castle", "en")]
)
def test_the_picture_meets_the_phone_targets(family: str, lang: str) -> None:
    """The legibility measure of the phone pictures (:mod:`benchmarks.legibility`): every
    text's capitals 11 px tall and every figure 10 px once the picture is shown 400 px wide."""
    record, moment = reviewed(family)
    extra = moment_extra(moment, why=WHY[lang])
    job = Job("review", record, RenderOptions(lang=lang), extra=extra)
    m = measure(Picture("review", Game.from_record(record), job))
    assert m.width == WIDTH
    assert m.text is not None and m.text.size >= MIN_TEXT, m.text
    assert m.figure is not None and m.figure.size >= MIN_FIGURE, m.figure
    assert m.bytes < 10 * 1024 * 1024
    # Every mark lies in the picture sent, and at 400 px the picture is still the whole of it.
    w, h = m.image.size
    assert all(
        x1 > 0 and y1 > 0 and x0 < w and y0 < h for x0, y0, x1, y1 in (k.box for k in m.marks)
    )
    assert PHONE * h / w < 1300
