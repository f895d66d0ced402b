"""One turn, phase by phase, asking the captains for their decisions (rulebook lines 78-124).
Simultaneous phases (buying, planning, the transfers) collect every captain's answer before
any is applied. A refused decision stops the game: S_ERROR and S_ERROR_SEAT say why and who.
"""

from numpy import int64 as I64

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.buying import (
    apply_buy,
    apply_credits,
    apply_redraw,
    credit_possible,
    offer,
    redraw_allowed,
    start_turn,
)
from sim.games.alien_raid.decide import again, decide, decide_into, decide_next_into
from sim.games.alien_raid.flow_city import resolve_city
from sim.games.alien_raid.options import apply_cash, apply_repay, holds_bonus, repay_possible
from sim.games.alien_raid.planning import (
    any_attack,
    apply_plan,
    apply_ship_transfer,
    apply_station_transfer,
    can_transfer_ships,
    check_ship_transfer,
    deal_cities,
    reveal,
    unused_station,
)
from sim.games.alien_raid.state import refused
from sim.jit import jit, jit_inline


@jit
def play_turn(s, p, rng, ctx, log):
    """One turn: buying, the cities dealt, planning and the reveal, each city resolved."""
    start_turn(s, p, log)
    if buy_phase(s, p, rng, ctx, log) != L.OK:
        return s[L.S_ERROR]
    deal_cities(s, p, log)
    if plan_phase(s, p, rng, ctx, log) != L.OK:
        return s[L.S_ERROR]
    for space in range(s[L.S_N_BOARD]):
        if s[L.S_BOARD + space] >= 0:
            if resolve_city(s, p, rng, ctx, log, space) != L.OK:
                return s[L.S_ERROR]
            s[L.S_BOARD + space] = -1
            s[L.S_F_KEPT] = 0  # the fights' kept attacks were of that city (fighter_total)
    s[L.S_TURN] += 1
    return L.OK


@jit_inline  # pasted into play_turn, its one caller: LLVM compiles its rules once less
def buy_phase(s, p, rng, ctx, log):
    """Credits repaid early if chosen; two cards each; redraws; credits (before buying, FAQ
    319-321); bonus-humans cards cashed if chosen; purchases."""
    a = ctx[4]
    n = s[L.S_N_PLAYERS]
    for seat in range(n):
        if repay_possible(s, p, seat):
            while True:
                decide(ctx, s, p, rng, seat, L.PH_REPAY, -1)
                err = apply_repay(s, p, seat, a, log)
                if not again(ctx, s, seat, err, log):
                    break
            if refused(s, err, seat):
                return s[L.S_ERROR]
    for seat in range(n):
        offer(s, p, rng, seat, log)
    for seat in range(n):
        while redraw_allowed(s, p, seat):
            decide(ctx, s, p, rng, seat, L.PH_REDRAW, -1)
            if a[L.A_YES] == 0:
                break
            if refused(s, apply_redraw(s, p, rng, seat, log), seat):
                return s[L.S_ERROR]
    credit, cash = I64(0), I64(0)  # int64 masks: one compiled `simultaneous`
    for seat in range(n):
        if credit_possible(s, p, seat):
            credit |= 1 << seat
        if holds_bonus(s, p, seat):
            cash |= 1 << seat
    if simultaneous(s, p, rng, ctx, log, L.PH_CREDIT, credit) != L.OK:
        return s[L.S_ERROR]
    if simultaneous(s, p, rng, ctx, log, L.PH_CASH, cash) != L.OK:
        return s[L.S_ERROR]
    if simultaneous(s, p, rng, ctx, log, L.PH_BUY, (1 << n) - 1) != L.OK:
        return s[L.S_ERROR]
    return L.OK


@jit_inline  # pasted into settle, its one caller: LLVM compiles its rules once less
def _apply(s, p, seat, phase, act, log):
    """Apply `seat`'s answer `act` to a simultaneous phase; OK or the refusal."""
    if phase == L.PH_CREDIT:
        if act[L.A_CREDITS] == 0 and act[L.A_PROBE] == 0:
            return L.OK
        return apply_credits(s, p, seat, act, log)
    if phase == L.PH_CASH:
        return apply_cash(s, p, seat, act, log)
    if phase == L.PH_BUY:
        return apply_buy(s, p, seat, act, log)
    if phase == L.PH_PLAN:
        return apply_plan(s, p, seat, act)
    return apply_station_transfer(s, p, seat, act, log)


@jit
def simultaneous(s, p, rng, ctx, log, phase, asked):
    """A phase every captain in the bit mask `asked` plays at the same time: all decide on
    the same information, then the answers are applied in seat order (R22). OK, or the
    refusal that stopped the game."""
    n = s[L.S_N_PLAYERS]
    first = True
    for seat in range(n):
        if (asked >> seat) & 1:
            if first:
                decide_into(ctx, s, p, rng, seat, phase, -1)
            else:  # nothing has changed since the last captain's decision
                decide_next_into(ctx, s, p, rng, seat, phase, -1)
            first = False
    for seat in range(n):
        if (asked >> seat) & 1 and settle(s, p, rng, ctx, log, seat, phase) != L.OK:
            return s[L.S_ERROR]
    return L.OK


@jit_inline  # pasted into simultaneous, its one caller: LLVM compiles its rules once less
def settle(s, p, rng, ctx, log, seat, phase):
    """Apply `seat`'s answer to a simultaneous phase (decided with the others'); a refusal a
    scenario expected asks it again. OK, or the refusal (recorded: the game stops)."""
    acts = ctx[5]
    while True:
        err = _apply(s, p, seat, phase, acts[seat], log)
        if not again(ctx, s, seat, err, log):
            break
        decide_into(ctx, s, p, rng, seat, phase, -1)
    refused(s, err, seat)
    return err


@jit_inline  # pasted into play_turn, its one caller: LLVM compiles its rules once less
def plan_phase(s, p, rng, ctx, log):
    """Plans face down, the reveal, then stations' transfers before ships' own (FAQ 359)."""
    acts, buf, slots = ctx[5], ctx[9], ctx[10]
    n = s[L.S_N_PLAYERS]
    if simultaneous(s, p, rng, ctx, log, L.PH_PLAN, (1 << n) - 1) != L.OK:
        return s[L.S_ERROR]
    reveal(s, p, log, buf, slots)
    tractors = I64(0)
    for seat in range(n):
        if unused_station(s, p, seat, L.ST_TRANSFER) >= 0 and any_attack(s):
            tractors |= 1 << seat
    if simultaneous(s, p, rng, ctx, log, L.PH_STATION_TRANSFER, tractors) != L.OK:
        return s[L.S_ERROR]
    asked = 0
    for seat in range(n):
        if can_transfer_ships(s, p, seat):
            while True:
                decide_into(ctx, s, p, rng, seat, L.PH_SHIP_TRANSFER, -1)
                err = check_ship_transfer(s, p, seat, acts[seat])
                if not again(ctx, s, seat, err, log):
                    break
            if refused(s, err, seat):
                return s[L.S_ERROR]
            asked |= 1 << seat
    for seat in range(n):
        if (asked >> seat) & 1:
            apply_ship_transfer(s, seat, acts[seat], log)
    return L.OK
