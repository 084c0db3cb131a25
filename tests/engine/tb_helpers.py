"""Helpers for the Traders & Builders tests: the reference tile table, games with a forced draw.

The reference table is read from ``data/traders_builders_tiles.md`` (a copy of the shared tile
facts), never from the engine's TOML, so that the tests compare the engine with an independent
source. Boards are built with a forced ``draw`` and explicit actions, like a rulebook picture.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from am_helpers import NAMES, reference_tiles

from engine import Game, Setup
from engine.carcassonne.traders_builders import of as tb_of

TB = ("traders_builders",)
BOTH = ("abbey_mayor", "traders_builders")
DATA = Path(__file__).parent / "data"


def reference_table() -> str:
    """The tile rows of the shared table (its other tables and notes left out)."""
    text = (DATA / "traders_builders_tiles.md").read_text("utf-8")
    return "\n".join(line for line in text.splitlines() if re.match(r"\| TB\d\d \| \d", line))


REF = reference_tiles(reference_table())


def new_game(draw: str, players: int = 2, expansions: tuple[str, ...] = TB, **options: Any) -> Game:
    """A game with a forced draw (the first entry is the start tile)."""
    return Game(
        Setup(
            players=NAMES[:players],
            seed=1,
            expansions=expansions,
            options=options,
            draw=tuple(draw.split()),
        )
    )


def goods_of(game: Game) -> list[dict[str, int]]:
    return [dict(g) for g in tb_of(game).goods]
