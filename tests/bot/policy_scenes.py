"""Scenes for the table-driven authorisation tests (test_ui_policy_*.py): two servers, every
role, and one way to use each row of :data:`bot.policy.POLICY` through Discord.

Every row is tried with every role, through simcord: commands and autocompletes as typed, and
components as clicked (a copy of the button or menu is posted where the caller can click it, as
a forged or forwarded component would be; the bot answers it by its custom id alone). The
policy logs every decision with the :class:`~bot.policy.Decision` attached: a test reads which
rows were asked and what they answered, so a path that forgets to ask fails.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
import simcord
from conftest import random_action
from conftest_ui import Table, activities_enabled, said

from bot import policy
from bot.activity.fake_discord import FakeDiscord
from bot.activity.server import ActivityServer
from bot.activity.settings import ActivitySettings
from bot.policy import Decision, Role
from bot.ui import components, ids
from bot.ui.leagues.league_commands import ChallengeButton
from bot.ui.live_board import LiveBoardButton
from bot.ui.privacy import ForgetButton
from bot.ui.timing.chess_clock import PauseButton
from bot.ui.tournaments.tournament_commands import TournamentButton
from bot.ui.turn.abandon import AbandonButton
from bot.ui.turn.undo import UndoButton
from bot.ui.watching.follow import FollowButton

T, P, C, F, M, A, ORG, X = policy.ROLES

#: Who plays each role, by subject. A persona of the other server is only ever an outsider.
GAME_PERSONAS: dict[str, tuple[str, frozenset[Role]]] = {
    "player in turn": ("bob", frozenset({T, P, M})),
    "player": ("pat", frozenset({P, M})),
    "creator": ("alice", frozenset({C, P, M})),
    "admitted follower": ("carol", frozenset({F, M})),
    "member": ("dave", frozenset({M})),
    "server admin": ("erin", frozenset({A, M})),
    "member of another server": ("frank", frozenset({X})),
    "admin of another server": ("gina", frozenset({X})),
}
LOBBY_PERSONAS = {
    "creator": ("alice", frozenset({C, P, M})),
    "player": ("bob", frozenset({P, M})),
    "member": ("dave", frozenset({M})),
    "server admin": ("erin", frozenset({A, M})),
    "member of another server": ("frank", frozenset({X})),
    "admin of another server": ("gina", frozenset({X})),
}
LEAGUE_PERSONAS = {
    "league organiser": ("olga", frozenset({ORG, M})),
    "member": ("dave", frozenset({M})),
    "server admin": ("erin", frozenset({A, M})),
    "member of another server": ("frank", frozenset({X})),
    "admin of another server": ("gina", frozenset({X})),
}
TOURNAMENT_PERSONAS = {
    "tournament organiser": ("olga", frozenset({ORG, M})),
    "member": ("dave", frozenset({M})),
    "server admin": ("erin", frozenset({A, M})),
    "member of another server": ("frank", frozenset({X})),
    "admin of another server": ("gina", frozenset({X})),
}
#: Server-wide rows act on the caller's own server: the other server's people are its members.
SERVER_PERSONAS = {
    "member": ("dave", frozenset({M})),
    "server admin": ("erin", frozenset({A, M})),
    "member of another server": ("frank", frozenset({M})),
    "admin of another server": ("gina", frozenset({A, M})),
}


class Scene:
    """Two servers: ``home`` (alice, bob, pat, carol, dave, olga; erin administers it) and
    ``away`` (frank; gina administers it)."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.table = Table(env, players=2)
        self.home = self.table.guild
        self.channel = self.table.channel
        alice, bob = self.table.players
        self.people: dict[str, Any] = {"alice": alice, "bob": bob}
        for name in ("pat", "carol", "dave", "olga"):
            self.people[name] = self.home.add_member(env.create_user(name))
        manage = discord.Permissions(manage_guild=True)
        admins = self.home.create_role("admins", permissions=manage)
        self.people["erin"] = self.home.add_member(env.create_user("erin"), roles=[admins])
        self.away = env.create_guild()
        self.away_channel = self.away.create_text_channel("elsewhere")
        self.people["frank"] = self.away.add_member(env.create_user("frank"))
        away_admins = self.away.create_role("admins", permissions=manage)
        self.people["gina"] = self.away.add_member(env.create_user("gina"), roles=[away_admins])
        self.game_id = 0
        self.lobby_id = 0
        self.league_name = "Spring"
        self.league_game = 0
        self.tournament_name = "Open"
        self.tournament_id = 0
        self.tournament_game = 0

    @property
    def bot(self) -> Any:
        return self.table.bot

    def where_of(self, person: Any) -> Any:
        name = next(n for n, p in self.people.items() if p is person)
        return self.where(name)

    def where(self, name: str) -> Any:
        """The channel where ``name`` types and clicks: their own server's."""
        return self.away_channel if name in ("frank", "gina") else self.channel

    # -- subjects ---------------------------------------------------------------------------

    async def lobby(self, *, private: bool) -> int:
        """Alice's open lobby that bob joined."""
        alice, bob = self.people["alice"], self.people["bob"]
        await alice.slash(self.channel, "carcassonne new", private=private)
        manager = self.bot.manager
        rows = await manager.records.games_in_channel(self.channel.id, ("lobby",))
        self.lobby_id = max(r.id for r in rows)
        await manager.lobbies.join(self.lobby_id, bob.id, "bob")
        return self.lobby_id

    async def game(self, *, private: bool) -> int:
        """Alice, bob and pat play (alice created it and has played her first turn: bob is in
        turn); carol follows it (let in by alice when private)."""
        manager = self.bot.manager
        alice, bob, pat = self.people["alice"], self.people["bob"], self.people["pat"]
        await alice.slash(self.channel, "carcassonne new", private=private)
        rows = await manager.records.games_in_channel(self.channel.id, ("lobby",))
        game_id: int = max(r.id for r in rows)
        lobby = self.channel.last_message
        for player in (bob, pat):
            await player.click(lobby, custom_id=f"cc:lobby:{game_id}:join")
        manager.seeds = lambda: 7
        await alice.click(lobby, custom_id=f"cc:lobby:{game_id}:start")
        rng = random.Random(1)
        view = await manager.decision(game_id)
        while view.user_id == alice.id:
            view = (
                await manager.play_turn(
                    game_id, alice.id, random_action(view, rng), turn=view.turn, phase=view.phase
                )
            ).view
        assert view.user_id == bob.id
        carol = self.people["carol"]
        await manager.watch.follow(game_id, carol.id)
        if private:
            await manager.watch.accept(game_id, carol.id, alice.id)
        self.game_id = game_id
        return game_id

    async def league(self) -> None:
        """League Spring of the home server, organised by olga (who does not manage the
        server); dave challenged by olga (the challenge's game is ``league_game``)."""
        manager = self.bot.manager
        olga, dave = self.people["olga"], self.people["dave"]
        league = await manager.leagues.create_league(
            self.home.id, self.channel.id, olga.id, self.league_name, admin=True
        )
        for name in ("olga", "dave"):
            await manager.leagues.join_league(league.id, self.people[name].id, name)
        row = await manager.leagues.challenge(league.id, olga.id, "olga", [(dave.id, "dave")])
        self.league_game = row.id

    async def tournament(self, *, started: bool) -> None:
        """Tournament Open of the home server, organised by olga (who does not manage the
        server), dave and pat signed up; ``started``: round 1 is being played (its game is
        ``tournament_game``)."""
        manager = self.bot.manager
        olga = self.people["olga"]
        found = await manager.tournaments.create_tournament(
            self.home.id, self.channel.id, olga.id, self.tournament_name, admin=True
        )
        self.tournament_id = found.id
        for name in ("dave", "pat"):
            await manager.tournaments.sign_up(found.id, self.people[name].id, name)
        if started:
            manager.seeds = lambda: 7
            views = await manager.tournaments.start_tournament(found.id, olga.id, admin=False)
            self.tournament_game = views[0].game_id
        await manager.tournaments.listened()
        await self.env.settle()

    async def fingerprint(self) -> Any:
        """Everything a refused act must leave as it was: games, seats, follows, leagues."""
        manager = self.bot.manager
        storage = manager.storage
        games = []
        for status in ("lobby", "active", "finished", "abandoned"):
            for row in await storage.list_games(statuses=(status,), limit=1000):
                follows = await manager.watch.followers(row.id)
                games.append(
                    (row.id, row.status, row.action_count, row.seats, row.options, follows)
                )
        leagues = []
        for league in await manager.leagues.guild_leagues(self.home.id):
            members = await manager.leagues.league_members(league.id)
            audit = await storage.league_audit(league.id, 100)
            leagues.append(
                (league, sorted(m.user_id for m in members if m.left_at is None), len(audit))
            )
        contests = []
        for found in await manager.tournaments.guild_tournaments(self.home.id):
            entrants = await manager.tournaments.entrants(found.id)
            audit = await storage.tournament_audit(found.id, 100)
            contests.append(
                (
                    found.state,
                    found.round,
                    sorted((e.user_id, e.checked_in, e.dropped_round) for e in entrants),
                    len(audit),
                )
            )
        settings = await manager.records.guild_settings(self.home.id)
        return sorted(games, key=lambda g: g[0]), leagues, contests, settings


