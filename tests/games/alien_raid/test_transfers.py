"""A captain who paid for a transfer uses it: every strategy above naive moves its outmatched
transferring ship to a city nobody attacks, keeps one that is not outmatched, and plays a
tractor station on the enemy ship that outmatches it. (Without this the value captain's
jump-tripod, sent alone, mostly retreated from a city the others attacked, and the card cost
it several times its price.)"""

import numpy as np
import pytest

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.decision import FSCRATCH_SIZE, SCRATCH_SIZE, reset_action
from sim.games.alien_raid.observe import observe
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.planning import (
    apply_ship_transfer,
    apply_station_transfer,
    check_ship_transfer,
    reveal,
)
from sim.games.alien_raid.ruleset import load_ruleset
from sim.games.alien_raid.state import new_game, pl
from sim.plugins.base import StrategySpec
from sim.random_streams import seed_streams
from strategies.alien_raid.registry import REGISTRY

READERS = ("value", "planner", "strong")  # the strategies that decide after the reveal
RULES = load_ruleset("alien-raid")
P, N = to_params(RULES.values), names(RULES.values)


def table(mine, theirs, free=True):
    """Three captains, three cities. Captain 0 sends `mine` (models in slots 1..) to city 0;
    captain 1 sends `theirs` there; captain 2 a scout-saucer to city 1; city 2 is free unless
    `free` is False (captain 2 attacks it too). Returns the state after the reveal."""
    s = np.zeros(L.STATE_SIZE, np.int32)
    rng = np.zeros(L.STREAMS, np.uint64)
    seed_streams(rng, 3)
    new_game(s, P, 3, rng)
    s[L.S_N_BOARD] = 3
    for space in range(3):
        s[L.S_BOARD + space] = space
    for seat, ships in ((0, mine), (1, theirs)):
        for i, model in enumerate(ships, start=1):
            s[pl(seat, L.PL_HAND + i)] = N.model(model)
            s[pl(seat, L.PL_TARGET + i)] = 0
    s[pl(2, L.PL_HAND + 1)] = N.model("scout-saucer")
    s[pl(2, L.PL_TARGET + 1)] = 1
    if not free:
        s[pl(2, L.PL_TARGET)] = 2  # the training saucer
    buf, slots = np.zeros(L.MAX_HAND, np.int64), np.zeros(L.MAX_HAND, np.int64)
    reveal(s, P, np.zeros((1, L.EV_SIZE), np.int32), buf, slots)
    return s


def answer(name, s, phase):
    """Captain 0's answer (as `name`) to `phase` on state s, as the rules ask it."""
    strategy, sp = REGISTRY.resolve(StrategySpec(name))
    obs, a = np.zeros(L.OBS_SIZE, np.int32), np.zeros(L.ACTION_SIZE, np.int32)
    buf, slots = np.zeros(L.MAX_HAND, np.int64), np.zeros(L.MAX_HAND, np.int64)
    observe(s, P, 0, phase, -1, np.zeros(L.MAX_PLAYERS, np.int64), obs, buf, slots)
    reset_action(phase, obs, P, a)
    rng = np.zeros(L.STREAMS, np.uint64)
    seed_streams(rng, 11)
    strategy.policy(phase, obs, P, sp, rng, 1, a, np.zeros(SCRATCH_SIZE, np.int64),
                    np.zeros(FSCRATCH_SIZE, np.float64))  # fmt: skip
    return a


@pytest.mark.parametrize("name", READERS)
def test_an_outmatched_jump_tripod_moves_to_the_free_city(name):
    s = table(["jump-tripod"], ["cruiser", "tripod"])
    a = answer(name, s, L.PH_SHIP_TRANSFER)
    assert a[L.A_TARGET + 1] == 2  # from city 0 (jump-tripod 6 against 13 + 8) to city 2
    assert check_ship_transfer(s, P, 0, a) == L.OK
    apply_ship_transfer(s, 0, a, np.zeros((8, L.EV_SIZE), np.int32))
    assert s[pl(0, L.PL_TARGET + 1)] == 2


@pytest.mark.parametrize("name", READERS)
def test_a_jump_tripod_that_is_not_outmatched_stays(name):
    a = answer(name, table(["jump-tripod"], ["hunter-saucer"]), L.PH_SHIP_TRANSFER)
    assert a[L.A_TARGET + 1] == -1


@pytest.mark.parametrize("name", READERS)
def test_with_no_free_city_the_jump_tripod_stays(name):
    a = answer(name, table(["jump-tripod"], ["cruiser"], free=False), L.PH_SHIP_TRANSFER)
    assert a[L.A_TARGET + 1] == -1


@pytest.mark.parametrize("name", READERS)
def test_a_tractor_moves_the_ship_that_outmatches_me(name):
    s = table(["tripod"], ["hunter-saucer", "cruiser"])
    s[pl(0, L.PL_STATIONS)] = N.model("tractor")
    a = answer(name, s, L.PH_STATION_TRANSFER)
    assert (a[L.A_USE], a[L.A_T_PLAYER], a[L.A_T_SLOT]) == (0, 1, 2)  # on captain 1's cruiser
    assert a[L.A_T_CITY] in (1, 2)  # to a city I do not attack
    assert apply_station_transfer(s, P, 0, a, np.zeros((8, L.EV_SIZE), np.int32)) == L.OK
    assert s[pl(1, L.PL_TARGET + 2)] == a[L.A_T_CITY]
