"""The ``/league`` command group: community leagues on Discord, over :mod:`bot.manager.leagues`.

Commands: ``create`` (members who can manage the server), ``join``, ``leave``, ``standings``,
``leaderboard``, ``profile``, ``stats`` (a player's statistics over the season's counted games,
as ``/carcassonne stats`` gives them for the whole server), ``schedule`` (the organiser: named
players, or a round for every free member), ``challenge`` (a member invites others; the game
starts when all accept), ``annul`` (an admin, with a reason), ``close`` (the organiser: ends the
season, optionally opening the next) and ``log`` (the organiser: who did what and why).

Each league keeps one standings message per season in its channel, edited after every change
(:func:`refresh`, called by the manager's league listener), so it is always the current table.
League games get a thread in the league's channel and are then played like any other game.
Every text is in the catalogs (context ``league_ui``); command names are translated by
:mod:`bot.ui.translator`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

import catalogs
from bot import leagues
from bot.errors import ManagerError
from bot.i18n import language, shown_text
from bot.leagues import Profile, Standing
from bot.manager.leagues import LeagueChange, SeasonTable
from bot.narrate import feature_name as scored_feature
from bot.storage import GameRow, LeagueRow, who
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
from bot.ui.errors import UIError
from bot.ui.limits import Day, GameNumber, LeagueName, Points, Reason, Season, check_options, heavy
from bot.ui.lobby import lobby_ui
from bot.ui.texts import family_title, player_locale, tr
from bot.ui.turn import post
from bot.ui.turn.state import snapshot
from bot.ui.watching import stats_ui

if TYPE_CHECKING:
    from bot.app import CarcassonneBot

log = logging.getLogger(__name__)

#: Game threads archive after Discord's longest inactivity (7 days, in minutes).
ARCHIVE_MINUTES: Final = 10080
SHOWN_ROWS = 20


GAMES = [
    Choice(name=_("Carcassonne"), value="carcassonne"),
    Choice(name=_("Hunters & Gatherers"), value="hunters"),
    Choice(name=_("The Castle (2 players)"), value="castle"),
]
PACES = [
    Choice(name=_("live (the server's usual timing)"), value="live"),
    Choice(name=_("play-by-post (time per turn)"), value="post"),
]
TIEBREAKS = [
    Choice(name=_("wins, then total score"), value="wins,total_score"),
    Choice(name=_("total score, then wins"), value="total_score,wins"),
    Choice(name=_("average score, then wins"), value="average_score,wins"),
]


#: The texts that count something, and which of their numbers chooses the plural form.
COUNTED = {
    "standings_games": "games",
    "leaderboard_row": "games",
    "standings_row": "points",
    "profile_feature": "points",
    "profile_standing": "points",
    "result_row": "score",
}


#: The parameters of the league texts that always hold text users typed (the league's name, a
#: reason), and how much of each is shown (see :func:`lt`).
FREE_TEXT = {"league": leagues.NAME_LENGTH, "reason": leagues.REASON_LENGTH}
#: Texts that are not markdown (a thread's name): their parameters are shown as they are.
PLAIN = frozenset({"thread_name"})


def lt(key: str, locale: str | None, **params: Any) -> str:
    """A league text. Its ``league`` and ``reason`` are shown harmlessly: visible characters
    only, no markdown, no mentions (:func:`bot.i18n.shown_text`)."""
    if key not in PLAIN:
        params = {
            k: shown_text(v, FREE_TEXT[k]) if k in FREE_TEXT and isinstance(v, str) else v
            for k, v in params.items()
        }
    counted = COUNTED.get(key)
    if counted is not None:
        return catalogs.plural("league_ui", key, int(params[counted]), locale, **params)
    return catalogs.text("league_ui", key, locale, **params)


def is_admin(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def here(interaction: discord.Interaction) -> str:
    """The language of a reply to this member (their client's, else the server's)."""
    return player_locale(interaction, interaction.extras.get("locale"))


def public_locale(interaction: discord.Interaction) -> str:
    return language(interaction.extras.get("locale"))


def game_title(kind: str, locale: str) -> str:
    return family_title(kind, locale)


def feature_name(category: str, locale: str) -> str:
    if catalogs.has("league_feature", category):
        return catalogs.text("league_feature", category, locale)
    return scored_feature(category, locale).split(" ", 1)[-1]  # "the city" -> "city"


def rules_line(league: LeagueRow, locale: str) -> str:
    parts = [game_title(league.kind, locale)]
    if league.kind == "carcassonne":
        fake = GameRow(
            id=0,
            owner_id=0,
            created_at=0,
            updated_at=0,
            expansions=league.expansions,
            options=dict(league.options),
        )
        parts.append(lobby_ui.setup_summary(fake, locale).rsplit(" · ", 1)[0])
    parts.append(lt("players", locale, low=league.min_players, high=league.max_players))
    if league.pace == "post" and league.turn_seconds:
        parts.append(lt("pace_post", locale, hours=league.turn_seconds // 3600))
    else:
        parts.append(lt("pace_live", locale))
    if league.computers is not None:
        parts.append(lt("computers", locale, level=tr(f"level_{league.computers}", locale)))
    return " · ".join(parts)


def stamp(value: float) -> str:
    """A date every member sees in their own format (a Discord timestamp)."""
    return f"<t:{int(value)}:D>"


# -- league resolution and autocomplete ------------------------------------------------------


async def resolve(interaction: discord.Interaction, name: str | None, action: str) -> LeagueRow:
    """The league named (else this channel's), of the caller's server, once the policy lets
    the caller do ``action`` to it."""
    guild_id = interaction.guild_id
    assert guild_id is not None  # the group is guild-only
    found = await bot_of(interaction).manager.leagues.find_league(
        guild_id, name, interaction.channel_id
    )
    await access.authorise(interaction, action, league=found)
    return found


async def league_names(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    if interaction.guild_id is None:
        return []
    try:
        await access.authorise(interaction, "autocomplete league")
    except (UIError, ManagerError):
        return []
    found = await bot_of(interaction).manager.leagues.guild_leagues(interaction.guild_id)
    typed = current.casefold().strip()
    return [Choice(name=lg.name, value=lg.name) for lg in found if typed in lg.name.casefold()][:25]


# -- embeds ----------------------------------------------------------------------------------


def standings_embed(table: SeasonTable, locale: str) -> discord.Embed:
    league, season = table.league, table.season
    final = season.closed_at is not None
    title = "standings_final" if final else "standings_title"
    lines = [
        lt(
            "standings_row",
            locale,
            position=row.position,
            name=discord.utils.escape_markdown(row.name),
            points=row.points,
            games=row.games,
            wins=row.wins,
            score=row.total_score,
        )
        for row in table.rows[:SHOWN_ROWS]
    ]
    if len(table.rows) > SHOWN_ROWS:
        lines.append(lt("standings_more", locale, count=len(table.rows) - SHOWN_ROWS))
    embed = discord.Embed(
        title=lt(title, locale, league=league.name, season=season.season),
        description="\n".join(lines) or lt("standings_empty", locale),
        colour=discord.Colour.greyple() if final else discord.Colour.gold(),
    )
    embed.add_field(name=lt("standings_rules", locale), value=rules_line(league, locale))
    end = stamp(season.ends_at - 1) if season.ends_at else lt("open_end", locale)
    dates = lt("dates", locale, start=stamp(season.starts_at), end=end)
    games = lt("standings_games", locale, games=table.games, in_play=table.in_play)
    embed.add_field(name=lt("standings_season", locale), value=f"{dates}\n{games}")
    if final:
        embed.set_footer(text=lt("final_footer", locale))
    else:
        tiebreaks = ", ".join(lt(f"tb_{t}", locale) for t in league.tiebreaks)
        points = "/".join(str(p) for p in league.points)
        embed.set_footer(text=lt("standings_footer", locale, points=points, tiebreaks=tiebreaks))
    return embed


def profile_embed(
    league: LeagueRow, profile: Profile, rated: int, locale: str, standing: Standing | None
) -> discord.Embed:
    none = lt("none", locale)
    embed = discord.Embed(
        title=lt("profile_title", locale, name=shown_text(profile.name), league=league.name),
        colour=discord.Colour.blurple(),
    )
    rating = str(profile.rating.display)
    if profile.position is not None:
        rating = lt("profile_rank", locale, rating=rating, position=profile.position, count=rated)
    embed.add_field(name=lt("profile_rating", locale), value=rating)
    share = round(100 * profile.wins / profile.games) if profile.games else 0
    embed.add_field(
        name=lt("profile_games", locale),
        value=lt(
            "profile_games_value", locale, games=profile.games, wins=profile.wins, share=share
        ),
    )
    average = format_decimal(profile.average_score, format="0.0", locale=language(locale))
    embed.add_field(
        name=lt("profile_scores", locale),
        value=lt("profile_scores_value", locale, average=average, best=profile.best_score)
        if profile.games
        else none,
    )
    total = sum(points for _, points in profile.features) or 1
    features = [
        lt(
            "profile_feature",
            locale,
            feature=feature_name(category, locale),
            points=points,
            share=round(100 * points / total),
        )
        for category, points in profile.features[:3]
    ]
    embed.add_field(
        name=lt("profile_features", locale), value="\n".join(features) or none, inline=False
    )
    changes = [
        lt(
            "profile_change",
            locale,
            game_id=c.game_id,
            before=c.before,
            after=c.after,
            delta=c.delta,
        )
        for c in reversed(profile.history[-5:])
    ]
    embed.add_field(
        name=lt("profile_history", locale), value="\n".join(changes) or none, inline=False
    )
    if standing is not None:
        embed.add_field(
            name=lt("profile_season", locale),
            value=lt(
                "profile_standing", locale, position=standing.position, points=standing.points
            ),
        )
    return embed


# -- the standings message -------------------------------------------------------------------


def _locks(bot: CarcassonneBot) -> dict[int, asyncio.Lock]:
    found: dict[int, asyncio.Lock] | None = getattr(bot, "_league_locks", None)
    if found is None:
        found = {}
        bot._league_locks = found  # type: ignore[attr-defined]
    return found


async def _league_channel(bot: CarcassonneBot, league: LeagueRow) -> discord.abc.Messageable:
    channel = bot.get_channel(league.channel_id) or await bot.fetch_channel(league.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise RuntimeError(f"league {league.id}: channel {league.channel_id} takes no messages")
    return channel


async def refresh(bot: CarcassonneBot, league_id: int, season: int | None = None) -> None:
    """Edit (or post, the first time or if it was deleted) a season's standings message."""
    manager = bot.manager
    lock = _locks(bot).setdefault(league_id, asyncio.Lock())
    async with lock:
        table = await manager.leagues.season_table(league_id, season)
        league = table.league
        locale = (await manager.records.guild_settings(league.guild_id)).locale
        embed = standings_embed(table, locale)
        channel = await _league_channel(bot, league)
        if table.season.message_id is not None:
            partial = bot.get_partial_messageable(league.channel_id)
            try:
                await partial.get_partial_message(table.season.message_id).edit(embed=embed)
                return
            except discord.NotFound:
                log.info("league %s: standings message deleted, posting it again", league_id)
        message = await channel.send(embed=embed)
        await manager.storage.set_season_message(league_id, table.season.season, message.id)


async def on_change(bot: CarcassonneBot, change: LeagueChange) -> None:
    """The manager's league listener: keep the standings message current, tell results."""
    await refresh(bot, change.league_id, change.season)
    league = await bot.manager.leagues.league(change.league_id)
    if change.kind == "closed" and league.season.season != change.season:
        await refresh(bot, change.league_id)  # the new season's message
    if change.kind == "result" and change.game_id is not None:
        await announce_result(bot, league, change.game_id)


async def announce_result(bot: CarcassonneBot, league: LeagueRow, game_id: int) -> None:
    ratings, results = await bot.manager.leagues.league_ratings(league.id)
    result = next((r for r in results if r.game_id == game_id), None)
    if result is None:
        return
    locale = (await bot.manager.records.guild_settings(league.guild_id)).locale
    lines = [lt("result", locale, league=league.name, game_id=game_id)]
    for placing in sorted(result.placings, key=lambda p: (p.rank, p.seat)):
        change = next(
            (c for c in ratings.history.get(placing.user_id, ()) if c.game_id == game_id), None
        )
        if change is None:
            continue
        lines.append(
            lt(
                "result_row",
                locale,
                rank=placing.rank,
                name=who(placing.user_id),
                score=placing.score,
                before=change.before,
                after=change.after,
                delta=change.delta,
            )
        )
    channel = await _league_channel(bot, league)
    await channel.send("\n".join(lines), allowed_mentions=discord.AllowedMentions.none())


# -- league games in threads -----------------------------------------------------------------


async def open_thread(
    bot: CarcassonneBot,
    league: LeagueRow,
    row: GameRow,
    locale: str,
    message: discord.Message | None = None,
) -> discord.Thread:
    """The game's thread in the league channel (on ``message`` if given); the first turn."""
    name = lt("thread_name", locale, league=league.name, game_id=row.id)[:100]
    if message is not None:
        thread = await message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    else:
        channel = await _league_channel(bot, league)
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"league {league.id}: channel {league.channel_id} has no threads")
        thread = await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_MINUTES,
        )
    await bot.manager.records.set_messages(row.id, thread_id=thread.id, message_id=None)
    players = ", ".join(s.mention for s in row.seats)
    welcome = lt(
        "welcome",
        locale,
        league=league.name,
        season=league.season.season,
        game_id=row.id,
        players=players,
    )
    snap = await snapshot(bot.manager, row.id)
    await post.announce(bot, snap, [], extra=[welcome])
    return thread


