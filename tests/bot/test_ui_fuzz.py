"""Any value in any option of any slash command: success, or a private refusal naming the problem.

Hypothesis draws a command of the bot's own tree, a member (player, onlooker, admin), a place
(the game's thread, the games channel, another channel) and a value for each option from its
declared type: valid choices, text of every kind and length, numbers far outside the declared
ranges (simcord's own option checks are switched off, so the bot's server-side checks are what
answers), channels, members, and record files made from real games and then damaged. Options
that suggest values are typed into too. For every call:

- the interaction is answered, never with "Something went wrong", and nothing logs an ERROR;
- a refusal (the central error handler's) is private and changes no stored game.

The numbers of inputs tried are printed (``pytest -s``); ``CARCASSONNE_FUZZ`` and
``CARCASSONNE_FUZZ_RECORDS`` set how many examples each test runs (more in a long local run),
``CARCASSONNE_FUZZ_RANDOM=1`` draws new inputs instead of CI's fixed ones.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
from collections import Counter
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import Table, simcord_bot
from discord import app_commands
from discord.enums import AppCommandOptionType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ui_scenes import forced_game

from bot.ui.texts import tr
from engine import Game, Phase, Setup
from engine.cli import random_action

__all__ = ["simcord_bot"]

EXAMPLES = int(os.environ.get("CARCASSONNE_FUZZ", "1600"))
RECORD_EXAMPLES = int(os.environ.get("CARCASSONNE_FUZZ_RECORDS", "500"))
TRIED: Counter[str] = Counter()

FUZZ = settings(
    deadline=None,
    # Reproducible in CI; CARCASSONNE_FUZZ_RANDOM=1 explores new inputs in a long local run.
    derandomize=not os.environ.get("CARCASSONNE_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Texts worth trying in any text option, besides random ones.
TRICKY = [
    "", " ", "A", "B", "a", "ZZ", "0,0", "1,0", "-1,0", "5,5", "1,2,3", "x,y", "none", "1", "99",
    "0", "-1", "2026-01-01", "2026-02-30", "9999-12-31", "1999-01-01", "3,1,0", "1,2,3,4,5,6",
    "101,0", "@everyone", "@here", "<@&1>", "<@1>", "<#1>", "a\x00b", "abc\u202edef", "\u200b",
    "x" * 5000, "🏰" * 60, "Spring league", "' OR 1=1 --", "%s%n{0}", "\\", "`", "||x||",
]  # fmt: skip
NUMBERS = [0, -1, 1, 2, 3, 24, 60, 61, 336, 337, 720, 721, 10**4, 2**31, 2**53 - 1, 2**53, 2**63]


@dataclasses.dataclass
class World:
    table: Table
    admin: Any
    onlooker: Any
    elsewhere: Any
    records: list[bytes]
    game: int = 0

    @property
    def members(self) -> list[Any]:
        return [*self.table.players, self.onlooker, self.admin]


def real_records() -> list[bytes]:
    """Records of real games of every family, finished and half-played."""
    rng = random.Random(3)
    setups = [
        Setup(players=("alice", "bob"), seed=11),
        Setup(players=("alice", "bob", "carol"), seed=12, expansions=("abbey_mayor",)),
        Setup(players=("alice", "bob"), seed=13, options={"hand": True, "farmers": "modern"}),
        Setup(players=("alice", "bob", "carol"), seed=14, game="hunters"),
        Setup(players=("alice", "bob"), seed=15, game="castle"),
    ]
    records = []
    for setup in setups:
        for stop in (9, 10_000):
            game = Game(setup)
            for _ in range(stop):
                if game.phase is Phase.OVER:
                    break
                game.play(random_action(game, rng))
            records.append(json.dumps(game.record()).encode())
    return records


async def world_of(env: simcord.Env) -> World:
    found = getattr(env, "_fuzz_world", None)
    if found is None:
        table = Table(env, players=3)
        admins = table.guild.create_role(
            "admins", permissions=discord.Permissions(manage_guild=True)
        )
        found = World(
            table=table,
            admin=table.guild.add_member(env.create_user("zoe"), roles=[admins]),
            onlooker=table.guild.add_member(env.create_user("olga")),
            elsewhere=table.guild.create_text_channel("elsewhere"),
            records=real_records(),
        )
        env._fuzz_world = found  # type: ignore[attr-defined]
    manager = found.table.bot.manager
    if not found.game or (await manager.game(found.game)).status != "active":
        found.game = await forced_game(found.table, None, expansion=None, seed=7, seated=2)
    return found


def damaged(record: bytes, how: str, rng: random.Random) -> bytes:
    """A real record, damaged the way files get damaged or forged."""
    data = json.loads(record)
    actions = data.get("actions", [])
    if how == "truncated":
        return record[: rng.randrange(len(record))]
    if how == "swapped" and len(data) >= 2:
        a, b = rng.sample(sorted(data), 2)
        data[a], data[b] = data[b], data[a]
    elif how == "reordered" and len(actions) >= 2:
        i, j = rng.sample(range(len(actions)), 2)
        actions[i], actions[j] = actions[j], actions[i]
    elif how == "number" and actions:
        action = rng.choice(actions)
        numeric = [k for k, v in action.items() if isinstance(v, int)] or ["x"]
        action[rng.choice(numeric)] = rng.choice([-(2**70), 2**64, 10**30, -1, 999, 2**31])
    elif how == "field":
        key = rng.choice(sorted(data))
        data[key] = rng.choice([None, "", [], {}, 10**40, -5, "x" * 300, [[[]]], True])
    elif how == "dropped":
        data.pop(rng.choice(sorted(data)))
    elif how == "deep":
        return b'{"actions": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    elif how == "huge":
        return record + b" " * (1024 * 1024)
    elif how == "action" and actions:
        actions[rng.randrange(len(actions))] = rng.choice(
            [{}, [], "x", {"type": "place_tile"}, {"type": "nope", "x": 1}, 7]
        )
    return json.dumps(data).encode()


def records_strategy(world: World) -> st.SearchStrategy[bytes]:
    hows = ["intact", "truncated", "swapped", "reordered", "number", "field", "dropped", "deep",
            "huge", "action"]  # fmt: skip
    return st.builds(
        lambda index, how, seed: damaged(world.records[index], how, random.Random(seed)),
        st.integers(0, len(world.records) - 1),
        st.sampled_from(hows),
        st.integers(0, 2**32),
    )


def value_strategy(param: app_commands.Parameter, world: World) -> st.SearchStrategy[Any]:
    kind = param.type
    if kind is AppCommandOptionType.boolean:
        return st.booleans()
    if kind is AppCommandOptionType.user:
        return st.sampled_from(world.members)
    if kind is AppCommandOptionType.channel:
        return st.sampled_from([world.table.channel, world.elsewhere])
    if kind is AppCommandOptionType.attachment:
        return st.tuples(st.sampled_from(["game.json", "x.txt", ""]), records_strategy(world))
    choices = [c.value for c in param.choices]
    if kind is AppCommandOptionType.integer:
        near = st.integers(-5, 1000)
        games = st.sampled_from([world.game, 1, 2, 999])
        return st.one_of(st.sampled_from(choices) if choices else near, near, games,
                         st.sampled_from(NUMBERS), st.integers(-(2**70), 2**70))  # fmt: skip
    text = st.one_of(
        st.text(max_size=20),
        st.text(st.characters(codec="utf-8"), min_size=20, max_size=200),
        st.sampled_from(TRICKY),
    )
    return st.one_of(st.sampled_from(choices), text) if choices else text


def commands(world: World) -> list[app_commands.Command[Any, ..., Any]]:
    tree = world.table.bot.tree
    found = [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]
    return sorted(found, key=lambda c: c.qualified_name)


async def stored_games(world: World) -> list[tuple[Any, ...]]:
    db = world.table.bot.manager.storage._db  # type: ignore[attr-defined]
    async with db.execute(
        "SELECT g.id, g.status, g.action_count, g.current_seat, "
        "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) FROM games g ORDER BY g.id"
    ) as cursor:
        return [tuple(row) for row in await cursor.fetchall()]


class Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def call_once(
    env: simcord.Env, world: World, data: st.DataObject, command: Any, record_file: bool
) -> None:
    table = world.table
    who = data.draw(st.sampled_from(world.members), label="who")
    CLIENT[0] = data.draw(st.sampled_from(["en-US", "fr", "de"]), label="client language")
    thread = table.thread()
    where = data.draw(st.sampled_from([thread, table.channel, world.elsewhere]), label="where")
    values: dict[str, Any] = {}
    for param in command.parameters:
        if param.required or data.draw(st.booleans()):
            values[param.display_name] = data.draw(value_strategy(param, world), param.name)
    if record_file:
        values["file"] = data.draw(st.tuples(st.just("game.json"), records_strategy(world)))
    if data.draw(st.booleans(), label="fresh cooldowns"):
        table.bot.cooldowns.clear()
    for param in command.parameters:
        if param.autocomplete and data.draw(st.booleans(), label="autocomplete"):
            typed = data.draw(st.one_of(st.text(max_size=100), st.sampled_from(TRICKY[:12])))
            filled = {k: v for k, v in values.items() if isinstance(v, str | int)}
            filled.pop(param.display_name, None)
            offered = await who.autocomplete(where, command.qualified_name, param.display_name,
                                             typed[:100], **filled)  # fmt: skip
            assert len(offered) <= 25
            TRIED["autocomplete"] += 1
    before = await stored_games(world)
    recorder = Recorder()
    root, ours = logging.getLogger(), logging.getLogger("bot")
    level = ours.level
    root.addHandler(recorder)
    ours.setLevel(logging.DEBUG)  # refusals are logged at DEBUG or INFO
    try:
        result = await who.slash(where, command.qualified_name, **values)
    finally:
        root.removeHandler(recorder)
        ours.setLevel(level)
    TRIED[command.qualified_name] += 1
    answers = ([result.response] if result.response else []) + list(result.followups)
    texts = [m.content or "" for m in answers]
    assert result.acknowledged, f"no answer to /{command.qualified_name} {values}"
    for text in texts:
        assert "Traceback" not in text, text
        for language in ("en", "fr", "de"):
            assert tr("unexpected", language) not in text, text
    errors = [r for r in recorder.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    refused = [r for r in recorder.records if "refused:" in r.getMessage()]
    if refused:
        TRIED["refused"] += 1
        assert answers and all(m.ephemeral for m in answers if m.content), texts
        assert await stored_games(world) == before, "a refusal changed a stored game"
    assert not env.errors


#: The Discord client language of the next call (refusals are told in it).
CLIENT = ["en-US"]


@pytest.fixture(autouse=True)
def bot_checks_options_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let every value through simcord, as if Discord did not check the declared bounds, and
    send each call from the client language the test chose."""
    monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda _c, _o, v: v)
    original = simcord.interactions.base_payload

    def localised(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = CLIENT[0]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", localised)


@settings(FUZZ, max_examples=EXAMPLES)
@given(data=st.data())
async def test_every_command_and_option_answers_or_refuses_privately(
    simcord_env: simcord.Env, data: st.DataObject
) -> None:
    world = await world_of(simcord_env)
    command = data.draw(st.sampled_from(commands(world)), label="command")
    await call_once(simcord_env, world, data, command, record_file=False)


@settings(FUZZ, max_examples=RECORD_EXAMPLES)
@given(data=st.data())
async def test_damaged_records_are_refused_privately_and_change_nothing(
    simcord_env: simcord.Env, data: st.DataObject
) -> None:
    world = await world_of(simcord_env)
    command = next(c for c in commands(world) if c.qualified_name == "carcassonne import")
    await call_once(simcord_env, world, data, command, record_file=True)


def test_zz_report_how_many_inputs_were_tried() -> None:
    """Printed with ``pytest -s``; runs after the two properties (file order)."""
    total = sum(v for k, v in TRIED.items() if k not in ("refused", "autocomplete"))
    by_command = dict(sorted(TRIED.items()))
    print(f"\nfuzzed slash calls: {total} ({TRIED['refused']} refused), "
          f"autocomplete: {TRIED['autocomplete']}, by command: {by_command}")  # fmt: skip
    if TRIED:
        assert total >= min(2000, EXAMPLES + RECORD_EXAMPLES)
