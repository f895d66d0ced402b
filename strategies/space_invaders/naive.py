"""Naive aimer: every token at the invader nearest the planet that none of this turn's tokens
is on yet (the leftmost of a row first), the UFO only when no invader is left. Launches its
lowest-level tokens first and uses each power in the plainest way: calls its target, takes
a re-launch after a miss, sends a blast wave to the first card it reaches and an extra hit
to the first neighbour, never redirects and never declares the three tries."""

from sim.games.space_invaders.board import neighbours_mask, wave_reaches
from sim.games.space_invaders.engine import power_of, tk, wave_length
from sim.games.space_invaders.layout import (
    A_CALLED,
    A_RES,
    A_YES,
    CALLED_SHOT,
    COLS,
    EXTRA_ADJACENT,
    LONG_WAVE,
    MISS,
    N_CELLS,
    ON_CARDS,
    PH_CHOOSE,
    PH_REAIM,
    PH_RELAUNCH_Q,
    PH_RESOLVE,
    RES_EXTRA,
    RES_SIZE,
    RES_WAVE,
    ROWS,
    S_BOARD,
    S_CUR,
    S_TOKENS,
    S_TURN_LANDED,
    SHORT_WAVE,
    TK_CELLS,
    TK_POWER,
    TK_RESULT,
    W_X,
    W_Y,
)
from sim.jit import jit, jit_inline
from strategies.space_invaders.common import UFO, aim_target, choose_token, lowest_level_left

PARAMS = {"spread_scale": 1.0}


@jit_inline
def nearest_target(s):
    """The invader nearest the planet not yet landed on this turn, else the UFO."""
    for row in range(ROWS - 1, -1, -1):
        for col in range(COLS):
            cell = row * COLS + col
            if s[S_BOARD + cell] != 0 and (s[S_TURN_LANDED] >> cell) & 1 == 0:
                return cell
    return UFO


@jit_inline
def first_choices(s, p, w, a):
    """Resolution: the first card a wave reaches, the first free neighbour as the extra."""
    for t in range(s[S_TOKENS]):
        power, result = s[tk(t, TK_POWER)], s[tk(t, TK_RESULT)]
        base = A_RES + t * RES_SIZE
        if result == MISS and (power == SHORT_WAVE or power == LONG_WAVE):
            for cell in range(N_CELLS):
                if s[S_BOARD + cell] != 0 and wave_reaches(
                    p, cell, w[W_X + t], w[W_Y + t], wave_length(p, power)
                ):
                    a[base + RES_WAVE] = cell
                    break
        elif result == ON_CARDS and power == EXTRA_ADJACENT:
            mask = s[tk(t, TK_CELLS)]
            for cell in range(N_CELLS):
                if (mask >> cell) & 1:
                    around = neighbours_mask(cell) & ~mask
                    for other in range(N_CELLS):
                        if (around >> other) & 1 and s[S_BOARD + other] != 0:
                            a[base + RES_EXTRA] = other
                            break
                if a[base + RES_EXTRA] >= 0:
                    break


@jit  # compiled on its own: the loop calls it through a pointer (decision.py)
def policy(phase, s, p, w, seat, sp, rng, a, scratch):
    if phase == PH_CHOOSE:
        level = lowest_level_left(s, seat)
        target = nearest_target(s)
        choose_token(a, level, target)
        if power_of(s, p, seat, level) != CALLED_SHOT:
            a[A_CALLED] = -1.0
        aim_target(p, a, target)
    elif phase == PH_REAIM:
        aim_target(p, a, nearest_target(s))
    elif phase == PH_RELAUNCH_Q:
        a[A_YES] = 0.0 if s[tk(s[S_CUR], TK_RESULT)] == ON_CARDS else 1.0
    elif phase == PH_RESOLVE:
        first_choices(s, p, w, a)
