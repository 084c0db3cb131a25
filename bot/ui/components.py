"""Persistent components: every button and menu keeps its state in its ``custom_id``.

A ``custom_id`` names the game, the turn it was drawn for and the choice so far, e.g.
``cc:ok:12:7:1:-2:90:-:none`` (game 12, turn 7, square (1, -2), rotation 90, no figure). Nothing
lives in memory, so a prompt keeps working after a restart (discord.py matches the ids through
:class:`discord.ui.DynamicItem`), and a prompt for an earlier turn is recognised and refused.

Each kind of id is a value of :mod:`bot.ui.ids` (its layout, encode and decode); the items here
are built from those values and their templates from the kinds' patterns, and each answer gets
the value, read by its fields' names.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, Self, TypeVar

import discord

from bot.ui import access, ids
from bot.ui.errors import UIError, guarded

Handler = Callable[..., Awaitable[None]]
H = TypeVar("H", bound=Handler)
_HANDLERS: dict[type[ids.ComponentId], Handler] = {}


def handles(*kinds: type[ids.ComponentId]) -> Callable[[H], H]:
    """Register the function answering the components of ``kinds`` (``ids.LobbyOp``,
    ``ids.LobbyMenu``, or turn kinds such as ``ids.PlaceStep`` or ``ids.WallStep``): the modules
    that draw the components register their answers, so this module imports none of them."""

    def register(handler: H) -> H:
        for kind in kinds:
            _HANDLERS[kind] = handler
        return handler

    return register


def handler(kind: type[ids.ComponentId]) -> Handler:
    found = _HANDLERS.get(kind)
    if found is None:
        raise RuntimeError(f"nothing answers {kind.KIND!r} components: bot.ui.install was not run")
    return found


#: The turn's buttons and menus (``WallStep``, ``WallMenu``, ``WallConfirm``, ``EndTurn``: The
#: Castle's wall tiles; ``SquareMenu``, ``AbbeyHoles``, ``HandTile``: sent by earlier releases).
BUTTON_KINDS: tuple[type[ids.TurnId], ...] = (
    ids.PlaceStep,
    ids.Confirm,
    ids.AbbeyHoles,
    ids.ShowHand,
    ids.ChooseFigure,
    ids.HandTile,
    ids.MoreSquares,
    ids.WallStep,
    ids.WallConfirm,
    ids.EndTurn,
)
MENU_KINDS: tuple[type[ids.TurnId], ...] = (
    ids.SquareMenu,
    ids.PutMenu,
    ids.FigureMenu,
    ids.HoleMenu,
    ids.WagonMenu,
    ids.WallMenu,
)


def _turn_id(custom_id: str | None) -> ids.TurnId:
    value = ids.decode(custom_id or "")
    assert isinstance(value, ids.TurnId), custom_id  # the templates match turn kinds only
    return value


async def _turn(
    interaction: discord.Interaction, answer: Handler, value: ids.TurnId, choice: str | None
) -> None:
    """A turn component, once the policy lets the caller use it on its game (a player's click
    on a prompt of an earlier turn is told the prompt is out of date)."""
    try:
        await access.authorise_game(interaction, access.turn_action(value.KIND), value.game)
    except UIError as error:
        if error.key == "not_for_you" and await access.stale_for_player(
            interaction, value.game, value.turn
        ):
            raise UIError("stale") from None
        raise
    await answer(interaction, value, choice)


V = TypeVar("V", bound=ids.ComponentId)


class IdButton(discord.ui.DynamicItem[discord.ui.Button[Any]], Generic[V], template=r"(?!)"):
    """A button whose whole state is its id, a value of one kind (subclasses name it, as in
    ``class UndoButton(IdButton[ids.UndoAnswer], kind=ids.UndoAnswer)``, and answer in
    :meth:`answer` with the value); rebuilt from the id after a restart."""

    #: The kind of the button's id; its pattern is the template.
    kind: ClassVar[type[ids.ComponentId]]
    #: The policy row the button's game is checked against (see :mod:`bot.policy`).
    action: ClassVar[str] = ""

    def __init_subclass__(cls, *, kind: type[ids.ComponentId]) -> None:
        super().__init_subclass__(template=kind.PATTERN)
        cls.kind = kind

    def __init__(self, value: V, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=value.encode()))
        self.value = value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        assert isinstance(item, discord.ui.Button)
        value: Any = cls.kind.decode(item.custom_id or "")
        assert value is not None
        return cls(value, item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.value

        async def run(i: discord.Interaction) -> None:
            await access.authorise_game(i, self.action, value.game)
            await self.answer(i, value)

        await guarded(interaction, run)

    async def answer(self, interaction: discord.Interaction, value: V) -> None:
        raise NotImplementedError


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LobbyOp.PATTERN):
    """Lobby buttons: on the lobby message, and in the creator's options (hand, seats...)."""

    def __init__(self, value: ids.LobbyOp, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=value.encode()))
        self.value = value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        assert isinstance(item, discord.ui.Button)
        value = ids.LobbyOp.decode(item.custom_id or "")
        assert value is not None
        return cls(value, item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        answer = handler(ids.LobbyOp)
        game, op = self.value.game, self.value.op

        async def run(i: discord.Interaction) -> None:
            await access.authorise_game(i, access.LOBBY_BUTTONS[op], game)
            await answer(i, game, op)

        await guarded(interaction, run)


class LobbyOption(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.LobbyMenu.PATTERN):
    """Lobby menus: an option, a colour, a seat (``arg``: the player being moved)."""

    def __init__(self, value: ids.LobbyMenu, select: discord.ui.Select[Any]) -> None:
        select.custom_id = value.encode()
        super().__init__(select)
        self.value = value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyOption:
        assert isinstance(item, discord.ui.Select)
        value = ids.LobbyMenu.decode(item.custom_id)
        assert value is not None
        return cls(value, item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        answer = handler(ids.LobbyMenu)
        game, name, arg = self.value.game, self.value.name, self.value.arg

        async def run(i: discord.Interaction) -> None:
            await access.authorise_game(i, access.lobby_menu_action(name), game)
            await answer(i, game, name, values, arg)

        await guarded(interaction, run)


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.template(BUTTON_KINDS)
):
    """Every turn button: a rotation, a choice, confirm, and the openers of ephemeral steps."""

    def __init__(
        self, value: ids.TurnId, label: str, style: discord.ButtonStyle, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=value.encode(), disabled=disabled)
        )
        self.value = value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TurnButton:
        assert isinstance(item, discord.ui.Button)
        return cls(_turn_id(item.custom_id), item.label or "", item.style, item.disabled)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.value
        answer = handler(type(value))
        await guarded(interaction, lambda i: _turn(i, answer, value, None))


class TurnSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.template(MENU_KINDS)):
    """Every turn menu: squares, figure spots, abbey holes, wagon targets, wall tiles."""

    def __init__(self, value: ids.TurnId, select: discord.ui.Select[Any]) -> None:
        select.custom_id = value.encode()
        super().__init__(select)
        self.value = value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TurnSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(_turn_id(item.custom_id), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.value
        choice = self.item.values[0] if self.item.values else ""
        answer = handler(type(value))
        await guarded(interaction, lambda i: _turn(i, answer, value, choice))


def button(
    value: ids.TurnId,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    disabled: bool = False,
    row: int | None = None,
) -> TurnButton:
    item = TurnButton(value, label, style, disabled)
    item.item.row = row
    return item


def select(
    value: ids.TurnId,
    placeholder: str,
    options: list[discord.SelectOption],
    *,
    row: int | None = None,
) -> TurnSelect:
    menu: discord.ui.Select[Any] = discord.ui.Select(
        placeholder=placeholder, options=options, row=row
    )
    return TurnSelect(value, menu)


DYNAMIC_ITEMS = (LobbyButton, LobbyOption, TurnButton, TurnSelect)
