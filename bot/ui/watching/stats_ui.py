"""Players' statistics on Discord: ``/carcassonne stats`` (this server) and ``/league stats``
(a league's season), one embed with the numbers and a picture of the points by category.

Both commands answer the same way (:func:`show`): the manager sums the stored summaries of the
player's finished games (:mod:`bot.manager.stats`), the embed gives every number, and the
points by category are also drawn as bars in the player's colour by the render workers
(:func:`bot.ui.images.stats_file`). The category words are the end table's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from babel.numbers import format_decimal, format_percent

from bot.errors import NoSuchSeason
from bot.i18n import language, shown_text
from bot.leagues import NAME_LENGTH
from bot.manager.stats import StatsReport
from bot.ui import images
from bot.ui.errors import UIError
from bot.ui.texts import player_locale, tr, trn
from renderer.options import RenderOptions
from renderer.stats import category_label, category_words

if TYPE_CHECKING:
    from bot.app import CarcassonneBot
    from bot.storage import LeagueRow

#: Categories listed in the embed (every family together has fewer).
SHOWN_CATEGORIES = 12


def duration(seconds: float, locale: str) -> str:
    """A time per turn in words: "45 s", "3 min 20 s", "5 h 12 min", "2 d 4 h"."""
    whole = round(seconds)
    if whole < 60:
        return tr("stats_seconds", locale, s=whole)
    if whole < 3600:
        return tr("stats_minutes", locale, m=whole // 60, s=whole % 60)
    if whole < 86400:
        return tr("stats_hours", locale, h=whole // 3600, m=whole % 3600 // 60)
    return tr("stats_days", locale, d=whole // 86400, h=whole % 86400 // 3600)


def _decimal(value: float, locale: str, signed: bool = False) -> str:
    text = format_decimal(value, format="0.0", locale=language(locale))
    return f"+{text}" if signed and value > 0 else text


def stats_embed(
    report: StatsReport,
    name: str,
    versus: str | None,
    locale: str,
    league: LeagueRow | None = None,
) -> discord.Embed:
    stats = report.player
    if report.season is not None and league is not None:
        scope = tr(
            "stats_scope_season",
            locale,
            league=shown_text(league.name, NAME_LENGTH),
            season=report.season[1],
        )
    else:
        scope = tr("stats_scope_server", locale)
    embed = discord.Embed(
        title=tr("stats_title", locale, name=name)[:256],
        description=scope,
        colour=discord.Colour.blurple(),
    )
    share = round(100 * stats.wins / stats.games) if stats.games else 0
    games = [tr("stats_games_value", locale, games=stats.games, wins=stats.wins, share=share)]
    if stats.shared_wins:
        games.append(tr("stats_shared", locale, shared=stats.shared_wins))
    if stats.against_computers:
        games.append(tr("stats_computers", locale, count=stats.against_computers))
    embed.add_field(name=tr("stats_games", locale), value="\n".join(games), inline=False)
    embed.add_field(
        name=tr("stats_scores", locale),
        value=tr(
            "stats_scores_value",
            locale,
            average=_decimal(stats.average_score, locale),
            best=stats.best_score if stats.best_score is not None else 0,
        ),
    )
    embed.add_field(
        name=tr("stats_figures", locale),
        value=tr(
            "stats_figures_value",
            locale,
            placed=stats.figures_placed,
            returned=stats.figures_returned,
        ),
    )
    options = RenderOptions(lang=locale)
    words = category_words(stats.kinds, options)
    lines = [
        tr(
            "stats_category_line",
            locale,
            category=category_label(key, words, options),
            points=points,
            average=_decimal(points / stats.games, locale) if stats.games else "0",
        )
        for key, points in stats.categories[:SHOWN_CATEGORIES]
    ]
    embed.add_field(
        name=tr("stats_categories", locale), value="\n".join(lines) or "-", inline=False
    )
    turns = (
        trn(
            "stats_turns_value",
            stats.timed_turns,
            locale,
            time=duration(stats.median_turn, locale),
            turns=stats.timed_turns,
        )
        if stats.median_turn is not None
        else tr("stats_turns_none", locale)
    )
    embed.add_field(name=tr("stats_turns", locale), value=turns, inline=False)
    reviewed = (
        trn(
            "stats_review_value",
            stats.reviewed,
            locale,
            accuracy=format_percent(stats.accuracy, format="0%", locale=language(locale)),
            lost=_decimal(stats.lost_per_turn or 0.0, locale),
        )
        if stats.accuracy is not None
        else tr("stats_review_none", locale)
    )
    embed.add_field(name=tr("stats_review", locale), value=reviewed, inline=False)
    together = report.versus
    if together is not None and versus is not None:
        value = (
            trn(
                "stats_versus_value",
                together.games,
                locale,
                games=together.games,
                wins=together.wins,
                theirs=together.versus_wins,
                margin=_decimal(together.average_margin, locale, signed=True),
            )
            if together.games
            else tr("stats_versus_none", locale)
        )
        embed.add_field(
            name=tr("stats_versus", locale, name=versus)[:256], value=value, inline=False
        )
    embed.set_footer(text=tr("stats_footer", locale))
    return embed


def _person(member: discord.User | discord.Member) -> None:
    if member.bot:
        raise UIError("stats_not_a_person")


async def show(
    interaction: discord.Interaction,
    player: discord.User | discord.Member | None,
    versus: discord.User | discord.Member | None,
    *,
    league: LeagueRow | None = None,
    season: int | None = None,
) -> None:
    """Answer a stats command: checks first, then defer, then the embed and its picture."""
    who = player or interaction.user
    _person(who)
    if versus is not None:
        _person(versus)
        if versus.id == who.id:
            raise UIError("stats_versus_self")
    if league is not None and season is not None and not 1 <= season <= league.season.season:
        raise NoSuchSeason(season=season)  # told privately: the answer is not deferred yet
    guild_id = interaction.guild_id
    assert guild_id is not None  # the groups are guild-only
    await interaction.response.defer(thinking=True)
    bot = cast("CarcassonneBot", interaction.client)
    report = await bot.manager.stats.player_stats(
        guild_id,
        who.id,
        versus=versus.id if versus is not None else None,
        league_id=league.id if league is not None else None,
        season=season,
        viewer=interaction.user.id,
    )
    locale = player_locale(interaction, interaction.extras.get("locale"))
    name = shown_text(who.display_name)
    if not report.player.games:
        await interaction.followup.send(tr("stats_no_games", locale, name=name))
        return
    other = shown_text(versus.display_name) if versus is not None else None
    embed = stats_embed(report, name, other, locale, league)
    embed.set_thumbnail(url=who.display_avatar.url)
    stats = report.player
    style = images.STYLES.get(report.colour or "", 0)
    data = {
        "name": who.display_name,
        "games": stats.games,
        "categories": stats.categories,
        "kinds": stats.kinds,
        "style": style,
    }
    file = await images.stats_file(data, locale)
    embed.set_image(url="attachment://stats.png")
    await interaction.followup.send(embed=embed, file=file)
