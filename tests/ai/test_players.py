"""Computer players: the greedy baseline pinned on hand-made positions, decisions that depend on
nothing hidden, and every level playing only legal moves in every game."""

from __future__ import annotations

import json
import math
import os
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ai_helpers import play_level_against_random, to_a_tile
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import arena as arena_module
from ai import make_player
from ai import players as players_module
from ai.arena import Match, play_one, run, wilson
from ai.evaluate import (
    Heuristic,
    WinChance,
    log_normal_cdf,
    margin,
    spent_end_values,
    tiles_left,
)
from ai.observation import determinize, observe, unseen
from ai.players import EndgamePlayer, OnePlyPlayer, hard_heuristic, lead, next_draws, one_ply
from engine import Game, Phase, PlaceAbbey, PlaceFigure, PlaceTile, Setup
from engine.carcassonne.river import River
from engine.cli import random_action

EXAMPLES = int(os.environ.get("CARCASSONNE_AI_EXAMPLES", "8"))


def forced(*draw: str) -> Game:
    return Game(Setup(players=("A", "B"), seed=1, draw=draw))


def test_greedy_takes_the_farmer_worth_3_over_the_knight_worth_2() -> None:
    # Start tile D (city north); E (one city edge) closes that city from above. A knight there
    # scores 2 now (a small city, classic); a farmer in E's field touches that completed city
    # and is worth 3 at the end: greedy values both as the end scoring would, and takes 3.
    game = forced("D", "E", "U", "B")
    greedy = make_player("greedy", seed=0)
    placement = greedy.choose(game, 0)
    assert placement == PlaceTile(0, -1, 180)
    game.play(placement)
    assert greedy.choose(game, 0) == PlaceFigure("follower", 0, -1, 0)


def test_greedy_breaks_a_tie_by_its_seed() -> None:
    # A straight road continues the start's road east or west for the same 2 points.
    choices = {make_player("greedy", seed=s).choose(forced("D", "U", "E"), 0) for s in range(8)}
    assert choices == {PlaceTile(1, 0, 0), PlaceTile(-1, 0, 0)}


def test_greedy_puts_a_monk_on_a_cloister_next_to_the_start() -> None:
    game = forced("D", "B", "B", "B")
    greedy = make_player("greedy", seed=0)
    placement = greedy.choose(game, 0)
    assert isinstance(placement, PlaceTile)
    game.play(placement)
    assert greedy.choose(game, 0) == PlaceFigure("follower", placement.x, placement.y, "C")


def shuffled_copy(game: Game, seat: int, seed: int) -> Game:
    """The same game with what ``seat`` cannot see dealt otherwise."""
    other = game.fork()
    pool = unseen(other, seat)
    random.Random(seed).shuffle(pool)
    if other.hand_mode:
        for player, hand in enumerate(other.hands):
            if player != seat:
                other.hands[player] = [pool.pop() for _ in hand]
    other.stack = pool
    return other


@pytest.mark.parametrize("level", ["greedy", "easy", "medium", "hard"])
@pytest.mark.parametrize("hand", [False, True])
@pytest.mark.parametrize("players", [3, 4])
def test_a_decision_does_not_change_when_the_hidden_tiles_are_reshuffled(
    level: str, hand: bool, players: int
) -> None:
    game = to_a_tile(Game(Setup(players=tuple("ABCD"[:players]), seed=4, options={"hand": hand})))
    seat = game.actor
    player = make_player(level, seed=9)
    decision = player.choose(game, seat)
    for seed in range(3):
        other = shuffled_copy(game, seat, seed)
        assert other.stack != game.stack
        assert player.choose(other, seat) == decision


def near_the_end(players: int, seed: int, hand: bool = False, left: int = 6) -> Game:
    """A game of ``players`` with Abbey & Mayor played at random to a tile decision with at
    most ``left`` tiles to place."""
    names = tuple(f"P{i}" for i in range(players))
    setup = Setup(players=names, seed=seed, expansions=("abbey_mayor",), options={"hand": hand})
    game = Game(setup)
    rng = random.Random(seed)
    while not (game.phase is Phase.TILE and tiles_left(game) <= left):
        game.play(random_action(game, rng))
    return game


