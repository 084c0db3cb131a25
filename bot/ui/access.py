"""The Discord side of :mod:`bot.policy`: an interaction becomes an actor, a stored game,
league or tournament becomes facts, and a refusal becomes the caller's private message.

Every command, component and autocomplete calls :func:`authorise` (commands acting on the
caller's server or on themselves through their group's check, see :func:`authorise_command`)
before it reads or changes anything. Each decision is logged (refusals at INFO, with who, what
and why), and the log record carries the :class:`~bot.policy.Decision` as ``decision``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

import discord

from bot import logs, policy
from bot.errors import GameNotFound, NotAPlayer, NotYourTurn
from bot.lobby import player_names
from bot.policy import (
    Actor,
    Decision,
    GameFacts,
    LeagueFacts,
    Role,
    Scope,
    ServerFacts,
    TournamentFacts,
)
from bot.tournaments import TournamentNotFound
from bot.ui.errors import UIError

if TYPE_CHECKING:
    from bot.app import CarcassonneBot
    from bot.storage import GameRow, LeagueRow, TournamentRow

log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction) -> CarcassonneBot:
    return cast("CarcassonneBot", interaction.client)


def actor(interaction: discord.Interaction) -> Actor:
    """The caller: their id, the server they act from, and whether they may manage it."""
    guild = interaction.guild_id
    perms = interaction.permissions
    admin = guild is not None and bool(perms.manage_guild or perms.administrator)
    return Actor(interaction.user.id, guild, admin)


async def game_facts(
    interaction: discord.Interaction, row: GameRow, wanted: frozenset[Role]
) -> GameFacts:
    """The facts of ``row`` the action's row needs (the turn and the followers cost a read
    each: fetched only when they can change the answer)."""
    return await bot_of(interaction).manager.watch.facts(row, interaction.user.id, wanted)


def _log(interaction: discord.Interaction, decision: Decision, subject: object) -> None:
    level = logging.DEBUG if decision.allowed else logging.INFO
    log.log(
        level,
        "%s by user %s from server %s on %s: %s",
        decision.action,
        interaction.user.id,
        interaction.guild_id,
        subject,
        decision.refusal or "allowed",
        extra={"decision": decision},
    )


def _subject_name(subject: policy.Subject) -> str:
    if isinstance(subject, GameFacts):
        return f"game {subject.game_id}"
    if isinstance(subject, LeagueFacts):
        return f"league {subject.league_id}"
    if isinstance(subject, TournamentFacts):
        return f"tournament {subject.tournament_id}"
    return "its server"


async def authorise(
    interaction: discord.Interaction,
    action: str,
    row: GameRow | None = None,
    *,
    league: LeagueRow | None = None,
    tournament: TournamentRow | None = None,
    game_id: int | None = None,
) -> Decision:
    """Refuse (raising the caller's message) unless the policy lets the caller do ``action``
    to ``row``, ``league``, ``tournament`` or (none given) their own server; ``game_id`` names
    the game a league or tournament action was asked about (its refusal names it)."""
    subject: policy.Subject
    if row is not None:
        logs.GAME.set(row.id)  # the game of every log line of this interaction from here on
        subject = await game_facts(interaction, row, policy.needs(action))
    elif league is not None:
        subject = LeagueFacts(league.id, league.guild_id, league.organiser_id)
    elif tournament is not None:
        subject = TournamentFacts(tournament.id, tournament.guild_id, tournament.organiser_id)
    else:
        subject = ServerFacts(interaction.guild_id)
    decision = policy.decide(action, actor(interaction), subject)
    _log(interaction, decision, _subject_name(subject))
    if decision.refusal is None:
        return decision
    if decision.refusal == policy.ELSEWHERE:
        if tournament is not None and game_id is None:  # the words of a name not found
            raise TournamentNotFound(name=str(tournament.id))
        number = row.id if row is not None else game_id
        raise GameNotFound(game_id=number or 0)  # the words of a number that does not exist
    raise refusal(decision, row, subject)


def refusal(decision: Decision, row: GameRow | None, subject: object) -> Exception:
    """The caller's message for a refused ``decision``."""
    key = decision.refusal or "not_allowed"
    in_turn = subject.in_turn if isinstance(subject, GameFacts) else None
    if key in TURN_KEYS and row is not None and in_turn is None:  # nobody is in turn
        return UIError("not_started" if row.status == "lobby" else "game_closed", game_id=row.id)
    params: dict[str, object] = {}
    if row is not None:
        params["game_id"] = row.id
        params["owner"] = f"<@{row.owner_id}>"
        seat = row.seat_of(in_turn) if in_turn is not None else None
        params["player"] = player_names(row.seats)[seat.seat] if seat is not None else "?"
    if key == "players_only":
        return NotAPlayer(game_id=params.get("game_id", 0))
    if key == "not_your_turn":  # a command: says whether the caller plays at all
        if Role.PLAYER not in decision.roles:
            return NotAPlayer(game_id=params.get("game_id", 0))
        return NotYourTurn(player=params["player"])
    return UIError(key, **params)


#: The refusals of the player-in-turn rows (buttons and menus; the place command).
TURN_KEYS = ("not_for_you", "not_your_turn")


def command_action(interaction: discord.Interaction) -> str | None:
    """The policy row of the slash command being run (its qualified name)."""
    command = interaction.command
    return None if command is None else command.qualified_name


async def authorise_command(interaction: discord.Interaction) -> None:
    """The groups' check, before any command runs: a command without a row is refused; one
    acting on the caller's server or on themselves is decided here; one acting on a game, a
    league or a tournament is decided when it is found (``resolve``)."""
    action = command_action(interaction)
    found = policy.POLICY.get(action or "")
    if found is None:
        await authorise(interaction, action or "?")  # refused, and logged
        return
    if found.scope in (Scope.SERVER, Scope.SELF):
        await authorise(interaction, action or "?")


async def may_list(interaction: discord.Interaction, row: GameRow) -> bool:
    """Whether the caller sees ``row`` in a list of a channel's games: a game of their server,
    and, when private, only if they play it or were let in to follow it."""
    if row.guild_id is not None and row.guild_id != interaction.guild_id:
        return False
    user = interaction.user.id
    if not row.private or row.seat_of(user) is not None:
        return True
    found = await bot_of(interaction).manager.watch.follow_row(row.id, user)
    return found is not None and found.status == "following"


async def authorise_game(interaction: discord.Interaction, action: str, game_id: int) -> GameRow:
    """A component's check: the game its id names, once the caller may do ``action`` to it."""
    row = await bot_of(interaction).manager.game(game_id)
    await authorise(interaction, action, row)
    return row


#: The policy row of each lobby button (``cc:lobby:<game>:<op>``) and menu (``cc:lopt``).
LOBBY_BUTTONS = {
    "join": "lobby join",
    "leave": "lobby leave",
    "start": "lobby start",
    "solo": "lobby start",
    "cancel": "lobby cancel",
    "options": "lobby options",
    "hand": "lobby options",
    "purist": "lobby options",
    "back": "lobby options",
    "seats": "lobby seats",
    "shuffle": "lobby seats",
    "colour": "lobby colour",
    "computer": "lobby computers",
    "clock": "lobby clock",
}
LOBBY_MENUS = {
    "colour": "lobby colour",
    "seat_who": "lobby seats",
    "seat_to": "lobby seats",
    "computer_add": "lobby computers",
    "computer_remove": "lobby computers",
    "clock": "lobby clock",
}


def lobby_menu_action(name: str) -> str:
    """Every other lobby menu (rules, expansions) changes the game's options."""
    return LOBBY_MENUS.get(name, "lobby options")


def turn_action(kind: str) -> str:
    """The turn components: the hand button shows a player their own tiles; every other one
    is a step of the turn of the player in turn."""
    return "turn hand" if kind == "hand" else "turn"


async def stale_for_player(interaction: discord.Interaction, game_id: int, turn: int) -> bool:
    """Whether the caller plays ``game_id`` and clicked a prompt of another turn than now."""
    manager = bot_of(interaction).manager
    row = await manager.game(game_id)
    if row.seat_of(interaction.user.id) is None:
        return False
    return (await manager.decision(game_id)).turn != turn
