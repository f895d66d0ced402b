"""Compiled helpers for strategies: legal destinations, what a shot from a cell would take.

Strategies read the state through these and the public fields of layout; they never read the
pile region (its order is hidden information); `pile_counts` gives what a player may know.
What a shot, a steal or the missile takes is the rule modules' own answer (shots.shot_take,
stolen_kind, missile_take, missile_error), so a prediction here cannot drift from the turn.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import (
    at,
    first_object_row,
    is_invader,
    kind_points,
    pl,
    reserve_points,
)
from sim.games.guardians.engine import LINE_COL, LINE_ROW, lines
from sim.games.guardians.shots import missile_error, missile_take, shot_take, stolen_kind
from sim.jit import jit, jit_allocating, jit_inline


@jit
def destinations(s, p, c0, r0, out):
    """Write the cells a fighter at (c0, r0) may end its move on, its own cell first, as
    (col, row) pairs into out (int64[2 * cells]); return how many."""
    out[0], out[1] = c0, r0
    n = 1
    cols, rows = p[L.P_COLS], p[L.P_ROWS]
    for d in range(lines(p)):
        c, r = c0 + LINE_COL[d], r0 + LINE_ROW[d]
        while 0 <= c < cols and 0 <= r < rows and s[at(c, r)] == L.EMPTY:
            out[2 * n], out[2 * n + 1] = c, r
            n += 1
            c += LINE_COL[d]
            r += LINE_ROW[d]
    return n


@jit_inline
def steal_points(s, p, victim):
    """Points a shot at `victim`'s fighter would take (shots.stolen_kind)."""
    return kind_points(p, stolen_kind(s, p, victim))


@jit
def shot_value(s, p, c, r, seat):
    """Points the next shot from (c, r) takes (a steal counts its token), ignoring descents.
    An intact half scores 0 but is a hit; returns (points, hit)."""
    tr = first_object_row(s, p, c, r)
    if tr < 0:
        return 0, False
    return hit_value(s, p, s[at(c, tr)], seat)


@jit_inline
def hit_value(s, p, v, seat):
    """shot_value of a shot that meets the object v: (points, hit)."""
    if v == L.MINE:
        return 0, False
    if v >= L.FIGHTER:
        return (steal_points(s, p, v - L.FIGHTER), True) if v != L.FIGHTER + seat else (0, False)
    return kind_points(p, shot_take(v)), True


# what the first shot from a cell hits (first_shots)
HITS_NOTHING, HITS_INVADER, HITS_FIGHTER, HITS_MINE = 0, 1, 2, 3


@jit
def first_shots(s, p, seat, c0, r0, out):
    """For each cell a fighter at (c0, r0) may end its move on (destinations' order), write
    (col, row, points of the first shot there, what it hits: HITS_*) into out (int64[4 *
    cells]); return how many cells."""
    n = destinations(s, p, c0, r0, out)
    for k in range(n - 1, -1, -1):  # spread the pairs out from the back, in place
        c, r = out[2 * k], out[2 * k + 1]
        points, _ = shot_value(s, p, c, r, seat)
        tr = first_object_row(s, p, c, r)
        v = s[at(c, tr)] if tr >= 0 else L.EMPTY
        hits = HITS_NOTHING
        if v == L.MINE:
            hits = HITS_MINE
        elif v >= L.FIGHTER:
            hits = HITS_FIGHTER if v != L.FIGHTER + seat else HITS_NOTHING
        elif v != L.EMPTY:
            hits = HITS_INVADER
        out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3] = c, r, points, hits
    return n


@jit
def pile_counts(s, out):
    """Public knowledge of the pile: how many tokens of each kind are left (out[1..6])."""
    for k in range(L.N_KINDS):
        out[k] = 0
    for i in range(s[L.S_PILE_TOP], s[L.S_PILE_LEN]):
        t = s[L.S_PILE + i]
        out[t if t <= 5 else L.KIND_SHIP] += 1


@jit
def lowest_invader_row(s, p, c):
    """Row of the lowest invader in column c, or -1."""
    return invader_above(s, p, c, -1)


@jit_inline
def invader_above(s, p, c, r):
    """Row of the first invader above (c, r), or -1 (r may be -1: from below the board).
    It steps from object to object up the occupancy word, and not at all in a column
    without invaders."""
    if s[L.S_COL_COUNT + c] == 0:
        return -1
    q = first_object_row(s, p, c, r)
    while q >= 0 and not is_invader(s[at(c, q)]):
        q = first_object_row(s, p, c, q)
    return q


# --- added for the stronger strategies (cautious, economist, miner, thief, expert) ---------


@jit_allocating
def public_copy(s, out):
    """Copy the state s into out with the pile rewritten in a canonical order that depends only
    on how many tokens of each kind are left (public knowledge), so that a strategy may play
    turns on out (reinforcements included) without using the hidden order. The canonical
    order spreads every kind evenly over the pile (largest deficit first)."""
    out[:] = s
    cnt = np.zeros(8, np.int64)  # 1..5 monsters, 6 left halves, 7 right halves
    for i in range(s[L.S_PILE_TOP], s[L.S_PILE_LEN]):
        cnt[s[L.S_PILE + i]] += 1
    n = s[L.S_PILE_LEN] - s[L.S_PILE_TOP]
    placed = np.zeros(8, np.int64)
    for i in range(n):
        best, best_k = -(1 << 62), 1
        for k in range(1, 8):
            if placed[k] < cnt[k]:
                deficit = cnt[k] * (i + 1) - placed[k] * n
                if deficit > best:
                    best, best_k = deficit, k
        out[L.S_PILE + i] = best_k
        placed[best_k] += 1
    for i in range(n, L.S_PILE_TOP - L.S_PILE):
        out[L.S_PILE + i] = 0
    out[L.S_PILE_TOP] = 0
    out[L.S_PILE_LEN] = n


