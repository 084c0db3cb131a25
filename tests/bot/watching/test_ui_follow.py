"""Following games through Discord: a public game's thread at once, a private game's players
deciding with buttons, followers refused on turn controls, counts in ``games``; and the
heads-up DM that tells a player they are next."""

from __future__ import annotations

from typing import Any

import simcord
from conftest_ui import Table, custom_ids, put_options, said, simcord_bot

__all__ = ["simcord_bot"]


def members(env: simcord.Env, thread_id: int) -> set[int]:
    return set(env.backend.channels[thread_id].thread_members)


def dms(member: Any) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


async def test_following_a_public_game_joins_its_thread_and_never_plays(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    zoe = table.guild.add_member(simcord_env.create_user("zoe"))
    game_id = await table.new()
    thread = table.thread()
    done = await zoe.slash(table.channel, "carcassonne follow", game=game_id)
    assert any(f"You follow game #{game_id}: <#{thread.id}>" in t for t in said(done)), said(done)
    assert zoe.id in members(simcord_env, thread.id)
    again = await zoe.slash(table.channel, "carcassonne follow", game=game_id)
    assert any("You already follow" in t for t in said(again))
    listed = await zoe.slash(table.channel, "carcassonne games", which="channel")
    assert any(f"#{game_id} · " in t and "👁 1 spectator" in t for t in said(listed))
    player = await table.players[0].slash(thread, "carcassonne follow")
    assert any("You play in game" in t for t in said(player)), said(player)
    # The turn's menu and buttons refuse a follower, as they refuse anyone not in turn.
    turn = table.last()
    menu, option = put_options(turn)[0]
    refused = await zoe.select(turn, [option["value"]], custom_id=menu)
    assert any("only they can use these buttons" in t for t in said(refused)), said(refused)
    assert refused.ephemeral
    assert (await table.bot.manager.decision(game_id)).turn == 0
    gone = await zoe.slash(thread, "carcassonne unfollow")
    assert any(f"You no longer follow game #{game_id}" in t for t in said(gone)), said(gone)
    assert zoe.id not in members(simcord_env, thread.id)
    assert await table.bot.manager.watch.followers(game_id) == []
    twice = await zoe.slash(table.channel, "carcassonne unfollow", game=game_id)
    assert any("You do not follow" in t for t in said(twice))


async def test_a_private_game_lets_a_follower_in_when_a_player_accepts(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, _carol = table.players
    zoe = table.guild.add_member(simcord_env.create_user("zoe"))
    game_id = await table.new(private=True)
    thread = table.thread()
    asked = await zoe.slash(table.channel, "carcassonne follow", game=game_id)
    assert any("is private: I asked its players" in t for t in said(asked)), said(asked)
    assert zoe.id not in members(simcord_env, thread.id)
    request = table.last()
    assert f"<@{zoe.id}> asks to follow this game" in request.content
    yes, no = custom_ids(request, "cc:follow:")
    await bob.click(request, custom_id=no)
    assert dms(zoe)[-1] == f"👁 bob refused your request to follow game #{game_id}."
    request = next(m for m in thread.history() if m.id == request.id)
    assert f"Refused by <@{bob.id}>." in request.content and custom_ids(request, "cc:follow:")
    await alice.click(request, custom_id=yes)
    assert zoe.id in members(simcord_env, thread.id)
    assert dms(zoe)[-1].startswith(f"👁 alice let you follow game #{game_id}: https://")
    request = next(m for m in thread.history() if m.id == request.id)
    assert request.content == f"👁 alice let <@{zoe.id}> follow this game."
    assert not request.components
    assert await table.bot.manager.watch.followers(game_id) == [zoe.id]
    gone = await zoe.slash(thread, "carcassonne unfollow")
    assert any("no longer follow" in t for t in said(gone))
    assert zoe.id not in members(simcord_env, thread.id)


async def test_a_private_game_every_player_refused_tells_the_asker(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    zoe = table.guild.add_member(simcord_env.create_user("zoe"))
    game_id = await table.new(private=True)
    thread = table.thread()
    await zoe.slash(table.channel, "carcassonne follow", game=game_id)
    waiting = await zoe.slash(table.channel, "carcassonne follow", game=game_id)
    assert any("waits for its players" in t for t in said(waiting)), said(waiting)
    request = table.last()
    _yes, no = custom_ids(request, "cc:follow:")
    await alice.click(request, custom_id=no)
    await bob.click(request, custom_id=no)
    told = dms(zoe)
    assert told[-2] == f"👁 alice refused your request to follow game #{game_id}."
    assert told[-1].startswith("👁 bob refused") and "the request is closed" in told[-1]
    request = next(m for m in thread.history() if m.id == request.id)
    assert "Every player refused" in request.content and not request.components
    assert zoe.id not in members(simcord_env, thread.id)
    assert await table.bot.manager.watch.follow_row(game_id, zoe.id) is None


async def play(table: Table, game_id: int) -> None:
    manager = table.bot.manager
    view = await manager.decision(game_id)
    thread = next(t for t in table.channel.threads if t.id == view.game.thread_id)
    player = table.actor(view.user_id)
    offered = await player.autocomplete(thread, "carcassonne place", "rotation", "", cell="A")
    await player.slash(thread, "carcassonne place", cell="A", rotation=offered[0]["value"])


async def test_a_heads_up_dm_tells_the_next_player_only_and_closed_dms_do_not_crash(
    simcord_env: simcord.Env,
) -> None:
    table = Table(simcord_env, players=3)
    alice, bob, carol = table.players
    on = await bob.slash(table.channel, "carcassonne reminders", heads_up=True)
    assert any("Heads-up DMs are on" in t for t in said(on)), said(on)
    await carol.slash(table.channel, "carcassonne reminders", heads_up=True)
    shown = await bob.slash(table.channel, "carcassonne reminders")
    assert any("DM reminders are off" in t and "Heads-up DMs are on" in t for t in said(shown))
    # carol closes her DMs after opting in.
    simcord_env.inject_error(
        "POST", f"/channels/{carol.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    game_id = await table.new()  # alice starts: bob is next
    assert dms(bob)[-1].startswith(f"⏳ You are next in game #{game_id}: alice is playing now.")
    await play(table, game_id)  # bob starts: carol is next, her DMs are closed
    await play(table, game_id)  # carol starts: alice is next, she never opted in
    await play(table, game_id)  # alice starts again: bob is next
    assert len([t for t in dms(bob) if t.startswith("⏳")]) == 2
    assert not dms(alice)
    assert (await table.bot.manager.decision(game_id)).turn == 3
    assert not simcord_env.errors
    off = await bob.slash(table.channel, "carcassonne reminders", heads_up=False)
    assert any("Heads-up DMs are off" in t for t in said(off))
    await play(table, game_id)
    await play(table, game_id)
    await play(table, game_id)  # alice starts: bob no longer wants to know
    assert len([t for t in dms(bob) if t.startswith("⏳")]) == 2


async def test_no_heads_up_between_two_players(simcord_env: simcord.Env) -> None:
    table = Table(simcord_env)
    alice, bob = table.players
    for player in (alice, bob):
        await player.slash(table.channel, "carcassonne reminders", heads_up=True)
    game_id = await table.new()
    await play(table, game_id)
    await play(table, game_id)
    assert not [t for p in (alice, bob) for t in dms(p) if t.startswith("⏳")]
