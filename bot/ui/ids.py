"""Component ids: one frozen value per kind of button or menu, with one way out and one way in.

Every component the bot sends keeps its whole state in its ``custom_id`` (see
:mod:`bot.ui.components`), and messages already posted in Discord carry the ids of earlier
releases, so an id's text never changes. Each kind is a frozen dataclass here: its ``LAYOUT``
gives the id's shape, its fields' types give what each part may hold, and from these two come
:meth:`ComponentId.encode` (the only place an id is written), :meth:`ComponentId.decode` (the only
place one is read) and the regular expressions the ``DynamicItem`` templates are made of.

>>> Confirm(12, 7, 1, -2, "90", "-", "none").encode()
'cc:ok:12:7:1:-2:90:-:none'
>>> decode("cc:ok:12:7:1:-2:90:-:none")
Confirm(game=12, turn=7, x=1, y=-2, rotation='90', tile='-', choice='none')

Placement codes (``rotation``): 0/90/180/270 a tile; ``a`` the abbey instead of the tile; ``e``
the abbey after the last tile; ``c`` the tile is already down (figure only); ``w`` a wagon move;
``n`` no end-game abbey. ``tile`` is a tile's name in a tactical hand, else ``-`` (``h`` on the
menus of a hand). Choices: ``none``, ``back`` (a wagon stays), ``figure.at``, or a wagon's
``at``; empty on a rotation button.

A new kind: a frozen dataclass subclassing :class:`ComponentId` (or :class:`TurnId` for a step of
a turn), its ``LAYOUT`` with a new ``xx:yy:`` head, fields typed with the aliases below (or a new
:class:`Codec`), and the :func:`kind` decorator, which registers it.
"""

import dataclasses
import re
import string
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Self, TypeVar


@dataclass(frozen=True)
class Codec:
    """How one part of an id is written and read back: its pattern (no ``:`` unless said)."""

    name: str
    pattern: str
    read: Callable[[str], Any] = str
    write: Callable[[Any], str] = str


def _words(name: str, *words: str) -> Codec:
    return Codec(name, "|".join(map(re.escape, words)))


#: The lobby buttons' operations (``cc:lobby:GAME:OP``).
LOBBY_OPS = (
    "join",
    "leave",
    "start",
    "solo",
    "cancel",
    "options",
    "colour",
    "hand",
    "purist",
    "seats",
    "shuffle",
    "back",
    "computer",
    "clock",
)
#: The Castle's wall-tile step: before placing the tile (``t``) or after it (``f``).
WALL_PHASES = {"t": "tile", "f": "figure"}

NAT = Codec("nat", "[0-9]+", int)
INT = Codec("int", "-?[0-9]+", int)
TOKEN = Codec("token", "[^:]+")
EMPTY_OR_TOKEN = Codec("empty_or_token", "[^:]*")
WORD = Codec("word", "[a-z_]+")
ROTATION = _words("rotation", "0", "90", "180", "270", "a", "e", "c", "w", "n")
HOLE = _words("hole", "a", "e")
LOBBY_OP = _words("lobby_op", *LOBBY_OPS)
YES_NO = Codec("yes_no", "yes|no", lambda text: text == "yes", lambda yes: "yes" if yes else "no")
WALL_PHASE = Codec(
    "wall_phase",
    "|".join(WALL_PHASES),
    WALL_PHASES.__getitem__,
    {phase: code for code, phase in WALL_PHASES.items()}.__getitem__,
)

Nat = Annotated[int, NAT]  # a game, a turn, a page, a user
Coord = Annotated[int, INT]  # a square's x or y
Token = Annotated[str, TOKEN]  # a tile's name, a figure choice
Word = Annotated[str, WORD]  # a lobby menu's name
Rotation = Annotated[str, ROTATION]
Hole = Annotated[str, HOLE]  # the abbey instead of the tile (a) or after the last tile (e)
LobbyOpName = Annotated[str, LOBBY_OP]
YesNo = Annotated[bool, YES_NO]
WallPhase = Annotated[str, WALL_PHASE]  # "tile" or "figure", written t or f


@dataclass(frozen=True)
class _Part:
    """A part of a layout: literal text before a field, the field, and whether it may be
    left out (with the literal before it) when the field is None."""

    literal: str
    field: str | None
    codec: Codec | None
    optional: bool


