"""The start of a turn and phase 1, buying ships and orbital stations (rulebook lines 80,
184-186, 200-208, FAQ 315-321). Every `apply_*` checks the whole decision before changing
anything and returns OK or the refusal (layout.E_*)."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import credit_allowed, fuel_limit, is_station, price
from sim.games.alien_raid.options import repay_credits
from sim.games.alien_raid.state import (
    discard_ship,
    draw_ship,
    emit,
    free_slot,
    pl,
    ships_held,
    stations_held,
    touched,
)
from sim.jit import jit


@jit
def start_turn(s, p, log):
    """Fuel limit; red decks from turn 6 (line 56); compensations received last turn become
    usable (line 192); stations turn back (line 152); credits repaid at once under
    credit.repay_when earliest."""
    turn = s[L.S_TURN]
    s[L.S_FUEL] = fuel_limit(p, turn)
    emit(log, s, L.EV_TURN, -1, -1, s[L.S_FUEL], 0, 0, 0)
    if turn == p[L.P_RED_FROM_TURN]:  # the blue ships left are set aside
        while s[L.S_BLUE_TOP] < s[L.S_BLUE_END]:
            s[L.S_SHIP_ASIDE + s[L.S_SHIPS + s[L.S_BLUE_TOP]]] += 1
            s[L.S_BLUE_TOP] += 1
    for seat in range(s[L.S_N_PLAYERS]):
        touched(s, seat)
        for k in range(L.MAX_COMP_MODELS):
            if p[L.P_COMP_NEXT_TURN_ONLY]:  # unused cards of earlier turns expire
                s[L.S_COMP_DISCARD + k] += s[pl(seat, L.PL_COMPS + k)]
                s[pl(seat, L.PL_COMPS + k)] = 0
            s[pl(seat, L.PL_COMPS + k)] += s[pl(seat, L.PL_COMPS_NEW + k)]
            s[pl(seat, L.PL_COMPS_NEW + k)] = 0
        for i in range(L.MAX_STATIONS):
            s[pl(seat, L.PL_STATION_USED + i)] = 0
        for i in range(L.MAX_HAND):
            s[pl(seat, L.PL_TARGET + i)] = -1
        for i in range(L.MAX_DRAWN):
            s[pl(seat, L.PL_DRAWN + i)] = -1
        s[pl(seat, L.PL_REDRAWS)] = 0
        s[pl(seat, L.PL_SPENT_TURN)] = 0
        s[pl(seat, L.PL_SHIPS_BOUGHT_TURN)] = 0
        if p[L.P_CREDIT_REPAY_WHEN] == L.REPAY_EARLIEST:  # every credit the humans cover
            covered = s[pl(seat, L.PL_HUMANS)] // max(p[L.P_CREDIT_REPAY], 1)
            repay_credits(s, p, seat, min(s[pl(seat, L.PL_CREDITS)], covered), log)


@jit
def red_deck(s, p):
    return s[L.S_TURN] >= p[L.P_RED_FROM_TURN]


@jit
def offer(s, p, rng, seat, log):
    """Each captain takes two cards from the ships deck (line 202)."""
    for i in range(L.MAX_DRAWN):
        m = draw_ship(s, rng, red_deck(s, p))
        s[pl(seat, L.PL_DRAWN + i)] = m
        if m >= 0:
            s[pl(seat, L.PL_OFFERED + m)] += 1
    emit(log, s, L.EV_OFFER, seat, -1, s[pl(seat, L.PL_DRAWN)], s[pl(seat, L.PL_DRAWN + 1)], 0, 0)


@jit
def redraw_allowed(s, p, seat):
    """Two stations drawn: the captain may show them, discard them and draw two more
    (line 208); buy.station_redraw says once per turn or as long as it happens."""
    if p[L.P_REDRAW] == 0 or (p[L.P_REDRAW] == 1 and s[pl(seat, L.PL_REDRAWS)] > 0):
        return False
    for i in range(L.MAX_DRAWN):
        if not is_station(p, s[pl(seat, L.PL_DRAWN + i)]):
            return False
    return True


@jit
def apply_redraw(s, p, rng, seat, log):
    if not redraw_allowed(s, p, seat):
        return L.E_REDRAW
    for i in range(L.MAX_DRAWN):
        discard_ship(s, s[pl(seat, L.PL_DRAWN + i)])
    s[pl(seat, L.PL_REDRAWS)] += 1
    emit(log, s, L.EV_REDRAW, seat, -1, 0, 0, 0, 0)
    offer(s, p, rng, seat, log)
    return L.OK


@jit
def credit_possible(s, p, seat):
    """Whether the captain may take a credit now (conditions and credit cards left)."""
    if p[L.P_CREDIT_CARDS] > 0 and s[L.S_CREDITS_LEFT] <= 0:
        return False
    return credit_allowed(p, s[pl(seat, L.PL_HUMANS)], ships_held(s, seat))


@jit
def apply_credits(s, p, seat, a, log):
    """Take a[A_CREDITS] credits one after the other, each under the conditions (lines
    184-186; FAQ 319-321: before buying). With limited cards, a credit the bank has no card
    for is not given (ruling; credits are given in seat order)."""
    for _ in range(a[L.A_CREDITS]):
        if not credit_allowed(p, s[pl(seat, L.PL_HUMANS)], ships_held(s, seat)):
            return L.E_CREDIT_CONDITION
        if p[L.P_CREDIT_CARDS] > 0:
            if s[L.S_CREDITS_LEFT] <= 0:
                return L.OK
            s[L.S_CREDITS_LEFT] -= 1
        touched(s, seat)
        s[pl(seat, L.PL_HUMANS)] += p[L.P_CREDIT_AMOUNT]
        s[pl(seat, L.PL_CREDITS)] += 1
        s[pl(seat, L.PL_CREDITS_TAKEN)] += 1
        emit(log, s, L.EV_CREDIT, seat, -1, s[pl(seat, L.PL_HUMANS)], 0, 0, 0)
    if a[L.A_PROBE] > 0 and s[pl(seat, L.PL_CP_TURN)] == 0:
        s[pl(seat, L.PL_CP_TURN)] = s[L.S_TURN]
        s[pl(seat, L.PL_CP_TOOK)] = a[L.A_CREDITS] > 0
    return L.OK


@jit
def check_buy(s, p, seat, a):
    """The refusal a purchase breaks, or OK: how many cards, the price (line 317: only with
    enough humans), the limits of 5 ships and 2 different stations, and room made only by
    discarding a held card when the limit is reached (line 206)."""
    n_buy, cost, ships_in, stations_in, ship_room, station_room = 0, 0, 0, 0, 0, 0
    for i in range(L.MAX_DRAWN):
        m = s[pl(seat, L.PL_DRAWN + i)]
        if a[L.A_BUY + i] == 0:
            if a[L.A_ROOM + i] >= 0:
                return L.E_ROOM_SLOT
            continue
        if m < 0:
            return L.E_BUY_CARD
        n_buy += 1
        cost += price(p, m)
        if is_station(p, m):
            stations_in += 1
        else:
            ships_in += 1
        room = a[L.A_ROOM + i]
        if room < 0:
            continue
        if is_station(p, m):
            if room < L.MAX_HAND or room >= L.MAX_HAND + L.MAX_STATIONS:
                return L.E_ROOM_SLOT
            if s[pl(seat, L.PL_STATIONS + room - L.MAX_HAND)] < 0:
                return L.E_ROOM_SLOT
            station_room += 1
        else:
            if room >= L.MAX_HAND or s[pl(seat, L.PL_HAND + room)] < 0:
                return L.E_ROOM_SLOT
            ship_room += 1
    if n_buy > p[L.P_BUY_MAX]:
        return L.E_BUY_CARD
    if a[L.A_ROOM] >= 0 and a[L.A_ROOM] == a[L.A_ROOM + 1]:
        return L.E_ROOM_SLOT
    if cost > s[pl(seat, L.PL_HUMANS)]:
        return L.E_CANNOT_PAY
    ships, stations = ships_held(s, seat), stations_held(s, seat)
    if ships + ships_in - ship_room > p[L.P_HAND_SHIPS]:
        return L.E_HAND_FULL
    if stations + stations_in - station_room > p[L.P_HAND_STATIONS]:
        return L.E_HAND_FULL
    if ship_room > max(0, ships + ships_in - p[L.P_HAND_SHIPS]):
        return L.E_ROOM_SLOT  # room is made only at the limit
    if station_room > max(0, stations + stations_in - p[L.P_HAND_STATIONS]):
        return L.E_ROOM_SLOT
    return _check_station_kinds(s, p, seat, a)


@jit
def _check_station_kinds(s, p, seat, a):
    """No two stations of the same kind after the purchase (line 206)."""
    for i in range(L.MAX_DRAWN):
        m = s[pl(seat, L.PL_DRAWN + i)]
        if a[L.A_BUY + i] == 0 or not is_station(p, m):
            continue
        for j in range(L.MAX_STATIONS):
            kept = not (a[L.A_ROOM] == L.MAX_HAND + j or a[L.A_ROOM + 1] == L.MAX_HAND + j)
            if kept and s[pl(seat, L.PL_STATIONS + j)] == m:
                return L.E_STATION_TWICE
        other = s[pl(seat, L.PL_DRAWN + 1 - i)]
        if i == 0 and a[L.A_BUY + 1] and other == m:
            return L.E_STATION_TWICE
    return L.OK


@jit
def apply_buy(s, p, seat, a, log):
    """Pay, make room, take the cards; the cards not bought are discarded face up (line 204)."""
    err = check_buy(s, p, seat, a)
    if err != L.OK:
        return err
    _record_probe(s, p, seat, a)
    touched(s, seat)
    for i in range(L.MAX_DRAWN):
        room = a[L.A_ROOM + i]
        if a[L.A_BUY + i] and room >= 0:
            field = L.PL_HAND + room if room < L.MAX_HAND else L.PL_STATIONS + room - L.MAX_HAND
            old = s[pl(seat, field)]
            s[pl(seat, field)] = -1
            discard_ship(s, old)
            emit(log, s, L.EV_DISCARD, seat, -1, old, 0, 0, 0)
    for i in range(L.MAX_DRAWN):
        m = s[pl(seat, L.PL_DRAWN + i)]
        if m < 0:
            continue
        if a[L.A_BUY + i] == 0:
            discard_ship(s, m)
            continue
        cost = price(p, m)
        s[pl(seat, L.PL_HUMANS)] -= cost
        s[pl(seat, L.PL_SPENT)] += cost
        s[pl(seat, L.PL_BOUGHT + m)] += 1
        if is_station(p, m):
            slot = free_slot(s, seat, L.PL_STATIONS, L.MAX_STATIONS)
            s[pl(seat, L.PL_STATIONS + slot)] = m
            s[pl(seat, L.PL_STATION_USED + slot)] = 0
        else:
            slot = free_slot(s, seat, L.PL_HAND, L.MAX_HAND)
            s[pl(seat, L.PL_HAND + slot)] = m
            s[pl(seat, L.PL_KNOWN + slot)] = 0
            s[pl(seat, L.PL_BOUGHT_TURN + slot)] = s[L.S_TURN]
            s[pl(seat, L.PL_SPENT_TURN)] += cost
            s[pl(seat, L.PL_SHIPS_BOUGHT_TURN)] += 1
        emit(log, s, L.EV_BUY, seat, -1, m, cost, 0, 0)
    for i in range(L.MAX_DRAWN):
        s[pl(seat, L.PL_DRAWN + i)] = -1
    return L.OK


@jit
def _record_probe(s, p, seat, a):
    """The first randomised purchase decision of the game (reports: fair prices)."""
    k = a[L.A_PROBE] - 1
    if k < 0 or k >= L.MAX_DRAWN or s[pl(seat, L.PL_PROBE_CARD)] >= 0:
        return
    m = s[pl(seat, L.PL_DRAWN + k)]
    if m < 0:
        return
    s[pl(seat, L.PL_PROBE_CARD)] = m
    s[pl(seat, L.PL_PROBE_BOUGHT)] = a[L.A_BUY + k]
    s[pl(seat, L.PL_PROBE_TURN)] = s[L.S_TURN]
    s[pl(seat, L.PL_PROBE_PRICE)] = price(p, m)
