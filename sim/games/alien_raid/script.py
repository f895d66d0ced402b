"""Scripted decisions: a scenario's captains answer from a table instead of a strategy.

Each row of `script` (int32) is one decision: [used, turn, seat, phase, space, refuse, v0, v1,
...]. The first unused row matching (turn, seat, phase, space) answers the decision and is
marked used; a decision without a row keeps the default answer (decision.reset_action). A row
with `refuse` (an error code) is an answer the rules must refuse with that error: the refusal
is logged and the decision asked again (`expected_refusal`), so the turn goes on. Values name
card models and board spaces, not hand slots (sim/games/alien_raid/scenario.py writes them):
    redraw, fight, trophy, reward (1 catch), army: [yes]      credit: [credits]
    buy: [model, model, room model, room model]              (-1 none; a station's room
                                                              model is a held station)
    plan: [n, model, space, model, space, ..., fuel card, count]   (pairs at 1..12, fuel at 13)
    ship_transfer: [n, model, space, ...]
    station_transfer: [use, captain, model, space]
    boost: [kind (1 station, 2 card), model, captain, ship model]
    lose_ship: [model]             scan: [army card index]
    cash: [count per compensation model, -1 every one held]   repay: [credits]
"""

from numpy import int64 as I64

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import mf
from sim.games.alien_raid.observe import op
from sim.games.alien_raid.state import emit
from sim.jit import jit, jit_inline

SCRIPT_WIDTH = 25
S_USED, S_TURN, S_SEAT, S_PHASE, S_SPACE, S_REFUSE, S_VALUES = 0, 1, 2, 3, 4, 5, 6
SCRIPT_KIND = -1  # the policy slot of a scripted captain (decide.py)
PLAN_FUEL = 13  # plan: the fuel card's value index
# S_USED: 0 not yet, 1 answered, 2 answered and its refusal awaited, 3 the refusal was not given
ANSWERED, AWAITING, MISSED = 1, 2, 3
ANYWHERE = -2  # S_SPACE of an answer to the decision wherever it is asked (cash: on receipt
# of the card in a battle's aftermath, or in the buying phase)


@jit
def find_row(script, turn, seat, phase, space):
    for r in range(script.shape[0]):
        row = script[r]
        mine = row[S_SEAT] == seat or row[S_SEAT] == -1  # -1: whoever decides (the winner)
        where = row[S_SPACE] == space or row[S_SPACE] == ANYWHERE
        when = row[S_TURN] == turn and row[S_PHASE] == phase and where
        if row[S_USED] == 0 and mine and when:
            return r
    return -1


@jit_inline
def slot_of(obs, k, model, space, taken):
    """Captain k's first ship slot holding `model` (at `space` unless space < -1), not in the
    bit mask `taken`; -1 if none. Pasted: one compiled `_slot_of` for every caller (a literal
    space or mask, or an int32 space, is a type of its own; numba compiled it five times)."""
    return _slot_of(obs, I64(k), I64(model), I64(space), I64(taken))


@jit
def _slot_of(obs, k, model, space, taken):
    for i in range(L.MAX_HAND):
        if (taken >> i) & 1 or obs[op(k, L.OP_HAND + i)] != model:
            continue
        if space >= -1 and obs[op(k, L.OP_TARGET + i)] != space:
            continue
        return i
    return -1


@jit
def station_slot(obs, k, model):
    for i in range(L.MAX_STATIONS):
        if obs[op(k, L.OP_STATIONS + i)] == model:
            return i
    return -1


@jit
def station_with(obs, p, effect):
    seat = obs[L.O_SEAT]
    for i in range(L.MAX_STATIONS):
        m = obs[op(seat, L.OP_STATIONS + i)]
        if m >= 0 and mf(p, m, L.M_EFFECT) == effect:
            return i
    return -1


