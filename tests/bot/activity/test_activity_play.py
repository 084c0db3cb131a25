"""Playing on the live board against the real manager: whole games of every family and expansion
played through ``try`` and ``play`` messages alone, each player choosing at random among what
their ``you`` offers; stale, foreign and illegal plays refused; undo and resign; every act
announced once."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_activity_server import ALICE, BOB, CAROL, CHANNEL, GUILD, Site, Socket, site

from bot.activity.acts import BoardAct
from bot.manager import GameManager
from bot.outcomes import MoveResult, UndoResult

__all__ = ["site"]  # the fixture, shared with the server's tests


@dataclass(frozen=True)
class Case:
    name: str
    draw: str
    game: str | None = None
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    #: What the game must show and take (see :func:`seen_in`), and the seed of the choices
    #: that make it do so.
    expect: frozenset[str] = frozenset()
    rng: int = 0


CASES = [
    Case("base", "D U V E K B L J A N W", expect=frozenset({"figure:follower"})),
    Case(
        "abbey_mayor_hand",
        "D W X V U W L AM05 V K J AM11 U",
        expansions=("abbey_mayor",),
        options={"hand": True},
        expect=frozenset(
            {"hand", "holes", "abbey", "wagon", "pass", "figure:mayor", "figure:barn"}
        ),
    ),
    Case(
        "inns_traders",
        "D U V TB20 IC11 IC13 E TB16 IC01 V U TB24 V IC05",
        expansions=("inns_cathedrals", "traders_builders"),
        expect=frozenset(
            {"bonus_builder", "figure:builder", "figure:large_follower", "figure:pig"}
        ),
        rng=35,
    ),
    Case(
        "river",
        "R01 R07 R04 R10 R05 R03 R02 D U E V K",
        expansions=("river",),
        expect=frozenset({"figure:follower"}),
    ),
    Case(
        "hunters",
        "S L34 L33 L33 L32 L31 L53 L13 L54 L07 L25 L46",
        game="hunters",
        extra={"bonus_draw": ["B01", "B04", "B07"]},
        expect=frozenset({"bonus_gold", "figure:hut", "figure:man"}),
    ),
    Case(
        "castle",
        "K02 K22 K07 K08 K07 K17 K09 K26 K01 K30 K40 K45 K27 K21",
        game="castle",
        extra={"wall_draw": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]},
        expect=frozenset({"walls", "wall", "figure:subject"}),
        rng=26,
    ),
]


class Board:
    """One open board and the latest VIEW it was sent."""

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.view: dict[str, Any] | None = None
        self.views: list[dict[str, Any]] = []

    async def next(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind``, keeping every board seen on the way."""
        while True:
            message = await self.socket.next(5.0)
            if message["type"] == "board":
                self.view = message["view"]
                self.views.append(message["view"])
            if message["type"] == kind:
                return message

    async def at(self, version: int) -> dict[str, Any]:
        """The VIEW at ``version`` (read until it comes: later, or earlier after an undo)."""
        while self.view is None or self.view["version"] != version:
            await self.next("board")
        return self.view

    async def answer(self, message: dict[str, Any], kind: str) -> dict[str, Any]:
        await self.socket.ws.send_json(message)
        while True:
            found = await self.socket.next(5.0)
            if found["type"] == "board":
                self.view = found["view"]
                self.views.append(found["view"])
                continue
            if found["type"] in (kind, "refused"):
                return found


async def open_board(site: Site, user: int, game_id: int) -> Board:
    session = (await site.sign_in(user))["session"]
    board = Board(await site.board(session, game_id))
    welcome = await board.socket.next()
    assert welcome["type"] == "welcome" and welcome["game"] == game_id
    return board


async def forced_game(manager: GameManager, case: Case, seed: int = 5) -> int:
    """A game of two (Alice and Bob) on a forced draw, saved on the lobby before it starts."""
    row = await manager.lobbies.create_lobby(
        ALICE,
        "Alice",
        guild_id=GUILD,
        channel_id=CHANNEL,
        game=case.game,
        expansions=case.expansions,
        options=case.options,
    )
    await manager.lobbies.join(row.id, BOB, "Bob")
    row = await manager.game(row.id)
    extra = {"draw": case.draw.split(), **case.extra}
    await manager.storage.save_game(dataclasses.replace(row, setup_extra=extra))
    await manager.lobbies.start(row.id, ALICE, seed=seed)
    return row.id


def no_decision() -> dict[str, Any]:
    return {"first": None, "figure": None, "wagon": None, "wall": None, "pass": False}


