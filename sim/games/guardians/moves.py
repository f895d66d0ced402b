"""Compiled helpers for strategies: legal destinations, what a shot from a cell would take.

Strategies read the state through these and the public fields of layout; they never read the
pile region (its order is hidden information); `pile_counts` gives what a player may know.
"""

import numpy as np
from numba import njit

from sim.games.guardians.engine import at, first_object_row, is_invader, kind_points, pl
from sim.games.guardians.layout import (
    EMPTY,
    FIGHTER,
    KIND_SHIP,
    MINE,
    N_KINDS,
    P_COLS,
    P_HORIZONTAL_ONLY,
    P_ROWS,
    P_SHIP_POINTS,
    P_STEAL_HIGHEST,
    PL_RESERVE,
    S_PILE,
    S_PILE_LEN,
    S_PILE_TOP,
    SHIP_DAMAGED,
)

_DC = np.array([1, -1, 0, 0, 1, 1, -1, -1], np.int64)
_DR = np.array([0, 0, 1, -1, 1, -1, 1, -1], np.int64)


@njit(cache=True)
def destinations(s, p, c0, r0, out):
    """Write the cells a fighter at (c0, r0) may end its move on, its own cell first, as
    (col, row) pairs into out (int64[2 * cells]); return how many."""
    out[0], out[1] = c0, r0
    n = 1
    n_dirs = 2 if p[P_HORIZONTAL_ONLY] else 8
    cols, rows = p[P_COLS], p[P_ROWS]
    for d in range(n_dirs):
        c, r = c0 + _DC[d], r0 + _DR[d]
        while 0 <= c < cols and 0 <= r < rows and s[at(c, r)] == EMPTY:
            out[2 * n], out[2 * n + 1] = c, r
            n += 1
            c += _DC[d]
            r += _DR[d]
    return n


@njit(cache=True)
def steal_points(s, p, victim):
    """Points a shot at `victim`'s fighter would take."""
    best = -1
    for k in range(1, N_KINDS):
        if s[pl(victim, PL_RESERVE + k)] > 0:
            v = kind_points(p, k)
            if best < 0 or (v > best if p[P_STEAL_HIGHEST] else v < best):
                best = v
    return max(best, 0)


@njit(cache=True)
def shot_value(s, p, c, r, seat):
    """Points the next shot from (c, r) takes (a steal counts its token), ignoring descents.
    An intact half scores 0 but is a hit; returns (points, hit)."""
    tr = first_object_row(s, p, c, r)
    if tr < 0:
        return 0, False
    v = s[at(c, tr)]
    if v == MINE:
        return 0, False
    if v >= FIGHTER:
        return (steal_points(s, p, v - FIGHTER), True) if v != FIGHTER + seat else (0, False)
    if v == SHIP_DAMAGED:
        return p[P_SHIP_POINTS], True
    if v <= 5:
        return v, True
    return 0, True


@njit(cache=True)
def pile_counts(s, out):
    """Public knowledge of the pile: how many tokens of each kind are left (out[1..6])."""
    for k in range(N_KINDS):
        out[k] = 0
    for i in range(s[S_PILE_TOP], s[S_PILE_LEN]):
        t = s[S_PILE + i]
        out[t if t <= 5 else KIND_SHIP] += 1


@njit(cache=True)
def lowest_invader_row(s, p, c):
    """Row of the lowest invader in column c, or -1."""
    for r in range(p[P_ROWS]):
        if is_invader(s[at(c, r)]):
            return r
    return -1


@njit(cache=True)
def volley_value(s, p, c, r, seat, shots):
    """Score of `shots` shots from (c, r): 2 per point taken, +1 for any hit, so that a hit
    worth nothing beats a miss. Later shots go to the next objects up the column (descents
    and steals' effects ignored)."""
    total = 0
    rr = r
    for _ in range(shots):
        tr = first_object_row(s, p, c, rr)
        if tr < 0:
            break
        pts, hit = shot_value(s, p, c, rr, seat)
        total += 2 * pts + (1 if hit else 0)
        v = s[at(c, tr)]
        if v >= FIGHTER or v == MINE:
            continue  # a fighter or the mine stays: later shots hit it again
        rr = tr
    return total
