"""``/carcassonne help``: how a turn works (with a real turn picture), the commands, the rules.

Everything is sent privately as embeds: one for the turn with its picture, one listing the
commands (read from the command tree itself, so it never drifts from what Discord shows), and one
with the rules of the chosen game in short sections.

The help is for one game family: the game of the thread it is asked in (with its expansions),
else the ``game`` option's, else Carcassonne (with every expansion's rules, and a line naming
the other families). The picture is that family's own example turn (Carcassonne with the
expansions played), drawn as every turn is, with the legend of every mark it shows under it
(:mod:`renderer.help`).
"""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import TYPE_CHECKING

import discord
from discord import app_commands

import catalogs
from bot.i18n import language
from bot.turn_view import example_turn
from bot.ui import images
from bot.ui.texts import tr
from bot.ui.translator import command_text
from engine import Game

if TYPE_CHECKING:
    from bot.storage import GameRow
    from renderer.phone import TileCard

Section = tuple[str, str]


#: Rules per game, in short sections: (title, text) in English, then French.
def sections(name: str, locale: str) -> list[Section]:
    """The help sections of ``name`` (a game, an expansion, or ``turn``), from the catalogs
    (context ``help``, keys ``name.N.title`` and ``name.N.text``)."""
    found: list[Section] = []
    while catalogs.has("help", f"{name}.{len(found) + 1}.title"):
        n = len(found) + 1
        found.append(
            (
                catalogs.text("help", f"{name}.{n}.title", locale),
                catalogs.text("help", f"{name}.{n}.text", locale),
            )
        )
    return found


def rules_embed(game: str, locale: str, expansions: tuple[str, ...] = ()) -> discord.Embed:
    """The rules of ``game`` (and its expansions) in short sections."""
    from bot.ui.texts import game_title

    which = SimpleNamespace(kind=game, expansions=expansions)
    title = tr("help_rules", locale, game=game_title(which, locale))
    embed = discord.Embed(title=title, colour=discord.Colour.dark_green())
    for name in (game, *expansions):
        for head, body in sections(name, locale):
            embed.add_field(name=head, value=body, inline=False)
    return embed


def turn_embed(locale: str, kind: str = "carcassonne") -> discord.Embed:
    """How a turn works, over the example picture of ``kind``, with a line naming the other
    families' help."""
    from bot.ui.texts import family_title

    others = [family_title(k, locale) for k in FAMILIES if k != kind]
    embed = discord.Embed(
        title=tr("help_turn", locale),
        description=tr("help_other_games", locale, games=" / ".join(others)),
        colour=discord.Colour.blurple(),
    )
    for head, body in sections("turn", locale):
        embed.add_field(name=head, value=body, inline=False)
    embed.set_image(url="attachment://help-turn.png")
    return embed


def commands_embed(tree: app_commands.CommandTree[discord.Client], locale: str) -> discord.Embed:
    """Every slash command with its description, as Discord shows them in ``locale``."""

    def say(text: str) -> str:
        return command_text(text, locale)

    embed = discord.Embed(title=tr("help_commands", locale), colour=discord.Colour.blurple())
    for command in tree.get_commands():
        if not isinstance(command, app_commands.Group):
            continue
        lines = [
            f"`/{say(command.name)} {say(sub.name)}` {say(sub.description)}"
            for sub in command.commands
        ]
        value = "\n".join(lines)
        while len(value) > 1024:  # a field holds 1024 characters: continue in another
            cut = value.rfind("\n", 0, 1024)
            embed.add_field(name=f"/{say(command.name)}", value=value[:cut], inline=False)
            value = value[cut + 1 :]
        embed.add_field(name=f"/{say(command.name)}", value=value, inline=False)
    return embed


#: The game families the help explains, each with its own example turn.
FAMILIES = ("carcassonne", "castle", "hunters")
#: The help's example turn picture per locale, family and expansions, drawn once.
_PICTURES: dict[tuple[str, str, tuple[str, ...]], bytes] = {}


def example_length(kind: str, expansions: tuple[str, ...]) -> int:
    """How many turns the example game is played to: long enough to show the family's figures
    (every expansion brings some), short enough to keep the board small."""
    if kind != "carcassonne":
        return 10
    return min(20, 6 + 6 * len(expansions))


def demo_game(
    locale: str, kind: str = "carcassonne", expansions: tuple[str, ...] = ()
) -> tuple[Game, dict[tuple[int, int], str], TileCard | None]:
    """The small example game of the help for ``kind`` and ``expansions`` (a few
    milliseconds), with its lettered squares and the drawn tile's card, as a turn shows them."""
    from bot.ui.turn.post import tile_card

    names = {"fr": ("Anne", "Benoît"), "de": ("Anna", "Jonas")}.get(
        language(locale), ("Ana", "Ben")
    )
    game, screen = example_turn(
        names, turn=example_length(kind, expansions), game=kind, expansions=expansions
    )
    return game, dict(screen.labels), tile_card(screen)


async def demo_png(
    locale: str, kind: str = "carcassonne", expansions: tuple[str, ...] = ()
) -> bytes:
    """A real turn picture of a small example game of ``kind`` (the same renderer as every
    turn) with its legend, drawn like every picture (:mod:`bot.ui.images`) the first time
    ``locale`` asks for it."""
    key = (language(locale), kind, tuple(expansions))
    if key in _PICTURES:
        return _PICTURES[key]
    game, candidates, card = demo_game(locale, kind, expansions)
    file = await images.help_file(game, language(locale), candidates, card)
    data = _PICTURES[key] = file.fp.read()
    return data


def family_of(row: GameRow | None, game: str | None) -> tuple[str, tuple[str, ...]]:
    """The family the help is for and the expansions its picture shows: the ``game`` option's,
    else the thread's game (with its expansions), else Carcassonne's base game."""
    if game is not None and (row is None or game != row.kind):
        return game, ()
    if row is not None:
        expansions = row.expansions if row.kind == "carcassonne" else ()
        return row.kind, tuple(expansions)
    return "carcassonne", ()


async def show(
    interaction: discord.Interaction,
    tree: app_commands.CommandTree[discord.Client],
    row: GameRow | None,
    game: str | None,
    locale: str,
) -> None:
    """Answer ``/carcassonne help`` privately: the turn, the commands, the rules."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    kind, shown = family_of(row, game)
    expansions = tuple(row.expansions) if row is not None and game in (None, row.kind) else ()
    if game is None and row is None:  # no game here: every expansion, briefly
        from bot.ui.lobby.lobby_ui import EXPANSION_CHOICES

        expansions = EXPANSION_CHOICES
    data = await demo_png(locale, kind, shown)
    embeds = [
        turn_embed(locale, kind),
        commands_embed(tree, locale),
        rules_embed(kind, locale, expansions),
    ]
    file = discord.File(io.BytesIO(data), filename="help-turn.png")
    # One message holds at most 6000 characters of embeds: the rest follows in another.
    first, rest = embeds[:1], embeds[1:]
    while rest and sum(len(e) for e in first) + len(rest[0]) <= 6000:
        first.append(rest.pop(0))
    await interaction.followup.send(embeds=first, file=file, ephemeral=True)
    if rest:
        await interaction.followup.send(embeds=rest, ephemeral=True)
