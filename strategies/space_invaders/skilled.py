"""`skilled`: the team-skill ladder's continuous knob, from the naive aimer (0) to the
planner (1).

Each decision (which token and where to aim it, a re-aim, a re-launch, the resolution
choices) is the planner's with chance `skill`, else the naive player's: a team at skill 0.4
plays two decisions in five as carefully as the planner and the rest in the plainest way.
The coin is the seat's own stream (layout.STRATEGY + seat), apart from its launches, so the
dice of the table stay the same at every skill, and at skill 0 or 1 no coin is drawn: the
games are exactly the naive player's or the planner's. `sim calibrate --game
space-invaders` finds the skill at which a table wins as often as a playtest group.

The parameters are the planner's, in its order (the naive player reads only the first,
spread_scale), and then `skill`.
"""

from sim.games.space_invaders import layout as L
from sim.jit import jit
from sim.random_streams import uniform
from strategies.space_invaders import naive, planner

PARAMS: dict[str, float] = {**planner.PARAMS, "skill": 0.5}
SKILL = len(planner.PARAMS)
BUILDS_ON = ("naive", "planner")  # the policies it calls: compiled first (strategies.registry)


@jit  # compiled on its own: the loop calls it through a pointer (decision.py)
def policy(phase, s, p, w, seat, sp, rng, a, scratch):
    skill = sp[SKILL]
    if skill >= 1.0 or (skill > 0.0 and uniform(rng, L.STRATEGY + seat) < skill):
        planner.policy(phase, s, p, w, seat, sp, rng, a, scratch)
    else:
        naive.policy(phase, s, p, w, seat, sp, rng, a, scratch)
