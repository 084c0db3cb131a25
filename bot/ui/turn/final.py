"""The end of a game in Discord: the winners, the final table by rank, and what the end scored.

The table has one line per player, best first, with the end chart's categories in the chart's
order and words; a player who resigned or forfeited is listed last and never wins. What the
final scoring gave is merged into one line per category ("Cities: alice 15 · bob 7") instead of
one sentence per feature, then who an unfinished inn road or cathedral city left with nothing
(those score 0, so the lines by category cannot show them). Nothing is cut: texts go into
embeds split at line ends, as many messages as Discord's limits need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.narrate import join_names, narrate
from bot.ui.texts import tr
from bot.ui.turn import families
from bot.ui.turn.state import Snapshot
from bot.ui.turn.words import tiles_in_words
from engine import Event, Game
from engine.core.events import FeatureScored, GameEnded
from renderer import endgame
from renderer import families as picture_families
from renderer.options import RenderOptions

#: Discord's limits: message text, embed description, field value, all embeds of one message.
CONTENT = 2000
DESCRIPTION = 4096
FIELD = 1024
EMBEDS_TOTAL = 6000
EMBEDS_PER_MESSAGE = 10
FIELDS = 25


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    name: str
    score: int
    rank: int | None  # None: the player left the game
    winner: bool
    points: dict[str, int]


def columns(game: Game, locale: str) -> list[tuple[str, str]]:
    """The end chart's categories that scored, in its order, with its words."""
    options = RenderOptions(lang=locale)
    own = picture_families.pictures(game.setup.game).categories
    order: Sequence[str]
    labels: Mapping[str, str]
    order, labels = own(options) if own is not None else (endgame.CATEGORY_ORDER, {})
    return [(c, labels.get(c) or options.text(c)) for c in endgame.categories(game, order)]


def standings(snap: Snapshot) -> list[Standing]:
    """Every player, ranked by score among those still playing; those who left come last."""
    game = snap.require_game()
    left = {s.seat for s in snap.row.seats if s.status != "playing"}
    left |= {p for p in range(game.players) if game.out[p]}
    winners = set(game.leaders)
    playing = [p for p in range(game.players) if p not in left]
    staying = sorted(playing, key=lambda p: -game.scores[p])
    gone = sorted(left, key=lambda p: -game.scores[p])
    rows: list[Standing] = []
    for p in staying:
        rank = 1 + sum(1 for q in staying if game.scores[q] > game.scores[p])
        rows.append(
            Standing(p, snap.names[p], game.scores[p], rank, p in winners, game.breakdown[p])
        )
    rows += [
        Standing(p, snap.names[p], game.scores[p], None, False, game.breakdown[p]) for p in gone
    ]
    return rows


def headline(snap: Snapshot) -> str:
    """ "Game over! 🏆 alice wins with 87 points." (the winners among the players still in)."""
    game = snap.require_game()
    names = [snap.names[p] for p in game.leaders]
    key = "end_winners" if len(names) > 1 else "end_winner"
    score = max((game.scores[p] for p in game.leaders), default=0)
    return tr(key, snap.locale, players=join_names(names, snap.locale), score=score)


def table_embed(snap: Snapshot) -> discord.Embed:
    """The final table: one field per player by rank, the chart's categories in its order."""
    game, locale = snap.require_game(), snap.locale
    cols = columns(game, locale)
    notes = families.hooks(game.setup.game).seat_notes(game, locale)
    embed = discord.Embed(title=tr("final_title", locale), colour=discord.Colour.gold())
    for row in standings(snap)[:FIELDS]:
        place = f"{row.rank}." if row.rank is not None else "-"
        crown = " 🏆" if row.winner else ""
        status = f" ({tr('final_left', locale)})" if row.rank is None else ""
        parts = [f"{label} {row.points.get(key, 0)}" for key, label in cols]
        if notes is not None:
            parts.append(notes[row.seat])
        embed.add_field(
            name=f"{place} {row.name}{crown} · {row.score}{status}"[:256],
            value=(" · ".join(parts) or tr("final_nothing", locale))[:FIELD],
            inline=False,
        )
    return embed


