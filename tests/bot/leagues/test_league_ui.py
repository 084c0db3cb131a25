"""A whole league season through Discord (simcord): create, join, schedule, challenge, games played
to the end, the standings message kept current, ratings, profile, annulment, closing."""

from __future__ import annotations

import random
from typing import Any

import discord
import simcord
from conftest import play_random
from conftest_ui import Table, said, simcord_bot, step_of

import catalogs
from bot.ui.leagues.league_commands import LeagueGroup

__all__ = ["simcord_bot"]


def admin_of(table: Table, env: simcord.Env) -> Any:
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(env.create_user("zoe"), roles=[role])


def standings_messages(table: Table) -> list[discord.Message]:
    return [
        m
        for m in table.channel.history()
        if m.embeds and "standings" in (m.embeds[0].title or "") and not m.interaction_metadata
    ]


def standings_text(table: Table) -> str:
    (message,) = standings_messages(table)[-1:]
    embed = message.embeds[0]
    return f"{embed.title}\n{embed.description}\n{embed.footer.text}"


def game_number(text: str) -> int:
    return int(text.split("#")[1].split()[0].rstrip(".,:"))


async def finish_through_the_bot(table: Table, game_id: int, *, fast_until: int = 0) -> None:
    """Play random moves through the manager while more than ``fast_until`` tiles are left,
    then every remaining turn with ``/carcassonne place`` in the game's thread."""
    manager = table.bot.manager
    rng = random.Random(game_id)
    view = await manager.decision(game_id)
    while not view.finished and (view.tiles_left > fast_until or view.phase != "tile"):
        view = (await play_random(manager, view, rng)).view
    thread = next(t for t in table.channel.threads if str(game_id) in (t.name or ""))
    for _ in range(200):
        view = await manager.decision(game_id)
        if view.finished:
            return
        player = table.actor(view.user_id)
        offered = await player.autocomplete(thread, "carcassonne place", "rotation", "", cell="A")
        result = await player.slash(
            thread, "carcassonne place", cell="A", rotation=offered[0]["value"]
        )
        assert (await manager.decision(game_id)).turn > view.turn, said(result)
    raise AssertionError("the game did not end")


