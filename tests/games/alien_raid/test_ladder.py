"""The skill ladder is ordered: in 4-player games of two neighbours on the ladder, seated
alternately (every seat played by each equally often), the stronger wins a larger share,
by more than twice the standard error of the difference."""

import numpy as np
import pytest

from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.conftest import slow_scale

GAME = get_game("alien-raid")
GAMES = {"random": 400, "naive": 400, "value": 300, "planner": 200}  # per pair, by the weaker


@pytest.mark.slow
@pytest.mark.parametrize("weaker", list(GAME.skills[:-1]))
def test_each_rung_beats_the_one_below(weaker):
    stronger = GAME.skills[GAME.skills.index(weaker) + 1]
    n = max(100, int(GAMES[weaker] * slow_scale()) // 2 * 2)
    lineup = [StrategySpec(weaker), StrategySpec(stronger)]
    seats = np.array([[(k + g) % 2 for k in range(4)] for g in range(n)])
    chunk = GAME.simulate_chunk(GAME.load_ruleset("alien-raid"), 4, lineup, seats, np.arange(n))
    assert chunk.errors == []
    share = chunk.seats["win_share"].reshape(n, 4)
    mine = np.where(seats == 1, share, 0).sum(axis=1) - np.where(seats == 0, share, 0).sum(axis=1)
    diff, se = mine.mean(), mine.std(ddof=1) / np.sqrt(n)
    assert diff > 2 * se, f"{stronger} against {weaker}: {diff:+.3f} (se {se:.3f})"