@dataclass(frozen=True)
class ComponentId:
    """A component's id. Subclasses give ``LAYOUT`` and are registered with :func:`kind`."""

    game: Nat

    #: The id's shape: ``{field}`` per field, an optional ``[:{field}]`` tail for a field that
    #: may be None; it starts with the kind's own ``xx:yy:``.
    LAYOUT: ClassVar[str] = ""
    #: The kind's name (``yy`` of the head): ``ok``, ``lobby``, ``undo``...
    KIND: ClassVar[str]
    #: The whole id, fields as named groups (``PATTERN.fullmatch(custom_id)``).
    PATTERN: ClassVar[re.Pattern[str]]
    #: The same without named groups, to join with other kinds' into one template.
    BARE: ClassVar[str]
    _PARTS: ClassVar[tuple[_Part, ...]]

    def encode(self) -> str:
        """The ``custom_id``: raises ValueError for a value that would not read back."""
        out: list[str] = []
        for part in self._PARTS:
            if part.field is None or part.codec is None:
                out.append(part.literal)
                continue
            value = getattr(self, part.field)
            if value is None and part.optional:
                continue
            try:
                out.append(part.literal + part.codec.write(value))
            except (KeyError, TypeError) as error:
                raise ValueError(f"{self!r}: {part.field} cannot be written") from error
        text = "".join(out)
        if type(self).decode(text) != self:
            raise ValueError(f"{self!r} has no id that reads back as itself: {text!r}")
        return text

    @classmethod
    def decode(cls, custom_id: str) -> Self | None:
        """The value an id of this kind holds, or None if ``custom_id`` is not one."""
        match = cls.PATTERN.fullmatch(custom_id)
        if match is None:
            return None
        values: dict[str, Any] = {}
        for part in cls._PARTS:
            if part.field is None or part.codec is None:
                continue
            text = match[part.field]
            values[part.field] = None if text is None else part.codec.read(text)
        return cls(**values)


@dataclass(frozen=True)
class TurnId(ComponentId):
    """A step of a turn: the game and the turn the prompt was drawn for."""

    turn: Nat


K = TypeVar("K", bound=type[ComponentId])

#: Every kind by its head (``cc:ok:``): :func:`decode` reads any id with it.
KINDS: dict[str, type[ComponentId]] = {}
_HEAD = re.compile(r"[a-z]+:[a-z]+:")


def kind(cls: K) -> K:
    """Register a kind: its layout is checked against its fields and compiled."""
    layout = cls.LAYOUT
    head = _HEAD.match(layout)
    if head is None or "{" in head[0]:
        raise TypeError(f"{cls.__name__}: the layout {layout!r} does not start with xx:yy:")
    if head[0] in KINDS:
        raise TypeError(f"{cls.__name__}: {head[0]!r} is {KINDS[head[0]].__name__}'s already")
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = [f.name for f in dataclasses.fields(cls)]
    main, bracket, tail = layout.partition("[")
    if bracket and not tail.endswith("]"):
        raise TypeError(f"{cls.__name__}: an optional part ends the layout: {layout!r}")
    parts: list[_Part] = []
    for text, optional in ((main, False), (tail.removesuffix("]"), True)):
        for literal, name, spec, conversion in string.Formatter().parse(text):
            if name is None:
                parts.append(_Part(literal, None, None, False))
                continue
            if spec or conversion or name not in fields:
                raise TypeError(f"{cls.__name__}: {{{name}}} is not one of its fields")
            codecs = [m for m in getattr(hints[name], "__metadata__", ()) if isinstance(m, Codec)]
            if len(codecs) != 1:
                raise TypeError(f"{cls.__name__}.{name} is not typed with one Codec")
            parts.append(_Part(literal, name, codecs[0], optional))
    named = [p.field for p in parts if p.field is not None]
    if sorted(named) != sorted(fields):
        raise TypeError(f"{cls.__name__}: the layout names {named}, the fields are {fields}")

    def regex(groups: bool) -> str:
        out = []
        for part in parts:
            literal = re.escape(part.literal)
            if part.codec is None:
                out.append(literal)
                continue
            group = f"(?P<{part.field}>" if groups else "(?:"
            field = f"{group}{part.codec.pattern})"
            out.append(f"(?:{literal}{field})?" if part.optional else literal + field)
        return "".join(out)

    cls.KIND = head[0].split(":")[1]
    cls._PARTS = tuple(parts)
    cls.PATTERN = re.compile(regex(True))
    cls.BARE = regex(False)
    KINDS[head[0]] = cls
    return cls