async def test_a_league_season_from_creation_to_close(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=4)
    alice, bob, carol, dave = table.players
    zoe = admin_of(table, simcord_env)
    channel, manager = table.channel, table.bot.manager

    # Creating is for members who can manage the server.
    refused = await alice.slash(channel, "league create", name="Spring")
    assert any("manage the server" in t for t in said(refused)) and refused.ephemeral
    created = await zoe.slash(
        channel, "league create", name="Spring", min_players=2, max_players=3, points="3,1,0"
    )
    assert any("League **Spring** created" in t for t in said(created))
    assert "Spring · season 1 standings" in standings_text(table)
    for player in (alice, bob, carol):
        joined = await player.slash(channel, "league join")
        assert joined.ephemeral and "You joined **Spring**" in said(joined)[0]
    text = standings_text(table)
    assert all(name in text for name in ("alice", "bob", "carol"))
    assert len(standings_messages(table)) == 1, "one message, edited in place"

    # The organiser schedules a game; a player cannot.
    refused = await alice.slash(channel, "league schedule", player1=alice, player2=bob)
    assert any("organiser" in t for t in said(refused))
    scheduled = await zoe.slash(channel, "league schedule", player1=alice, player2=bob)
    assert any("League games started" in t for t in said(scheduled)), said(scheduled)
    first = game_number(said(scheduled)[-1])
    thread = table.channel.threads[-1]
    assert "Spring" in (thread.name or "")
    assert "counts for the standings" in thread.history()[0].content

    # A game played to the end through the bot counts: result line, ratings, standings message.
    await finish_through_the_bot(table, first, fast_until=4)
    counted = [m.content for m in channel.history() if f"game #{first} counted" in m.content]
    assert counted and "rating 1000 →" in counted[0]
    ended = await manager.game(first)
    assert ended.result is not None
    scores = ended.result["scores"]
    winner = next(s.name for s in ended.seats if s.seat in ended.result["winners"])
    text = standings_text(table)
    assert f"**{winner}** · 3 pts · 1 played · 1 won" in text
    assert "1 game counted" in str(standings_messages(table)[-1].embeds[0].fields)

    # A challenge: carol challenges bob, bob accepts, the game starts in its own thread.
    challenged = await carol.slash(channel, "league challenge", opponent1=bob)
    assert challenged.ephemeral
    invite = next(m for m in reversed(channel.history()) if "challenges" in m.content)
    stranger = await dave.click(invite, custom_id=invite.components[0].children[0].custom_id)  # type: ignore[union-attr]
    assert any("only for" in t for t in said(stranger))
    await bob.click(invite, custom_id=invite.components[0].children[0].custom_id)  # type: ignore[union-attr]
    invite = next(m for m in channel.history() if m.id == invite.id)
    assert "Challenge accepted by everyone" in invite.content and not invite.components
    second = game_number(invite.content)
    await finish_through_the_bot(table, second, fast_until=2)
    assert any(f"game #{second} counted" in m.content for m in channel.history())

    # Ratings and profile.
    board = await alice.slash(channel, "league leaderboard")
    embed = step_of(board).embeds[0]
    assert embed.title == "Spring · ratings"
    assert all(name in (embed.description or "") for name in ("alice", "bob", "carol"))
    shown = await alice.slash(channel, "league profile", player=bob)
    card = step_of(shown).embeds[0]
    fields = {f.name: f.value for f in card.fields}
    assert card.title == "bob · Spring"
    assert fields["Games · wins"].startswith("2 · ")
    assert "#" in fields["Rating"] and fields["Favourite features"] != "none yet"
    assert fields["Rating history"].count("→") == 2

    # Annulling is for admins, with a reason; it is logged and the standings follow.
    refused = await bob.slash(channel, "league annul", game=first, reason="I lost")
    assert any("manage the server" in t for t in said(refused))
    annulled = await zoe.slash(channel, "league annul", game=first, reason="wrong farmer rule")
    assert any("Reason: wrong farmer rule" in t for t in said(annulled))
    assert "1 game counted" in str(standings_messages(table)[-1].embeds[0].fields)
    assert scores  # the annulled game is still a finished game, only its result is out
    log = await zoe.slash(channel, "league log")
    entries = log.response.embeds[0].description if log.response else ""
    assert "annulled a result #" in (entries or "") and "wrong farmer rule" in (entries or "")

    # Closing the season: refused to a player, then final standings; the league is closed.
    refused = await carol.slash(channel, "league close", reason="bored")
    assert any("organiser" in t for t in said(refused))
    assert refused.ephemeral, "a permission refusal is private"
    closed = await zoe.slash(channel, "league close", reason="end of spring")
    final = step_of(closed)
    assert "Season 1 of **Spring** closed" in final.content
    assert "final standings" in (final.embeds[0].title or "")
    assert "final standings" in standings_text(table)
    late = await dave.slash(channel, "league join")
    assert any("is closed" in t for t in said(late))


async def test_a_french_server_gets_leagues_in_french(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env, players=2)
    alice = table.players[0]
    zoe = admin_of(table, simcord_env)
    await zoe.slash(table.channel, "carcassonne settings", language="fr")
    refused = await alice.slash(table.channel, "league create", name="Hiver")
    assert any("gérer le serveur" in t for t in said(refused))
    created = await zoe.slash(table.channel, "league create", name="Hiver", pace="post")
    assert any("Ligue **Hiver** créée" in t for t in said(created))
    standings = [
        m for m in table.channel.history() if m.embeds and "Hiver" in (m.embeds[0].title or "")
    ]
    assert standings and "classement de la saison 1" in (standings[-1].embeds[0].title or "")
    assert "par messages, 24 h par tour" in str(standings[-1].embeds[0].fields)
    nobody = await alice.slash(table.channel, "league schedule")
    assert any("organisateur" in t for t in said(nobody))


def test_every_league_command_name_and_description_has_a_french_version() -> None:
    group = LeagueGroup()
    missing = []
    strings: list[str] = [group._locale_name.message, group._locale_description.message]  # type: ignore[union-attr]
    for command in group.commands:
        assert isinstance(command, discord.app_commands.Command)
        strings += [command._locale_name.message, command._locale_description.message]  # type: ignore[union-attr]
        for param in command.parameters:
            if param.locale_name is not None:
                strings.append(param.locale_name.message)
            described = param.locale_description
            if described is not None and param.description != "…":
                strings.append(described.message)
            for choice in param.choices:
                strings.append(choice._locale_name.message)  # type: ignore[union-attr]
    for text in strings:
        if not catalogs.has_in("command", text, "fr"):
            missing.append(text)
    assert not missing, missing


