"""A full game of every family through the buttons, as a player would play it.

Each decision is a uniformly random complete move entered the shortest way the interface allows
(:mod:`benchmarks.turn_ux`, which also prints the figures). Every turn message must show the
drawn tile's picture (a PNG under Discord's 10 MiB), and no decision may take more than three
interactions (two for a directly picked move, nearly always; the tactical hand opens the hand
first; a figure on a step's second page of places costs one more).
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from benchmarks.turn_ux import FAMILIES, play

PNG = b"\x89PNG\r\n\x1a\n"


def picture_check(seen: list[int]) -> Any:
    def inspect(env: simcord.Env, message: Any) -> None:
        assert message is not None and message.attachments, "a turn message without picture"
        data = env.backend.cdn.get(message.attachments[0].url)
        assert data is not None and data.startswith(PNG)
        assert len(data) < 10 * 1024 * 1024
        seen.append(len(data))

    return inspect


@pytest.mark.parametrize(("family", "options", "players"), FAMILIES, ids=[f[0] for f in FAMILIES])
async def test_a_full_game_through_the_buttons(
    family: str, options: dict[str, Any], players: int
) -> None:
    seen: list[int] = []
    walls: list[int] = []
    castle = options.get("game") == "castle"
    seed = 7 if castle else 5  # 7: a castle game of random moves where a wall tile is played
    counts = await play(family, options, players, seed, picture_check(seen), walls)
    assert len(seen) == len(counts) > 20, "every decision had its turn message and picture"
    assert max(counts) <= 3, counts
    direct = 3 if options.get("hand") else 2
    # A typical turn is direct; a rare figure on a step's second page costs one tap more.
    assert sum(1 for c in counts if c <= direct) >= 0.95 * len(counts), counts
    assert sum(counts) / len(counts) <= 2.1 or options.get("hand")
    if castle:  # wall tiles played, each in two taps
        assert walls and max(walls) <= 2, walls
