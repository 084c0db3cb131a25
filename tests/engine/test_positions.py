"""Positions (spec/game-record.md, "Positions: what a running game exports"), for every family
and expansion: random games (a policy that also skips turns and has players leave) stopped at
random points.

- Two running games with the same visible history and different seeds, stacks, hands, bonus
  tiles and wall tiles write the same bytes. The twin is built honestly: the game's own first
  stack (and bonus stack, and towers) with every tile nobody has seen dealt again at random,
  replayed with the same actions, kept when it shows exactly the same events.
- A position rebuilds a game with the live game's public state (board, figures, scores, whose
  turn and which decision, the tile in play, tiles left, hand sizes, bonus and wall tiles, the
  legal moves, the projected scores), whose record replays to it and which writes the same
  position again.
- A position carries no seed, no draw, no face-down tile.
- A finished game still exports a record replaying to its final scores; readers of records
  refuse positions; ``python -m engine replay`` prints what the record's replay printed.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CastleGame,
    Event,
    Forfeit,
    Game,
    GameError,
    HuntersGame,
    MalformedError,
    MoveWagon,
    Phase,
    PlaceAbbey,
    PlaceTile,
    Setup,
    Skip,
    TileDiscarded,
    TilePlaced,
    UseWallTile,
)
from engine.castle.walls import WALL_POOL
from engine.cli import main, replay_output
from engine.cli import random_action as engine_random_action
from engine.core.position import game_from_position, is_position, position_json, position_of
from engine.core.record import RecordError, read_record
from engine.core.steer import Steer

ROOT = Path(__file__).resolve().parents[2]
BIG_BOX = ("abbey_mayor", "inns_cathedrals", "river", "traders_builders")
NAMES = ("Ann", "Bob", "Cleo")
#: Every family, each expansion alone and all four, the tactical hand (alone, and with the Big
#: Box: the river's tiles are discarded from hands).
SETUPS: dict[str, Setup] = {
    "base": Setup(players=NAMES),
    "abbey_mayor": Setup(players=NAMES[:2], expansions=("abbey_mayor",)),
    "inns_cathedrals": Setup(players=NAMES[:2], expansions=("inns_cathedrals",)),
    "traders_builders": Setup(players=NAMES[:2], expansions=("traders_builders",)),
    "river": Setup(players=NAMES[:2], expansions=("river",)),
    "big_box": Setup(players=NAMES, expansions=BIG_BOX),
    "hand": Setup(players=NAMES, options={"hand": True}),
    "hand_big_box": Setup(players=NAMES[:2], expansions=BIG_BOX, options={"hand": True}),
    "hunters": Setup(players=NAMES[:2], game="hunters"),
    "castle": Setup(players=NAMES[:2], game="castle"),
}
CASES = sorted(SETUPS)
CORE_FIELDS = {
    "format",
    "game",
    "expansions",
    "options",
    "players",
    "actions",
    "shown",
    "tiles_total",
    "tiles_left",
    "held",
}
FAMILY_FIELDS = {"hunters": {"bonus_left"}, "castle": {"walls_left"}}
SEEDS = st.integers(10**12, 10**13)
EXAMPLES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_action(game: Game, rng: random.Random) -> Any:
    """A random legal action; now and then a skipped turn or a player leaving."""
    roll = rng.random()
    if roll < 0.03 and game.phase is Phase.TILE:
        return Skip()
    seats = [seat for seat in range(game.players) if not game.out[seat]]
    if roll < 0.036 and len(seats) > 1:
        return Forfeit(rng.choice(seats))
    return engine_random_action(game, rng)


def running(name: str, seed: int, stop: int) -> Game:
    """A game of setup ``name`` with ``seed`` after up to ``stop`` random actions, still
    running (a game that ended sooner is taken back to before its last action)."""
    game = Game(replace(SETUPS[name], seed=seed))
    rng = random.Random(seed)
    while game.phase is not Phase.OVER and len(game.actions) < stop:
        game.play(random_action(game, rng))
    if game.finished:
        record = game.record()
        record["actions"] = record["actions"][:-1]
        game = Game.from_record(record)
    assert not game.finished
    return game


def written(game: Game) -> str:
    return position_json(position_of(game))


# -- the twin: the same visible history, every face-down tile dealt again --------------------


class Slots(Steer):
    """Follows the tiles of the first stack (numbered in drawing order) into the hands."""

    def __init__(self, players: int) -> None:
        self.first: list[str] | None = None
        self.stack: list[int] = []  # parallel to game.stack; -1: a tile put back
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.setup_events: list[Event] = []

    def drawing(self, game: Game, into: int) -> None:
        if self.first is None:
            self.first = list(reversed(game.stack))
            self.stack = list(range(len(game.stack) - 1, -1, -1))
        slot = self.stack.pop()
        if into >= 0:
            self.hands[into].append(slot)

    def returned(self, game: Game, bottom: bool) -> None:
        if bottom:
            self.stack.insert(0, -1)
        else:
            self.stack.append(-1)

    def started(self, game: Game, events: list[Event]) -> None:
        self.setup_events = events
        if game.hand_mode:
            for event in events:
                if isinstance(event, TileDiscarded):
                    self.left_hand(event.player, event.kind)

    def left_hand(self, player: int, kind: str) -> None:
        """A tile of ``kind`` left ``player``'s hand: the first such, as the engine takes it."""
        assert self.first is not None
        hand = self.hands[player]
        hand.remove(next(slot for slot in hand if self.first[slot] == kind))


