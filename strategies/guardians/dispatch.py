"""The compiled switch from a built-in strategy's kind number to its policy.

Kind numbers follow ORDER (strategies.guardians.registry builds its table from it); new
strategies are appended so that existing kind numbers never change.
"""

from sim.jit import jit_inline
from strategies.guardians import (
    cautious,
    economist,
    expert,
    greedy,
    master,
    miner,
    random,
    skilled,
    thief,
)

ORDER = (
    "random", "greedy", "cautious", "economist", "miner", "thief", "expert", "skilled", "master",
)  # fmt: skip


@jit_inline
def builtin_policy(kind, phase, s, p, seat, sp, rng, a, scratch):
    if kind == 0:
        random.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 1:
        greedy.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 2:
        cautious.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 3:
        economist.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 4:
        miner.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 5:
        thief.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 6:
        expert.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 7:
        skilled.policy(phase, s, p, seat, sp, rng, a, scratch)
    elif kind == 8:
        master.policy(phase, s, p, seat, sp, rng, a, scratch)
