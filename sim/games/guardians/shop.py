"""The shop: prices, what may be bought, paying (the cheapest way or the tokens named), and
the purchase itself."""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import kind_points, pl, reserve_points
from sim.jit import jit, jit_allocating, jit_inline

# --- paying ------------------------------------------------------------------------------


@jit_allocating
def cheapest_payment(s, p, seat, price, out):
    """Fill out[1..6] with the tokens to pay `price`: least overpayment, then fewest tokens,
    then keep the most high-valued tokens. Returns False if the reserve is worth too little.
    """
    for k in range(L.N_KINDS):
        out[k] = 0
    if price <= 0:
        return True
    if reserve_points(s, p, seat) < price:
        return False
    top = price + max(p[L.P_SHIP_POINTS], 5)  # a minimal overpayment is below price + max value
    big = 1 << 20
    # best[k, t]: fewest tokens of kinds 1..k summing to exactly t
    best = np.full((L.N_KINDS, top + 1), big, np.int64)
    best[0, 0] = 0
    for k in range(1, L.N_KINDS):
        v = kind_points(p, k)
        have = s[pl(seat, L.PL_RESERVE + k)]
        for t in range(top + 1):
            m = best[k - 1, t]
            j = 1
            while j <= have and j * v <= t:
                cand = best[k - 1, t - j * v] + j
                if cand < m:
                    m = cand
                j += 1
            best[k, t] = m
    total = -1
    for t in range(price, top + 1):
        if best[L.N_KINDS - 1, t] < big:
            total = t
            break
    if total < 0:
        return False
    # walk back from the most valuable kind, using as few of it as the optimum allows
    rem = total
    for k in range(L.N_KINDS - 1, 0, -1):
        v = kind_points(p, k)
        goal = best[k, rem]
        j = 0
        while best[k - 1, rem - j * v] + j != goal:
            j += 1
        out[k] = j
        rem -= j * v
    return True


@jit
def _named_payment_worth(s, p, seat, a):
    """Points of the tokens the action names to pay with (a[A_PAY + k]), or -1 if the
    reserve does not hold them."""
    worth = 0
    for k in range(1, L.N_KINDS):
        n = a[L.A_PAY + k]
        if n < 0 or n > s[pl(seat, L.PL_RESERVE + k)]:
            return -1
        worth += n * kind_points(p, k)
    return worth


@jit
def pay(s, p, seat, tokens):
    for k in range(1, L.N_KINDS):
        n = tokens[k]
        s[pl(seat, L.PL_RESERVE + k)] -= n
        s[L.S_BOX + k] += n
        s[pl(seat, L.PL_POINTS_PAID)] += n * kind_points(p, k)


# --- buying ------------------------------------------------------------------------------


@jit
def price_of(p, kind):
    if kind == L.BUY_MISSILE:
        return p[L.P_MISSILE_COST]
    if kind == L.BUY_UPGRADE:
        return p[L.P_UPGRADE_COST]
    return p[L.P_POWER_COST]


@jit
def buy_error(s, p, seat, kind, funds):
    """Whether `seat` may buy `kind` (BUY_*) with tokens worth `funds` points: the ruleset
    sells it, the seat is below its limit (one missile or power-up at a time, the top level)
    and the funds reach the price. OK, E_BUY_DISABLED, E_BUY_LIMIT or E_CANNOT_PAY."""
    if kind == L.BUY_MISSILE:
        if not p[L.P_MISSILE_ENABLED]:
            return L.E_BUY_DISABLED
        if s[pl(seat, L.PL_MISSILE)] != L.NONE:
            return L.E_BUY_LIMIT
    elif kind == L.BUY_UPGRADE:
        if not p[L.P_UPGRADE_ENABLED]:
            return L.E_BUY_DISABLED
        if s[pl(seat, L.PL_LEVEL)] >= p[L.P_MAX_LEVEL]:
            return L.E_BUY_LIMIT
    else:
        if not p[L.P_POWER_ENABLED]:
            return L.E_BUY_DISABLED
        if s[pl(seat, L.PL_POWER)] != L.NONE:
            return L.E_BUY_LIMIT
    return L.OK if funds >= price_of(p, kind) else L.E_CANNOT_PAY


@jit
def purchase_error(s, p, seat, a):
    """A purchase turn: it is the whole turn, standing still (GoS 225), and buy_error, paid
    the cheapest way or with the tokens the action names."""
    if a[L.A_DEST_COL] != s[pl(seat, L.PL_COL)] or a[L.A_DEST_ROW] != s[pl(seat, L.PL_ROW)]:
        return L.E_BUY_TAKES_TURN
    if a[L.A_MISSILE] or a[L.A_MINE] or a[L.A_PU_COL] >= 0:
        return L.E_BUY_TAKES_TURN
    if a[L.A_PAY_EXPLICIT]:
        err = buy_error(s, p, seat, a[L.A_BUY], _named_payment_worth(s, p, seat, a))
        return L.E_PAY_INVALID if err == L.E_CANNOT_PAY else err
    return buy_error(s, p, seat, a[L.A_BUY], reserve_points(s, p, seat))


@jit_allocating
def purchase_after_reentry_error(s, p, seat, a, c0):
    """A purchase on a re-entry turn, checked as if the fighter stood at (c0, 0) and had
    paid for its return already."""
    fee = np.zeros(L.N_KINDS, np.int64)
    cheapest_payment(s, p, seat, p[L.P_REENTRY_COST], fee)
    for k in range(1, L.N_KINDS):
        s[pl(seat, L.PL_RESERVE + k)] -= fee[k]
    row = s[pl(seat, L.PL_ROW)]  # where it was destroyed: left as it was
    s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)] = c0, 0
    err = purchase_error(s, p, seat, a)
    s[pl(seat, L.PL_COL)], s[pl(seat, L.PL_ROW)] = -1, row
    for k in range(1, L.N_KINDS):
        s[pl(seat, L.PL_RESERVE + k)] += fee[k]
    return err


@jit_inline
def buy_turn_error(s, p, seat, a):
    """Why `seat`'s purchase turn `a` is refused, or OK. A destroyed fighter buys as it comes
    back on column a[A_REENTER_COL], having paid its return first."""
    if s[pl(seat, L.PL_STATUS)] == L.DESTROYED:
        return purchase_after_reentry_error(s, p, seat, a, a[L.A_REENTER_COL])
    return purchase_error(s, p, seat, a)


@jit
def buy(s, p, seat, a, buf):
    kind = a[L.A_BUY]
    if a[L.A_PAY_EXPLICIT]:
        for k in range(L.N_KINDS):
            buf[k] = a[L.A_PAY + k] if k > 0 else 0
    else:
        cheapest_payment(s, p, seat, price_of(p, kind), buf)
    pay(s, p, seat, buf)
    if kind == L.BUY_MISSILE:
        s[pl(seat, L.PL_MISSILE)] = L.HELD
        s[pl(seat, L.PL_MISSILES_BOUGHT)] += 1
    elif kind == L.BUY_UPGRADE:
        s[pl(seat, L.PL_LEVEL)] += 1
        s[pl(seat, L.PL_UPGRADES_BOUGHT)] += 1
    else:
        s[pl(seat, L.PL_POWER)] = L.CHARGED
        s[pl(seat, L.PL_POWER_UPS_BOUGHT)] += 1