def decode(custom_id: str) -> ComponentId | None:
    """The value of any id the bot sends (or sent in an earlier release), None for another."""
    head = _HEAD.match(custom_id)
    found = KINDS.get(head[0]) if head else None
    return found.decode(custom_id) if found is not None else None


def template(kinds: Iterable[type[ComponentId]]) -> re.Pattern[str]:
    """One ``DynamicItem`` template matching the ids of ``kinds`` (and nothing else)."""
    return re.compile("|".join(f"(?:{k.BARE})" for k in kinds))


# -- the turn, step by step (bot.ui.turn.flow, bot.ui.turn.post) -----------------------------------


@kind
@dataclass(frozen=True)
class PutMenu(TurnId):
    """A turn message's menu of squares and rotations (page 0-3, more privately), or a hand's."""

    LAYOUT = "cc:put:{game}:{turn}:{page}:{tile}"
    page: Nat
    tile: Token


@kind
@dataclass(frozen=True)
class PlaceStep(TurnId):
    """Another rotation in the private placement step, or its other page of places (the step
    is drawn again)."""

    LAYOUT = "cc:pl:{game}:{turn}:{x}:{y}:{rotation}:{tile}:{choice}"
    x: Coord
    y: Coord
    rotation: Rotation
    tile: Token
    #: Empty for a rotation; the page of places shown (``p1``, ``p2``) for a page button;
    #: ``none`` on the No figure button of the first release (the first page).
    choice: Annotated[str, EMPTY_OR_TOKEN] = ""


@kind
@dataclass(frozen=True)
class Confirm(TurnId):
    """A figure spot, No figure, No abbey, a wagon target's Confirm: plays the decision."""

    LAYOUT = "cc:ok:{game}:{turn}:{x}:{y}:{rotation}:{tile}:{choice}"
    x: Coord
    y: Coord
    rotation: Rotation
    tile: Token
    choice: Token


@kind
@dataclass(frozen=True)
class FigureMenu(TurnId):
    """The step's menu of figure spots when there are too many for buttons."""

    LAYOUT = "cc:fs:{game}:{turn}:{x}:{y}:{rotation}:{tile}"
    x: Coord
    y: Coord
    rotation: Rotation
    tile: Token


@kind
@dataclass(frozen=True)
class HoleMenu(TurnId):
    """A menu of holes for the abbey: instead of the tile (``a``) or after the last (``e``)."""

    LAYOUT = "cc:hole:{game}:{turn}:{code}"
    code: Hole


@kind
@dataclass(frozen=True)
class ChooseFigure(TurnId):
    """The turn message's button opening the figure step (the tile is already down)."""

    LAYOUT = "cc:fig:{game}:{turn}"


@kind
@dataclass(frozen=True)
class WagonMenu(TurnId):
    """The turn message's menu of wagon targets."""

    LAYOUT = "cc:wag:{game}:{turn}"


@kind
@dataclass(frozen=True)
class ShowHand(TurnId):
    """The tactical hand's My tiles button."""

    LAYOUT = "cc:hand:{game}:{turn}"


@kind
@dataclass(frozen=True)
class MoreSquares(TurnId):
    """The placements past the turn message's four menus (very large boards)."""

    LAYOUT = "cc:more:{game}:{turn}"


@kind
@dataclass(frozen=True)
class SquareMenu(TurnId):
    """An earlier release's menu of squares only (``cc:cell``): opens the step of a square."""

    LAYOUT = "cc:cell:{game}:{turn}:{page}:{tile}"
    page: Nat
    tile: Token


@kind
@dataclass(frozen=True)
class AbbeyHoles(TurnId):
    """An earlier release's Play my abbey button (``cc:abbey``)."""

    LAYOUT = "cc:abbey:{game}:{turn}"


@kind
@dataclass(frozen=True)
class HandTile(TurnId):
    """An earlier release's button per tile of a hand (``cc:tile``): answered as stale."""

    LAYOUT = "cc:tile:{game}:{turn}:{name}"
    name: Token


# -- The Castle's wall tiles (bot.ui.turn.castle.turn) ---------------------------------------------


