"""`planner`: the value player with eyes on the table.

As `value`, but the chance that a city is contested and the power expected there come from
what is public (contest.py: the other captains' ship counts, revealed ships, the unseen
ships' average) and a city card counts toward the tasks in play.
"""

from sim.games.alien_raid.layout import PH_PLAN
from sim.jit import jit
from strategies.alien_raid.contest import public_contest
from strategies.alien_raid.decisions import BASE_PARAMS, CONTEST, common_policy, plan_with_contest
from strategies.alien_raid.probes import apply_probes

PARAMS: dict[str, float] = {**BASE_PARAMS, "contest": 1.0, "task_weight": 0.1}
# compiled after the value captain, whose policy compiles the decisions this one calls too
# (decisions.py): it loads them (strategies.registry)
BUILDS_ON = ("value",)


@jit
def policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    if phase == PH_PLAN:
        public_contest(obs, p, scratch, fscratch, sp[CONTEST])
        plan_with_contest(obs, p, sp, a, scratch, fscratch)
    else:
        common_policy(phase, obs, p, sp, a, scratch, fscratch)
    apply_probes(phase, obs, p, sp, rng, slot, a)  # the reports' coins (probes.py)
