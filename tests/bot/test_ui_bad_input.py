"""Bad input to every command option: each gets one short ephemeral message saying what is
wrong and what to do, never an apology for a crash, never a traceback, and nothing changes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import discord
import pytest
import simcord
from conftest_ui import Table, said, simcord_bot
from ui_scenes import forced_game

from bot.ui.texts import tr
from bot.ui.translator import command_text
from engine import Pass
from engine.core.record import MAX_RECORD_BYTES

__all__ = ["simcord_bot"]


@dataclasses.dataclass
class World:
    """One server with a game in play (alice, bob; carol watches), a finished game, an open
    lobby, and a game on another server."""

    table: Table
    active: int
    finished: int
    lobby: int
    foreign: int

    def ids(self) -> dict[str, int]:
        return {
            "active": self.active,
            "finished": self.finished,
            "lobby": self.lobby,
            "foreign": self.foreign,
        }


async def build(env: simcord.Env) -> World:
    table = Table(env, players=3)
    alice, _, carol = table.players
    manager = table.bot.manager
    # A finished game: one tile after the start tile.
    finished = await forced_game(table, "D U", expansion=None, seated=2)
    view = await manager.decision(finished)
    await manager.play_turn(finished, alice.id, view.placements[0], turn=0, phase="tile")
    if not (await manager.decision(finished)).finished:
        await manager.play_turn(finished, alice.id, Pass(), turn=0, phase="figure")
    assert (await manager.decision(finished)).finished
    # The game in play, in its own thread: alice to play.
    lobby_row = await manager.lobbies.create_lobby(carol.id, "carol", guild_id=table.guild.id)
    active = await forced_game(table, None, expansion=None, seed=7, seated=2)
    other = env.create_guild()
    foreign = await manager.lobbies.create_lobby(123, "zed", guild_id=other.id)
    await manager.lobbies.join(foreign.id, 456, "yan")
    await manager.lobbies.start(foreign.id, 123, seed=1)
    return World(table, active, finished, lobby_row.id, foreign.id)


def record_with(**changes: Any) -> bytes:
    record: dict[str, Any] = {
        "format": 1,
        "game": "carcassonne",
        "expansions": [],
        "options": {},
        "players": ["alice", "bob"],
        "seed": 7,
        "actions": [],
    }
    record.update(changes)
    return json.dumps(record).encode()


#: (case, who, where, command, options, what the answer must say). ``{active}``-style names in
#: option values are replaced by that game's number.
CASES: list[tuple[str, str, str, str, dict[str, Any], str]] = [
    ("unknown game", "alice", "thread", "board", {"game": 999}, "There is no game #999"),
    ("game of another server", "alice", "thread", "board", {"game": "foreign"}, "no game #"),
    ("lobby not started", "carol", "channel", "board", {"game": "lobby"}, "has not started yet"),
    ("status unknown game", "alice", "thread", "status", {"game": 999}, "There is no game #999"),
    ("status other server", "alice", "thread", "status", {"game": "foreign"}, "There is no game #"),
    ("no game here", "alice", "elsewhere", "place", {"cell": "A"}, "No game is being played"),
    ("place unknown game", "alice", "thread", "place", {"cell": "A", "game": 999}, "no game"),
    ("place finished game", "alice", "thread", "place", {"cell": "A", "game": "finished"},
     "is over"),
    ("place in a lobby", "carol", "thread", "place", {"cell": "A", "game": "lobby"},
     "has not started yet"),
    ("place out of turn", "bob", "thread", "place", {"cell": "A", "rotation": 0},
     "It is not your turn: alice is playing"),
    ("place by a non-player", "carol", "thread", "place", {"cell": "A"},
     "You are not playing in game"),
    ("bad cell letter", "alice", "thread", "place", {"cell": "ZZ"},
     "There is no square ZZ this turn: the lettered squares go from A to"),
    ("bad cell text", "alice", "thread", "place", {"cell": "1,2,3"},
     "“1,2,3” is not a square. Use a letter from the board"),
    ("taken cell", "alice", "thread", "place", {"cell": "0,0"},
     "Square (0, 0) is taken: a tile already lies there"),
    ("lonely cell", "alice", "thread", "place", {"cell": "5,5"},
     "Square (5, 5) touches no tile"),
    ("bad rotation", "alice", "thread", "place", {"cell": "A", "rotation": 45},
     "Rotation 45 does not fit on square A: use"),
    ("bad figure", "alice", "thread", "place", {"cell": "A", "rotation": "legal",
     "figure": "99"}, "is not possible here. Possible:"),
    ("bad figure text", "alice", "thread", "place", {"cell": "A", "rotation": "legal",
     "figure": "knight please"}, "is not possible here. Possible:"),
    # Numbers are ASCII digits: "²" passes str.isdigit but not int; a full-width one reads as 1.
    ("superscript figure", "alice", "thread", "place", {"cell": "A", "rotation": "legal",
     "figure": "²"}, "Figure “²” is not possible here. Possible: 1"),
    ("full-width figure", "alice", "thread", "place", {"cell": "A", "rotation": "legal",
     "figure": "\uff11"}, "Figure “\uff11” is not possible here. Possible: 1"),
    ("full-width cell", "alice", "thread", "place", {"cell": "\uff11,\uff10"},
     "“\uff11,\uff10” is not a square. Use a letter from the board"),
    ("Arabic-Indic cell", "alice", "thread", "place", {"cell": "-\u0661,\u0660"},
     "“-\u0661,\u0660” is not a square. Use a letter from the board"),
    ("superscript cell", "alice", "thread", "place", {"cell": "1,²"},
     "“1,²” is not a square. Use a letter from the board"),
    ("resign by a non-player", "carol", "thread", "resign", {}, "You are not playing in game"),
    ("resign a finished game", "alice", "thread", "resign", {"game": "finished"}, "is over"),
    ("resign a lobby", "carol", "thread", "resign", {"game": "lobby"}, "has not started yet"),
    ("undo by a non-player", "carol", "thread", "undo", {}, "You are not playing in game"),
    ("undo a finished game", "alice", "thread", "undo", {"game": "finished"},
     "can no longer be taken back"),
    ("undo with nothing played", "alice", "thread", "undo", {}, "nothing to take back"),
    ("export unknown game", "alice", "thread", "export", {"game": 999}, "There is no game #999"),
    ("export other server", "alice", "thread", "export", {"game": "foreign"}, "There is no game #"),
    ("rules unknown game", "alice", "thread", "rules", {"game": 999}, "There is no game #999"),
    ("tiles unknown game", "alice", "thread", "tiles", {"game": 999}, "There is no game #999"),
    ("tiles no game here", "alice", "elsewhere", "tiles", {}, "No game is being played"),
    ("tiles finished game", "alice", "thread", "tiles", {"game": "finished"}, "is over"),
    ("import not JSON", "alice", "channel", "import", {"file": ("x.json", b"{oops")},
     "not a game record: invalid JSON at line 1, column 2"),
    ("import not UTF-8", "alice", "channel", "import", {"file": ("x.json", b"\xff\xfe\x00")},
     "not a game record: it is not text (UTF-8)"),
    ("import empty file", "alice", "channel", "import", {"file": ("x.json", b"")},
     "That file is empty"),
    ("import JSON list", "alice", "channel", "import", {"file": ("x.json", b"[1, 2]")},
     "not a game record"),
    ("import too big", "alice", "channel", "import",
     {"file": ("x.json", b" " * (MAX_RECORD_BYTES + 1))}, "too large"),
    ("import nested too deeply", "alice", "channel", "import",
     {"file": ("x.json", b"[" * 100_000 + b"]" * 100_000)},
     "nested too deeply (more than 32 lists or objects inside each other, at line 1, column 33)"),
    ("import huge number", "alice", "channel", "import",
     {"file": ("x.json", b'{"seed": ' + b"7" * 5000 + b"}")}, "thousands of digits"),
    ("import hidden characters in a name", "alice", "channel", "import",
     {"file": ("x.json", record_with(players=["alice", "b\u202eob"]))}, "player 2's name"),
    ("import a name too long", "alice", "channel", "import",
     {"file": ("x.json", record_with(players=["a" * 65, "bob"]))}, "player 1's name must be"),
    ("import too many actions", "alice", "channel", "import",
     {"file": ("x.json", record_with(actions=[{}] * 5001))}, "it has 5001 actions"),
    ("import malformed", "alice", "channel", "import",
     {"file": ("x.json", record_with(players="alice"))}, "cannot be imported"),
    ("import unknown option", "alice", "channel", "import",
     {"file": ("x.json", record_with(options={"farmers": "lots"}))}, "cannot be imported"),
    ("import illegal move", "alice", "channel", "import",
     {"file": ("x.json", record_with(actions=[{"type": "place_tile", "x": 5, "y": 5,
                                                "rotation": 0}]))}, "action 0"),
    ("settings without permission", "alice", "channel", "settings", {"language": "fr"},
     "Only members who can manage the server"),
    ("new inside a thread", "alice", "thread", "new", {}, "not from inside a thread"),
    ("export a lobby", "carol", "channel", "export", {"game": "lobby"}, "has not started yet"),
    ("replay unknown game", "alice", "thread", "replay", {"game": 999}, "There is no game #999"),
    ("replay other server", "alice", "thread", "replay", {"game": "foreign"}, "There is no game #"),
    ("replay a lobby", "carol", "channel", "replay", {"game": "lobby"}, "has not started yet"),
    ("replay no game here", "alice", "elsewhere", "replay", {}, "No game is being played"),
    ("new castle with an expansion", "alice", "channel", "new",
     {"game": "castle", "expansion": "abbey_mayor"}, "for Carcassonne only"),
    ("new hunters with a hand", "alice", "channel", "new", {"game": "hunters", "hand": True},
     "for Carcassonne only"),
]  # fmt: skip


#: Values outside what the commands declare. Discord (and simcord) refuse them before the bot
#: sees them; the bot checks again in case a client or Discord lets one through, so these run
#: with simcord's own option validation switched off.
UNCHECKED: list[tuple[str, str, str, str, dict[str, Any], str]] = [
    ("long cell", "alice", "thread", "place", {"cell": "x" * 5000},
     "`cell` must be 1 to 12 characters long"),
    ("huge game number", "alice", "thread", "board", {"game": 10**30},
     "`game` must be a number from 1 to 9 007 199 254 740 991"),
    ("negative game number", "alice", "thread", "status", {"game": -3},
     "`game` must be a number from 1"),
    ("rotation far out", "alice", "thread", "place", {"cell": "A", "rotation": 99999},
     "`rotation` must be a number from 0 to 270"),
    ("not a choice", "alice", "channel", "games", {"which": "everything"},
     "“everything” is not a choice of `which`: pick one of mine, playing"),
    ("away too long", "alice", "channel", "away", {"days": 1000},
     "`days` must be a number from 0 to 60"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "where", "command", "options", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES]
    + [pytest.param(*case[1:], id=f"unchecked {case[0]}") for case in UNCHECKED],
)
async def test_bad_input_gets_a_clear_ephemeral_answer(
    simcord_env: simcord.Env,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    who: str,
    where: str,
    command: str,
    options: dict[str, Any],
    expected: str,
) -> None:
    if request.node.callspec.id.startswith("unchecked"):
        monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda _c, _o, v: v)
    world = await build(simcord_env)
    table = world.table
    player = {p.name: p for p in table.players}[who]
    places = {
        "thread": table.thread(),
        "channel": table.channel,
        "elsewhere": table.guild.create_text_channel("elsewhere"),
    }
    values = dict(options)
    if values.get("game") in world.ids():
        values["game"] = world.ids()[values["game"]]
    if values.get("rotation") == "legal":
        offered = await player.autocomplete(
            table.thread(), "carcassonne place", "rotation", "", cell=values["cell"]
        )
        values["rotation"] = offered[0]["value"]
    before = {gid: (await table.bot.manager.game(gid)).action_count for gid in world.ids().values()}
    count = len(
        await table.bot.manager.records.games_of_user(player.id, statuses=("active", "lobby"))
    )
    result = await player.slash(places[where], f"carcassonne {command}", **values)
    texts = [m.content for m in ([result.response] if result.response else []) + result.followups]
    shown = [t for t in texts if t]
    assert result.acknowledged
    assert shown, f"no answer to {command} {values}"
    assert result.ephemeral, "refusals are only shown to the one who asked"
    assert any(expected in t for t in shown), shown
    for text in shown:
        assert "Something went wrong" not in text and "Traceback" not in text, text
        assert len(text) < 400, "short enough for a phone"
    after = {gid: (await table.bot.manager.game(gid)).action_count for gid in world.ids().values()}
    assert after == before, "a refused command changes no game"
    assert count == len(
        await table.bot.manager.records.games_of_user(player.id, statuses=("active", "lobby"))
    ), "nothing was created"
    assert not simcord_env.errors


async def test_a_non_player_and_a_stale_prompt_are_refused_in_french(
    simcord_env: simcord.Env,
) -> None:
    """The same refusals speak the server's language."""
    table = Table(simcord_env, players=3, locale="fr")
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("zoe"), roles=[admins])
    await admin.slash(table.channel, "carcassonne settings", language="fr")
    await forced_game(table, None, expansion=None, seed=7, seated=2)
    carol = table.players[2]
    refused = await carol.slash(table.thread(), "carcassonne place", cell="ZZ")
    texts = [m.content for m in [refused.response, *refused.followups] if m]
    assert any("Vous ne jouez pas dans la partie" in t for t in texts), texts
    alice = table.players[0]
    bad = await alice.slash(table.thread(), "carcassonne place", cell="ZZ")
    texts = [m.content for m in [bad.response, *bad.followups] if m]
    assert any("Il n'y a pas de case ZZ à ce tour" in t for t in texts), texts