# -- the challenge message -------------------------------------------------------------------


class ChallengeButton(IdButton[ids.ChallengeAnswer], kind=ids.ChallengeAnswer):
    """Accept / Decline under a challenge; the game number is in the ``custom_id``."""

    action = "challenge answer"

    async def answer(self, interaction: discord.Interaction, value: ids.ChallengeAnswer) -> None:
        await on_challenge(interaction, value.game, value.accept)


def challenge_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    accept, decline = (ids.ChallengeAnswer(game_id, yes) for yes in (True, False))
    view.add_item(ChallengeButton(accept, lt("accept", locale), discord.ButtonStyle.success))
    view.add_item(ChallengeButton(decline, lt("decline", locale), discord.ButtonStyle.secondary))
    return view


def challenge_text(league: LeagueRow, row: GameRow, waiting: tuple[int, ...], locale: str) -> str:
    """The challenge message: who is seated (people and computers), who has yet to accept."""
    seated = [s.mention for s in row.seats if s.user_id != row.owner_id]
    return lt(
        "challenge",
        locale,
        challenger=f"<@{row.owner_id}>",
        opponents=", ".join([*seated, *(f"<@{u}>" for u in waiting)]),
        league=league.name,
        rules=rules_line(league, locale),
        waiting=", ".join(f"<@{u}>" for u in waiting) or "-",
    )


