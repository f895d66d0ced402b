"""`economist`: cautious play plus the shop, by thresholds.

With a reserve of at least `missile_at` points it buys the missile (then an upgrade at
`upgrade_at`, the power-up at `power_up_at`), spending a whole turn on it. It fires the missile
from the reachable cell whose row is worth the most, once that row is worth `fire_missile_min`
points, and uses a charged power-up on the path cell that adds the most when that adds at least
`power_up_min` points; otherwise it plays like cautious (whose three parameters come first).
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, pl, reserve_points, set_cell
from sim.games.guardians.engine import line_of
from sim.games.guardians.moves import (
    destinations,
    missile_row,
    row_take,
    volley,
)
from sim.games.guardians.shop import buy_error
from sim.jit import jit
from strategies.guardians.cautious import (
    DANGER,
    RAID,
    best_cell,
    best_entry,
    cell_score,
    descent_penalty,
    place_column_flipping,
    scoring,
)
from strategies.guardians.common import opening, random_mine_row

PARAMS: dict[str, float] = {
    "danger_weight": 3.0,  # cautious's parameters
    "raid_penalty": 200.0,
    "exposure_weight": 8.0,
    "missile_at": 16.0,  # reserve (points) at which it buys the missile
    "upgrade_at": 16.0,  # reserve at which it buys an upgrade
    "power_up_at": 22.0,  # reserve at which it buys the power-up
    "fire_missile_min": 12.0,  # fire the missile at a row worth at least this
    "power_up_min": 3.0,  # use the power-up when it adds at least this many points
}
MISSILE_AT, UPGRADE_AT, POWER_UP_AT, FIRE_MIN, POWER_MIN = 3, 4, 5, 6, 7


@jit
def shopping(s, p, seat, sp):
    """What to buy this turn (BUY_NONE when nothing is due): a purchase is due once the
    reserve reaches its threshold and the price (a threshold below the price waits)."""
    reserve = reserve_points(s, p, seat)
    for kind in range(L.BUY_MISSILE, L.BUY_POWER_UP + 1):
        threshold = sp[MISSILE_AT + kind - L.BUY_MISSILE]  # the thresholds in BUY_* order
        if reserve >= threshold and buy_error(s, p, seat, kind, reserve) == L.OK:
            return kind
    return L.BUY_NONE


@jit
def best_missile_cell(s, p, seat, c0, r0, scratch):
    """The reachable cell whose missile row takes the most: (col, row, points); points -1 if
    the missile is illegal everywhere."""
    n = destinations(s, p, c0, r0, scratch)
    best, bc, br = -1, c0, r0
    home = s[at(c0, r0)]
    set_cell(s, c0, r0, L.EMPTY)  # the fighter leaves its cell (as the engine checks it)
    for k in range(n):
        c, r = scratch[2 * k], scratch[2 * k + 1]
        tr = missile_row(s, p, seat, c, r)
        if tr >= 0:
            v = row_take(s, p, tr)
            if v > best:
                best, bc, br = v, c, r
    set_cell(s, c0, r0, home)
    return bc, br, best


@jit
def best_power_up(s, p, seat, c0, r0, level, margins, sp, scratch):
    """The best (destination, power-up cell) pair: (dc, dr, pc, pr, score), score on the
    volley scale (2 per point)."""
    n = destinations(s, p, c0, r0, scratch)
    best = -1e300
    bdc, bdr, bpc, bpr = c0, r0, c0, r0
    for k in range(n):
        dc, dr = scratch[2 * k], scratch[2 * k + 1]
        base = cell_score(s, p, seat, dc, dr, level, margins, sp)
        steps, sc, sr = line_of(c0, r0, dc, dr)
        for i in range(steps + 1):
            pc, pr = c0 + i * sc, r0 + i * sr
            if pc == dc and pr == dr:
                v = cell_score(s, p, seat, dc, dr, 2 * level, margins, sp)
            elif pc == dc:
                continue  # the same column from another row: skip, hard to foresee
            else:
                value, _, empties, _ = volley(s, p, pc, pr, seat, level)
                v = base + float(value)
                if empties:
                    v -= descent_penalty(p, margins, pc, sp[DANGER], sp[RAID])
            if v > best:
                best, bdc, bdr, bpc, bpr = v, dc, dr, pc, pr
    return bdc, bdr, bpc, bpr, best


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if opening(phase, s, p, seat, sp, rng, a, scratch,
               place_column_flipping, random_mine_row, best_entry):  # fmt: skip
        return
    margins, level = scoring(s, p, seat, scratch)
    c0, r0 = a[L.A_DEST_COL], a[L.A_DEST_ROW]
    if shop_turn(s, p, seat, sp, a, scratch):
        return
    c, r, v = best_cell(s, p, seat, c0, r0, level, margins, sp, rng, seat + 1, scratch)
    a[L.A_DEST_COL], a[L.A_DEST_ROW] = c, r
    power_up_turn(s, p, seat, c0, r0, v, level, margins, sp, a, scratch)


@jit
def shop_turn(s, p, seat, sp, a, scratch):
    """The shop's say in a turn: buy what is due (an active fighter), else fire a held
    missile from the reachable cell whose row is worth the most, once that is worth
    fire_missile_min. True when this decided the turn (written into a)."""
    if s[pl(seat, L.PL_STATUS)] != L.ACTIVE:
        return False
    buy = shopping(s, p, seat, sp)
    if buy != 0:
        a[L.A_BUY] = buy
        return True
    if s[pl(seat, L.PL_MISSILE)] == L.HELD:
        c, r, v = best_missile_cell(s, p, seat, a[L.A_DEST_COL], a[L.A_DEST_ROW], scratch)
        if v >= sp[FIRE_MIN]:
            a[L.A_DEST_COL], a[L.A_DEST_ROW], a[L.A_MISSILE] = c, r, 1
            return True
    return False


@jit
def power_up_turn(s, p, seat, c0, r0, v, level, margins, sp, a, scratch):
    """With a charged power-up, replace the turn chosen (worth v on the volley scale) by the
    best (destination, power-up cell) pair from (c0, r0) when that adds power_up_min points
    (any gain when the power-up is permanent)."""
    if s[pl(seat, L.PL_POWER)] != L.CHARGED:
        return
    dc, dr, pc, pr, pv = best_power_up(s, p, seat, c0, r0, level, margins, sp, scratch)
    if pv - v >= 2.0 * sp[POWER_MIN] or (p[L.P_POWER_PERMANENT] and pv > v):
        a[L.A_DEST_COL], a[L.A_DEST_ROW], a[L.A_PU_COL], a[L.A_PU_ROW] = dc, dr, pc, pr
