"""The compiled switch from a built-in strategy's kind number to its policy, with the report
probes applied on top (probes.py) and scripted captains for scenarios (script.py).

Kind numbers follow ORDER (registry.py builds its table from it); new strategies are appended
so that existing kind numbers never change.
"""

from sim.jit import jit
from strategies.alien_raid import naive, planner, random, script, strong, value
from strategies.alien_raid.probes import apply_probes

ORDER = ("random", "naive", "value", "planner", "strong")


@jit
def builtin_policy(kind, phase, obs, p, sp, rng, slot, a, scratch, fscratch, scripted):
    if kind == script.SCRIPT_KIND:
        script.policy(phase, obs, p, a, scripted)
        return
    if kind == 0:
        random.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
    elif kind == 1:
        naive.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
    elif kind == 2:
        value.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
    elif kind == 3:
        planner.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
    elif kind == 4:
        strong.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
    apply_probes(phase, obs, p, sp, rng, slot, a)
