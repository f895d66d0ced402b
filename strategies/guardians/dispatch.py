"""The compiled switch from a built-in strategy's kind number to its policy.

Kind numbers follow BUILTIN order in strategies.guardians.registry; keep the two in step
(a test checks it).
"""

from numba import njit

from strategies.guardians import greedy, random

ORDER = ("random", "greedy")


@njit(cache=True)
def builtin_policy(kind, phase, s, p, seat, sp, rng, a, scratch):
    if kind == 0:
        random.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 1:
        greedy.policy(phase, s, p, seat, sp, rng, a, scratch)
