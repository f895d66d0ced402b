"""Whole random games keep every token accounted for, after every turn, in every preset."""

import numpy as np
import pytest

from sim.games.guardians.ruleset import PRESETS
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("guardians")


@pytest.mark.parametrize("preset", PRESETS)
def test_token_census_holds_every_turn(preset):
    # 4 presets x 2,500 games = 10,000 games, 2-4 players, random and greedy seats
    ruleset = GAME.load_ruleset(preset)
    lineup = [StrategySpec("random"), StrategySpec("greedy")]
    for players in (2, 3, 4):
        n = 834 if players < 4 else 832
        seats = np.random.default_rng(players).integers(0, 2, (n, players))
        chunk = GAME.simulate_chunk(ruleset, players, lineup, seats, np.arange(n), trace=True)
        assert chunk.errors == []
        outcomes = set(chunk.games["outcome"])
        assert outcomes <= {"victory", "stall", "raid", "cap"}


def test_a_game_is_a_pure_function_of_ruleset_strategies_and_seed():
    ruleset = GAME.load_ruleset("guardians-advanced")
    lineup = [StrategySpec("random"), StrategySpec("greedy")]
    seats = np.array([[0, 1, 1, 0]] * 50)
    first = GAME.simulate_chunk(ruleset, 4, lineup, seats, np.arange(50), trace=True)
    # the same games in another order and another batch give the same traces
    again = GAME.simulate_chunk(ruleset, 4, lineup, seats[::-1], np.arange(50)[::-1], trace=True)
    assert list(first.games["trace_hash"]) == list(again.games["trace_hash"][::-1])
    assert len(set(first.games["trace_hash"])) == 50
