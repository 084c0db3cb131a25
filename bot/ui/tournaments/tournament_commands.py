"""The ``/tournament`` command group: tournaments on Discord, over :mod:`bot.manager.tournaments`.

Commands: ``create`` (an admin, or a league's organiser for a tournament of their league: the
manager checks), ``signup`` and ``withdraw`` (also the buttons of the sign-up message),
``checkin`` (players check in, by command or button; ``open: True``, the organiser opens
check-in), ``start`` (the organiser: round 1 is paired and its games started), ``standings``
(the Swiss standings or the bracket, as pictures, public as the leagues' standings), ``drop``
(a player leaves; the organiser drops someone else with a reason), ``annul`` (the organiser, a
game's result, with a reason), ``replay`` (the organiser: a game of the round in play is played
again, with a reason), ``cancel`` and ``log`` (the organiser). A game the round's deadline stops
gets one line in its thread saying so and how it was decided (kind ``deadline``).

Each tournament keeps one sign-up message in its channel (:func:`refresh`, after every change
the manager tells, :func:`on_change`): the rules, the entrants, then the current round's tables
and their results as they come, so results never add messages of their own. Each new round
(``TournamentChange`` kind ``round``) gets its games' threads, like league games, and one
announcement in the channel that mentions each player of the round once, with the standings or
bracket picture; the end gets the final picture and the winner. A best-of match's next game
gets its thread the same way (kind ``games``). After a restart :func:`resume` brings every
running tournament up to date and opens the threads a stop left unopened; the buttons' ids
carry the tournament's number and survive restarts.

Every text is in the catalogs (context ``tournament_ui``); refusals come from the manager
(context ``tournament``) or the policy.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

import catalogs
from bot import leagues, tournaments
from bot.errors import ManagerError
from bot.i18n import shown_text
from bot.manager.tournaments import TournamentChange, TournamentTable
from bot.storage import TournamentGame, TournamentRow, who
from bot.ui import access, ids
from bot.ui.commands import (
    EXPANSIONS,
    FARMERS,
    INCOMPLETE,
    LEVELS,
    SMALL_CITY,
    adopt_server_locale,
    bot_of,
    chosen_expansions,
    chosen_options,
)
from bot.ui.components import IdButton
from bot.ui.errors import UIError, guarded
from bot.ui.leagues.league_commands import (
    ARCHIVE_MINUTES,
    GAMES,
    PACES,
    here,
    is_admin,
    league_names,
    public_locale,
)
from bot.ui.limits import GameNumber, LeagueName, Reason, TournamentName, check_options, heavy
from bot.ui.texts import family_title, tr
from bot.ui.timing import pbp_commands
from bot.ui.tournaments import pictures
from bot.ui.turn import post
from bot.ui.turn.state import snapshot

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: Entrants listed on the sign-up message (the rest are counted).
SHOWN_ENTRANTS: Final = 40
#: Tables of the current round listed on it.
SHOWN_TABLES: Final = 16

FORMATS = [
    Choice(name=_("Swiss rounds"), value="swiss"),
    Choice(name=_("knockout"), value="knockout"),
    Choice(name=_("Swiss rounds, then a final table"), value="swiss_final"),
]
BEST_OF: list[Choice[int]] = [Choice(name=str(n), value=n) for n in tournaments.BEST_OF]

#: The parameters of the tournament texts that hold text users typed, and how much is shown.
FREE_TEXT = {"tournament": tournaments.NAME_LENGTH, "reason": 300, "name": 100}
#: Texts that are not markdown (a thread's name): their parameters are shown as they are.
PLAIN = frozenset({"thread_name"})
#: The texts that count something, and which of their numbers chooses the plural form.
COUNTED = {
    "entrants": "count",
    "more_entrants": "count",
    "more_tables": "count",
    "format_swiss": "rounds",
    "format_swiss_final": "rounds",
    "advance": "n",
    "started": "games",
}


def tt(key: str, locale: str | None, **params: Any) -> str:
    """A tournament text; its ``tournament``, ``reason`` and ``name`` are shown harmlessly."""
    if key not in PLAIN:
        params = {
            k: shown_text(v, FREE_TEXT[k]) if k in FREE_TEXT and isinstance(v, str) else v
            for k, v in params.items()
        }
    counted = COUNTED.get(key)
    if counted is not None:
        rest = {k: v for k, v in params.items() if k != "n"}  # plural() gives it as {n}
        return catalogs.plural("tournament_ui", key, int(params[counted]), locale, **rest)
    return catalogs.text("tournament_ui", key, locale, **params)


# -- finding tournaments ---------------------------------------------------------------------


async def resolve(interaction: discord.Interaction, name: str | None, action: str) -> TournamentRow:
    """The tournament named (else the one of this channel), of the caller's server only, once
    the policy lets the caller do ``action`` to it."""
    guild_id = interaction.guild_id
    assert guild_id is not None  # the group is guild-only
    found = await bot_of(interaction).manager.tournaments.find_tournament(
        guild_id, name, interaction.channel_id
    )
    await access.authorise(interaction, action, tournament=found)
    return found


async def tournament_names(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The caller's server's tournaments (open ones first), never another server's."""
    if interaction.guild_id is None:
        return []
    try:
        await access.authorise(interaction, "autocomplete tournament")
    except (UIError, ManagerError):
        return []
    found = await bot_of(interaction).manager.tournaments.guild_tournaments(interaction.guild_id)
    typed = current.casefold().strip()
    ordered = sorted(reversed(found), key=lambda t: not t.open)
    names: list[str] = []
    for row in ordered:
        if typed in row.name.casefold() and row.name not in names:
            names.append(row.name)
    return [Choice(name=n, value=n) for n in names[:25]]


