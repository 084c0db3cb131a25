"""The expert level: its search over the next player's draws and replies, its fixed budget, its
wall-time guard, and decisions that depend on nothing hidden, in every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_helpers import play_level_against_random, to_a_tile

from ai import expert as expert_module
from ai import make_player
from ai.evaluate import WinChance, margin
from ai.expert import ExpertPlayer, win_probability
from ai.observation import determinize, observe
from ai.players import hard_heuristic, next_draws, options, whole_turns
from engine import Game, Setup


def expert(budget: int | None = None, seed: int = 3, **kw: Any) -> ExpertPlayer:
    return ExpertPlayer(
        "expert", hard_heuristic().values, 1, seed, WinChance(), budget=budget, **kw
    )


def mid_game(players: int = 2, seed: int = 21, hand: bool = False) -> Game:
    names = tuple("ABCD"[:players])
    setup = Setup(players=names, seed=seed, options={"farmers": "classic", "hand": hand})
    return to_a_tile(Game(setup), moves=30, seed=seed)


def test_the_expert_values_each_searched_turn_after_every_tile_the_next_player_may_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each candidate turn meets each tile the next player may draw, and that player's reply is
    # chosen among its replies to that very tile.
    game = mid_game()
    seat = game.actor
    draws = next_draws(observe(game, seat))
    assert len(draws) > 5
    answered: list[tuple[int, str | None]] = []
    real = ExpertPlayer._answer

    def counted(self: ExpertPlayer, world: Game) -> Any:
        answered.append((world.actor, world.tile))
        return real(self, world)

    monkeypatch.setattr(ExpertPlayer, "_answer", counted)
    player = expert()
    action = player.choose(game, seat)
    assert action in options(observe(game, seat))
    searched = player.stats.candidates
    assert searched >= expert_module.FEWEST
    assert {who for who, _ in answered} == {1 - seat}
    for name in draws:  # drawn as the next tile in one deal per candidate (none unplaceable here)
        assert sum(tile == name for _, tile in answered) == searched


def test_the_expert_searches_within_its_budget_and_decides_the_same_on_any_machine() -> None:
    game = mid_game()
    seat = game.actor
    small, large = expert(budget=6000), expert(budget=40_000)
    first = small.choose(game, seat)
    large.choose(game, seat)
    assert expert_module.FEWEST <= small.stats.candidates < large.stats.candidates
    # It widens while the positions spent and the costliest candidate yet fit in the budget.
    each = small.stats.positions / small.stats.candidates
    assert small.stats.positions - each <= 6000 < small.stats.positions + each
    again = expert(budget=6000)
    assert again.choose(game, seat) == first and vars(again.stats) == vars(small.stats)


def test_the_wall_time_guard_stops_widening_but_never_below_two_candidates() -> None:
    game = mid_game()
    seat = game.actor
    hurried = expert(budget=40_000, guard_seconds=0.0)
    action = hurried.choose(game, seat)
    assert action in options(observe(game, seat))
    assert hurried.stats.candidates == expert_module.FEWEST and hurried.stats.guarded == 1


@pytest.mark.parametrize("hand", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_an_expert_decision_does_not_change_when_the_hidden_tiles_are_reshuffled(
    hand: bool, players: int
) -> None:
    game = mid_game(players, seed=8, hand=hand)
    seat = game.actor
    decision = expert(budget=2000).choose(game, seat)
    obs = observe(game, seat)
    for seed in range(3):
        other = game.fork()
        world = determinize(obs, seat, random.Random(seed))
        other.stack, other.hands = world.stack, [list(h) for h in world.hands]
        other.hands[seat] = list(game.hands[seat])
        assert other.stack != game.stack or other.hands != game.hands
        assert expert(budget=2000).choose(other, seat) == decision


SETUPS = [
    ("carcassonne", ("abbey_mayor", "inns_cathedrals", "traders_builders", "river"), {}, 2),
    ("carcassonne", ("abbey_mayor",), {"hand": True, "farmers": "classic"}, 3),
    ("hunters", (), {}, 2),
    ("castle", (), {}, 2),
]


@pytest.mark.parametrize(("name", "expansions", "rules", "players"), SETUPS)
def test_the_expert_plays_only_legal_moves_to_the_end(
    name: str,
    expansions: tuple[str, ...],
    rules: dict[str, Any],
    players: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One candidate, one checked reply, three of the tiles the next player may draw, to keep it
    # quick: the rules are what is tested.
    monkeypatch.setattr(expert_module, "WIDEST", 1)
    monkeypatch.setattr(expert_module, "REPLY_CHECKED", 1)
    monkeypatch.setattr(
        expert_module, "next_draws", lambda obs: dict(list(next_draws(obs).items())[:3])
    )
    names = tuple(f"P{i}" for i in range(players))
    game = Game(Setup(players=names, seed=5, game=name, expansions=expansions, options=rules))
    play_level_against_random(game, "expert", seed=5)


def test_the_chance_to_win_is_the_win_chances_probability_and_certain_at_the_end() -> None:
    values = [30.0, 22.0, 27.0]
    chance = win_probability(values, 0, 20)
    assert chance == pytest.approx(2.718281828 ** WinChance()(values, 0, 20), rel=1e-6)
    assert 0 < win_probability(values, 1, 20) < chance < 1
    assert win_probability([10.0, 8.0], 0, 0) == 1.0
    assert win_probability([8.0, 10.0], 0, 0) == 0.0
    assert win_probability([9.0, 9.0], 0, 0) == 0.5
    two = [win_probability([m, 0.0], 0, 30) for m in (-10.0, 0.0, 10.0)]
    assert two == sorted(two) and two[1] == 0.5
    assert margin([12.0, 2.0], 0) == 10.0


def test_the_expert_is_a_level_of_the_bot_and_a_searcher_of_the_hard_levels_valuation() -> None:
    player = make_player("expert", seed=1)
    assert isinstance(player, ExpertPlayer) and player.name == "expert"
    game = mid_game()
    ranked = whole_turns(observe(game, game.actor), game.actor, player.values, player.objective)
    assert len(ranked) > expert_module.FEWEST


def test_an_appraisal_values_the_turn_played_beside_the_best_in_points() -> None:
    # For a review: the searched turns and the one played, in points of expected final margin,
    # best first; the worst turn by one ply is valued too though the search would not look at it.
    game = mid_game()
    seat = game.actor
    obs = observe(game, seat)
    player = expert(budget=6000)
    ranked = sorted(whole_turns(obs, seat, player.values, player.objective), key=lambda t: -t[0])
    worst = ranked[-1][1]
    appraised = player.appraise(game, seat, worst)
    values = [value for value, _ in appraised]
    assert values == sorted(values, reverse=True)
    assert worst in [actions for _, actions in appraised]
    assert appraised[0][0] - dict((a, v) for v, a in appraised)[worst] > 1.0
    assert all(-200 < value < 200 for value in values)  # points, not chances
    assert expert(budget=6000).appraise(game, seat, worst) == appraised


def test_a_costly_setup_searches_a_sample_of_the_draws_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Big Box position costs about 8 base ones: the expert searches a smaller budget, and when
    # its fewest candidates over every draw would not fit, a sample of the draws (each drawn as
    # often as its unseen tiles make it likely), the same sample for every candidate.
    big = ("abbey_mayor", "inns_cathedrals", "traders_builders", "river")
    rules = {"farmers": "classic"}
    setup = Setup(players=("A", "B", "C", "D"), seed=4, expansions=big, options=rules)
    game = to_a_tile(Game(setup), moves=60, seed=4)
    seat = game.actor
    assert expert_module.budget_of(game) == expert_module.COSTLY_BUDGET
    assert expert_module.budget_of(mid_game()) == expert_module.BUDGETS["carcassonne"]
    draws = next_draws(observe(game, seat))
    valued: list[list[tuple[Game, float]]] = []
    real = ExpertPlayer._values

    def counted(self: ExpertPlayer, obs: Game, seat: int, turn: Any, worlds: Any, *a: Any) -> Any:
        valued.append(list(worlds))
        return real(self, obs, seat, turn, worlds, *a)

    monkeypatch.setattr(ExpertPlayer, "_values", counted)
    player = expert()
    decision = player.choose(game, seat)
    assert decision in options(observe(game, seat))
    stats = player.stats
    assert stats.sampled == 1 and stats.candidates >= expert_module.FEWEST
    assert stats.positions <= 1.2 * expert_module.COSTLY_BUDGET
    # The first candidate's first deals are valued one by one till the cost is clear; then every
    # candidate is valued over the same sample of the draws: fewer than there are, weighed by
    # how often each was drawn.
    probe = [deals for deals in valued if len(deals) == 1]
    sample = valued[len(probe)]
    assert valued[len(probe) :] == [sample] * stats.candidates
    assert sum(w for _, w in sample) >= expert_module.SAMPLED and len(sample) < len(draws)
    assert {deal.stack[-1] for deal, _ in sample} <= set(draws)
    monkeypatch.undo()
    again = expert()
    assert again.choose(game, seat) == decision and vars(again.stats) == vars(stats)
    other = game.fork()
    other.stack = determinize(observe(game, seat), seat, random.Random(1)).stack
    assert other.stack != game.stack and expert().choose(other, seat) == decision
