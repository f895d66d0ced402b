"""The compiled switch from a built-in strategy's kind number to its policy. Kind numbers
follow ORDER (registry.py builds its table from it); new strategies are appended."""

from sim.jit import jit_inline
from strategies.space_invaders import naive

ORDER = ("naive",)


@jit_inline
def builtin_policy(kind, phase, s, p, w, seat, sp, rng, a, scratch):
    if kind == 0:
        naive.policy(phase, s, p, w, seat, sp, rng, a, scratch)
