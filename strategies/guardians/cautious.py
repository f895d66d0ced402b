"""`cautious`: greedy, but it minds the descents and its own fighter.

Each reachable cell is scored like greedy's (what its shots take) less a penalty for emptying
a column, which grows as the board's lowest invaders come nearer the planet (a descent that
would raid is avoided at almost any price), and less a penalty for ending the turn right below
an invader that the next descent would drop onto the fighter. It places and re-enters on the
cell from which the best such turn starts; it never buys and leaves the mine alone.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, pl
from sim.games.guardians.decision import MINE_START, PLACE, SCRATCH_SIZE
from sim.games.guardians.moves import column_raid_margin, destinations, volley_effect, volley_value
from sim.games.guardians.rng import below
from sim.jit import jit
from strategies.guardians.common import can_reenter, random_mine_row, stand_at

NAME = "cautious"
PARAMS: dict[str, float] = {
    "danger_weight": 3.0,  # penalty of a descent with 4 descents to spare (doubles per row)
    "raid_penalty": 200.0,  # penalty of a descent that raids (everybody loses)
    "exposure_weight": 8.0,  # penalty of standing right below an invader after the turn
}
DANGER, RAID, EXPOSURE = 0, 1, 2
_BIG = 1 << 30
MARGINS_AT = SCRATCH_SIZE - L.MAX_COLS  # scratch[MARGINS_AT:] holds the columns' raid margins


@jit
def raid_margins(s, p, out):
    """out[c] = column_raid_margin of column c; returns the smallest."""
    best = _BIG
    for c in range(p[L.P_COLS]):
        out[c] = column_raid_margin(s, p, c)
        if out[c] < best:
            best = out[c]
    return best


@jit
def descent_penalty(p, margins, c, danger_weight, raid_penalty):
    """Penalty of a descent caused by emptying column c: depends on the other columns'
    margins (column c is empty afterwards)."""
    d = _BIG
    for cc in range(p[L.P_COLS]):
        if cc != c and margins[cc] < d:
            d = margins[cc]
    if d >= _BIG:
        return 0.0  # the board is clear otherwise
    if d <= 1:
        return raid_penalty
    return danger_weight * 2.0 ** (4 - d)


@jit
def cell_score(s, p, seat, c, r, level, margins, sp):
    """Greedy's volley score from (c, r) (2 per point, 1 per hit), less the descent penalty
    and the exposure penalty. sp: the first three parameters are cautious's."""
    v = float(volley_value(s, p, c, r, seat, level))
    removed, empties, above = volley_effect(s, p, c, r, seat, level)
    if empties:
        v -= descent_penalty(p, margins, c, sp[DANGER], sp[RAID])
    if above == r + 1:
        v -= sp[EXPOSURE]
    elif above == r + 2:
        v -= 0.25 * sp[EXPOSURE]
    return v


@jit
def best_cell(s, p, seat, c0, r0, level, margins, sp, rng, slot, scratch):
    """The reachable cell with the best cell_score (random among ties): (col, row, score)."""
    n = destinations(s, p, c0, r0, scratch)
    best, best_k, ties = -1e300, 0, 0
    for k in range(n):
        v = cell_score(s, p, seat, scratch[2 * k], scratch[2 * k + 1], level, margins, sp)
        if v > best:
            best, best_k, ties = v, k, 1
        elif v == best:
            ties += 1
            if below(rng, slot, ties) == 0:
                best_k = k
    return scratch[2 * best_k], scratch[2 * best_k + 1], best


@jit
def best_entry(s, p, seat, level, margins, sp, rng, slot, scratch):
    """The empty bottom-row column from which the best turn starts, or -1."""
    best, best_c = -1e300, -1
    for c in range(p[L.P_COLS]):
        if s[at(c, 0)] != L.EMPTY:
            continue
        _, _, v = best_cell(s, p, seat, c, 0, level, margins, sp, rng, slot, scratch)
        if v > best:
            best, best_c = v, c
    return best_c


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    slot = seat + 1
    margins = scratch[MARGINS_AT:]
    raid_margins(s, p, margins)
    level = s[pl(seat, L.PL_LEVEL)]
    if phase == PLACE:
        best, best_c = -1e300, -1
        for c in range(p[L.P_COLS]):
            if s[at(c, 0)] == L.EMPTY:
                v = cell_score(s, p, seat, c, 0, level, margins, sp)
                if v > best:
                    best, best_c = v, c
        a[L.A_DEST_COL] = best_c
        return
    if phase == MINE_START:
        a[L.A_MINE_ROW] = random_mine_row(s, p, rng, slot)
        return
    if s[pl(seat, L.PL_STATUS)] == L.DESTROYED:
        if not can_reenter(s, p, seat):
            return
        stand_at(s, seat, a, best_entry(s, p, seat, level, margins, sp, rng, slot, scratch), 0)
    c, r, _ = best_cell(s, p, seat, a[L.A_DEST_COL], a[L.A_DEST_ROW], level, margins, sp, rng, slot,
                        scratch)  # fmt: skip
    a[L.A_DEST_COL] = c
    a[L.A_DEST_ROW] = r