# -- the sign-up message ---------------------------------------------------------------------


def format_line(found: TournamentRow, locale: str) -> str:
    if found.format == "knockout":
        text = tt("format_knockout", locale)
        if found.best_of > 1:
            text += " · " + tt("best_of", locale, n=found.best_of)
        elif found.table_size > 2:
            text += " · " + tt("advance", locale, n=found.advance)
        return text
    if found.format == "swiss_final":
        return tt("format_swiss_final", locale, rounds=found.rounds, size=found.advance)
    return tt("format_swiss", locale, rounds=found.rounds)


def rules_line(found: TournamentRow, locale: str) -> str:
    parts = [family_title(found.kind, locale), format_line(found, locale)]
    parts.append(tt("table_size", locale, size=found.table_size))
    if found.pace == "post" and found.turn_seconds:
        hours = (found.round_seconds or 0) // 3600
        parts.append(tt("pace_post", locale, hours=found.turn_seconds // 3600, round=hours))
    else:
        parts.append(tt("pace_live", locale))
    if found.computers is not None:
        parts.append(tt("computers", locale, level=tr(f"level_{found.computers}", locale)))
    return " · ".join(parts)


def state_line(table: TournamentTable, locale: str) -> str:
    found = table.tournament
    if found.state == "signup":
        return tt("state_signup", locale)
    if found.state == "checkin":
        return tt("state_checkin", locale)
    if found.state == "cancelled":
        return tt("state_cancelled", locale)
    if found.state == "finished":
        if not table.places:
            return tt("state_finished", locale)
        return tt("state_winner", locale, winner=who(table.places[0]))
    if found.format == "knockout" or not found.rounds:
        return tt("state_round", locale, round=found.round)
    if found.round > found.rounds:
        return tt("state_final", locale)
    text = tt("state_round_of", locale, round=found.round, rounds=found.rounds)
    if found.round_deadline:
        text += " · " + tt("deadline", locale, when=f"<t:{int(found.round_deadline)}:R>")
    return text


def ordinal(rank: int, locale: str) -> str:
    return tt("place", locale, rank=rank)


def table_line(game: TournamentGame, names: dict[int, str], locale: str) -> str:
    """One table of the round: its players, then its game in play or its result."""
    shown = [discord.utils.escape_markdown(names.get(p, "?")) for p in game.players]
    if len(game.players) == 1:
        return tt("bye_line", locale, table=game.table, name=shown[0])
    if game.decided and game.ranks is not None:
        if game.annulled_at is not None:
            result = tt("annulled_mark", locale)
        else:
            parts = []
            for i, rank in sorted(enumerate(game.ranks), key=lambda x: x[1]):
                absent = game.players[i] in game.absent
                score = (
                    tt("absent", locale) if absent else str(game.scores[i] if game.scores else 0)
                )
                parts.append(f"{ordinal(rank, locale)} {shown[i]} ({score})")
            result = " · ".join(parts)
        number = f" #{game.game_id}" if game.game_id else ""
        return tt("result_line", locale, table=game.table, game=number, result=result)
    where = f"#{game.game_id}" if game.game_id else "-"
    return tt("playing_line", locale, table=game.table, players=", ".join(shown), game=where)


def lobby_embed(table: TournamentTable, locale: str) -> discord.Embed:
    found = table.tournament
    colour = {
        "signup": discord.Colour.blurple(),
        "checkin": discord.Colour.orange(),
        "running": discord.Colour.gold(),
    }.get(found.state, discord.Colour.greyple())
    embed = discord.Embed(
        title=tt("lobby_title", locale, tournament=found.name),
        description=state_line(table, locale),
        colour=colour,
    )
    embed.add_field(name=tt("rules", locale), value=rules_line(found, locale), inline=False)
    embed.add_field(name=tt("organiser", locale), value=who(found.organiser_id), inline=False)
    lines = []
    for entrant in table.entrants[:SHOWN_ENTRANTS]:
        name = discord.utils.escape_markdown(entrant.name)
        if not entrant.playing:
            lines.append(tt("entrant_left", locale, name=name))
        elif found.state == "checkin" and entrant.checked_in:
            lines.append(tt("entrant_checked", locale, name=name))
        else:
            lines.append(name)
    if len(table.entrants) > SHOWN_ENTRANTS:
        lines.append(tt("more_entrants", locale, count=len(table.entrants) - SHOWN_ENTRANTS))
    embed.add_field(
        name=tt("entrants", locale, count=len(table.entrants)),
        value=", ".join(lines)[:1024] or tt("nobody", locale),
        inline=False,
    )
    if found.round:
        names = {e.user_id: e.name for e in table.entrants}
        current = sorted(
            (g for g in table.games if g.round == found.round),
            key=lambda g: (g.table, g.game_no),
        )
        rows = [table_line(g, names, locale) for g in current[:SHOWN_TABLES]]
        if len(current) > SHOWN_TABLES:
            rows.append(tt("more_tables", locale, count=len(current) - SHOWN_TABLES))
        text = "\n".join(rows)
        if len(text) > 1024:
            text = text[:1021] + "…"
        embed.add_field(name=tt("round_field", locale, round=found.round), value=text, inline=False)
    return embed


class TournamentButton(IdButton[ids.TournamentOp], kind=ids.TournamentOp):
    """Sign up, Withdraw and Check in, on a tournament's sign-up message: the tournament's
    number and the operation are in the ``custom_id`` (rebuilt after a restart)."""

    action = "tournament signup"

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.value

        async def run(i: discord.Interaction) -> None:
            await on_button(i, value)

        await guarded(interaction, run)


def lobby_view(found: TournamentRow, locale: str) -> discord.ui.View | None:
    if found.state not in ("signup", "checkin"):
        return None
    view = discord.ui.View(timeout=None)
    if found.state == "checkin":
        view.add_item(
            TournamentButton(
                ids.TournamentOp(found.id, "checkin"),
                tt("button_checkin", locale),
                discord.ButtonStyle.success,
            )
        )
    view.add_item(
        TournamentButton(
            ids.TournamentOp(found.id, "signup"),
            tt("button_signup", locale),
            discord.ButtonStyle.primary
            if found.state == "signup"
            else discord.ButtonStyle.secondary,
        )
    )
    view.add_item(
        TournamentButton(
            ids.TournamentOp(found.id, "withdraw"),
            tt("button_withdraw", locale),
            discord.ButtonStyle.secondary,
        )
    )
    return view


async def on_button(interaction: discord.Interaction, value: ids.TournamentOp) -> None:
    bot = bot_of(interaction)
    manager = bot.manager
    found = await manager.tournaments.tournament(value.game)
    # Another server's button (a forged or forwarded copy) is refused as a tournament that
    # does not exist; the server's language is only read once the button is the caller's.
    await access.authorise(interaction, f"tournament {value.op}", tournament=found)
    interaction.extras["locale"] = await server_locale(bot, found)
    await act(interaction, found, value.op)


async def act(interaction: discord.Interaction, found: TournamentRow, op: str) -> None:
    """Sign up, withdraw or check in the caller; answered privately."""
    ops = bot_of(interaction).manager.tournaments
    user = interaction.user
    if op == "signup":
        await ops.sign_up(found.id, user.id, user.display_name)
        key = "signed_up"
    elif op == "withdraw":
        await ops.withdraw(found.id, user.id)
        key = "withdrawn"
    else:
        await ops.check_in(found.id, user.id)
        key = "checked_in"
    await interaction.response.send_message(
        tt(key, here(interaction), tournament=found.name), ephemeral=True
    )


def _locks(bot: CarcassonneBot, name: str) -> dict[int, asyncio.Lock]:
    attr = f"_tournament_{name}_locks"
    found: dict[int, asyncio.Lock] | None = getattr(bot, attr, None)
    if found is None:
        found = {}
        setattr(bot, attr, found)
    return found


async def _channel(bot: CarcassonneBot, found: TournamentRow) -> discord.abc.Messageable:
    channel = bot.get_channel(found.channel_id) or await bot.fetch_channel(found.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise RuntimeError(f"tournament {found.id}: channel {found.channel_id} takes no messages")
    return channel


async def server_locale(bot: CarcassonneBot, found: TournamentRow) -> str:
    return (await bot.manager.records.guild_settings(found.guild_id)).locale


async def refresh(bot: CarcassonneBot, tournament_id: int) -> None:
    """Edit (or post, the first time or if it was deleted) the tournament's sign-up message."""
    manager = bot.manager
    lock = _locks(bot, "message").setdefault(tournament_id, asyncio.Lock())
    async with lock:
        table = await manager.tournaments.table(tournament_id)
        found = table.tournament
        locale = await server_locale(bot, found)
        embed = lobby_embed(table, locale)
        view = lobby_view(found, locale)
        if found.message_id is not None:
            partial = bot.get_partial_messageable(found.channel_id)
            try:
                await partial.get_partial_message(found.message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                log.info("tournament %s: its message was deleted, posting it again", found.id)
        channel = await _channel(bot, found)
        message = await channel.send(embed=embed, view=view or discord.utils.MISSING)
        await manager.tournaments.set_message(found.id, message.id)


# -- rounds: threads, announcements ----------------------------------------------------------


async def open_threads(bot: CarcassonneBot, tournament_id: int) -> dict[int, discord.Thread]:
    """A thread for each game of the tournament in play that has none yet (its first turn
    posted there); the threads opened, by game."""
    manager = bot.manager
    opened: dict[int, discord.Thread] = {}
    lock = _locks(bot, "threads").setdefault(tournament_id, asyncio.Lock())
    async with lock:
        found = await manager.tournaments.tournament(tournament_id)
        locale = await server_locale(bot, found)
        for game in await manager.tournaments.games_of(tournament_id):
            if game.game_id is None or game.decided:
                continue
            row = await manager.game(game.game_id)
            if row.thread_id is not None or row.status != "active":
                continue
            opened[row.id] = await open_thread(bot, found, game, locale)
    return opened


async def open_thread(
    bot: CarcassonneBot, found: TournamentRow, game: TournamentGame, locale: str
) -> discord.Thread:
    assert game.game_id is not None
    name = tt("thread_name", locale, tournament=found.name, round=game.round, game_id=game.game_id)[
        :100
    ]
    channel = await _channel(bot, found)
    if not isinstance(channel, discord.TextChannel):
        raise RuntimeError(f"tournament {found.id}: channel {found.channel_id} has no threads")
    thread = await channel.create_thread(
        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
    )
    await bot.manager.records.set_messages(game.game_id, thread_id=thread.id, message_id=None)
    players = ", ".join(who(p) for p in game.players)
    key = "welcome_match" if found.best_of > 1 else "welcome"
    if key == "welcome" and game.game_no > 1:  # a table replayed
        key = "welcome_replay"
    welcome = tt(
        key,
        locale,
        tournament=found.name,
        round=game.round,
        table=game.table,
        game_no=game.game_no,
        best_of=found.best_of,
        game_id=game.game_id,
        players=players,
    )
    snap = await snapshot(bot.manager, game.game_id)
    await post.announce(bot, snap, [], extra=[welcome])
    return thread


async def announce_round(bot: CarcassonneBot, change: TournamentChange) -> None:
    """The round's threads, then one message in the channel: each table, each player
    mentioned once, and the standings or bracket picture."""
    threads = await open_threads(bot, change.tournament_id)
    manager = bot.manager
    table = await manager.tournaments.table(change.tournament_id)
    found = table.tournament
    locale = await server_locale(bot, found)
    rows = await manager.tournaments.games_of(found.id)
    current = sorted(
        (g for g in rows if g.round == change.round and g.game_no == 1), key=lambda g: g.table
    )
    mentioned: set[int] = set()
    final = found.format == "swiss_final" and change.round > (found.rounds or 0)
    title = "final_title" if final else "round_title"
    lines = [tt(title, locale, tournament=found.name, round=change.round)]
    for game in current:
        mentions = [who(p) for p in game.players if p not in mentioned]
        mentioned.update(game.players)
        if len(game.players) == 1:
            lines.append(tt("round_bye", locale, table=game.table, players=mentions[0]))
            continue
        thread = threads.get(game.game_id or 0)
        where = (
            thread.mention if thread is not None else (f"#{game.game_id}" if game.game_id else "-")
        )
        if game.decided:
            lines.append(tt("round_forfeit", locale, table=game.table, players=", ".join(mentions)))
        else:
            lines.append(
                tt(
                    "round_table",
                    locale,
                    table=game.table,
                    players=", ".join(mentions),
                    where=where,
                )
            )
    if found.round_deadline and found.pace == "post":
        lines.append(tt("round_deadline", locale, when=f"<t:{int(found.round_deadline)}:f>"))
    files = await pictures.picture_files(table, locale)
    channel = await _channel(bot, found)
    text = "\n".join(lines)
    if len(text) > 2000:
        text = text[:1999] + "…"
    await channel.send(
        text, files=files, allowed_mentions=discord.AllowedMentions(users=True, everyone=False)
    )


async def announce_end(bot: CarcassonneBot, tournament_id: int) -> None:
    """The final standings or bracket, and the winner."""
    table = await bot.manager.tournaments.table(tournament_id)
    found = table.tournament
    locale = await server_locale(bot, found)
    winner = who(table.places[0]) if table.places else "-"
    podium = ", ".join(f"{ordinal(i + 1, locale)} {who(p)}" for i, p in enumerate(table.places[:3]))
    text = tt("finished", locale, tournament=found.name, winner=winner, podium=podium)
    files = await pictures.picture_files(table, locale)
    channel = await _channel(bot, found)
    await channel.send(
        text, files=files, allowed_mentions=discord.AllowedMentions(users=True, everyone=False)
    )


async def deadline_line(bot: CarcassonneBot, change: TournamentChange) -> None:
    """One line in the thread of a game the round's deadline stopped: how it was decided."""
    assert change.game_id is not None
    row = await bot.manager.game(change.game_id)
    if row.thread_id is None:
        return
    found = await bot.manager.tournaments.tournament(change.tournament_id)
    locale = await server_locale(bot, found)
    if change.user_id is None:
        text = tt("deadline_ended", locale)
    else:
        text = tt("deadline_ended_absent", locale, player=who(change.user_id))
    channel = await post.game_channel(bot, row)
    await channel.send(text, allowed_mentions=discord.AllowedMentions.none())


async def on_change(bot: CarcassonneBot, change: TournamentChange) -> None:
    """The manager's tournament listener: threads and announcements for new rounds and games,
    the final announcement, and the sign-up message kept current."""
    if change.kind == "round":
        await announce_round(bot, change)
    elif change.kind in ("games", "annulled", "dropped", "replayed"):
        await open_threads(bot, change.tournament_id)
    elif change.kind == "deadline":
        await deadline_line(bot, change)
    elif change.kind == "finished":
        await announce_end(bot, change.tournament_id)
    await refresh(bot, change.tournament_id)


async def resume(bot: CarcassonneBot) -> None:
    """At start-up: every running tournament brought up to date (what a stop left undone:
    results unrecorded, rounds unpaired, games uncreated), and the threads of games in play
    opened where a stop left them without one."""
    manager = bot.manager
    try:
        await manager.tournaments.tick()
        for found in await manager.tournaments.running_tournaments():
            await open_threads(bot, found.id)
            await refresh(bot, found.id)
    except Exception:
        log.exception("tournaments not resumed")


# -- the command group -----------------------------------------------------------------------


@app_commands.guild_only()
class TournamentGroup(app_commands.Group):
    """/tournament ..."""

    def __init__(self) -> None:
        super().__init__(
            name=_("tournament"),
            description=_("Tournaments: Swiss rounds, knockout brackets, best-of matches"),
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await adopt_server_locale(interaction)
        check_options(interaction)
        await access.authorise_command(interaction)
        return True

    @app_commands.command(
        name=_("create"),
        description=_(
            "Create a tournament (members who can manage the server, or a league's organiser)"
        ),
    )
    @app_commands.rename(
        name=_("name"),
        format=_("format"),
        players=_("players_per_table"),
        rounds=_("rounds"),
        best_of=_("best_of"),
        advance=_("advance"),
        league=_("league"),
        channel=_("channel"),
        game=_("game_kind"),
        expansion=_("expansion"),
        small_city=_("small_city"),
        farmers=_("farmers"),
        incomplete=_("incomplete"),
        hand=_("hand"),
        pace=_("pace"),
        turn_hours=_("turn_hours"),
        round_hours=_("round_hours"),
        timeout=_("timeout"),
        computers=_("computers"),
    )
    @app_commands.describe(
        name=_("The tournament's name"),
        format=_("Swiss rounds, a knockout, or Swiss rounds then a final table"),
        players=_("Players per table (2-5)"),
        rounds=_("Swiss rounds (default 3)"),
        best_of=_("Knockout, 2 players per table: games per match"),
        advance=_("Players going on from each knockout table, or the final table's size"),
        league=_("A league of yours: its rules, and its ratings count"),
        channel=_("Channel for its games and messages (default: here)"),
        game=_("Which game the tournament plays"),
        expansion=_("Expansion to add"),
        small_city=_("How a 2-tile city scores"),
        farmers=_("Farmer scoring"),
        incomplete=_("End-of-game scoring of unfinished features"),
        hand=_("Tactical hand: hold 3 tiles and choose one"),
        pace=_("Live games, or play-by-post with a time per turn"),
        turn_hours=_("Play-by-post: hours per turn (default 24)"),
        round_hours=_("Play-by-post: hours per round (default 168)"),
        timeout=_("What happens when a player's time runs out"),
        computers=_("Computer players fill short tables, at this level (default: none)"),
    )
    @app_commands.choices(best_of=BEST_OF)
    @app_commands.choices(
        format=FORMATS,
        game=GAMES,
        expansion=EXPANSIONS,
        small_city=SMALL_CITY,
        farmers=FARMERS,
        incomplete=INCOMPLETE,
        pace=PACES,
        timeout=pbp_commands.TIMEOUTS,
        computers=LEVELS,
    )
    @app_commands.autocomplete(league=league_names)
    async def create(
        self,
        interaction: discord.Interaction,
        name: TournamentName,
        format: str = "swiss",
        players: app_commands.Range[int, 2, 5] = 2,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        best_of: int = 1,
        advance: app_commands.Range[int, 1, 5] | None = None,
        league: LeagueName | None = None,
        channel: discord.TextChannel | None = None,
        game: str = "carcassonne",
        expansion: str | None = None,
        small_city: str | None = None,
        farmers: str | None = None,
        incomplete: str | None = None,
        hand: bool | None = None,
        pace: str = "live",
        turn_hours: app_commands.Range[int, 1, 336] | None = None,
        round_hours: app_commands.Range[int, 1, 1344] | None = None,
        timeout: str = "skip",
        computers: str | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        bot = bot_of(interaction)
        target = channel.id if channel is not None else interaction.channel_id
        assert target is not None
        league_id = None
        if league is not None:
            found = await bot.manager.leagues.find_league(guild_id, league, interaction.channel_id)
            league_id = found.id
        options = (
            chosen_options(small_city, farmers, incomplete, hand) if game == "carcassonne" else None
        )
        row = await bot.manager.tournaments.create_tournament(
            guild_id,
            target,
            interaction.user.id,
            name,
            admin=is_admin(interaction),
            format=format,  # type: ignore[arg-type]
            table_size=players,
            rounds=rounds,
            best_of=best_of,
            advance=advance,
            league_id=league_id,
            game=game,
            expansions=(chosen_expansions(expansion) or ()) if game == "carcassonne" else (),
            options=options,
            pace="post" if pace == "post" else "live",
            turn_hours=turn_hours,
            round_hours=round_hours,
            timeout_policy=timeout,
            computers=computers,
        )
        await interaction.response.send_message(
            tt("created", public_locale(interaction), tournament=row.name, where=f"<#{target}>")
        )

    @app_commands.command(name=_("signup"), description=_("Sign up for a tournament"))
    @app_commands.rename(tournament=_("tournament"))
    @app_commands.describe(tournament=_("Tournament name (default: the one of this channel)"))
    @app_commands.autocomplete(tournament=tournament_names)
    async def signup(
        self, interaction: discord.Interaction, tournament: TournamentName | None = None
    ) -> None:
        found = await resolve(interaction, tournament, "tournament signup")
        await act(interaction, found, "signup")

    @app_commands.command(
        name=_("withdraw"), description=_("Withdraw from a tournament before its first round")
    )
    @app_commands.rename(tournament=_("tournament"))
    @app_commands.describe(tournament=_("Tournament name (default: the one of this channel)"))
    @app_commands.autocomplete(tournament=tournament_names)
    async def withdraw(
        self, interaction: discord.Interaction, tournament: TournamentName | None = None
    ) -> None:
        found = await resolve(interaction, tournament, "tournament withdraw")
        await act(interaction, found, "withdraw")

    @app_commands.command(
        name=_("checkin"),
        description=_("Check in before the first round (the organiser: open check-in)"),
    )
    @app_commands.rename(tournament=_("tournament"), open=_("open"))
    @app_commands.describe(
        tournament=_("Tournament name (default: the one of this channel)"),
        open=_("The organiser: open check-in (who has not checked in at the start is left out)"),
    )
    @app_commands.autocomplete(tournament=tournament_names)
    async def checkin(
        self,
        interaction: discord.Interaction,
        tournament: TournamentName | None = None,
        open: bool = False,
    ) -> None:
        if not open:
            found = await resolve(interaction, tournament, "tournament checkin")
            await act(interaction, found, "checkin")
            return
        found = await resolve(interaction, tournament, "tournament checkin open")
        await bot_of(interaction).manager.tournaments.open_checkin(
            found.id, interaction.user.id, admin=is_admin(interaction)
        )
        await interaction.response.send_message(
            tt("checkin_opened", public_locale(interaction), tournament=found.name)
        )

    @app_commands.command(
        name=_("start"), description=_("Start the tournament: pair round 1 (the organiser)")
    )
    @app_commands.rename(tournament=_("tournament"))
    @app_commands.describe(tournament=_("Tournament name (default: the one of this channel)"))
    @app_commands.autocomplete(tournament=tournament_names)
    async def start(
        self, interaction: discord.Interaction, tournament: TournamentName | None = None
    ) -> None:
        found = await resolve(interaction, tournament, "tournament start")
        await interaction.response.defer(ephemeral=True, thinking=True)
        views = await bot_of(interaction).manager.tournaments.start_tournament(
            found.id, interaction.user.id, admin=is_admin(interaction)
        )
        await interaction.followup.send(
            tt("started", here(interaction), tournament=found.name, games=len(views)),
            ephemeral=True,
        )

    @heavy
    @app_commands.command(
        name=_("standings"), description=_("A tournament's standings or bracket, as a picture")
    )
    @app_commands.rename(tournament=_("tournament"), private=_("private"))
    @app_commands.describe(
        tournament=_("Tournament name (default: the one of this channel)"),
        private=_("Show it to you only"),
    )
    @app_commands.autocomplete(tournament=tournament_names)
    async def standings(
        self,
        interaction: discord.Interaction,
        tournament: TournamentName | None = None,
        private: bool = False,
    ) -> None:
        found = await resolve(interaction, tournament, "tournament standings")
        await interaction.response.defer(ephemeral=private, thinking=True)
        table = await bot_of(interaction).manager.tournaments.table(found.id)
        locale = here(interaction) if private else public_locale(interaction)
        files = await pictures.picture_files(table, locale)
        await interaction.followup.send(
            state_line(table, locale),
            files=files,
            ephemeral=private,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=_("drop"),
        description=_("Leave a tournament (the organiser: drop a player, with a reason)"),
    )
    @app_commands.rename(tournament=_("tournament"), player=_("player"), reason=_("reason"))
    @app_commands.describe(
        tournament=_("Tournament name (default: the one of this channel)"),
        player=_("The organiser: the player to drop (default: you)"),
        reason=_("Why (kept in the tournament's log; needed to drop someone else)"),
    )
    @app_commands.autocomplete(tournament=tournament_names)
    async def drop(
        self,
        interaction: discord.Interaction,
        tournament: TournamentName | None = None,
        player: discord.Member | None = None,
        reason: Reason | None = None,
    ) -> None:
        user = interaction.user
        other = player is not None and player.id != user.id
        action = "tournament drop player" if other else "tournament drop"
        found = await resolve(interaction, tournament, action)
        target = player.id if player is not None and other else user.id
        # The refusals are private: checked before the public answer.
        entrant = next(
            (e for e in await bot_of(interaction).manager.tournaments.entrants(found.id)
             if e.user_id == target),
            None,
        )  # fmt: skip
        if entrant is None:
            raise tournaments.NotEntered(player=f"<@{target}>", tournament=found.name)
        if not entrant.playing:
            raise tournaments.AlreadyDropped(player=f"<@{target}>", tournament=found.name)
        if not found.open:
            raise tournaments.NotRunning(tournament=found.name)
        if other:
            leagues.check_reason(reason or "")
        await interaction.response.defer(thinking=True)
        await bot_of(interaction).manager.tournaments.drop_out(
            found.id, target, user.id, admin=is_admin(interaction), why=reason or ""
        )
        locale = public_locale(interaction)
        if other:
            text = tt(
                "dropped_by",
                locale,
                player=f"<@{target}>",
                tournament=found.name,
                by=user.mention,
                reason=reason or "-",
            )
        else:
            text = tt("dropped", locale, player=user.mention, tournament=found.name)
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name=_("annul"),
        description=_("Annul a tournament game's result (the organiser, with a reason)"),
    )
    @app_commands.rename(game=_("game"), reason=_("reason"))
    @app_commands.describe(game=_("Game number"), reason=_("Why (kept in the tournament's log)"))
    async def annul(
        self, interaction: discord.Interaction, game: GameNumber, reason: Reason
    ) -> None:
        manager = bot_of(interaction).manager
        link = await manager.tournaments.game_table(game)
        if link is not None:
            found = await manager.tournaments.tournament(link.tournament_id)
            await access.authorise(interaction, "tournament annul", tournament=found, game_id=game)
        await manager.tournaments.annul_game(
            game,
            interaction.user.id,
            reason,
            admin=is_admin(interaction),
            guild_id=interaction.guild_id,
        )
        assert link is not None  # annul_game refused a game of no tournament
        text = tt(
            "annulled",
            public_locale(interaction),
            game_id=game,
            tournament=found.name,
            by=interaction.user.mention,
            reason=reason,
        )
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name=_("replay"),
        description=_("Replay a game of the round in play (the organiser, with a reason)"),
    )
    @app_commands.rename(game=_("game"), reason=_("reason"))
    @app_commands.describe(game=_("Game number"), reason=_("Why (kept in the tournament's log)"))
    async def replay(
        self, interaction: discord.Interaction, game: GameNumber, reason: Reason
    ) -> None:
        manager = bot_of(interaction).manager
        link = await manager.tournaments.game_table(game)
        if link is None:
            raise tournaments.NotTournamentGame(game_id=game)
        found = await manager.tournaments.tournament(link.tournament_id)
        await access.authorise(interaction, "tournament replay", tournament=found, game_id=game)
        # The refusals of what was typed are private too: checked before the public answer.
        leagues.check_reason(reason)
        if found.state != "running":
            raise tournaments.NotRunning(tournament=found.name)
        if link.round != found.round:
            raise tournaments.PastRound(game_id=game, round=link.round, current=found.round)
        later = [
            g
            for g in await manager.tournaments.games_of(found.id)
            if (g.round, g.table) == (link.round, link.table) and g.game_no > link.game_no
        ]
        if link.annulled_at is not None or later:
            raise tournaments.NotReplayable(game_id=game)
        await interaction.response.defer(thinking=True)
        view = await manager.tournaments.replay_game(
            game,
            interaction.user.id,
            reason,
            admin=is_admin(interaction),
            guild_id=interaction.guild_id,
        )
        text = tt(
            "replayed",
            public_locale(interaction),
            game_id=game,
            tournament=found.name,
            table=link.table,
            new_id=view.game_id,
            by=interaction.user.mention,
            reason=reason,
        )
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name=_("cancel"), description=_("Cancel a tournament and stop its games (the organiser)")
    )
    @app_commands.rename(reason=_("reason"), tournament=_("tournament"))
    @app_commands.describe(
        reason=_("Why (kept in the tournament's log)"),
        tournament=_("Tournament name (default: the one of this channel)"),
    )
    @app_commands.autocomplete(tournament=tournament_names)
    async def cancel(
        self,
        interaction: discord.Interaction,
        reason: Reason,
        tournament: TournamentName | None = None,
    ) -> None:
        found = await resolve(interaction, tournament, "tournament cancel")
        # The refusals of what was typed are private too: checked before the public answer.
        leagues.check_reason(reason)
        if not found.open:
            raise tournaments.NotRunning(tournament=found.name)
        await interaction.response.defer(thinking=True)
        await bot_of(interaction).manager.tournaments.cancel(
            found.id, interaction.user.id, reason, admin=is_admin(interaction)
        )
        text = tt(
            "cancelled",
            public_locale(interaction),
            tournament=found.name,
            by=interaction.user.mention,
            reason=reason,
        )
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())

    @heavy
    @app_commands.command(
        name=_("log"), description=_("Who did what in a tournament, and why (the organiser)")
    )
    @app_commands.rename(tournament=_("tournament"))
    @app_commands.describe(tournament=_("Tournament name (default: the one of this channel)"))
    @app_commands.autocomplete(tournament=tournament_names)
    async def log(
        self, interaction: discord.Interaction, tournament: TournamentName | None = None
    ) -> None:
        found = await resolve(interaction, tournament, "tournament log")
        entries = await bot_of(interaction).manager.tournaments.tournament_log(
            found.id, interaction.user.id, admin=is_admin(interaction)
        )
        locale = here(interaction)
        lines = [
            tt(
                "log_row",
                locale,
                when=f"<t:{int(a.created_at)}:f>",
                who=who(a.user_id),
                action=tt(f"action_{a.action}", locale, round=a.round or 0),
                target=f" #{a.game_id}" if a.game_id else "",
                reason=a.reason or "-",
            )
            for a in entries
        ]
        embed = discord.Embed(
            title=tt("log_title", locale, tournament=found.name),
            description="\n".join(lines)[:4000] or tt("log_empty", locale),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def install(bot: CarcassonneBot) -> None:
    """Add ``/tournament``, the sign-up buttons, and the listener behind every message."""
    bot.tree.add_command(TournamentGroup())
    bot.add_dynamic_items(TournamentButton)

    async def listener(change: TournamentChange) -> None:
        await on_change(bot, change)

    bot.manager.tournaments.on_tournament_change(listener)
