"""`naive`: one ship, one city.

Buys the offered ship with the most printed attack when it keeps as many humans as it pays
(never a station, never a credit); sends each ship alone, slot by slot while the fuel lasts,
to the cities in order of their raids; always fights, always raids, fights every army, plays
a boost station or an attack card when behind and "take the city" when it can; cashes a
bonus-humans card at once and repays a credit only at the end (the default answers).
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import is_station, mf
from sim.jit import jit
from strategies.alien_raid.common import (
    behind,
    best_raid_space,
    can_add,
    choose_buy,
    me,
    own_ships,
    own_stations,
    plain_boost,
)
from strategies.alien_raid.probes import PROBE_PARAMS, apply_probes

PARAMS: dict[str, float] = dict(PROBE_PARAMS)


@jit
def policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    if phase == L.PH_BUY:
        best, best_attack = -1, -1
        for i in range(L.MAX_DRAWN):
            m = obs[L.O_DRAWN + i]
            budget = obs[me(obs, L.OP_HUMANS)] // 2
            ok = can_add(obs, p, m, budget, own_ships(obs), own_stations(obs), -1)
            if ok and not is_station(p, m) and mf(p, m, L.M_ATTACK) > best_attack:
                best, best_attack = i, mf(p, m, L.M_ATTACK)
        if best >= 0:
            choose_buy(
                obs, p, a, best, obs[me(obs, L.OP_HUMANS)], own_ships(obs), own_stations(obs)
            )
    elif phase == L.PH_PLAN:
        fuel, taken = obs[L.O_FUEL], 0
        for i in range(L.MAX_HAND):
            m = obs[me(obs, L.OP_HAND + i)]
            target = best_raid_space(obs, p, taken)
            if target >= 0 and m >= 0 and mf(p, m, L.M_FUEL) <= fuel:
                a[L.A_TARGET + i] = target
                fuel -= mf(p, m, L.M_FUEL)
                taken |= 1 << target
    elif phase == L.PH_BOOST and behind(obs):
        plain_boost(obs, p, a)
    elif phase == L.PH_TROPHY:
        a[L.A_YES] = 1
    apply_probes(phase, obs, p, sp, rng, slot, a)  # the reports' coins (probes.py)
