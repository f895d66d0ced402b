"""Turns without a real choice: whether the seat to move can play its turn only one way, that
is, whatever it does leads to the same position.

The game loop asks before every decision and counts the answer per seat (the
`no_choice_turns` column). A destroyed fighter that cannot come back this turn (no free cell
in the bottom row, or a reserve below the fee: GoS 219) waits or is out whatever it says; one
that can, may decline. An active fighter has a choice as soon as it can end its move on a
second cell. Standing where it is, each other thing a turn may do (a purchase, its missile,
its power-up, moving the mine) is played on a copy of the position by the turn's own rules
(engine.play_turn) and compared with the plain shot: a legal move the rules then leave
without effect (the mine, when the shot ended the fighter's turn) is no choice.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, pl
from sim.games.guardians.decision import reset_action
from sim.games.guardians.engine import LINE_COL, LINE_ROW, can_reenter, lines, play_turn
from sim.jit import jit

_PURCHASES = (L.BUY_MISSILE, L.BUY_UPGRADE, L.BUY_POWER_UP)


def choice_work() -> np.ndarray:
    """only_one_way's scratch: row 0 an action (its first ACTION_SIZE words), rows 1 and 2
    positions."""
    return np.zeros((3, L.STATE_SIZE), np.int32)


@jit
def _copy(s, into):
    for i in range(L.STATE_SIZE):
        into[i] = s[i]


@jit
def _differs(s, p, a, plain, trial, buf):
    """Whether turn `a` is legal and leads to another position than `plain`'s."""
    _copy(s, trial)
    if play_turn(trial, p, a, buf) != L.OK:
        return False
    for i in range(L.HASHED_SIZE):
        if trial[i] != plain[i]:
            return True
    return False


@jit
def _can_move(s, p, c0, r0):
    """Whether a fighter at (c0, r0) may end its move on another cell: a neighbouring cell
    along one of its lines is on the board and empty."""
    for d in range(lines(p)):
        c, r = c0 + LINE_COL[d], r0 + LINE_ROW[d]
        if 0 <= c < p[L.P_COLS] and 0 <= r < p[L.P_ROWS] and s[at(c, r)] == L.EMPTY:
            return True
    return False


@jit
def only_one_way(s, p, work, buf):
    """Whether every way the seat to move may play its turn leads to the same position.
    `work`: choice_work()'s scratch, `buf`: int64[N_KINDS] (both overwritten)."""
    seat = s[L.S_TO_MOVE]
    status = s[pl(seat, L.PL_STATUS)]
    if status == L.DESTROYED:
        return not can_reenter(s, p, seat)
    if status != L.ACTIVE:
        return True
    c0, r0 = s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)]
    if _can_move(s, p, c0, r0):
        return False
    a, plain, trial = work[0], work[1], work[2]
    reset_action(s, seat, a)  # the plain shot where it stands
    _copy(s, plain)
    play_turn(plain, p, a, buf)
    for kind in _PURCHASES:
        reset_action(s, seat, a)
        a[L.A_BUY] = kind
        if _differs(s, p, a, plain, trial, buf):
            return False
    reset_action(s, seat, a)
    a[L.A_MISSILE] = 1
    if _differs(s, p, a, plain, trial, buf):
        return False
    reset_action(s, seat, a)
    a[L.A_PU_COL], a[L.A_PU_ROW] = c0, r0
    if _differs(s, p, a, plain, trial, buf):
        return False
    for row in range(-1, p[L.P_ROWS]):  # the mine, re-entering on any row
        reset_action(s, seat, a)
        a[L.A_MINE], a[L.A_MINE_ROW] = 1, row
        if _differs(s, p, a, plain, trial, buf):
            return False
    return True
