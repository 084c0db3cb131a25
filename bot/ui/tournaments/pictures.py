"""The one place where a tournament's standings and bracket (:mod:`bot.tournaments`, through
:class:`bot.manager.tournaments.TournamentTable`) become the renderer's plain inputs
(:mod:`renderer.tournament`), and those become Discord files.

Players are named as their tables show them: their name in the tournament's entrants (a
forgotten player's is "former player N" there too). Entrants choose no colour for a whole
tournament, so the rows carry none. Swiss standings list the current round's tables under the
rows while it is played; a finished Swiss-then-final tournament lists its final places first.
A 2-player bracket's first round has its byes in the classic draw's slots, so the picture draws
every later round from the winners.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
from collections.abc import Callable, Mapping

import discord

from bot import tournaments
from bot.manager.tournaments import TournamentTable
from bot.storage import TournamentEntrant
from bot.ui import images
from renderer.jobs import Job
from renderer.options import RenderOptions
from renderer.tournament import (
    BracketPlayer,
    BracketView,
    MatchView,
    StandingRow,
    StandingsTable,
    bracket_page_count,
    standings_page_count,
)

log = logging.getLogger(__name__)

PlayerOf = Callable[[int], BracketPlayer]

#: Discord takes at most 10 files a message.
MOST_PAGES = 10


def names_of(entrants: list[TournamentEntrant]) -> dict[int, str]:
    return {e.user_id: e.name for e in entrants}


def swiss_round(table: TournamentTable) -> tuple[int, bool]:
    """The last Swiss round whose every table is decided, and whether a round is in play."""
    found = table.tournament
    rounds = found.rounds or 0
    current = [g for g in table.games if g.round == found.round]
    in_play = found.state == "running" and any(not g.decided for g in current)
    done = found.round - 1 if in_play else found.round
    return max(0, min(done, rounds)), in_play


def standings_view(table: TournamentTable) -> StandingsTable:
    """The Swiss standings picture's input (``swiss`` and ``swiss_final``)."""
    found = table.tournament
    names = names_of(table.entrants)
    gone = {e.user_id for e in table.entrants if not e.playing}
    finished = found.state == "finished"
    by_key = {s.key: s for s in table.standings}
    order = [s.key for s in table.standings]
    if finished and found.format == "swiss_final":
        order = [k for k in table.places if k in by_key]
    placed = finished and found.format == "swiss_final" and bool(table.places)
    rows = []
    for i, key in enumerate(order):
        standing = by_key[key]
        rows.append(
            StandingRow(
                position=i + 1 if placed else standing.position,
                name=names.get(key, "?"),
                points=standing.points,
                buchholz=standing.buchholz,
                score=standing.score,
                dropped=key in gone,
            )
        )
    done, in_play = swiss_round(table)
    tables: tuple[tuple[str, ...], ...] = ()
    tables_round = None
    if in_play:
        current = sorted(
            (g for g in table.games if g.round == found.round and g.game_no == 1),
            key=lambda g: g.table,
        )
        tables = tuple(tuple(names.get(p, "?") for p in g.players) for g in current)
        tables_round = found.round
    return StandingsTable(
        name=found.name,
        round=done,
        rounds=found.rounds or 0,
        rows=tuple(rows),
        final=finished,
        tables=tables,
        tables_round=tables_round,
    )


def rounds_total(players: int, size: int, advance: int) -> int:
    """How many rounds a knockout of ``players`` takes."""
    if size == 2:
        return max(1, math.ceil(math.log2(max(2, players))))
    count = 1
    while players > size:
        players = sum(min(advance, n - 1) for n in tournaments.table_sizes(players, size))
        count += 1
    return count


def bracket_view(table: TournamentTable) -> BracketView:
    """The bracket picture's input (``knockout``)."""
    found = table.tournament
    bracket = table.bracket
    assert bracket is not None, "a knockout has a bracket"
    names = names_of(table.entrants)
    seeded = [
        tournaments.Entrant(e.user_id, e.rating) for e in table.entrants if e.dropped_round != 0
    ]
    seed = tournaments.seeds(seeded)

    def player(key: int) -> BracketPlayer:
        return BracketPlayer(seed.get(key, 0), names.get(key, "?"))

    rounds: list[tuple[MatchView, ...]] = []
    for r, matches in enumerate(bracket.rounds):
        views = [_match_view(m, player) for m in matches]
        if r == 0 and found.table_size == 2:
            views += _byes(seed, {m.table for m in matches}, player)
        rounds.append(tuple(sorted(views, key=lambda v: v.table)))
    champion = player(bracket.winner_order[0]) if bracket.finished else None
    return BracketView(
        name=found.name,
        size=found.table_size,
        rounds_total=rounds_total(len(seeded), found.table_size, found.advance),
        rounds=tuple(rounds),
        best_of=found.best_of,
        advance=found.advance,
        champion=champion,
    )


def _match_view(match: tournaments.Match, player: PlayerOf) -> MatchView:
    players = tuple(player(p) for p in match.players)
    scores: tuple[int, ...] = ()
    if match.games:
        last = match.games[-1]
        scores = tuple(last.score_of(p) for p in match.players)
    advancing = None
    if match.advancing is not None:
        advancing = tuple(player(p).seed for p in match.advancing)
    return MatchView(
        table=match.table,
        players=players,
        wins=match.wins if len(match.players) == 2 else (),
        scores=scores,
        advancing=advancing,
    )


def _byes(seed: Mapping[int, int], played: set[int], player: PlayerOf) -> list[MatchView]:
    """The first round's byes: the slots of the draw whose pair has one player."""
    slots = 1 << max(1, math.ceil(math.log2(max(2, len(seed)))))
    by_seed = {s: k for k, s in seed.items()}
    order = tournaments.draw_order(slots)
    out = []
    for t in range(slots // 2):
        if t + 1 in played:
            continue
        present = [by_seed[s] for s in order[2 * t : 2 * t + 2] if s in by_seed]
        if len(present) == 1:
            alone = player(present[0])
            out.append(MatchView(t + 1, (alone,), advancing=(alone.seed,), bye=True))
    return out


def is_bracket(table: TournamentTable) -> bool:
    return table.tournament.format == "knockout"


async def picture_files(table: TournamentTable, lang: str) -> list[discord.File]:
    """The standings (Swiss) or the bracket (knockout) as pictures, one file a page (at most
    :data:`MOST_PAGES`), drawn by the render workers."""
    found = table.tournament
    kind: str
    data: BracketView | StandingsTable
    if is_bracket(table):
        kind, key = "bracket", "bracket"
        bracket = data = bracket_view(table)
        pages = await asyncio.to_thread(bracket_page_count, bracket)
    else:
        kind, key = "standings", "table"
        standings = data = standings_view(table)
        pages = await asyncio.to_thread(standings_page_count, standings, lang)
    files = []
    for page in range(min(pages, MOST_PAGES)):
        job = Job(kind, {}, RenderOptions(lang=lang), extra={key: data, "page": page})
        png = await images.draw_plain(job)
        if len(png) > images.BUDGET:
            log.warning("tournament %s: %s page %d is %d bytes", found.id, kind, page, len(png))
        name = f"tournament-{found.id}-{kind}-{page + 1}.png"
        files.append(discord.File(io.BytesIO(png), filename=name))
    return files