# -- how each row is used ------------------------------------------------------------------------

Use = Callable[[Scene, Any, Any], Awaitable[Any]]


def slash(command: str, /, **options: Any) -> Use:
    """A command, with ``game``/``league`` options filled in from the scene."""

    async def use(scene: Scene, person: Any, channel: Any) -> Any:
        filled = {}
        for key, value in options.items():
            if value == "GAME":
                value = scene.game_id or scene.lobby_id
            elif value == "LEAGUE_GAME":
                value = scene.league_game
            elif value == "LEAGUE":
                value = scene.league_name
            elif value == "TOURNAMENT":
                value = scene.tournament_name
            elif value == "TOURNAMENT_GAME":
                value = scene.tournament_game
            elif value == "RECORD":
                value = ("r.json", json.dumps(await record(scene)).encode())
            elif value == "OPPONENT":  # someone of the caller's own server
                home = scene.where_of(person) is scene.channel
                names = ("dave", "pat") if home else ("frank", "gina")
                value = next(scene.people[n] for n in names if scene.people[n] is not person)
            filled[key] = value
        return await person.slash(channel, command, **filled)

    return use


async def record(scene: Scene) -> dict[str, Any]:
    if not scene.game_id:
        await scene.game(private=False)
    return dict(await scene.bot.manager.records.export_record(scene.game_id))


