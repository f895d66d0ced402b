"""Fights with decisions: retreat or fight for a contested city, the battle, stations and
cards after a roll, the ship a loser gives up (rulebook lines 96-102, 248-269, FAQ 345-351,
the Paris example). Refusals are recorded with their seat in S_ERROR."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import group_attack
from sim.games.alien_raid.decide import again, decide, decide_after
from sim.games.alien_raid.fighting import (
    apply_boost,
    boost_passes,
    boost_usable,
    check_lose,
    clear_fight,
    destroy,
    destroyable_in_fight,
    fighter_total,
)
from sim.games.alien_raid.planning import group_of
from sim.games.alien_raid.state import emit, pl, recording, refused, roll_2d6, touched
from sim.jit import jit
from sim.random_streams import below


@jit
def take_city(s, seat, city):
    """The city card as a trophy, in front of the captain (lines 104, 120)."""
    n = s[pl(seat, L.PL_N_WON)]
    if n < L.MAX_WON:
        touched(s, seat)
        s[pl(seat, L.PL_WON + n)] = city
        s[pl(seat, L.PL_N_WON)] = n + 1


@jit
def retreat_or_fight(s, p, rng, ctx, log, space, mask):
    """Each attacker chooses, the one with less attack power first (lines 102, 252; equal
    powers "agree on who decides first": a coin, or under battle.first_of_equals seat the
    earlier seat). A captain left alone does not choose. The order is kept in S_F_RANK.
    Returns the mask of those who fight."""
    decided, buf, slots, totals = ctx[6], ctx[9], ctx[10], ctx[11]
    a = ctx[4]
    n = s[L.S_N_PLAYERS]
    for seat in range(L.MAX_PLAYERS):
        decided[seat] = 0
        totals[seat] = -1
        if (mask >> seat) & 1:
            k = group_of(s, seat, space, buf, slots)
            power = group_attack(p, buf, k, s[L.S_BOARD + space], False)
            first = seat if p[L.P_EQUAL_BY_SEAT] else below(rng, L.GAME_STREAM, 64)
            totals[seat] = power * 64 + first
    for seat in range(L.MAX_PLAYERS):  # the decision order: lower totals first, then seats
        s[L.S_F_RANK + seat] = 0
        for k in range(L.MAX_PLAYERS):
            before = totals[k] < totals[seat] or (totals[k] == totals[seat] and k < seat)
            if (mask >> k) & 1 and before:
                s[L.S_F_RANK + seat] += 1
    staying = mask
    last = -1  # the captain asked last
    for _ in range(n):
        seat = -1
        for k in range(n):  # the weakest captain not asked yet
            if (mask >> k) & 1 and decided[k] == 0 and (seat < 0 or totals[k] < totals[seat]):
                seat = k
        if seat < 0 or staying == 1 << seat:
            break
        if last < 0:
            decide(ctx, s, p, rng, seat, L.PH_FIGHT, space)
        else:  # since the last captain's decision only his answer has changed anything
            decide_after(ctx, s, p, rng, seat, L.PH_FIGHT, last)
        last = seat
        if a[L.A_YES]:
            decided[seat] = 1
            continue
        decided[seat] = 2
        staying &= ~(1 << seat)
        retreat(s, seat, space, log)
    for seat in range(L.MAX_PLAYERS):
        decided[seat] = 0
    return staying


@jit
def retreat(s, seat, space, log):
    """The captain retreats from `space`: the ships return to the hand (line 98)."""
    s[pl(seat, L.PL_RETREATS)] += 1
    emit(log, s, L.EV_RETREAT, seat, space, 0, 0, 0, 0)
    touched(s, seat)
    for i in range(L.MAX_HAND):
        if s[pl(seat, L.PL_TARGET + i)] == space:
            s[pl(seat, L.PL_TARGET + i)] = -1


@jit
def battle(s, p, rng, ctx, log, space, fighters):
    """2d6 each plus the attack; stations and cards after the roll; the greatest total wins;
    equal leaders roll again with their attack (FAQ 349-351). Returns the winner (-1 refused)."""
    buf, slots, totals = ctx[9], ctx[10], ctx[11]
    n = s[L.S_N_PLAYERS]
    clear_fight(s, space, -1)
    for seat in range(n):
        if (fighters >> seat) & 1:
            s[L.S_F_IN + seat] = 1
            s[pl(seat, L.PL_BATTLES)] += 1
            emit(log, s, L.EV_FIGHT, seat, space, 0, 0, 0, 0)
    while True:
        for seat in range(n):
            if s[L.S_F_IN + seat]:
                s[L.S_F_ROLL + seat] = 0
                power = fighter_total(s, p, seat, buf, slots) if recording(log) else 0  # log
                s[L.S_F_ROLL + seat] = roll_2d6(s, rng)
                roll = s[L.S_F_ROLL + seat]
                emit(log, s, L.EV_ROLL, seat, space, power, roll, power + roll, 0)
        if not boost_round(s, p, rng, ctx, log, -1):  # it leaves every fighter's total
            return -1
        best, leaders = -1, 0
        for seat in range(n):
            if s[L.S_F_IN + seat]:
                emit(log, s, L.EV_TOTAL, seat, space, totals[seat], 0, 0, 0)
                if totals[seat] > best:
                    best, leaders = totals[seat], 1 << seat
                elif totals[seat] == best:
                    leaders |= 1 << seat
        if leaders & (leaders - 1) == 0:
            for seat in range(n):
                if leaders == 1 << seat:
                    s[pl(seat, L.PL_BATTLES_WON)] += 1
                    emit(log, s, L.EV_WIN, seat, space, best, 0, 0, 0)
                    return seat
        s[L.S_FIRST_TIE] += 1
        emit(log, s, L.EV_TIE, -1, space, best, leaders, 0, 0)
        for seat in range(n):
            if s[L.S_F_IN + seat] and not (leaders >> seat) & 1:
                s[L.S_F_IN + seat] = 0


@jit
def boost_round(s, p, rng, ctx, log, army):
    """After a roll: a captain who is not alone in the lead (against an army: whose total is
    below it; under fight.stations_to anyone, every captain of the fight) may play a station
    or an attack card, the lowest total first; after each play the order is looked at again;
    it ends when nobody plays (the Paris example). Returns False on a refused play; on True,
    ctx's totals hold each fighter's total (fighter_total), nothing having changed since."""
    a, buf, slots, totals = ctx[4], ctx[9], ctx[10], ctx[11]
    n = s[L.S_N_PLAYERS]
    while True:
        best, leaders = -1, 0
        for seat in range(n):
            totals[seat] = fighter_total(s, p, seat, buf, slots) if s[L.S_F_IN + seat] else -1
            if s[L.S_F_IN + seat] and totals[seat] > best:
                best, leaders = totals[seat], 1 << seat
            elif s[L.S_F_IN + seat] and totals[seat] == best:
                leaders |= 1 << seat
        acted = False
        done = 0
        for _ in range(n):
            seat = -1
            for k in range(n):
                behind = (army >= 0 and totals[k] < army) or (army < 0 and (leaders != 1 << k))
                behind = behind or p[L.P_BOOST_ANYONE] != 0
                lowest = seat < 0 or totals[k] < totals[seat]
                if s[L.S_F_IN + k] and behind and not (done >> k) & 1 and lowest:
                    seat = k
            if seat < 0:
                break
            done |= 1 << seat
            if not boost_usable(s, p, seat):
                continue
            err = L.OK
            while True:
                decide(ctx, s, p, rng, seat, L.PH_BOOST, s[L.S_F_CITY])
                if boost_passes(a):
                    break
                err = apply_boost(s, p, seat, a, log)
                if not again(ctx, s, seat, err, log):
                    break
            if boost_passes(a):
                continue
            if refused(s, err, seat):
                return False
            acted = True
            break
        if not acted:
            return True


@jit
def lose_one_ship(s, p, rng, ctx, log, seat):
    """A loser gives up one ship of the fight, of his choice (line 100); invulnerable ships
    never (FAQ 373-379). Returns the model destroyed, -1 none, -2 refused."""
    a = ctx[4]
    count, first = destroyable_in_fight(s, p, seat)
    if count == 0:
        return -1
    slot = first
    if count > 1:
        while True:
            decide(ctx, s, p, rng, seat, L.PH_LOSE_SHIP, s[L.S_F_CITY])
            slot = a[L.A_SLOT]
            err = check_lose(s, p, seat, slot)
            if not again(ctx, s, seat, err, log):
                break
        if refused(s, err, seat):
            return -2
    m = s[pl(seat, L.PL_HAND + slot)]
    destroy(s, seat, slot)
    return m
