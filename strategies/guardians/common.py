"""What Guardians strategies share: placement, the mine's start, re-entry, tie-breaking.

The interface itself (phases, the action's reset, the scratch buffer, the policy signature)
is the game's: sim/games/guardians/decision.py. See docs/strategies.md.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at
from sim.games.guardians.engine import can_reenter as can_reenter  # the rule, for strategies
from sim.games.guardians.rng import below
from sim.jit import jit


@jit
def random_empty_bottom(s, p, rng, slot):
    """A uniform empty bottom-row column, or -1."""
    n = 0
    for c in range(p[L.P_COLS]):
        if s[at(c, 0)] == L.EMPTY:
            n += 1
    if n == 0:
        return -1
    k = below(rng, slot, n)
    for c in range(p[L.P_COLS]):
        if s[at(c, 0)] == L.EMPTY:
            if k == 0:
                return c
            k -= 1
    return -1


@jit
def random_mine_row(s, p, rng, slot):
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


@jit
def stand_at(s, seat, a, c, r):
    """Let the rest of the decision see the fighter re-entered at (c, r)."""
    a[L.A_REENTER_COL] = c
    a[L.A_DEST_COL] = c
    a[L.A_DEST_ROW] = r