def autocomplete(command: str, option: str, **options: Any) -> Use:
    async def use(scene: Scene, person: Any, channel: Any) -> Any:
        filled = {k: (scene.game_id if v == "GAME" else v) for k, v in options.items()}
        return await person.autocomplete(channel, command, option, "", **filled)

    return use


async def post_copy(scene: Scene, channel: Any, item: discord.ui.Item[Any]) -> Any:
    """The bot posts ``item`` where the caller can click it (as a forwarded or forged copy)."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    target = scene.bot.get_channel(channel.id)
    await target.send("copy", view=view)
    return channel.last_message


def button(make: Callable[[Scene], discord.ui.Item[Any]]) -> Use:
    async def use(scene: Scene, person: Any, channel: Any) -> Any:
        item = make(scene)
        message = await post_copy(scene, channel, item)
        custom_id = item.item.custom_id if isinstance(item, discord.ui.DynamicItem) else None
        return await person.click(message, custom_id=custom_id)

    return use


def menu(custom_id: Callable[[Scene], str], value: str | Callable[[Scene], str]) -> Use:
    async def use(scene: Scene, person: Any, channel: Any) -> Any:
        chosen = value(scene) if callable(value) else value
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(scene), options=[discord.SelectOption(label="x", value=chosen)]
        )
        cid = custom_id(scene)
        lobby = ids.LobbyMenu.decode(cid)
        if lobby is not None:
            item: Any = components.LobbyOption(lobby, select)
        else:
            item = components.TurnSelect(turn_id(cid), select)
        message = await post_copy(scene, channel, item)
        return await person.select(message, [chosen], custom_id=cid)

    return use


def turn_id(custom_id: str) -> ids.TurnId:
    value = ids.decode(custom_id)
    assert isinstance(value, ids.TurnId), custom_id
    return value


def lobby_button(op: str) -> Use:
    return button(
        lambda s: components.LobbyButton(
            ids.LobbyOp(s.lobby_id, op), op, discord.ButtonStyle.secondary
        )
    )


async def turn_put(scene: Scene) -> tuple[str, str]:
    """The real square-and-rotation menu of bob's turn message and its first value."""
    from conftest_ui import put_options

    history = [m for t in scene.channel.threads for m in t.history()]
    for message in reversed(history):
        found = put_options(message)
        if found and f":{scene.game_id}:" in found[0][0]:
            menu_id, option = found[0]
            return menu_id, option["value"]
    raise AssertionError("no turn message with a square menu")


