"""Golden test: what the bot sends, byte for byte, over fixed games of every family.

Each game of :data:`GAMES` is played through simcord (the real discord.py against an in-process
fake of Discord) from ``/carcassonne new`` through the lobby buttons to the final scores, its
tiles drawn in a forced order (saved on the lobby's row before Start) until the stack runs out.
Every decision is a seeded random choice among what the interface offers, entered one of the
ways a player can: the turn message's menu then a figure-spot button or the figure menu (another
rotation first, sometimes), ``/carcassonne place`` with its autocomplete, the wagon menu, the
end-game abbey, The Castle's wall tiles and End my turn, the tactical hand's My tiles; beside
them a computer seat from the lobby and ``/carcassonne undo``. Only The Castle's first moves
are chosen (:attr:`Golden.opening`). Each game asserts that what it is there for happened
(:attr:`Golden.expect`; between them the games cover :data:`COVERED`).

What is pinned, in order: every operation of a player, every message the bot posts, edits or
deletes (in the channel, the game's thread or privately: content, components, embeds, the
SHA-256 of each attachment's bytes with its name and size, who is pinged), every autocomplete
answer, then the game's full record and exported record. Nothing is normalised: simcord's
clock does not move during a game, so its snowflakes are the same on every run. The entries of
a game are kept in ``data/golden/<game>.json``; a difference fails the test naming the game, the
entry, the operation before it and the field. ``GOLDEN_WRITE=1 pytest tests/bot/test_golden.py``
writes them again (then read the diff). Pictures depend on Pillow's version, pinned for them.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import SETTLE, close_bots, components, make_bot

from bot.app import CarcassonneBot
from engine import Game, PlaceAbbey, Setup, action_from_json
from engine.core.events import (
    BonusTileDrawn,
    FigurePlaced,
    GoodsTaken,
    TileDiscarded,
    WagonMoved,
    WallTileUsed,
)

DATA = Path(__file__).parent / "data" / "golden"
WRITE = os.environ.get("GOLDEN_WRITE") == "1"
#: The seed of every game's record (the forced draw decides the tiles; the seed the rest).
SEED = 7
NAMES = ("alice", "bob", "carol", "dave")


@dataclass(frozen=True)
class Golden:
    """One game: its ``/carcassonne new`` options, players, forced draw, the seed of its
    decisions, and what it must show (:func:`happened`)."""

    name: str
    players: int
    draw: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    #: More of the setup saved with the draw (``bonus_draw``, ``wall_draw``).
    extra: dict[str, Any] = field(default_factory=dict)
    #: Computer seats added with the lobby's Computer players button (their levels).
    computers: tuple[str, ...] = ()
    #: Expansions chosen in the lobby's Options menu instead of ``/carcassonne new``.
    lobby_expansions: tuple[str, ...] = ()
    #: After this many decisions, the player who just moved takes it back (``/carcassonne undo``).
    undo_after: int | None = None
    #: What the game must show, events and ways of playing (see :func:`happened`).
    expect: frozenset[str] = frozenset()
    #: The first decisions chosen, not drawn at random: (menu value "x,y,rotation", the role
    #: whose spot button is pressed, or None for No figure), entered through the same menus.
    opening: tuple[tuple[str, str | None], ...] = ()


GAMES = [
    Golden(
        "base",
        players=2,
        draw="D U V E K B L J A N W",
        seed=1,
        undo_after=3,
        expect=frozenset({"menu", "place", "rotation", "undo"}),
    ),
    Golden(
        "abbey_mayor",
        players=3,
        draw="D W X V U W L AM05 V K J AM11 U",
        seed=11,
        options={"expansion": "abbey_mayor"},
        expect=frozenset({"menu", "place", "wagon", "abbey", "abbey_end"}),
    ),
    Golden(
        "inns_cathedrals",
        players=2,
        draw="D IC11 IC13 E IC01 V IC05 U IC15 K E",
        seed=1,
        computers=("easy",),
        lobby_expansions=("inns_cathedrals",),
        expect=frozenset({"menu", "computer"}),
    ),
    Golden(
        "traders_builders",
        players=2,
        draw="D U V U TB20 V U V U TB16 V U TB24 V",
        seed=34,
        options={"expansion": "traders_builders"},
        expect=frozenset({"menu", "place", "builder", "pig_or_goods"}),
    ),
    Golden(
        "river",
        players=2,
        draw="R01 R07 R04 R10 R05 R03 R02 D U E V K",
        seed=2,
        options={"expansion": "river"},
        expect=frozenset({"menu", "place"}),
    ),
    Golden(
        "all",
        players=4,
        draw="R01 R07 R02 D AM05 IC13 TB07 X W V E AM11 TB20 U",
        seed=49,
        options={"expansion": "all"},
        expect=frozenset({"menu", "place", "figure_menu", "wagon", "abbey", "abbey_end"}),
    ),
    Golden(
        "hand",
        players=3,
        draw="D U V E K B L J A N W E U",
        seed=1,
        options={"hand": True},
        expect=frozenset({"hand"}),
    ),
    Golden(
        "hunters",
        players=3,
        draw="S L34 L33 L33 L32 L31 L53 L13 L54 L07 L25 L46",
        seed=26,
        options={"game": "hunters"},
        extra={"bonus_draw": ["B01", "B04", "B07"]},
        expect=frozenset({"menu", "place", "bonus_tile"}),
    ),
    Golden(
        "castle",
        players=2,
        draw="K02 K22 K07 K08 K07 K17 K09 K26 K01 K30 K40 K45 K27 K21",
        seed=16,
        options={"game": "castle"},
        extra={"wall_draw": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]},
        # Random play almost never stops a marker on a tower in a short game: Alice's knights
        # on two towers that close at once (4 points, then 8) take wall tile 1 on 12.
        opening=(
            ("5,0,0", "knight"),
            ("0,5,90", None),
            ("4,0,180", "knight"),
            ("3,0,90", None),
            ("3,1,0", None),
            ("4,1,270", None),
        ),
        expect=frozenset({"menu", "place", "wall", "wall_tile", "end_turn", "figure_button"}),
    ),
]


#: What the games must show between them: every way of playing, every expansion's event.
COVERED = frozenset(
    {
        "menu",
        "rotation",
        "figure_menu",
        "figure_button",
        "place",
        "wagon",
        "abbey",
        "abbey_end",
        "wall",
        "wall_tile",
        "end_turn",
        "hand",
        "computer",
        "undo",
        "builder",
        "pig_or_goods",
        "bonus_tile",
    }
)


# -- what the bot sends -------------------------------------------------------------------------


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Recorder:
    """Every message the bot posts, edits or deletes, in order, as plain data: the backend's
    own message operations are wrapped, so nothing the bot sends escapes (ephemeral replies,
    deferred replies and the messages deleted included)."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.entries: list[dict[str, Any]] = []
        self.numbers: dict[int, int] = {}
        backend = env.backend
        commit, edit, delete = backend.commit_message, backend.edit_message, backend.delete_message
        bot_id = backend.bot_user.id

        def committed(message: Any, *, broadcast: bool = True) -> Any:
            stored = commit(message, broadcast=broadcast)
            if stored.author_id == bot_id:
                self.shot("post", stored)
            return stored

        def edited(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
            stored = edit(channel_id, message_id, fields)
            if stored.author_id == bot_id:
                self.shot("edit", stored)
            return stored

        def deleted(channel_id: int, message_id: int) -> None:
            stored = backend.get_message(channel_id, message_id)
            delete(channel_id, message_id)
            if stored.author_id == bot_id:
                self.entries.append({"delete": self.number(message_id)})

        backend.commit_message = committed  # type: ignore[method-assign]
        backend.edit_message = edited  # type: ignore[method-assign]
        backend.delete_message = deleted  # type: ignore[method-assign]

    def number(self, message_id: int) -> str:
        """A message by its order of first appearance (m1, m2...), never by its snowflake."""
        return f"m{self.numbers.setdefault(message_id, len(self.numbers) + 1)}"

    def user(self, user_id: int) -> str:
        found = self.env.backend.users.get(user_id)
        return found.name if found is not None else str(user_id)

    def place(self, channel_id: int) -> str:
        channel = self.env.backend.get_channel(channel_id)
        if channel.is_thread:
            return f"thread {channel.name}"
        return f"#{channel.name}" if channel.name else "dm"

    def shot(self, what: str, message: Any) -> None:
        cdn = self.env.backend.cdn
        entry: dict[str, Any] = {
            what: self.number(message.id),
            "in": self.place(message.channel_id),
        }
        if message.is_ephemeral:
            user = ((message.interaction_metadata or {}).get("user") or {}).get("id")
            entry["to"] = self.user(int(user)) if user is not None else "?"
        entry["flags"] = message.flags
        entry["content"] = message.content.split("\n")  # lines: a diff shows the one changed
        if message.embeds:
            entry["embeds"] = message.embeds
        if message.components:
            entry["components"] = message.components
        files = []
        for attachment in message.attachments:
            data = cdn.get(attachment["url"])
            assert data is not None
            files.append(
                {
                    "name": attachment["filename"],
                    "size": attachment["size"],
                    "sha256": digest(data),
                    "description": attachment.get("description"),
                }
            )
        if files:
            entry["files"] = files
        if message.ping_user_ids:
            entry["pings"] = sorted(self.user(u) for u in message.ping_user_ids)
        self.entries.append(plain(entry))


def plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value, sort_keys=True, ensure_ascii=False))


