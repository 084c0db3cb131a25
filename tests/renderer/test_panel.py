"""The players' strip under the whole-board picture (``/carcassonne board``, previews, steps)."""

from __future__ import annotations

from render_helpers import REFERENCE, decode, difference, reference_images


def test_the_strip_of_a_game_without_the_big_box_matches_its_reference() -> None:
    """Followers, mayor, wagon and barn on one row per player, drawn as before the Big Box."""
    made = decode(reference_images()["am_strip.png"])
    kept = decode((REFERENCE / "am_strip.png").read_bytes())
    assert made.size == kept.size
    assert difference(made, kept) < 0.5