def history(setup: Setup, actions: list[Any], slots: Slots | None = None) -> tuple[Game, list[Any]]:
    """Replay; return the game and what each step showed (events, tile in play, hand sizes)."""
    slots = slots or Slots(len(setup.players))
    game = Game(setup, slots)
    shown: list[Any] = [(slots.setup_events, game.tile, [len(h) for h in game.hands])]
    for action in actions:
        events: list[Event] = game.play(action)
        if game.hand_mode:
            for event in events:
                if isinstance(event, TileDiscarded) or (
                    isinstance(event, TilePlaced) and isinstance(action, PlaceTile)
                ):
                    slots.left_hand(event.player, event.kind)
        shown.append((events, game.tile, [len(h) for h in game.hands]))
    return game, shown


def dealt_again(values: list[Any], rng: random.Random) -> list[Any]:
    """``values`` shuffled, and changed when they can be."""
    shuffled = list(values)
    rng.shuffle(shuffled)
    if shuffled == values and len(set(values)) > 1:
        shuffled = shuffled[1:] + shuffled[:1]
    return shuffled


def twin(game: Game, seed: int, hands: bool = True) -> Game:
    """A game with another seed that showed the same as ``game`` at every step, whose unseen
    tiles (stack, hands with ``hands``, bonus tiles, wall tiles on towers) are dealt again."""
    slots = Slots(game.players)
    original, seen = history(game.setup, game.actions, slots)
    assert original.snapshot() == game.snapshot()
    assert slots.first is not None
    rng = random.Random(seed)
    hidden = [slot for slot in slots.stack if slot >= 0]
    if hands:
        hidden += [slot for hand in slots.hands for slot in hand]
    first = list(slots.first)
    for slot, kind in zip(hidden, dealt_again([first[s] for s in hidden], rng), strict=True):
        first[slot] = kind
    setup = replace(game.setup, seed=seed, draw=tuple(first))
    fresh = Game(game.setup)
    if isinstance(game, HuntersGame) and isinstance(fresh, HuntersGame):
        bonus = list(reversed(fresh.bonus_stack))
        drawn = len(bonus) - len(game.bonus_stack)
        setup = replace(setup, bonus_draw=(*bonus[:drawn], *dealt_again(bonus[drawn:], rng)))
    if isinstance(game, CastleGame) and isinstance(fresh, CastleGame):
        taken = {t: w for t, w in fresh.towers.items() if w is not None and game.towers[t] is None}
        unseen = list(WALL_POOL)
        for wall in taken.values():
            unseen.remove(wall)
        unseen = dealt_again(unseen, rng)
        walls = [
            taken[tower] if tower in taken else unseen.pop()
            for tower, wall in fresh.towers.items()
            if wall is not None
        ]
        setup = replace(setup, wall_draw=tuple(walls))
    try:
        other, other_seen = history(setup, game.actions)
    except GameError:
        other_seen = None  # a tile dealt into a hand would have been discarded
    if other_seen != seen:
        assert hands, "dealing the stack again changed what was shown"
        return twin(game, seed, hands=False)
    return other


