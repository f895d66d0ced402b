"""Pig's compiled loop against the plain-Python rules, game for game; a game is a pure
function of the ruleset, the players and the seed; and the simulated first-player rate
against the exact one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pig.chunks import Plan, simulate_chunk_python
from pig.course import rows
from pig.dice import Dice
from pig.game import play
from pig.plugin import GAME
from pig.policy import table_for
from pig.ruleset import Rules
from pig.strategies.values import first_player_wins

from sim.plugins.base import StrategySpec
from sim.stats.intervals import wilson, z_for
from tests.trajectory_reference import assert_matches, summary

SEEDS = np.array([0, 1, 2, 3, 2**63 + 7, 2**64 - 1, *range(1000, 1294)], np.uint64)


def lineup(*names: str) -> list[StrategySpec]:
    return [StrategySpec(n) for n in names]


def alternating(n: int) -> np.ndarray:
    """Game g seats lineup entries (0, 1) when g is even, (1, 0) when odd."""
    return np.array([[0, 1], [1, 0]] * (n // 2) + [[0, 1]] * (n % 2), np.int64)


def assert_same_chunk(a, b) -> None:
    assert a.games.keys() == b.games.keys() and a.seats.keys() == b.seats.keys()
    for k in a.games:
        assert (a.games[k] == b.games[k]).all(), k
    for k in a.seats:
        assert (a.seats[k] == b.seats[k]).all(), k


@pytest.mark.parametrize(
    ("preset", "overrides", "names"),
    [
        ("pig", {}, ("optimal", "careless")),
        ("pig", {"start.head_start": 9, "goal.points": 60}, ("shrewd", "optimal")),
        ("pig", {"die.faces": 8, "die.bust": 6}, ("optimal", "steady")),
        ("piglet", {}, ("optimal", "casual")),
    ],
)
def test_the_compiled_loop_plays_the_python_games(preset, overrides, names):
    GAME.prepare(lineup(*names))
    ruleset = GAME.load_ruleset(preset, overrides)
    seats = alternating(len(SEEDS))
    compiled = GAME.simulate_chunk(ruleset, 2, lineup(*names), seats, SEEDS)
    python = simulate_chunk_python(ruleset, 2, GAME.ready(lineup(*names)), seats, SEEDS)
    assert_same_chunk(compiled, python)
    assert set(compiled.games["outcome"]) == {"win"}
    assert (compiled.seats["win_share"].reshape(-1, 2).sum(axis=1) == 1).all()
    # the winner banked the goal; the loser did not
    score = compiled.seats["score"].reshape(-1, 2)
    won = compiled.seats["win_share"].reshape(-1, 2) == 1
    assert (score[won] >= ruleset["goal.points"]).all()
    assert (score[~won] < ruleset["goal.points"]).all()


def test_games_do_not_depend_on_how_they_are_chunked():
    ruleset, players = GAME.load_ruleset("pig"), lineup("optimal", "steady")
    seats = alternating(len(SEEDS))
    whole = GAME.simulate_chunk(ruleset, 2, players, seats, SEEDS)
    first = GAME.simulate_chunk(ruleset, 2, players, seats[:123], SEEDS[:123])
    rest = GAME.simulate_chunk(ruleset, 2, players, seats[123:], SEEDS[123:])
    for k in whole.games:
        assert (whole.games[k] == np.concatenate([first.games[k], rest.games[k]])).all()


def test_sim_play_shows_the_game_a_run_stores():
    ruleset, players = GAME.load_ruleset("pig"), lineup("careless", "optimal")
    seed = int(SEEDS[7])
    stored = GAME.simulate_chunk(ruleset, 2, players, np.array([[0, 1]]), SEEDS[7:8])
    text = GAME.watch(ruleset, players, seed).text
    a, b = stored.seats["score"]
    assert text.rstrip().endswith(f"{a}-{b} after {stored.games['turns'][0]} turns")


def test_the_turn_cap_ends_a_game_with_no_winner():
    ruleset = GAME.load_ruleset("pig", {"safety.turn_cap": 3})
    seats = np.zeros((50, 2), np.int64)
    chunk = GAME.simulate_chunk(ruleset, 2, lineup("careless"), seats, SEEDS[:50])
    assert set(chunk.games["outcome"]) == {"cap"} and (chunk.games["turns"] == 3).all()
    assert (chunk.seats["win_share"] == 0).all()


@pytest.mark.parametrize(
    ("overrides", "names"),
    [({"start.head_start": 9}, ("careless", "optimal")), ({"safety.turn_cap": 9}, ("steady",))],
)
def test_how_the_game_went_follows_the_lab_definitions(overrides, names):
    """The trajectory columns the compiled loop stores are those of the lab's slow reference
    (tests/trajectory_reference.py) on the scores after each round of the same game played by
    the rules; every turn is a seat's, and a turn without a real choice is one of them."""
    ruleset = GAME.load_ruleset("pig", overrides)
    rules, players, seats = Rules.of(ruleset), lineup(*names), alternating(len(SEEDS)) % len(names)
    chunk = GAME.simulate_chunk(ruleset, 2, players, seats, SEEDS)
    tables = [table_for(player, rules) for player in GAME.ready(players)]
    for g, seed in enumerate(SEEDS):
        state = play(rules, [tables[t] for t in seats[g]], Dice(int(seed)))
        assert_matches(chunk.games, chunk.seats, g, 2, summary(rows(state)))
    played = chunk.seats["turns_played"].reshape(-1, 2)
    assert (played.sum(axis=1) == chunk.games["turns"]).all()
    assert (played[:, 0] - played[:, 1] <= 1).all() and (played[:, 0] >= played[:, 1]).all()
    forced = chunk.seats["no_choice_turns"].reshape(-1, 2)
    assert (forced <= played).all() and 0 < forced.sum() < played.sum()
    if "safety.turn_cap" in overrides:  # a cap after the first seat's turn cuts a round short
        assert (chunk.games["turns"] == 9).any()


def test_the_compiled_loop_is_stamped_by_the_rules_it_inlines():
    """The loop's cached machine code is stamped by the game's files it reaches, so a changed
    rule recompiles it (the game's folder is tracked by the lab's compile cache)."""
    from pig import kernel, policy, rules

    from sim import compile_cache

    reached = compile_cache.dependencies(kernel.__file__)
    assert {Path(m.__file__).resolve() for m in (kernel, policy, rules)} <= set(reached)


def test_a_strategy_compiles_nothing_of_its_own():
    assert Plan(GAME.ready(lineup("optimal", "careless"))).compile_jobs() == Plan([]).compile_jobs()


def test_the_simulated_first_player_rate_agrees_with_the_exact_one():
    """400,000 compiled games of optimal (first) against careless: the exact probability lies
    within the 99.9% Wilson interval of the simulated rate (fixed seeds: not a flaky test)."""
    ruleset, players = GAME.load_ruleset("pig"), lineup("optimal", "careless")
    rules = Rules.of(ruleset)
    exact = first_player_wins(rules, *(table_for(p, rules) for p in GAME.ready(players)))
    n = 400_000
    seeds = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    chunk = GAME.simulate_chunk(ruleset, 2, players, np.zeros((n, 2), np.int64) + [0, 1], seeds)
    wins = chunk.seats["win_share"][0::2].sum()
    low, high = wilson(wins, n, z=z_for(0.999))
    assert low < exact < high, (wins / n, exact)
