"""`cautious`: greedy, but it minds the descents and its own fighter.

Each reachable cell is scored like greedy's (what its shots take) less a penalty for emptying
a column, which grows as the board's lowest invaders come nearer the planet (a descent that
would raid is avoided at almost any price), and less a penalty for ending the turn right below
an invader that the next descent would drop onto the fighter. It places and re-enters on the
cell from which the best such turn starts; it never buys and leaves the mine alone.
"""

from numpy import int64 as I64

from sim.games.guardians import layout as L
from sim.games.guardians.board import bottom_cell_free, pl
from sim.games.guardians.decision import SCRATCH_SIZE
from sim.games.guardians.moves import column_raid_margin, destinations, volley
from sim.jit import jit, jit_inline
from sim.random_streams import below
from strategies.guardians.common import better, opening, random_mine_row

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


@jit_inline
def scoring(s, p, seat, scratch):
    """What cell_score reads besides the cell: the columns' raid margins (worked out into
    scratch[MARGINS_AT:]) and the seat's level."""
    margins = scratch[MARGINS_AT:]
    raid_margins(s, p, margins)
    return margins, s[pl(seat, L.PL_LEVEL)]


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
    value, _, empties, above = volley(s, p, c, r, seat, level)
    return penalised(p, c, r, value, empties, above, margins, sp)


@jit_inline
def penalised(p, c, r, value, empties, above, margins, sp):
    """cell_score from the volley's (score, whether it empties column c, row of the first
    invader left above) out of (c, r)."""
    v = float(value)
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
        take, best, ties = better(v, best, ties, rng, slot)
        if take:
            best_k = k
    return scratch[2 * best_k], scratch[2 * best_k + 1], best


@jit
def best_entry(s, p, seat, sp, rng, slot, scratch):
    """The free bottom-row column from which the best turn starts (best_cell), or -1."""
    margins, level = scoring(s, p, seat, scratch)
    best, best_c = -1e300, -1
    for c in range(p[L.P_COLS]):
        if not bottom_cell_free(s, p, c):
            continue
        _, _, v = best_cell(s, p, seat, c, 0, level, margins, sp, rng, slot, scratch)
        if v > best:
            best, best_c = v, c
    return best_c


@jit
def best_bottom(s, p, seat, sp, rng, slot, scratch, coin):
    """The free bottom-row column with the best cell_score, or -1: the first among equals, or
    with `coin` a coin flip for each equal one met (the economist's placement)."""
    margins, level = scoring(s, p, seat, scratch)
    best, best_c = -1e300, -1
    for c in range(p[L.P_COLS]):
        if bottom_cell_free(s, p, c):
            v = cell_score(s, p, seat, c, I64(0), level, margins, sp)  # not a literal: one compile
            if v > best or (coin and v == best and below(rng, slot, 2) == 0):
                best, best_c = v, c
    return best_c


@jit
def place_column(s, p, seat, sp, rng, slot, scratch):
    """Where cautious (and the expert) places its fighter: best_bottom, the first among
    equals."""
    return best_bottom(s, p, seat, sp, rng, slot, scratch, False)


@jit
def place_column_flipping(s, p, seat, sp, rng, slot, scratch):
    """Where the economist places its fighter: best_bottom, a coin flip for each equal."""
    return best_bottom(s, p, seat, sp, rng, slot, scratch, True)


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if opening(phase, s, p, seat, sp, rng, a, scratch, place_column, random_mine_row, best_entry):
        return
    margins, level = scoring(s, p, seat, scratch)
    c, r, _ = best_cell(s, p, seat, a[L.A_DEST_COL], a[L.A_DEST_ROW], level, margins, sp, rng,
                        seat + 1, scratch)  # fmt: skip
    a[L.A_DEST_COL] = c
    a[L.A_DEST_ROW] = r
