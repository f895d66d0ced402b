"""`skilled`: the skill ladder's continuous knob, from the naive captain (0) to the strong one
(1).

Each decision (a redraw, a credit, the purchase, the attack plan, a fight, a boost, a loss,
a trophy, a raid or catch, a scan, an army, a transfer) is the strong captain's with chance
`skill`, else the naive captain's: a captain at skill 0.3 plays three decisions in ten as the
strong one would and the rest in the plainest way, as a player who sometimes thinks ahead and
often does not. The coin is the captain's second stream (layout.STRATEGY_COINS), apart from
the draws of its play (the strong captain's samples, the probes), so those stay the same at
every skill; at skill 0 or 1 no coin is drawn, and the games are exactly the naive or the
strong captain's. The value captain and the planner lie between the two ends but are not
points on this knob. `sim calibrate --game alien-raid` finds the skill that reproduces a
playtest group's figure.

The parameters are the strong captain's, in its order (the naive one reads only the probes'
switches, the first three), and then `skill`.
"""

from sim.games.alien_raid import layout as L
from sim.jit import jit
from sim.random_streams import uniform
from strategies.alien_raid import naive, strong

PARAMS: dict[str, float] = {**strong.PARAMS, "skill": 0.5}
SKILL = len(strong.PARAMS)
BUILDS_ON = ("naive", "strong")  # the policies it calls: compiled first (strategies.registry)


@jit
def policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    skill = sp[SKILL]
    if skill >= 1.0 or (skill > 0.0 and uniform(rng, slot + L.STRATEGY_COINS) < skill):
        strong.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
    else:
        naive.policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