async def test_a_league_with_computer_players(simcord_env: simcord.Env) -> None:
    """A league that allows computers: its rules say so, a challenge seats one, the people's
    result counts and the computer has no rating."""
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    zoe = admin_of(table, simcord_env)
    channel, manager = table.channel, table.bot.manager
    await zoe.slash(
        channel, "league create", name="Robots", min_players=3, max_players=3, computers="easy"
    )
    rules = {f.name: f.value for f in standings_messages(table)[-1].embeds[0].fields}
    assert "computers: Easy" in str(rules), rules
    for player in (alice, bob):
        await player.slash(channel, "league join")
    refused = await alice.slash(channel, "league challenge", opponent1=bob, computers=2)
    assert any("3" in t and "4" in t for t in said(refused)), said(refused)
    challenged = await alice.slash(channel, "league challenge", opponent1=bob, computers=1)
    assert challenged.ephemeral
    invite = next(m for m in reversed(channel.history()) if "challenges" in m.content)
    assert "**Bot 1 (Easy)**" in invite.content and "<@-" not in invite.content
    await bob.click(invite, custom_id=invite.components[0].children[0].custom_id)  # type: ignore[union-attr]
    invite = next(m for m in channel.history() if m.id == invite.id)
    game_id = game_number(invite.content)
    welcome = table.channel.threads[-1].history()[0].content
    assert "**Bot 1 (Easy)**" in welcome and "<@-" not in welcome, welcome
    row = await manager.game(game_id)
    assert [s.name for s in row.seats if s.computer] == ["Bot 1 (Easy)"]
    assert table.bot.computer_turns is not None
    rng = random.Random(5)
    for _ in range(400):
        await table.bot.computer_turns.idle()
        view = await manager.decision(game_id)
        if view.finished:
            break
        assert view.user_id is not None and view.user_id > 0, "computers play on their own"
        await play_random(manager, view, rng)
        # A person's move through the bot's buttons wakes the computers (post.announce).
        table.bot.computer_turns.kick(await manager.game(game_id))
    assert (await manager.decision(game_id)).finished
    (league,) = await manager.leagues.guild_leagues(table.guild.id)
    ratings, _ = await manager.leagues.league_ratings(league.id)
    assert set(ratings.current) == {alice.id, bob.id}
    text = standings_text(table)
    assert "alice" in text and "bob" in text and "Computer" not in text, text


#: A reason or a name as a mischievous member types it: NUL, a right-to-left override, a
#: zero-width space, markdown (bold, spoiler, code, masked link, heading), mentions.
NASTY = "a\x00b\u202ec\u200b **bold** ||hidden|| `code` <@123> @everyone [x](https://e.xyz) # h"


def harmless(text: str) -> None:
    """``text`` shows no control, direction or zero-width character of its own, no markdown
    of the user's and no mention: the typed words read as typed."""
    for hidden in ("\x00", "\u202e", "c\u200b"):
        assert hidden not in text, (hidden, text)
    for live in ("**bold**", "||hidden||", "`code`", "<@123>", "[x](", "# h"):
        assert live not in text.replace("\\#", ""), (live, text)
    assert "@everyone" not in text and "@\u200beveryone" in text, text
    assert "\\*\\*bold\\*\\*" in text and "\\|\\|hidden\\|\\|" in text, text
    assert "\\`code\\`" in text and "\\[x\\]\\(" in text, text


