"""The viewer's game code (renderer.viewer.codec): every game fits a link; what it carries."""

from __future__ import annotations

import random
import re
import statistics

import pytest
from viewer_helpers import bigbox_records, engine_frames, mixed_records

from engine import Game, Setup
from engine.cli import play_random
from engine.core.timeline import score_series
from renderer.viewer import codec
from renderer.viewer.page import link
from renderer.viewer.tables import variant, variant_of
from renderer.viewer.turns import game_turns, variant_key

LIMIT = 400
#: The Big Box games' own measured figure: 6 players with all four expansions lay some 140
#: tiles, and their links are longer than :data:`LIMIT` (see ``benchmarks.viewer``).
BIG_BOX_LIMIT = 600


def test_every_code_of_200_random_games_fits_a_link() -> None:
    records = mixed_records()
    lengths = [len(codec.encode(game_turns(r))) for r in records]
    six_abbey = [
        n
        for n, r in zip(lengths, records, strict=True)
        if r.get("expansions") == ["abbey_mayor"] and len(r["players"]) == 6
    ]
    print(f"codes: longest {max(lengths)}, median {statistics.median(lengths)}")
    assert len(records) == 200 and len(six_abbey) >= 40
    assert {r.get("game", "carcassonne") for r in records} == {"carcassonne", "hunters", "castle"}
    assert max(lengths) <= LIMIT, sorted(lengths)[-5:]


def test_big_box_codes_are_measured_apart() -> None:
    records = bigbox_records()
    lengths = [len(codec.encode(game_turns(r))) for r in records]
    all_four = [
        n
        for n, r in zip(lengths, records, strict=True)
        if len(r["expansions"]) == 4 and len(r["players"]) == 6
    ]
    print(f"big box codes: longest {max(lengths)}, 6 players all four longest {max(all_four)}")
    assert len(all_four) >= len(records) // 2
    assert {e for r in records for e in r["expansions"]} == {
        "abbey_mayor",
        "inns_cathedrals",
        "river",
        "traders_builders",
    }
    assert max(lengths) <= BIG_BOX_LIMIT, sorted(lengths)[-5:]


def test_a_code_is_the_version_letter_then_url_safe_letters() -> None:
    code = codec.encode(game_turns(mixed_records()[0]))
    assert code[0] == codec.ALPHABET[codec.VERSION]
    assert re.fullmatch(r"[A-Za-z0-9_-]+", code)


@pytest.mark.parametrize("games", ["mixed", "big box"])
def test_the_turns_coded_are_the_engines_turns(games: str) -> None:
    records = mixed_records() if games == "mixed" else bigbox_records()
    for record in records[:10]:
        turns = game_turns(record)
        series = score_series(record)
        frames = engine_frames(record)
        assert [t.scores for t in turns.turns] == list(series.by_turn)
        assert turns.final == series.final
        laid = 0
        standing = 0
        for turn, frame in zip(turns.turns, frames, strict=False):
            laid += len(turn.tiles)
            standing += len(turn.placed) - len(turn.returned)
            assert (laid, standing) == (frame["tiles"], frame["figures"])


def test_long_names_are_shortened_until_the_link_fits() -> None:
    names = tuple(f"{'Ö' * 28}{i:04}" for i in range(6))
    game = Game(Setup(players=names, seed=3, expansions=("abbey_mayor",)))
    play_random(game, random.Random(3))
    record = game.record()
    full = codec.encode(game_turns(record))
    assert len(full) > LIMIT
    url = link("https://example.org/viewer.html", record)
    assert len(url.split("#")[1]) <= LIMIT < len(full)


def test_a_game_without_turns_has_a_code() -> None:
    record = Game(Setup(players=("Ann", "Bo"), seed=1)).record()
    turns = game_turns(record)
    assert len(turns.turns) == 1 and turns.final is None
    assert len(codec.encode(turns)) < 40


def test_a_family_the_viewer_does_not_show_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="does not show hunters\\+river games"):
        variant_of("hunters+river")


def test_every_big_box_combination_has_its_tables() -> None:
    expansions = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
    for mask in range(16):
        chosen = tuple(e for i, e in enumerate(expansions) if mask >> i & 1)
        tables = variant(variant_of(variant_key("carcassonne", chosen)))
        assert ("river" in chosen) == any(tables.river(k) for k in range(len(tables.kinds)))
        expected = {"large_follower": "inns_cathedrals", "builder": "traders_builders"}
        expected["pig"] = "traders_builders"
        for figure, expansion in expected.items():
            assert (figure in tables.roles) == (expansion in chosen), (chosen, figure)


def test_more_players_than_the_code_carries_is_refused() -> None:
    turns = game_turns(mixed_records()[0])
    crowded = type(turns)(turns.game, turns.expansions, ("x",) * 9, turns.turns, turns.final)
    with pytest.raises(codec.CodeError, match="1 to 8 players"):
        codec.encode(crowded)


def test_redrawn_tile_art_keeps_the_links_working(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a figure stands on a tile is drawing only: moving every spot keeps the fingerprint
    (links made before a tile is redrawn still open); the earlier fingerprints stay readable."""
    import dataclasses

    from renderer.viewer import tables

    before = tables.fingerprint(codec.constants(), codec.CHECK_SPACE)
    real = tables.variant

    def moved(index: int) -> tables.Variant:
        found = real(index)
        spots = tuple(tuple((0.5, 0.5) for _ in kind) for kind in found.spots)
        return dataclasses.replace(found, spots=spots)

    monkeypatch.setattr(tables, "variant", moved)
    assert tables.fingerprint(codec.constants(), codec.CHECK_SPACE) == before
    assert codec.checksum() not in codec.EARLIER
