"""`strong`: the planner that reads the other captains' hidden hands by sampling.

Before planning it samples the hidden ships of every other captain (from the ships nobody has
seen, matching what each was seen to spend this turn), predicts each captain's attack with
the planner's knapsack, and plans against how often and how strongly every city was
contested over the samples (sampling.py). Everything else as `planner`.
"""

from sim.games.alien_raid.layout import PH_PLAN
from sim.jit import jit
from strategies.alien_raid.decisions import BASE_PARAMS, common_policy, plan_with_contest
from strategies.alien_raid.probes import apply_probes
from strategies.alien_raid.sampling import sampled_contest

PARAMS: dict[str, float] = {**BASE_PARAMS, "task_weight": 0.1, "samples": 6.0, "blend": 1.0}
# compiled after the value captain and the planner, whose policies compile the decisions and the
# public contest this one calls too: it loads them (strategies.registry)
BUILDS_ON = ("value", "planner")


@jit
def policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    if phase == PH_PLAN:
        sampled_contest(obs, p, sp, rng, slot, scratch, fscratch)
        plan_with_contest(obs, p, sp, a, scratch, fscratch)
    else:
        common_policy(phase, obs, p, sp, a, scratch, fscratch)
    apply_probes(phase, obs, p, sp, rng, slot, a)  # the reports' coins (probes.py)
