"""Who may do what, to which game, league or tournament, from which server: the one
authorisation policy.

Every slash command, button, menu and autocomplete names an *action* (a row of :data:`POLICY`)
and asks :func:`decide` before it reads or changes anything. A row says which *roles* may act,
what the action reveals or changes, and, for actions that show a game, who may see a private
game. ``docs/SECURITY.md`` is this table (``python -m bot.docs --security`` writes it; a test
keeps it current), and the tests try every row with every role.

A role is what the caller is *to this game or league*, from facts the bot stores: a member of
another server is only ever :attr:`Role.OUTSIDER`, whatever their permissions there, and is told
the same thing as for a number that does not exist ("there is no game #12 here"), so a refusal
never confirms that a game exists elsewhere. A private game shows itself (board, status,
tiles, export, replay, viewer link) to its players and admitted followers only.

This module is part of the bot's core: it knows nothing of Discord (the Discord layer turns an
interaction into an :class:`Actor` and the stored rows into :class:`GameFacts` or
:class:`LeagueFacts` or :class:`TournamentFacts`, see ``bot.ui.access``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    """What a caller is to a game, league or tournament (a caller usually holds several)."""

    TURN = "player in turn"
    PLAYER = "player"
    CREATOR = "game creator"
    FOLLOWER = "admitted follower"
    MEMBER = "member of its server"
    ADMIN = "server admin"
    ORGANISER = "organiser"
    OUTSIDER = "anyone else"


class Scope(StrEnum):
    """What an action acts on: a game, a league, a tournament, the caller's server, or the
    caller alone."""

    GAME = "game"
    LEAGUE = "league"
    TOURNAMENT = "tournament"
    SERVER = "server"
    SELF = "self"


#: Roles in the order the table lists them.
ROLES: tuple[Role, ...] = tuple(Role)
TURN, PLAYER, CREATOR, FOLLOWER, MEMBER, ADMIN, ORGANISER, OUTSIDER = ROLES
#: Everyone in the server (admins and organisers are members too).
EVERYONE = frozenset({MEMBER})
#: Who sees a private game: its players and the followers they let in.
TABLE = frozenset({PLAYER, FOLLOWER})


@dataclass(frozen=True, slots=True)
class Rule:
    """One row: ``who`` may act (in a private game, ``private`` instead, when given);
    ``refusal`` is the text key a refused caller reads; ``what`` says what the action shows or
    changes, for the security table."""

    scope: Scope
    who: frozenset[Role]
    what: str
    refusal: str = "not_allowed"
    private: frozenset[Role] | None = None

    def allowed(self, private: bool = False) -> frozenset[Role]:
        if private and self.private is not None:
            return self.private
        return self.who


def rule(
    scope: Scope,
    who: Iterable[Role],
    what: str,
    refusal: str = "not_allowed",
    private: Iterable[Role] | None = None,
) -> Rule:
    return Rule(
        scope, frozenset(who), what, refusal, None if private is None else frozenset(private)
    )


G, L, T, S, ME = Scope.GAME, Scope.LEAGUE, Scope.TOURNAMENT, Scope.SERVER, Scope.SELF


def see(what: str) -> Rule:
    """Showing a game: any member of its server, or only its table when it is private."""
    return rule(G, EVERYONE, what, private=TABLE)


def in_turn(what: str, refusal: str = "not_for_you") -> Rule:
    """The player in turn deciding their turn (buttons, menus, ``place``, its autocomplete);
    ``not_your_turn``: a command's refusal, saying whether the caller plays at all."""
    return rule(G, {TURN}, what, refusal)


def creator(what: str) -> Rule:
    """A lobby setting only its creator changes."""
    return rule(G, {CREATOR}, what, "options_not_owner")


