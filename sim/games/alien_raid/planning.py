"""Phases 2-4: cities on the board, planning within the fuel limit, the simultaneous reveal
and the transfers after it (rulebook lines 82-94, 214-246, FAQ 357-371)."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import (
    group_attack,
    mf,
    ship_attack,
    station_fuel,
    usable_station,
)
from sim.games.alien_raid.state import draw_city, emit, pl, recording, touched
from sim.jit import jit, jit_inline


@jit
def deal_cities(s, p, log):
    """3/4/5/6 cities for 2/3/4/5 players, on spaces 1.. from the deck (line 84)."""
    n = p[L.P_CITIES_PER_TURN + s[L.S_N_PLAYERS]]
    s[L.S_N_BOARD] = n
    for k in range(L.MAX_BOARD):
        c = draw_city(s) if k < n else -1
        s[L.S_BOARD + k] = c
        s[L.S_BOARD_DEALT + k] = c
        if c >= 0:
            emit(log, s, L.EV_CITY, -1, k, c, 0, 0, 0)


@jit
def fuel_available(s, p, seat):
    """This turn's limit plus the seat's fuel stations (fuel cards come on top)."""
    return s[L.S_FUEL] + station_fuel(p, s[pl(seat, L.PL_STATIONS) :], L.MAX_STATIONS)


@jit
def fuel_card_value(p, k):
    return p[L.P_COMP_VALUE + k] if p[L.P_COMP_EFFECT + k] == L.CP_FUEL else 0


@jit
def check_plan(s, p, seat, a):
    """Each ship attacks at most one city on the board; the ships sent need at most the fuel
    limit plus the stations' fuel plus the discarded fuel cards (lines 86-88, 222-224)."""
    fuel = 0
    for i in range(L.MAX_HAND):
        t = a[L.A_TARGET + i]
        if t < 0:
            continue
        m = s[pl(seat, L.PL_HAND + i)]
        if m < 0:
            return L.E_PLAN_SLOT
        if t >= L.MAX_BOARD or s[L.S_BOARD + t] < 0:
            return L.E_PLAN_SPACE
        fuel += mf(p, m, L.M_FUEL)
    extra = 0
    for k in range(L.MAX_COMP_MODELS):
        used = a[L.A_FUEL_CARDS + k]
        if (
            used < 0
            or used > s[pl(seat, L.PL_COMPS + k)]
            or (used > 0 and fuel_card_value(p, k) == 0)
        ):
            return L.E_FUEL_CARDS
        extra += used * fuel_card_value(p, k)
    if fuel > fuel_available(s, p, seat) + extra:
        return L.E_FUEL
    return L.OK


@jit
def apply_plan(s, p, seat, a):
    """Place the ships face down; the fuel cards used are discarded."""
    err = check_plan(s, p, seat, a)
    if err != L.OK:
        return err
    touched(s, seat)
    for i in range(L.MAX_HAND):
        s[pl(seat, L.PL_TARGET + i)] = a[L.A_TARGET + i]
    for k in range(L.MAX_COMP_MODELS):
        s[pl(seat, L.PL_COMPS + k)] -= a[L.A_FUEL_CARDS + k]
        s[L.S_COMP_DISCARD + k] += a[L.A_FUEL_CARDS + k]
    return L.OK


@jit
def group_of(s, seat, space, buf, slots):
    """The models (buf) and slots of the seat's ships attacking `space`; returns how many."""
    n = 0
    for i in range(L.MAX_HAND):
        if s[pl(seat, L.PL_TARGET + i)] == space and s[pl(seat, L.PL_HAND + i)] >= 0:
            buf[n] = s[pl(seat, L.PL_HAND + i)]
            slots[n] = i
            n += 1
    return n


@jit
def attackers(s, space):
    """Bit mask of the captains with ships at `space`."""
    mask = 0
    for seat in range(s[L.S_N_PLAYERS]):
        for i in range(L.MAX_HAND):
            if s[pl(seat, L.PL_TARGET + i)] == space and s[pl(seat, L.PL_HAND + i)] >= 0:
                mask |= 1 << seat
                break
    return mask


