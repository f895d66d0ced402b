"""The plan's fast sums against the slow, obvious ones: every subset's attack at every city
of a board (plan.subset_attacks, which reuses the sums of smaller subsets, asks a ship once
for both foes and once for every city when it can, and serves a city from an earlier one of
the same signature) equals the engine's cards.group_attack of
that subset, against a captain and against an army, on random hands and boards of the
default catalog."""

import numpy as np
import pytest

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import group_attack, is_station
from sim.games.alien_raid.decision import FSCRATCH_SIZE, SCRATCH_SIZE
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.ruleset import load_ruleset
from strategies.alien_raid.plan import (
    BATTLE,
    HAND_M,
    MASKS,
    VS_ARMY,
    alike_space,
    board_signatures,
    depends_on_foe,
    hand_kinds,
    hand_subsets,
    shared_attacks,
    subset_attacks,
)

RULES = load_ruleset("alien-raid")
P, N = to_params(RULES.values), names(RULES.values)
SHIPS = [m for m in range(P[L.P_N_MODELS]) if not is_station(P, m)]
FUEL_MAX = 100.0  # every subset fits: all are summed


def test_a_ship_depends_on_the_foe_when_a_trait_asks_who_it_fights():
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    for name in ("hunter-saucer", "stalker-saucer", "heavy-tripod", "dreadnought"):
        assert depends_on_foe(P, scratch, N.model(name))
    for name in ("training-saucer", "cruiser", "tripod", "escort-saucer", "battle-cruiser"):
        assert not depends_on_foe(P, scratch, N.model(name))


def test_a_ship_depends_on_the_city_when_a_trait_asks_where_it_attacks():
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    hand = ["tripod", "scout-saucer", "siege-tripod", "raider-saucer", "cruiser", "hunter-saucer"]
    scratch[HAND_M : HAND_M + 6] = [N.model(name) for name in hand]
    obs = np.full(L.OBS_SIZE, -1, np.int32)
    obs[L.O_N_BOARD] = 3
    obs[L.O_BOARD : L.O_BOARD + 3] = [-1, N.cities.index("paris"), N.cities.index("cairo")]
    # scientific / industrial bonuses differ there; raider-saucer's cultural one holds at neither
    assert board_signatures(obs, P, scratch, 6) == 0b000111
    obs[L.O_BOARD] = N.cities.index("berlin")  # cultural
    assert board_signatures(obs, P, scratch, 6) == 0b001111
    obs[L.O_BOARD : L.O_BOARD + 3] = [N.cities.index("paris"), -1, N.cities.index("nairobi")]
    assert board_signatures(obs, P, scratch, 6) == 0  # two scientific cities: alike


@pytest.mark.parametrize("seed", range(4))
def test_subset_attacks_match_group_attack(seed):
    rng = np.random.default_rng(seed)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    fscratch = np.zeros(FSCRATCH_SIZE, np.float64)
    for _ in range(50):
        n = int(rng.integers(1, L.MAX_HAND + 1))
        hand = rng.choice(SHIPS, size=n)
        scratch[HAND_M : HAND_M + n] = hand
        obs = np.full(L.OBS_SIZE, -1, np.int32)
        obs[L.O_N_BOARD] = board = int(rng.integers(1, L.MAX_BOARD + 1))
        obs[L.O_BOARD : L.O_BOARD + board] = rng.choice(P[L.P_N_CITIES], size=board)
        hand_subsets(P, scratch, fscratch, n)
        grouped, foe = hand_kinds(P, scratch, n)
        sited = board_signatures(obs, P, scratch, n)
        fixed = grouped & ~sited
        shared_attacks(P, scratch, fscratch, n, obs[L.O_BOARD], True, FUEL_MAX, fixed, foe)
        for space, city in enumerate(obs[L.O_BOARD : L.O_BOARD + board]):
            alike = alike_space(obs, scratch, space)  # its rows serve this city
            if alike == space:
                subset_attacks(P, scratch, fscratch, n, city, True, FUEL_MAX, grouped, foe, sited,
                               space)  # fmt: skip
            for mask in range(1 << n):
                group = np.array([hand[j] for j in range(n) if (mask >> j) & 1], np.int64)
                at = alike * MASKS + mask
                assert scratch[BATTLE + at] == group_attack(P, group, len(group), city, False)
                assert scratch[VS_ARMY + at] == group_attack(P, group, len(group), city, True)