def turn_menu() -> Use:
    async def use(scene: Scene, person: Any, channel: Any) -> Any:
        menu_id, value = await turn_put(scene)
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=menu_id, options=[discord.SelectOption(label="x", value=value)]
        )
        message = await post_copy(scene, channel, components.TurnSelect(turn_id(menu_id), select))
        return await person.select(message, [value], custom_id=menu_id)

    return use


def answer(cls: Any, value: Callable[[Scene], ids.ComponentId]) -> Use:
    return button(lambda s: cls(value(s), "answer", discord.ButtonStyle.secondary))


def launch() -> Use:
    """Play on the board, pressed where Discord launches Activities (the bot answers those it
    lets in with Discord's LAUNCH_ACTIVITY response)."""
    press = answer(LiveBoardButton, lambda s: ids.LiveBoard(s.game_id))

    async def use(scene: Scene, person: Any, channel: Any) -> Any:
        with activities_enabled():
            return await press(scene, person, channel)

    return use


@dataclasses.dataclass
class BoardAnswer:
    """What the live board told a persona, shaped as an interaction's answer (a private one:
    only the board's user reads it)."""

    response: Any
    followups: list[Any] = dataclasses.field(default_factory=list)
    ephemeral: bool = True


def on_the_board() -> Use:
    """The live board (the Activity) opened by ``person`` in their own server's channel, signed
    in through a local fake of Discord, asking for the scene's game by number."""

    async def use(scene: Scene, person: Any, channel: Any) -> BoardAnswer:
        guild = channel.guild.id
        discord_fake = FakeDiscord("42", "secret")
        discord_fake.add_user(person.id, person.name, {guild: 0})
        await discord_fake.start()
        settings = ActivitySettings(0, "127.0.0.1", "42", "secret", discord_fake.base)
        server = ActivityServer(scene.bot.manager, settings)
        await server.start()
        hub_log = logging.getLogger("bot.activity")
        level = hub_log.level
        hub_log.setLevel(logging.DEBUG)
        try:
            async with aiohttp.ClientSession() as http:
                base = f"http://127.0.0.1:{server.port}"
                body = {
                    "code": discord_fake.code_for(person.id),
                    "guild": str(guild),
                    "channel": str(channel.id),
                }
                async with http.post(base + "/api/token", json=body) as answer:
                    session = (await answer.json())["session"]
                ws = await http.ws_connect(base + "/ws")
                await ws.send_json({"type": "hello", "session": session, "game": scene.game_id})
                welcome = await ws.receive_json(timeout=5)
                assert welcome["type"] == "welcome"
                said = await ws.receive_json(timeout=5)
                await ws.close()
        finally:
            hub_log.setLevel(level)
            await server.close()
            await discord_fake.close()
        text = said.get("text", "") if said["type"] == "refused" else said["type"]
        return BoardAnswer(response=Said(text))

    return use


@dataclasses.dataclass
class Said:
    """A text shaped as a simcord message (only its content is read)."""

    content: str