@jit
def policy(phase, obs, p, a, script):
    seat = obs[L.O_SEAT]
    r = find_row(script, obs[L.O_TURN], seat, phase, obs[L.O_CITY])
    if r < 0:
        return
    script[r, S_USED] = AWAITING if script[r, S_REFUSE] > 0 else ANSWERED
    v = script[r, S_VALUES:]
    if phase == L.PH_BUY:
        _buy(obs, p, a, v)
    elif phase == L.PH_CREDIT:
        a[L.A_CREDITS] = v[0]
    elif phase == L.PH_PLAN or phase == L.PH_SHIP_TRANSFER:
        at = -2 if phase == L.PH_PLAN else -3  # planning: any slot; transfer: attacking ones
        taken = 0
        for j in range(v[0]):
            i = slot_of(obs, seat, v[1 + 2 * j], at, taken)
            if phase == L.PH_SHIP_TRANSFER:
                i = _attacking_slot(obs, seat, v[1 + 2 * j], taken)
            if i >= 0:
                a[L.A_TARGET + i] = v[2 + 2 * j]
                taken |= 1 << i
        if phase == L.PH_PLAN and v[PLAN_FUEL] >= 0:
            a[L.A_FUEL_CARDS + v[PLAN_FUEL]] = v[PLAN_FUEL + 1]
    elif phase == L.PH_STATION_TRANSFER:
        if v[0]:
            a[L.A_USE] = station_with(obs, p, L.ST_TRANSFER)
            a[L.A_T_PLAYER] = v[1]
            a[L.A_T_SLOT] = _attacking_slot(obs, v[1], v[2], I64(0))
            a[L.A_T_CITY] = v[3]
    elif phase == L.PH_BOOST:
        if v[0] == 1:
            a[L.A_USE] = station_slot(obs, seat, v[1])
        elif v[0] == 2:
            a[L.A_USE_CARD] = v[1]
        a[L.A_T_PLAYER] = v[2]
        a[L.A_T_SLOT] = slot_of(obs, v[2], v[3], obs[L.O_CITY], 0) if v[2] >= 0 else -1
    elif phase == L.PH_LOSE_SHIP:
        a[L.A_SLOT] = slot_of(obs, seat, v[0], obs[L.O_CITY], 0)
    elif phase == L.PH_SCAN:
        if v[0] >= 0:
            a[L.A_USE] = station_with(obs, p, L.ST_SCAN)
            a[L.A_T_CITY] = v[0]
    elif phase == L.PH_CASH:  # -1 keeps the default: every card held
        for k in range(L.MAX_COMP_MODELS):
            if v[k] >= 0:
                a[L.A_CASH + k] = v[k]
    elif phase == L.PH_REPAY:
        a[L.A_REPAY] = v[0]
    else:
        a[L.A_YES] = v[0]


@jit
def expected_refusal(script, which, s, seat, err, log):
    """Whether `err` is the refusal a scenario's script expected of the answer `seat` just gave
    (then it is logged and the rules ask again); an answer expected to be refused and not
    refused so is marked MISSED (the scenario reports it). False for a seat a strategy plays."""
    if which[seat] != SCRIPT_KIND:
        return False
    for r in range(script.shape[0]):
        row = script[r]
        if row[S_USED] == AWAITING and (row[S_SEAT] == seat or row[S_SEAT] == -1):
            if err == row[S_REFUSE]:
                row[S_USED] = ANSWERED
                emit(log, s, L.EV_REFUSED, seat, row[S_SPACE], err, 0, 0, 0)
                return True
            row[S_USED] = MISSED
            return False
    return False


@jit
def _attacking_slot(obs, k, model, taken):
    for i in range(L.MAX_HAND):
        free = (taken >> i) & 1 == 0
        if free and obs[op(k, L.OP_HAND + i)] == model and obs[op(k, L.OP_TARGET + i)] >= 0:
            return i
    return -1


@jit
def _buy(obs, p, a, v):
    seat = obs[L.O_SEAT]
    taken, rooms = 0, 0
    for j in range(L.MAX_DRAWN):
        m = v[j]
        if m < 0:
            continue
        for i in range(L.MAX_DRAWN):
            if (taken >> i) & 1 == 0 and obs[L.O_DRAWN + i] == m:
                taken |= 1 << i
                a[L.A_BUY + i] = 1
                room = v[2 + j]
                if room >= 0:
                    s = slot_of(obs, seat, room, -2, rooms)
                    if s >= 0:
                        rooms |= 1 << s
                        a[L.A_ROOM + i] = s
                    else:
                        a[L.A_ROOM + i] = L.MAX_HAND + station_slot(obs, seat, room)
                break