# -- the players' side ---------------------------------------------------------------------------


def ids(message: Any, prefix: str) -> list[str]:
    found = [c.get("custom_id", "") for c in components(message)]
    return [i for i in found if i.startswith(prefix)]


def menus(message: Any, prefix: str) -> list[tuple[str, str]]:
    """(menu id, value) of every option of the menus whose id starts with ``prefix``."""
    return [
        (c["custom_id"], o["value"])
        for c in components(message)
        if c.get("custom_id", "").startswith(prefix)
        for o in c.get("options", [])
    ]


def enabled(message: Any, prefix: str) -> list[str]:
    return [
        c["custom_id"]
        for c in components(message)
        if c.get("custom_id", "").startswith(prefix) and not c.get("disabled")
    ]


def reply(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The private message an interaction opened (its deferred reply, or a follow-up)."""
    message = result.followups[-1] if result.followups else result.response
    assert message is not None, "the interaction opened nothing"
    return message


class Session:
    """One game at its table: the players' operations, each recorded before it runs."""

    def __init__(self, env: simcord.Env, golden: Golden) -> None:
        self.env = env
        self.golden = golden
        self.record = Recorder(env)
        self.rng = random.Random(golden.seed)
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("games")
        self.people = [self.guild.add_member(env.create_user(n)) for n in NAMES[: golden.players]]
        self.game_id = 0
        self.decisions = 0
        self.ways: set[str] = set()

    @property
    def bot(self) -> CarcassonneBot:
        assert isinstance(self.env.bot, CarcassonneBot)
        return self.env.bot

    def note(self, actor: simcord.MemberActor, what: str, target: str, **more: Any) -> None:
        self.record.entries.append(plain({"by": actor.name, what: target, **more}))

    async def settled(self) -> None:
        """Computer seats play as soon as their turn comes: wait until they have."""
        if self.bot.computer_turns is not None:
            await self.bot.computer_turns.idle()

    async def click(
        self, actor: simcord.MemberActor, message: Any, custom_id: str
    ) -> simcord.InteractionResult:
        self.note(actor, "click", custom_id, on=self.record.number(message.id))
        result = await actor.click(message, custom_id=custom_id)
        await self.settled()
        return result

    async def select(
        self, actor: simcord.MemberActor, message: Any, custom_id: str, values: list[str]
    ) -> simcord.InteractionResult:
        self.note(actor, "select", custom_id, on=self.record.number(message.id), values=values)
        result = await actor.select(message, values, custom_id=custom_id)
        await self.settled()
        return result

    async def slash(
        self, actor: simcord.MemberActor, channel: Any, name: str, **options: Any
    ) -> None:
        self.note(actor, "slash", name, options=options)
        await actor.slash(channel, name, **options)
        await self.settled()

    async def autocomplete(
        self, actor: simcord.MemberActor, option: str, **filled: Any
    ) -> list[dict[str, Any]]:
        thread = self.thread()
        self.note(actor, "autocomplete", option, filled=filled)
        choices = await actor.autocomplete(thread, "carcassonne place", option, "", **filled)
        self.record.entries.append(plain({"choices": choices}))
        return choices

    def thread(self) -> Any:
        return self.channel.threads[-1]

    def fresh(self, message: Any) -> simcord.ResponseMessage:
        """A message as it is now."""
        channel = message.channel.id if isinstance(message, discord.Message) else message.channel_id
        stored = self.env.backend.get_message(channel, message.id)
        return simcord.ResponseMessage(self.env, stored)

    async def turn_message(self) -> simcord.ResponseMessage:
        row = await self.bot.manager.game(self.game_id)
        assert row.thread_id is not None and row.message_id is not None
        stored = self.env.backend.get_message(row.thread_id, row.message_id)
        return simcord.ResponseMessage(self.env, stored)

    async def live_step(self, actor: simcord.MemberActor) -> simcord.ResponseMessage:
        """The player's one live placement step (the private message, as last edited)."""
        shown = self.bot.steps[(self.game_id, actor.id)]
        shown[0]._original_response = None  # discord.py caches it: read it as it is now
        message = await shown[0].original_response()
        return self.fresh(message)

    # -- the lobby ---------------------------------------------------------------------------

    async def open(self) -> None:
        golden, owner = self.golden, self.people[0]
        await self.slash(owner, self.channel, "carcassonne new", **golden.options)
        lobby = self.channel.last_message
        assert lobby is not None
        found = re.search(r"\d+", lobby.embeds[0].title or "")
        assert found is not None
        self.game_id = gid = int(found[0])
        for person in self.people[1:]:
            await self.click(person, lobby, f"cc:lobby:{gid}:join")
        if golden.lobby_expansions:
            shown = reply(await self.click(owner, lobby, f"cc:lobby:{gid}:options"))
            menu = f"cc:lopt:{gid}:expansions"
            await self.select(owner, shown, menu, list(golden.lobby_expansions))
        if golden.computers:
            shown = reply(await self.click(owner, lobby, f"cc:lobby:{gid}:computer"))
            for level in golden.computers:
                await self.select(owner, self.fresh(shown), f"cc:lopt:{gid}:computer_add", [level])
        manager = self.bot.manager
        row = await manager.game(gid)
        extra = {"draw": golden.draw.split(), **golden.extra}
        await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
        manager.seeds = lambda: SEED
        await self.click(owner, self.fresh(lobby), f"cc:lobby:{gid}:start")

    # -- a decision --------------------------------------------------------------------------

    async def decide(self, actor: simcord.MemberActor) -> None:
        """Answer the decision the turn message asks for with a random complete move."""
        rng = self.rng
        prompt = await self.turn_message()
        hand = ids(prompt, "cc:hand:")
        if hand:  # the tactical hand: My tiles first, then its menus
            self.ways.add("hand")
            prompt = reply(await self.click(actor, prompt, hand[0]))
        puts = menus(prompt, "cc:put:")
        # The Castle's wall tiles: a button for a single one, else a menu entry per tile.
        walls = ids(prompt, "cc:wall:") + [m for m, _ in menus(prompt, "cc:wsel:")][:1]
        if self.decisions < len(self.golden.opening):
            await self.chosen(actor, prompt, *self.golden.opening[self.decisions])
            return
        if puts:
            # No typed command where a computer plays next: its turn would be posted while the
            # command still answers its player (an order that is not the bot's to keep).
            ways = ["menu", "menu"] + ["place"] * (not hand and not self.golden.computers)
            way = rng.choice(ways + ["wall"] * bool(walls))
            if way == "place":
                await self.typed(actor)
            elif way == "wall":
                await self.wall(actor, prompt, walls[0])
            else:
                menu, value = rng.choice(puts)
                self.ways.add("menu")
                await self.select(actor, prompt, menu, [value])
                await self.figure_step(actor, await self.live_step(actor))
            return
        wagons = menus(prompt, "cc:wag:")
        if wagons:
            self.ways.add("wagon")
            menu, value = rng.choice(wagons)
            chosen = reply(await self.select(actor, prompt, menu, [value]))
            await self.click(actor, chosen, ids(chosen, "cc:ok:")[0])
            return
        holes = menus(prompt, "cc:hole:")
        if holes:  # the abbey after the last tile, or No abbey
            self.ways.add("abbey_end")
            choices: list[tuple[str, str | None]] = [(m, v) for m, v in holes]
            choices += [(i, None) for i in ids(prompt, "cc:ok:")]
            menu, hole = rng.choice(choices)
            if hole is None:
                await self.click(actor, prompt, menu)
            else:
                await self.select(actor, prompt, menu, [hole])
                await self.figure_step(actor, await self.live_step(actor))
            return
        # The Castle's turn kept open: a subject, a wall tile, or End my turn.
        options = ids(prompt, "cc:fig:") + walls + ids(prompt, "cc:wend:")
        assert options, f"no decision to answer in {prompt.content!r}"
        chosen_id = rng.choice(options)
        if chosen_id.startswith("cc:fig:"):
            self.ways.add("figure_button")
            await self.click(actor, prompt, chosen_id)
            await self.figure_step(actor, await self.live_step(actor))
        elif chosen_id.startswith(("cc:wall:", "cc:wsel:")):
            await self.wall(actor, prompt, chosen_id)
        else:
            self.ways.add("end_turn")
            await self.click(actor, prompt, chosen_id)

    async def chosen(
        self, actor: simcord.MemberActor, prompt: Any, value: str, role: str | None
    ) -> None:
        """A decision of the opening: the menu entry ``value``, then the spot button of
        ``role`` (or No figure)."""
        menu = next(m for m, v in menus(prompt, "cc:put:") if v == value)
        await self.select(actor, prompt, menu, [value])
        step = await self.live_step(actor)
        buttons = {c.get("label", ""): c["custom_id"] for c in components(step) if "custom_id" in c}
        if role is None:
            target = next(i for i in buttons.values() if i.endswith(":none"))
        else:
            target = next(i for label, i in buttons.items() if f" {role} " in f" {label} ")
        await self.click(actor, step, target)

    async def figure_step(self, actor: simcord.MemberActor, step: Any) -> None:
        """The private placement step: maybe another rotation first, then a figure spot (a
        button or the figure menu) or No figure."""
        rng = self.rng
        turns = [
            c["custom_id"]
            for c in components(step)
            if c.get("custom_id", "").startswith("cc:pl:")
            and c.get("style") != 1
            and not re.search(r":p\d+$", c["custom_id"])  # a page of places, not a rotation
        ]
        if turns and rng.random() < 0.3:
            self.ways.add("rotation")
            await self.click(actor, step, rng.choice(turns))
            step = self.fresh(step)
        choices: list[tuple[str, str | None]] = [(i, None) for i in ids(step, "cc:ok:")]
        choices += [(m, v) for m, v in menus(step, "cc:fs:")]
        target, value = rng.choice(choices)
        if value is None:
            await self.click(actor, step, target)
        else:
            self.ways.add("figure_menu")
            await self.select(actor, step, target, [value])

    async def typed(self, actor: simcord.MemberActor) -> None:
        """``/carcassonne place``, each option picked among its autocomplete's choices."""
        self.ways.add("place")
        rng = self.rng
        cell = rng.choice(await self.autocomplete(actor, "cell"))["value"]
        options: dict[str, Any] = {"cell": cell}
        rotations = await self.autocomplete(actor, "rotation", cell=cell)
        if rotations:
            options["rotation"] = rng.choice(rotations)["value"]
        figures = await self.autocomplete(actor, "figure", **options)
        options["figure"] = rng.choice(figures)["value"]
        await self.slash(actor, self.thread(), "carcassonne place", **options)

    async def wall(self, actor: simcord.MemberActor, prompt: Any, control: str) -> None:
        """The Castle's wall tiles: one of those offered (the button of a single one, or an
        entry of their menu), then Confirm."""
        self.ways.add("wall")
        offered: list[tuple[str, str | None]] = [(i, None) for i in ids(prompt, "cc:wall:")]
        offered += menus(prompt, "cc:wsel:")
        control, value = self.rng.choice(offered)
        if value is not None:
            step = reply(await self.select(actor, prompt, control, [value]))
        else:
            step = reply(await self.click(actor, prompt, control))
        await self.click(actor, step, enabled(step, "cc:wok:")[0])

    # -- the whole game ----------------------------------------------------------------------

    async def play(self) -> None:
        await self.open()
        manager = self.bot.manager
        for _ in range(500):
            view = await manager.decision(self.game_id)
            if view.finished:
                break
            actor = next(p for p in self.people if p.id == view.user_id)
            await self.decide(actor)
            self.decisions += 1
            if self.decisions == self.golden.undo_after:
                self.ways.add("undo")
                await self.slash(actor, self.thread(), "carcassonne undo")
        else:
            raise AssertionError(f"game {self.golden.name} did not end")
        full = await manager.records.full_record(self.game_id)
        exported = await manager.records.export_record(self.game_id)
        self.record.entries.append(plain({"full_record": full}))
        self.record.entries.append(plain({"export_record": exported}))


async def play(golden: Golden, folder: Path) -> Session:
    """Play ``golden`` on a fresh bot and database; its session (entries, ways of playing)."""
    bot = make_bot(folder / "golden.sqlite3")
    try:
        async with simcord.run(bot, check_errors=True, settle_timeout=SETTLE) as env:
            session = Session(env, golden)
            await session.play()
    finally:
        await close_bots()
    return session


# -- what must happen ----------------------------------------------------------------------------


def happened(record: dict[str, Any]) -> set[str]:
    """What a finished game's record shows, replayed by the engine: ``wagon`` (a wagon moved),
    ``abbey`` (an abbey placed), ``builder`` (a builder's second tile), ``pig_or_goods``,
    ``bonus_tile`` (Hunters & Gatherers), ``wall_tile`` (The Castle), ``abbey_end`` (the
    end-game abbey asked for), ``computer`` (a computer seat), ``discard`` (a drawn tile fit
    nowhere)."""
    game = Game(Setup.from_json(record))
    seen = {"computer"} if record.get("computer") else set()
    for raw in record["actions"]:
        action = action_from_json(raw)
        if isinstance(action, PlaceAbbey):
            seen.add("abbey")
        for event in game.play(action):
            if isinstance(event, WagonMoved):
                seen.add("wagon")
            elif isinstance(event, GoodsTaken) or (
                isinstance(event, FigurePlaced) and event.figure == "pig"
            ):
                seen.add("pig_or_goods")
            elif isinstance(event, BonusTileDrawn):
                seen.add("bonus_tile")
            elif isinstance(event, WallTileUsed):
                seen.add("wall_tile")
            elif isinstance(event, TileDiscarded):
                seen.add("discard")
        if game.bonus_reason() == "builder":
            seen.add("builder")
        if game.decision.phase.value == "abbey_end":
            seen.add("abbey_end")
    assert game.finished, "the record does not end the game"
    return seen


# -- the comparison ------------------------------------------------------------------------------


def where(entries: list[dict[str, Any]], index: int) -> str:
    """An entry and the player's operation it followed, for the failure message."""
    entry = entries[index]
    kind = next((k for k in ("post", "edit", "delete") if k in entry), None)
    named = f"entry {index}"
    if kind is not None:
        named += f" ({kind} {entry[kind]} in {entry.get('in')}"
        named += f", to {entry['to']})" if "to" in entry else ")"
    for back in range(index, -1, -1):
        if "by" in entries[back]:
            operation = json.dumps(entries[back], ensure_ascii=False, sort_keys=True)
            return f"{named}, after entry {back}: {operation}"
    return named


def texts(value: Any) -> list[str] | None:
    """A text as its lines (a message's content is kept as its lines); None if not a text."""
    if isinstance(value, str):
        return value.splitlines()
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value
    return None


MISSING = "(missing)"


def first_difference(old: Any, new: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first field where ``old`` and ``new`` differ: its path (``components[0].label``)
    and both values; None if they are equal."""
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new), key=lambda k: (k not in old or k not in new, k)):
            if key not in old or key not in new:
                return f"{path}.{key}", old.get(key, MISSING), new.get(key, MISSING)
            found = first_difference(old[key], new[key], f"{path}.{key}")
            if found is not None:
                return found
    if (
        isinstance(old, list)
        and isinstance(new, list)
        and len(old) == len(new)
        and (texts(old) is None or texts(new) is None)
    ):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found is not None:
                return found
    return path, old, new


def shown_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)[:2000]


def difference(name: str, want: list[dict[str, Any]], got: list[dict[str, Any]]) -> str | None:
    """The first entry that differs, named by game, entry, field and operation; or None."""
    for index, (old, new) in enumerate(zip(want, got, strict=False)):
        found = first_difference(old, new, "")
        if found is None:
            continue
        path, before, after = found
        lines = [f"game {name!r}, {where(got, index)}", f"field {path.lstrip('.')!r} differs:"]
        old_text, new_text = texts(before), texts(after)
        if old_text is not None and new_text is not None:
            lines += difflib.unified_diff(old_text, new_text, "golden", "now", lineterm="")
        else:
            lines += [f"golden: {shown_json(before)}", f"now:    {shown_json(after)}"]
        return "\n".join(lines)
    if len(want) != len(got):
        longer = got if len(got) > len(want) else want
        return (
            f"game {name!r}: {len(got)} entries now, {len(want)} in the golden file; the first "
            f"entry past the shorter: {shown_json(longer[min(len(want), len(got))])}"
        )
    return None


#: The golden files' line width: what fits stays on one line (a component, a menu option).
WIDTH = 120


def dump(value: Any, indent: int = 0) -> str:
    """``value`` as JSON, keys sorted, each part on one line when it fits in :data:`WIDTH`
    (so a diff names the option or the line of text that changed)."""
    flat = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if indent + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        parts = [
            f"{pad}{json.dumps(key, ensure_ascii=False)}: {dump(value[key], indent + 1)}"
            for key in sorted(value)
        ]
        return "{\n" + ",\n".join(parts) + "\n" + " " * indent + "}"
    parts = [pad + dump(item, indent + 1) for item in value]
    return "[\n" + ",\n".join(parts) + "\n" + " " * indent + "]"


def test_the_games_cover_every_way_of_playing() -> None:
    assert frozenset().union(*(g.expect for g in GAMES)) >= COVERED


@pytest.mark.parametrize("golden", GAMES, ids=[g.name for g in GAMES])
async def test_the_bot_sends_what_it_sent(golden: Golden, tmp_path: Path) -> None:
    session = await play(golden, tmp_path)
    entries = session.record.entries
    record = entries[-1]["export_record"]
    assert record == entries[-2]["full_record"], "a finished game exports its whole record"
    shown = happened(record) | session.ways
    assert "discard" not in shown, f"{golden.name}: a forced tile fit nowhere"
    missing = golden.expect - shown
    assert not missing, f"{golden.name}: never happened: {sorted(missing)}"
    path = DATA / f"{golden.name}.json"
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(entries) + "\n", encoding="utf-8")
        return
    assert path.exists(), f"no golden file for {golden.name}: run with GOLDEN_WRITE=1"
    want = json.loads(path.read_text(encoding="utf-8"))
    found = difference(golden.name, want, entries)
    if found is not None:
        pytest.fail(found + "\n(if the change is meant, run again with GOLDEN_WRITE=1)", False)
