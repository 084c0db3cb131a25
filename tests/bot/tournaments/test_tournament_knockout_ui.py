"""A knockout of 6 players with best-of-3 matches through Discord (simcord), with the short
forced draw: sign-up by command and button, the bracket picture after every round, each game in
its thread, the next game of a match as soon as the last one ends, and the champion."""

from __future__ import annotations

import simcord
from conftest_ui import Table, said, simcord_bot
from tournament_helpers import (
    admin_of,
    announcements,
    embed_text,
    finish,
    in_play,
    lobby_message,
    picture_sizes,
    players,
    shorten,
    tables,
)

__all__ = ["simcord_bot"]


async def test_a_knockout_of_six_with_best_of_three(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=4)
    people = players(table, simcord_env, 6)
    zoe = admin_of(table, simcord_env)
    bot, channel = table.bot, table.channel
    shorten(bot)
    made = await zoe.slash(channel, "tournament create", name="Cup", format="knockout", best_of=3)
    assert any("Tournament **Cup** created" in t for t in said(made)), said(made)
    found = await bot.manager.tournaments.find_tournament(table.guild.id, "Cup")
    lobby = lobby_message(table, "Cup")
    assert "knockout · best of 3" in embed_text(lobby)
    for person in people[:3]:
        done = await person.click(lobby, custom_id=f"tn:op:{found.id}:signup")
        assert done.ephemeral and "You signed up for **Cup**" in said(done)[0]
    for person in people[3:]:
        done = await person.slash(channel, "tournament signup")
        assert done.ephemeral, said(done)
    assert "6 players" in embed_text(lobby_message(table, "Cup"))

    await zoe.slash(channel, "tournament start")
    await simcord_env.settle()
    # Round 1: 6 players in a bracket of 8, the top two seeds go on at once.
    first = announcements(table, "**Cup**: round 1 is paired.")
    assert len(first) == 1
    round_one = await tables(bot, found.id, 1)
    assert len(round_one) == 2 and all(len(g.players) == 2 for g in round_one)
    playing = {p for g in round_one for p in g.players}
    for person in people:
        mentioned = first[0].content.count(f"<@{person.id}>")
        assert mentioned == (1 if person.id in playing else 0), person.name
    assert picture_sizes(simcord_env, first[0])
    assert not lobby_message(table, "Cup").components, "no sign-up once it runs"

    played = 0
    while games := await in_play(bot, found.id):
        for game in games:
            assert game.game_id is not None
            row = await bot.manager.game(game.game_id)
            assert row.thread_id is not None, "every game has its thread"
            await finish(simcord_env, bot, game.game_id)
            played += 1
        assert played < 40
    final = await bot.manager.tournaments.table(found.id)
    assert final.tournament.state == "finished"
    assert final.bracket is not None and len(final.bracket.rounds) == 3
    for matches in final.bracket.rounds:
        for match in matches:
            assert match.advancing is not None
            assert max(match.wins) == 2 or len(match.games) > 2  # best of 3 (or ties)
    assert played >= 2 * 5
    # The second game of a match has its thread, named for the match.
    threads = [t.name or "" for t in channel.threads]
    assert sum("Cup · round" in name for name in threads) == played
    seconds = [
        m.content
        for t in channel.threads
        for m in t.history()
        if "game 2 (best of 3)" in (m.content or "")
    ]
    assert seconds
    for round_no in (2, 3):
        posted = announcements(table, f"**Cup**: round {round_no} is paired.")
        assert len(posted) == 1, round_no
        assert picture_sizes(simcord_env, posted[0])
    champion = final.places[0]
    over = announcements(table, "**Cup** is over.")
    assert len(over) == 1 and f"Winner: <@{champion}>" in over[0].content
    assert picture_sizes(simcord_env, over[0])
    assert f"Finished. Winner: <@{champion}>" in embed_text(lobby_message(table, "Cup"))
    standings = await people[0].slash(channel, "tournament standings")
    shown = standings.followups[-1] if standings.followups else standings.response
    assert not standings.ephemeral
    assert picture_sizes(simcord_env, shown)
