"""`miner`: greedy's turn plus one step, the mine played actively.

After greedy's move and shot (greedy's own decision) it moves the mine when the step explodes an
invader in the lowest rows of the board (within `explode_rows` of the lowest invader) or puts
the mine right under a column whose lowest invader is at most `block_gap` rows above it (nearer
than over the mine's present column), so that the next descent there hits the mine instead of
the planet. Off the right edge it re-enters on the mine space that explodes or blocks best.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, is_invader, pl
from sim.games.guardians.decision import MINE_START, TURN
from sim.games.guardians.engine import turn_error
from sim.games.guardians.mine import mine_step
from sim.games.guardians.moves import descents_to_raid, front_row, lowest_invader_row
from sim.jit import jit, jit_inline
from strategies.guardians import greedy

PARAMS: dict[str, float] = {
    "explode_rows": 1.0,  # explode an invader at most this many rows above the lowest one
    "block_gap": 2.0,  # block a column whose lowest invader is at most this far above
}
EXPLODE_ROWS, BLOCK_GAP = 0, 1


@jit
def cell_mine_value(s, p, c, r, sp):
    """How good it is for the mine to step onto (c, r): 2 for an explosion worth making,
    1 + closeness for a block, 0 for nothing useful, -1 if it may not go there."""
    v = s[at(c, r)]
    if v != L.EMPTY and not is_invader(v):
        return -1.0  # a fighter (or the mine's own cell)
    if is_invader(v):
        if r - front_row(s, p) <= sp[EXPLODE_ROWS]:
            if p[L.P_DESCENT_ON_MINE] and lowest_invader_row(s, p, c) == r:
                # the explosion may empty the column: a descent
                n = 0
                for rr in range(p[L.P_ROWS]):
                    if is_invader(s[at(c, rr)]):
                        n += 1
                if n == 1 and descents_to_raid(s, p) <= 1:
                    return 0.0
            return 2.0
        return 0.0
    low = lowest_invader_row(s, p, c)
    if low > r and low - r <= sp[BLOCK_GAP]:
        return 1.0 + 1.0 / (low - r)
    return 0.0


@jit
def mine_choice(s, p, sp):
    """(move?, re-entry row) for the mine, judged on the board as it is now."""
    if not s[L.S_MINE_ALIVE]:
        return False, -1
    mc, mr = s[L.S_MINE_COL], s[L.S_MINE_ROW]
    here_low = lowest_invader_row(s, p, mc)
    here = 1.0 + 1.0 / (here_low - mr) if here_low > mr and here_low - mr <= sp[BLOCK_GAP] else 0.0
    c, r, wraps = mine_step(p, mc, mr, -1)
    if not wraps:
        v = cell_mine_value(s, p, c, r, sp)
        return v >= 2.0 or (v > here and v > 0.0), -1
    best, best_r = 0.0, -1
    for r in range(p[L.P_MINE_ROW_FIRST], p[L.P_MINE_ROW_LAST] + 1):  # the mine spaces
        v = cell_mine_value(s, p, c, r, sp)
        if v > best:
            best, best_r = v, r
    if best_r >= 0 and (best >= 2.0 or best > here):
        return True, best_r
    return False, -1


@jit
def start_row(s, p, seat, sp, rng, slot, scratch):
    """The mine's start: the mine space right below the lowest invader of its column, or the
    nearest free one below that, or the first."""
    c = p[L.P_MINE_COL]
    low = lowest_invader_row(s, p, c)
    r = min(max(low - 1, p[L.P_MINE_ROW_FIRST]), p[L.P_MINE_ROW_LAST])
    while r >= p[L.P_MINE_ROW_FIRST] and s[at(c, r)] != L.EMPTY:
        r -= 1
    return r if r >= p[L.P_MINE_ROW_FIRST] else p[L.P_MINE_ROW_FIRST]


@jit_inline
def step_mine(s, p, seat, sp, a):
    """Add the mine's step to the turn `a` when mine_choice finds it worth making and the turn
    stays legal (engine.turn_error)."""
    move, row = mine_choice(s, p, sp)
    if move and (s[pl(seat, L.PL_STATUS)] == L.ACTIVE or a[L.A_REENTER_COL] >= 0):
        a[L.A_MINE], a[L.A_MINE_ROW] = 1, row
        if turn_error(s, p, a) != L.OK:
            a[L.A_MINE], a[L.A_MINE_ROW] = 0, -1


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    """Greedy's decision, then the mine's step; the mine starts where start_row says."""
    if phase == MINE_START:
        a[L.A_MINE_ROW] = start_row(s, p, seat, sp, rng, seat + 1, scratch)
        return
    greedy.policy(phase, s, p, seat, sp, rng, a, scratch)  # called: compiled once, not again here
    if phase == TURN:
        step_mine(s, p, seat, sp, a)
