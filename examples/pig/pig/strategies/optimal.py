"""`optimal`: the policy that maximises the probability of winning, computed by value
iteration for the ruleset it plays (values.py), once per goal and die in each process.

For the printed rules it takes well under a second (numpy, 100 x 100 x 100 states).
"""

from __future__ import annotations

import functools

import numpy as np

from pig.ruleset import Rules
from pig.strategies.values import optimal_table

PARAMS: dict[str, int] = {}
FIELDS: dict = {}


def table(rules: Rules) -> np.ndarray:
    # the policy depends on the goal and the die only (not on the head start or the cap)
    return _solved(rules.goal, rules.faces, rules.bust)


@functools.lru_cache(maxsize=8)
def _solved(goal: int, faces: int, bust: int) -> np.ndarray:
    table = optimal_table(Rules(goal, faces, bust, head_start=0, turn_cap=1))
    table.flags.writeable = False
    return table
