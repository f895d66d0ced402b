"""Whole games with every strategy keep every card accounted for after every turn (census,
checked by the traced kernel, which also checks every kept observation against one made
anew: observe.observe_kept), refuse no decision, and are pure functions of the seed."""

import numpy as np
import pytest

from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("alien-raid")
RULESETS = ("alien-raid", "alien-raid-other-readings")


@pytest.mark.parametrize("preset", RULESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_play_keeps_the_census(preset, players):
    ruleset = GAME.load_ruleset(preset)
    lineup = [StrategySpec(name) for name in GAME.strategy_names()]
    n = 150
    seats = np.random.default_rng(players).integers(0, len(lineup), (n, players))
    chunk = GAME.simulate_chunk(ruleset, players, lineup, seats, np.arange(n), trace=True)
    assert chunk.errors == []
    assert set(chunk.games["outcome"]) <= {"win", "shared"}
    assert (chunk.games["turns"] == 10).all()
    seat = chunk.seats
    # humans: start + raids + catches + bonus cards + credits + tasks - purchases - repayments
    gained = seat["raid_humans"] + seat["catch_humans"] + seat["comp_humans"] + seat["task_humans"]
    credits = seat["credits_taken"] * ruleset["credit.amount"]
    assert (seat["score"] == 100_000 + gained + credits - seat["spent"] - seat["repaid"]).all()
    assert (seat["catches_won"] <= seat["catches"]).all()
    assert (seat["battles_won"] <= seat["battles"]).all()


def test_a_game_is_a_pure_function_of_ruleset_strategies_and_seed():
    ruleset = GAME.load_ruleset("alien-raid")
    lineup = [StrategySpec("random"), StrategySpec("value"), StrategySpec("strong")]
    seats = np.array([[0, 1, 2, 1]] * 40)
    first = GAME.simulate_chunk(ruleset, 4, lineup, seats, np.arange(40), trace=True)
    again = GAME.simulate_chunk(ruleset, 4, lineup, seats[::-1], np.arange(40)[::-1], trace=True)
    assert list(first.games["trace_hash"]) == list(again.games["trace_hash"][::-1])
    assert len(set(first.games["trace_hash"])) == 40
