"""The public game messages: one message per turn (board, what happened, whose turn) and the end.

After every move exactly one message is posted in the game's thread: the new board with the
squares of the next tile lettered, the narration of the move, the next player mentioned once,
and the components of the next decision. The previous turn message loses its components, so an
old menu cannot be used by mistake (and would be refused as stale anyway).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.narrate import narrate
from bot.outcomes import MoveResult
from bot.storage import GameRow
from bot.turn_view import TurnScreen
from bot.ui import clocks, ids, images, live_board
from bot.ui.components import button, select
from bot.ui.texts import tr
from bot.ui.turn import families, final
from bot.ui.turn.state import Snapshot, snapshot
from bot.ui.turn.words import from_last, sides_words, tile_words, tiles_in_words, wagon_words
from engine import Event, Game
from engine.core.events import PlayerLeft
from renderer.phone import TileCard

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

MENU = 25
MENUS = 4  # a message holds five rows: four menus of squares and one row of buttons


def mention(snap: Snapshot, seat: int | None) -> str:
    if seat is None:
        return ""
    return snap.row.seats[seat].mention


def placement_options(
    screen: TurnScreen,
    game: Game,
    locale: str,
    tile: str | None = None,
    *,
    abbeys: bool = True,
    prefix: str = "",
) -> list[discord.SelectOption]:
    """One menu entry per square and rotation that fit ("B · 90°"; just "B" when the tile lies
    one way only there), described by what lies on each side; then the abbey's holes."""
    name = tile or screen.tile
    options: list[discord.SelectOption] = []
    entries = screen.placements(tile)
    ways = {pos: sum(1 for e in entries if e.pos == pos) for pos in screen.cells(tile)}
    for entry in entries:
        text = entry.label if ways[entry.pos] == 1 else f"{entry.label} · {entry.rotation}°"
        described = (
            sides_words(game.kinds[name].oriented(entry.rotation), locale)
            if name in game.kinds
            else ""
        )
        suffix = f",{tile}" if tile else ""
        options.append(
            discord.SelectOption(
                label=prefix + text,
                value=f"{entry.pos[0]},{entry.pos[1]},{entry.rotation}{suffix}",
                description=described[:100] or None,
            )
        )
    if abbeys:
        for x, y in screen.holes:
            options.append(
                discord.SelectOption(
                    label=tr("put_abbey", locale, label=screen.labels[(x, y)]),
                    value=f"{x},{y},a",
                    description=tr("put_abbey_desc", locale),
                    emoji="⛪",
                )
            )
    return options


def put_menus(
    game_id: int,
    turn: int,
    options: Sequence[discord.SelectOption],
    locale: str,
    tile: str = "-",
    *,
    first_page: int = 0,
    pages: int = MENUS,
) -> list[Any]:
    """Menus of placements, 25 entries each, ``pages`` menus from page ``first_page``."""
    menus: list[Any] = []
    for i, page in enumerate(range(first_page, first_page + pages)):
        chunk = list(options[page * MENU : (page + 1) * MENU])
        if not chunk:
            break
        first, last = chunk[0].label.split(" · ")[-2:][0], chunk[-1].label.split(" · ")[-2:][0]
        placeholder = tr("put_menu", locale, first=first, last=last)
        menus.append(
            select(ids.PutMenu(game_id, turn, page, tile), placeholder, options=chunk, row=i)
        )
    return menus


def tile_card(screen: TurnScreen) -> TileCard | None:
    """The drawn tile and the rotations that fit somewhere, captioned as in the menus."""
    if screen.tile is None or not screen.card:
        return None
    return TileCard(screen.tile, {r: f"{r}°" for r in screen.card})


async def prompt(
    snap: Snapshot, *, whole: bool = False
) -> tuple[str, discord.File, discord.ui.View | None]:
    """The text, board and components of the decision the game waits for."""
    game, view, locale = snap.require_game(), snap.view, snap.locale
    if view.finished:
        return "", await images.end_file(game, locale, styles=images.seat_styles(snap.row)), None
    own = await families.hooks(game.setup.game).prompt(snap)
    if own is not None:
        return own
    screen = snap.screen
    gid, turn = snap.row.id, view.turn
    who = mention(snap, view.seat)
    items: list[Any] = []
    lines: list[str] = []
    candidates: Mapping[tuple[int, int], str] = {}
    card: TileCard | None = None
    if view.phase == "tile":
        if screen.bonus == "builder":
            lines.append(tr("builder_turn", locale, player=snap.names[game.current]))
        lines.append(tr("your_turn", locale, player=who))
        if screen.hand_mode:
            lines.append(tr("turn_hand", locale))
            items.append(
                button(
                    ids.ShowHand(gid, turn),
                    tr("my_tiles", locale),
                    discord.ButtonStyle.primary,
                    row=4,
                )
            )
        else:
            candidates = screen.labels
            card = tile_card(screen)
            kind = game.kinds.get(view.tile or "")
            words = tile_words(kind, locale) if kind is not None else str(view.tile)
            key = families.hooks(game.setup.game).place_key(screen)
            lines.append(tr(key, locale, words=words))
            options = placement_options(screen, game, locale)
            items.extend(put_menus(gid, turn, options, locale))
            if len(options) > MENU * MENUS:
                more = ids.MoreSquares(gid, turn)
                items.append(button(more, tr("more_squares", locale), row=4))
    elif view.phase == "figure":
        lines.append(tr("your_turn", locale, player=who) + " " + tr("figure_prompt", locale))
        items.append(
            button(
                ids.ChooseFigure(gid, turn),
                tr("choose_figure", locale),
                discord.ButtonStyle.primary,
            )
        )
    elif view.phase == "wagon":
        lines.append(tr("wagon_prompt", locale, player=who))
        options = []
        for target in screen.wagons[:24]:
            x, y, at = target.spot
            spot, place = wagon_words(game, x, y, at, locale)
            options.append(
                discord.SelectOption(
                    label=tr("wagon_option", locale, label=target.label, spot=spot, place=place)[
                        :100
                    ],
                    value=f"{x},{y},{at}",
                )
            )
        options.append(discord.SelectOption(label=tr("wagon_back", locale), value="back"))
        items.append(select(ids.WagonMenu(gid, turn), tr("wagon_menu", locale), options))
    elif view.phase == "abbey_end":
        lines.append(tr("end_abbey_prompt", locale, player=who))
        candidates = screen.labels
        options = [
            discord.SelectOption(label=f"{lab} · {from_last(game, x, y, locale)}", value=f"{x},{y}")
            for (x, y), lab in list(candidates.items())[:MENU]
        ]
        if options:
            holes = ids.HoleMenu(gid, turn, "e")
            items.append(select(holes, tr("holes_menu", locale), options))
        no_abbey = ids.Confirm(gid, turn, 0, 0, "n", "-", "none")
        items.append(button(no_abbey, tr("no_abbey", locale)))
    styles = images.seat_styles(snap.row)
    if screen.wagons:
        file = await images.wagon_file(game, screen.wagon_marks, locale, styles=styles)
    else:
        file, _ = await images.turn_file(
            game,
            locale,
            candidates,
            card=card,
            styles=styles,
            whole=whole,
            dead=not snap.row.purist,
        )
    components = discord.ui.View(timeout=None)
    for item in items:
        components.add_item(item)
    return "\n".join(lines), file, components


