"""Optional steps a captain may take outside a phase's own decisions: cashing a bonus-humans
compensation card, usable at once (line 192: "except for bonus humans"), and repaying a credit
before the end of the game (line 184: "obliged to return 60,000 humans until the end of the
game"). Every `apply_*` checks the whole decision first and returns OK or the refusal."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.state import emit, pl, touched
from sim.jit import jit


@jit
def is_bonus(p, k):
    return p[L.P_COMP_EFFECT + k] == L.CP_HUMANS


@jit
def bonus_held(s, p, seat, k):
    """Bonus-humans cards of model k the seat holds (received this turn or earlier)."""
    if not is_bonus(p, k):
        return 0
    return s[pl(seat, L.PL_COMPS + k)] + s[pl(seat, L.PL_COMPS_NEW + k)]


@jit
def holds_bonus(s, p, seat):
    for k in range(L.MAX_COMP_MODELS):
        if bonus_held(s, p, seat, k) > 0:
            return True
    return False


@jit
def cash_one(s, p, seat, k, log):
    """Cash one bonus-humans card of model k, the oldest first (under compensation.keep
    next_turn it expires first)."""
    field = L.PL_COMPS if s[pl(seat, L.PL_COMPS + k)] > 0 else L.PL_COMPS_NEW
    touched(s, seat)
    s[pl(seat, field + k)] -= 1
    s[L.S_COMP_DISCARD + k] += 1
    s[pl(seat, L.PL_HUMANS)] += p[L.P_COMP_VALUE + k]
    s[pl(seat, L.PL_COMP_HUMANS)] += p[L.P_COMP_VALUE + k]
    emit(log, s, L.EV_COMP_HUMANS, seat, -1, p[L.P_COMP_VALUE + k], 0, 0, 0)


@jit
def apply_cash(s, p, seat, a, log):
    """Cash a[A_CASH + k] bonus-humans cards of each model k; the cards kept are counted."""
    for k in range(L.MAX_COMP_MODELS):
        n = a[L.A_CASH + k]
        if n < 0 or n > bonus_held(s, p, seat, k):
            return L.E_CASH
    kept = 0
    for k in range(L.MAX_COMP_MODELS):
        kept += bonus_held(s, p, seat, k) - a[L.A_CASH + k]
        for _ in range(a[L.A_CASH + k]):
            cash_one(s, p, seat, k, log)
    if kept > 0:
        s[pl(seat, L.PL_BONUS_HELD)] += kept
        emit(log, s, L.EV_HOLD, seat, -1, kept, 0, 0, 0)
    return L.OK


@jit
def repay_possible(s, p, seat):
    """Whether the captain may repay a credit now: credit.repay_when choice, a credit open
    and the humans to cover it."""
    return (
        p[L.P_CREDIT_REPAY_WHEN] == L.REPAY_CHOICE
        and s[pl(seat, L.PL_CREDITS)] > 0
        and s[pl(seat, L.PL_HUMANS)] >= p[L.P_CREDIT_REPAY]
    )


@jit
def repay_credits(s, p, seat, n, log):
    for _ in range(n):
        touched(s, seat)
        s[pl(seat, L.PL_HUMANS)] -= p[L.P_CREDIT_REPAY]
        s[pl(seat, L.PL_CREDITS)] -= 1
        s[pl(seat, L.PL_REPAID)] += p[L.P_CREDIT_REPAY]
        emit(log, s, L.EV_REPAY, seat, -1, p[L.P_CREDIT_REPAY], 0, 0, 0)


@jit
def apply_repay(s, p, seat, a, log):
    """Repay a[A_REPAY] credits now: at most those open, and only what the humans cover."""
    n = a[L.A_REPAY]
    if n < 0 or n > s[pl(seat, L.PL_CREDITS)] or n * p[L.P_CREDIT_REPAY] > s[pl(seat, L.PL_HUMANS)]:
        return L.E_REPAY
    repay_credits(s, p, seat, n, log)
    s[pl(seat, L.PL_REPAID_EARLY)] += n
    return L.OK
