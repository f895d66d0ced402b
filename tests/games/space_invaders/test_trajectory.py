"""How close a game came, as the compiled loop stores it, against the same games replayed
turn by turn (`sim play`'s loop): the planet's lowest health at the end of a round."""

import numpy as np
import pytest

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.watch import play_recorded
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("space-invaders")
LINEUP = [StrategySpec("naive"), StrategySpec("tactical")]
SEATING = np.array([[0, 1, 1]] * 6)
SEEDS = np.arange(3, 9)


@pytest.fixture(scope="module")
def chunk():
    GAME.prepare(LINEUP)
    ruleset = GAME.load_ruleset("space-invaders", [("setup.level", "expert")])
    return ruleset, GAME.simulate_chunk(ruleset, 3, LINEUP, SEATING, SEEDS)


@pytest.mark.parametrize("g", range(len(SEEDS)))
def test_the_loop_stores_the_lowest_planet_health(chunk, g):
    ruleset, ch = chunk
    seen = []

    def on_step(kind, s, p, w, log, first, seat):
        if kind != "turn":  # the setup, and the end of every round
            seen.append(int(s[L.S_PLANET]))

    play_recorded(ruleset, GAME.ready([LINEUP[j] for j in SEATING[g]]), int(SEEDS[g]), on_step)
    assert int(ch.games["planet_low"][g]) == min(seen)


def test_planets_take_damage(chunk):
    """The check above is not empty: some planet fell below its starting health and back."""
    _, ch = chunk
    low, left, start = ch.games["planet_low"], ch.games["planet_left"], ch.games["planet_start"]
    assert (low < start).any()
    assert (low <= left).all()