#: Each row: the subject it needs, and the ways it is used (every way is tried with every role).
ROWS: dict[str, tuple[str, list[Use]]] = {
    "carcassonne new": ("server", [slash("carcassonne new")]),
    "carcassonne practice": ("server", [slash("carcassonne practice")]),
    "carcassonne import": ("server", [slash("carcassonne import", file="RECORD")]),
    "carcassonne board": ("game", [slash("carcassonne board", game="GAME")]),
    "carcassonne tiles": ("game", [slash("carcassonne tiles", game="GAME")]),
    "carcassonne replay": ("game", [slash("carcassonne replay", game="GAME")]),
    "carcassonne status": ("game", [slash("carcassonne status", game="GAME")]),
    "carcassonne export": ("game", [slash("carcassonne export", game="GAME")]),
    "carcassonne rules": ("game", [slash("carcassonne rules", game="GAME")]),
    "carcassonne review": ("game", [slash("carcassonne review", game="GAME")]),
    "carcassonne review hint": ("game", [slash("carcassonne review", game="GAME", hint=True)]),
    "carcassonne place": ("game", [slash("carcassonne place", cell="A", game="GAME")]),
    "carcassonne resign": ("game", [slash("carcassonne resign", game="GAME")]),
    "carcassonne undo": ("game", [slash("carcassonne undo", game="GAME")]),
    "carcassonne abandon": ("game", [slash("carcassonne abandon", game="GAME")]),
    "carcassonne follow": ("game", [slash("carcassonne follow", game="GAME")]),
    "carcassonne unfollow": ("game", [slash("carcassonne unfollow", game="GAME")]),
    "live board watch": ("game", [on_the_board()]),
    "carcassonne games": ("server", [slash("carcassonne games", which="channel")]),
    "carcassonne mygames": ("server", [slash("carcassonne mygames")]),
    "carcassonne away": ("server", [slash("carcassonne away", days=0)]),
    "carcassonne reminders": ("server", [slash("carcassonne reminders", dm=False)]),
    "carcassonne stats": ("server", [slash("carcassonne stats")]),
    "carcassonne help": ("server", [slash("carcassonne help")]),
    "carcassonne settings": ("server", [slash("carcassonne settings")]),
    "carcassonne settings change": (
        "server",
        [slash("carcassonne settings", language="fr"), slash("carcassonne settings", keep_days=30)],
    ),
    "carcassonne privacy": ("server", [slash("carcassonne privacy")]),
    "carcassonne forget-me": ("server", [slash("carcassonne forget-me")]),
    "league create": ("server", [slash("league create", name="Autumn")]),
    "league join": ("league", [slash("league join", league="LEAGUE")]),
    "league leave": ("league", [slash("league leave", league="LEAGUE")]),
    "league standings": ("league", [slash("league standings", league="LEAGUE")]),
    "league leaderboard": ("league", [slash("league leaderboard", league="LEAGUE")]),
    "league profile": ("league", [slash("league profile", league="LEAGUE")]),
    "league stats": ("league", [slash("league stats", league="LEAGUE")]),
    "league challenge": (
        "league",
        [slash("league challenge", opponent1="OPPONENT", league="LEAGUE")],
    ),
    "league schedule": ("league", [slash("league schedule", league="LEAGUE")]),
    "league close": ("league", [slash("league close", reason="done", league="LEAGUE")]),
    "league log": ("league", [slash("league log", league="LEAGUE")]),
    "league annul": ("league", [slash("league annul", game="LEAGUE_GAME", reason="why")]),
    "autocomplete league": ("server", [autocomplete("league join", "league")]),
    "tournament create": ("server", [slash("tournament create", name="Autumn")]),
    "tournament signup": (
        "tournament",
        [
            slash("tournament signup", tournament="TOURNAMENT"),
            answer(TournamentButton, lambda s: ids.TournamentOp(s.tournament_id, "signup")),
        ],
    ),
    "tournament withdraw": (
        "tournament",
        [
            slash("tournament withdraw", tournament="TOURNAMENT"),
            answer(TournamentButton, lambda s: ids.TournamentOp(s.tournament_id, "withdraw")),
        ],
    ),
    "tournament checkin": (
        "tournament",
        [
            slash("tournament checkin", tournament="TOURNAMENT"),
            answer(TournamentButton, lambda s: ids.TournamentOp(s.tournament_id, "checkin")),
        ],
    ),
    "tournament checkin open": (
        "tournament",
        [slash("tournament checkin", tournament="TOURNAMENT", open=True)],
    ),
    "tournament start": ("tournament", [slash("tournament start", tournament="TOURNAMENT")]),
    "tournament standings": (
        "tournament",
        [slash("tournament standings", tournament="TOURNAMENT")],
    ),
    "tournament drop": ("tournament", [slash("tournament drop", tournament="TOURNAMENT")]),
    "tournament drop player": (
        "tournament",
        [slash("tournament drop", tournament="TOURNAMENT", player="OPPONENT", reason="why")],
    ),
    "tournament annul": (
        "tournament game",
        [slash("tournament annul", game="TOURNAMENT_GAME", reason="why")],
    ),
    "tournament replay": (
        "tournament game",
        [slash("tournament replay", game="TOURNAMENT_GAME", reason="why")],
    ),
    "tournament cancel": (
        "tournament",
        [slash("tournament cancel", reason="done", tournament="TOURNAMENT")],
    ),
    "tournament log": ("tournament", [slash("tournament log", tournament="TOURNAMENT")]),
    "autocomplete tournament": ("server", [autocomplete("tournament signup", "tournament")]),
    "autocomplete place cell": ("game", [autocomplete("carcassonne place", "cell", game="GAME")]),
    "autocomplete place rotation": (
        "game",
        [autocomplete("carcassonne place", "rotation", cell="A", game="GAME")],
    ),
    "autocomplete place figure": (
        "game",
        [autocomplete("carcassonne place", "figure", cell="A", game="GAME")],
    ),
    "lobby join": ("lobby", [lobby_button("join")]),
    "lobby leave": ("lobby", [lobby_button("leave")]),
    "lobby colour": (
        "lobby",
        [lobby_button("colour"), menu(lambda s: f"cc:lopt:{s.lobby_id}:colour", "blue")],
    ),
    "lobby start": ("lobby", [lobby_button("start")]),
    "lobby cancel": ("lobby", [lobby_button("cancel")]),
    "lobby options": (
        "lobby",
        [
            lobby_button("options"),
            lobby_button("purist"),
            menu(lambda s: f"cc:lopt:{s.lobby_id}:small_city", "modern"),
        ],
    ),
    "lobby seats": ("lobby", [lobby_button("seats"), lobby_button("shuffle")]),
    "lobby computers": (
        "lobby",
        [lobby_button("computer"), menu(lambda s: f"cc:lopt:{s.lobby_id}:computer_add", "easy")],
    ),
    "lobby clock": ("lobby", [lobby_button("clock")]),
    "turn": ("game", [turn_menu()]),
    "turn hand": (
        "game",
        [
            button(
                lambda s: components.TurnButton(
                    ids.ShowHand(s.game_id, 1), "hand", discord.ButtonStyle.secondary
                )
            )
        ],
    ),
    "live board": ("game", [launch()]),
    "undo answer": ("game", [answer(UndoButton, lambda s: ids.UndoAnswer(s.game_id, 0, False))]),
    "abandon answer": (
        "game",
        [answer(AbandonButton, lambda s: ids.AbandonAnswer(s.game_id, False))],
    ),
    "pause answer": ("game", [answer(PauseButton, lambda s: ids.PauseAnswer(s.game_id, False))]),
    "follow answer": (
        "game",
        [answer(FollowButton, lambda s: ids.FollowAnswer(s.game_id, s.people["dave"].id, False))],
    ),
    "forget answer": (
        "server",
        [answer(ForgetButton, lambda s: ids.ForgetAnswer(0, s.people["dave"].id, False))],
    ),
    "challenge answer": (
        "league",
        [answer(ChallengeButton, lambda s: ids.ChallengeAnswer(s.league_game, False))],
    ),
}

