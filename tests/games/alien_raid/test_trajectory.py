"""The trajectory columns as the compiled loop stores them, against the same games watched
turn by turn (`sim play`'s loop): every captain's humans after each turn, the last turn
closed by the end scoring, summed up the obvious way (tests/trajectory_reference.py)."""

import numpy as np
import pytest

from sim.games.alien_raid.watch import watch
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.trajectory_reference import assert_matches, summary

GAME = get_game("alien-raid")
LINEUP = [StrategySpec("naive"), StrategySpec("value")]
PLAYERS = 4
SEATING = np.array([[0, 1, 0, 1]] * 5)
SEEDS = np.arange(7, 12)


@pytest.fixture(scope="module")
def chunk():
    GAME.prepare(LINEUP)
    return GAME.simulate_chunk(GAME.load_ruleset("alien-raid"), PLAYERS, LINEUP, SEATING, SEEDS)


@pytest.mark.parametrize("g", range(len(SEEDS)))
def test_the_loop_stores_what_the_turns_show(chunk, g):
    lineup = [LINEUP[j] for j in SEATING[g]]
    watched = watch(GAME.load_ruleset("alien-raid"), GAME.ready(lineup), int(SEEDS[g]))
    humans = [[c["humans"] for c in frame.captains] for frame in watched.frames]
    rows = [*humans[:-2], humans[-1]]  # the start, each turn; the last turn with the end scoring
    ref = summary(rows)
    assert_matches(chunk.games, chunk.seats, g, PLAYERS, ref)
    assert [int(chunk.seats["score"][g * PLAYERS + k]) for k in range(PLAYERS)] == rows[-1]


def test_the_leads_change(chunk):
    assert chunk.games["lead_changes"].sum() > 0