@pytest.mark.parametrize("hand", [False, True])
def test_an_endgame_decision_does_not_change_when_the_hidden_tiles_are_reshuffled(
    hand: bool,
) -> None:
    game = near_the_end(3, seed=12, hand=hand)
    seat = game.actor
    player = make_player("hard", seed=9)
    decision = player.choose(game, seat)
    for seed in range(3):
        other = shuffled_copy(game, seat, seed)
        assert other.stack != game.stack or other.hands != game.hands
        assert player.choose(other, seat) == decision


def test_the_hard_level_plays_the_end_out_against_several_opponents_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Deals of the unseen tiles are played out near the end with 3 or 4 players; never earlier,
    # and never with 2 (where hard plays for the margin). The figure step it planned with the
    # tile is the one it then plays.
    deals: list[int] = []

    def counted(obs: Game, seat: int, rng: random.Random) -> Game:
        deals.append(seat)
        return determinize(obs, seat, rng)

    monkeypatch.setattr(players_module, "determinize", counted)
    hard = make_player("hard", seed=3)
    assert isinstance(hard, EndgamePlayer)
    for players, seed in ((3, 21), (4, 22)):
        early = Game(Setup(players=tuple("ABCD"[:players]), seed=seed, expansions=("abbey_mayor",)))
        hard.choose(early, early.actor)
        assert not deals
        game = near_the_end(players, seed)
        seat = game.actor
        tile = hard.choose(game, seat)
        assert len(deals) >= 2  # at least one deal of at least 2 candidate turns
        deals.clear()
        planned = hard.plan
        game.play(tile)
        if game.phase is Phase.FIGURE and game.actor == seat:
            assert planned is not None and hard.choose(game, seat) == planned[1]
        assert not deals
    two = near_the_end(2, seed=23)
    hard.choose(two, two.actor)
    assert not deals


def test_with_four_players_the_hard_level_weighs_its_best_turns_after_the_next_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before the endgame, with 4 players, each of its best turns is valued after the next
    # player's greedy turn with every tile that player may draw. Not with 3 players, nor with
    # the tactical hand (the next player's tiles are then in a hand nobody sees).
    replies: list[tuple[int, str | None]] = []
    real = players_module.whole_turns

    def counted(
        game: Game, seat: int, values: players_module.Values, objective: players_module.Objective
    ) -> list[tuple[float, tuple[Any, ...]]]:
        if values is spent_end_values:
            replies.append((seat, game.tile))
        return real(game, seat, values, objective)

    monkeypatch.setattr(players_module, "whole_turns", counted)
    hard = make_player("hard", seed=5)
    game = Game(Setup(players=("A", "B", "C", "D"), seed=31, expansions=("abbey_mayor",)))
    game = to_a_tile(game, moves=24, seed=31)
    seat = game.actor
    draws = next_draws(observe(game, seat))
    assert sum(draws.values()) == len(game.stack) and len(draws) > 5
    tile = hard.choose(game, seat)
    assert {who for who, _ in replies} == {(seat + 1) % 4}
    assert len(replies) == players_module.REPLY_TURNS * len(draws)
    for name in draws:  # each candidate turn met each tile the next player may draw
        assert sum(drawn == name for _, drawn in replies) == players_module.REPLY_TURNS
    assert tile in players_module.options(observe(game, seat))
    replies.clear()
    for setup in (
        Setup(players=("A", "B", "C"), seed=31, expansions=("abbey_mayor",)),
        Setup(players=("A", "B", "C", "D"), seed=31, options={"hand": True}),
    ):
        other = Game(setup)
        hard.choose(other, other.actor)
    assert not replies


def test_the_hard_level_weighs_the_next_reply_in_hunters_and_gatherers() -> None:
    # With 4 players it looks at the next player's reply there too, where a bonus tile gives
    # its player another turn: every move of the game is legal and the record replays.
    game = Game(Setup(players=("A", "B", "C", "D"), seed=2, game="hunters"))
    play_level_against_random(game, "hard", seed=2)


