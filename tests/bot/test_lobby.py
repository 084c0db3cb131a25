"""Lobbies: create, join, leave, configure (options, expansions, seat order, colours), start."""

from __future__ import annotations

import pytest
from conftest import ALICE, BOB, CAROL

from bot.errors import (
    AlreadyJoined,
    BadColour,
    BadSeatOrder,
    BadSettings,
    BadSetup,
    ColourTaken,
    LobbyFull,
    ManagerError,
    NotAPlayer,
    NotInLobby,
    NotOwner,
    OwnerCannotLeave,
)
from bot.manager import GameManager


async def test_a_lobby_takes_players_in_joining_order_with_free_colours(
    manager: GameManager,
) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "Alice", guild_id=1, channel_id=7)
    await manager.lobbies.join(row.id, BOB, "Bob")
    row = await manager.lobbies.join(row.id, CAROL, "Carol", colour="yellow")
    assert [(s.seat, s.user_id, s.colour) for s in row.seats] == [
        (0, ALICE, "blue"),
        (1, BOB, "red"),
        (2, CAROL, "yellow"),
    ]
    assert (await manager.game(row.id)).seats == row.seats
    assert row.status == "lobby"


async def test_leaving_renumbers_the_seats(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "Alice")
    await manager.lobbies.join(row.id, BOB, "Bob")
    await manager.lobbies.join(row.id, CAROL, "Carol")
    row = await manager.lobbies.leave(row.id, BOB)
    assert [(s.seat, s.user_id) for s in row.seats] == [(0, ALICE), (1, CAROL)]


@pytest.mark.parametrize(
    ("setup", "error", "words"),
    [
        ({"options": {"farmers": "sometimes"}}, BadSetup, "option farmers must be one of"),
        ({"options": {"speed": "fast"}}, BadSetup, "unknown option 'speed'"),
        ({"expansions": ["dragons"]}, BadSetup, "unknown expansion 'dragons'"),
        ({"game": "chess"}, BadSetup, "unknown game 'chess'"),
        ({"max_players": 9}, BadSetup, "1 to 6 players"),
        ({"turn_seconds": -5}, BadSettings, "positive number of seconds"),
        ({"timeout_policy": "explode"}, BadSettings, "autoplay, skip, forfeit"),
    ],
)
async def test_bad_lobby_settings_are_refused_with_what_is_wrong(
    manager: GameManager, setup: dict[str, object], error: type[ManagerError], words: str
) -> None:
    with pytest.raises(error) as caught:
        await manager.lobbies.create_lobby(ALICE, "Alice", **setup)  # type: ignore[arg-type]
    assert words in str(caught.value)


async def test_lobby_refusals(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "Alice", max_players=2)
    row = await manager.lobbies.join(row.id, BOB, "Bob")
    with pytest.raises(AlreadyJoined):
        await manager.lobbies.join(row.id, BOB, "Bob")
    with pytest.raises(LobbyFull, match="full"):
        await manager.lobbies.join(row.id, CAROL, "Carol")
    with pytest.raises(OwnerCannotLeave):
        await manager.lobbies.leave(row.id, ALICE)
    with pytest.raises(NotAPlayer):
        await manager.lobbies.leave(row.id, CAROL)
    with pytest.raises(NotOwner):
        await manager.lobbies.configure(row.id, BOB, options={"farmers": "modern"})
    with pytest.raises(NotOwner):
        await manager.lobbies.start(row.id, BOB)
    with pytest.raises(BadSeatOrder):
        await manager.lobbies.configure(row.id, ALICE, seat_order=[ALICE, CAROL])
    with pytest.raises(BadColour, match="blue, red"):
        await manager.lobbies.set_colour(row.id, BOB, "mauve")
    with pytest.raises(ColourTaken):
        await manager.lobbies.set_colour(row.id, BOB, "blue")
    with pytest.raises(BadSetup):
        await manager.lobbies.configure(row.id, ALICE, max_players=1)
    assert await manager.game(row.id) == row  # nothing refused was saved


async def test_configure_then_start_uses_the_chosen_setup(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "Alice")
    await manager.lobbies.join(row.id, BOB, "Bob")
    row = await manager.lobbies.configure(
        row.id,
        ALICE,
        options={"farmers": "modern"},
        expansions=["abbey_mayor"],
        seat_order=[BOB, ALICE],
        colours={ALICE: "green", BOB: "blue"},
        turn_seconds=3600,
    )
    assert [(s.user_id, s.colour) for s in row.seats] == [(BOB, "blue"), (ALICE, "green")]
    view = await manager.lobbies.start(row.id, ALICE, seed=42)
    assert view.user_id == BOB and view.phase == "tile" and view.placements
    record = await manager.records.full_record(row.id)
    assert record["players"] == ["Bob", "Alice"]
    assert record["options"]["farmers"] == "modern"
    assert record["expansions"] == ["abbey_mayor"]
    assert record["seed"] == 42
    with pytest.raises(NotInLobby):
        await manager.lobbies.join(row.id, CAROL, "Carol")
    kinds = {d.kind: d.user_id for d in await manager.storage.deadlines(row.id)}
    assert kinds == {"turn": BOB, "reminder": BOB}


async def test_changing_the_game_kind_resets_its_options(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "Alice", options={"farmers": "modern"})
    row = await manager.lobbies.configure(row.id, ALICE, game="carcassonne", options={"hand": True})
    assert row.options == {"farmers": "modern", "hand": True}


async def test_same_display_names_get_distinct_record_names(manager: GameManager) -> None:
    row = await manager.lobbies.create_lobby(ALICE, "Sam")
    await manager.lobbies.join(row.id, BOB, "Sam")
    await manager.lobbies.start(row.id, ALICE, seed=3)
    assert (await manager.records.full_record(row.id))["players"] == ["Sam", "Sam (2)"]


async def test_guild_settings_are_the_defaults_of_new_lobbies(manager: GameManager) -> None:
    await manager.records.update_guild_settings(
        5, locale="fr", options={"small_city": "modern"}, turn_seconds=86400
    )
    row = await manager.lobbies.create_lobby(ALICE, "Alice", guild_id=5)
    assert row.options == {"small_city": "modern"}
    assert row.turn_seconds == 86400 and row.locale == "fr"
    with pytest.raises(BadSettings, match="language"):
        await manager.records.update_guild_settings(5, locale="pt")
    with pytest.raises(BadSetup):
        await manager.records.update_guild_settings(5, options={"farmers": 3})
    assert (await manager.records.guild_settings(5)).locale == "fr"


async def test_user_settings_round_trip(manager: GameManager) -> None:
    await manager.records.update_user_settings(ALICE, dm_reminders=True, away_until=1000.0)
    settings = await manager.records.user_settings(ALICE)
    assert settings.dm_reminders and settings.away_until == 1000.0
    with pytest.raises(BadSettings):
        await manager.records.update_user_settings(ALICE, colour="red")
