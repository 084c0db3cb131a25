"""The authorisation policy covers every command, component and autocomplete, and decides by
role as its table says (the table-driven tests through Discord are in test_ui_policy_*.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot import policy
from bot.policy import Actor, GameFacts, LeagueFacts, Role, ServerFacts, TournamentFacts
from bot.ui import access, components, ids
from bot.ui.leagues.league_commands import ChallengeButton
from bot.ui.live_board import LiveBoardButton
from bot.ui.privacy import ForgetButton
from bot.ui.timing.chess_clock import PauseButton
from bot.ui.tournaments.tournament_commands import TournamentButton
from bot.ui.turn.abandon import AbandonButton
from bot.ui.turn.undo import UndoButton
from bot.ui.watching.follow import FollowButton

ROOT = Path(__file__).parents[2]


async def tree() -> app_commands.CommandTree[Any]:
    from bot.docs import command_tree

    return await command_tree()


def leaves(tree: app_commands.CommandTree[Any]) -> list[app_commands.Command[Any, ..., Any]]:
    found: list[app_commands.Command[Any, ..., Any]] = []
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            found.append(command)
    return found


async def test_every_slash_command_has_a_row() -> None:
    names = {command.qualified_name for command in leaves(await tree())}
    assert len(names) > 30
    missing = names - policy.POLICY.keys()
    assert not missing, f"commands without a policy row: {sorted(missing)}"


async def test_every_autocomplete_has_a_row() -> None:
    """Each option typed with suggestions asks the row named after it (``place``'s options
    one each, every league name one, every tournament name one)."""
    found = set()
    for command in leaves(await tree()):
        for param in command.parameters:
            if param.autocomplete:
                if command.qualified_name == "carcassonne place":
                    found.add(f"autocomplete place {param.name}")
                else:
                    assert param.name in ("league", "tournament"), (command.qualified_name, param)
                    found.add(f"autocomplete {param.name}")
    assert found == {r for r in policy.POLICY if r.startswith("autocomplete ")}


def alternatives(template: str, group: str) -> list[str]:
    """The words a template's named group accepts, e.g. ``join|leave`` -> [join, leave]."""
    match = re.search(rf"\(\?P<{group}>([a-z_|]+)\)", template)
    assert match is not None, (template, group)
    return match.group(1).split("|")


def test_every_component_has_a_row() -> None:
    """Every custom id the bot answers maps to a row: the lobby's buttons and menus, every turn
    kind, and each answer button (its class names its row)."""
    lobby = components.LobbyButton.__discord_ui_compiled_template__.pattern
    for op in alternatives(lobby, "op"):
        assert access.LOBBY_BUTTONS[op] in policy.POLICY, op
    for name in [*access.LOBBY_MENUS, "expansions", "expansion", "small_city", "hand"]:
        assert access.lobby_menu_action(name) in policy.POLICY, name
    kinds = [kind.KIND for kind in (*components.BUTTON_KINDS, *components.MENU_KINDS)]
    for kind in kinds:
        assert access.turn_action(kind) in policy.POLICY, kind
    for button in (
        UndoButton,
        AbandonButton,
        PauseButton,
        FollowButton,
        ChallengeButton,
        ForgetButton,
        LiveBoardButton,
        TournamentButton,
    ):
        assert button.action in policy.POLICY, button
    for op in ids.TOURNAMENT_OPS:  # the sign-up message's buttons ask the command's row
        assert f"tournament {op}" in policy.POLICY, op
    # Every persistent component class the bot registers is one of those above.
    known = {
        components.LobbyButton,
        components.LobbyOption,
        components.TurnButton,
        components.TurnSelect,
        UndoButton,
        AbandonButton,
        PauseButton,
        FollowButton,
        ChallengeButton,
        ForgetButton,
        LiveBoardButton,
        TournamentButton,
    }
    registered = set(components.DYNAMIC_ITEMS) | {
        UndoButton,
        AbandonButton,
        PauseButton,
        FollowButton,
        ChallengeButton,
        ForgetButton,
        LiveBoardButton,
        TournamentButton,
    }
    assert registered == known
    source = (ROOT / "bot" / "ui" / "__init__.py").read_text()
    added = re.findall(r"add_dynamic_items\(([^)]*)\)", source)
    named = {n.strip().lstrip("*") for part in added for n in part.split(",")} - {""}
    assert named == {
        "DYNAMIC_ITEMS",
        "UndoButton",
        "AbandonButton",
        "PauseButton",
        "FollowButton",
        "ForgetButton",
        "LiveBoardButton",
    }
    assert (
        '"challenge answer"' in (ROOT / "bot" / "ui" / "leagues" / "league_commands.py").read_text()
    )
    tournament_ui = (ROOT / "bot" / "ui" / "tournaments" / "tournament_commands.py").read_text()
    assert "bot.add_dynamic_items(TournamentButton)" in tournament_ui