async def channel_of(bot: CarcassonneBot, snap: Snapshot) -> discord.abc.Messageable:
    return await game_channel(bot, snap.row)


async def game_channel(bot: CarcassonneBot, row: GameRow) -> discord.abc.Messageable:
    """Where the game is posted: its thread (unarchived first if it was archived)."""
    target = row.thread_id or row.channel_id
    if target is None:
        raise RuntimeError(f"game {row.id} has no channel")
    # Archived threads leave discord.py's cache: fetching finds them.
    channel = bot.get_channel(target) or await bot.fetch_channel(target)
    if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
        channel = await channel.edit(archived=False)
    assert isinstance(channel, discord.abc.Messageable)
    return channel


async def retire_prompt(bot: CarcassonneBot, snap: Snapshot) -> None:
    """Remove the components of the previous turn message (best effort)."""
    await retire_message(bot, snap.row)


async def retire_message(bot: CarcassonneBot, row: GameRow) -> None:
    """Remove the components of the game's last turn message (best effort)."""
    target, message_id = row.thread_id or row.channel_id, row.message_id
    if target is None or message_id is None:
        return
    try:
        await bot.get_partial_messageable(target).get_partial_message(message_id).edit(view=None)
    except discord.HTTPException as error:
        log.info("could not retire prompt %s of game %s: %s", message_id, row.id, error)


async def announce(
    bot: CarcassonneBot,
    snap: Snapshot,
    events: Sequence[Event],
    extra: Sequence[str] = (),
    *,
    whole: bool = False,
    kick: bool = True,
) -> discord.Message:
    """Post the one message of this turn: what happened, the board, the next decision (and,
    when the host serves the live board, Play on the board); then, if a computer seat decides
    next, let it play (``kick``; its own runner posts with False)."""
    text, file, components = await prompt(snap, whole=whole)
    if bot.settings.activity is not None and not snap.view.finished:
        components = components or discord.ui.View(timeout=None)
        live_board.add_button(components, snap.row.id, snap.locale)
    channel = await channel_of(bot, snap)
    await retire_prompt(bot, snap)
    mentions = discord.AllowedMentions(users=True)
    if snap.view.finished:
        parts = final.messages(snap, events, extra)
        message = None
        for index, (content, embeds) in enumerate(parts):
            with_file = bool(embeds) and message is None
            sent = await channel.send(
                content or None,
                embeds=embeds,
                file=file if with_file else discord.utils.MISSING,
                allowed_mentions=mentions,
            )
            message = sent if with_file else message
            if index == len(parts) - 1 and message is None:
                message = sent
        assert message is not None
    else:
        lines = [*extra, *narrate(events, snap.names, snap.locale, tiles_in_words(snap))]
        if text:
            lines.append(text)
            lines.extend(await clocks.clock_lines(bot.manager, snap.row, snap.locale))
        # A turn's text is short; a very long one (many scorings) goes over several messages.
        pieces = final.chunks(lines, final.CONTENT)
        for piece in pieces[:-1]:
            await channel.send(piece, allowed_mentions=mentions)
        last = pieces[-1] if pieces else ""
        if components is not None:
            message = await channel.send(
                last, file=file, view=components, allowed_mentions=mentions
            )
        else:
            message = await channel.send(last, file=file, allowed_mentions=mentions)
    await bot.manager.records.set_messages(
        snap.row.id, thread_id=snap.row.thread_id, message_id=message.id
    )
    if kick and bot.computer_turns is not None:
        bot.computer_turns.kick(snap.row)
    return message


async def resigned(bot: CarcassonneBot, game_id: int, result: MoveResult, name: str) -> None:
    """Tell the thread that ``name`` left the game (``result``: the resignation's answer): the
    turn message of the next decision, or the end, led by the line saying so."""
    snap = await snapshot(bot.manager, game_id)
    line = tr("resigned", snap.locale, player=name)
    told = [e for e in result.events if not isinstance(e, PlayerLeft)]  # said by ``line``
    await announce(bot, snap, told, extra=[line])