POLICY: dict[str, Rule] = {
    # -- /carcassonne: games -------------------------------------------------------------
    "carcassonne new": rule(S, EVERYONE, "opens a lobby in this server"),
    "carcassonne practice": rule(S, EVERYONE, "starts a game against computers"),
    "carcassonne import": rule(S, EVERYONE, "starts a game from a record file"),
    "carcassonne board": see("posts the board in the game's thread"),
    "carcassonne tiles": see("the tiles not placed yet, privately"),
    "carcassonne replay": see("the game so far, animated; the viewer page and link"),
    "carcassonne status": see("players, scores, tiles left, clocks, privately"),
    "carcassonne export": see(
        "the game's record; while it runs, its position (what the table has seen, no seed)"
    ),
    "carcassonne rules": see("the rules and the game's options"),
    "carcassonne review": rule(
        G,
        EVERYONE,
        "a finished game's review: accuracies, points lost, the costliest moves beside the best "
        "(a running game is refused: it would show best moves while the game is played)",
        "players_only",
        private={PLAYER},
    ),
    "carcassonne review hint": in_turn(
        "the expert's best move for the caller's own turn, privately, decided from what the "
        "caller sees (practice games only: one person against computers, no league)",
        "not_your_turn",
    ),
    "carcassonne place": in_turn("plays the turn", "not_your_turn"),
    "carcassonne resign": rule(G, {PLAYER}, "leaves the game", "players_only"),
    "carcassonne undo": rule(G, {PLAYER}, "takes back a turn, or asks the players", "players_only"),
    "carcassonne abandon": rule(
        G,
        {CREATOR, ADMIN},
        "stops the game (the creator asks the players; an admin at once)",
        "abandon_refused",
    ),
    "carcassonne follow": rule(
        G, EVERYONE, "joins the game's thread (a private game asks its players)"
    ),
    "carcassonne unfollow": rule(G, EVERYONE, "leaves the game's thread"),
    "live board watch": see(
        "the live board (the Activity): the game as the table sees it, live, from its channel"
    ),
    # -- /carcassonne: the caller's own --------------------------------------------------
    "carcassonne games": rule(
        ME, EVERYONE, "the caller's games, or this channel's (private ones only to their table)"
    ),
    "carcassonne mygames": rule(ME, EVERYONE, "the caller's games waiting for them"),
    "carcassonne away": rule(ME, EVERYONE, "the caller's absence"),
    "carcassonne reminders": rule(ME, EVERYONE, "the caller's reminders"),
    "carcassonne privacy": rule(
        ME, EVERYONE, "what the bot keeps about the caller (counts of their own data), privately"
    ),
    "carcassonne forget-me": rule(
        ME, EVERYONE, "asks the caller whether to erase their own data (never another's)"
    ),
    "carcassonne stats": rule(S, EVERYONE, "a member's statistics in this server"),
    "carcassonne help": rule(S, EVERYONE, "how to play"),
    "carcassonne settings": rule(S, EVERYONE, "shows the server's defaults"),
    "carcassonne settings change": rule(
        S,
        {ADMIN},
        "changes the server's defaults, dashboards and how long it keeps finished games",
        "manage_only",
    ),
    # -- /league -------------------------------------------------------------------------
    "league create": rule(S, {ADMIN}, "creates a league", "manage_only"),
    "league join": rule(L, EVERYONE, "joins the league"),
    "league leave": rule(L, EVERYONE, "leaves the league"),
    "league standings": rule(L, EVERYONE, "a season's standings"),
    "league leaderboard": rule(L, EVERYONE, "players by rating"),
    "league profile": rule(L, EVERYONE, "a member's league profile"),
    "league stats": rule(L, EVERYONE, "a member's league statistics"),
    "league challenge": rule(
        L, EVERYONE, "challenges league members (members only, checked by the league)"
    ),
    "league schedule": rule(L, {ORGANISER, ADMIN}, "starts league games", "organisers_only"),
    "league close": rule(L, {ORGANISER, ADMIN}, "closes the season", "organisers_only"),
    "league log": rule(
        L, {ORGANISER, ADMIN}, "who closed seasons or annulled results", "organisers_only"
    ),
    "league annul": rule(L, {ADMIN}, "annuls a game's result", "manage_only"),
    "autocomplete league": rule(S, EVERYONE, "the names of this server's leagues"),
    # -- /tournament ---------------------------------------------------------------------
    "tournament create": rule(
        S,
        EVERYONE,
        "creates a tournament (an admin; for a league's tournament, its organiser too: the "
        "tournament checks)",
    ),
    "tournament signup": rule(T, EVERYONE, "signs the caller up (command or button)"),
    "tournament withdraw": rule(
        T, EVERYONE, "withdraws the caller before the first round (command or button)"
    ),
    "tournament checkin": rule(T, EVERYONE, "checks the caller in (command or button)"),
    "tournament checkin open": rule(
        T, {ORGANISER, ADMIN}, "opens check-in before the first round", "tournament_organisers_only"
    ),
    "tournament start": rule(
        T, {ORGANISER, ADMIN}, "pairs round 1 and starts its games", "tournament_organisers_only"
    ),
    "tournament standings": rule(T, EVERYONE, "the standings or the bracket, as a picture"),
    "tournament drop": rule(T, EVERYONE, "the caller leaves the tournament (their results stay)"),
    "tournament drop player": rule(
        T,
        {ORGANISER, ADMIN},
        "drops another player, with a reason (logged)",
        "tournament_organisers_only",
    ),
    "tournament annul": rule(
        T,
        {ORGANISER, ADMIN},
        "annuls a tournament game's result, with a reason (logged); the pairing stands",
        "tournament_organisers_only",
    ),
    "tournament replay": rule(
        T,
        {ORGANISER, ADMIN},
        "has a game of the round in play played again, with a reason (logged): its result "
        "does not count, its table plays a new game",
        "tournament_organisers_only",
    ),
    "tournament cancel": rule(
        T,
        {ORGANISER, ADMIN},
        "cancels the tournament and stops its games, with a reason (logged)",
        "tournament_organisers_only",
    ),
    "tournament log": rule(
        T,
        {ORGANISER, ADMIN},
        "who did what in the tournament, and why",
        "tournament_organisers_only",
    ),
    "autocomplete tournament": rule(S, EVERYONE, "the names of this server's tournaments"),
    # -- autocomplete of /carcassonne place ----------------------------------------------
    "autocomplete place cell": in_turn("the squares where the tile fits", "not_your_turn"),
    "autocomplete place rotation": in_turn("the rotations that fit", "not_your_turn"),
    "autocomplete place figure": in_turn("the figure spots", "not_your_turn"),
    # -- lobby buttons and menus ---------------------------------------------------------
    "lobby join": rule(G, EVERYONE, "takes a seat", private=EVERYONE),
    "lobby leave": rule(G, {PLAYER}, "leaves the lobby", "players_only"),
    "lobby colour": rule(G, {PLAYER}, "picks the caller's colour", "colour_join_first"),
    "lobby start": creator("starts the game"),
    "lobby cancel": rule(G, {CREATOR}, "cancels the lobby", "abandon_refused"),
    "lobby options": creator("changes the rules and expansions"),
    "lobby seats": creator("changes the seat order"),
    "lobby computers": creator("seats or removes computer players"),
    "lobby clock": creator("chooses the chess clock"),
    # -- turn buttons and menus ----------------------------------------------------------
    "turn": in_turn("the turn's steps: square, rotation, figure, wagon, abbey, wall tile"),
    "turn hand": rule(G, {PLAYER}, "the caller's own tiles in hand, privately", "players_only"),
    "live board": see("opens the live board (the bot's Discord Activity) in the game's thread"),
    # -- answers in a game's thread ------------------------------------------------------
    "undo answer": rule(G, {PLAYER}, "agrees to or refuses taking back a turn", "players_only"),
    "abandon answer": rule(G, {PLAYER}, "agrees to or refuses stopping the game", "players_only"),
    "pause answer": rule(G, {PLAYER}, "agrees to or refuses pausing the clocks", "players_only"),
    "follow answer": rule(
        G, {PLAYER}, "lets a member follow the private game, or not", "players_only"
    ),
    "forget answer": rule(
        ME,
        EVERYONE,
        "erases the caller's data everywhere: resigns their running games, renames them "
        "'former player N' (only the member who asked: the button names them)",
    ),
    "challenge answer": rule(
        G,
        EVERYONE,
        "accepts or declines a league challenge (only those challenged: the league checks)",
    ),
}