def choose(you: dict[str, Any], rng: random.Random) -> tuple[str, Any]:
    """A random choice among what ``you`` offers: a placement (tried next), the abbey, a
    figure, a wagon's target, a wall tile or a pass. The rarer ones (a wall tile, the abbey, a
    wagon's move) are taken more often than their share, so that short games meet them."""
    options: list[tuple[str, Any]] = []
    for tile in you["tiles"]:
        for square in tile["squares"]:
            assert square["rotations"], square
            for rotation in square["rotations"]:
                first = {"tile": tile["tile"], "x": square["x"], "y": square["y"]}
                options.append(("first", {**first, "rotation": rotation}))
    abbeys = [("first", {"abbey": True, "x": h["x"], "y": h["y"]}) for h in you["holes"]]
    wagons = [("wagon", w["value"]) for w in you["wagons"]]
    walls = [("wall", w["value"]) for w in you["walls"]]
    options += abbeys + wagons + walls
    for spot in you["figures"]:
        options += [("figure", {"figure": c["figure"], "at": spot["at"]}) for c in spot["choices"]]
    if you["pass"]:
        options.append(("pass", True))
    assert options, you
    rare = abbeys + wagons + walls
    chosen: tuple[str, Any] = rng.choice(rare if rare and rng.random() < 0.6 else options)
    return chosen