async def on_challenge(interaction: discord.Interaction, game_id: int, accept: bool) -> None:
    bot = bot_of(interaction)
    manager = bot.manager
    link = await manager.storage.league_game(game_id)
    league = await manager.leagues.league(link.league_id) if link is not None else None
    if league is not None:
        interaction.extras["locale"] = (
            await manager.records.guild_settings(league.guild_id)
        ).locale
    user = interaction.user
    answer = await manager.leagues.answer_challenge(
        game_id, user.id, user.display_name, accept=accept
    )
    assert league is not None and link is not None  # answer_challenge refused otherwise
    locale, mine = public_locale(interaction), here(interaction)
    if answer.declined:
        text = lt("challenge_declined", locale, game_id=game_id, player=user.mention)
        await interaction.response.edit_message(content=text, view=None)
        await interaction.followup.send(lt("declined", mine), ephemeral=True)
        return
    if answer.view is None:
        text = challenge_text(league, answer.game, answer.waiting, locale)
        await interaction.response.edit_message(content=text)
        await interaction.followup.send(lt("accepted", mine), ephemeral=True)
        return
    await interaction.response.defer()
    message = interaction.message
    thread = await open_thread(bot, league, answer.game, locale, message)
    if message is not None:
        started = lt("challenge_started", locale, game_id=game_id, where=thread.mention)
        await message.edit(content=started, view=None)