SUBJECT_PERSONAS = {
    "game": GAME_PERSONAS,
    "lobby": LOBBY_PERSONAS,
    "league": LEAGUE_PERSONAS,
    "tournament": TOURNAMENT_PERSONAS,
    "tournament game": TOURNAMENT_PERSONAS,
    "server": SERVER_PERSONAS,
}


@dataclasses.dataclass
class Tried:
    """One use of a row by one persona: what the policy decided and what the caller read."""

    row: str
    persona: str
    expected: bool
    decisions: list[Decision]
    texts: list[str]
    ephemeral: bool


def decisions_of(records: list[logging.LogRecord], row: str) -> list[Decision]:
    found = [getattr(r, "decision", None) for r in records]
    return [d for d in found if isinstance(d, Decision) and d.action == row]


def texts_of(result: Any) -> list[str]:
    if isinstance(result, list):  # an autocomplete's choices
        return [str(choice.get("value")) for choice in result]
    return said(result)


def persona_roles_for(row: str, subject: str) -> dict[str, tuple[str, frozenset[Role]]]:
    personas = dict(SUBJECT_PERSONAS[subject])
    if row == "challenge answer":  # a game of the league: its people are members of the server
        personas.pop("league organiser", None)
    return personas


def expected_allowed(row: str, roles: frozenset[Role], private: bool) -> bool:
    return bool(roles & policy.POLICY[row].allowed(private))
