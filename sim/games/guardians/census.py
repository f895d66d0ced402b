"""Checking mode: every token accounted for once (tests and traced games)."""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, is_invader, occupancy_of, pl, token_kind
from sim.jit import jit_allocating


@jit_allocating
def census_ok(s, p):
    """Every token is on the board, in the pile, beside the board, in a reserve or in the
    box, once; fighters, the mine, the running counts and the occupancy index agree with the
    board. For games started by new_game (a scenario's box is not tracked)."""
    counts = np.zeros(L.N_KINDS, np.int64)
    fighters = np.zeros(L.MAX_PLAYERS, np.int64)  # per seat: cells showing its fighter
    mines = 0
    invaders = 0
    for c in range(L.MAX_COLS):
        if occupancy_of(s, c) != s[L.S_OCCUPIED + c]:
            return False
    for c in range(p[L.P_COLS]):
        in_col = 0
        for r in range(p[L.P_ROWS]):
            v = s[at(c, r)]
            if is_invader(v):
                counts[token_kind(v)] += 1
                in_col += 1
            elif v == L.MINE:
                mines += 1
            elif v >= L.FIGHTER:
                seat = v - L.FIGHTER
                fighters[seat] += 1
                if s[pl(seat, L.PL_COL)] != c or s[pl(seat, L.PL_ROW)] != r:
                    return False
        if in_col != s[L.S_COL_COUNT + c]:
            return False
        invaders += in_col
    if invaders != s[L.S_INVADERS] or mines != s[L.S_MINE_ALIVE]:
        return False
    for i in range(s[L.S_PILE_TOP], s[L.S_PILE_LEN]):
        counts[token_kind(s[L.S_PILE + i])] += 1
    counts[L.KIND_SHIP] += s[L.S_ASIDE_L] + s[L.S_ASIDE_R] + 2 * s[L.S_ASIDE_SHIPS]
    for k in range(1, L.N_KINDS):
        counts[k] += s[L.S_BOX + k]
        for seat in range(s[L.S_N_PLAYERS]):
            counts[k] += s[pl(seat, L.PL_RESERVE + k)]
    for k in range(1, 6):
        if counts[k] != p[L.P_MONSTERS + k - 1]:
            return False
    if counts[L.KIND_SHIP] != 2 * p[L.P_SHIPS]:
        return False
    for seat in range(s[L.S_N_PLAYERS]):
        if fighters[seat] != (1 if s[pl(seat, L.PL_STATUS)] == L.ACTIVE else 0):
            return False
    return True