@pytest.mark.parametrize("name", CASES)
@EXAMPLES
@given(seed=SEEDS, step=st.integers(1, 10**6), stop=st.integers(0, 300))
def test_same_visible_history_same_bytes(name: str, seed: int, step: int, stop: int) -> None:
    same_bytes_as_a_twin(running(name, seed, stop), seed + step)


def same_bytes_as_a_twin(game: Game, seed: int) -> None:
    copy = twin(game, seed)
    assert copy.setup.seed != game.setup.seed
    assert written(copy) == written(game)


def test_twins_differ_in_what_is_hidden() -> None:
    # The twins above are different games: their face-down tiles differ.
    for name in CASES:
        game = running(name, 10**12 + 7, 40)
        copy = twin(game, 10**12 + 8)
        hidden = (game.stack, game.hands, getattr(game, "bonus_stack", None))
        other = (copy.stack, copy.hands, getattr(copy, "bonus_stack", None))
        assert hidden != other, name
        if isinstance(game, CastleGame) and isinstance(copy, CastleGame):
            assert game.towers != copy.towers


# -- the public state rebuilt --------------------------------------------------------------


def public(game: Game) -> dict[str, Any]:
    """Everything the table sees, and what follows from it."""
    data = game.public_snapshot()
    decision = game.decision
    data["decision"] = (decision.phase, decision.player, decision.turn, decision.tile)
    data["dead"] = sorted(game.dead_squares())
    if not game.hand_mode:
        data["placements"] = sorted((a.x, a.y, a.rotation) for a in game.legal_placements())
    data["figures_now"] = sorted(str(a) for a in game.legal_figures())
    for kind in (PlaceAbbey, MoveWagon, UseWallTile):
        data[kind.__name__] = sorted(str(a) for a in game.legal(kind))
    data["can_pass"] = game.can_pass
    data["leaders"] = game.leaders
    data["projected"] = game.projected_scores()
    return data


@pytest.mark.parametrize("name", CASES)
@EXAMPLES
@given(seed=SEEDS, stop=st.integers(0, 300))
def test_a_position_rebuilds_the_public_state(name: str, seed: int, stop: int) -> None:
    rebuilds_the_public_state(running(name, seed, stop))


def rebuilds_the_public_state(game: Game) -> None:
    position = json.loads(written(game))
    rebuilt = game_from_position(position)
    assert public(rebuilt) == public(game)
    # Its record tells nothing hidden and replays to the very same game...
    record = rebuilt.record()
    assert record["seed"] == 0
    assert Game.from_record(record).snapshot() == rebuilt.snapshot()
    # ... which writes the same position.
    assert written(rebuilt) == written(game)
    assert rebuilt.steer is None


def seen_ever(game: Game) -> set[str]:
    """The tiles that lay face up at some point of ``game``: on the board, in play, discarded."""
    replay, steps = history(game.setup, game.actions)
    seen = {placed.oriented.kind for placed in replay.board.tiles.values()}
    seen.update(replay.discarded)
    seen.update(step[-2] for step in steps if step[-2] is not None)
    return seen


@pytest.mark.parametrize("name", CASES)
@EXAMPLES
@given(seed=SEEDS, stop=st.integers(0, 300))
def test_a_position_carries_nothing_hidden(name: str, seed: int, stop: int) -> None:
    carries_nothing_hidden(running(name, seed, stop))