def test_the_next_player_draws_from_the_river_while_it_lasts() -> None:
    game = Game(Setup(players=("A", "B", "C", "D"), seed=3, expansions=("river",)))
    river = game.plugins[River.name]
    assert isinstance(river, River)
    draws = next_draws(observe(game, game.actor))
    assert draws and set(draws) <= set(river.kinds) - {river.lake}
    plain = Game(Setup(players=("A", "B", "C", "D"), seed=3))
    assert next_draws(observe(plain, 0)) == dict(Counter(plain.stack))


def test_an_observation_holds_no_seed_no_forced_order_and_no_stack_order() -> None:
    game = Game(Setup(players=("A", "B"), seed=77, options={"hand": True}))
    obs = observe(game, 0)
    assert obs.setup.seed == 0 and obs.setup.draw is None
    assert obs.hands[0] == game.hands[0]
    assert sorted(unseen(obs, 0)) == sorted(unseen(game, 0))
    assert obs.stack == sorted(obs.stack, reverse=True)


SETUPS: list[tuple[str, tuple[str, ...], dict[str, Any], int]] = [
    ("carcassonne", (), {"farmers": "classic"}, 2),
    ("carcassonne", (), {"hand": True, "farmers": "modern", "incomplete": "half"}, 3),
    ("carcassonne", ("abbey_mayor",), {}, 4),
    ("carcassonne", ("abbey_mayor",), {"hand": True, "small_city": "modern"}, 6),
    ("hunters", (), {}, 2),
    ("castle", (), {}, 2),
]


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    which=st.integers(0, len(SETUPS) - 1),
    level=st.sampled_from(["greedy", "easy", "medium", "hard"]),
    seed=st.integers(0, 100_000),
)
def test_every_level_plays_only_legal_moves_to_the_end(which: int, level: str, seed: int) -> None:
    game_name, expansions, options, players = SETUPS[which]
    names = tuple(f"P{i}" for i in range(players))
    game = Game(
        Setup(players=names, seed=seed, game=game_name, expansions=expansions, options=options)
    )
    play_level_against_random(game, level, seed)


def test_the_wilson_interval() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)


def test_an_arena_plays_each_deal_from_every_seat() -> None:
    match = Match("greedy", "random", 2)
    first, second = play_one(match, 3, 0), play_one(match, 3, 1)
    assert first.seconds and second.seconds
    result = run(match, games=4, seed=3)
    assert result["games"] == 4
    assert result["win_share"] >= 0.75  # greedy against random
    assert result["wilson_95"][0] <= result["win_share"] <= result["wilson_95"][1]


def test_an_unguarded_match_switches_the_experts_wall_time_guard_off() -> None:
    guarded = arena_module.seated(Match("expert", "hard", 2), 5, 0)
    unguarded = arena_module.seated(Match("expert", "hard", 2, unguarded=True), 5, 0)
    assert math.isfinite(guarded[0].guard_seconds)
    assert unguarded[0].guard_seconds == math.inf
    assert not hasattr(unguarded[1], "guard_seconds")  # hard has no guard to switch off


def test_an_arena_with_a_log_resumes_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each game is logged as it ends; run again, the match plays only the games not logged yet
    # (here the last, whose line was cut short) and sums up the same games. Another match's games
    # in the same file are not counted.
    log = tmp_path / "games.jsonl"
    match = Match("greedy", "random", 2)
    whole = run(match, games=4, seed=3, log=log)
    lines = log.read_text().splitlines()
    assert [(json.loads(x)["deal"], json.loads(x)["seat"]) for x in lines] == [
        (3, 0),
        (3, 1),
        (4, 0),
        (4, 1),
    ]
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # the last line cut short
    played: list[tuple[int, int]] = []

    def counted(match: Match, deal: int, seat: int) -> Any:
        played.append((deal, seat))
        return play_one(match, deal, seat)

    monkeypatch.setattr(arena_module, "play_one", counted)
    again = run(match, games=4, seed=3, log=log)
    assert played == [(4, 1)]
    skip = {
        "seconds_per_decision_median",
        "seconds_per_decision_p95",
        "cpu_per_decision_median",
        "cpu_per_decision_p95",
    }
    assert {k: v for k, v in again.items() if k not in skip} == {
        k: v for k, v in whole.items() if k not in skip
    }
    other = run(Match("easy", "random", 2), games=2, seed=3, log=log)
    assert other["games"] == 2 and played[1:] == [(3, 0), (3, 1)]
    after = log.read_text().splitlines()
    assert len(after) == 7 and after[3] == lines[3][:20]  # the cut line alone, then whole ones
    assert [json.loads(x)["seat"] for x in after[4:]] == [1, 0, 1]


