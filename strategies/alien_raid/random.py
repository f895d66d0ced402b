"""`random`: the rules-only baseline. Keep this definition stable.

Every choice is a fair coin or a uniform pick among legal ones: redraw, credit, each offered
card (if it still fits), each ship's city (if its fuel still fits), fight or retreat, raid or
catch, "take the city", cash every bonus-humans card held or none, repay a credit early or
not. It never plays stations, transfers or extra fuel.
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import mf
from sim.jit import jit
from sim.random_streams import below
from strategies.alien_raid.common import can_add, choose_buy, me, own_ships, own_stations
from strategies.alien_raid.probes import PROBE_PARAMS, apply_probes

PARAMS: dict[str, float] = dict(PROBE_PARAMS)


@jit
def policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    if phase == L.PH_REDRAW or phase == L.PH_FIGHT or phase == L.PH_REWARD or phase == L.PH_TROPHY:
        a[L.A_YES] = below(rng, slot, 2)
    elif phase == L.PH_CREDIT or phase == L.PH_REPAY:
        a[L.A_CREDITS if phase == L.PH_CREDIT else L.A_REPAY] = below(rng, slot, 2)
    elif phase == L.PH_CASH:
        if below(rng, slot, 2) == 0:
            for k in range(L.MAX_COMP_MODELS):
                a[L.A_CASH + k] = 0
    elif phase == L.PH_BUY:
        budget, ships, stations = obs[me(obs, L.OP_HUMANS)], own_ships(obs), own_stations(obs)
        chosen = -1
        for i in range(L.MAX_DRAWN):
            m = obs[L.O_DRAWN + i]
            if below(rng, slot, 2) == 1 and can_add(obs, p, m, budget, ships, stations, chosen):
                budget, ships, stations = choose_buy(obs, p, a, i, budget, ships, stations)
                chosen = m
    elif phase == L.PH_PLAN:
        random_plan(obs, p, rng, slot, a)
    apply_probes(phase, obs, p, sp, rng, slot, a)  # the reports' coins (probes.py)


@jit
def random_plan(obs, p, rng, slot, a):
    """Each ship, from a random first slot on, goes to a uniform space or stays (if it fits)."""
    fuel = obs[L.O_FUEL]
    start = below(rng, slot, L.MAX_HAND)
    for j in range(L.MAX_HAND):
        i = (start + j) % L.MAX_HAND
        m = obs[me(obs, L.OP_HAND + i)]
        if m < 0:
            continue
        t = below(rng, slot, obs[L.O_N_BOARD] + 1) - 1
        if t >= 0 and obs[L.O_BOARD + t] >= 0 and mf(p, m, L.M_FUEL) <= fuel:
            a[L.A_TARGET + i] = t
            fuel -= mf(p, m, L.M_FUEL)
