"""What leaves the bot about a running game carries only what the table has seen.

For every family and expansion: two running games with the same visible history and different
seeds (and stacks, hands, bonus and wall tiles) are stored in the bot; their export, viewer link,
viewer page, replay picture and tiles picture are byte-identical, the export is a position
(no seed, no draw) that replays to the live game's public state, and a finished game still
exports its whole record.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.manager import GameManager
from bot.ui import images
from bot.ui.watching import viewer
from engine import Game
from engine.cli import random_action
from engine.core.position import game_from_position, is_position, position_json, position_of

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from test_positions import CASES, public, running, twin

BASE = "https://example.org/viewer.html"
GUILD, ALICE = 100, 1


@pytest_asyncio.fixture
async def mgr(tmp_path: Path) -> AsyncIterator[GameManager]:
    manager = await GameManager.open(str(tmp_path / "games.sqlite3"))
    yield manager
    await manager.close()


async def stored(manager: GameManager, game: Game) -> int:
    """The game imported into the bot, still running."""
    row = await manager.records.import_record(game.record(), ALICE, guild_id=GUILD, channel_id=5)
    assert row.status == "active"
    return row.id


async def outputs(manager: GameManager, game_id: int) -> dict[str, Any]:
    """Every channel by which a running game's information leaves the bot, as bytes."""
    record = await manager.records.export_record(game_id)
    shown = await manager.records.public_copy(game_id)
    page = await viewer.viewer_file(shown, "en", game_id=1)
    replay = await images.replay_file(shown, "en", 1)
    tiles = await images.tiles_file(shown, "en")
    return {
        "export": position_json(record) if is_position(record) else json.dumps(record),
        "link": await viewer.viewer_link(BASE, shown),
        "page": page.fp.read(),
        "replay": replay.fp.read(),
        "tiles": tiles.fp.read(),
    }


@pytest.mark.parametrize("name", CASES)
async def test_twins_leave_the_bot_byte_identical(mgr: GameManager, name: str) -> None:
    game = running(name, 10**12 + 31, 45)
    other = twin(game, 10**12 + 32)
    assert other.setup.seed != game.setup.seed
    first = await outputs(mgr, await stored(mgr, game))
    second = await outputs(mgr, await stored(mgr, other))
    for channel, value in first.items():
        assert value == second[channel], f"{name}: the {channel} tells the games apart"
    record = json.loads(first["export"])
    assert is_position(record) and "seed" not in record and "draw" not in record
    # The export is the position, and it rebuilds the public state of the live game.
    assert record == json.loads(position_json(position_of(game))) | {
        k: v for k, v in record.items() if k in ("computer",)
    }
    assert public(game_from_position(record)) == public(game)


async def test_a_finished_game_still_exports_its_record(mgr: GameManager) -> None:
    game = running("base", 10**12 + 5, 10**6)  # as far as it goes: its last action undone
    game_id = await stored(mgr, game)
    view = await mgr.decision(game_id)
    while not view.finished:
        assert view.user_id is not None
        live = await mgr.engine_copy(game_id)
        action = random_action(live, random.Random(view.turn))
        view = (await mgr.play_turn(game_id, view.user_id, action, turn=view.turn)).view
    record = await mgr.records.export_record(game_id)
    assert record["format"] == 1 and "seed" in record
    assert Game.from_record(record).scores == list(view.scores)
