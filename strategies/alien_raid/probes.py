"""Randomised decisions for the reports, applied on top of any strategy's answer.

The first three parameters of every strategy switch them on (0 off, 1 on): once per game a
captain's purchase (`probe_buy`: one offered card it can pay for, bought alone or not at all
on a coin), raid-or-catch choice (`probe_reward`) and first credit decision (`probe_credit`)
is made by a fair coin, and the engine records it with its outcome. Comparing the coin's two
sides gives each card's value at its price, the humans of a raid against a catch and the
value of a credit without the bias of who chooses what (sim/games/alien_raid/report.py).
"""

from sim.games.alien_raid import layout as L
from sim.jit import jit
from sim.random_streams import below
from strategies.alien_raid.common import buyable_alone, clear_buy

PROBE_BUY, PROBE_REWARD, PROBE_CREDIT = 0, 1, 2
# the parameters every strategy starts with, in this order, off by default
PROBE_PARAMS: dict[str, float] = {"probe_buy": 0.0, "probe_reward": 0.0, "probe_credit": 0.0}


@jit
def _now(obs, p, rng, slot):
    """True with chance 1 / (turns left): an event is probed at a uniform turn."""
    left = p[L.P_TURNS] - obs[L.O_TURN] + 1
    return left <= 1 or below(rng, slot, left) == 0


@jit
def apply_probes(phase, obs, p, sp, rng, slot, a):
    done = obs[L.O_PROBES]
    if phase == L.PH_BUY and sp[PROBE_BUY] > 0.5 and not done & 1:
        n = 0
        for i in range(L.MAX_DRAWN):
            n += buyable_alone(obs, p, i)
        if n > 0 and _now(obs, p, rng, slot):
            pick = below(rng, slot, n)
            for i in range(L.MAX_DRAWN):
                if buyable_alone(obs, p, i):
                    if pick == 0:
                        clear_buy(a)
                        a[L.A_BUY + i] = below(rng, slot, 2)
                        a[L.A_PROBE] = i + 1
                    pick -= 1
    elif phase == L.PH_REWARD and sp[PROBE_REWARD] > 0.5 and not done & 2:
        if _now(obs, p, rng, slot):
            a[L.A_YES] = below(rng, slot, 2)
            a[L.A_PROBE] = 1
    elif phase == L.PH_CREDIT and sp[PROBE_CREDIT] > 0.5 and not done & 4:
        a[L.A_CREDITS] = below(rng, slot, 2)
        a[L.A_PROBE] = 1