async def test_every_row_is_asked_somewhere() -> None:
    """No row is dead: each is a command's own name (asked by its group's check, or by
    ``resolve`` naming it), a component's table entry, or a literal the code asks."""
    source = "\n".join(p.read_text() for p in (ROOT / "bot").rglob("*.py") if p.name != "policy.py")
    for group in (
        "commands.py",
        "leagues/league_commands.py",
        "tournaments/tournament_commands.py",
    ):
        text = (ROOT / "bot" / "ui" / group).read_text()
        assert "await access.authorise_command(interaction)" in text, group
    commands = {command.qualified_name for command in leaves(await tree())}
    derived = set(access.LOBBY_BUTTONS.values()) | set(access.LOBBY_MENUS.values())
    derived |= {"lobby options", "turn", "turn hand"}
    for action in policy.POLICY:
        if action in commands | derived or action.startswith("autocomplete place "):
            continue
        assert f'"{action}"' in source, f"nothing asks the row {action!r}"


def test_the_security_document_is_the_policy() -> None:
    documented = (ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8")
    assert documented == policy.security_markdown(), (
        "regenerate docs/SECURITY.md: python -m bot.docs security > docs/SECURITY.md"
    )


# -- the decision itself, role by role -----------------------------------------------------------

HOME, AWAY = 100, 200
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
GAME = GameFacts(
    7,
    HOME,
    private=False,
    owner_id=ALICE,
    players=frozenset({ALICE, BOB}),
    in_turn=BOB,
    followers=frozenset({CAROL}),
)


def test_a_stranger_from_another_server_is_only_ever_an_outsider() -> None:
    for admin in (False, True):
        for user in (ALICE, DAVE):  # even a player of the game, acting from elsewhere
            held = policy.roles(Actor(user, AWAY, admin), GAME)
            assert held == {Role.OUTSIDER}
            for action, found in policy.POLICY.items():
                if found.scope is policy.Scope.GAME:
                    decided = policy.decide(action, Actor(user, AWAY, admin), GAME)
                    assert decided.refusal == policy.ELSEWHERE, action


def test_roles_follow_the_facts() -> None:
    assert policy.roles(Actor(BOB, HOME), GAME) == {Role.MEMBER, Role.PLAYER, Role.TURN}
    assert policy.roles(Actor(ALICE, HOME), GAME) == {Role.MEMBER, Role.PLAYER, Role.CREATOR}
    assert policy.roles(Actor(CAROL, HOME), GAME) == {Role.MEMBER, Role.FOLLOWER}
    assert policy.roles(Actor(DAVE, HOME, True), GAME) == {Role.MEMBER, Role.ADMIN}
    league = LeagueFacts(1, HOME, DAVE)
    assert policy.roles(Actor(DAVE, HOME), league) == {Role.MEMBER, Role.ORGANISER}
    assert policy.roles(Actor(DAVE, AWAY, True), league) == {Role.OUTSIDER}
    tournament = TournamentFacts(1, HOME, DAVE)
    assert policy.roles(Actor(DAVE, HOME), tournament) == {Role.MEMBER, Role.ORGANISER}
    assert policy.roles(Actor(CAROL, HOME, True), tournament) == {Role.MEMBER, Role.ADMIN}
    assert policy.roles(Actor(DAVE, AWAY, True), tournament) == {Role.OUTSIDER}
    assert policy.roles(Actor(DAVE, AWAY, True), ServerFacts(AWAY)) == {Role.MEMBER, Role.ADMIN}


def test_a_private_game_shows_only_to_its_table() -> None:
    private = GameFacts(7, HOME, private=True, owner_id=ALICE, players=frozenset({ALICE, BOB}))
    for action in ("carcassonne status", "carcassonne export", "carcassonne replay"):
        assert policy.decide(action, Actor(BOB, HOME), private).allowed
        assert policy.decide(action, Actor(DAVE, HOME, True), private).refusal == policy.PRIVATE
        assert policy.decide(action, Actor(DAVE, HOME), GAME).allowed  # public: any member
    # Anything else a non-player tries on a private game says only that it is private.
    assert policy.decide("turn", Actor(DAVE, HOME), private).refusal == policy.PRIVATE
    assert policy.decide("carcassonne follow", Actor(DAVE, HOME), private).allowed


def test_a_review_shows_to_members_but_a_private_one_only_to_its_players() -> None:
    private = GameFacts(
        7,
        HOME,
        private=True,
        owner_id=ALICE,
        players=frozenset({ALICE, BOB}),
        followers=frozenset({CAROL}),
    )
    for user in (ALICE, BOB):
        assert policy.decide("carcassonne review", Actor(user, HOME), private).allowed
    assert not policy.decide("carcassonne review", Actor(CAROL, HOME), private).allowed
    assert policy.decide("carcassonne review", Actor(DAVE, HOME, True), private).refusal == (
        policy.PRIVATE
    )
    assert policy.decide("carcassonne review", Actor(DAVE, HOME), GAME).allowed
    for user in (ALICE, DAVE):
        refused = policy.decide("carcassonne review", Actor(user, AWAY, True), GAME)
        assert refused.refusal == policy.ELSEWHERE


def test_a_hint_is_only_for_the_player_in_turn() -> None:
    assert policy.decide("carcassonne review hint", Actor(BOB, HOME), GAME).allowed
    for user, admin in ((ALICE, False), (CAROL, False), (DAVE, True)):
        decided = policy.decide("carcassonne review hint", Actor(user, HOME, admin), GAME)
        assert decided.refusal == "not_your_turn", user


async def test_the_carcassonne_group_stays_within_discords_25_subcommands() -> None:
    """Discord refuses a group of more than 25 subcommands and subgroups: the hint is an option
    of ``review`` for that reason."""
    group = next(c for c in (await tree()).get_commands() if c.name == "carcassonne")
    assert isinstance(group, app_commands.Group)
    assert len(group.commands) <= 25
    review = next(c for c in group.commands if c.name == "review")
    assert isinstance(review, app_commands.Command)
    assert "hint" in {p.name for p in review.parameters}


async def test_the_tournament_group_stays_within_discords_25_subcommands() -> None:
    group = next(c for c in (await tree()).get_commands() if c.name == "tournament")
    assert isinstance(group, app_commands.Group)
    assert 10 <= len(group.commands) <= 25


def test_a_tournament_organiser_is_refused_elsewhere_and_others_are_refused_organising() -> None:
    """Organising rows: the tournament's organiser and admins; a member reads the tournament's
    refusal; anyone acting from another server is an outsider, whatever they are there."""
    tournament = TournamentFacts(5, HOME, DAVE)
    organising = [a for a, r in policy.POLICY.items() if r.scope is policy.Scope.TOURNAMENT]
    assert len(organising) >= 10
    for action in organising:
        found = policy.POLICY[action]
        for user, admin in ((DAVE, False), (CAROL, True), (BOB, False)):
            decided = policy.decide(action, Actor(user, HOME, admin), tournament)
            expected = user == DAVE or admin or Role.MEMBER in found.who
            assert decided.allowed == expected, (action, user)
            if not expected:
                assert decided.refusal == "tournament_organisers_only", action
            elsewhere = policy.decide(action, Actor(user, AWAY, admin), tournament)
            assert elsewhere.refusal == policy.ELSEWHERE, action


def test_an_unknown_action_is_refused() -> None:
    assert policy.decide("carcassonne launch", Actor(ALICE, HOME), GAME).refusal == "not_allowed"


ROLE_SETS = st.sets(st.sampled_from([r for r in policy.ROLES if r is not Role.OUTSIDER]))


@given(
    action=st.sampled_from(sorted(policy.POLICY)),
    player=st.booleans(),
    in_turn=st.booleans(),
    creator=st.booleans(),
    follower=st.booleans(),
    admin=st.booleans(),
    private=st.booleans(),
)
def test_a_decision_is_the_row_applied_to_the_roles(
    action: str,
    player: bool,
    in_turn: bool,
    creator: bool,
    follower: bool,
    admin: bool,
    private: bool,
) -> None:
    """Allowed exactly when a role held is one the row lists (in a private game, the private
    list); a refusal names the row's text, or privacy for a caller not at the table."""
    found = policy.POLICY[action]
    user = 9
    facts = GameFacts(
        7,
        HOME,
        private=private,
        owner_id=user if creator else ALICE,
        players=frozenset({user, ALICE} if player or in_turn else {ALICE}),
        in_turn=user if in_turn else ALICE,
        followers=frozenset({user} if follower else ()),
    )
    held = {Role.MEMBER}
    held |= {Role.ADMIN} if admin else set()
    held |= {Role.PLAYER} if player or in_turn else set()
    held |= {Role.TURN} if in_turn else set()
    held |= {Role.CREATOR} if creator else set()
    held |= {Role.FOLLOWER} if follower else set()
    decided = policy.decide(action, Actor(user, HOME, admin), facts)
    assert decided.roles == held
    allowed = bool(held & found.allowed(private))
    assert decided.allowed == allowed
    if not allowed:
        at_table = held & {Role.PLAYER, Role.FOLLOWER}
        expected = policy.PRIVATE if private and not at_table else found.refusal
        assert decided.refusal == expected


def test_the_admin_flag_comes_from_the_callers_permissions() -> None:
    """Manage Server or Administrator, in a server; never in a direct message."""

    class Fake:
        def __init__(self, guild: int | None, perms: discord.Permissions) -> None:
            self.guild_id = guild
            self.permissions = perms
            self.user = discord.Object(5)

    manage = discord.Permissions(manage_guild=True)
    assert access.actor(Fake(HOME, manage)).admin  # type: ignore[arg-type]
    assert access.actor(Fake(HOME, discord.Permissions(administrator=True))).admin  # type: ignore[arg-type]
    assert not access.actor(Fake(HOME, discord.Permissions.none())).admin  # type: ignore[arg-type]
    assert not access.actor(Fake(None, manage)).admin  # type: ignore[arg-type]
