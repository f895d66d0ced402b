"""What Guardians strategies share: the opening every policy plays alike (where the fighter is
placed, where the mine starts, coming back after a destruction), the draw among equal choices,
and standing where the fighter comes back.

A chooser names a bottom-row column or a mine row: `chooser(s, p, seat, sp, rng, slot,
scratch)`. A policy hands its choosers to `opening`, which plays those phases the same way for
every strategy (its random draws in one order), and decides the rest of the turn itself.

The interface itself (phases, the action's reset, the scratch buffer, the policy signature)
is the game's: sim/games/guardians/decision.py. See docs/games/guardians/strategies.md.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, bottom_cell_free, pl
from sim.games.guardians.decision import MINE_START, PLACE
from sim.games.guardians.engine import can_reenter
from sim.jit import jit, jit_inline
from sim.random_streams import below


@jit_inline
def opening(phase, s, p, seat, sp, rng, a, scratch, place, mine_row, entry):
    """The phases every strategy plays alike. PLACE: the column `place` chooses; MINE_START:
    the row `mine_row` chooses; a destroyed fighter comes back on the column `entry` chooses,
    or, when it may not (engine.can_reenter), leaves the turn as it is (it waits for room, or
    is out). True when that decided the whole turn."""
    if setup_phase(phase, s, p, seat, sp, rng, a, scratch, place, mine_row) or waiting(s, p, seat):
        return True
    if s[pl(seat, L.PL_STATUS)] == L.DESTROYED:
        stand_at(s, seat, a, entry(s, p, seat, sp, rng, seat + 1, scratch), 0)
    return False


@jit_inline
def setup_phase(phase, s, p, seat, sp, rng, a, scratch, place, mine_row):
    """PLACE and MINE_START: write what `place` or `mine_row` chooses; True for those phases."""
    if phase == PLACE:
        a[L.A_DEST_COL] = place(s, p, seat, sp, rng, seat + 1, scratch)
        return True
    if phase == MINE_START:
        a[L.A_MINE_ROW] = mine_row(s, p, seat, sp, rng, seat + 1, scratch)
        return True
    return False


@jit_inline
def waiting(s, p, seat):
    """A destroyed fighter that may not come back this turn: its turn is the default one."""
    return s[pl(seat, L.PL_STATUS)] == L.DESTROYED and not can_reenter(s, p, seat)


@jit
def stand_at(s, seat, a, c, r):
    """Let the rest of the decision see the fighter re-entered at (c, r)."""
    a[L.A_REENTER_COL] = c
    a[L.A_DEST_COL] = c
    a[L.A_DEST_ROW] = r


@jit_inline
def better(v, best, ties, rng, slot):
    """Whether the choice worth v replaces the best so far (worth `best`, `ties` of them):
    a better one always, an equal one with chance 1/ties, so that the choice is uniform among
    the best (reservoir sampling, one draw per equal). Returns (take, best, ties)."""
    if v > best:
        return True, v, 1
    if v == best:
        ties += 1
        return below(rng, slot, ties) == 0, best, ties
    return False, best, ties


# --- choosers ----------------------------------------------------------------------------


@jit
def random_empty_bottom(s, p, seat, sp, rng, slot, scratch):
    """A uniform free bottom-row column, or -1."""
    n = 0
    for c in range(p[L.P_COLS]):
        if bottom_cell_free(s, p, c):
            n += 1
    if n == 0:
        return -1
    k = below(rng, slot, n)
    for c in range(p[L.P_COLS]):
        if bottom_cell_free(s, p, c):
            if k == 0:
                return c
            k -= 1
    return -1


@jit
def random_mine_row(s, p, seat, sp, rng, slot, scratch):
    """A uniform mine space not holding anything, or the first mine row."""
    first, last = p[L.P_MINE_ROW_FIRST], p[L.P_MINE_ROW_LAST]
    n = 0
    for r in range(first, last + 1):
        if s[at(p[L.P_MINE_COL], r)] == L.EMPTY:
            n += 1
    if n == 0:
        return first
    k = below(rng, slot, n)
    for r in range(first, last + 1):
        if s[at(p[L.P_MINE_COL], r)] == L.EMPTY:
            if k == 0:
                return r
            k -= 1
    return first
