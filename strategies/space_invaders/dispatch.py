"""The compiled switch from a built-in strategy's kind number to its policy. Kind numbers
follow the game's team-skill ladder (schema.TEAM_SKILLS, from which registry.py builds its
table); a new strategy is appended there and here."""

from sim.jit import jit_inline
from strategies.space_invaders import naive, planner, tactical


@jit_inline
def builtin_policy(kind, phase, s, p, w, seat, sp, rng, a, scratch):
    if kind == 0:
        naive.policy(phase, s, p, w, seat, sp, rng, a, scratch)
    elif kind == 1:
        tactical.policy(phase, s, p, w, seat, sp, rng, a, scratch)
    else:
        planner.policy(phase, s, p, w, seat, sp, rng, a, scratch)