def carries_nothing_hidden(game: Game) -> None:
    seed = game.setup.seed
    text = written(game)
    position = json.loads(text)
    assert is_position(position)
    assert set(position) == CORE_FIELDS | FAMILY_FIELDS.get(game.setup.game, set())
    assert str(seed) not in text
    assert position["tiles_left"] == len(game.stack)
    assert position["held"] == [len(hand) for hand in game.hands]
    assert position["format"] == 2
    # Every tile named was seen by everyone at some point (the start tile, a tile in play, a
    # tile placed or discarded): no tile of the stack, a hand or the bonus stack is named.
    named = {e["tile"] for e in position["shown"] if "tile" in e}
    named |= {a["tile"] for a in position["actions"] if a["type"] == "place_tile"}
    assert named <= seen_ever(game)
    if isinstance(game, CastleGame):
        walls = {(e["wall"], e["space"]) for e in position["shown"] if e["what"] == "wall"}
        taken = [w for held in game.held for w, _ in held] + [w for p in game.played for w in p]
        assert sorted(w for w, _ in walls) == sorted(taken)
        assert position["walls_left"] == sum(w is not None for w in game.towers.values())
    for action in position["actions"]:
        assert action["type"] != "place_tile" or "tile" in action


#: Games (setup, seed; 250 actions at most) that show what random games seldom do: wall
#: tiles, bonus tiles (discarded, or put back under the stack by a skipped turn), tiles that fit
#: nowhere (drawn, or in a hand), turns skipped, players leaving, an abbey played instead of the
#: tile in play (which goes back on top), a builder's second tile.
RARE = {
    ("castle", 12): lambda p: any(e["what"] == "wall" for e in p["shown"]),
    ("hunters", 0): lambda p: any(e["what"] == "bonus" for e in p["shown"]),
    ("hunters", 223): lambda p: any(e["what"] == "bonus_discard" for e in p["shown"]),
    ("hunters", 17): lambda p: any(e["what"] == "draw" and e["tile"][0] == "B" for e in p["shown"]),
    ("hand_big_box", 0): lambda p: any(e["what"] == "discard" for e in p["shown"]),
    ("hand", 27): lambda p: any(e["what"] == "discard" for e in p["shown"]),
    ("base", 13): lambda p: any(e["what"] == "discard" for e in p["shown"]),
    ("big_box", 6): lambda p: any(e["what"] == "discard" for e in p["shown"]),
    ("base", 0): lambda p: {"skip", "forfeit"} <= {a["type"] for a in p["actions"]},
    ("abbey_mayor", 0): lambda p: any(a["type"] == "place_abbey" for a in p["actions"]),
    ("traders_builders", 0): lambda p: any(
        a["what"] == b["what"] == "draw" and a["player"] == b["player"]
        for a, b in zip(p["shown"], p["shown"][1:], strict=False)
    ),
}


@pytest.mark.parametrize(("name", "seed"), sorted(RARE))
def test_games_showing_what_random_games_seldom_do(name: str, seed: int) -> None:
    game = running(name, 10**12 + seed, 250)
    assert RARE[name, seed](position_of(game))
    same_bytes_as_a_twin(game, 10**12 + seed + 1)
    rebuilds_the_public_state(game)
    carries_nothing_hidden(game)


# -- finished games, records, the command line ---------------------------------------------


@pytest.mark.parametrize("name", CASES)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_a_finished_game_still_exports_its_record(name: str, seed: int) -> None:
    game = running(name, seed, 10_000)
    rng = random.Random(seed)
    while not game.finished:
        game.play(engine_random_action(game, rng))
    with pytest.raises(ValueError, match="record"):
        position_of(game)
    record = json.loads(json.dumps(game.record()))
    assert record["format"] == 1
    status, output = replay_output(record)
    assert status == 0
    assert output["finished"] is True
    assert output["scores"] == dict(zip(game.setup.players, game.scores, strict=True))


@pytest.mark.parametrize("name", CASES)
def test_replay_prints_for_a_position_what_the_record_printed(name: str) -> None:
    game = running(name, 10**12 + 3, 60)
    position = json.loads(written(game))
    assert replay_output(position) == replay_output(game.record())
    assert replay_output(position)[1]["finished"] is False


