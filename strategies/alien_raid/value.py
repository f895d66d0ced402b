"""`value`: value per price, a fuel knapsack, and odds.

Buys a card when its worth over the turns left beats its price (shopping.py), takes a credit
for a card worth more than the credit costs; plans the attack as a knapsack over the cities
(plan.py) assuming each city is contested with the same chance by a typical power; fights
when the win chance makes the city worth a ship, catches when the catch's expected humans beat
the raid, plays a station or card when it wins the fight; after the reveal moves an
outmatched transferring ship to a city nobody attacks and uses a tractor station against the
strongest enemy ship where it is weakest (tactics.py). A captain who paid for a transfer uses
it: without, a jump-tripod sent alone (its "+2 attack if alone") mostly retreats from a city
the other captains attack, and the card cost far more than its price.
"""

from sim.games.alien_raid.layout import PH_PLAN
from sim.jit import jit
from strategies.alien_raid.decisions import (
    BASE_PARAMS,
    CONTEST,
    OPP_POWER,
    common_policy,
    plan_with_contest,
)
from strategies.alien_raid.plan import uniform_contest
from strategies.alien_raid.probes import apply_probes

PARAMS: dict[str, float] = dict(BASE_PARAMS)


@jit
def policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    if phase == PH_PLAN:
        uniform_contest(obs, fscratch, sp[CONTEST], sp[OPP_POWER])
        plan_with_contest(obs, p, sp, a, scratch, fscratch)
    else:
        common_policy(phase, obs, p, sp, a, scratch, fscratch)
    apply_probes(phase, obs, p, sp, rng, slot, a)  # the reports' coins (probes.py)
