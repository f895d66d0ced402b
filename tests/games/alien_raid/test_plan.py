"""The plan's fast sums against the slow, obvious ones: every subset's attack at a city
(plan.subset_attacks, which reuses the sums of smaller subsets and asks a ship once for both
foes when it can) equals the engine's cards.group_attack of that subset, against a captain
and against an army, on random hands and cities of the default catalog."""

import numpy as np
import pytest

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import group_attack, is_station
from sim.games.alien_raid.decision import FSCRATCH_SIZE, SCRATCH_SIZE
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.ruleset import load_ruleset
from strategies.alien_raid.plan import (
    BATTLE,
    FUEL,
    HAND_M,
    VS_ARMY,
    depends_on_foe,
    hand_kinds,
    subset_attacks,
)

RULES = load_ruleset("alien-raid")
P, N = to_params(RULES.values), names(RULES.values)
SHIPS = [m for m in range(P[L.P_N_MODELS]) if not is_station(P, m)]


def test_a_ship_depends_on_the_foe_when_a_trait_asks_who_it_fights():
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    for name in ("hunter-saucer", "stalker-saucer", "heavy-tripod", "dreadnought"):
        assert depends_on_foe(P, scratch, N.model(name))
    for name in ("training-saucer", "cruiser", "tripod", "escort-saucer", "battle-cruiser"):
        assert not depends_on_foe(P, scratch, N.model(name))


@pytest.mark.parametrize("seed", range(4))
def test_subset_attacks_match_group_attack(seed):
    rng = np.random.default_rng(seed)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    fscratch = np.zeros(FSCRATCH_SIZE, np.float64)  # every subset's fuel 0: all are summed
    for _ in range(50):
        n = int(rng.integers(1, L.MAX_HAND + 1))
        hand = rng.choice(SHIPS, size=n)
        scratch[HAND_M : HAND_M + n] = hand
        city = int(rng.integers(P[L.P_N_CITIES]))
        grouped, foe = hand_kinds(P, scratch, n)
        subset_attacks(P, scratch, fscratch, n, city, True, fscratch[FUEL], grouped, foe)
        for mask in range(1 << n):
            group = np.array([hand[j] for j in range(n) if (mask >> j) & 1], np.int64)
            assert scratch[BATTLE + mask] == group_attack(P, group, len(group), city, False)
            assert scratch[VS_ARMY + mask] == group_attack(P, group, len(group), city, True)