def test_a_long_match_stops_once_its_answer_is_clear() -> None:
    # Greedy against random wins nearly every game: once the 99 % interval lies above a half
    # (at 11 wins of 11 or so), the match stops; asked whether it beats 99.9 %, it cannot tell
    # in 40 games and plays them all.
    match = Match("greedy", "random", 2)
    early = run(match, games=40, seed=3, stop_at=0.5, min_games=4)
    assert early["stopped_early"] is True
    assert 4 <= early["games"] < 40 and early["games"] % 2 == 0
    assert early["wilson_95"][0] > 0.5
    whole = run(match, games=12, seed=3, stop_at=0.999, min_games=4)
    assert whole["stopped_early"] is False and whole["games"] == 12
    assert whole["cpu_per_decision_median"] > 0


def test_the_arena_command_prints_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    from ai.arena import main

    assert main(["arena", "--a", "easy", "--b", "random", "--games", "2", "--seed", "4"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 2 and printed["a"] == "easy"
    assert set(printed) >= {"win_share", "wilson_95", "mean_margin", "margin_stderr"}
    assert printed["seconds_per_decision_median"] > 0


def test_a_decision_collects_less_often_and_puts_the_setting_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    from ai import players

    seen: list[int] = []
    real_one_ply = players.one_ply

    def spying(*args: Any) -> Any:
        seen.append(gc.get_threshold()[0])
        return real_one_ply(*args)

    monkeypatch.setattr(players, "one_ply", spying)
    before = gc.get_threshold()
    game = Game(Setup(players=("A", "B"), seed=3))
    for level in ("greedy", "medium", "hard"):
        make_player(level, seed=1).choose(game, game.actor)
    assert seen and min(seen) >= players.SEARCH_YOUNG_GENERATION
    assert gc.get_threshold() == before

    def failing(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(players, "one_ply", failing)
    with pytest.raises(RuntimeError):
        make_player("hard", seed=1).choose(game, game.actor)
    assert gc.get_threshold() == before


def test_the_hard_level_values_its_last_followers_more_than_its_seventh() -> None:
    # Each further follower in hand is worth less to the hard level; medium counts them alike.
    game = Game(Setup(players=("A", "B"), seed=1, options={"farmers": "classic"}))

    def in_hand(heuristic: Heuristic, followers: int) -> float:
        game.supply[0]["follower"] = followers
        return heuristic.components(game)[0]["supply_follower"]

    hard, medium = hard_heuristic(), Heuristic(fits=False)
    assert in_hand(hard, 1) - in_hand(hard, 0) > in_hand(hard, 7) - in_hand(hard, 6) > 0
    assert in_hand(medium, 1) - in_hand(medium, 0) == pytest.approx(
        in_hand(medium, 7) - in_hand(medium, 6)
    )
    chooser = make_player("hard")
    assert isinstance(chooser, OnePlyPlayer)
    assert getattr(chooser.values, "__self__", None) == hard


def after_greedy_moves(players: int, moves: int, expansions: tuple[str, ...] = ()) -> Game:
    """Seed 1, farmers classic: the game after ``moves`` moves of greedy players."""
    names = ("A", "B", "C", "D")[:players]
    setup = Setup(players=names, seed=1, expansions=expansions, options={"farmers": "classic"})
    game = Game(setup)
    greedy = [make_player("greedy", seed=seat) for seat in range(players)]
    for _ in range(moves):
        game.play(greedy[game.actor].choose(game, game.actor))
    return game


def test_with_four_players_the_hard_level_weighs_farmers_prospects_twice_as_much() -> None:
    # Seed 1, after 15 greedy moves, with 4 players and with 2: the player to move has just
    # placed tile H (a city cap north and one south, a field between) at (-1, 1); its field
    # touches both open cities. With 4 players the hard level puts a farmer there, and would
    # put a knight in a city with the weight of fewer players (and of medium); with 2 it does.
    crowded = after_greedy_moves(4, 15)
    assert crowded.phase is Phase.FIGURE and crowded.last_pos == (-1, 1)
    hard = hard_heuristic()
    assert hard.crowded == {"field_open": players_module.HARD_FIELD_OPEN}
    assert hard.weights["field_open"] < players_module.HARD_FIELD_OPEN
    assert hard.weights["field_open"] == Heuristic().weights["field_open"]
    seat = crowded.actor
    assert make_player("hard", seed=0).choose(crowded, seat) == PlaceFigure("follower", -1, 1, 3)
    uncrowded = EndgamePlayer("hard", replace(hard, crowded={}).values, 1, 0, WinChance())
    assert uncrowded.choose(crowded, seat) == PlaceFigure("follower", -1, 1, 6)
    two = after_greedy_moves(2, 15)
    assert two.phase is Phase.FIGURE and two.last_pos == (-1, 1)
    assert make_player("hard", seed=0).choose(two, two.actor) == PlaceFigure("follower", -1, 1, 0)


def abbey_game() -> Game:
    """Three greedy players, Abbey & Mayor, seed 1: after 37 moves the first player may put
    its abbey into the hole at (1, 1)."""
    return after_greedy_moves(3, 37, ("abbey_mayor",))


def test_an_abbey_in_hand_counts_while_tiles_are_left_and_not_after() -> None:
    game = abbey_game()
    hard = hard_heuristic()
    assert game.actor == 0 and PlaceAbbey(1, 1) in game.legal(PlaceAbbey)
    held = [parts["abbey_held"] for parts in hard.components(game)]
    assert held == [1.0, 1.0, 1.0]
    assert [parts["abbey_monk"] for parts in hard.components(game)] == held
    followers, game.supply[1]["follower"] = game.supply[1]["follower"], 0
    assert followers > 0  # with none left to put on it, the abbey is worth less
    assert [parts["abbey_monk"] for parts in hard.components(game)] == [1.0, 0.0, 1.0]
    game.supply[1]["follower"] = followers
    game.play(PlaceAbbey(1, 1))
    assert [parts["abbey_held"] for parts in hard.components(game)] == [0.0, 1.0, 1.0]
    assert [parts["abbey_monk"] for parts in hard.components(game)] == [0.0, 1.0, 1.0]
    assert Heuristic().weights["abbey_held"] > 0 and Heuristic().weights["abbey_monk"] > 0
    while game.tiles_left or game.phase is Phase.TILE:  # to the end: none counts then
        game.play(make_player("greedy", seed=game.turn).choose(game, game.actor))
    ends = hard.components(game)
    assert all(parts["abbey_held"] == parts["abbey_monk"] == 0.0 for parts in ends)


def test_the_hard_level_keeps_its_abbey_where_greedy_spends_it_for_little() -> None:
    # The hole at (1, 1) is worth more to greedy than the drawn tile now; the hard level counts
    # what the abbey would still bring after the last tile, and places the drawn tile instead.
    game = abbey_game()
    assert make_player("greedy", seed=0).choose(game, 0) == PlaceAbbey(1, 1)
    assert isinstance(make_player("hard", seed=0).choose(game, 0), PlaceTile)
    spendthrift = EndgamePlayer(
        "hard",
        Heuristic(
            weights={**hard_heuristic().weights, "abbey_held": 0.0, "abbey_monk": 0.0},
            supply_decay=0.7,
        ).values,
        1,
        0,
        WinChance(),
    )
    assert spendthrift.choose(game, 0) == PlaceAbbey(1, 1)


def test_the_normal_distributions_logarithm_far_in_its_tail() -> None:
    for z in (-7.9, -3.0, -0.5, 0.0, 1.5):
        assert log_normal_cdf(z) == pytest.approx(math.log(0.5 * math.erfc(-z / math.sqrt(2))))
    # Past where the exact form is used: close to it, rising, and finite where erfc underflows.
    exact = math.log(0.5 * math.erfc(12 / math.sqrt(2)))
    assert log_normal_cdf(-12.0) == pytest.approx(exact, rel=1e-6)
    zs = [-300.0, -40.0, -8.01, -8.0, -7.99, -2.0]
    logs = [log_normal_cdf(z) for z in zs]
    assert logs == sorted(logs) and len(set(logs)) == len(logs)
    assert math.isfinite(log_normal_cdf(-300.0))


def test_the_win_chance_counts_every_opponent_and_is_the_margin_against_one() -> None:
    chance = WinChance()
    # Against one opponent: the margin itself.
    assert chance([30.0, 22.0], 0, 40) == margin([30.0, 22.0], 0) == 8.0
    # Against three: leading all by 5 is worth less than leading one by 4 with two far behind
    # (the margin against the best other says the opposite).
    close, apart = [30.0, 25.0, 25.0, 25.0], [30.0, 26.0, 0.0, 0.0]
    assert margin(close, 0) > margin(apart, 0)
    assert chance(close, 0, 40) < chance(apart, 0, 40)
    # Each opponent counts: the same lead over the best, a weaker third is better.
    assert chance([30.0, 25.0, 10.0], 0, 40) > chance([30.0, 25.0, 24.0], 0, 40)
    # The same lead is surer with fewer tiles to come; a deficit is surer too.
    assert chance([30.0, 25.0, 25.0], 0, 10) > chance([30.0, 25.0, 25.0], 0, 60)
    assert chance([20.0, 25.0, 25.0], 0, 10) < chance([20.0, 25.0, 25.0], 0, 60)
    # Far behind, moves still rank: 1 point closer is better even 200 points down.
    assert chance([0.0, 200.0, 200.0], 0, 1) < chance([1.0, 200.0, 200.0], 0, 1)


def test_the_hard_level_plays_for_the_win_against_several_and_for_the_margin_against_one() -> None:
    chooser = make_player("hard")
    assert isinstance(chooser, OnePlyPlayer) and isinstance(chooser.objective, WinChance)
    game = Game(Setup(players=("A", "B"), seed=3, options={"farmers": "classic"}))
    values = hard_heuristic().values
    by_lead = one_ply(game, 0, values, lead)
    by_chance = one_ply(game, 0, values, chooser.objective)
    assert [s.value for s in by_chance] == [s.value for s in by_lead]


@pytest.mark.parametrize("costly", [True, False])
def test_the_hard_reply_samples_the_draws_only_in_a_costly_setup(
    costly: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With Inns & Cathedrals or Traders & Builders a mean over every draw cost the hard level up
    # to 30 s a decision at 4 players: it values each turn over REPLY_DRAWS sampled draws
    # there, the same for every turn compared and for any order of the hidden tiles.
    expansions = ("abbey_mayor", "traders_builders") if costly else ("abbey_mayor",)
    setup = Setup(players=("A", "B", "C", "D"), seed=6, expansions=expansions)
    game = to_a_tile(Game(setup), moves=50, seed=6)
    seat = game.actor
    draws = next_draws(observe(game, seat))
    assert len(draws) > players_module.REPLY_DRAWS
    seen: list[dict[str, int]] = []
    real = EndgamePlayer._after_reply

    def counted(self: EndgamePlayer, obs: Game, seat: int, actions: Any, got: Any) -> float:
        seen.append(dict(got))
        return real(self, obs, seat, actions, got)

    monkeypatch.setattr(EndgamePlayer, "_after_reply", counted)
    decision = make_player("hard", seed=2).choose(game, seat)
    assert seen and all(s == seen[0] for s in seen)
    if costly:
        assert sum(seen[0].values()) == players_module.REPLY_DRAWS
        assert set(seen[0]) <= set(draws)
    else:
        assert seen[0] == dict(draws)
    other = game.fork()
    other.stack = determinize(observe(game, seat), seat, random.Random(3)).stack
    assert other.stack != game.stack
    assert make_player("hard", seed=2).choose(other, seat) == decision
