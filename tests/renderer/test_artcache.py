"""The tile art cache: built once, read by a new process instead of searching every tile's
shapes again, giving the very same pictures; a damaged cache is rebuilt, never trusted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import Settings
from engine import Game, Pass, Setup
from renderer import artcache, encode
from renderer.options import RenderOptions
from renderer.render import render_board


def a_game(name: str) -> Game:
    game = Game(Setup(players=("a", "b"), seed=5, game=name))
    rng = random.Random(2)
    for _ in range(24):
        game.play(rng.choice(game.legal_placements()) if game.phase.value == "tile" else Pass())
    return game


def forget() -> None:
    """What a new process starts with: no layout, no palette in memory."""
    for table in artcache._tables().values():
        table.clear()
    encode._PALETTES.clear()


@pytest.fixture(autouse=True)
def no_cache_left_enabled() -> object:
    yield
    artcache.disable()


def test_a_new_process_reads_the_cache_and_draws_the_same_pictures(tmp_path: Path) -> None:
    games = [a_game(name) for name in ("carcassonne", "hunters", "castle")]
    before = [render_board(g, RenderOptions()) for g in games]
    built, seconds = artcache.warm(tmp_path)
    assert built and seconds > 0
    sizes = {name: len(table) for name, table in artcache._tables().items()}
    assert all(sizes.values()), sizes
    forget()
    again, _ = artcache.warm(tmp_path)
    assert not again, "the second start loads what the first built"
    assert {name: len(table) for name, table in artcache._tables().items()} == sizes
    assert set(encode._PALETTES) == set(artcache.PALETTES)
    assert [render_board(g, RenderOptions()) for g in games] == before


def test_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    folder = artcache.enable(tmp_path)
    folder.mkdir(parents=True)
    (folder / artcache.LAYOUTS).write_bytes(b"not a pickle")
    assert not artcache.load()
    built, _ = artcache.warm(tmp_path)
    assert built and artcache.load()


def test_the_cache_folder_is_named_after_the_art_and_set_by_the_environment() -> None:
    assert len(artcache.version()) == 16 and artcache.version() == artcache.version()
    base = {"DISCORD_TOKEN": "x"}
    assert Settings.from_env({**base, "ART_CACHE": "off"}).art_cache is None
    assert Settings.from_env({**base, "ART_CACHE": "/srv/art"}).art_cache == "/srv/art"
    assert Settings.from_env(base).art_cache == str(artcache.default_folder())


def forget_tiles() -> None:
    """What a new process starts with: no tile picture in memory."""
    from renderer import tileart
    from renderer.castle import art

    tileart._CACHE.clear()
    art._CACHE.clear()


def test_tiles_drawn_by_one_process_are_read_by_the_others_as_the_same_pictures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from renderer import tileart
    from renderer.castle import art

    games = [a_game(name) for name in ("carcassonne", "hunters", "castle")]
    forget_tiles()
    before = [render_board(g, RenderOptions()) for g in games]  # no disk cache at all
    folder = artcache.enable(tmp_path)
    forget_tiles()
    assert [render_board(g, RenderOptions()) for g in games] == before
    written = sorted((folder / artcache.TILES).glob("*.png"))
    families = {path.name.split("-")[0] for path in written}
    assert {"castle", "hunters"} <= families and len(families) >= 3, families

    def never(*args: object) -> None:
        raise AssertionError("a tile drawn again instead of read")

    forget_tiles()
    with monkeypatch.context() as patched:
        patched.setattr(tileart, "draw_tile", never)
        patched.setattr(art, "draw_castle_tile", never)
        assert [render_board(g, RenderOptions()) for g in games] == before
    written[0].write_bytes(b"half a file")  # damaged: drawn again, never trusted
    forget_tiles()
    assert [render_board(g, RenderOptions()) for g in games] == before
    assert written[0].read_bytes().startswith(b"\x89PNG")