#: The texts of refusals, by the fact that decides them (see :func:`decide`).
ELSEWHERE = "no_game_number"
PRIVATE = "private_only"


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a user, in a server (None: a direct message), with the server's admin rights
    there (Manage Server or Administrator)."""

    user_id: int
    guild_id: int | None
    admin: bool = False


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the policy needs of a game: its server, its privacy, its people."""

    game_id: int
    guild_id: int | None
    private: bool = False
    owner_id: int | None = None
    players: frozenset[int] = frozenset()
    in_turn: int | None = None
    followers: frozenset[int] = frozenset()
    #: The league organiser, for a league game.
    organiser_id: int | None = None


@dataclass(frozen=True, slots=True)
class LeagueFacts:
    league_id: int
    guild_id: int
    organiser_id: int


@dataclass(frozen=True, slots=True)
class TournamentFacts:
    tournament_id: int
    guild_id: int
    organiser_id: int


@dataclass(frozen=True, slots=True)
class ServerFacts:
    """The caller's own server (or their own settings): the subject of server-wide actions."""

    guild_id: int | None


Subject = GameFacts | LeagueFacts | TournamentFacts | ServerFacts


def roles(actor: Actor, subject: Subject) -> frozenset[Role]:
    """Every role ``actor`` holds towards ``subject``."""
    guild = subject.guild_id
    if guild is not None and actor.guild_id != guild:
        return frozenset({OUTSIDER})
    held = {MEMBER}
    if actor.admin and actor.guild_id is not None:
        held.add(ADMIN)
    user = actor.user_id
    if isinstance(subject, GameFacts):
        if user in subject.players:
            held.add(PLAYER)
        if user == subject.in_turn:
            held.add(TURN)
        if user == subject.owner_id:
            held.add(CREATOR)
        if user in subject.followers:
            held.add(FOLLOWER)
        if user == subject.organiser_id:
            held.add(ORGANISER)
    elif isinstance(subject, LeagueFacts | TournamentFacts) and user == subject.organiser_id:
        held.add(ORGANISER)
    return frozenset(held)