@jit
def restore_public(base, out):
    """Copy a public copy `base` (from public_copy) back into out, skipping the pile region,
    which playing turns never writes (only S_PILE_TOP moves): out must have been a full copy
    of base once (out[:] = base) before the first restore. Unsigned indices spare numba's
    check for negative ones, which kept LLVM from turning the loops into block copies (a
    tenth of the time)."""
    for i in range(np.uint64(L.S_PILE)):
        out[i] = base[i]
    for i in range(np.uint64(L.S_PILE_TOP), np.uint64(base.shape[0])):
        out[i] = base[i]


@jit
def copy_state(src, out):
    """out[:] = src, as a block copy (unsigned indices: see restore_public)."""
    for i in range(np.uint64(src.shape[0])):
        out[i] = src[i]


@jit
def front_row(s, p):
    """The lowest row holding an invader, or P_ROWS when the board is clear."""
    front = p[L.P_ROWS]
    for c in range(p[L.P_COLS]):
        low = invader_above(s, p, c, -1)
        if 0 <= low < front:
            front = low
    return front


@jit
def column_raid_margin(s, p, c):
    """How many descents in a row (no shot between) column c survives before its invaders
    raid: the rows its lowest invader can still fall, plus one for each fighter or the mine
    below it (each stops one invader and is destroyed). 1 << 30 for a column without invaders.
    """
    low = invader_above(s, p, c, -1)
    if low < 0:
        return 1 << 30
    # every object below the lowest invader is a blocker (a fighter or the mine); with
    # raid.on_collision, a blocker in the bottom row no longer stops the raid
    below = s[L.S_OCCUPIED + c] & ((1 << low) - 1)
    if p[L.P_RAID_ENTER_BOTTOM] and p[L.P_RAID_ON_COLLISION]:
        below &= ~1
    blockers = 0
    while below:
        below &= below - 1
        blockers += 1
    # below_bottom: the invader in row 0 raids on the next descent (low + 1 descents);
    # enter_bottom: entering row 0 raids (low descents)
    return low + (0 if p[L.P_RAID_ENTER_BOTTOM] else 1) + blockers


@jit
def descents_to_raid(s, p):
    """The smallest column_raid_margin over the columns: the descents the board survives."""
    best = 1 << 30
    for c in range(p[L.P_COLS]):
        d = column_raid_margin(s, p, c)
        if d < best:
            best = d
    return best


@jit_inline
def volley(s, p, c, r, seat, shots):
    """`shots` shots from (c, r) up column c, descents and steals' effects ignored: each hits
    the first object up the column; an invader hit is gone, so the next shot goes further, a
    fighter or the mine stays and takes the later shots too. Returns (score: 2 per point taken,
    +1 per hit, so that a hit worth nothing beats a miss; invaders removed; whether that
    empties the column; row of the first invader left above (c, r), or -1)."""
    total, removed, above = volley_up(s, p, c, r, seat, shots)
    return total, removed, empties_column(s, c, removed), above


@jit_inline
def volley_up(s, p, c, r, seat, shots):
    """volley without its question about the column: (score, invaders removed, row of the
    first invader left above). It depends on r only through the first object above (c, r)."""
    total = 0
    removed = 0
    rr = r
    for shot in range(shots):
        tr = first_object_row(s, p, c, rr)
        if tr < 0:
            break
        v = s[at(c, tr)]
        pts, hit = hit_value(s, p, v, seat)
        if v >= L.FIGHTER or v == L.MINE:  # it stays: every shot left hits it again
            total += (shots - shot) * (2 * pts + (1 if hit else 0))
            break
        total += 2 * pts + (1 if hit else 0)
        removed += 1
        rr = tr
    return total, removed, invader_above(s, p, c, rr)


@jit_inline
def empties_column(s, c, removed):
    """Whether taking `removed` invaders off column c leaves it without any (a descent)."""
    return removed > 0 and removed == s[L.S_COL_COUNT + c]


@jit_inline
def volley_value(s, p, c, r, seat, shots):
    """volley's score alone. Its callers pass literals, int32 and int64 in several mixes, each
    a compile of the whole volley (three in the expert): widened here, `_volley_value` is
    compiled once."""
    return _volley_value(s, p, np.int64(c), np.int64(r), np.int64(seat), np.int64(shots))


@jit
def _volley_value(s, p, c, r, seat, shots):
    total, _, _, _ = volley(s, p, c, r, seat, shots)
    return total


@jit
def volley_effect(s, p, c, r, seat, shots):
    """volley's effect on the column alone: (invaders removed, whether that empties the
    column, row of the first invader left above (c, r) or -1)."""
    _, removed, empties, above = volley(s, p, c, r, seat, shots)
    return removed, empties, above


@jit
def row_take(s, p, tr):
    """Points a missile taking row tr would collect (shots.missile_take)."""
    total = 0
    for c in range(p[L.P_COLS]):
        total += kind_points(p, missile_take(s[at(c, tr)]))
    return total


@jit
def missile_row(s, p, seat, c, r):
    """Row the missile fired from (c, r) would take, or -1 if it is illegal there
    (shots.missile_error). The fighter is taken to stand at (c, r)."""
    if missile_error(s, p, seat, c, r) != L.OK:
        return -1
    return first_object_row(s, p, c, r)


@jit
def leader_seat(s, p, seat):
    """The other seat still in the game with the highest reserve (lowest seat on ties), or -1."""
    best, who = -1, -1
    for k in range(s[L.S_N_PLAYERS]):
        if k == seat or s[pl(k, L.PL_STATUS)] == L.OUT:
            continue
        v = reserve_points(s, p, k)
        if v > best:
            best, who = v, k
    return who