def test_python_m_engine_replay_reads_a_position(tmp_path: Path) -> None:
    game = running("big_box", 10**12 + 5, 90)
    path = tmp_path / "position.json"
    path.write_text(written(game), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == replay_output(game.record())[1]


def test_readers_of_records_refuse_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    game = running("base", 10**12 + 1, 30)
    text = written(game)
    with pytest.raises(RecordError) as refused:
        read_record(text.encode())
    assert refused.value.code == "position"
    assert "position" in str(refused.value) and "running" in str(refused.value)
    assert read_record(text, positions=True) == json.loads(text)
    position = json.loads(text)
    for reader in (Setup.from_json, Game.from_record):
        with pytest.raises(MalformedError) as error:
            reader(position)
        assert error.value.code == "position"
    # The record of the same game is still read.
    assert read_record(json.dumps(game.record()))["format"] == 1


# -- what is not a position ----------------------------------------------------------------


def _position() -> dict[str, Any]:
    game = running("hunters", 10**12 + 9, 50)
    data: dict[str, Any] = json.loads(written(game))
    return data


def _shown(position: dict[str, Any], what: str) -> dict[str, Any]:
    return next(entry for entry in position["shown"] if entry["what"] == what)


def _other_tile(entry: dict[str, Any]) -> None:
    entry["tile"] = "L02" if entry["tile"] == "L01" else "L01"


BROKEN: dict[str, Callable[[dict[str, Any]], Any]] = {
    "a seed": lambda p: p.update(seed=1),
    "a draw": lambda p: p.update(draw=["A"]),
    "another format": lambda p: p.update(format=3),
    "no shown": lambda p: p.pop("shown"),
    "a tile drawn that was not": lambda p: _other_tile(_shown(p, "draw")),
    "an unknown tile": lambda p: _shown(p, "draw").update(tile="nope"),
    "a shown tile removed": lambda p: p["shown"].pop(),
    "a shown tile too many": lambda p: p["shown"].append(dict(p["shown"][-1])),
    "the start tile removed": lambda p: p["shown"].pop(0),
    "a wrong count left": lambda p: p.update(tiles_left=p["tiles_left"] + 1),
    "a huge stack": lambda p: p.update(tiles_total=10**12),
    "a wrong hand size": lambda p: p.update(held=[1, 0]),
    "a bonus count missing": lambda p: p.pop("bonus_left"),
    "a bonus count that is no number": lambda p: p.update(bonus_left="3"),
    "shown out of order": lambda p: p["shown"].reverse(),
    "a player who is not": lambda p: _shown(p, "draw").update(player=7),
    "an action too many": lambda p: p["actions"].append({"type": "pass"}),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_a_broken_position_is_refused_in_words(what: str) -> None:
    position = _position()
    BROKEN[what](position)
    with pytest.raises(GameError) as error:
        game_from_position(position)
    assert str(error.value)
    status = replay_output(position)[0] if is_position(position) else 2
    assert status in (1, 2)


def test_a_position_whose_actions_end_the_game_is_refused() -> None:
    game = running("base", 10**12 + 2, 10_000)
    rng = random.Random(2)
    while not game.finished:
        before = game.fork()
        action = engine_random_action(game, rng)
        game.play(action)
    position = position_of(before)
    last = action.to_json()
    if last["type"] == "place_tile":
        last["tile"] = before.tile
    position["actions"].append(last)
    with pytest.raises(MalformedError, match="ends the game"):
        game_from_position(position)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_tampered_position_is_refused_or_read_never_crashes(data: st.DataObject) -> None:
    position = _position()
    entry = data.draw(st.sampled_from(position["shown"]))
    field = data.draw(st.sampled_from(sorted(entry)))
    value = data.draw(st.one_of(st.integers(-2, 200), st.sampled_from(["S", "L05", "B01", ""])))
    entry[field] = value
    try:
        game_from_position(position)
    except GameError as error:
        assert str(error)


def test_the_command_line_reports_a_broken_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = _position()
    position["tiles_left"] += 1
    path = tmp_path / "position.json"
    path.write_text(position_json(position), "utf-8")
    assert main(["replay", str(path)]) == 2
    output = json.loads(capsys.readouterr().out)
    assert "tiles_left" in output["error"]
