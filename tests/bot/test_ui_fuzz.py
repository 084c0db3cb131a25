"""Any value in any option of any slash command: success, or a private refusal naming the problem.

Hypothesis draws a command of the bot's own tree, a member (player, onlooker, admin), a place
(the game's thread, the games channel, another channel) and a value for each option from its
declared type: valid choices, text of every kind and length, numbers far outside the declared
ranges (simcord's own option checks are switched off, so the bot's server-side checks are what
answers), channels, members, and record files made from real games and then damaged. Options
that suggest values are typed into too. For every call:

- the interaction is answered, never with "Something went wrong", and nothing logs an ERROR;
- a refusal (the central error handler's) is private and changes no stored game.

A third property types Unicode into every text option of every command, on an Abbey & Mayor
game whose player may play the abbey into a hole: digits of other scripts (full-width,
Arabic-Indic, superscripts: ``str.isdigit`` takes them, ``int`` refuses some), letters of any
script, control, format and direction characters, mixed into squares, spot numbers, dates and
points lists; integer options take their usual values.

The numbers of inputs tried are printed (``pytest -s``); ``CARCASSONNE_FUZZ``,
``CARCASSONNE_FUZZ_RECORDS`` and ``CARCASSONNE_FUZZ_UNICODE`` set how many examples each test
runs (more in a long local run), ``CARCASSONNE_FUZZ_RANDOM=1`` draws new inputs instead of CI's
fixed ones.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import Table, simcord_bot
from discord import app_commands
from discord.enums import AppCommandOptionType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ui_scenes import abbey_scene, forced_game

from bot.ui.texts import tr
from engine import Game, Phase, Setup
from engine.cli import random_action

__all__ = ["simcord_bot"]

EXAMPLES = int(os.environ.get("CARCASSONNE_FUZZ", "1600"))
RECORD_EXAMPLES = int(os.environ.get("CARCASSONNE_FUZZ_RECORDS", "500"))
UNICODE_EXAMPLES = int(os.environ.get("CARCASSONNE_FUZZ_UNICODE", "12"))
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

#: Digits that are not ASCII: superscripts and fractions (``str.isdigit`` takes "²", ``int``
#: does not), full-width, Arabic-Indic, Devanagari and mathematical ones (``int`` reads them).
FOREIGN_DIGITS = "²³¹⁰₁½\uff10\uff11\uff12\uff13\u0660\u0661\u0663\u0966\u0967\U0001d7ce\U0001d7cf"
#: Characters that hide, reorder or break text: NUL and other controls, zero-width and
#: direction marks and overrides, a byte order mark, a line separator.
HIDDEN = "\x00\x07\x1b\t\n\r\u200b\u200d\u200e\u202e\u2066\ufeff\u2028\x85"
UNICODE_TRICKY = [
    "²", "\uff11", "\u0663", "1²", "1,²", "\uff11,\uff10", "-\u0661,\u0660", "0,\uff10",
    "\uff12\uff10\uff12\uff16-01-01", "2026-0\u0661-01", "2026-1-1", "3,1,²",
    "\uff13,\uff11,\uff10",
    "F abbey", "F \u26ea", "f Abtei", "A abbaye", "Z abbey", "F abbey abbey", "\u26ea", "abbey",
    "F", "A", "ß", "\ufb00", "\u0130", "Ǆ", "\u00c5", "A\u030a", "\u202eA", "A\u200b",
    "\x00", "1\x00", "\u202e1,0", "none\u200b", "1 hut", "follower.C", "wagon.C",
]  # fmt: skip
#: One character that a number, a square or a name may be made of.
UNICODE_CHAR = st.one_of(
    st.sampled_from(FOREIGN_DIGITS + HIDDEN + "0123456789,-. "),
    st.characters(categories=("Nd", "No", "Nl", "L", "M", "Cc", "Cf", "Zs"), codec="utf-8"),
)
#: A piece of a square, a spot number or a date: foreign and ASCII digits mixed.
NUMBERISH = st.text(st.sampled_from(FOREIGN_DIGITS + "0123456789-"), min_size=1, max_size=4)
UNICODE_TEXT = st.one_of(
    st.sampled_from(UNICODE_TRICKY),
    st.text(UNICODE_CHAR, max_size=12),
    st.text(UNICODE_CHAR, min_size=13, max_size=60),
    st.builds(lambda x, y: f"{x},{y}", NUMBERISH, NUMBERISH),
    st.builds(lambda y, m, d: f"{y}-{m}-{d}", NUMBERISH, NUMBERISH, NUMBERISH),
    st.lists(NUMBERISH, min_size=1, max_size=5).map(",".join),
    st.builds(lambda letter, word: f"{letter} {word}", st.sampled_from("ABCDEFGHIJK"),
              st.sampled_from(["abbey", "abbaye", "Abtei", "\u26ea", "ABBEY", "abbey\u200b"])),
)  # fmt: skip


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
    db = world.table.bot.manager.storage.engine._conn  # type: ignore[attr-defined]
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


#: A property's own values for some options (None: the option's values by its declared type).
Values = Callable[[app_commands.Parameter, World], st.SearchStrategy[Any] | None]


async def call_once(
    env: simcord.Env,
    world: World,
    data: st.DataObject,
    command: Any,
    record_file: bool,
    *,
    values_for: Values | None = None,
    typing: st.SearchStrategy[str] | None = None,
    who: Any = None,
    where: Any = None,
    given: str | None = None,
) -> None:
    """Call ``command`` with drawn values (``values_for`` first, then by type; the option
    named ``given`` always, the other optional ones or not), by ``who`` in ``where`` or drawn
    ones, after typing into its suggesting options (``typing``)."""
    table = world.table
    if who is None:
        who = data.draw(st.sampled_from(world.members), label="who")
    CLIENT[0] = data.draw(st.sampled_from(["en-US", "fr", "de"]), label="client language")
    thread = table.thread()
    if where is None:
        places = [thread, table.channel, world.elsewhere]
        where = data.draw(st.sampled_from(places), label="where")
    values: dict[str, Any] = {}
    for param in command.parameters:
        if param.required or param.name == given or data.draw(st.booleans()):
            own = values_for(param, world) if values_for is not None else None
            value = own if own is not None else value_strategy(param, world)
            values[param.display_name] = data.draw(value, param.name)
    if record_file:
        values["file"] = data.draw(st.tuples(st.just("game.json"), records_strategy(world)))
    if data.draw(st.booleans(), label="fresh cooldowns"):
        table.bot.cooldowns.clear()
    if typing is None:
        typing = st.one_of(st.text(max_size=100), st.sampled_from(TRICKY[:12]))
    recorder = Recorder()
    root, ours = logging.getLogger(), logging.getLogger("bot")
    level = ours.level
    root.addHandler(recorder)  # discord.py logs an autocomplete that fails at ERROR
    ours.setLevel(logging.DEBUG)  # refusals are logged at DEBUG or INFO
    try:
        for param in command.parameters:
            if param.autocomplete and data.draw(st.booleans(), label="autocomplete"):
                typed = data.draw(typing, label="typed")
                filled = {k: v for k, v in values.items() if isinstance(v, str | int)}
                filled.pop(param.display_name, None)
                name = command.qualified_name
                offered = await who.autocomplete(
                    where, name, param.display_name, typed[:100], **filled
                )
                assert len(offered) <= 25
                TRIED["autocomplete"] += 1
        before = await stored_games(world)
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


async def abbey_world(env: simcord.Env) -> World:
    """A server with a league (alice and bob are members) and a game that waits for alice's
    tile while she may play her abbey into hole F instead (her tile does not fit there), set
    again whenever a call played that turn."""
    found = getattr(env, "_unicode_world", None)
    if found is None:
        table = Table(env)
        admins = table.guild.create_role(
            "admins", permissions=discord.Permissions(manage_guild=True)
        )
        found = World(
            table=table,
            admin=table.guild.add_member(env.create_user("zoe"), roles=[admins]),
            onlooker=table.guild.add_member(env.create_user("olga")),
            elsewhere=table.guild.create_text_channel("elsewhere"),
            records=real_records()[:2],
        )
        manager = table.bot.manager
        league = await manager.leagues.create_league(
            table.guild.id, table.channel.id, found.admin.id, LEAGUE, admin=True
        )
        for player in table.players:
            await manager.leagues.join_league(league.id, player.id, player.name)
        env._unicode_world = found  # type: ignore[attr-defined]
    manager = found.table.bot.manager
    if not found.game or (await manager.decision(found.game)).turn != SCENE_TURN:
        found.game = await abbey_scene(found.table, "E")
        view = await manager.decision(found.game)
        assert (view.turn, view.phase) == (SCENE_TURN, "tile")
    return found


#: The turn of :func:`abbey_scene`'s position (eight tiles are down), and the league's name.
SCENE_TURN = 8
LEAGUE = "Spring cup"

#: Values each text option would take if typed right: squares of the scene (F is the hole,
#: C takes the tile one way only), spot numbers, dates, points, names, a reason.
RIGHT: dict[str, list[str]] = {
    "cell": ["C", "F", "F abbey", "F", "0,1", "A"],
    "figure": ["1", "2", "none", "follower.C"],
    "points": ["3,1,0", "5,2,1,0"],
    "starts": ["2030-01-01"],
    "ends": ["2030-02-01"],
    "next_ends": ["2030-03-01"],
    "league": [LEAGUE],
    "reason": ["a wrong rule"],
}


@st.composite
def mixed(draw: st.DrawFn, right: list[str]) -> str:
    """A value typed right with Unicode mixed in: a character swapped for a foreign digit, a
    letter of another script or a hidden character, or one added."""
    text = draw(st.sampled_from(right))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        odd = draw(UNICODE_CHAR)
        replace = draw(st.booleans()) and at < len(text)
        text = text[:at] + odd + text[at + 1 if replace else at :]
    return text


def right_value(param: app_commands.Parameter, world: World) -> st.SearchStrategy[Any] | None:
    """A value given right: one of the choices, the scene's game, the smallest number allowed
    (a rotation that may fit), text typed right (a league's name new each time; the cell C,
    on which the tile lies one way only, so that the rotation may be left out)."""
    if param.choices:
        return st.sampled_from([c.value for c in param.choices])
    if param.name == "game":
        return st.just(world.game)
    if param.name == "rotation":
        return st.sampled_from([0, 90, 180, 270])
    if param.type is AppCommandOptionType.integer:
        return st.just(param.min_value if param.min_value is not None else 1)
    if param.name == "name":
        return st.integers(1, 10**6).map(lambda n: f"Cup {n}")
    if param.name == "cell":
        return st.just("C")
    if param.type is AppCommandOptionType.string:
        return st.sampled_from(RIGHT.get(param.name, ["x"]))
    return None


#: Values tried first in an option (Hypothesis starts from the first of a list): the hole's
#: letter, and numbers in digits that ``str.isdigit`` takes and ``int`` refuses or reads.
FIRST: dict[str, list[str]] = {
    "cell": ["F", "F abbey", "\uff11,\uff10", "0,²"],
    "figure": ["²", "\uff11", "1\u0663"],
    "points": ["3,1,²", "\uff13,\uff11,\uff10"],
    "starts": ["\uff12\uff10\uff13\uff10-01-01"],
    "ends": ["2030-0²-01"],
    "next_ends": ["2030-\u0660\u0663-01"],
    "name": ["Cup\u202e²", "**Cup**\x00"],
    "league": [f"{LEAGUE}\u200b", "\u202eSpring"],
    "reason": ["\x00\u202e**why** <@1> @everyone"],
}


def unicode_value(param: app_commands.Parameter) -> st.SearchStrategy[str]:
    """Unicode for one option: the values to try first, typed right with Unicode mixed in,
    Unicode text, or typed right (so that each value a parser reads is tried)."""
    right = [str(c.value) for c in param.choices] or RIGHT.get(param.name, ["Cup"])
    first = FIRST.get(param.name, [])
    return st.one_of(st.sampled_from(first + right), mixed(right), UNICODE_TEXT)


def text_options(world: World) -> list[tuple[Any, app_commands.Parameter]]:
    """Every text option of every command."""
    return [
        (command, param)
        for command in commands(world)
        for param in command.parameters
        if param.type is AppCommandOptionType.string
    ]


@settings(FUZZ, max_examples=UNICODE_EXAMPLES)
@given(data=st.data())
async def test_unicode_digits_letters_and_controls_in_every_option_are_answered(
    simcord_env: simcord.Env, data: st.DataObject
) -> None:
    """Every text option of every command in turn gets Unicode while the command's other
    options are given right, by the member its parser answers (alice plays, zoe runs the
    league) or anyone, in the game's thread."""
    world = await abbey_world(simcord_env)
    for command, target in text_options(world):
        world = await abbey_world(simcord_env)  # the scene again if a call played its turn
        carcassonne = command.qualified_name.startswith("carcassonne")
        actor = world.table.players[0] if carcassonne else world.admin
        who = data.draw(st.sampled_from([actor, actor, actor, *world.members]), label="who")

        def values_for(
            param: app_commands.Parameter, world: World, target: Any = target
        ) -> st.SearchStrategy[Any] | None:
            if param.name == target.name:
                return unicode_value(param)
            return right_value(param, world)

        typing = st.one_of(UNICODE_TEXT, mixed(RIGHT["cell"]))
        row = await world.table.bot.manager.game(world.game)
        thread = next(t for t in world.table.channel.threads if t.id == row.thread_id)
        await call_once(simcord_env, world, data, command, False, values_for=values_for,
                        typing=typing, who=who, where=thread, given=target.name)  # fmt: skip
        TRIED["unicode"] += 1


def test_zz_report_how_many_inputs_were_tried() -> None:
    """Printed with ``pytest -s``; runs after the two properties (file order)."""
    total = sum(v for k, v in TRIED.items() if k not in ("refused", "autocomplete", "unicode"))
    by_command = dict(sorted(TRIED.items()))
    print(f"\nfuzzed slash calls: {total} ({TRIED['refused']} refused), "
          f"autocomplete: {TRIED['autocomplete']}, by command: {by_command}")  # fmt: skip
    if TRIED:
        assert total >= min(2000, EXAMPLES + RECORD_EXAMPLES)
        assert TRIED["unicode"] >= 30 * min(10, UNICODE_EXAMPLES)