def split_events(events: Sequence[Event]) -> tuple[list[Event], list[FeatureScored]]:
    """The turn's own events, and the final scoring's (merged by category elsewhere)."""
    turn: list[Event] = []
    final: list[FeatureScored] = []
    for event in events:
        if isinstance(event, FeatureScored) and event.final:
            final.append(event)
        elif not isinstance(event, GameEnded):
            turn.append(event)
    return turn, final


def end_scoring_lines(snap: Snapshot, final: Sequence[FeatureScored]) -> list[str]:
    """One line per category of what the final scoring gave: "**Cities**: alice 15 · bob 7"."""
    game = snap.require_game()
    known = columns(game, snap.locale)
    words = dict(known)
    totals: dict[str, dict[int, int]] = {}
    for event in final:
        share = totals.setdefault(event.feature, {})
        for player, points in event.points.items():
            share[player] = share.get(player, 0) + points
    order = [key for key, _ in known]
    lines: list[str] = []
    for feature in sorted(totals, key=lambda f: order.index(f) if f in order else len(order)):
        share = totals[feature]
        if not any(share.values()):
            continue
        best = sorted(share.items(), key=lambda item: -item[1])
        listed = " · ".join(f"{snap.names[p]} {points}" for p, points in best if points)
        label = words.get(feature) or RenderOptions(lang=snap.locale).text(feature)
        lines.append(tr("final_end_line", snap.locale, label=label, listed=listed))
    return lines + unfinished_mark_lines(snap, final)


def unfinished_mark_lines(snap: Snapshot, final: Sequence[FeatureScored]) -> list[str]:
    """Who scored nothing for an unfinished road with an inn or city with a cathedral (Inns &
    Cathedrals), which the lines by category cannot show: "Unfinished roads with an inn score
    nothing: bob"."""
    seats: dict[str, set[int]] = {}
    for event in final:
        if not event.complete:
            for mark in event.marks:
                seats.setdefault(mark, set()).update(event.points)
    return [
        tr(
            f"final_{mark}_unfinished",
            snap.locale,
            players=join_names([snap.names[p] for p in sorted(seats[mark])], snap.locale),
        )
        for mark in ("inn", "cathedral")
        if seats.get(mark)
    ]


def chunks(lines: Sequence[str], limit: int) -> list[str]:
    """``lines`` joined into texts of at most ``limit`` characters, split at line ends (a line
    longer than ``limit`` is split at a space)."""
    out: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            if current:
                out.append(current)
                current = ""
            out.append(line[:cut])
            line = line[cut:].lstrip()
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            out.append(current)
            joined = line
        current = joined
    if current:
        out.append(current)
    return out


def messages(
    snap: Snapshot, events: Sequence[Event], extra: Sequence[str] = ()
) -> list[tuple[str, list[discord.Embed]]]:
    """The end of the game as (text, embeds) per message, each within Discord's limits; the
    first carries the headline and the final table (the picture goes with it)."""
    turn, final = split_events(events)
    words = tiles_in_words(snap)
    lines = [*extra, *narrate(turn, snap.names, snap.locale, words), f"**{headline(snap)}**"]
    texts = chunks(lines, CONTENT)
    embeds = [table_embed(snap)]
    scored = end_scoring_lines(snap, final)
    for index, part in enumerate(chunks(scored, DESCRIPTION)):
        title = tr("final_end_scoring", snap.locale) if index == 0 else None
        embeds.append(discord.Embed(title=title, description=part))
    # The texts go first, one message each; the embeds join the last text while they fit.
    out: list[tuple[str, list[discord.Embed]]] = [(text, []) for text in texts]
    for embed in embeds:
        packed = out[-1][1]
        used = sum(len(e) for e in packed)
        if len(packed) < EMBEDS_PER_MESSAGE and used + len(embed) <= EMBEDS_TOTAL:
            packed.append(embed)
        else:
            out.append(("", [embed]))
    return out