# -- the command group -----------------------------------------------------------------------


@app_commands.guild_only()
class LeagueGroup(app_commands.Group):
    """/league ..."""

    def __init__(self) -> None:
        super().__init__(
            name=_("league"), description=_("Community leagues: seasons, standings, ratings")
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await adopt_server_locale(interaction)
        check_options(interaction)
        await access.authorise_command(interaction)
        return True

    @app_commands.command(
        name=_("create"), description=_("Create a league (members who can manage the server)")
    )
    @app_commands.rename(
        name=_("name"),
        channel=_("channel"),
        game=_("game_kind"),
        expansion=_("expansion"),
        small_city=_("small_city"),
        farmers=_("farmers"),
        incomplete=_("incomplete"),
        hand=_("hand"),
        min_players=_("min_players"),
        max_players=_("max_players"),
        pace=_("pace"),
        turn_hours=_("turn_hours"),
        points=_("points"),
        tiebreak=_("tiebreak"),
        starts=_("starts"),
        ends=_("ends"),
        computers=_("computers"),
    )
    @app_commands.describe(
        name=_("The league's name"),
        channel=_("Channel for its games and standings (default: here)"),
        game=_("Which game the league plays"),
        expansion=_("Expansion to add"),
        small_city=_("How a 2-tile city scores"),
        farmers=_("Farmer scoring"),
        incomplete=_("End-of-game scoring of unfinished features"),
        hand=_("Tactical hand: hold 3 tiles and choose one"),
        min_players=_("Fewest players in a league game (2-5)"),
        max_players=_("Most players in a league game (2-5)"),
        pace=_("Live games, or play-by-post with a time per turn"),
        turn_hours=_("Play-by-post: hours per turn (default 24)"),
        points=_("Standings points per place, first first (default 3,1,0)"),
        tiebreak=_("How players level on points are ordered"),
        starts=_("First day of the season, YYYY-MM-DD (default: today)"),
        ends=_("Last day of the season, YYYY-MM-DD (default: none)"),
        computers=_("Computer players may fill seats, at this level (default: none)"),
    )
    @app_commands.choices(
        game=GAMES,
        expansion=EXPANSIONS,
        small_city=SMALL_CITY,
        farmers=FARMERS,
        incomplete=INCOMPLETE,
        pace=PACES,
        tiebreak=TIEBREAKS,
        computers=LEVELS,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: LeagueName,
        channel: discord.TextChannel | None = None,
        game: str = "carcassonne",
        expansion: str | None = None,
        small_city: str | None = None,
        farmers: str | None = None,
        incomplete: str | None = None,
        hand: bool | None = None,
        min_players: app_commands.Range[int, 2, 5] = 2,
        max_players: app_commands.Range[int, 2, 5] = 4,
        pace: str = "live",
        turn_hours: app_commands.Range[int, 1, 336] | None = None,
        points: Points | None = None,
        tiebreak: str | None = None,
        starts: Day | None = None,
        ends: Day | None = None,
        computers: str | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        target = channel.id if channel is not None else interaction.channel_id
        assert target is not None
        options = (
            chosen_options(small_city, farmers, incomplete, hand) if game == "carcassonne" else None
        )
        league = await bot_of(interaction).manager.leagues.create_league(
            guild_id,
            target,
            interaction.user.id,
            name,
            admin=is_admin(interaction),
            game=game,
            expansions=(chosen_expansions(expansion) or ()) if game == "carcassonne" else (),
            options=options,
            min_players=min_players,
            max_players=max_players,
            pace="post" if pace == "post" else "live",
            turn_hours=turn_hours,
            points=points,
            tiebreaks=tiebreak.split(",") if tiebreak else None,
            starts=starts,
            ends=ends,
            computers=computers,
        )
        await interaction.response.send_message(
            lt(
                "created",
                public_locale(interaction),
                name=shown_text(league.name, leagues.NAME_LENGTH),
                where=f"<#{target}>",
            )
        )

    @app_commands.command(name=_("join"), description=_("Join a league"))
    @app_commands.rename(league=_("league"))
    @app_commands.describe(league=_("League name (default: the league of this channel)"))
    @app_commands.autocomplete(league=league_names)
    async def join(
        self, interaction: discord.Interaction, league: LeagueName | None = None
    ) -> None:
        found = await resolve(interaction, league, "league join")
        user = interaction.user
        await bot_of(interaction).manager.leagues.join_league(found.id, user.id, user.display_name)
        await interaction.response.send_message(
            lt("joined", here(interaction), name=shown_text(found.name, leagues.NAME_LENGTH)),
            ephemeral=True,
        )

    @app_commands.command(name=_("leave"), description=_("Leave a league (your results stay)"))
    @app_commands.rename(league=_("league"))
    @app_commands.describe(league=_("League name (default: the league of this channel)"))
    @app_commands.autocomplete(league=league_names)
    async def leave(
        self, interaction: discord.Interaction, league: LeagueName | None = None
    ) -> None:
        found = await resolve(interaction, league, "league leave")
        await bot_of(interaction).manager.leagues.leave_league(found.id, interaction.user.id)
        await interaction.response.send_message(
            lt("left", here(interaction), name=shown_text(found.name, leagues.NAME_LENGTH)),
            ephemeral=True,
        )

    @heavy
    @app_commands.command(name=_("standings"), description=_("A season's standings"))
    @app_commands.rename(league=_("league"), season=_("season"))
    @app_commands.describe(
        league=_("League name (default: the league of this channel)"),
        season=_("Season number (default: the current one)"),
    )
    @app_commands.autocomplete(league=league_names)
    async def standings(
        self,
        interaction: discord.Interaction,
        league: LeagueName | None = None,
        season: Season | None = None,
    ) -> None:
        found = await resolve(interaction, league, "league standings")
        await interaction.response.defer(thinking=True)
        table = await bot_of(interaction).manager.leagues.season_table(found.id, season)
        await interaction.followup.send(embed=standings_embed(table, here(interaction)))

    @heavy
    @app_commands.command(name=_("leaderboard"), description=_("Players by rating"))
    @app_commands.rename(league=_("league"))
    @app_commands.describe(league=_("League name (default: the league of this channel)"))
    @app_commands.autocomplete(league=league_names)
    async def leaderboard(
        self, interaction: discord.Interaction, league: LeagueName | None = None
    ) -> None:
        found = await resolve(interaction, league, "league leaderboard")
        await interaction.response.defer(thinking=True)
        board = await bot_of(interaction).manager.leagues.leaderboard(found.id)
        locale = here(interaction)
        lines = [
            lt(
                "leaderboard_row",
                locale,
                position=i + 1,
                name=discord.utils.escape_markdown(member.name),
                rating=rating.display,
                games=rating.games,
            )
            for i, (member, rating) in enumerate(board[:SHOWN_ROWS])
        ]
        embed = discord.Embed(
            title=lt("leaderboard_title", locale, league=found.name),
            description="\n".join(lines) or lt("leaderboard_empty", locale),
            colour=discord.Colour.gold(),
        )
        embed.set_footer(text=lt("leaderboard_footer", locale))
        await interaction.followup.send(embed=embed)

    @heavy
    @app_commands.command(name=_("profile"), description=_("A player's league profile"))
    @app_commands.rename(player=_("player"), league=_("league"))
    @app_commands.describe(
        player=_("Whose profile (default: yours)"),
        league=_("League name (default: the league of this channel)"),
    )
    @app_commands.autocomplete(league=league_names)
    async def profile(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        league: LeagueName | None = None,
    ) -> None:
        found = await resolve(interaction, league, "league profile")
        await interaction.response.defer(thinking=True)
        manager = bot_of(interaction).manager
        who = player or interaction.user
        profile = await manager.leagues.league_profile(found.id, who.id, who.display_name)
        rated = len(await manager.leagues.leaderboard(found.id))
        table = await manager.leagues.season_table(found.id)
        standing = next((r for r in table.rows if r.user_id == who.id), None)
        embed = profile_embed(found, profile, rated, here(interaction), standing)
        embed.set_thumbnail(url=who.display_avatar.url)
        await interaction.followup.send(embed=embed)

    @heavy
    @app_commands.command(
        name=_("stats"), description=_("A player's statistics in a league season")
    )
    @app_commands.rename(
        player=_("player"), versus=_("versus"), league=_("league"), season=_("season")
    )
    @app_commands.describe(
        player=_("Whose statistics (default: yours)"),
        versus=_("Compare with this player (games together)"),
        league=_("League name (default: the league of this channel)"),
        season=_("Season number (default: the current one)"),
    )
    @app_commands.autocomplete(league=league_names)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        versus: discord.Member | None = None,
        league: LeagueName | None = None,
        season: Season | None = None,
    ) -> None:
        found = await resolve(interaction, league, "league stats")
        await stats_ui.show(interaction, player, versus, league=found, season=season)

    @heavy
    @app_commands.command(
        name=_("schedule"),
        description=_("Start league games: the players named, or a round for every free member"),
    )
    @app_commands.rename(
        league=_("league"),
        player1=_("player1"),
        player2=_("player2"),
        player3=_("player3"),
        player4=_("player4"),
        player5=_("player5"),
    )
    @app_commands.describe(
        league=_("League name (default: the league of this channel)"),
        player1=_("A player (name nobody to seat every free member)"),
        player2=_("Another player"),
        player3=_("Another player"),
        player4=_("Another player"),
        player5=_("Another player"),
    )
    @app_commands.autocomplete(league=league_names)
    async def schedule(
        self,
        interaction: discord.Interaction,
        league: LeagueName | None = None,
        player1: discord.Member | None = None,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        player5: discord.Member | None = None,
    ) -> None:
        found = await resolve(interaction, league, "league schedule")
        named = [p for p in (player1, player2, player3, player4, player5) if p is not None]
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        views = await bot.manager.leagues.schedule(
            found.id,
            interaction.user.id,
            admin=is_admin(interaction),
            players=[(p.id, p.display_name) for p in named] or None,
            namer=lobby_ui.computer_namer(public_locale(interaction)),
        )
        locale = public_locale(interaction)
        links = []
        for view in views:
            thread = await open_thread(bot, found, view.game, locale)
            links.append(
                lt("game_link", here(interaction), game_id=view.game_id, where=thread.mention)
            )
        await interaction.followup.send(
            lt("scheduled", here(interaction), games=", ".join(links)), ephemeral=True
        )

    @app_commands.command(name=_("challenge"), description=_("Challenge league members to a game"))
    @app_commands.rename(
        opponent1=_("opponent1"),
        opponent2=_("opponent2"),
        opponent3=_("opponent3"),
        opponent4=_("opponent4"),
        league=_("league"),
        computers=_("computers"),
    )
    @app_commands.describe(
        opponent1=_("A member you challenge"),
        opponent2=_("Another member you challenge"),
        opponent3=_("Another member you challenge"),
        opponent4=_("Another member you challenge"),
        league=_("League name (default: the league of this channel)"),
        computers=_("Computer players to seat too (leagues that have them)"),
    )
    @app_commands.autocomplete(league=league_names)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent1: discord.Member,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        league: LeagueName | None = None,
        computers: app_commands.Range[int, 0, 4] = 0,
    ) -> None:
        found = await resolve(interaction, league, "league challenge")
        named = [p for p in (opponent1, opponent2, opponent3, opponent4) if p is not None]
        bot = bot_of(interaction)
        user = interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = public_locale(interaction)
        row = await bot.manager.leagues.challenge(
            found.id,
            user.id,
            user.display_name,
            [(p.id, p.display_name) for p in named],
            computers,
            lobby_ui.computer_namer(locale),
        )
        invited = [p.id for p in named]
        channel = await _league_channel(bot, found)
        message = await channel.send(
            challenge_text(found, row, tuple(invited), locale),
            view=challenge_view(row.id, locale),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        await interaction.followup.send(
            lt("challenge_sent", here(interaction), link=message.jump_url), ephemeral=True
        )

    @app_commands.command(
        name=_("annul"), description=_("Annul a league game's result (admins, with a reason)")
    )
    @app_commands.rename(game=_("game"), reason=_("reason"))
    @app_commands.describe(game=_("Game number"), reason=_("Why (kept in the league's log)"))
    async def annul(
        self,
        interaction: discord.Interaction,
        game: GameNumber,
        reason: Reason,
    ) -> None:
        manager = bot_of(interaction).manager
        link = await manager.storage.league_game(game)
        if link is not None:
            found = await manager.leagues.league(link.league_id)
            await access.authorise(interaction, "league annul", league=found, game_id=game)
        league, result = await manager.leagues.annul_result(
            game,
            interaction.user.id,
            reason,
            admin=is_admin(interaction),
            guild_id=interaction.guild_id,
        )
        text = lt(
            "annulled",
            public_locale(interaction),
            game_id=game,
            league=league.name,
            admin=interaction.user.mention,
            reason=result.annul_reason,
        )
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name=_("close"), description=_("Close the season (organiser); optionally open the next")
    )
    @app_commands.rename(reason=_("reason"), league=_("league"), next_ends=_("next_season_ends"))
    @app_commands.describe(
        reason=_("Why (kept in the league's log)"),
        league=_("League name (default: the league of this channel)"),
        next_ends=_("Open the next season at once, ending on YYYY-MM-DD"),
    )
    @app_commands.autocomplete(league=league_names)
    async def close(
        self,
        interaction: discord.Interaction,
        reason: Reason,
        league: LeagueName | None = None,
        next_ends: Day | None = None,
    ) -> None:
        found = await resolve(interaction, league, "league close")
        # The refusals of what was typed are private too: checked before the public answer.
        leagues.check_reason(reason)
        if found.closed:
            raise leagues.LeagueClosed(league=found.name)
        if next_ends is not None:
            leagues.season_dates(None, next_ends, bot_of(interaction).manager.clock())
        await interaction.response.defer(thinking=True)
        table, now = await bot_of(interaction).manager.leagues.close_season(
            found.id, interaction.user.id, reason, admin=is_admin(interaction), next_ends=next_ends
        )
        locale = public_locale(interaction)
        lines = [
            lt(
                "closed",
                locale,
                season=table.season.season,
                league=found.name,
                by=interaction.user.mention,
                reason=reason,
            )
        ]
        if now.closed:
            lines.append(lt("league_over", locale))
        elif now.season.ends_at is not None:
            lines.append(
                lt(
                    "next_season",
                    locale,
                    season=now.season.season,
                    end=stamp(now.season.ends_at - 1),
                )
            )
        await interaction.followup.send(
            "\n".join(lines),
            embed=standings_embed(table, locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @heavy
    @app_commands.command(
        name=_("log"), description=_("Who closed seasons or annulled results, and why")
    )
    @app_commands.rename(league=_("league"))
    @app_commands.describe(league=_("League name (default: the league of this channel)"))
    @app_commands.autocomplete(league=league_names)
    async def log(self, interaction: discord.Interaction, league: LeagueName | None = None) -> None:
        found = await resolve(interaction, league, "league log")
        entries = await bot_of(interaction).manager.leagues.league_log(
            found.id, interaction.user.id, admin=is_admin(interaction)
        )
        locale = here(interaction)
        lines = [
            lt(
                "log_row",
                locale,
                when=f"<t:{int(a.created_at)}:f>",
                who=who(a.user_id),
                action=lt(f"action_{a.action}", locale, season=a.season),
                target=f" #{a.game_id}" if a.game_id else "",
                reason=a.reason or "-",
            )
            for a in entries
        ]
        embed = discord.Embed(
            title=lt("log_title", locale, league=found.name),
            description="\n".join(lines) or lt("log_empty", locale),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def install(bot: CarcassonneBot) -> None:
    """Add ``/league``, the challenge buttons, and the listener that keeps standings current."""
    bot.tree.add_command(LeagueGroup())
    bot.add_dynamic_items(ChallengeButton)

    async def listener(change: LeagueChange) -> None:
        await on_change(bot, change)

    bot.manager.leagues.on_league_change(listener)