async def test_reasons_and_names_users_typed_are_shown_harmlessly(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    zoe = admin_of(table, simcord_env)
    channel, manager = table.channel, table.bot.manager
    created = await zoe.slash(channel, "league create", name="**Big** _Cup_ ||x||")
    assert any(
        "League **\\*\\*Big\\*\\* \\_Cup\\_ \\|\\|x\\|\\|** created" in t for t in said(created)
    )
    for player in (alice, bob):
        await player.slash(channel, "league join")
    scheduled = await zoe.slash(channel, "league schedule", player1=alice, player2=bob)
    game = game_number(said(scheduled)[-1])
    await finish_through_the_bot(table, game)
    # A reason is shown as typed, publicly, with nothing hidden, formatted or mentioned.
    annulled = await zoe.slash(channel, "league annul", game=game, reason=NASTY)
    (text,) = said(annulled)
    assert "Reason: ab" in text and "\\_Cup\\_" in text
    harmless(text)
    closed = await zoe.slash(channel, "league close", reason=NASTY)
    text = step_of(closed).content
    assert "closed by" in text and "Reason: ab" in text
    harmless(text)
    log = await zoe.slash(channel, "league log")
    entries = log.response.embeds[0].description if log.response else ""
    assert entries is not None and entries.count("Reason") == 0 and entries.count("ab") == 2
    harmless(entries)
    # A league name typed wrong is quoted harmlessly in the refusal.
    missing = await alice.slash(channel, "league standings", league=NASTY[:50])
    (text,) = said(missing)
    assert missing.ephemeral and "ab" in text
    for hidden in ("\x00", "\u202e", "**bold**", "<@123>"):
        assert hidden not in text, (hidden, text)
    assert manager is table.bot.manager


async def test_refusals_of_typed_values_in_close_and_stats_are_private(
    simcord_env: simcord.Env,
) -> None:
    """Both commands answer in public: what was typed is checked before that answer starts,
    so a refusal is shown to the one who typed it only (found by the Unicode fuzz)."""
    table = Table(simcord_env, players=2)
    zoe = admin_of(table, simcord_env)
    channel = table.channel
    await zoe.slash(channel, "league create", name="Spring")
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("league stats", {"season": 60}, "This league has no season 60."),
        ("league close", {"reason": "\u200b\u202e"}, "reason"),
        ("league close", {"reason": "end", "next_season_ends": "2030-1-1"}, "is not a date"),
    ]
    for command, options, expected in cases:
        refused = await zoe.slash(channel, command, **options)
        assert refused.ephemeral and any(expected in t for t in said(refused)), said(refused)
    closed = await zoe.slash(channel, "league close", reason="end of spring")
    assert not closed.ephemeral
    again = await zoe.slash(channel, "league close", reason="again")
    assert again.ephemeral and said(again) == ["Spring is closed: its last season is over."]


async def test_a_league_of_expert_computers_seats_one_that_plays(simcord_env: simcord.Env) -> None:
    """A league's computers may be experts: its rules name the level, a challenge seats one
    and it plays its turns."""
    table = Table(simcord_env, players=2)
    alice, bob = table.players
    zoe = admin_of(table, simcord_env)
    channel, manager = table.channel, table.bot.manager
    await zoe.slash(
        channel, "league create", name="Experts", min_players=3, max_players=3, computers="expert"
    )
    rules = {f.name: f.value for f in standings_messages(table)[-1].embeds[0].fields}
    assert "computers: Expert" in str(rules), rules
    for player in (alice, bob):
        await player.slash(channel, "league join")
    await alice.slash(channel, "league challenge", opponent1=bob, computers=1)
    invite = next(m for m in reversed(channel.history()) if "Bot 1" in m.content)
    assert "**Bot 1 (Expert)**" in invite.content, invite.content
    await bob.click(invite, custom_id=invite.components[0].children[0].custom_id)  # type: ignore[union-attr]
    invite = next(m for m in channel.history() if m.id == invite.id)
    game_id = game_number(invite.content)
    row = await manager.game(game_id)
    assert [(s.name, s.computer) for s in row.seats if s.computer] == [("Bot 1 (Expert)", "expert")]
    assert table.bot.computer_turns is not None
    rng = random.Random(5)
    for _ in range(6):  # the expert's seat comes round at least once
        await table.bot.computer_turns.idle()
        view = await manager.decision(game_id)
        assert view.user_id is not None and view.user_id > 0, "computers play on their own"
        await play_random(manager, view, rng)
        table.bot.computer_turns.kick(await manager.game(game_id))
    await table.bot.computer_turns.idle()
    log = await manager.storage.get_actions(game_id)
    expert = next(s.seat for s in row.seats if s.computer)
    assert any(a.seat == expert for a in log)
