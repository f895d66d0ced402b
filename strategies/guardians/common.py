"""What every Guardians strategy shares: the decision phases, a fresh action, tie-breaking.

A fast strategy is a module with NAME, PARAMS (name -> default) and a compiled
`policy(phase, s, p, seat, sp, rng, a, scratch)`:
- phase PLACE: write the bottom-row column of the seat's fighter to a[A_DEST_COL];
- phase MINE_START: write the mine's starting row (0-based) to a[A_MINE_ROW];
- phase TURN: `a` arrives as "stay, shoot, leave the mine"; change what the turn should do.
`sp` holds the parameters (float64, in PARAMS order); the seat's random stream is slot
seat + 1 of `rng`; `scratch` is an int64 buffer of SCRATCH_SIZE. See docs/strategies.md.
"""

import numpy as np

from sim.games.guardians.engine import at, bottom_has_room, pl, reserve_points
from sim.games.guardians.layout import (
    A_BUY,
    A_DEST_COL,
    A_DEST_ROW,
    A_MINE,
    A_MINE_ROW,
    A_MISSILE,
    A_PAY,
    A_PAY_EXPLICIT,
    A_PU_COL,
    A_PU_ROW,
    A_REENTER_COL,
    ACTION_SIZE,
    BUY_NONE,
    DESTROYED,
    EMPTY,
    MAX_COLS,
    MAX_ROWS,
    N_KINDS,
    P_COLS,
    P_MINE_COL,
    P_MINE_ROW_FIRST,
    P_MINE_ROW_LAST,
    P_REENTRY_COST,
    PL_COL,
    PL_ROW,
    PL_STATUS,
)
from sim.games.guardians.rng import below
from sim.jit import jit, jit_inline

PLACE, MINE_START, TURN = 0, 1, 2
SCRATCH_SIZE = 4 * MAX_COLS * MAX_ROWS + 64


@jit_inline
def reset_action(s, seat, a):
    """The default turn: stay, shoot, leave the mine, buy nothing."""
    for i in range(ACTION_SIZE):
        a[i] = 0
    a[A_REENTER_COL] = -1
    a[A_BUY] = BUY_NONE
    a[A_PAY_EXPLICIT] = 0
    for k in range(N_KINDS):
        a[A_PAY + k] = 0
    a[A_DEST_COL] = s[pl(seat, PL_COL)]
    a[A_DEST_ROW] = s[pl(seat, PL_ROW)]
    a[A_PU_COL] = -1
    a[A_PU_ROW] = -1
    a[A_MISSILE] = 0
    a[A_MINE] = 0
    a[A_MINE_ROW] = -1


@jit
def random_empty_bottom(s, p, rng, slot):
    """A uniform empty bottom-row column, or -1."""
    n = 0
    for c in range(p[P_COLS]):
        if s[at(c, 0)] == EMPTY:
            n += 1
    if n == 0:
        return -1
    k = below(rng, slot, n)
    for c in range(p[P_COLS]):
        if s[at(c, 0)] == EMPTY:
            if k == 0:
                return c
            k -= 1
    return -1


@jit
def random_mine_row(s, p, rng, slot):
    """A uniform mine space not holding anything, or the first mine row."""
    first, last = p[P_MINE_ROW_FIRST], p[P_MINE_ROW_LAST]
    n = 0
    for r in range(first, last + 1):
        if s[at(p[P_MINE_COL], r)] == EMPTY:
            n += 1
    if n == 0:
        return first
    k = below(rng, slot, n)
    for r in range(first, last + 1):
        if s[at(p[P_MINE_COL], r)] == EMPTY:
            if k == 0:
                return r
            k -= 1
    return first


@jit
def can_reenter(s, p, seat):
    return (
        s[pl(seat, PL_STATUS)] == DESTROYED
        and bottom_has_room(s, p)
        and reserve_points(s, p, seat) >= p[P_REENTRY_COST]
    )


@jit
def stand_at(s, seat, a, c, r):
    """Let the rest of the decision see the fighter re-entered at (c, r)."""
    a[A_REENTER_COL] = c
    a[A_DEST_COL] = c
    a[A_DEST_ROW] = r


def fresh_action():
    return np.zeros(ACTION_SIZE, np.int32)