@kind
@dataclass(frozen=True)
class WallStep(TurnId):
    """The Wall tiles button: opens the private wall-tile step."""

    LAYOUT = "cc:wall:{game}:{turn}:{phase}"
    phase: WallPhase


@kind
@dataclass(frozen=True)
class WallMenu(TurnId):
    """The wall-tile step's menu."""

    LAYOUT = "cc:wsel:{game}:{turn}:{phase}"
    phase: WallPhase


@kind
@dataclass(frozen=True)
class WallConfirm(TurnId):
    """The wall-tile step's Confirm: ``choice`` is ``1`` or ``2,x,y,at``, ``-`` for none yet."""

    LAYOUT = "cc:wok:{game}:{turn}:{phase}:{choice}"
    phase: WallPhase
    choice: Token


@kind
@dataclass(frozen=True)
class EndTurn(TurnId):
    """End my turn, when a castle turn stays open for a wall tile."""

    LAYOUT = "cc:wend:{game}:{turn}"


# -- the lobby (bot.ui.lobby, bot.ui.timing.chess_clock) -------------------------------------------


@kind
@dataclass(frozen=True)
class LobbyOp(ComponentId):
    """A lobby button, on the lobby message or in the creator's messages (options, seats...)."""

    LAYOUT = "cc:lobby:{game}:{op}"
    op: LobbyOpName


@kind
@dataclass(frozen=True)
class LobbyMenu(ComponentId):
    """A lobby menu: an option, the expansions, a colour, a seat (``arg``: the player moved),
    computer players, the clock."""

    LAYOUT = "cc:lopt:{game}:{name}[:{arg}]"
    name: Word
    arg: Annotated[int | None, INT] = None


# -- answers to requests in a game's thread --------------------------------------------------------


@kind
@dataclass(frozen=True)
class UndoAnswer(ComponentId):
    """Agree / Refuse on an undo request; ``start``: the first action of the turn asked about."""

    LAYOUT = "cc:undo:{game}:{start}:{agree}"
    start: Nat
    agree: YesNo


@kind
@dataclass(frozen=True)
class AbandonAnswer(ComponentId):
    """Agree / Refuse on a request to abandon the game."""

    LAYOUT = "cc:abandon:{game}:{agree}"
    agree: YesNo


@kind
@dataclass(frozen=True)
class PauseAnswer(ComponentId):
    """Pause / Keep playing on a request to pause the chess clocks."""

    LAYOUT = "cc:pause:{game}:{agree}"
    agree: YesNo


@kind
@dataclass(frozen=True)
class FollowAnswer(ComponentId):
    """Let in / Refuse on ``user``'s request to follow a private game."""

    LAYOUT = "cc:follow:{game}:{user}:{let_in}"
    user: Nat
    let_in: YesNo


@kind
@dataclass(frozen=True)
class ForgetAnswer(ComponentId):
    """Forget me / Keep my data under ``/carcassonne forget-me`` (bot.ui.privacy): ``user`` is
    who asked, the only one it answers; ``game`` is 0 (no game)."""

    LAYOUT = "cc:forget:{game}:{user}:{agree}"
    user: Nat
    agree: YesNo


@kind
@dataclass(frozen=True)
class LiveBoard(ComponentId):
    """Play on the board, on a running game's turn message (bot.ui.live_board): opens the live
    board, the bot's Discord Activity, in the game's thread."""

    LAYOUT = "cc:live:{game}"


@kind
@dataclass(frozen=True)
class ChallengeAnswer(ComponentId):
    """Accept / Decline under a league challenge (bot.ui.leagues.league_commands)."""

    LAYOUT = "lg:ch:{game}:{accept}"
    accept: YesNo


#: The sign-up message's buttons (``tn:op:TOURNAMENT:OP``).
TOURNAMENT_OPS = ("signup", "withdraw", "checkin")
TOURNAMENT_OP = _words("tournament_op", *TOURNAMENT_OPS)
TournamentOpName = Annotated[str, TOURNAMENT_OP]


@kind
@dataclass(frozen=True)
class TournamentOp(ComponentId):
    """Sign up / Withdraw / Check in, on a tournament's sign-up message
    (bot.ui.tournaments.tournament_commands): ``game`` holds the tournament's number."""

    LAYOUT = "tn:op:{game}:{op}"
    op: TournamentOpName