def choose_figure(step: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One of a tried step's figures, or none (a figure more often: figures are what most
    expansions add)."""
    choices = [{"figure": c["figure"], "at": p["at"]} for p in step["places"] for c in p["choices"]]
    if choices and rng.random() < 0.8:
        return rng.choice(choices)
    return rng.choice([None, *choices])


def seen_in(you: dict[str, Any], kind: str, value: Any) -> set[str]:
    """What a decision showed and took: its phase and kind, the abbey's holes (and the abbey
    taken), wall tiles, a bonus tile, a hand of several tiles."""
    seen = {you["phase"], kind}
    if you["holes"]:
        seen.add("holes")
    if isinstance(value, dict) and value.get("abbey"):
        seen.add("abbey")
    if you["walls"]:
        seen.add("walls")
    if you["bonus"]:
        seen.add("bonus_" + you["bonus"])
    if len(you["tiles"]) > 1:
        seen.add("hand")
    return seen


async def random_play(
    board: Board, you: dict[str, Any], rng: random.Random, seen: set[str]
) -> dict[str, Any]:
    """A random decision among what ``you`` offers (a placement tried first, then one of its
    figures or none), as the ``play`` message the page would send."""
    version = you["version"]
    kind, value = choose(you, rng)
    seen |= seen_in(you, kind, value)
    play = {"type": "play", "version": version, **no_decision(), kind: value}
    if kind == "first":
        step = await board.answer({"type": "try", "version": version, **value}, "step")
        assert step["type"] == "step", step
        assert (step["x"], step["y"]) == (value["x"], value["y"])
        for spot in step["places"]:
            assert 0 <= spot["u"] <= 1 and 0 <= spot["v"] <= 1, spot
            assert spot["words"] and all(c["name"] for c in spot["choices"]), spot
        play["figure"] = choose_figure(step, rng)
        if play["figure"] is not None:
            seen.add("figure:" + play["figure"]["figure"])
    return play


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_a_whole_game_is_played_on_the_board(site: Site, case: Case) -> None:
    acts: list[BoardAct] = []

    async def announce(act: BoardAct) -> None:
        acts.append(act)

    site.server.announce = announce
    game_id = await forced_game(site.manager, case)
    players = {
        ALICE: await open_board(site, ALICE, game_id),
        BOB: await open_board(site, BOB, game_id),
    }
    carol = await open_board(site, CAROL, game_id)
    rng = random.Random(case.rng)
    seen: set[str] = set()
    game = await site.manager.engine_copy(game_id)
    version = len(game.actions)
    moves = 0
    while not game.finished:
        views = {user: await board.at(version) for user, board in players.items()}
        watched = await carol.at(version)
        assert "you" not in watched and "hand" not in watched
        movers = [user for user, view in views.items() if "you" in view]
        assert len(movers) == 1, views
        mover = movers[0]
        assert game.decision.player == views[mover]["turn"]["seat"]
        you = views[mover]["you"]
        assert (you["version"], you["turn"], you["phase"]) == (
            version,
            game.decision.turn,
            game.decision.phase.value,
        )
        play = await random_play(players[mover], you, rng, seen)
        played = await players[mover].answer(play, "played")
        assert played["type"] == "played", (played, play)
        assert played["version"] > version
        version = played["version"]
        moves += 1
        game = await site.manager.engine_copy(game_id)
        assert len(game.actions) == version
        assert len(acts) == moves and acts[-1].kind == "move"
        assert isinstance(acts[-1].result, MoveResult) and acts[-1].user_id == mover
    for board in (*players.values(), carol):
        final = await board.at(version)
        assert final["final"] == list(game.scores) and "you" not in final
    row = await site.manager.game(game_id)
    assert row.status == "finished" and row.result is not None
    assert row.result["scores"] == list(game.scores)
    assert moves >= 8
    assert case.expect <= seen, (case.expect - seen, seen)
    await site.server.hub.settle()


async def _mover(site: Site, game_id: int) -> tuple[int, int]:
    view, game = await site.manager.current(game_id)
    assert game is not None and view.user_id is not None
    other = BOB if view.user_id == ALICE else ALICE
    return view.user_id, other


async def test_stale_foreign_and_illegal_plays_are_refused(site: Site) -> None:
    game_id = await forced_game(site.manager, CASES[0])
    mover, other = await _mover(site, game_id)
    boards = {u: await open_board(site, u, game_id) for u in (mover, other, CAROL)}
    game = await site.manager.engine_copy(game_id)
    version = len(game.actions)
    view = await boards[mover].at(version)
    tile = view["you"]["tiles"][0]
    square = tile["squares"][0]
    first = {"tile": tile["tile"], "x": square["x"], "y": square["y"]}
    first["rotation"] = square["rotations"][0]
    good = {"type": "play", "version": version, **no_decision(), "first": first}
    for user, play, reason in (
        (mover, {**good, "version": version - 1}, "turn_moved_on"),
        (mover, {**good, "version": version + 3}, "turn_moved_on"),
        (other, good, "not_your_turn"),
        (CAROL, good, "not_your_turn"),
        (mover, {**good, "first": {**first, "rotation": 45}}, "not_legal"),
        (mover, {**good, "first": {**first, "x": 40}}, "not_legal"),
        (mover, {**good, "pass": True}, "not_legal"),
        (mover, {**good, "figure": {"figure": "follower", "at": 99}}, "not_legal"),
        (mover, {**good, "wagon": "0,0,1"}, "not_legal"),
    ):
        refused = await boards[user].answer(play, "played")
        assert (refused["type"], refused["reason"]) == ("refused", reason), (play, refused)
        assert refused["text"]
        stale_try = {"type": "try", "version": play["version"], **first}
        if reason != "not_legal":
            tried = await boards[user].answer(stale_try, "step")
            assert (tried["type"], tried["reason"]) == ("refused", reason)
        assert len((await site.manager.engine_copy(game_id)).actions) == version
    carol = boards[CAROL]
    assert all("you" not in v for v in carol.views)
    assert all("you" not in v for v in boards[other].views)
    french = await open_board(site, CAROL, game_id)
    refused = await french.answer(good, "played")
    assert refused["text"] == "Ce n'est pas votre tour."
    played = await boards[mover].answer(good, "played")
    assert played["type"] == "played" and played["version"] > version


async def test_the_player_who_just_moved_takes_it_back(site: Site) -> None:
    acts: list[BoardAct] = []

    async def announce(act: BoardAct) -> None:
        acts.append(act)

    site.server.announce = announce
    game_id = await forced_game(site.manager, CASES[0])
    mover, other = await _mover(site, game_id)
    boards = {u: await open_board(site, u, game_id) for u in (mover, other)}
    version = len((await site.manager.engine_copy(game_id)).actions)
    you = (await boards[mover].at(version))["you"]
    play = await random_play(boards[mover], you, random.Random(1), set())
    played = await boards[mover].answer(play, "played")
    assert played["type"] == "played"
    await boards[other].at(played["version"])
    asked = await boards[other].answer({"type": "undo"}, "undo")
    # The other player did not play that turn: their undo only asks the others.
    assert (asked["type"], asked["done"]) == ("undo", False)
    undone = await boards[mover].answer({"type": "undo"}, "undo")
    assert undone["type"] == "undo" and undone["done"] is True and undone["text"]
    assert len((await site.manager.engine_copy(game_id)).actions) == version
    back = await boards[mover].at(version)
    assert back["you"]["version"] == version
    assert [a.kind for a in acts] == ["move", "undo", "undo"]
    assert isinstance(acts[0].result, MoveResult)
    assert isinstance(acts[2].result, UndoResult) and acts[2].result.undone
    assert not acts[1].result.undone


async def test_a_player_resigns_on_the_board_and_a_failing_announce_breaks_nothing(
    site: Site,
) -> None:
    calls: list[BoardAct] = []

    async def announce(act: BoardAct) -> None:
        calls.append(act)
        raise RuntimeError("the thread is gone")

    site.server.announce = announce
    game_id = await forced_game(site.manager, CASES[0])
    _, other = await _mover(site, game_id)
    stranger = await open_board(site, CAROL, game_id)
    refused = await stranger.answer({"type": "resign"}, "resigned")
    assert refused["type"] == "refused"
    assert calls == []
    board = await open_board(site, other, game_id)
    resigned = await board.answer({"type": "resign"}, "resigned")
    assert resigned["type"] == "resigned" and resigned["text"]
    assert [(a.kind, a.user_id) for a in calls] == [("resign", other)]
    row = await site.manager.game(game_id)
    assert row.status == "finished"
    assert (await board.answer({"type": "ping"}, "pong"))["type"] == "pong"
    assert not board.socket.ws.closed
