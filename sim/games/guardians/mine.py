"""The mine: its move at the end of a turn, checked and played (GoS 153-161)."""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, is_invader, pl, remove_invader, set_cell, to_box
from sim.games.guardians.descent import check_victory
from sim.jit import jit, jit_inline


@jit_inline
def is_mine_space(p, r):
    """Whether row r of the mine's column is one of the spaces with a mine icon, where the mine
    starts and re-enters (GoS 79, 155)."""
    return p[L.P_MINE_ROW_FIRST] <= r <= p[L.P_MINE_ROW_LAST]


@jit_inline
def mine_step(p, c, r, reenter_row):
    """Where the mine on (c, r) goes in one step: one space right; off the right edge it comes
    back on the mine space `reenter_row` (GoS 155). Returns (col, row, wrapped)."""
    if c + 1 >= p[L.P_COLS]:
        return p[L.P_MINE_COL], reenter_row, True
    return c + 1, r, False


@jit
def mine_error(s, p, seat, a, fc, fr):
    """The mine move, with the mover's fighter at (fc, fr) instead of where it stands now."""
    if not s[L.S_MINE_ALIVE]:
        return L.E_MINE_NONE
    c, r = s[L.S_MINE_COL], s[L.S_MINE_ROW]
    for _ in range(p[L.P_MINE_STEP]):
        c, r, wrapped = mine_step(p, c, r, a[L.A_MINE_ROW])
        if wrapped and not is_mine_space(p, r):
            return L.E_MINE_REENTER_ROW
        v = s[at(c, r)]
        if (c == fc and r == fr) or (v >= L.FIGHTER and v != L.FIGHTER + seat):
            return L.E_MINE_INTO_FIGHTER
        if is_invader(v) or wrapped:
            return L.OK  # it explodes, or has re-entered: the move ends
    return L.OK


@jit
def move_mine(s, p, seat, reenter_row):
    """The mine moves right; off the edge it re-enters; into an invader it explodes."""
    c, r = s[L.S_MINE_COL], s[L.S_MINE_ROW]
    for _ in range(p[L.P_MINE_STEP]):
        set_cell(s, c, r, L.EMPTY)
        c, r, wrapped = mine_step(p, c, r, reenter_row)
        if is_invader(s[at(c, r)]):
            to_box(s, s[at(c, r)])
            if remove_invader(s, c, r) and p[L.P_DESCENT_ON_MINE]:
                s[L.S_EMPTIED] = 1
            s[L.S_MINE_ALIVE] = 0
            s[pl(seat, L.PL_MINE_EXPLOSIONS)] += 1
            break
        set_cell(s, c, r, L.MINE)
        if wrapped:
            break
    s[L.S_MINE_COL], s[L.S_MINE_ROW] = c, r
    check_victory(s, p)
