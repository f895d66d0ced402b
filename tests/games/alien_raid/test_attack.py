"""A ship's attack (cards.ship_attack, group_attack, model_attack, and the plans' split of it:
setting_attack then residual_attack) against the slow, obvious reading of its traits: every
condition asked of the group itself (another ship of the group of that class, the group's size,
the foe, the city), on random groups, cities and foes, with the assumed catalog's traits and
with random traits of every condition kind."""

import numpy as np
import pytest

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import (
    class_bit,
    companions,
    group_attack,
    group_classes,
    is_station,
    residual_attack,
    setting_attack,
    ship_attack,
)
from sim.games.alien_raid.params import to_params
from sim.games.alien_raid.ruleset import load_ruleset
from tests.games.alien_raid.ships import ship_models

P = to_params(load_ruleset("alien-raid").values)
SHIPS = ship_models(P)
KINDS = range(L.C_CITY_DECK + 1)  # every condition


def test_the_ships_listed_at_import_are_the_models_that_are_not_stations():
    # SHIPS is read in plain Python (collecting compiles nothing); the rule's own check agrees
    assert [m for m in range(P[L.P_N_MODELS]) if not is_station(P, m)] == SHIPS
    assert 0 < len(SHIPS) < P[L.P_N_MODELS]  # the catalog has both ships and stations


def field(p, m, f):
    return int(p[L.P_MODELS + m * L.MODEL_SIZE + f])


def city_field(p, c, f):
    return int(p[L.P_CITIES + c * L.CITY_SIZE + f])


def holds(p, cond, arg, group, me, city, vs_army):
    others = [field(p, m, L.M_CLASS) for j, m in enumerate(group) if j != me]
    return {
        L.C_NONE: True,
        L.C_WITH: arg in others,
        L.C_WITHOUT: arg not in others,
        L.C_ALONE: len(group) == 1,
        L.C_GROUP_AT_LEAST: len(group) >= arg,
        L.C_VS_ARMY: vs_army,
        L.C_VS_CAPTAIN: not vs_army,
        L.C_CITY_TYPE: city_field(p, city, L.CT_TYPE) == arg,
        L.C_CITY_NOT_TYPE: city_field(p, city, L.CT_TYPE) != arg,
        L.C_CITY_REGION: city_field(p, city, L.CT_REGION) == arg,
        L.C_CITY_NOT_REGION: city_field(p, city, L.CT_REGION) != arg,
        L.C_CITY_DECK: city_field(p, city, L.CT_DECK) == arg,
    }[cond]


def reference(p, group, me, city, vs_army, jammed):
    m = group[me]
    total = field(p, m, L.M_ATTACK)
    for t in range(field(p, m, L.M_N_TRAITS)):
        base = L.M_TRAITS + t * L.TRAIT_SIZE
        value = field(p, m, base)
        conds = [(field(p, m, base + 1 + 2 * k), field(p, m, base + 2 + 2 * k))
                 for k in range(L.MAX_CONDS)]  # fmt: skip
        if jammed and value > 0:
            continue
        if all(holds(p, cond, arg, group, me, city, vs_army) for cond, arg in conds):
            total += value
    return max(total, 0)


def random_traits(rng):
    """The catalog's params with every ship's traits drawn at random (any condition, any
    argument a condition of that kind takes)."""
    p = P.copy()
    for m in SHIPS:
        n = int(rng.integers(0, L.MAX_TRAITS + 1))
        p[L.P_MODELS + m * L.MODEL_SIZE + L.M_N_TRAITS] = n
        for t in range(n):
            base = L.P_MODELS + m * L.MODEL_SIZE + L.M_TRAITS + t * L.TRAIT_SIZE
            p[base] = rng.integers(-4, 6)
            for k in range(L.MAX_CONDS):
                cond = int(rng.choice(KINDS))
                arg = {
                    L.C_WITH: P[L.P_N_CLASSES],
                    L.C_WITHOUT: P[L.P_N_CLASSES],
                    L.C_GROUP_AT_LEAST: L.MAX_HAND + 1,
                    L.C_CITY_TYPE: P[L.P_N_TYPES],
                    L.C_CITY_NOT_TYPE: P[L.P_N_TYPES],
                    L.C_CITY_REGION: P[L.P_N_REGIONS],
                    L.C_CITY_NOT_REGION: P[L.P_N_REGIONS],
                    L.C_CITY_DECK: 3,
                }.get(cond, 1)
                p[base + 1 + 2 * k], p[base + 2 + 2 * k] = cond, rng.integers(0, arg)
    return p


@pytest.mark.parametrize("seed", range(6))
def test_ship_attack_reads_the_traits_as_written(seed):
    rng = np.random.default_rng(seed)
    p = P if seed < 2 else random_traits(rng)
    for _ in range(300):
        n = int(rng.integers(1, L.MAX_HAND + 1))
        group = rng.choice(SHIPS, size=n).astype(np.int64)
        city = int(rng.integers(0, p[L.P_N_CITIES]))
        vs_army = bool(rng.integers(0, 2))
        classes, twice = group_classes(p, group, n)
        for me in range(n):
            for jammed in (False, True):
                want = reference(p, group, me, city, vs_army, jammed)
                assert ship_attack(p, group, n, me, city, vs_army, jammed) == want
            left = np.full(L.MAX_TRAITS * 5, -9, np.int64)
            total, count = setting_attack(p, group[me], city, vs_army, left)
            others = companions(classes, twice, class_bit(p, group[me]))
            split = residual_attack(total, left, 0, count, others, n)
            assert split == reference(p, group, me, city, vs_army, False)
        total = sum(reference(p, group, me, city, vs_army, False) for me in range(n))
        assert group_attack(p, group, n, city, vs_army) == total