@dataclass(frozen=True, slots=True)
class Decision:
    """The answer: ``refusal`` None when allowed, else the text key the caller reads."""

    action: str
    roles: frozenset[Role]
    refusal: str | None = field(default=None)

    @property
    def allowed(self) -> bool:
        return self.refusal is None


def decide(action: str, actor: Actor, subject: Subject) -> Decision:
    """May ``actor`` do ``action`` to ``subject``? Unknown actions are refused (a new command
    without a row is a bug the tests catch, never an open door)."""
    found = POLICY.get(action)
    held = roles(actor, subject)
    if found is None:
        return Decision(action, held, "not_allowed")
    if OUTSIDER in held:
        return Decision(action, held, ELSEWHERE)
    private = isinstance(subject, GameFacts) and subject.private
    if held & found.allowed(private):
        return Decision(action, held, None)
    if private and not held & TABLE:  # a private game says nothing more to others
        return Decision(action, held, PRIVATE)
    return Decision(action, held, found.refusal)


def needs(action: str) -> frozenset[Role]:
    """Every role the row names (public or private): which facts are worth fetching."""
    found = POLICY[action]
    return found.who | (found.private or frozenset[Role]())


# -- the security table (docs/SECURITY.md) ------------------------------------------------------

INTRO = """# Security: who may do what

Generated from the bot's one authorisation policy (`bot/policy.py`) by
`python -m bot.docs security`; a test keeps it current, another fails when a command, button,
menu or autocomplete has no row, and the table-driven tests try every row with every role
below, including a member and an admin of another server and a non-player in a private game.

## Roles

A role is what the caller is *to the game, league or tournament* acted on, from what the bot stores:

| role | who |
|---|---|
| player in turn | the player whose decision the game waits for |
| player | seated in the game (also after resigning) |
| game creator | opened the lobby |
| admitted follower | follows the game (in a private game: a player let them in) |
| member of its server | a member of the server where the game, league or tournament lives |
| server admin | a member there with Manage Server or Administrator |
| organiser | created the league or the tournament |
| anyone else | everybody else, a member or admin of another server included |

A caller who is *anyone else* is told exactly what a number that does not exist gets
("There is no game #12 here"): a refusal never confirms that a game exists in another server.
A private game shows itself only to its players and admitted followers: anybody else is told
that it is private and how to ask to follow it. Its board, status, tiles, export, replay,
viewer link and statistics lines go to them alone, privately, except in the game's own private
thread (where only they read). A private game is left out of channel lists, dashboards and
daily digests.

## The table

"Who may" lists the roles allowed; "private game" the roles allowed when the game is private
(when they differ). Scope: what the action is checked against (a game, a league, a tournament,
the caller's server, or only the caller's own data). "Refused with" is the text key (in
`catalogs/`) a member without the role reads; `not_your_turn` and `players_only` say "It is
not your turn: … is playing" or "You are not playing in game #…".
"""

OUTRO = """
## What others can still see or do

- **A member or admin of another server** can use the bot in their own server only: every
  game number, league game or component of another server is refused as a number that does not
  exist. League and tournament names are looked up (and suggested) in the caller's server only.
  Nothing of another server's games, leagues, tournaments, players or statistics is shown to
  them.
- **A member who is not a player, in a public game**: what the game's thread shows anyway
  (board, status, tiles left, the record, the replay), following it, and the lobby's **Join**.
  They cannot play, undo, resign, vote, or change the lobby.
- **A member who is not a player nor an admitted follower, in a private game**: that the game
  exists and who opened it (the lobby was posted in the channel), and asking to follow it; the
  players decide. Nothing else: no board, status, tiles, record, replay, link or statistics.
- **A server admin who does not play** can stop (abandon) any game of their server at once,
  change the server's settings, create leagues and tournaments, annul results and act as a
  league's or tournament's organiser;
  like any member, they do not see private games they do not play or follow.
- **Statistics**: a member's statistics count a private game only when the asker played it or
  follows it; the asker's own statistics may include their private games, shown where they ask.
"""


def security_markdown() -> str:
    """docs/SECURITY.md: the roles, the table of every action, and what others still see."""

    def names(roles: frozenset[Role] | None) -> str:
        if roles is None:
            return ""
        return ", ".join(role.value for role in ROLES if role in roles)

    rows = [
        "| action | scope | who may | private game | refused with | what it shows or changes |",
        "|---|---|---|---|---|---|",
    ]
    for action, found in POLICY.items():
        private = found.private if found.private != found.who else None
        # Rows every member may use refuse only outsiders (and others in a private game).
        refused = "-" if found.who >= EVERYONE else f"`{found.refusal}`"
        rows.append(
            f"| {action} | {found.scope.value} | {names(found.who)} | {names(private)} "
            f"| {refused} | {found.what} |"
        )
    return INTRO + "\n" + "\n".join(rows) + "\n" + OUTRO
