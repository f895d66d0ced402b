"""Turns without a real choice: whether the seat to move can play its turn only one way, that
is, whatever it does leads to the same position.

The game loop asks before every decision and counts the answer per seat (the
`no_choice_turns` column). A destroyed fighter that cannot come back this turn (no free cell
in the bottom row, or a reserve below the fee: GoS 219) waits or is out whatever it says; one
that can, may decline. An active fighter has a choice as soon as it can end its move on a
second cell. Standing where it is, it has one when its turn may legally do something else
that changes the position: a purchase, its missile and its power-up always do (each is paid
for or spent); moving the mine does unless the shot ends the fighter's turn first or takes
the mine (the game over, the fighter destroyed, the mine shot: engine.play_turn then skips
the move), which the plain shot, played on a copy, shows. Whether a turn is legal is asked of
the turn itself, played on a copy (engine.play_turn refuses with engine.turn_error's code
before it changes anything, and returns OK otherwise). The check plays it through the loop's
pointer to the turn (kernel.TURN_TYPE), so that it compiles without the turn (and without
turn_error), as the loop does.
"""

import numpy as np
from numba import types

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, pl
from sim.games.guardians.decision import reset_action
from sim.games.guardians.engine import LINE_COL, LINE_ROW, can_reenter, lines
from sim.jit import jit, jit_inline

_PURCHASES = (L.BUY_MISSILE, L.BUY_UPGRADE, L.BUY_POWER_UP)


def choice_work() -> np.ndarray:
    """only_one_way's scratch (WORK_T): row 0 an action (its first ACTION_SIZE words), row 1
    a position."""
    return np.zeros((2, L.STATE_SIZE), np.int32)


WORK_T = types.Array(types.int32, 2, "C")


@jit_inline
def only_one_way(s, p, work, buf, turn):
    """Whether every way the seat to move may play its turn leads to the same position.
    `work`: choice_work()'s scratch, `buf`: int64[N_KINDS] (both overwritten), `turn`:
    engine.play_turn (the loop's pointer to it). Pasted into the game loop: the usual answer
    (the fighter can move) costs a look at its neighbours."""
    seat = s[L.S_TO_MOVE]
    status = s[pl(seat, L.PL_STATUS)]
    if status == L.DESTROYED:
        return not can_reenter(s, p, seat)
    if status != L.ACTIVE:
        return True
    c0, r0 = s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)]
    for d in range(lines(p)):  # a neighbouring cell on one of its lines is free: it can move
        c, r = c0 + LINE_COL[d], r0 + LINE_ROW[d]
        if 0 <= c < p[L.P_COLS] and 0 <= r < p[L.P_ROWS] and s[at(c, r)] == L.EMPTY:
            return False
    return _standing_still_one_way(s, p, seat, c0, r0, work, buf, turn)


@jit_inline
def _played(s, p, a, after, buf, turn):
    """Turn `a` played on `after`, a copy of `s`: OK, or engine.turn_error's refusal (the turn
    validates first). Rather than turn_error compiled again here (this path is rare)."""
    for i in range(L.STATE_SIZE):
        after[i] = s[i]
    return turn(after, p, a, buf)


@jit
def _standing_still_one_way(s, p, seat, c0, r0, work, buf, turn):
    """Whether a fighter that cannot move has nothing else to do that changes the position."""
    a, after = work[0], work[1]
    for kind in _PURCHASES:
        reset_action(s, seat, a)
        a[L.A_BUY] = kind
        if _played(s, p, a, after, buf, turn) == L.OK:
            return False
    reset_action(s, seat, a)
    a[L.A_MISSILE] = 1
    if _played(s, p, a, after, buf, turn) == L.OK:
        return False
    reset_action(s, seat, a)
    a[L.A_PU_COL], a[L.A_PU_ROW] = c0, r0
    if _played(s, p, a, after, buf, turn) == L.OK:
        return False
    reset_action(s, seat, a)
    a[L.A_MINE] = 1
    row = 0
    while _played(s, p, a, after, buf, turn) == L.E_MINE_REENTER_ROW and row < p[L.P_ROWS]:
        a[L.A_MINE_ROW] = row  # a re-entry row, only when the move needs one
        row += 1
    if _played(s, p, a, after, buf, turn) != L.OK:
        return True
    reset_action(s, seat, a)  # the plain shot, on a copy: is the mine still there to move?
    _played(s, p, a, after, buf, turn)
    return not (after[L.S_STATUS] == L.RUNNING and after[pl(seat, L.PL_STATUS)] == L.ACTIVE
                and after[L.S_MINE_ALIVE])  # fmt: skip