@jit
def reveal(s, p, log, buf, slots):
    """All captains turn their ships and tokens face up at once (line 90): the ships are
    public from now on (FAQ 329)."""
    for seat in range(s[L.S_N_PLAYERS]):
        for i in range(L.MAX_HAND):
            if s[pl(seat, L.PL_TARGET + i)] >= 0:
                touched(s, seat)
                s[pl(seat, L.PL_KNOWN + i)] = 1
        for space in range(s[L.S_N_BOARD]):
            n = group_of(s, seat, space, buf, slots)
            if n > 0:
                s[pl(seat, L.PL_ATTACKS)] += 1
                if not recording(log):  # the attacks below are for the log alone
                    continue
                mask = 0
                for j in range(n):
                    mask |= 1 << slots[j]
                city = s[L.S_BOARD + space]
                for j in range(n):
                    one = ship_attack(p, buf, n, j, city, False, False)
                    emit(log, s, L.EV_SENDS, seat, space, buf[j], one, 0, 0)
                attack = group_attack(p, buf, n, city, False)
                emit(log, s, L.EV_ATTACK, seat, space, mask, attack, 0, 0)


@jit
def unused_station(s, p, seat, effect):
    """Slot of the seat's unused station of that effect, or -1."""
    return usable_station(p, s[pl(seat, L.PL_STATIONS) :], s[pl(seat, L.PL_STATION_USED) :], effect)


@jit_inline  # small: pasted (as a call numba compiled it once per mix of argument types)
def use_station(s, seat, slot):
    touched(s, seat)
    s[pl(seat, L.PL_STATION_USED + slot)] = 1
    s[pl(seat, L.PL_STATIONS_USED)] += 1


@jit
def apply_station_transfer(s, p, seat, a, log):
    """A station moves an enemy ship to another city on the board (FAQ 357-359); a[A_USE]
    -1 passes. Applied in seat order after every captain has decided; a ship already moved to
    the destination by an earlier station stays (the station is spent)."""
    slot = a[L.A_USE]
    if slot < 0:
        return L.OK
    if slot >= L.MAX_STATIONS or s[pl(seat, L.PL_STATIONS + slot)] < 0:
        return L.E_STATION_USE
    if (
        s[pl(seat, L.PL_STATION_USED + slot)]
        or mf(p, s[pl(seat, L.PL_STATIONS + slot)], L.M_EFFECT) != L.ST_TRANSFER
    ):
        return L.E_STATION_USE
    who, ship, dest = a[L.A_T_PLAYER], a[L.A_T_SLOT], a[L.A_T_CITY]
    if who == seat or who < 0 or who >= s[L.S_N_PLAYERS] or ship < 0 or ship >= L.MAX_HAND:
        return L.E_TRANSFER_TARGET
    space = s[pl(who, L.PL_TARGET + ship)]
    if space < 0 or dest < 0 or dest >= L.MAX_BOARD or s[L.S_BOARD + dest] < 0:
        return L.E_TRANSFER_TARGET
    use_station(s, seat, slot)
    if dest == space:  # another captain's station moved it there first (decided at once)
        return L.OK
    touched(s, who)
    s[pl(who, L.PL_TARGET + ship)] = dest
    emit(log, s, L.EV_TRANSFER, who, space, dest, ship, seat, s[pl(who, L.PL_HAND + ship)])
    return L.OK


@jit
def check_ship_transfer(s, p, seat, a):
    """Own transferring ships (trait `transfer`) may move to another city (FAQ 369-371)."""
    for i in range(L.MAX_HAND):
        dest = a[L.A_TARGET + i]
        if dest < 0:
            continue
        m = s[pl(seat, L.PL_HAND + i)]
        here = s[pl(seat, L.PL_TARGET + i)]
        if m < 0 or here < 0 or mf(p, m, L.M_TRANSFER) == 0:
            return L.E_TRANSFER_TARGET
        if dest >= L.MAX_BOARD or dest == here or s[L.S_BOARD + dest] < 0:
            return L.E_TRANSFER_TARGET
    return L.OK


@jit
def apply_ship_transfer(s, seat, a, log):
    for i in range(L.MAX_HAND):
        dest = a[L.A_TARGET + i]
        if dest >= 0:
            here = s[pl(seat, L.PL_TARGET + i)]
            emit(log, s, L.EV_TRANSFER, seat, here, dest, i, -1, s[pl(seat, L.PL_HAND + i)])
            touched(s, seat)
            s[pl(seat, L.PL_TARGET + i)] = dest
            s[pl(seat, L.PL_TRANSFERS)] += 1


@jit
def can_transfer_ships(s, p, seat):
    for i in range(L.MAX_HAND):
        m = s[pl(seat, L.PL_HAND + i)]
        if m >= 0 and s[pl(seat, L.PL_TARGET + i)] >= 0 and mf(p, m, L.M_TRANSFER):
            return True
    return False


@jit
def any_attack(s):
    for seat in range(s[L.S_N_PLAYERS]):
        for i in range(L.MAX_HAND):
            if s[pl(seat, L.PL_TARGET + i)] >= 0:
                return True
    return False