async def test_resigning_is_told_as_a_forfeit_not_as_the_bot_playing_on(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, _ = table.players
    game_id = await forced_game(table, None, expansion=None, seed=7)
    done = await bob.slash(table.thread(), "carcassonne resign")
    assert done.ephemeral and said(done) == [f"You resigned from game #{game_id}."]
    message = table.last().content
    assert "bob resigned: their figures stay on the board but score nothing" in message
    assert "bot" not in message and message.count("bob") == 1, message
    assert f"<@{alice.id}>, your turn!" in message
    view = await table.bot.manager.decision(game_id)
    assert not view.finished and view.user_id == alice.id
    again = await bob.slash(table.thread(), "carcassonne resign")
    assert any("You are not playing in game" in t for t in said(again))
    french = tr("resigned", "fr", player="bob")
    assert "ne marquent plus rien" in french and "bot" not in french
    leave = "Leave the game: your figures stay but score nothing"
    assert "ne marquent plus rien" in command_text(leave, "fr")


def running_position() -> bytes:
    from engine import Game, Setup
    from engine.core.position import position_json, position_of

    return position_json(position_of(Game(Setup(players=("a", "b"), seed=3)))).encode()


async def test_records_with_huge_numbers_or_deep_nesting_are_refused_clearly(
    simcord_env: simcord.Env, caplog: Any
) -> None:
    import logging

    table = Table(simcord_env)
    alice = table.players[0]
    cases = [
        (record_with(seed=10**400), "'seed' must be a whole number from 0 to"),
        (record_with(seed=-1), "'seed' must be a whole number from 0 to"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nested too deeply"),
        # A running game's position: it has no tiles to come, so it cannot be continued.
        (running_position(), "it is the position of a game still running"),
    ]
    with caplog.at_level(logging.ERROR):
        for data, expected in cases:
            result = await alice.slash(table.channel, "carcassonne import", file=("r.json", data))
            texts = [m.content for m in [result.response, *result.followups] if m]
            assert any(expected in t for t in texts), texts
            assert all(len(t) <= 2000 for t in texts)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert await table.bot.manager.records.games_in_channel(table.channel.id, ("active",)) == []
