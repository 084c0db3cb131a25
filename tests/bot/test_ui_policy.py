"""Every row of the authorisation policy, tried through Discord with every role: the player in
turn, a player, the creator, an admitted follower, a member, an admin, a league's or a
tournament's organiser, and a member and an admin of another server; games and lobbies both
public and private.

A caller the row allows is let through (the policy says so for that row); anyone else is
refused privately with the row's words (another server's people as if the number did not
exist, others in a private game told only that it is private), and nothing changes."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import simcord
from conftest_ui import simcord_bot
from policy_scenes import (
    ROWS,
    Scene,
    decisions_of,
    expected_allowed,
    persona_roles_for,
    texts_of,
)

from bot import policy

__all__ = ["simcord_bot"]

CASES = [
    pytest.param(row, private, id=f"{row}{' (private)' if private else ''}")
    for row, (subject, _uses) in ROWS.items()
    for private in ((False, True) if subject in ("game", "lobby") else (False,))
]


def test_every_row_has_its_uses() -> None:
    assert set(ROWS) == set(policy.POLICY)


@pytest.mark.parametrize(("row", "private"), CASES)
async def test_a_row_with_every_role(
    simcord_env: simcord.Env, caplog: Any, row: str, private: bool
) -> None:
    subject, uses = ROWS[row]
    scene = Scene(simcord_env)
    if subject == "game":
        await scene.game(private=private)
    elif subject == "lobby":
        await scene.lobby(private=private)
    elif subject == "league":
        await scene.league()
    elif subject in ("tournament", "tournament game"):
        await scene.tournament(started=subject == "tournament game")
    personas = persona_roles_for(row, subject)
    # The refused first: an allowed act may change the game (a resignation, a start).
    order = sorted(personas.items(), key=lambda kv: expected_allowed(row, kv[1][1], private))
    for use in uses:
        for persona, (name, roles) in order:
            person = scene.people[name]
            expected = expected_allowed(row, roles, private)
            before = None if expected else await scene.fingerprint()
            caplog.clear()
            with caplog.at_level(logging.DEBUG, logger="bot.ui.access"):
                result = await use(scene, person, scene.where(name))
            decided = decisions_of(caplog.records, row)
            texts = texts_of(result)
            where = f"{row} by {persona} ({name})"
            if expected:
                assert decided, f"{where}: the policy was not asked"
                assert all(d.allowed for d in decided), (where, decided, texts)
                continue
            outsider = policy.Role.OUTSIDER in roles
            if outsider and subject == "league" and not decided:
                # League names are looked up in the caller's own server only.
                assert any("There is no league called" in t for t in texts), (where, texts)
            elif outsider and subject == "tournament" and not decided:
                # So are tournament names.
                assert any("There is no tournament called" in t for t in texts), (where, texts)
            else:
                assert decided, f"{where}: the policy was not asked ({texts})"
                assert not decided[-1].allowed, (where, texts)
            if isinstance(result, list):  # an autocomplete offers nothing of the game
                if row == "autocomplete place cell":
                    assert result == [], (where, result)
            else:
                assert result.ephemeral, (where, texts)
                if outsider and subject in ("game", "lobby"):
                    assert any("There is no game #" in t and " here" in t for t in texts), (
                        where,
                        texts,
                    )
                elif private and policy.Role.PLAYER not in roles and subject == "game":
                    assert any("is private" in t for t in texts), (where, texts)
            assert await scene.fingerprint() == before, f"{where}: a refusal changed something"
