"""Naive aimer: every token at the invader nearest the planet that none of this turn's tokens
is on yet (the leftmost of a row first), the UFO only when no invader is left. Launches its
lowest-level tokens first and uses each power in the plainest way: calls its target, takes
a re-launch after a miss, sends a blast wave to the first card it reaches and an extra hit
to the first neighbour, never redirects and never declares the three tries; takes every other
optional action the rules offer (re-launches, the heal, bonus shots at a UFO that can still
be hit)."""

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import lowest_bit, neighbours_mask, wave_reaches
from sim.games.space_invaders.engine import extra_cells, power_of, tk, wave_length
from sim.jit import jit, jit_inline
from strategies.space_invaders.common import (
    OPTION_PARAMS,
    UFO,
    aim_target,
    choose_token,
    lowest_level_left,
    take_option,
)

PARAMS = {"spread_scale": 1.0, **OPTION_PARAMS}
_OPTIONS = 1  # index of the first option parameter


@jit_inline
def nearest_target(s):
    """The invader nearest the planet not yet landed on this turn, else the UFO."""
    for row in range(L.ROWS - 1, -1, -1):
        for col in range(L.COLS):
            cell = row * L.COLS + col
            if s[L.S_BOARD + cell] != 0 and (s[L.S_TURN_LANDED] >> cell) & 1 == 0:
                return cell
    return UFO


@jit_inline
def first_choices(s, p, w, a):
    """Resolution: the first card a wave reaches, the first free neighbour as the extra."""
    for t in range(s[L.S_TOKENS]):
        power, result = s[tk(t, L.TK_POWER)], s[tk(t, L.TK_RESULT)]
        base = L.A_RES + t * L.RES_SIZE
        if result == L.MISS and (power == L.SHORT_WAVE or power == L.LONG_WAVE):
            for cell in range(L.N_CELLS):
                if s[L.S_BOARD + cell] != 0 and wave_reaches(
                    p, cell, w[L.W_X + t], w[L.W_Y + t], wave_length(p, power)
                ):
                    a[base + L.RES_WAVE] = cell
                    break
        elif result == L.ON_CARDS and power == L.EXTRA_ADJACENT:
            mask = s[tk(t, L.TK_CELLS)]
            allowed = extra_cells(s, mask)
            for cell in range(L.N_CELLS):  # the first card landed on with an invader beside it
                near = allowed & neighbours_mask(cell)
                if (mask >> cell) & 1 and near:
                    a[base + L.RES_EXTRA] = lowest_bit(near)
                    break


@jit  # compiled on its own: the loop calls it through a pointer (decision.py)
def policy(phase, s, p, w, seat, sp, rng, a, scratch):
    if phase == L.PH_CHOOSE:
        level = lowest_level_left(s, seat)
        target = nearest_target(s)
        choose_token(a, level, target)
        if power_of(s, p, seat, level) != L.CALLED_SHOT:
            a[L.A_CALLED] = -1.0
        aim_target(p, a, target)
    elif phase == L.PH_REAIM:
        aim_target(p, a, nearest_target(s))
    elif phase == L.PH_RELAUNCH_Q:
        a[L.A_YES] = 0.0 if s[tk(s[L.S_CUR], L.TK_RESULT)] == L.ON_CARDS else 1.0
    elif phase == L.PH_OPTION:
        a[L.A_TAKE] = 1.0 if take_option(s, p, sp, _OPTIONS, s[L.S_OPTION]) else 0.0
    elif phase == L.PH_RESOLVE:
        first_choices(s, p, w, a)
