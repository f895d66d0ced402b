"""`hold`: roll until the turn total reaches `at` (or holding would win), then hold.

`{name: hold, at: 20}` is the "hold at 20" of Neller & Presser (2004): the turn total at which
the expected gain of a roll turns negative for a six-sided die that busts on 1.
"""

from __future__ import annotations

import numpy as np

from pig.ruleset import MAX_GOAL, Rules
from sim.config.fields import Field

PARAMS = {"at": 20}
FIELDS = {"at": Field("int", min=1, max=MAX_GOAL)}


def table(rules: Rules, *, at: int) -> np.ndarray:
    """Roll while k < at and i + k < goal."""
    goal = rules.goal
    i = np.arange(goal)[:, None, None]
    k = np.arange(goal)[None, None, :]
    rolls = (k < at) & (i + k < goal)
    return np.ascontiguousarray(np.broadcast_to(rolls, (goal,) * 3), np.uint8)
